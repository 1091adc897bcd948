"""Printed component data of Bamboo: loading, validation, provenance and the balance-pattern language.

The data lives in a JSON file (the built-in one is ``data/components.json``; the format is described in
``docs/bamboo_components.md``). Every value carries a provenance mark, CONFIRMED, DERIVED or INVENTED, because the
per-tile contents of the real game are not public. :func:`load_components` validates a file or an already-parsed
dict and returns a frozen :class:`BambooComponents`. Each balance tile's pattern is compiled on load into the list of
its placements in the home, as bit masks over the home's cells, which :func:`pattern_fulfilled` checks.

Example::

    >>> c = load_components()
    >>> c.balance_ids[4], c.marks["balance_tiles[4].pattern"], c.marks["balance_tiles[4].side"]
    ('B05', 'CONFIRMED', 'INVENTED')
    >>> pattern_fulfilled(c.balance_patterns[4], [(0, 1)] + [None] * 14)  # a decoration tile, top left
    True
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from borabora_sim.component_files import (
    MARKS,
    MAX_FILE_BYTES,
    Check,
    ComponentError,
    ComponentTables,
    Reader,
    fail,
    flag,
    frozen,
    int_in,
    load_with,
    name_in,
    open_document,
    plain_copy,
    require,
    require_count,
    require_each_used,
    require_unique,
    show,
    text,
)

__all__ = [
    "ACTIONS", "COLOURS", "ENGINE_FOOD_KINDS", "ENGINE_NUMBERS", "ENGINE_SINGLE_EFFECTS", "HOME_CATEGORIES",
    "HOME_TYPES", "MARKS", "MAX_FILE_BYTES", "SHOOT_SETUPS", "SIDES", "SPIRIT_EFFECTS", "TYPE_LETTERS",
    "BalancePattern", "BambooComponents", "ComponentError", "HomeCell", "load_components", "pattern_fulfilled",
]

# Name tables: the engine uses the indices, so the order is part of the contract.
HOME_TYPES = ("decoration", "faith", "garden", "tools")
TYPE_LETTERS = "DFGT"  # a pattern's letter for each of HOME_TYPES
ANY_LETTER, BLANK_LETTER = "*", "."
HOME_CATEGORIES = ("A", "B")
SIDES = ("left", "center", "right")
ACTIONS = ("balance", "improve", "cook", "fund", "wildcard")
GIFT_ACTIONS = ACTIONS[:4]
COLOURS = ("C1", "C2", "C3", "C4")  # colour Ck belongs to temple k
SHOOT_SETUPS = ("player", "board", "none")
SPIRIT_EFFECTS = ("balance", "improve", "fund", "wildcards", "winter_food", "free_offering", "renew_food")
_UNCOUNTED_EFFECTS = ("wildcards", "free_offering")  # effects without an amount

FORMAT_VERSION = 1
BUILTIN_FILE = Path(__file__).with_name("data") / "components.json"
MAX_PLAYERS = 4
MAX_HOME_CELLS = 32  # the engine keeps the home in 32-bit masks
MAX_COMFORT = 3  # R Home Tiles: comfort points of 1, 2 or 3
N_HOME_TILES = 64
N_SPIRITS = 7
BALANCE_PER_SIDE = (24, 20, 24)
N_SPIRIT_TILES = 21
SHOOTS_PER_SETUP = (16, 12, 8)
N_FOOD = 26

# What the compiled engine (cext/bamboo_state.pxd) is built for. The format also describes other editions of the
# game; a document that differs from these is refused after the format's own checks, as the engine cannot play it.
# Not listed, as the format with these allows only the engine's value: setup.spirit_stacks and setup.player_shoots
# (4), board.stalk_shaded_spaces (12 / board.stalks = 3).
ENGINE_NUMBERS: Mapping[str, int] = MappingProxyType({
    "home.rows": 3, "home.cols": 5, "setup.incense_per_player": 7, "setup.start_left_balance": 1,
    "setup.drafted_shoots": 2, "setup.spirit_stack_size": 4, "setup.balance_face_up": 3, "setup.home_face_up": 4,
    "setup.food_face_up": 5, "setup.rounds": 4, "board.stalks": 4, "board.stalk_new_shoots": 2,
    "board.temple_area_spaces": 4, "board.balance_slots": 2, "actions.balance_steps": 2,
})
ENGINE_FOOD_KINDS = 3  # tea, rice, ramen
ENGINE_SINGLE_EFFECTS = ("balance", "improve", "renew_food")  # the engine performs these once: amount 1
_BUILT_FOR = "the value the compiled engine is built for"
# A spirit's amount by effect: (least, most, what is allowed).
_AMOUNTS = {
    effect: (0, 0, "0 (the effect has no amount)") if effect in _UNCOUNTED_EFFECTS
    else (1, 1, "1 (the compiled engine performs the effect once)") if effect in ENGINE_SINGLE_EFFECTS
    else (1, 9, "1..9")
    for effect in SPIRIT_EFFECTS
}

_FORMAT_DOC = "docs/bamboo_components.md"
_LIST_SECTIONS = (
    "home_tiles", "balance_tiles", "spirits", "temple_tiles", "gifts", "shoots", "food", "coins", "night_spaces",
)
_SMALL = int_in(0, 9)
_TABLES: dict[str, dict[str, Check]] = {
    "setup": {
        "start_hp": int_in(0, 99), "start_coins": int_in(0, 99), "start_incense": _SMALL,
        "incense_per_player": int_in(1, 20), "ghost_extra_incense": _SMALL, "start_left_balance": _SMALL,
        "player_shoots": int_in(1, len(COLOURS)), "drafted_shoots": _SMALL, "spirit_stacks": int_in(1, 9),
        "spirit_stack_size": int_in(1, 9), "balance_face_up": int_in(1, 9), "home_face_up": int_in(1, 9),
        "food_face_up": int_in(1, 9), "rounds": int_in(1, 9),
    },
    "board": {
        "stalks": int_in(1, 9), "stalk_new_shoots": int_in(1, 9), "stalk_shaded_spaces": int_in(1, 9),
        "temple_area_spaces": int_in(1, 9), "balance_slots": int_in(1, 9),
    },
    "actions": {
        "balance_hp": _SMALL, "balance_steps": int_in(1, 9), "improve_coins": _SMALL, "fund_coins": _SMALL,
        "other_temple_coins": _SMALL,
    },
    "scoring": {
        "spirit_type_hp": _SMALL, "harmony_hp": _SMALL, "unscored_balance_divisor": int_in(1, 9),
        "uncovered_space_hp": _SMALL, "hunger_hp": _SMALL, "food_per_home_tile": int_in(1, 9),
    },
}

HomeCell = tuple[int, int] | None  # (type index, comfort) of the home tile on a space, or None for an empty space


@dataclass(frozen=True)
class BalancePattern:
    """A balance tile's pattern compiled to bit masks over the home's cells (bit i = cell i = row * cols + col).

    A shape pattern holds if one of its ``placements`` does. A placement is ``(cover, need_0, ..., need_3)``:
    every cell of ``cover`` holds a home tile, every cell of ``need_t`` a tile of type t (cells of ``cover`` in no
    ``need_t`` take any type), and the comfort on ``cover`` adds up to at least ``min_comfort``. A type-total pattern
    (``comfort_type`` >= 0, no placements) holds if the tiles of that type inside ``region`` have at least
    ``min_comfort`` comfort together.
    """

    region: int
    min_comfort: int
    comfort_type: int
    placements: tuple[tuple[int, ...], ...]


def pattern_fulfilled(pattern: BalancePattern, home: Sequence[HomeCell]) -> bool:
    """Whether ``home`` (one entry per cell, row-major) fulfils the compiled pattern.

    Uses only what a C engine would: type masks, an occupied mask and two comfort bit planes.
    """
    occupied = low = high = 0
    has = [0] * len(HOME_TYPES)
    for i, cell in enumerate(home):
        if cell is not None:
            kind, comfort = cell
            bit = 1 << i
            occupied |= bit
            has[kind] |= bit
            low |= bit if comfort & 1 else 0
            high |= bit if comfort & 2 else 0

    def comfort_on(mask: int) -> int:
        return (mask & low).bit_count() + 2 * (mask & high).bit_count()

    if pattern.comfort_type >= 0:
        return comfort_on(has[pattern.comfort_type] & pattern.region) >= pattern.min_comfort
    return any(
        cover & ~occupied == 0
        and all(need & ~has[t] == 0 for t, need in enumerate(needs))
        and comfort_on(cover) >= pattern.min_comfort
        for cover, *needs in pattern.placements
    )


@dataclass(frozen=True, eq=False, repr=False)
class BambooComponents(ComponentTables):
    """Validated component tables. Arrays are read-only int8 unless noted; names are tuples.

    Home cells are numbered row-major from the top left: cell = row * home_cols + col. ``marks`` and ``sources`` map
    every field path of the file (e.g. ``"balance_tiles[4].side"``) to its provenance mark and source text.
    """

    home_rows: int
    home_cols: int
    region_masks: tuple[int, ...]  # by SIDES: the cells of the left part, the whole home, the right part
    setup: Mapping[str, int]  # the "setup" table of the file; likewise board, actions and scoring
    board: Mapping[str, int]
    actions: Mapping[str, int]
    scoring: Mapping[str, int]
    home_tile_ids: tuple[str, ...]
    home_category: np.ndarray  # [64] index into HOME_CATEGORIES
    home_type: np.ndarray  # [64] index into HOME_TYPES
    home_comfort: np.ndarray  # [64] 1..3
    home_cost: np.ndarray  # [64] coins
    home_hp: np.ndarray  # [64] HP on placement
    home_three_plus: np.ndarray  # [64] bool: left in the box with 2 players
    balance_ids: tuple[str, ...]
    balance_side: np.ndarray  # [68] index into SIDES
    balance_hp: np.ndarray  # [68]
    balance_patterns: tuple[BalancePattern, ...]  # [68]
    spirit_names: tuple[str, ...]
    spirit_copies: np.ndarray  # [7]
    spirit_wake_cost: np.ndarray  # [7] coins
    spirit_effect: np.ndarray  # [7] index into SPIRIT_EFFECTS
    spirit_amount: np.ndarray  # [7] actions, food units or counters; 0 for wildcards and free_offering
    temple_tile_ids: tuple[str, ...]
    temple_tile_incense: np.ndarray  # [4] ghost incense shown on each 2-player temple tile
    gift_action: np.ndarray  # [4] index into ACTIONS
    shoot_ids: tuple[str, ...]
    shoot_colour: np.ndarray  # [36] index into COLOURS
    shoot_action: np.ndarray  # [36] index into ACTIONS
    shoot_setup: np.ndarray  # [36] index into SHOOT_SETUPS
    shoot_set: np.ndarray  # [36] player-setup set 1..4 (set k to the k-th player, rulings B2), 0 for other pieces
    food_names: tuple[str, ...]
    food_count: np.ndarray
    food_value: np.ndarray
    coin_values: np.ndarray
    coin_counts: np.ndarray
    night_cells: np.ndarray  # cell index of each typed space of the nighttime side
    night_types: np.ndarray  # index into HOME_TYPES
    marks: Mapping[str, str]
    sources: Mapping[str, str]
    source_path: str  # "builtin", the file path, or "<dict>"
    _document: dict[str, Any]


def load_components(source: str | os.PathLike[str] | Mapping[str, Any] | None = None) -> BambooComponents:
    """Load and validate Bamboo component data: None for the built-in file, a path to a JSON file, or a dict.

    Raises ComponentError naming the source, the offending field path and what is allowed, e.g.
    ``mine.json: balance_tiles[3].side: 'top' is not a known name; allowed: left, center, right``.
    """
    return load_with(_build, source, BUILTIN_FILE, _FORMAT_DOC)


def _build(doc: Any, source_path: str) -> BambooComponents:
    reader = open_document(doc, ("home", *_TABLES, *_LIST_SECTIONS), FORMAT_VERSION, _FORMAT_DOC)
    home = reader.table("home", {"rows": int_in(1, 4), "cols": int_in(1, 8), "left_cols": int_in(1, 8),
                                 "right_cols": int_in(1, 8)})
    rows, cols = home["rows"], home["cols"]
    require(home["left_cols"] + home["right_cols"] <= cols, "home.right_cols",
            f"{home['left_cols']} left + {home['right_cols']} right columns in a home {cols} wide",
            "left_cols + right_cols <= cols")
    regions = (
        _columns_mask(rows, cols, range(home["left_cols"])),
        _columns_mask(rows, cols, range(cols)),
        _columns_mask(rows, cols, range(cols - home["right_cols"], cols)),
    )
    tables = {key: reader.table(key, fields) for key, fields in _TABLES.items()}
    setup, board = tables["setup"], tables["board"]
    require(setup["incense_per_player"] == setup["start_incense"] + setup["rounds"], "setup.incense_per_player",
            f"{setup['incense_per_player']}", "start_incense + rounds (one stick on each round space)")
    require(setup["start_left_balance"] <= board["balance_slots"], "setup.start_left_balance",
            f"{setup['start_left_balance']}", f"at most board.balance_slots = {board['balance_slots']}")

    parts = {
        **_read_home_tiles(reader, setup),
        **_read_balance_tiles(reader, rows, cols, regions),
        **_read_pieces(reader, setup, board),
        **_read_night_spaces(reader, rows, cols),
    }
    _require_engine_numbers({"home": home, **tables}, len(parts["food_names"]))

    frozen_tables: dict[str, Any] = {key: MappingProxyType(values) for key, values in tables.items()}
    return BambooComponents(
        home_rows=rows,
        home_cols=cols,
        region_masks=regions,
        **frozen_tables,
        **parts,
        marks=MappingProxyType(reader.marks),
        sources=MappingProxyType(reader.sources),
        source_path=source_path,
        _document=plain_copy(reader.doc),
    )


def _require_engine_numbers(values: Mapping[str, Mapping[str, int]], food_kinds: int) -> None:
    """ENGINE_NUMBERS and ENGINE_FOOD_KINDS, checked once the document is a valid one of the format."""
    for path, built_for in ENGINE_NUMBERS.items():
        section, field = path.split(".")
        found = values[section][field]
        require(found == built_for, path, f"{found}", f"{built_for}, {_BUILT_FOR}")
    require(food_kinds == ENGINE_FOOD_KINDS, "food", f"{food_kinds} kinds of food",
            f"exactly {ENGINE_FOOD_KINDS}, {_BUILT_FOR}")


def _columns_mask(rows: int, cols: int, columns: range) -> int:
    return sum(1 << (r * cols + c) for r in range(rows) for c in columns)


def _read_home_tiles(reader: Reader, setup: Mapping[str, int]) -> dict[str, Any]:
    tiles = reader.records("home_tiles", {
        "id": text, "category": name_in(HOME_CATEGORIES), "type": name_in(HOME_TYPES),
        "comfort": int_in(1, MAX_COMFORT), "cost": int_in(0, 9), "hp": int_in(0, 9), "three_plus": flag,
    }, N_HOME_TILES)
    ids = [x["id"] for x in tiles]
    require_unique(ids, "home_tiles", "id")
    require_each_used(HOME_TYPES, {x["type"] for x in tiles}, "home_tiles", "home tile")
    for category, name in enumerate(HOME_CATEGORIES):
        two_player = sum(x["category"] == category and not x["three_plus"] for x in tiles)
        require(two_player >= setup["home_face_up"], "home_tiles", f"{two_player} category {name} tiles for 2 players",
                f"at least setup.home_face_up = {setup['home_face_up']} per category")
    return {
        "home_tile_ids": tuple(ids),
        "home_category": frozen([x["category"] for x in tiles]),
        "home_type": frozen([x["type"] for x in tiles]),
        "home_comfort": frozen([x["comfort"] for x in tiles]),
        "home_cost": frozen([x["cost"] for x in tiles]),
        "home_hp": frozen([x["hp"] for x in tiles]),
        "home_three_plus": frozen([x["three_plus"] for x in tiles], dtype=np.bool_),
    }


_PATTERN_ALLOWED = (f"a list of rows, strings of {', '.join(TYPE_LETTERS)}, {ANY_LETTER} (any tile) and "
                    f"{BLANK_LETTER} (no requirement); or a home-tile type ({', '.join(HOME_TYPES)})")
_LETTERS_ALLOWED = f"{', '.join(TYPE_LETTERS)}, {ANY_LETTER} and {BLANK_LETTER}"
_ROW_LETTERS = {**{letter: t for t, letter in enumerate(TYPE_LETTERS)}, ANY_LETTER: -1, BLANK_LETTER: None}


def _pattern(rows: int, cols: int) -> Check:
    """A pattern as ("type", type index) or ("shape", [(row, col, type index or -1 for any)])."""
    home_type = name_in(HOME_TYPES)

    def check(value: Any, path: str) -> tuple[str, Any]:
        if isinstance(value, str):
            return "type", home_type(value, path)
        if not (isinstance(value, list) and value):
            fail(path, show(value), _PATTERN_ALLOWED)
        require(len(value) <= rows, path, f"{len(value)} rows", f"at most {rows} (the home's height)")
        cells = []
        for r, row in enumerate(value):
            where = f"{path}[{r}]"
            require(isinstance(row, str) and 1 <= len(row) <= cols, where, show(row),
                    f"a string of 1..{cols} letters (the home's width)")
            require(len(row) == len(value[0]), where, f"{len(row)} letters, row 0 has {len(value[0])}",
                    "rows of equal length")
            for c, letter in enumerate(row):
                if letter not in _ROW_LETTERS:
                    fail(where, f"{letter!r} in {show(row)}", _LETTERS_ALLOWED)
                if _ROW_LETTERS[letter] is not None:
                    cells.append((r, c, _ROW_LETTERS[letter]))
        require(bool(cells), path, "no cell", f"at least one of {', '.join(TYPE_LETTERS)}, {ANY_LETTER}")
        return "shape", cells

    return check


def _placements(cells: Sequence[tuple[int, int, int]], rows: int, cols: int, region: int) -> list[tuple[int, ...]]:
    """Every translation of the shape that lies inside region, as (cover, need_0, ..., need_3) masks."""
    top, left = min(r for r, _, _ in cells), min(c for _, c, _ in cells)
    height = max(r for r, _, _ in cells) - top + 1
    width = max(c for _, c, _ in cells) - left + 1
    result = []
    for r0 in range(rows - height + 1):
        for c0 in range(cols - width + 1):
            masks = [0] * (1 + len(HOME_TYPES))
            for r, c, t in cells:
                bit = 1 << ((r0 + r - top) * cols + c0 + c - left)
                masks[0] |= bit
                if t >= 0:
                    masks[1 + t] |= bit
            if masks[0] & ~region == 0:
                result.append(tuple(masks))
    return result


def _read_balance_tiles(reader: Reader, rows: int, cols: int, regions: Sequence[int]) -> dict[str, Any]:
    tiles = reader.records("balance_tiles", {
        "id": text, "side": name_in(SIDES), "hp": int_in(1, 20), "pattern": _pattern(rows, cols),
        "min_comfort": int_in(0, MAX_COMFORT * MAX_HOME_CELLS),
    }, sum(BALANCE_PER_SIDE))
    ids = [x["id"] for x in tiles]
    require_unique(ids, "balance_tiles", "id")
    for side, expected in enumerate(BALANCE_PER_SIDE):
        require_count([x for x in tiles if x["side"] == side], "balance_tiles", expected, f"{SIDES[side]} tiles")
    patterns = []
    for i, tile in enumerate(tiles):
        path, region, least = f"balance_tiles[{i}]", regions[tile["side"]], tile["min_comfort"]
        kind, content = tile["pattern"]
        if kind == "type":
            most = MAX_COMFORT * region.bit_count()
            require(1 <= least <= most, f"{path}.min_comfort", f"{least} for a type-total pattern", f"1..{most}")
            patterns.append(BalancePattern(region, least, content, ()))
            continue
        placements = _placements(content, rows, cols, region)
        require(bool(placements), f"{path}.pattern", f"fits nowhere in the {SIDES[tile['side']]} part of the home",
                "a shape that fits inside its side's region (patterns are not rotated)")
        most = MAX_COMFORT * len(content)
        require(least <= most, f"{path}.min_comfort", f"{least} on {len(content)} cells", f"0..{most}")
        patterns.append(BalancePattern(region, least, -1, tuple(placements)))
    return {
        "balance_ids": tuple(ids),
        "balance_side": frozen([x["side"] for x in tiles]),
        "balance_hp": frozen([x["hp"] for x in tiles]),
        "balance_patterns": tuple(patterns),
    }


def _read_pieces(reader: Reader, setup: Mapping[str, int], board: Mapping[str, int]) -> dict[str, Any]:
    spirits = reader.records("spirits", {
        "name": text, "copies": int_in(1, 9), "wake_cost": _SMALL, "effect": name_in(SPIRIT_EFFECTS), "amount": _SMALL,
    }, N_SPIRITS)
    names = [x["name"] for x in spirits]
    require_unique(names, "spirits", "name")
    for i, spirit in enumerate(spirits):
        effect, amount = SPIRIT_EFFECTS[spirit["effect"]], spirit["amount"]
        least, most, allowed = _AMOUNTS[effect]
        require(least <= amount <= most, f"spirits[{i}].amount", f"{amount} for the effect {effect}", allowed)
    copies = sum(x["copies"] for x in spirits)
    require(copies == N_SPIRIT_TILES, "spirits", f"{copies} tiles in all", f"exactly {N_SPIRIT_TILES} copies")
    require(setup["spirit_stacks"] == len(COLOURS), "setup.spirit_stacks", f"{setup['spirit_stacks']}",
            f"{len(COLOURS)}, one stack per temple")
    in_play = setup["spirit_stacks"] * setup["spirit_stack_size"]
    require(in_play <= copies, "setup.spirit_stack_size", f"{in_play} tiles in the stacks",
            f"at most the {copies} spirit tiles")

    temples = reader.records("temple_tiles", {"id": text, "incense": _SMALL}, len(COLOURS))
    require_unique([x["id"] for x in temples], "temple_tiles", "id")
    ghost = sum(x["incense"] for x in temples)
    ghost_sticks = setup["incense_per_player"] + setup["ghost_extra_incense"]
    require(ghost <= ghost_sticks, "temple_tiles", f"{ghost} ghost sticks in all",
            f"at most the ghost's {ghost_sticks} (incense_per_player + ghost_extra_incense)")

    gifts = reader.records("gifts", {"action": name_in(GIFT_ACTIONS)}, len(GIFT_ACTIONS))
    require_each_used(GIFT_ACTIONS, {x["action"] for x in gifts}, "gifts", "gift")

    shoots = reader.records("shoots", {
        "id": text, "colour": name_in(COLOURS), "action": name_in(ACTIONS), "setup": name_in(SHOOT_SETUPS),
        "player_set": int_in(0, MAX_PLAYERS),
    }, sum(SHOOTS_PER_SETUP))
    require_unique([x["id"] for x in shoots], "shoots", "id")
    require_each_used(COLOURS, {x["colour"] for x in shoots}, "shoots", "piece")
    _check_shoots(shoots, setup, board)

    food = reader.records("food", {"name": text, "count": int_in(1, N_FOOD), "value": int_in(1, 9)},
                          most=(N_FOOD, "one record per kind"))
    require_unique([x["name"] for x in food], "food", "name")
    counters = sum(x["count"] for x in food)
    require(counters == N_FOOD, "food", f"{counters} counters", f"exactly {N_FOOD}")
    require(setup["food_face_up"] <= counters, "setup.food_face_up", f"{setup['food_face_up']}", f"1..{counters}")

    coins = reader.records("coins", {"value": int_in(1, 9), "count": int_in(1, 99)}, most=(9, "one record per value"))
    values = [x["value"] for x in coins]
    require(len(set(values)) == len(values), "coins", f"values {values}", "each value once")
    require(1 in values, "coins", "no coin worth 1", "a coin worth 1 (the rules pay and charge in 1s)")

    return {
        "spirit_names": tuple(names),
        "spirit_copies": frozen([x["copies"] for x in spirits]),
        "spirit_wake_cost": frozen([x["wake_cost"] for x in spirits]),
        "spirit_effect": frozen([x["effect"] for x in spirits]),
        "spirit_amount": frozen([x["amount"] for x in spirits]),
        "temple_tile_ids": tuple(x["id"] for x in temples),
        "temple_tile_incense": frozen([x["incense"] for x in temples]),
        "gift_action": frozen([x["action"] for x in gifts]),
        "shoot_ids": tuple(x["id"] for x in shoots),
        "shoot_colour": frozen([x["colour"] for x in shoots]),
        "shoot_action": frozen([x["action"] for x in shoots]),
        "shoot_setup": frozen([x["setup"] for x in shoots]),
        "shoot_set": frozen([x["player_set"] for x in shoots]),
        "food_names": tuple(x["name"] for x in food),
        "food_count": frozen([x["count"] for x in food]),
        "food_value": frozen([x["value"] for x in food]),
        "coin_values": frozen(values),
        "coin_counts": frozen([x["count"] for x in coins]),
    }


def _check_shoots(shoots: Sequence[Mapping[str, int]], setup: Mapping[str, int], board: Mapping[str, int]) -> None:
    """R II and III.D-E: 16 player-setup pieces (a set per player), 12 for the reed field, 8 for the draft."""
    player = SHOOT_SETUPS.index("player")
    sets: list[list[Mapping[str, int]]] = [[] for _ in range(MAX_PLAYERS + 1)]
    for i, shoot in enumerate(shoots):
        if shoot["setup"] == player:
            require(shoot["player_set"] >= 1, f"shoots[{i}].player_set", "0 for a player-setup piece",
                    f"1..{MAX_PLAYERS}")
        else:
            require(shoot["player_set"] == 0, f"shoots[{i}].player_set",
                    f"{shoot['player_set']} for a piece without the player-setup icon", "0")
        sets[shoot["player_set"]].append(shoot)
    for setup_kind, expected in enumerate(SHOOTS_PER_SETUP):
        own = [x for x in shoots if x["setup"] == setup_kind]
        require_count(own, "shoots", expected, f"{SHOOT_SETUPS[setup_kind]} pieces")
    for number in range(1, MAX_PLAYERS + 1):
        own = sets[number]
        require(len(own) == setup["player_shoots"], "shoots", f"{len(own)} pieces in player set {number}",
                f"exactly {setup['player_shoots']} (setup.player_shoots)")
        colours, actions = {x["colour"] for x in own}, {x["action"] for x in own}
        require(len(colours) == len(own) and len(actions) == len(own) and ACTIONS.index("wildcard") not in actions,
                "shoots", f"player set {number} repeats a colour or an action, or holds a wildcard",
                "one piece of each colour and each of the four actions per set (R III.D)")
    shaded = board["stalks"] * board["stalk_shaded_spaces"]
    require(shaded == SHOOTS_PER_SETUP[1], "board.stalk_shaded_spaces", f"{shaded} shaded spaces in all",
            f"stalks * stalk_shaded_spaces == {SHOOTS_PER_SETUP[1]}, the board-setup pieces")
    drafted = setup["drafted_shoots"] * MAX_PLAYERS
    require(drafted <= SHOOTS_PER_SETUP[2], "setup.drafted_shoots", f"{drafted} pieces for {MAX_PLAYERS} players",
            f"at most the {SHOOTS_PER_SETUP[2]} pieces without an icon")


def _read_night_spaces(reader: Reader, rows: int, cols: int) -> dict[str, Any]:
    spaces = reader.records("night_spaces", {"row": int_in(0, rows - 1), "col": int_in(0, cols - 1),
                                             "type": name_in(HOME_TYPES)}, most=(rows * cols, "one per home space"))
    cells = [x["row"] * cols + x["col"] for x in spaces]
    first: dict[int, int] = {}
    for i, cell in enumerate(cells):
        j = first.setdefault(cell, i)
        require(j == i, f"night_spaces[{i}]", f"the space of night_spaces[{j}] again", "each home space once")
    return {"night_cells": frozen(cells), "night_types": frozen([x["type"] for x in spaces])}
