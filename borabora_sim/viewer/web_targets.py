"""Which drawn things pick which legal action in the browser game: for each action, the things of the picture
(named by their data attributes, docs/viewer.md) a click on which points to it.

The page plays an action when the things clicked so far point to it alone (a die of value 3 on the mover's board,
then the temple tile: `place 3 on temple`), and otherwise marks the actions they point to in the list of moves.
A target is `[attribute, value]`, or `[attribute, None]` for any thing with that attribute. Actions are mapped
from their names, which are fixed for each id (docs/actions.md), and only where the thing is clear; the list of
moves always works. A game without a mapping here is played from the list alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from borabora_sim.components import SEXES
from borabora_sim.protocol import GameState
from borabora_sim.viewer.layout import ACTION_TILE_NAMES

Target = list[Any]          # [attribute, value or None]
Rule = tuple[str, Callable[[re.Match[str]], list[Target]]]      # a pattern of action names, its targets
Mapper = Callable[[GameState, Sequence[int]], dict[int, list[Target]]]

# The action tiles by number of players, as drawn, the fishing space first.
_ACTION_TILES = {players: ("fishing", *(name for name in names if name is not None))
                 for players, names in ACTION_TILE_NAMES.items()}


def click_targets(game_name: str, state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """The targets of each of `actions` (legal in `state`) for the game `game_name`; none for a game without a
    mapping."""
    mapper = _MAPPERS.get(game_name)
    return mapper(state, actions) if mapper is not None and actions else {}


def _bora_bora(state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """The mover's things are found from its own observation: the values of its dice, and the sex of the display
    a person decision takes from (the pending decision's `b`)."""
    seat = state.current_player
    view = state.observation(seat)           # type: ignore[attr-defined]
    dice = view["pl"][seat]["dice"]
    top = view["stack"][view["sp"] - 1]
    tiles = _ACTION_TILES[view["n_players"]]
    rules: list[Rule] = [
        (r"place (\d) on (\w+)", lambda m: [
            *(["data-player-die", f"{seat}-{i}"] for i, v in enumerate(dice) if v == int(m[1])),
            *(target for tile in tiles if m[2].removesuffix("_path") in tile.split("/")
              for target in (["data-action-tile", tile], ["data-die", tile]))]),
        (r"play (\w+?)(?:_double|_extra)? god with card", lambda m: [["data-god-hand", f"{seat}-{m[1]}"]]),
        (r"region (\w+)", lambda m: [["data-region", m[1]]]),
        (r"ceremony space (\d+) ", lambda m: [["data-ceremony", f"{seat}-{int(m[1]) - 1}"]]),
        (r"ceremony pair (\d+)\+(\d+)", lambda m: [["data-ceremony", f"{seat}-{int(m[1]) - 1}"],
                                                   ["data-ceremony", f"{seat}-{int(m[2]) - 1}"]]),
        (r"\w+ beside board", lambda m: [["data-beside", str(seat)]]),
        (r"take person at position (\d)", lambda m: [["data-person-display", f"{SEXES[top['b']]}-{m[1]}"]]),
        (r"temple space (\d)", lambda m: [["data-temple-space", str(int(m[1]) - 1)]]),
        (r"building tile (\d)", lambda m: [["data-building", f"{seat}-{int(m[1]) - 1}"]]),
        (r"god card from pile", lambda m: [["data-god-deck", None]]),
        (r"god card from display (\d)", lambda m: [["data-god-display", m[1]]]),
        (r"status step", lambda m: [["data-status-seat", str(seat)]]),
        (r"victory point", lambda m: [["data-score-seat", str(seat)]]),
        (r"shift down person (\d+)", lambda m: [["data-person-slot", f"{seat}-{int(m[1]) - 1}"]]),
        (r"buy jewelry row (\d)", lambda m: [["data-jewelry", f"{view['round']}-{m[1]}"]]),
        (r"(?:complete|surrender) task (\d)", lambda m: [["data-player-task", f"{seat}-{m[1]}"]]),
        (r"take task (\d) from display", lambda m: [["data-task-display", m[1]]]),
    ]
    return _by_name(state, actions, rules)


def _by_name(state: GameState, actions: Sequence[int], rules: list[Rule]) -> dict[int, list[Target]]:
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


def _bamboo(state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    seat = state.current_player
    rules: list[Rule] = [
        (r"(?:visit|incense in) temple (\d)", lambda m: [["data-temple", m[1]]]),
        (r"stalk (\d)", lambda m: [["data-panel", f"stalk-{m[1]}"]]),
        (r"take (\w+)", lambda m: [["data-food-display", m[1]]]),
        (r"pay (\w+)", lambda m: [["data-player-food", f"{seat}-{m[1]}"]]),
        (r"buy home ([AB]) (\d)", lambda m: [["data-home-market", f"{m[1]}-{m[2]}"]]),
        (r"obtain (\w+) balance (\d)", lambda m: [["data-balance-market", f"{m[1]}-{m[2]}"]]),
        (r"gift (\w+)", lambda m: [["data-gift", m[1]]]),
        (r"home space (r\d+c\d+)", lambda m: [["data-home-space", f"{seat}-{m[1]}"]]),
        (r"keep shoot in area (\d)", lambda m: [["data-area", f"{seat}-{m[1]}"]]),
        (r"(?:wake|use) (\w+)", lambda m: [["data-player-spirit", f"{seat}-{m[1]}"]]),
    ]
    return _by_name(state, actions, rules)


_MAPPERS: dict[str, Mapper] = {"bora_bora": _bora_bora, "bamboo": _bamboo}
