"""The kit a game's click targets are written with: for each legal action, the things of its picture (named by
their data attributes, docs/viewer.md) a click on which points to it.

A target is `[attribute, value]`, or `[attribute, None]` for any thing with that attribute. A game maps its actions
from their names, which are fixed for each id, by rules (`by_name`): a pattern of the start of an action's name and
the targets of the actions it matches, and only where the thing is clear; the browser game's list of moves always
works (borabora_sim.viewer.web_targets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from borabora_sim.protocol import GameState

Target = list[Any]          # [attribute, value or None]
Rule = tuple[str, Callable[[re.Match[str]], list[Target]]]      # a pattern of action names, its targets


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


__all__ = ["Rule", "Target", "by_name"]
