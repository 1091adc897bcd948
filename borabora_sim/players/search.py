"""Search players: information-set MCTS and flat Monte Carlo, both compiled (borabora_sim._search).

They work through `state.search_handles()`, the game-agnostic C interface, and never look at hidden
information: every iteration plays on a determinization for the searching player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from borabora_sim import _search
from borabora_sim.game import is_fishing
from borabora_sim.players.base import Param, SeededPlayer, parse_choice, parse_float, parse_int, parse_positive_int
from borabora_sim.players.heuristic import STYLES, weights_for
from borabora_sim.protocol import GameState


@dataclass(frozen=True)
class RootStat:
    """One root action of the last search."""

    action: int
    name: str
    visits: int
    mean_value: float


ROLLOUT_PARAMS: dict[str, Param] = {
    "rollout": Param(parse_choice("random", "heuristic"), "random | heuristic"),
    "rollout_depth": Param(parse_int, "decisions before the rollout is cut off and evaluated (-1: to the end)"),
    "margin": Param(parse_float, "weight of the score margin in the reward, 0..1 (default 0)"),
    "style": Param(parse_choice(*STYLES), "heuristic weights for rollouts / cut-offs"),
    "fishing": Param(parse_choice("never", "normal", "prefer"),
                     "never: no fishing at its own decisions unless nothing else is legal; prefer: fish whenever a "
                     "fishing move is within 0.02 of the best mean value"),
}
PREFER_MARGIN = 0.02


SearchResult = tuple[int, list[tuple[int, int, float]]]


class _SearchPlayer(SeededPlayer):
    """Shared by the search players: rollout options, the search call, and the root statistics."""

    def __init__(self, rollout: str, rollout_depth: int, margin: float, style: str, fishing: str,
                 seed: int | None) -> None:
        if fishing not in ("never", "normal", "prefer"):
            raise ValueError(f"fishing must be never, normal or prefer; got {fishing!r}")
        if not 0.0 <= margin <= 1.0:
            raise ValueError(f"margin must be in [0, 1], got {margin}")
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.margin = margin
        self.style = style
        self.fishing = fishing
        self.last_stats: list[RootStat] = []
        self.last_iterations = 0
        super().__init__(seed)

    def _search(self, state: GameState, legal: list[int], options: dict[str, object]) -> SearchResult:
        raise NotImplementedError

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        heuristic = self.rollout == "heuristic"
        options = {"heuristic_rollout": heuristic, "rollout_depth": self.rollout_depth,
                   "margin_weight": self.margin, "seed": self.next_seed(),
                   "weights": weights_for(self.style) if heuristic or self.rollout_depth >= 0 else None}
        if self.fishing == "never":
            others = [a for a in legal if not is_fishing(a)]
            if len(others) == 1:
                return others[0]
            legal = others or legal
        done, stats = self._search(state, legal, options)
        self.last_iterations = done
        self.last_stats = [RootStat(a, state.action_to_string(a), v, m) for a, v, m in stats]
        if self.fishing == "prefer":
            best = self.last_stats[0].mean_value
            for stat in self.last_stats:
                if is_fishing(stat.action) and stat.mean_value >= best - PREFER_MARGIN:
                    return stat.action
        return self.last_stats[0].action

    def _rollout_spec(self) -> str:
        return (f"rollout={self.rollout},rollout_depth={self.rollout_depth},margin={self.margin:g},"
                f"style={self.style},fishing={self.fishing}")

    def explain(self, top: int = 10) -> str:
        """The root actions of the last decision, by name, with visits and mean value (reward in [0, 1])."""
        if not self.last_stats:
            return "no search yet"
        lines = [f"{self.spec()}: {self.last_iterations} iterations"]
        lines += [f"  {s.name:<40} visits {s.visits:>7}  mean {s.mean_value:.3f}" for s in self.last_stats[:top]]
        return "\n".join(lines)


class MCTSPlayer(_SearchPlayer):
    """Information-set MCTS (Cowling, Powley & Whitehouse 2012), single observer.

    Each iteration samples a determinization of what the player can see, walks one shared tree with UCB
    (availability counts), expands one node and finishes with a rollout (random or heuristic-guided, to the
    end or cut off after `rollout_depth` decisions and judged by the evaluation). Rewards are in [0, 1]
    per player: the win, optionally mixed with the normalised score margin.

    >>> from borabora_sim import new_game
    >>> ai = MCTSPlayer(iterations=200, seed=7)
    >>> state = new_game(seed=1)
    >>> ai.choose(state) in state.legal_actions()
    True
    """

    name = "mcts"
    params: ClassVar[dict[str, Param]] = {
        "iterations": Param(parse_positive_int, "iterations per decision (default 1000)"),
        "seconds": Param(parse_float, "time per decision instead of iterations"),
        "c": Param(parse_float, "UCT exploration constant (default 0.7)"),
        **ROLLOUT_PARAMS,
    }

    def __init__(self, iterations: int = 1000, seconds: float = 0.0, c: float = 0.7, rollout: str = "random",
                 rollout_depth: int = -1, margin: float = 0.0, style: str = "balanced", fishing: str = "normal",
                 seed: int | None = None) -> None:
        if not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError(f"seconds must be a finite number >= 0 (0: use iterations), got {seconds}")
        if not (math.isfinite(c) and c >= 0):
            raise ValueError(f"c (the UCT exploration constant) must be a finite number >= 0, got {c}")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("MCTSPlayer needs iterations > 0 or seconds > 0")
        self.iterations = iterations if seconds <= 0 else 0
        self.seconds = seconds
        self.c = c
        super().__init__(rollout, rollout_depth, margin, style, fishing, seed)

    def _search(self, state: GameState, legal: list[int], options: dict[str, object]) -> SearchResult:
        return _search.run_mcts(state.search_handles(), state.current_player, iterations=self.iterations,
                                seconds=self.seconds, c_uct=self.c, root_actions=legal, **options)

    def spec(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds > 0 else f"iterations={self.iterations}"
        return f"{self.name}:{budget},c={self.c:g},{self._rollout_spec()}"


class FlatMCPlayer(_SearchPlayer):
    """Flat Monte Carlo: every legal action judged by the same `rollouts` paired rollouts."""

    name = "flatmc"
    params: ClassVar[dict[str, Param]] = {
        "rollouts": Param(parse_positive_int, "rollouts per legal action (default 100)"),
        **ROLLOUT_PARAMS,
    }

    def __init__(self, rollouts: int = 100, rollout: str = "random", rollout_depth: int = -1, margin: float = 0.0,
                 style: str = "balanced", fishing: str = "normal", seed: int | None = None) -> None:
        self.rollouts = rollouts
        super().__init__(rollout, rollout_depth, margin, style, fishing, seed)

    def _search(self, state: GameState, legal: list[int], options: dict[str, object]) -> SearchResult:
        return _search.run_flat_mc(state.search_handles(), state.current_player, legal, rollouts=self.rollouts,
                                   **options)

    def spec(self) -> str:
        return f"{self.name}:rollouts={self.rollouts},{self._rollout_spec()}"
