"""The value of a choice: at decisions where an action kind is legal, how much better or worse it is than the
best alternative from the same state.

Games are played by given players; at every decision of the focus seats where an action of the studied kind is
legal, each legal action is judged by paired rollouts (flat Monte Carlo on common determinizations: the same
hidden-information samples and rollout randomness for every option), so the difference between two options is
measured with much less noise than their values. The situation is recorded with it (round, die value, the
action tiles that die could not use, VP gap, turn-order position), so a study can say *when* the choice is worth
it, not only whether.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from borabora_sim import _engine, _search
from borabora_sim.game import BoraBora, check_players, is_fishing
from borabora_sim.players import make_player
from borabora_sim.players.heuristic import weights_for
from borabora_sim.simulate import player_seed

TILE_NAMES = ("helper", "temple", "build", "man", "woman", "land", "water")


@dataclass(frozen=True)
class RolloutJudge:
    """How options are judged: `rollouts` paired rollouts per option, random or heuristic-guided, optionally
    cut off after `rollout_depth` decisions and scored by the evaluation (style weights)."""

    rollouts: int = 64
    rollout: str = "heuristic"
    rollout_depth: int = -1
    style: str = "balanced"
    margin: float = 0.0

    def values(self, state: _engine.State, actions: Sequence[int], seed: int) -> dict[int, float]:
        heuristic = self.rollout == "heuristic"
        weights = weights_for(self.style) if heuristic or self.rollout_depth >= 0 else None
        _, stats = _search.run_flat_mc(state.search_handles(), state.current_player, list(actions),
                                       rollouts=self.rollouts, heuristic_rollout=heuristic,
                                       rollout_depth=self.rollout_depth, margin_weight=self.margin,
                                       weights=weights, seed=seed)
        return {int(action): float(mean) for action, _, mean in stats}


def blocked_tiles(state: _engine.State, value: int) -> list[str]:
    """The action tiles on which a die of `value` may not go now (strictly-lower rule), in TILE_NAMES order."""
    lows = state.observation(state.current_player)["tile_low"]
    return [name for name, low in zip(TILE_NAMES, lows, strict=True) if value >= low]


def choice_values(games: int, players: Sequence[str], focus: Sequence[int] | None = None, seed: int = 0,
                  is_studied: Callable[[int], bool] = is_fishing, judge: RolloutJudge | None = None,
                  progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per studied option at every decision of a focus seat where such an option is legal.

    Columns: game_id, game_seed, seat, spec, round, phase, decision, die (for dice placements), option (name),
    value (mean reward in [0, 1] of taking it), best_alternative (name), best_alternative_value, advantage
    (value - best_alternative_value), best_overall (is it the best legal action), blocked (tiles that die
    could not use, comma-separated), n_blocked, vp_gap (own VP minus the best other VP), start_position,
    chosen (did the player take it).
    """
    specs = list(players)
    check_players(len(specs))
    judge = judge or RolloutJudge()
    focus = list(range(len(specs))) if focus is None else list(focus)
    game = BoraBora()
    rows = []
    for game_id in range(games):
        game_seed = int(_engine.derive_seed(seed, game_id))
        actors = [make_player(spec, player_seed(game_seed, s)) for s, spec in enumerate(specs)]
        state = game.new_initial_state(players=len(specs), seed=game_seed)
        decision_index = 0
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            studied = [a for a in legal if is_studied(a)]
            choice = actors[seat].choose(state)
            if seat in focus and studied and len(legal) > 1:
                values = judge.values(state, legal, seed=int(_engine.derive_seed(game_seed, 10_000 + decision_index)))
                others = {a: v for a, v in values.items() if a not in studied}
                best_other = max(others, key=others.get) if others else None
                best_all = max(values, key=values.get)
                scores = state.scores()
                gap = scores[seat] - max(v for s, v in enumerate(scores) if s != seat)
                for action in studied:
                    placement = _engine.die_placement(action)
                    die = placement[0] if placement else None
                    blocked = blocked_tiles(state, die) if die is not None else []
                    rows.append({
                        "game_id": game_id, "game_seed": game_seed, "seat": seat, "spec": specs[seat],
                        "round": state.round, "phase": state.phase, "decision": decision_index, "die": die,
                        "option": state.action_to_string(action), "value": values[action],
                        "best_alternative": state.action_to_string(best_other) if best_other is not None else None,
                        "best_alternative_value": others[best_other] if best_other is not None else np.nan,
                        "advantage": values[action] - others[best_other] if best_other is not None else np.nan,
                        "best_overall": best_all == action, "blocked": ",".join(blocked), "n_blocked": len(blocked),
                        "vp_gap": gap, "start_position": state.first_turn_order.index(seat),
                        "chosen": choice == action,
                    })
            state.apply(choice)
            decision_index += 1
        if progress is not None:
            progress(game_id)
    return pd.DataFrame(rows)
