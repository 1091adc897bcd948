"""Layout data of the Bora Bora picture: every size, position and colour of its own the drawing uses, in one place
(the house style every game shares is borabora_sim.kits.house_style).

The component file gives the map's topology (islands, regions, paths) but no coordinates; `picture.map_layout`
computes them from these constants and the file's order, so an edited component file redraws the map and the
same data always gives the same picture. Positions are in SVG user units (about pixels).
"""

from __future__ import annotations

WIDTH = 1480
HEADER_HEIGHT = 48

# Text sizes (no text is smaller than the house style's MIN_TEXT, borabora_sim.kits.house_style).
SMALL = 13                      # labels and the small print of tiles
TEXT = 14                       # counts, names, values
BIG = 16                        # a number that matters (the fish tiles' values, God tiles)

# Panels: (x, y, width, height), in two columns below the header; the player boards follow below them, two to a
# row.
MAP = (10, 56, 710, 768)
PERSONS = (10, 832, 710, 206)
TEMPLE = (730, 56, 740, 112)
ACTION_TILES = (730, 176, 740, 132)
STATUS_TRACK = (730, 316, 740, 200)
SCORE_TRACK = (730, 524, 740, 156)
TASKS = (730, 688, 740, 140)
JEWELRY = (730, 836, 466, 202)
GODS = (1204, 836, 266, 202)
BOARDS_TOP = 1048
BOARD_GAP = 10
BOARD_HEIGHT = 430
BOARDS_PER_ROW = 2

# Map: islands on a ring around the first island of the file, in file order clockwise from the top; each island's
# regions on a small grid, rows along the ring's tangent.
ISLAND_RING = 168               # the least distance of an outer island's centre from the map centre
ISLAND_GAP = 8                  # the least sea between the central island and an outer one
REGION_STEP = 130               # distance between neighbouring region centres on one island
REGION_RADIUS = 62              # the distance of a region hexagon's corners from its centre
ISLAND_PAD = 14                 # island outline beyond its regions
MAP_TITLE = 26                  # room for the panel title

TERRAIN_COLOURS = {"mountain": "#a8a39a", "beach": "#f0dc9c", "forest": "#5f9e5a", "plains": "#c4dc82"}
SEA = "#9fd3e6"
ISLAND_FILL = "#e9dcb3"
LAND_PATH = "#8a5a2b"
WATER_PATH = "#2f6fb0"
FISH_FILL = "#ffffff"
BUILDING_SPACE = "#fdf6e3"

GOD_COLOURS = {"blue": "#3a6fd8", "white": "#f4f4f4", "red": "#d23a3a", "green": "#3aa447", "yellow": "#f2c200"}
MATERIAL_COLOURS = {"sand": "#ead48e", "stone": "#9aa1a8", "wood": "#8b5a2b"}
SEX_COLOURS = {"man": "#cfe3f7", "woman": "#f7d6e6"}
JEWELRY_FILL = "#f4e6c8"
CURRENT_COLUMN = "#ffe9a8"
TASK_FILL = "#eef4e2"
CRANE_TASK_FILL = "#d7efc4"

# Dice: the size of a die and where its pips sit for each face (in units of the die's size).
DIE = 30
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)),
}

# Action tiles by number of players: a name per tile slot of the state's `tile_low` (combined tiles in games of
# fewer players share a slot; None: no tile of this slot in such a game). Fishing has no tile: its space is drawn
# beside them.
ACTION_TILE_NAMES = {
    2: ("helper", "temple", "build", "man/woman", None, "land/water", None),
    3: ("helper", "temple", "build", "man", "woman", "land/water", None),
    4: ("helper", "temple", "build", "man", "woman", "land", "water"),
}

# Short labels of the person types (PERSON_TYPES order) so that a tile fits in a small box.
PERSON_LABELS = ("land", "water", "woman", "man", "build", "material", "move hut", "VP", "god card", "offering",
                 "status", "shell")


__all__ = [
    "ACTION_TILES", "ACTION_TILE_NAMES", "BIG", "BOARDS_PER_ROW", "BOARDS_TOP", "BOARD_GAP", "BOARD_HEIGHT",
    "BUILDING_SPACE", "CRANE_TASK_FILL", "CURRENT_COLUMN", "DIE", "FISH_FILL", "GODS", "GOD_COLOURS", "HEADER_HEIGHT",
    "ISLAND_FILL", "ISLAND_GAP", "ISLAND_PAD", "ISLAND_RING", "JEWELRY", "JEWELRY_FILL", "LAND_PATH", "MAP",
    "MAP_TITLE", "MATERIAL_COLOURS", "PERSONS", "PERSON_LABELS", "PIPS", "REGION_RADIUS", "REGION_STEP",
    "SCORE_TRACK", "SEA", "SEX_COLOURS", "SMALL", "STATUS_TRACK", "TASKS", "TASK_FILL", "TEMPLE", "TERRAIN_COLOURS",
    "TEXT", "WATER_PATH", "WIDTH",
]
