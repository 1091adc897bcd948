"""The house style of every game's picture and of the replay around it: fonts, panel and text colours, a colour
per seat, and the score-by-source chart. Each game's own sizes and positions are in its package (`layout.py`).
Positions are in SVG user units (about pixels).
"""

from __future__ import annotations

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
BACKGROUND = "#f7f3e8"
PANEL_FILL = "#fffdf7"
PANEL_STROKE = "#b9a97f"
TEXT = "#222222"
MUTED = "#777777"
SEAT_COLOURS = ("#d1342f", "#2f6fd1", "#e0a800", "#7a3fb8")
SEAT_TEXT = ("#ffffff", "#ffffff", "#222222", "#ffffff")

# The least a picture draws: its smallest text (font size) and its smallest click target (both sides), in units.
# The pages show a picture at no less than 0.9 of its size when it fits (borabora_sim/viewer/zoom.py), so its text is 11
# pixels or more and its targets 24 or more.
MIN_TEXT = 12.5
MIN_TARGET = 28

# The score-by-source chart of the replay: one strip per seat; a colour per source (SOURCES order, cycled).
CHART_WIDTH = 440               # about its width beside the board, so that its text is not made smaller
CHART_STRIP = 86
CHART_LEFT = 40
SOURCE_COLOURS = ("#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896",
                  "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7",
                  "#bcbd22", "#17becf", "#dbdb8d", "#9edae5")


__all__ = [
    "BACKGROUND", "CHART_LEFT", "CHART_STRIP", "CHART_WIDTH", "FONT", "MIN_TARGET", "MIN_TEXT", "MUTED", "PANEL_FILL",
    "PANEL_STROKE", "SEAT_COLOURS", "SEAT_TEXT", "SOURCE_COLOURS", "TEXT",
]
