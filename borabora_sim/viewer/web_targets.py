"""Which drawn things pick which legal action in the browser game: for each action, the things of the picture
(named by their data attributes, docs/viewer.md) a click on which points to it.

The page plays an action when the things clicked so far point to it alone (a die of value 3 on the mover's board,
then the temple tile: `place 3 on temple`), and otherwise marks the actions they point to in the list of moves.
Each game maps its actions in its own package (the `click_targets` of its record, borabora_sim.games), with the
kit's rules (borabora_sim.kits.click_targets); the list of moves always works. A game without a mapping is played
from the list alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from borabora_sim.games import record_of
from borabora_sim.kits.click_targets import Target
from borabora_sim.protocol import GameState


def click_targets(game_name: str, state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """The targets of each of `actions` (legal in `state`) for the game `game_name`; none for a game without a
    mapping."""
    mapper = record_of(game_name).part("click_targets")
    return mapper(state, actions) if mapper is not None and actions else {}


__all__ = ["click_targets"]
