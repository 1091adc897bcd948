"""Layout data of the Pig picture: every size, position and colour of its own the drawing uses, in one place (the
house style every game shares is borabora_sim.kits.house_style). Positions are in SVG user units (about pixels)."""

from __future__ import annotations

WIDTH = 760
SMALL = 13                      # the least text (the house style's MIN_TEXT or more)
TEXT = 14
HEADER_HEIGHT = 48

# The race track: one lane per seat from 0 to the goal, below the header.
TRACK_TOP = 56
TRACK_LEFT = 186                # where a lane's 0 is, after the seat's chip and score
TRACK_RIGHT = 100               # room right of the goal for its label and the pig-outs
LANE = 46                       # height of a lane
LANE_BAR = 20                   # height of the bar of banked points
TICK = 10                       # points between two ticks of the scale
BANKED_OPACITY = 1.0
AT_STAKE_OPACITY = 0.35         # the mover's turn total, drawn on from its banked points

# The turn panel: the die, the turn total and how the last turn ended.
TURN_HEIGHT = 126
DIE = 64                        # side of the die
PIP = 6                         # radius of a pip
DIE_FILL = "#ffffff"
PIG_OUT = "#b3261e"             # a roll of 1 and the points it lost
GOAL_LINE = "#2e7d32"
# Pips of the faces 1..6 on a 3 x 3 grid (column, row); a die of more faces shows its number.
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)), 4: ((0, 0), (2, 0), (0, 2), (2, 2)),
        5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)), 6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


__all__ = [
    "AT_STAKE_OPACITY", "BANKED_OPACITY", "DIE", "DIE_FILL", "GOAL_LINE", "HEADER_HEIGHT", "LANE", "LANE_BAR",
    "PIG_OUT", "PIP", "PIPS", "SMALL", "TEXT", "TICK", "TRACK_LEFT", "TRACK_RIGHT", "TRACK_TOP", "TURN_HEIGHT",
    "WIDTH",
]
