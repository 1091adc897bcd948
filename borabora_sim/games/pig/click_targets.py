"""Which things of Pig's picture a click on which picks each legal action in the browser game
(with the rules of borabora_sim.kits.click_targets): the die rolls again, the turn total holds."""

from __future__ import annotations

from collections.abc import Sequence

from borabora_sim.kits.click_targets import Rule, Target, by_name
from borabora_sim.protocol import GameState


def click_targets(state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """Roll: the mover's die (data-roll); hold: the mover's turn total (data-turn-total)."""
    seat = str(state.current_player)
    rules: list[Rule] = [
        (r"roll", lambda m: [["data-roll", seat]]),
        (r"hold", lambda m: [["data-turn-total", seat]]),
    ]
    return by_name(state, actions, rules)


__all__ = ["click_targets"]
