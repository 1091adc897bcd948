"""Which drawn things pick which legal action in the browser game: for each action, the things of the picture
(named by their data attributes, docs/viewer.md) a click on which points to it.

The page plays an action when the things clicked so far point to it alone (a die of value 3 on the mover's board,
then the temple tile: `place 3 on temple`), and otherwise marks the actions they point to in the list of moves.
A target is `[attribute, value]`, or `[attribute, None]` for any thing with that attribute. Each game maps its
actions in its own package (the `click_targets` of its record, borabora_sim.games), from their names, which are
fixed for each id, and only where the thing is clear; the list of moves always works. A game without a mapping is
played from the list alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from borabora_sim.games import record_of
from borabora_sim.protocol import GameState

Target = list[Any]          # [attribute, value or None]
Rule = tuple[str, Callable[[re.Match[str]], list[Target]]]      # a pattern of action names, its targets


def click_targets(game_name: str, state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """The targets of each of `actions` (legal in `state`) for the game `game_name`; none for a game without a
    mapping."""
    mapper = record_of(game_name).part("click_targets")
    return mapper(state, actions) if mapper is not None and actions else {}


def by_name(state: GameState, actions: Sequence[int], rules: list[Rule]) -> dict[int, list[Target]]:
    """The targets of each action by the first rule whose pattern matches the start of its name."""
    targets = {}
    for action in actions:
        name = state.action_to_string(action)
        for pattern, make in rules:
            match = re.fullmatch(pattern + r".*", name)
            if match:
                targets[action] = make(match)
                break
    return targets


__all__ = ["click_targets"]
