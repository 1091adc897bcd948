"""Pictures of games: an SVG picture of any state as one seat sees it, and a self-contained HTML replay.

>>> import borabora_sim
>>> from borabora_sim.viewer import to_svg
>>> svg = to_svg(borabora_sim.new_game(players=3, seed=7))            # the public view
>>> svg.startswith("<svg")
True

Each game with a picture names its renderer in its record (`GameRecord.picture`, borabora_sim.games): Bora Bora
and Bamboo have one. See docs/viewer.md.
"""

from __future__ import annotations

from borabora_sim.players.reasons import Reasons
from borabora_sim.viewer.picture import to_svg
from borabora_sim.viewer.png import to_png
from borabora_sim.viewer.registry import renderer_names
from borabora_sim.viewer.replay import RecordedGame, record_game, replay_html, replay_page, replay_png

__all__ = ["Reasons", "RecordedGame", "record_game", "renderer_names", "replay_html", "replay_page", "replay_png",
           "to_png", "to_svg"]
