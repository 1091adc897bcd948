"""Which game has a picture: renderers keyed by the game's registered name (`Game.name`, borabora_sim.games).

A renderer is `draw(state, viewer) -> xml.etree.ElementTree.Element`: the <svg> root of the state as `viewer`
sees it (None: the public view), drawn from what that seat can observe only. Its top-level children should be
the picture's panels, which the replay viewer stores once for all the frames they do not change in. A game gets
a picture by one `register_renderer` call; nothing else needs to change.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from importlib import import_module
from typing import Any

from borabora_sim.errors import check_int
from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import Game

Renderer = Callable[[Any, "int | None"], ET.Element]

# name -> the renderer, or "module:attribute" naming it (imported on first use).
_RENDERERS: dict[str, str | Renderer] = {
    "bora_bora": "borabora_sim.viewer.bora_bora:draw",
    "bamboo": "borabora_sim.viewer.bamboo:draw",
}
_GAME_OF_MODULE: dict[str, str] = {}


def register_renderer(name: str, renderer: str | Renderer) -> None:
    """Gives the game registered as `name` a picture: `renderer(state, viewer)` returns its <svg> element, or
    "module:attribute" names such a function."""
    if name not in game_names():
        raise ValueError(f"unknown game {name!r}; games: {', '.join(game_names())}")
    if name in _RENDERERS:
        raise ValueError(f"the game {name!r} already has a picture")
    _RENDERERS[name] = renderer


def renderer_names() -> tuple[str, ...]:
    """The games that have a picture."""
    return tuple(_RENDERERS)


def renderer_for(name: str) -> Renderer:
    """The renderer of the game named `name`; a game without one is a ValueError saying which games have one."""
    renderer = _RENDERERS.get(name)
    if renderer is None:
        raise ValueError(f"the game {name!r} has no picture yet (games with one: {', '.join(_RENDERERS)}); "
                         f"add one with borabora_sim.viewer.register_renderer")
    if isinstance(renderer, str):
        module, _, attribute = renderer.partition(":")
        renderer = _RENDERERS[name] = getattr(import_module(module), attribute)
    return renderer


def game_name_of(state: object) -> str:
    """The registered game whose states come from the module of `state`'s type (each game's engine is a module
    of its own; a game may hand out a subclass of its state, so the type itself is not compared)."""
    module = type(state).__module__
    if module not in _GAME_OF_MODULE:
        for name in game_names():
            game = get_game(name)
            _GAME_OF_MODULE.setdefault(type(game.new_initial_state(min(game.player_counts), seed=0)).__module__, name)
    if module not in _GAME_OF_MODULE:
        raise ValueError(f"not a state of any registered game: {type(state).__name__} of {module}")
    return _GAME_OF_MODULE[module]


def resolve_game(state: object, game: Game | str | None) -> str:
    """The name of the game of `state`: given as a Game object or a spec ("bamboo:mode=advanced"), or found from
    the state's type when None."""
    if game is None:
        return game_name_of(state)
    if isinstance(game, str):
        return get_game(game).name
    return game.name


def check_viewer(state: Any, viewer: object) -> int | None:
    """None (the public view) or a seat of `state`."""
    return None if viewer is None else check_int(viewer, "viewer", 0, state.num_players - 1)
