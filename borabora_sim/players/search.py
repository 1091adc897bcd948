"""Search players: information-set MCTS and flat Monte Carlo, both compiled (borabora_sim._search).

They work through `search_handles(state)`, the game-agnostic C interface, and never look at hidden
information: every iteration plays on a determinization for the searching player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, TypedDict, cast

import numpy as np

from borabora_sim import _search, errors
from borabora_sim.players import python_search
from borabora_sim.players.base import (
    Param,
    SeededPlayer,
    ValuedKindChoices,
    check_int,
    check_number,
    check_top,
    parse_choice,
    parse_float,
    parse_int,
    parse_positive_int,
)
from borabora_sim.players.heuristic import load_style_for
from borabora_sim.players.models import load_learned_for, load_network_for
from borabora_sim.players.python_search import Rollout
from borabora_sim.players.reasons import COUNT, PERCENT, Column, Option, Reasons, top_options
from borabora_sim.protocol import Game, GameState, search_handles


@dataclass(frozen=True)
class RootStat:
    """One root action of the last search."""

    action: int
    name: str
    visits: int
    mean_value: float


DEFAULT_TEMPERATURE = 10.0
# The mcts player's options when neither its spec nor the game's search_defaults give them.
MCTS_DEFAULTS: dict[str, object] = {"c": 0.7, "rollout": "random", "rollout_depth": -1, "margin": 0.0}
EVALUATIONS = ("heuristic", "learned", "net")
DEFAULT_C_PUCT = 1.5            # PUCT's exploration constant (evaluation=net) unless the spec or the game sets one


def rollout_params(game: Game) -> dict[str, Param]:
    """The options the search players share: rollouts, the reward, and a setting per action kind of `game`."""
    return {
        "rollout": Param(parse_choice("random", "heuristic"), "random | heuristic"),
        "rollout_depth": Param(parse_int, "decisions before the rollout is cut off, at the end of that turn, and "
                                          "evaluated (-1: to the end)"),
        "margin": Param(parse_float, "weight of the score margin in the reward, 0..1 (default 0)"),
        "temperature": Param(parse_float, "score units per e-fold of the cut-off's win estimate (default 10)"),
        "style": Param(parse_choice(*game.styles), "heuristic weights for rollouts / cut-offs"),
        **ValuedKindChoices.kind_params(game),
        "evaluation": Param(parse_choice(*EVALUATIONS), "what judges a cut-off: heuristic (default) | learned "
                                                        "(the learned evaluation, docs/learned.md) | net (mcts only: "
                                                        "PUCT with the game's network, no rollouts, docs/expert.md)"),
    }


SearchResult = tuple[int, list[tuple[int, int, float]]]


class SearchOptions(TypedDict):
    """The options a search player gives both compiled searches (borabora_sim._search)."""

    heuristic_rollout: bool
    rollout_depth: int
    margin_weight: float
    temperature: float
    seed: int
    weights: np.ndarray | None
    model: _search.Model | None


class _SearchPlayer(ValuedKindChoices, SeededPlayer):
    """Shared by the search players: rollout options, the search call, and the root statistics."""

    budget_unit: ClassVar[str]            # what `last_iterations` counts
    choice_rule: ClassVar[str]            # which root action the search returns
    prior = "none"                        # what gives the tree's priors: none (UCT) or net (PUCT, MCTSPlayer only)

    def _configure_search(self, game: Game, rollout: str, rollout_depth: int, margin: float, temperature: float | None,
                          style: str | None, kinds: dict[str, object], evaluation: str,
                          network: str | None = None) -> None:
        """Sets the options both searches share as `game` makes of them (its styles, action kinds)."""
        self._set_kinds(game, kinds)
        self.compiled = hasattr(game.state_type, "search_handles")
        if rollout == "heuristic" and not game.styles:
            raise ValueError(f"{game.name} has no heuristic to roll out with: rollout must be random")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be random or heuristic, got {rollout!r}")
        self.rollout_depth = check_int("rollout_depth", rollout_depth, -1,
                                       "-1 (play rollouts to the end) or an integer >= 0")
        self.margin = check_number("margin", margin, 0.0, 1.0, "a number in [0, 1]")
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}, got {evaluation!r}")
        if not self.compiled and (evaluation != "heuristic" or self.rollout_depth != -1):
            raise ValueError(f"{game.name} is written in Python: its searches play rollouts to the end of the game, "
                             "without a network or cut-off (leave out evaluation and rollout_depth)")
        self.evaluation = evaluation
        self.model = load_learned_for(self, game) if evaluation == "learned" else \
            load_network_for(self, game, network) if evaluation == "net" else None
        self.network = network
        if evaluation == "learned" and self.rollout_depth < 0:
            raise ValueError("evaluation=learned judges the cut-offs of rollouts: give rollout_depth >= 0 (0: at the "
                             "end of the turn the search leaves the tree in)")
        if evaluation == "learned" and temperature is not None:
            raise ValueError(f"temperature={temperature} has no effect with evaluation=learned: the model gives win "
                             "probabilities itself; leave it out")
        if temperature is not None and self.rollout_depth < 0:
            raise ValueError(f"temperature={temperature} has no effect with rollouts played to the end: it scales "
                             "the win estimate of a cut-off (rollout_depth >= 0); leave it out or give one")
        self.temperature = check_number("temperature", DEFAULT_TEMPERATURE if temperature is None else temperature,
                                        0.0, math.inf, "a finite number > 0 (score units)")
        if self.temperature == 0:
            raise ValueError("temperature must be a finite number > 0 (score units), got 0")
        if style is not None and style not in game.styles:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(game.styles)}")
        if style is not None and rollout == "random" and self.rollout_depth < 0:
            raise ValueError(f"style={style} has no effect with random rollouts played to the end: it sets the "
                             "weights of rollout=heuristic or of a cut-off (rollout_depth >= 0); leave it out or "
                             "give one of those")
        self.rollout = rollout
        self.style = game.default_style if style is None else style
        # The weights of the rollouts and cut-offs, obtained once: a style read from a data file (a tuned style,
        # Pig's keep_pace of its heuristic rollouts) is among the files the search reads.
        self.weights = load_style_for(self, game, self.style) if self._uses_weights() else None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_stats: list[RootStat] = []
        self.last_iterations = 0
        self.last_choice: tuple[int, str, str] | None = None     # (action, its name, why it was chosen)
        self.last_state: GameState | None = None                  # the position of the last decision

    def _search(self, state: GameState, legal: list[int], options: SearchOptions) -> SearchResult:
        raise NotImplementedError

    def _python_rollout(self) -> Rollout:
        """How the search of a game written in Python finishes its games (players.python_search)."""
        return Rollout(self.game, self.weights if self.rollout == "heuristic" else None, self.margin)

    def _uses_weights(self) -> bool:
        return self.rollout == "heuristic" or (self.rollout_depth >= 0 and self.evaluation == "heuristic")

    def _forced(self, state: GameState, action: int, why: str) -> int:
        self.last_stats, self.last_iterations = [], 0
        self.last_state = state.clone()
        self.last_choice = (action, state.action_to_string(action), why)
        return action

    def _choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return self._forced(state, legal[0], "the only legal action")
        options: SearchOptions = {"heuristic_rollout": self.rollout == "heuristic", "rollout_depth": self.rollout_depth,
                                   "margin_weight": self.margin, "temperature": self.temperature,
                                   "seed": self.next_seed(),
                                   "weights": self.weights,
                                   "model": self.model}
        allowed, why_forced = self._without_avoided(legal)
        if len(allowed) == 1 and len(legal) > 1:
            return self._forced(state, allowed[0], why_forced)
        done, stats = self._search(state, allowed, options)
        self.last_iterations = done
        self.last_state = state.clone()
        self.last_stats = [RootStat(a, state.action_to_string(a), v, m) for a, v, m in stats]
        chosen, why = self.last_stats[0], self.choice_rule
        preferred = self._preferred([(s.action, s.mean_value) for s in self.last_stats])
        if preferred is not None:
            why = self._preference_rule(state, chosen.action, self.choice_rule)
            chosen = self.last_stats[preferred]
        self.last_choice = (chosen.action, chosen.name, why)
        return chosen.action

    def _rollout_spec(self) -> str:
        kinds = "".join(f",{kind}={setting}" for kind, setting in self.kind_settings.items())
        if self.evaluation == "net":
            return "evaluation=net" + (f",network={self.network}" if self.network else "") + kinds
        weights = f",style={self.style}" if self._uses_weights() else ""
        if self.evaluation == "learned":
            weights += ",evaluation=learned"
        elif self.rollout_depth >= 0:
            weights += f",temperature={self.temperature:g}"
        prior = "" if self.prior == "none" else \
            ",prior=net" + (f",network={self.network}" if self.network else "")
        return (f"rollout={self.rollout},rollout_depth={self.rollout_depth},margin={self.margin:g}{weights}{prior}"
                f"{kinds}")

    def explain(self, top: int = 10) -> str:
        """The last decision in the game's words: the chosen action and why, and the `top` root actions with their
        win chance (mean reward) and visits (flat MC: rollouts), `reasons`."""
        check_top(top)
        if self.last_choice is None or self.last_state is None:
            return "no decision yet"
        reasons = self.reasons(top)
        if reasons is not None:
            return reasons.text()
        action, _, why = self.last_choice
        return (f"{self.in_words()}: chose {self.game.describe_action(self.last_state, action)}, {why}; no search was "
                f"needed")

    def reasons(self, top: int = 10) -> Reasons | None:
        """The root actions of the last search, in the order the search ranks them: each with its mean reward,
        which is the share of the simulated games won (a shared victory in part) unless `margin` mixes in the
        score margin, and its visits or rollouts."""
        check_top(top)
        if self.last_choice is None or self.last_state is None or not self.last_stats:
            return None
        action, _, why = self.last_choice
        words = self.game.describe_actions(self.last_state, [stat.action for stat in self.last_stats])
        rows = [Option(stat.action, text, (stat.mean_value, stat.visits))
                for stat, text in zip(self.last_stats, words, strict=True)]
        shown, chosen = top_options(rows, action, top)
        count = "visits" if self.budget_unit == "iterations" else "rollouts"
        value = "reward" if self.margin > 0 else "win chance"
        measured = (f"reward: the mean over its simulated games from the move of the win (weight {1 - self.margin:g}) "
                    f"and the score margin (weight {self.margin:g})" if self.margin > 0 else
                    "win chance: the share of its simulated games from the move that the player won")
        if self.evaluation == "net":
            measured += " (each judged by the network's value)"
        elif self.rollout_depth >= 0:
            measured += f" (games cut off after {self.rollout_depth} decisions judged by the evaluation's estimate)"
        guided = ", the network's policy guiding which moves they tried" if self.prior == "net" else ""
        counted = (f"visits: how many of the {self.last_iterations} iterations tried the move{guided} (it plays the "
                   "most visited)" if count == "visits" else
                   "rollouts: games simulated from each move, the same number for every move (it plays the best "
                   "win chance)")
        return Reasons(self.in_words(), action, shown[chosen].words,
                       f"{why}, after {self.last_iterations} {self.budget_unit}",
                       (Column(value, PERCENT), Column(count, COUNT)), shown, chosen, len(self.last_stats),
                       f"{measured}; {counted}")


class MCTSPlayer(_SearchPlayer):
    """Information-set MCTS (Cowling, Powley & Whitehouse 2012), single observer.

    Each iteration samples a determinization of what the player can see, walks one shared tree with UCB
    (availability counts), expands one node and finishes with a rollout (random or heuristic-guided, to the
    end or cut off at the end of the turn `rollout_depth` decisions in and judged by the evaluation). Rewards are
    in [0, 1] per player: the win, optionally mixed with the normalised score margin. The budget is `iterations`
    (default 1000) or `seconds` per decision, not both. Options a spec leaves out come from the game's
    `search_defaults`, then from the library's defaults.

    `threads` > 1 searches root-parallel on that many cores: one tree per thread, each from its own seed, the root
    visits added up by action. `iterations` is then the total, shared by the threads (the same work, sooner);
    `seconds` is the wall time, in which each thread searches. One thread (the default) gives exactly the
    single-threaded search; a simulation with several workers already has a core per worker, so keep it there.

    >>> from borabora_sim import new_game
    >>> ai = MCTSPlayer(iterations=200, seed=7)
    >>> state = new_game(seed=1)
    >>> ai.choose(state) in state.legal_actions()
    True
    """

    name = "mcts"
    budget_unit = "iterations"
    choice_rule = "the most visited"

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {
            "iterations": Param(parse_positive_int, "iterations per decision (default 1000)"),
            "seconds": Param(parse_float, "time per decision instead of iterations"),
            "c": Param(parse_float, "exploration constant: UCT's (default: the game's search default, else 0.7), or "
                                    "PUCT's with evaluation=net or prior=net (default: the game's c_puct, else 1.5)"),
            **rollout_params(game),
            "threads": Param(parse_positive_int, "threads searching one decision, root-parallel (default 1); "
                                                 "iterations are their total"),
            "prior": Param(parse_choice("none", "net"), "net: PUCT with the game's network's policy as every node's "
                                                        "prior, the leaves judged by the rollouts (docs/expert.md)"),
            "network": Param(str, "a network file (.npz) instead of the game's own, for evaluation=net or prior=net"),
        }

    def __init__(self, iterations: int | None = None, seconds: float | None = None, c: float | None = None,
                 rollout: str | None = None, rollout_depth: int | None = None, margin: float | None = None,
                 temperature: float | None = None, style: str | None = None, seed: int | None = None,
                 game: Game | None = None, threads: int = 1, evaluation: str = "heuristic", prior: str = "none",
                 network: str | None = None, **kinds: object) -> None:
        super().__init__(seed, game, {"iterations": iterations, "seconds": seconds, "c": c, "rollout": rollout,
                                      "rollout_depth": rollout_depth, "margin": margin, "temperature": temperature,
                                      "style": style, "threads": threads, "evaluation": evaluation,
                                      "prior": prior, "network": network}, kinds)

    def _configure(self, game: Game, iterations: int | None, seconds: float | None, c: float | None,
                   rollout: str | None, rollout_depth: int | None, margin: float | None, temperature: float | None,
                   style: str | None, threads: int, evaluation: str, prior: str, network: str | None,
                   **kinds: object) -> None:
        if iterations is not None and seconds is not None:
            raise ValueError(f"iterations={iterations!r} and seconds={seconds!r} are both budgets; give only one "
                             "of them")
        if seconds is None:
            self.iterations = check_int("iterations", 1000 if iterations is None else iterations, 1,
                                        "a positive integer")
            self.seconds = 0.0
        else:
            self.iterations = 0
            self.seconds = check_number("seconds", seconds, 0.0, math.inf, "a finite number of seconds > 0")
            if self.seconds == 0:
                raise ValueError("seconds must be a finite number of seconds > 0, got 0 (or give iterations)")
        # An option the caller leaves out takes the game's search default, then the library's.
        given = {"c": c, "rollout": rollout, "rollout_depth": rollout_depth, "margin": margin}
        if evaluation == "net":         # the network judges the leaves: no rollout, no cut-off, no heuristic
            pointless = {**given, "temperature": temperature, "style": style}
            pointless.pop("c")
            named = [f"{key}={value}" for key, value in pointless.items() if value is not None]
            if named:
                raise ValueError(f"{', '.join(named)} has no effect with evaluation=net: the network's value judges "
                                 "the leaves, with no rollout; leave it out")
            c_puct = cast("float", game.search_defaults.get("c_puct", DEFAULT_C_PUCT))
            given = {"c": c_puct if c is None else c,
                     "rollout": "random", "rollout_depth": -1, "margin": 0.0}
        if prior not in ("none", "net"):
            raise ValueError(f"prior must be none or net, got {prior!r}")
        if prior == "net" and evaluation != "heuristic":
            raise ValueError(f"prior=net guides a rollout search whose cut-offs the heuristic judges; with "
                             f"evaluation={evaluation} leave it out (evaluation=net already searches with the "
                             "network's policy as priors)")
        self.prior = prior
        if prior == "net" and c is None:
            given["c"] = cast("float", game.search_defaults.get("c_puct", DEFAULT_C_PUCT))
        settings = {**MCTS_DEFAULTS, **game.search_defaults, **{k: v for k, v in given.items() if v is not None}}
        if temperature is None and settings["rollout_depth"] != -1 and evaluation != "learned":
            temperature = cast("float | None", settings.get("temperature"))    # the game's scale, for a cut-off only
        self.c = check_number("c", settings["c"], 0.0, math.inf, "a finite number >= 0 (the UCT exploration constant)")
        self.threads = errors.check_int(threads, "threads", 1, _search.THREADS_MAX)
        if not hasattr(game.state_type, "search_handles") and (self.threads != 1 or prior != "none"):
            raise ValueError(f"{game.name} is written in Python: its search runs on one thread without a network "
                             "(leave out threads and prior)")
        # The shared settings check each value's type and range.
        if network is not None and evaluation != "net" and prior != "net":
            raise ValueError(f"network={network} is the network of evaluation=net or prior=net; give one of them too")
        self._configure_search(game, cast(str, settings["rollout"]), cast(int, settings["rollout_depth"]),
                               cast(float, settings["margin"]), temperature, style, kinds, evaluation, network)
        if prior == "net":
            self.model = load_network_for(self, game, network)

    def _search(self, state: GameState, legal: list[int], options: SearchOptions) -> SearchResult:
        if not self.compiled:
            return python_search.run_mcts(state, state.current_player, self._python_rollout(), legal, self.iterations,
                                          self.seconds, self.c, options["seed"])
        return _search.run_mcts(search_handles(state), state.current_player, iterations=self.iterations,
                                seconds=self.seconds, c_uct=self.c, root_actions=legal, threads=self.threads,
                                c_puct=self.c if self._puct() else 0.0, rollout_leaves=self.prior == "net", **options)

    def _puct(self) -> bool:
        return self.evaluation == "net" or self.prior == "net"

    def kind_words(self) -> str:
        budget = f"{self.seconds:g} s" if self.seconds > 0 else f"{self.iterations:,} iterations"
        return f"the {'network-guided ' if self._puct() else ''}tree search with {budget} a decision"

    def spec(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds > 0 else f"iterations={self.iterations}"
        if self.threads > 1:            # one thread is left out: the specs of every earlier run stay as they were
            budget += f",threads={self.threads}"
        return f"{self.name}:{budget},c={self.c:g},{self._rollout_spec()}"


class FlatMCPlayer(_SearchPlayer):
    """Flat Monte Carlo: every legal action judged by the same `rollouts` paired rollouts."""

    name = "flatmc"
    budget_unit = "rollouts"
    choice_rule = "the best mean value"

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {"rollouts": Param(parse_positive_int, "rollouts per legal action (default 100)"),
                **rollout_params(game)}

    def __init__(self, rollouts: int = 100, rollout: str = "random", rollout_depth: int = -1, margin: float = 0.0,
                 temperature: float | None = None, style: str | None = None, seed: int | None = None,
                 game: Game | None = None, evaluation: str = "heuristic", **kinds: object) -> None:
        super().__init__(seed, game, {"rollouts": rollouts, "rollout": rollout, "rollout_depth": rollout_depth,
                                      "margin": margin, "temperature": temperature, "style": style,
                                      "evaluation": evaluation}, kinds)

    def _configure(self, game: Game, rollouts: int, rollout: str, rollout_depth: int, margin: float,
                   temperature: float | None, style: str | None, evaluation: str, **kinds: object) -> None:
        if evaluation == "net":
            raise ValueError("evaluation=net is PUCT, a tree search: use mcts:evaluation=net (flatmc judges "
                             "rollouts: evaluation=heuristic or learned)")
        self.rollouts = check_int("rollouts", rollouts, 1, "a positive integer")
        self._configure_search(game, rollout, rollout_depth, margin, temperature, style, kinds, evaluation)

    def _search(self, state: GameState, legal: list[int], options: SearchOptions) -> SearchResult:
        if not self.compiled:
            return python_search.run_flat_mc(state, state.current_player, self._python_rollout(), legal,
                                             self.rollouts, options["seed"])
        return _search.run_flat_mc(search_handles(state), state.current_player, legal, rollouts=self.rollouts,
                                   **options)

    def kind_words(self) -> str:
        return f"the flat Monte Carlo search with {self.rollouts:,} rollouts a move"

    def spec(self) -> str:
        return f"{self.name}:rollouts={self.rollouts},{self._rollout_spec()}"


__all__ = ["FlatMCPlayer", "MCTSPlayer"]
