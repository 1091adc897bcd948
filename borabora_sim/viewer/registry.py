"""Which game has a picture: each game's record names its renderer (`GameRecord.picture`, borabora_sim.games).

A renderer is `draw(state, viewer) -> xml.etree.ElementTree.Element`: the <svg> root of the state as `viewer`
sees it (None: the public view), drawn from what that seat can observe only. Its top-level children should be
the picture's panels, which the replay viewer stores once for all the frames they do not change in. A game gets
a picture by naming its renderer in its record; nothing else needs to change.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from borabora_sim.errors import check_int
from borabora_sim.games import game_of, games_with, get_game, record_of
from borabora_sim.protocol import Game

Renderer = Callable[[Any, "int | None"], ET.Element]


def renderer_names() -> tuple[str, ...]:
    """The games that have a picture."""
    return games_with("picture")


def renderer_for(name: str) -> Renderer:
    """The renderer of the game named `name`; a game without one is a ValueError saying which games have one."""
    renderer: Renderer | None = record_of(name).part("picture")
    if renderer is None:
        raise ValueError(f"the game {name!r} has no picture yet (games with one: {', '.join(renderer_names())}); "
                         f"name one in its record (GameRecord.picture)")
    return renderer


def resolve_game(state: object, game: Game | str | None) -> str:
    """The name of the game of `state`: given as a Game object or a spec ("bamboo:mode=advanced"), or found from
    the state's type when None."""
    if game is None:
        return game_of(state).name
    if isinstance(game, str):
        return get_game(game).name
    return game.name


def check_viewer(state: Any, viewer: object) -> int | None:
    """None (the public view) or a seat of `state`."""
    return None if viewer is None else check_int(viewer, "viewer", 0, state.num_players - 1)


__all__ = ["renderer_for", "renderer_names"]
