"""Bamboo's observation tensor: a fixed-length float32 vector of what one seat can see.

It is built from ``state.observation(viewer)`` (the engine's filtered view, rulings B37: no order of a face-down
stack, no spirit under a face-up one, no chance seed) and the printed component tables ``state.components``. Nobody
holds a hidden hand in Bamboo, so every seat sees the same things; only the player slots differ, being relative to
the viewer: slot 0 is the viewer, slot k the seat k places after it in seat order. The 2-player ghost is not a
seat: its incense is a column of its own. ``SLICES`` maps every named part to its ``(start, stop)`` range, ``LOW``
and ``HIGH`` bound every entry; docs/bamboo_observation.md describes each part.

>>> from borabora_sim.games.bamboo import new_game
>>> from borabora_sim.games.bamboo.observation import SIZE, SLICES, observation_tensor
>>> state = new_game(players=3, seed=1)
>>> vector = observation_tensor(state, viewer=0)
>>> vector.shape == (SIZE,)
True
>>> start, stop = SLICES["round"]
>>> int(vector[start:stop].argmax()) + 1
1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from borabora_sim import _bamboo
from borabora_sim.games.bamboo.components import ACTIONS, HOME_TYPES, SIDES, pattern_fulfilled
from borabora_sim.kits import encoding
from borabora_sim.kits.encoding import Encoder, Layout, Writer, write_turn

# The compiled engine's board numbers (cext/bamboo_state.pxd; it refuses component data with others).
MAX_PLAYERS = 4
PLAYER_COUNTS = (2, 3, 4)
GHOST = 4                           # the ghost's column in the engine's incense[temple][seat]
N_TEMPLES = 4                       # temples = colours = temple areas
N_COLOURS = 4
N_ICONS = len(ACTIONS)              # balance, improve, cook, fund, wildcard
N_KINDS = N_COLOURS * N_ICONS       # shoot kind = colour * 5 + icon
N_GIFT_ACTIONS = 4
N_STALKS = 4
STALK_DEPTH = 3
STALK_NEW = 2
AREA_CAP = 4
DRAFT_MAX = 8
N_HOME = 64
HOME_CATS = 2
HOME_MARKET = 4
HOME_CELLS = 15
N_HOME_TYPES = len(HOME_TYPES)
N_SIDES = len(SIDES)
N_BAL = 68
BAL_PER_SIDE = 24                   # the most balance tiles of one side (24 left, 20 center, 24 right)
BAL_MARKET = 3
BAL_SLOTS = 2
KNOWN_SHOWN = 3                     # known tiles at the bottom of a stack shown: one per Winter market update (B33)
N_SPIRITS = 7
SPIRIT_STACK = 4
SPIRIT_COPIES = 9                   # the most copies of one spirit the component file allows
N_FOOD_KINDS = 3
N_FOOD = 26
FOOD_DISPLAY = 5
INCENSE = 7
GHOST_STICKS = 8
STICK_CLOCK = 28
STACK_MAX = 8
N_ROUNDS = 4
NO_TILE = _bamboo.NO_TILE_ID
MAX_COMFORT = 3
MAX_COIN_PRICE = 9                  # home tiles cost and give 0..9
MAX_BALANCE_HP = 20
MAX_MIN_COMFORT = 96                # a pattern's comfort minimum: 3 per cell of a 32-cell home at most
COUNT_HIGH = 255.0                  # 8-bit counters
HP_HIGH, HP_LOW = 32767.0, -32768.0  # an HP source is a 16-bit signed counter in the engine
NEGATIVE_SOURCES = ("hunger", "harmony", "night_spaces")    # the sources that only ever take HP away
SOURCES = tuple(_bamboo.SOURCES)

# A home tile: present, type one-hot, comfort, cost in coins, HP.
HOME_TILE_WIDTH = 1 + N_HOME_TYPES + 3
HOME_TILE_HIGH = [1.0] * (1 + N_HOME_TYPES) + [MAX_COMFORT, MAX_COIN_PRICE, MAX_COIN_PRICE]
# A space of a personal board's home: present, type one-hot, comfort.
HOME_SPACE_WIDTH = 1 + N_HOME_TYPES + 1
HOME_SPACE_HIGH = HOME_TILE_HIGH[:HOME_SPACE_WIDTH]
# A balance tile: present, HP, comfort minimum, pattern kind one-hot (a shape, or a type total of one of the four
# types), then per home space: looked at by the pattern, and the type it must hold (one-hot; none = any type).
PATTERN_KINDS = 1 + N_HOME_TYPES
CELL_WIDTH = 1 + N_HOME_TYPES
BALANCE_WIDTH = 3 + PATTERN_KINDS + HOME_CELLS * CELL_WIDTH
BALANCE_HIGH = [1.0, MAX_BALANCE_HP, MAX_MIN_COMFORT] + [1.0] * (PATTERN_KINDS + HOME_CELLS * CELL_WIDTH)
# A shoot on a stalk: colour one-hot, icon one-hot (all zeros: no shoot).
SHOOT_WIDTH = N_COLOURS + N_ICONS

_SOURCE_HIGH = [0.0 if name in NEGATIVE_SOURCES else HP_HIGH for name in SOURCES]
_SOURCE_LOW = [HP_LOW if name in NEGATIVE_SOURCES else 0.0 for name in SOURCES]


def _tiled(row: list[float], times: int) -> np.ndarray:
    return np.tile(np.asarray(row, dtype=np.float32), times)


# (name, size, high[, low]): the global part of the tensor, in order. Low is 0 unless given.
_GLOBAL: list[encoding.Part] = [
    ("num_players", len(PLAYER_COUNTS), 1),
    ("round", N_ROUNDS, 1),
    ("phase", len(_bamboo.PHASES), 1),
    ("to_move", MAX_PLAYERS, 1),
    ("decision", len(_bamboo.DECISIONS), 1),
    ("decision_params", 2, 127),
    ("decision_depth", 1, STACK_MAX),
    ("pending_home_tile", HOME_TILE_WIDTH, HOME_TILE_HIGH),
    ("start_player", MAX_PLAYERS, 1),
    ("gifts_up", N_GIFT_ACTIONS, 1),
    ("draft", N_KINDS, DRAFT_MAX),
    ("stick_clock", 1, STICK_CLOCK),
    ("incense", N_TEMPLES * (MAX_PLAYERS + 1), GHOST_STICKS),
    ("incense_order", N_TEMPLES * MAX_PLAYERS, STICK_CLOCK),
    ("spirit_face_up", N_TEMPLES * N_SPIRITS, 1),
    ("spirit_stack_height", N_TEMPLES, SPIRIT_STACK),
    ("spirits_removed", N_SPIRITS, SPIRIT_COPIES),
    ("spirits_unseen", N_SPIRITS, SPIRIT_COPIES),
    ("stalks", N_STALKS * STALK_DEPTH * SHOOT_WIDTH, 1),
    ("stalk_new", N_STALKS * STALK_NEW * SHOOT_WIDTH, 1),
    ("visit", N_TEMPLES, 1),
    ("sticks_placed", 1, AREA_CAP),
    ("to_place", N_KINDS, AREA_CAP),
    ("unactivated", N_ICONS, AREA_CAP),
    ("turn_spirits", 2, 1),
    ("received", N_KINDS, AREA_CAP),
    ("home_market", HOME_CATS * HOME_MARKET * HOME_TILE_WIDTH, _tiled(HOME_TILE_HIGH, HOME_CATS * HOME_MARKET)),
    ("home_stack_size", HOME_CATS, N_HOME),
    ("home_stack_unseen", HOME_CATS, N_HOME),
    ("home_stack_known", HOME_CATS * KNOWN_SHOWN * HOME_TILE_WIDTH, _tiled(HOME_TILE_HIGH, HOME_CATS * KNOWN_SHOWN)),
    ("balance_market", N_SIDES * BAL_MARKET * BALANCE_WIDTH, _tiled(BALANCE_HIGH, N_SIDES * BAL_MARKET)),
    ("balance_stack_size", N_SIDES, BAL_PER_SIDE),
    ("balance_stack_unseen", N_SIDES, BAL_PER_SIDE),
    ("balance_stack_known", N_SIDES * KNOWN_SHOWN * BALANCE_WIDTH, _tiled(BALANCE_HIGH, N_SIDES * KNOWN_SHOWN)),
    ("food_display", N_FOOD_KINDS, FOOD_DISPLAY),
    ("food_pile", N_FOOD_KINDS, N_FOOD),
    ("food_discard", N_FOOD_KINDS, N_FOOD),
]

# (name, size, high[, low]): one player slot, repeated MAX_PLAYERS times as "p{k}.{name}".
_PLAYER: list[encoding.Part] = [
    ("present", 1, 1),
    ("hp_total", 1, sum(_SOURCE_HIGH), sum(_SOURCE_LOW)),
    ("hp_by_source", len(SOURCES), _SOURCE_HIGH, _SOURCE_LOW),
    ("coins", 1, COUNT_HIGH),
    ("incense", 1, INCENSE),
    ("incense_due", 1, N_ROUNDS),
    ("last_visit", N_TEMPLES, 1),
    ("passed", 1, 1),
    ("advanced", 1, 1),
    ("areas", N_TEMPLES * N_KINDS, AREA_CAP),
    ("home", HOME_CELLS * HOME_SPACE_WIDTH, _tiled(HOME_SPACE_HIGH, HOME_CELLS)),
    ("night_spaces", HOME_CELLS * N_HOME_TYPES, 1),
    ("comfort", 3, MAX_COMFORT * HOME_CELLS),
    ("balance", N_SIDES * BAL_SLOTS * BALANCE_WIDTH, _tiled(BALANCE_HIGH, N_SIDES * BAL_SLOTS)),
    ("balance_met", N_SIDES * BAL_SLOTS, 1),
    ("balance_scored", 1, N_BAL),
    ("balance_scored_tiles", N_BAL, 1),
    ("food", N_FOOD_KINDS, N_FOOD),
    ("spirits", N_SPIRITS, SPIRIT_COPIES),
    ("spirits_asleep", N_SPIRITS, SPIRIT_COPIES),
]

LAYOUT = Layout(_GLOBAL, _PLAYER, MAX_PLAYERS)
SLICES, HIGH, LOW = LAYOUT.slices, LAYOUT.high, LAYOUT.low
"""SLICES: name -> (start, stop) of each part; HIGH / LOW: the largest / smallest value each entry can take."""
SIZE = LAYOUT.size
PLAYER_FIELDS = LAYOUT.player_fields


def player_slice(slot: int, name: str) -> tuple[int, int]:
    """(start, stop) of field `name` of player slot `slot` (0 = the viewer)."""
    return LAYOUT.player_slice(slot, name)


# =============================================================================
# Component tables as feature rows
# =============================================================================
_TABLES: dict[int, tuple[Any, dict[str, Any]]] = {}


def _tables(c: Any) -> dict[str, Any]:
    """Feature rows of the component data, computed once per BambooComponents object. The last row of each table
    (index -1) is all zeros and stands for an empty place (NO_TILE)."""
    known = _TABLES.get(id(c))
    if known is not None and known[0] is c:
        return known[1]
    n_home = len(c.home_type)
    home = np.zeros((n_home + 1, HOME_TILE_WIDTH), dtype=np.float32)
    for tile in range(n_home):
        home[tile, 0] = 1.0
        home[tile, 1 + int(c.home_type[tile])] = 1.0
        home[tile, 1 + N_HOME_TYPES:] = (c.home_comfort[tile], c.home_cost[tile], c.home_hp[tile])
    n_bal = len(c.balance_side)
    balance = np.zeros((n_bal + 1, BALANCE_WIDTH), dtype=np.float32)
    cells = 3 + PATTERN_KINDS
    for tile, pattern in enumerate(c.balance_patterns):
        row = balance[tile]
        row[:3] = (1.0, c.balance_hp[tile], pattern.min_comfort)
        row[3 + 1 + pattern.comfort_type] = 1.0            # comfort_type -1 (a shape) -> kind 0
        grid = row[cells:].reshape(HOME_CELLS, CELL_WIDTH)
        if pattern.comfort_type >= 0:
            grid[:, 0] = _bits(pattern.region, HOME_CELLS)
        else:
            cover, *needs = pattern.placements[0]
            grid[:, 0] = _bits(cover, HOME_CELLS)
            for kind, need in enumerate(needs):
                grid[:, 1 + kind] = _bits(need, HOME_CELLS)
    night = np.zeros((HOME_CELLS, N_HOME_TYPES), dtype=np.float32)
    night[np.asarray(c.night_cells, dtype=np.int64), np.asarray(c.night_types, dtype=np.int64)] = 1.0
    shoots = np.zeros((N_KINDS + 1, SHOOT_WIDTH), dtype=np.float32)
    for kind in range(N_KINDS):
        shoots[kind, kind // N_ICONS] = 1.0
        shoots[kind, N_COLOURS + kind % N_ICONS] = 1.0
    sizes = [np.bincount(np.asarray(values, dtype=np.int64), minlength=count)
             for values, count in ((c.home_category, HOME_CATS), (c.balance_side, N_SIDES))]
    table = {
        "home": home, "balance": balance, "night": night, "shoots": shoots,
        "home_type": np.asarray(c.home_type, dtype=np.int64),
        "home_comfort": np.asarray(c.home_comfort, dtype=np.int64),
        "patterns": c.balance_patterns,
        "spirit_copies": np.asarray(c.spirit_copies, dtype=np.float32),
        "gift_action": [int(a) for a in c.gift_action],
        "left": [bool(c.region_masks[0] >> cell & 1) for cell in range(HOME_CELLS)],    # the harmony's two sides
        "right": [bool(c.region_masks[2] >> cell & 1) for cell in range(HOME_CELLS)],
        "home_base": np.concatenate([[0], np.cumsum(sizes[0])[:-1]]), "home_size": sizes[0],
        "bal_base": np.concatenate([[0], np.cumsum(sizes[1])[:-1]]), "bal_size": sizes[1],
    }
    if len(_TABLES) >= 32:
        del _TABLES[next(iter(_TABLES))]
    _TABLES[id(c)] = (c, table)
    return table


def _bits(value: int, count: int) -> np.ndarray:
    return ((int(value) >> np.arange(count)) & 1).astype(np.float32)


def _rows(table: np.ndarray, ids: Any) -> np.ndarray:
    """Feature rows of ids, NO_TILE mapped to the empty row."""
    ids = np.asarray(ids, dtype=np.int64)
    return table[np.where(ids == NO_TILE, -1, ids)]


def _kind_counts(kinds: Any) -> np.ndarray:
    """Shoots counted by kind (NO_TILE entries left out)."""
    kinds = np.asarray(kinds, dtype=np.int64).ravel()
    return np.bincount(kinds[kinds != NO_TILE], minlength=N_KINDS)


def _known_part(pile: list[int], base: int, size: int, top: int, left: int, unseen: int) -> list[int]:
    """The tiles of a stack below its unseen part, from the next to come up, as far as KNOWN_SHOWN (a stack is a
    ring of `size` places from `base`, holding `left` tiles from offset `top`; the first `unseen` are hidden)."""
    known = [pile[base + (top + i) % size] for i in range(unseen, min(left, unseen + KNOWN_SHOWN))]
    return known + [NO_TILE] * (KNOWN_SHOWN - len(known))


# =============================================================================
# The encoder
# =============================================================================
def encode(obs: dict[str, Any], components: Any, out: np.ndarray | None = None) -> np.ndarray:
    """The tensor of an observation dict (``state.observation(viewer)``) with the game's components."""
    t = _tables(components)
    w = Writer(SLICES, out)
    n = int(obs["n_players"])
    rel = write_turn(w, obs, PLAYER_COUNTS, params_public=True)      # nobody holds a hidden hand (B37)
    sp = int(obs["sp"])
    if sp > 0:
        top = obs["stack"][sp - 1]
        if _bamboo.DECISIONS[int(top["kind"])] == "home_space":
            w.put("pending_home_tile", t["home"][int(top["a"])])
    w.one("start_player", rel(int(obs["start_seat"])))
    for gift in range(N_GIFT_ACTIONS):
        if int(obs["gifts_up"]) >> gift & 1:
            w.one("gifts_up", t["gift_action"][gift])
    w.put("draft", _kind_counts(obs["draft"]))
    w.scalar("stick_clock", obs["stick_clock"])

    # Temples: incense by relative seat (the ghost last), when each seat last offered, the spirits
    incense = np.zeros((N_TEMPLES, MAX_PLAYERS + 1), dtype=np.float32)
    order = np.zeros((N_TEMPLES, MAX_PLAYERS), dtype=np.float32)
    for temple in range(N_TEMPLES):
        for seat in range(n):
            incense[temple, rel(seat)] = obs["incense"][temple][seat]
            order[temple, rel(seat)] = obs["incense_top"][temple][seat]
        incense[temple, MAX_PLAYERS] = obs["incense"][temple][GHOST]
    w.put("incense", incense)
    w.put("incense_order", order)
    face_up = np.zeros(N_SPIRITS, dtype=np.float32)
    for temple, height in enumerate(obs["spirit_left"]):
        if height:
            spirit = int(obs["spirit_stack"][temple][height - 1])
            w.one("spirit_face_up", spirit, offset=temple * N_SPIRITS)
            face_up[spirit] += 1
    w.put("spirit_stack_height", obs["spirit_left"])
    w.put("spirits_removed", obs["spirit_gone"])
    held = np.sum([p["spirits"] for p in obs["pl"]], axis=0)
    w.put("spirits_unseen", t["spirit_copies"] - held - np.asarray(obs["spirit_gone"]) - face_up)

    # The reed field and the turn in progress
    w.put("stalks", _rows(t["shoots"], obs["stalk"]))
    w.put("stalk_new", _rows(t["shoots"], obs["stalk_new"]))
    if int(obs["visit"]) >= 0:
        w.one("visit", int(obs["visit"]))
    w.scalar("sticks_placed", obs["sticks_placed"])
    w.put("to_place", _kind_counts(obs["to_place"]))
    w.put("unactivated", obs["unactivated"])
    w.put("turn_spirits", [obs["kitsune"], obs["bakeneko"]])
    w.put("received", _kind_counts(obs["received"]))

    # Markets and stacks: of a stack only its size, its unseen part's size and the known tiles below it
    w.put("home_market", _rows(t["home"], obs["home_market"]))
    w.put("home_stack_size", obs["home_left"])
    w.put("home_stack_unseen", obs["home_unseen"])
    w.put("home_stack_known", _rows(t["home"], [
        _known_part(obs["home_pile"], t["home_base"][k], t["home_size"][k], obs["home_top"][k],
                    obs["home_left"][k], obs["home_unseen"][k]) for k in range(HOME_CATS)]))
    w.put("balance_market", _rows(t["balance"], obs["bal_market"]))
    w.put("balance_stack_size", obs["bal_left"])
    w.put("balance_stack_unseen", obs["bal_unseen"])
    w.put("balance_stack_known", _rows(t["balance"], [
        _known_part(obs["bal_pile"], t["bal_base"][k], t["bal_size"][k], obs["bal_top"][k], obs["bal_left"][k],
                    obs["bal_unseen"][k]) for k in range(N_SIDES)]))
    w.put("food_display", obs["food_display"])
    w.put("food_pile", obs["food_pile"])                # counts by kind: the view keeps no order
    w.put("food_discard", obs["food_discard"])

    passed = int(obs["passed"])
    for seat in range(n):
        slot = _BASE + rel(seat) * _WIDTH
        _encode_player(w.out[slot:slot + _WIDTH], t, obs["pl"][seat], passed >> seat & 1)
    return w.out


_BASE = player_slice(0, "present")[0]
_WIDTH = player_slice(1, "present")[0] - _BASE
_AT = {name: (start - _BASE, stop - _BASE) for name in PLAYER_FIELDS for start, stop in [player_slice(0, name)]}
"""Each player field's (start, stop) within a player slot."""
_START = {name: start for name, (start, _) in _AT.items()}


def _encode_player(block: np.ndarray, t: dict[str, Any], p: dict[str, Any], passed: int) -> None:
    """Writes one player's slot into `block`, a zeroed view of the slot (fields at _AT)."""
    at = _START
    hp = p["hp"]
    block[at["present"]] = 1.0
    block[at["hp_total"]] = sum(hp)
    block[at["hp_by_source"]:at["hp_by_source"] + len(hp)] = hp
    block[at["coins"]] = p["coins"]
    block[at["incense"]] = p["incense"]
    block[at["incense_due"]] = p["track"]
    if p["last_visit"] >= 0:
        block[at["last_visit"] + p["last_visit"]] = 1.0
    block[at["passed"]] = passed
    block[at["advanced"]] = p["advanced"]
    areas = at["areas"]
    for area, kinds in enumerate(p["area"]):
        for kind in kinds:
            if kind != NO_TILE:
                block[areas + area * N_KINDS + kind] += 1.0
    start, stop = _AT["home"]
    block[start:stop] = _rows(t["home"], p["home"])[:, :HOME_SPACE_WIDTH].ravel()
    if p["advanced"]:
        start, stop = _AT["night_spaces"]
        block[start:stop] = t["night"].ravel()
    home: list[tuple[int, int] | None] = []
    left, right, total = 0, 0, 0
    for cell, tile in enumerate(p["home"]):
        if tile == NO_TILE:
            home.append(None)
            continue
        comfort = int(t["home_comfort"][tile])
        home.append((int(t["home_type"][tile]), comfort))
        total += comfort
        left += comfort if t["left"][cell] else 0
        right += comfort if t["right"][cell] else 0
    block[at["comfort"]:at["comfort"] + 3] = (left, right, total)
    start, stop = _AT["balance"]
    block[start:stop] = _rows(t["balance"], p["balance"]).ravel()
    met = at["balance_met"]
    for slot, tile in enumerate(tile for side in p["balance"] for tile in side):
        if tile != NO_TILE and pattern_fulfilled(t["patterns"][tile], home):
            block[met + slot] = 1.0
    block[at["balance_scored"]] = p["n_scored"]
    start, stop = _AT["balance_scored_tiles"]
    block[start:stop] = np.unpackbits(np.asarray(p["scored"], dtype=np.uint8), bitorder="little")[:N_BAL]
    for name, values in (("food", p["food"]), ("spirits", p["spirits"]), ("spirits_asleep", p["asleep"])):
        block[at[name]:at[name] + len(values)] = values


def observation_tensor(state: Any, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 tensor of what `viewer` sees in `state` (length SIZE); written into `out` if given."""
    return encode(state.observation(viewer), state.components, out)


def observation_text(obs: dict[str, Any]) -> str:
    """A canonical text of an observation dict: a readable header line, then the view as compact JSON."""
    return encoding.observation_text(obs, _bamboo.PHASES, _bamboo.DECISIONS)


def names_of(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The named parts of a tensor (views, not copies)."""
    return LAYOUT.names_of(vector)


# =============================================================================
# What chance shows (OpenSpiel's perfect-recall information state)
# =============================================================================
_SET_UP = ("start", "draft", "field")                       # dealt once, then changed only by play
_NEW_TILES = ("homes", "balance")                           # a tile id not shown before: revealed from a stack
_MORE = ("food", "gifts")                                   # a count or flag up: counters revealed, gifts shown
_CHANGED = ("spirits", "ghost")                             # a new face-up spirit, the ghost's new temple tiles


def chance_view(engine: Any, observe: Any = None,
                ) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[tuple[()], ...]]:
    """(the public fields chance fills, no private part for any seat): what set-up dealt, the markets, the food
    display, the gifts, the face-up spirits and the ghost's incense. Every seat sees the same (B37), so seat 0's
    observation (`observe(0)` if given) is read."""
    obs = observe(0) if observe is not None else engine.observation(0)
    n = int(obs["n_players"])
    spirits = tuple(int(stack[h - 1]) if h else NO_TILE for stack, h in zip(obs["spirit_stack"], obs["spirit_left"],
                                                                           strict=True))
    gifts = tuple(int(obs["gifts_up"]) >> g & 1 for g in range(N_GIFT_ACTIONS))
    public = (
        ("start", (int(obs["start_seat"]),)), ("draft", tuple(obs["draft"])),
        ("field", tuple(k for stalk in obs["stalk"] for k in stalk)),
        ("homes", tuple(k for row in obs["home_market"] for k in row)),
        ("balance", tuple(k for row in obs["bal_market"] for k in row)),
        ("food", tuple(obs["food_display"])), ("gifts", gifts), ("spirits", spirits),
        ("ghost", tuple(obs["incense"][temple][GHOST] for temple in range(N_TEMPLES))),
    )
    return public, ((),) * n


def chance_events(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> str:
    """What everyone learnt by chance between two public views (everything when `old` is None)."""
    parts = []
    before = dict(old) if old is not None else None
    for name, after in new:
        if before is not None:
            prior = before[name]
            if name in _SET_UP or after == prior:
                continue
            if name in _NEW_TILES and not set(after) - set(prior) - {NO_TILE}:
                continue
            if name in _MORE and not any(a > b for a, b in zip(after, prior, strict=True)):
                continue
        parts.append(f"{name} " + ",".join("-" if v == NO_TILE else str(v) for v in after))
    return "; ".join(parts)


ENCODER = Encoder(
    game="bamboo", title="Bamboo", score_unit="hp", layout=LAYOUT, encode=encode, text=observation_text,
    chance_view=chance_view, chance_events=chance_events,
    # Decisions in one game: docs/bamboo_actions.md bounds a 4-player game at about 3,000 (22 Summer turns of at
    # most 30 decisions each, plus spirits, Spring and Winter). Random games are far shorter: the longest of
    # 20,000 per player count took 251 / 369 / 464 decisions (2 / 3 / 4 players, either mode).
    max_game_length=3000,
)
"""Bamboo's encoder for the adapters (borabora_sim.envs), found through its record."""


__all__ = ["ENCODER", "SIZE", "SOURCES", "encode", "observation_tensor", "observation_text", "player_slice"]
