"""Layout data of the Bamboo picture: every size, position and colour its drawing uses, in one place.

Positions are in SVG user units (about pixels). The seat colours, fonts and panel colours are the house style every
game shares (borabora_sim.kits.house_style), so that the replay page's seat chips and score chart read the same for
every game.
"""

from __future__ import annotations

WIDTH = 1480
HEADER_HEIGHT = 48

# Text sizes (no text is smaller than the house style's MIN_TEXT, borabora_sim.kits.house_style).
SMALL = 13                       # labels and the small print of tiles
TEXT = 14                        # names, counts, values

# Panels: (x, y, width, height). Player boards follow below them, two to a row.
TEMPLES = (10, 56, 730, 340)
FOOD = (750, 56, 720, 110)
TURN = (750, 174, 720, 222)
MARKETS = (10, 404, 730, 300)
STALKS = (750, 404, 250, 300)
SEASONS = (1010, 404, 460, 300)
BOARDS_TOP = 712
BOARD_GAP = 10
BOARD_HEIGHT = 400
BOARDS_PER_ROW = 2

# The 2-player ghost's colour (its brown sticks) and the colour of each temple, its shoots and its area (C1-C4).
GHOST = "#7b4a2a"
TEMPLE_COLOURS = ("#2e8b57", "#e07b00", "#1b8fb0", "#b0357c")
TEMPLE_FILLS = ("#dcefe3", "#fbe6cc", "#d5ecf3", "#f3d9e7")
# Shoot icons (ACTIONS order) as one letter on the piece.
ICON_LETTERS = ("B", "I", "C", "F", "W")
SHOOT_RADIUS = 14
STALK_SPACE = 34                 # distance between the spaces of a stalk
SHADED = "#e4dcc2"               # the shaded spaces of the reed field
ENTRY = "#fdfaf0"                # the entry spaces new shoots go to

# Home tiles by type (HOME_TYPES order: decoration, faith, garden, tools) and the balance tiles by side.
HOME_TYPE_COLOURS = ("#e8a0b4", "#b7a4e0", "#9fd08a", "#c8a878")
HOME_TYPE_LETTERS = "DFGT"
HOME_CELL = 40                   # a home space on a player board
HOME_TILE = (96, 64)             # a home tile in the market: width, height
BALANCE_TILE = (64, 76)          # a balance tile: width, height
BALANCE_FILL = ("#efe6f7", "#f7f1dc", "#e3f1f6")
PATTERN_CELL = 10                 # a space of a balance tile's pattern
SCORED_TILE = (32, 28)           # a scored balance tile on a player board: width, height
ANY_TYPE = "#d9d9d9"             # a pattern space that takes any type

# Food counters (tea, rice, ramen: the component file's order), spirits, coins and incense.
FOOD_COLOURS = ("#8dbb6b", "#f2efe4", "#e39b55")
SPIRIT_FILL = "#efe3c4"
SPIRIT_ASLEEP = "#c9c2b0"
COIN = "#e8c547"
STICK = (6, 26)                  # a stick of incense: width, height
SEASON_NAMES = ("Spring", "Summer", "Autumn", "Winter")
CURRENT = "#ffe9a8"


__all__ = [
    "ANY_TYPE", "BALANCE_FILL", "BALANCE_TILE", "BOARDS_PER_ROW", "BOARDS_TOP", "BOARD_GAP", "BOARD_HEIGHT", "COIN",
    "CURRENT", "ENTRY", "FOOD", "FOOD_COLOURS", "GHOST", "HEADER_HEIGHT", "HOME_CELL", "HOME_TILE",
    "HOME_TYPE_COLOURS", "HOME_TYPE_LETTERS", "ICON_LETTERS", "MARKETS", "PATTERN_CELL", "SCORED_TILE", "SEASONS",
    "SEASON_NAMES", "SHADED", "SHOOT_RADIUS", "SMALL", "SPIRIT_ASLEEP", "SPIRIT_FILL", "STALKS", "STALK_SPACE",
    "STICK", "TEMPLES", "TEMPLE_COLOURS", "TEMPLE_FILLS", "TEXT", "TURN", "WIDTH",
]
