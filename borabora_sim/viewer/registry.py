"""Which game has a picture: each game's record names its renderer (`GameRecord.picture`, borabora_sim.games).

A renderer is `draw(state, viewer) -> xml.etree.ElementTree.Element`: the <svg> root of the state as `viewer`
sees it (None: the public view), drawn from what that seat can observe only. Its top-level children should be
the picture's panels, which the replay viewer stores once for all the frames they do not change in. A game gets
a picture by naming its renderer in its record; nothing else needs to change. A game that names none is shown
by its text (Game.render), drawn as a picture.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from borabora_sim.errors import check_int
from borabora_sim.games import game_of, games_with, get_game, record_of
from borabora_sim.kits import house_style as L
from borabora_sim.kits.svg import label, root, sub
from borabora_sim.protocol import Game

Renderer = Callable[[Any, "int | None"], ET.Element]


def renderer_names() -> tuple[str, ...]:
    """The games that have a picture."""
    return games_with("picture")


def renderer_for(name: str) -> Renderer:
    """The renderer of the game named `name`: its own picture, or for a game without one its text (Game.render)
    drawn as a picture, so that replays and browser play show every game; an unknown name is a ValueError."""
    renderer: Renderer | None = record_of(name).part("picture")
    if renderer is None:
        game = get_game(name)
        return lambda state, viewer: text_picture(game.render(state, viewer))
    return renderer


def text_picture(text: str) -> ET.Element:
    """The lines of `text` as an <svg> of one panel: the picture of a game that draws none of its own."""
    lines = text.splitlines() or [""]
    width = 40 + 9 * max(map(len, lines))           # about 9 units a character of 15-unit text
    svg = root(width, 30 + 22 * len(lines), font_family=L.FONT, data_game="text")
    group = sub(svg, "g", data_panel="text")
    sub(group, "rect", x=0, y=0, width=width, height=30 + 22 * len(lines), fill=L.BACKGROUND)
    for row, line in enumerate(lines):
        label(group, 20, 32 + 22 * row, line, size=15, fill=L.TEXT)
    return svg


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


__all__ = ["renderer_for", "renderer_names", "text_picture"]
