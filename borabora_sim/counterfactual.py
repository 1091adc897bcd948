"""The value of a choice: at decisions where an action kind is legal, how much better or worse it is than the
best alternative from the same state, in any game (reached through its game object).

Games are played by given players; at every decision of the focus seats where an action of the studied kind is
legal beside others, each legal action is judged by paired rollouts (flat Monte Carlo on common
determinizations: the same hidden-information samples and rollout randomness for every option), so the
difference between two options is measured with much less noise than their values. The situation is recorded
with it by a game-specific `situation` function (Bora Bora's `die_situation` in its package: the die value, the
action tiles that die could not use, VP gap, turn-order position), so a study can say *when* the choice is worth
it, not only whether.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from borabora_sim import _search
from borabora_sim.errors import check_players
from borabora_sim.games import get_game
from borabora_sim.network import network_model, network_path
from borabora_sim.players import python_search
from borabora_sim.players.heuristic import style_file, weights_for
from borabora_sim.protocol import CompiledState, Game, GameState, search_handles
from borabora_sim.simulate import seated_players

# A game-specific description of the decision at `state` for the studied `action`: extra columns of its row.
Situation = Callable[[GameState, int], dict[str, Any]]


@dataclass(frozen=True)
class RolloutJudge:
    """How options are judged: `rollouts` paired rollouts per option, random or heuristic-guided, optionally
    cut off after `rollout_depth` decisions and scored by the evaluation (style weights of the game's
    heuristic); `margin` mixes the normalised score margin into the win reward (0: the win alone). With `network`,
    the cut-offs are scored by the game's shipped policy-and-value network instead (the expert player's): with
    `rollout_depth` 0, each option is the network's win chance right after it, averaged over `rollouts` samples of
    what the mover cannot see. `files_read` names the data file its style or network is read from, as a player's
    does, so that what it judged can follow the file."""

    rollouts: int = 64
    rollout: str = "heuristic"
    rollout_depth: int = -1
    style: str = "balanced"
    margin: float = 0.0
    network: bool = False

    def _plays_by_style(self) -> bool:
        """Whether the judge's rollouts or cut-offs play by its style's weights."""
        return self.rollout == "heuristic" or self.rollout_depth >= 0

    def files_read(self, game: Game | None = None) -> tuple[Path, ...]:
        """The files the judge's values depend on in `game` (default: the default game), as a player's
        `files_read`: the data file its style is read from (a tuned style's, every style of Pig: Game.style_files)
        when its rollouts or cut-offs play by it; none for a style written in code or random rollouts to the end."""
        board = get_game() if game is None else game
        if self.network:
            return (network_path(board),)
        path = style_file(board, self.style) if self._plays_by_style() else None
        return () if path is None else (path,)

    def values(self, state: GameState, actions: Sequence[int], seed: int,
               game: Game | None = None) -> dict[int, float]:
        """The mean reward in [0, 1] of the player to move after each of `actions` (`game`: the state's game,
        default the default game; it names the heuristic's weights)."""
        heuristic = self.rollout == "heuristic"
        board = get_game() if game is None else game
        weights = weights_for(self.style, game=board) if heuristic or (self._plays_by_style() and not self.network) \
            else None
        if not isinstance(state, CompiledState):        # a game written in Python: its rollouts run in Python
            if self.network or self.rollout_depth >= 0:
                raise ValueError(f"{board.name} is written in Python: its options are judged by rollouts to the end "
                                 "of the game, without a network or cut-off")
            rollout = python_search.Rollout(board, weights if heuristic else None, self.margin)
            _, stats = python_search.run_flat_mc(state, state.current_player, rollout, list(actions), self.rollouts,
                                                 seed)
            return {int(action): float(mean) for action, _, mean in stats}
        _, stats = _search.run_flat_mc(search_handles(state), state.current_player, list(actions),
                                       rollouts=self.rollouts, heuristic_rollout=heuristic,
                                       rollout_depth=self.rollout_depth, margin_weight=self.margin,
                                       weights=weights, seed=seed,
                                       model=network_model(board) if self.network else None)
        return {int(action): float(mean) for action, _, mean in stats}


def score_gap(state: GameState, seat: int) -> int:
    """The seat's score minus the best score of the others."""
    scores = state.scores()
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


def judge_game(game: Game, game_id: int, specs: Sequence[str], seed: int, is_studied: Callable[[int], bool],
               situation: Situation, focus: Sequence[int] | None = None, judge: RolloutJudge | None = None,
               recheck: bool = False) -> list[dict[str, Any]]:
    """The rows of `choice_values` for one game (game `game_id` of a run with master `seed`), so that a study
    can spread games over workers.

    The best alternative is the largest of several noisy values, so `advantage` leans against the studied
    option. `recheck` judges the studied options and the best alternative again on fresh rollouts (other
    determinizations and rollout randomness): `recheck_advantage` is free of that selection."""
    judge = judge or RolloutJudge()
    focus = list(range(len(specs))) if focus is None else list(focus)
    game_seed = int(game.derive_seed(seed, game_id))
    actors = seated_players(specs, game_seed, game)
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    rows: list[dict[str, Any]] = []
    decision_index = 0
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        studied = [a for a in legal if is_studied(a)]
        choice = actors[seat].choose(state)
        if seat in focus and studied and len(legal) > len(studied):
            values = judge.values(state, legal, seed=int(game.derive_seed(game_seed, 10_000 + decision_index)),
                                  game=game)
            others = {a: v for a, v in values.items() if a not in studied}
            best_other = max(others, key=others.__getitem__)
            best_all = max(values, key=values.__getitem__)
            again = (judge.values(state, [*studied, best_other],
                                  seed=int(game.derive_seed(game_seed, 20_000 + decision_index)), game=game)
                     if recheck else {})
            for action in studied:
                rows.append({
                    "game_id": game_id, "game_seed": game_seed, "seat": seat, "spec": specs[seat],
                    "round": state.round, "phase": state.phase, "decision": decision_index,
                    "option": state.action_to_string(action), "value": values[action],
                    "best_alternative": state.action_to_string(best_other),
                    "best_alternative_value": others[best_other], "advantage": values[action] - others[best_other],
                    "best_overall": best_all == action, "n_legal": len(legal), **situation(state, action),
                    "chosen": choice == action,
                    **({"recheck_advantage": again[action] - again[best_other]} if recheck else {}),
                })
        state.apply(choice)
        decision_index += 1
    return rows


def choice_values(games: int, players: Sequence[str], is_studied: Callable[[int], bool], situation: Situation,
                  game: Game | None = None, focus: Sequence[int] | None = None, seed: int = 0,
                  judge: RolloutJudge | None = None, progress: Callable[[int], object] | None = None,
                  recheck: bool = False) -> pd.DataFrame:
    """One row per studied option at every decision of a focus seat where such an option is legal beside
    another, in `games` games of `game` (default: the default game) between `players`.

    Columns: game_id, game_seed, seat, spec, round, phase, decision (index in the game), option (name), value
    (mean reward in [0, 1] of taking it), best_alternative (name of the best option of another kind),
    best_alternative_value, advantage (value - best_alternative_value), best_overall (is it the best legal
    action), n_legal, the columns of `situation(state, action)`, chosen (did the player take it), and with
    `recheck` recheck_advantage (judge_game). `progress(game_id)` is called after each game.
    """
    game = get_game() if game is None else game
    specs = list(players)
    check_players(len(specs), tuple(game.player_counts))
    frames = []
    for game_id in range(games):
        frames.extend(judge_game(game, game_id, specs, seed, is_studied, situation, focus, judge, recheck))
        if progress is not None:
            progress(game_id)
    return pd.DataFrame(frames)


__all__ = ["RolloutJudge", "Situation", "choice_values", "judge_game", "score_gap"]
