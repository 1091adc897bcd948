"""Which things of Bora Bora's picture a click on which picks each legal action in the browser game
(with the rules of borabora_sim.kits.click_targets)."""

from __future__ import annotations

from collections.abc import Sequence

from borabora_sim.games.bora_bora.components import PERSON_TYPES, SEXES
from borabora_sim.games.bora_bora.layout import ACTION_TILE_NAMES
from borabora_sim.kits.click_targets import Rule, Target, by_name
from borabora_sim.protocol import GameState

# The action tiles by number of players, as drawn, the fishing space first.
_ACTION_TILES = {players: ("fishing", *(name for name in names if name is not None))
                 for players, names in ACTION_TILE_NAMES.items()}


def click_targets(state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
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
    return by_name(state, actions, rules)


__all__ = ["click_targets"]
