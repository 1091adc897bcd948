"""The SVG picture of a state: the renderer its game registered (borabora_sim.viewer.registry) draws it as one seat
sees it, and the drawing is written out as an SVG document. The PNG pictures and the replays are made from it."""

from __future__ import annotations

from borabora_sim.kits.svg import to_string
from borabora_sim.protocol import Game, GameState
from borabora_sim.viewer.registry import check_viewer, renderer_for, resolve_game


def to_svg(state: GameState, viewer: int | None = None, game: Game | str | None = None) -> str:
    """The SVG picture of `state` as seat `viewer` sees it (None: what every player sees). `game` (a game
    object or spec) is found from the state when None; a game without a picture is a ValueError."""
    draw = renderer_for(resolve_game(state, game))
    return to_string(draw(state, check_viewer(state, viewer)))


__all__ = ["to_svg"]
