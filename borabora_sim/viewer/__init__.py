"""Pictures of games: an SVG picture of any state as one seat sees it, and a self-contained HTML replay.

>>> import borabora_sim
>>> from borabora_sim.viewer import to_svg
>>> svg = to_svg(borabora_sim.new_game(players=3, seed=7))            # the public view
>>> svg.startswith("<svg")
True

Each game with a picture registers its renderer by name (`register_renderer`, see registry.py): Bora Bora and
Bamboo have one. See docs/viewer.md.
"""

from __future__ import annotations

from borabora_sim.protocol import Game, GameState
from borabora_sim.viewer.png import to_png
from borabora_sim.viewer.registry import check_viewer, register_renderer, renderer_for, renderer_names, resolve_game
from borabora_sim.viewer.replay import Reasons, RecordedGame, record_game, replay_html, replay_page, replay_png
from borabora_sim.viewer.svg import to_string

__all__ = ["Reasons", "RecordedGame", "record_game", "register_renderer", "renderer_names", "replay_html",
           "replay_page", "replay_png", "to_png", "to_svg"]


def to_svg(state: GameState, viewer: int | None = None, game: Game | str | None = None) -> str:
    """The SVG picture of `state` as seat `viewer` sees it (None: what every player sees). `game` (a game
    object or spec) is found from the state when None; a game without a picture is a ValueError."""
    draw = renderer_for(resolve_game(state, game))
    return to_string(draw(state, check_viewer(state, viewer)))
