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

from borabora_sim.games.bamboo.components import ACTIONS
from borabora_sim.games.bora_bora.components import PERSON_TYPES, SEXES
from borabora_sim.protocol import GameState
from borabora_sim.viewer.bamboo import NO_TILE, shoot_name
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
    c = state.components                     # type: ignore[attr-defined]
    board = view["pl"][seat]
    dice = board["dice"]
    top = view["stack"][view["sp"] - 1]
    tiles = _ACTION_TILES[view["n_players"]]

    def persons(sex: str, kind: str) -> list[Target]:
        """The mover's persons of that sex and type (a phase B ability uses all of them together)."""
        return [["data-person-slot", f"{seat}-{i}"] for i, tile in enumerate(board["persons"][:board["n_persons"]])
                if SEXES[int(c.person_sex[tile])] == sex and PERSON_TYPES[int(c.person_type[tile])] == kind]

    def god(effect: str) -> Target:
        """A God is named by the discard pile of its colour (where its card goes)."""
        return ["data-god-discard", effect.split("_")[0]]

    rules: list[Rule] = [
        (r"place (\d) on (\w+)", lambda m: [
            *(["data-player-die", f"{seat}-{i}"] for i, v in enumerate(dice) if v == int(m[1])),
            *(target for tile in tiles if m[2].removesuffix("_path") in tile.split("/")
              for target in (["data-action-tile", tile], ["data-die", tile]))]),
        (r"play (\w+) god with card", lambda m: [["data-god-hand", f"{seat}-{m[1].split('_')[0]}"], god(m[1])]),
        (r"play (\w+) god with pair of (\w+)", lambda m: [["data-god-hand", f"{seat}-{m[2]}"], god(m[1])]),
        (r"play (\w+) god with god tile", lambda m: [["data-player-count", f"{seat}-god_tiles"], god(m[1])]),
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
        (r"offering", lambda m: [["data-player-count", f"{seat}-offerings"]]),
        (r"shell", lambda m: [["data-player-count", f"{seat}-shells"]]),
        (r"move hut to 12th space", lambda m: [["data-player-count", f"{seat}-huts_on_12th"]]),
        (r"use (man|woman) (\w+)", lambda m: persons(m[1], m[2])),
        (r"done", lambda m: [["data-decision", None]]),
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
    """The shoots are found from the mover's observation: the draft pool, the shoots still to place and the new
    shoots on the stalks (an activation picks the new shoots that show its action, a Wildcard's any Wildcard,
    or after Kitsune any new shoot)."""
    seat = state.current_player
    view = state.observation(seat)           # type: ignore[attr-defined]

    def shoots(place: str, kind: str) -> list[Target]:
        """The shoots of that kind ("C2-cook") among the draft pool ("draft") or the shoots to place."""
        return [["data-shoot", f"{place}-{i + 1}"] for i, k in enumerate(view[place.replace("-", "_")])
                if k != NO_TILE and shoot_name(k) == kind]

    def new_shoots(icon: str | None) -> list[Target]:
        """The new shoots on the stalks that show `icon` (None: all of them)."""
        return [["data-shoot", f"stalk-{s + 1}-new-{i + 1}"] for s, stalk in enumerate(view["stalk_new"])
                for i, k in enumerate(stalk) if k != NO_TILE and icon in (None, ACTIONS[k % len(ACTIONS)])]

    rules: list[Rule] = [
        (r"shoot (\w+) (\w+)", lambda m: [*shoots("draft", f"{m[1]}-{m[2]}"),
                                          *shoots("to-place", f"{m[1]}-{m[2]}")]),
        (r"activate wildcard as (\w+)", lambda m: new_shoots(None if view["kitsune"] else "wildcard")),
        (r"activate (\w+)", lambda m: new_shoots(m[1])),
        (r"balance 1 HP", lambda m: [["data-hp-seat", str(seat)]]),
        (r"score (\w+) balance (\d)", lambda m: [["data-balance-slot", f"{seat}-{m[1]}-{m[2]}"]]),
        (r"improve 1 coin", lambda m: [["data-coins", str(seat)]]),
        (r"renew food", lambda m: [["data-food-pile", "1"]]),
        (r"done", lambda m: [["data-decision", None]]),
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
