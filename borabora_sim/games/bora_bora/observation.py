"""Bora Bora's observation tensor: a fixed-length float32 vector of what one seat can see.

It is built from ``state.observation(viewer)`` (the engine's filtered view: no other player's unknown God cards,
no draw-pile order, no chance seed) and the printed component tables ``state.components``. Seats are relative to
the viewer: player slot 0 is the viewer, slot k is the seat k places after it in seat order. ``SLICES`` maps
every named part to its ``(start, stop)`` range; docs/observation.md describes each one. ``ENCODER`` is this module
for the adapters (``borabora_sim.envs``; Bamboo's tensor is ``borabora_sim.games.bamboo.observation``).

>>> import borabora_sim
>>> from borabora_sim.games.bora_bora.observation import SLICES, observation_tensor
>>> state = borabora_sim.new_game(players=3, seed=1)
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

from borabora_sim import _engine
from borabora_sim.games.bora_bora.components import GOD_COLOURS, MATERIALS, PERSON_TYPES, SEXES, TASK_REQUIREMENT_KINDS
from borabora_sim.kits import encoding
from borabora_sim.kits.encoding import Encoder, Layout, Writer, write_turn

MAX_PLAYERS = 4
PLAYER_COUNTS = (2, 3, 4)
N_ROUNDS = 6
N_REGIONS = 12
N_FISH_TYPES = 4
N_JEWELRY_KINDS = 4
DISPLAY_SIZE = 6
GOD_DISPLAY_SIZE = 5
TEMPLE_SPACES = 6
ACTION_TILES = 7
N_DICE = 3
PERSON_SPACES = 12
CEREMONY_SPACES = 12
N_BUILDINGS = 6
TASK_SLOTS = 3
JEWELRY_ROWS = 4
REQUIREMENTS_PER_TASK = 2
NO_TILE = 255
CER_MATERIAL, CER_BUILDING = 1, 2

N_TYPES = len(PERSON_TYPES)
N_COLOURS = len(GOD_COLOURS)
N_SOURCES = len(_engine.SOURCES)
# A task: present, crane (start task), then per requirement: kind one-hot, count, parameter + 1 (0 = none).
TASK_WIDTH = 2 + REQUIREMENTS_PER_TASK * (len(TASK_REQUIREMENT_KINDS) + 2)
# A display person: present, type one-hot, printed symbols.
DISPLAY_PERSON_WIDTH = 1 + N_TYPES + 1
# A person on a player board: present, sex one-hot, type one-hot, printed symbols, shifted down.
BOARD_PERSON_WIDTH = 1 + len(SEXES) + N_TYPES + 1 + 1
# A jewelry tile of this round's column: present, kind one-hot, cost in shells, VP.
JEWELRY_WIDTH = 1 + N_JEWELRY_KINDS + 2

VP_HIGH = float(2**15)             # a VP source is a 16-bit signed counter in the engine
COUNT_HIGH = 255.0                 # 8-bit counters

# (name, size, high): the global part of the tensor, in order. Low is 0 everywhere.
_GLOBAL: list[tuple[str, int, float]] = [
    ("num_players", len(PLAYER_COUNTS), 1),
    ("round", N_ROUNDS, 1),
    ("phase", len(_engine.PHASES), 1),
    ("to_move", MAX_PLAYERS, 1),
    ("decision", len(_engine.DECISIONS), 1),
    ("decision_params", 2, 127),
    ("decision_depth", 1, 16),
    ("god_effects_active", 6, 1),
    ("abilities_used_count", len(SEXES), COUNT_HIGH),
    ("abilities_used_types", len(SEXES) * N_TYPES, 1),
    ("tile_low", ACTION_TILES, 7),
    ("temple", TEMPLE_SPACES * MAX_PLAYERS, 1),
    ("temple_god_tiles", 1, COUNT_HIGH),
    ("region_owner", N_REGIONS * MAX_PLAYERS, 1),
    ("fish_value", N_REGIONS, 127),
    ("fish_type", N_REGIONS * N_FISH_TYPES, 1),
    ("man_display", DISPLAY_SIZE * DISPLAY_PERSON_WIDTH, 127),
    ("woman_display", DISPLAY_SIZE * DISPLAY_PERSON_WIDTH, 127),
    ("task_display", DISPLAY_SIZE * TASK_WIDTH, 127),
    ("jewelry_display", JEWELRY_ROWS * JEWELRY_WIDTH, 127),
    ("god_display", GOD_DISPLAY_SIZE * N_COLOURS, 1),
    ("god_pile", 1, COUNT_HIGH),
    ("god_discard", N_COLOURS, COUNT_HIGH),
    ("person_piles", len(SEXES), COUNT_HIGH),
    ("task_pile", 1, COUNT_HIGH),
]

# (name, size, high): one player slot, repeated MAX_PLAYERS times as "p{k}.{name}".
_PLAYER: list[tuple[str, int, float]] = [
    ("present", 1, 1),
    ("vp_total", 1, VP_HIGH * N_SOURCES),
    ("vp_by_source", N_SOURCES, VP_HIGH),
    ("dice", N_DICE, 6),
    ("status", 1, 15),
    ("turn_position", MAX_PLAYERS, 1),
    ("huts", 2, COUNT_HIGH),
    ("persons", len(SEXES) * N_TYPES, COUNT_HIGH),
    ("persons_shifted", len(SEXES) * N_TYPES, COUNT_HIGH),
    ("person_12th", 1, 1),
    ("unshifted_symbols", len(SEXES), COUNT_HIGH),
    ("person_slots", PERSON_SPACES * BOARD_PERSON_WIDTH, 127),
    ("regions", N_REGIONS, 1),
    ("fish_scored", N_REGIONS, 1),
    ("ceremony", CEREMONY_SPACES * 2, 1),
    ("materials_beside", len(MATERIALS), COUNT_HIGH),
    ("buildings", N_BUILDINGS, 1),
    ("offerings", 1, COUNT_HIGH),
    ("shells", 1, COUNT_HIGH),
    ("god_tiles", 1, COUNT_HIGH),
    ("god_hand", N_COLOURS, COUNT_HIGH),
    ("god_known", N_COLOURS, COUNT_HIGH),
    ("god_hand_size", 1, COUNT_HIGH),
    ("tasks", TASK_SLOTS * TASK_WIDTH, 127),
    ("tasks_done", 1, COUNT_HIGH),
    ("jewelry", N_JEWELRY_KINDS, COUNT_HIGH),
    ("jewelry_vp", 1, COUNT_HIGH * N_ROUNDS),
    ("priests", 1, TEMPLE_SPACES),
]


LAYOUT = Layout(_GLOBAL, _PLAYER, MAX_PLAYERS)
SLICES, HIGH = LAYOUT.slices, LAYOUT.high
"""SLICES: name -> (start, stop) of each part; HIGH: the largest value each entry can take."""
SIZE = LAYOUT.size
LOW = LAYOUT.low
PLAYER_FIELDS = LAYOUT.player_fields


def player_slice(slot: int, name: str) -> tuple[int, int]:
    """(start, stop) of field `name` of player slot `slot` (0 = the viewer)."""
    return LAYOUT.player_slice(slot, name)


_TABLES: dict[int, tuple[Any, dict[str, np.ndarray]]] = {}


def _tables(components: Any) -> dict[str, np.ndarray]:
    """Per-tile feature rows of the component data, computed once per Components object. The last row of each
    table (index -1) is all zeros and stands for an empty place (NO_TILE)."""
    known = _TABLES.get(id(components))
    if known is not None and known[0] is components:
        return known[1]
    n_tasks = len(components.task_crane)
    tasks = np.zeros((n_tasks + 1, TASK_WIDTH), dtype=np.float32)
    width = len(TASK_REQUIREMENT_KINDS) + 2
    for task in range(n_tasks):
        tasks[task, 0] = 1.0
        tasks[task, 1] = float(components.task_crane[task])
        for j in range(REQUIREMENTS_PER_TASK):
            kind = int(components.task_req_kind[task, j])
            if kind >= 0:
                base = 2 + j * width
                tasks[task, base + kind] = 1.0
                tasks[task, base + len(TASK_REQUIREMENT_KINDS)] = float(components.task_req_count[task, j])
                tasks[task, base + len(TASK_REQUIREMENT_KINDS) + 1] = float(components.task_req_param[task, j]) + 1
    n_persons = len(components.person_type)
    display = np.zeros((n_persons + 1, DISPLAY_PERSON_WIDTH), dtype=np.float32)
    board = np.zeros((n_persons + 1, BOARD_PERSON_WIDTH), dtype=np.float32)
    for tile in range(n_persons):
        kind = int(components.person_type[tile])
        display[tile, 0] = 1.0
        display[tile, 1 + kind] = 1.0
        display[tile, 1 + N_TYPES] = float(components.person_symbols[tile])
        board[tile, 0] = 1.0
        board[tile, 1 + int(components.person_sex[tile])] = 1.0
        board[tile, 1 + len(SEXES) + kind] = 1.0
        board[tile, 1 + len(SEXES) + N_TYPES] = float(components.person_symbols[tile])
    n_jewelry = len(components.jewelry_kind)
    jewelry = np.zeros((n_jewelry + 1, JEWELRY_WIDTH), dtype=np.float32)
    for tile in range(n_jewelry):
        jewelry[tile, 0] = 1.0
        jewelry[tile, 1 + int(components.jewelry_kind[tile])] = 1.0
        jewelry[tile, 1 + N_JEWELRY_KINDS] = float(components.jewelry_cost[tile])
        jewelry[tile, 2 + N_JEWELRY_KINDS] = float(components.jewelry_vp[tile])
    colours = np.vstack([np.eye(N_COLOURS, dtype=np.float32), np.zeros((1, N_COLOURS), dtype=np.float32)])
    fish_types = np.eye(N_FISH_TYPES, dtype=np.float32)[np.asarray(components.fish_type, dtype=np.int64)]
    table: dict[str, np.ndarray] = {"tasks": tasks, "display": display, "board": board, "jewelry": jewelry,
                                    "colours": colours,
                                    "fish_value": np.asarray(components.fish_value, dtype=np.float32),
                                    "fish_type": fish_types,
                                    "person_sex": np.asarray(components.person_sex, dtype=np.int64),
                                    "person_type": np.asarray(components.person_type, dtype=np.int64),
                                    "person_symbols": np.asarray(components.person_symbols, dtype=np.float32),
                                    "jewelry_kind": np.asarray(components.jewelry_kind, dtype=np.int64),
                                    "jewelry_vp": np.asarray(components.jewelry_vp, dtype=np.float32),
                                    "bits": np.arange(16, dtype=np.int64)}
    if len(_TABLES) >= 32:
        del _TABLES[next(iter(_TABLES))]
    _TABLES[id(components)] = (components, table)
    return table


def _rows(table: np.ndarray, ids: Any) -> np.ndarray:
    """Feature rows of tile ids, NO_TILE mapped to the empty row."""
    ids = np.asarray(ids, dtype=np.int64)
    return table[np.where(ids == NO_TILE, -1, ids)]


def _bits(value: int, count: int) -> np.ndarray:
    return ((int(value) >> np.arange(count)) & 1).astype(np.float32)


def encode(obs: dict[str, Any], components: Any, out: np.ndarray | None = None) -> np.ndarray:
    """The tensor of an observation dict (``state.observation(viewer)``) with the game's components."""
    t = _tables(components)
    w = Writer(SLICES, out)
    n = int(obs["n_players"])
    rel = write_turn(w, obs, PLAYER_COUNTS, params_public=False)     # a decision's parameters may tell its hand
    w.put("god_effects_active", [obs["blue"], obs["white"], obs["green_used"], obs["green_double"],
                                 obs["green_extra"], obs["yellow"]])
    w.put("abilities_used_count", obs["ab_count"])
    w.put("abilities_used_types", np.concatenate([_bits(bits, N_TYPES) for bits in obs["ab_types"]]))
    w.put("tile_low", obs["tile_low"])
    for space, seat in enumerate(obs["temple"]):
        if seat >= 0:
            w.one("temple", rel(seat), offset=space * MAX_PLAYERS)
    w.scalar("temple_god_tiles", obs["temple_god_tiles"])
    for region, seat in enumerate(obs["region_owner"]):
        if seat >= 0:
            w.one("region_owner", rel(seat), offset=region * MAX_PLAYERS)
    fish_tiles = np.asarray(obs["fish_at"], dtype=np.int64)
    w.put("fish_value", t["fish_value"][fish_tiles])
    w.put("fish_type", t["fish_type"][fish_tiles])
    w.put("man_display", _rows(t["display"], obs["person_display"][0]))
    w.put("woman_display", _rows(t["display"], obs["person_display"][1]))
    w.put("task_display", _rows(t["tasks"], obs["task_display"]))
    w.put("jewelry_display", _rows(t["jewelry"], obs["jewelry_display"][int(obs["round"]) - 1]))
    w.put("god_display", _rows(t["colours"], obs["god_display"]))
    w.scalar("god_pile", obs["god_deck"])
    w.put("god_discard", obs["discard"])
    w.put("person_piles", obs["person_pile"])
    w.scalar("task_pile", obs["task_pile"])

    order = [int(s) for s in obs["order"][:n]]
    temple = [int(s) for s in obs["temple"]]
    for seat in range(n):
        _encode_player(w, t, f"p{rel(seat)}.", obs["pl"][seat], seat, order, temple)
    return w.out


def _encode_player(w: Writer, t: dict[str, np.ndarray], prefix: str, p: dict[str, Any], seat: int,
                   order: list[int], temple: list[int]) -> None:
    w.scalar(prefix + "present", 1)
    w.scalar(prefix + "vp_total", sum(p["vp"]))
    w.put(prefix + "vp_by_source", p["vp"])
    w.put(prefix + "dice", p["dice"])
    w.scalar(prefix + "status", p["status"])
    w.one(prefix + "turn_position", order.index(seat))
    w.put(prefix + "huts", [p["reg_huts"], p["huts_12th"]])
    count = int(p["n_persons"])
    tiles = np.asarray(p["persons"][:count], dtype=np.int64)
    down = _bits(p["shifted"], count)
    kinds = t["person_sex"][tiles] * N_TYPES + t["person_type"][tiles]
    size = len(SEXES) * N_TYPES
    w.put(prefix + "persons", np.bincount(kinds, minlength=size))
    w.put(prefix + "persons_shifted", np.bincount(kinds, weights=down, minlength=size))
    w.scalar(prefix + "person_12th", p["person_12th"])
    symbols = t["person_symbols"][tiles] * (1 - down)
    w.put(prefix + "unshifted_symbols", np.bincount(t["person_sex"][tiles], weights=symbols, minlength=len(SEXES)))
    slots = t["board"][tiles].copy()
    slots[:, -1] = down
    w.put(prefix + "person_slots", slots)
    w.put(prefix + "regions", _bits(p["regions"], N_REGIONS))
    w.put(prefix + "fish_scored", _bits(p["fish_scored"], N_REGIONS))
    ceremony = np.asarray(p["ceremony"], dtype=np.int64)
    w.put(prefix + "ceremony", np.stack([ceremony == CER_MATERIAL, ceremony == CER_BUILDING], axis=1))
    w.put(prefix + "materials_beside", p["beside"])
    w.put(prefix + "buildings", _bits(p["built"], N_BUILDINGS))
    w.scalar(prefix + "offerings", p["offerings"])
    w.scalar(prefix + "shells", p["shells"])
    w.scalar(prefix + "god_tiles", p["god_tiles"])
    if p["hand"] is not None:              # only the viewer's own hand is in its observation
        w.put(prefix + "god_hand", p["hand"])
        w.scalar(prefix + "god_hand_size", sum(p["hand"]))
    else:
        w.scalar(prefix + "god_hand_size", p["hand_size"])
    w.put(prefix + "god_known", p["known"])
    w.put(prefix + "tasks", _rows(t["tasks"], p["tasks"]))
    w.scalar(prefix + "tasks_done", p["tasks_done"])
    jewels = np.asarray(p["jewelry"][:int(p["n_jewelry"])], dtype=np.int64)
    w.put(prefix + "jewelry", np.bincount(t["jewelry_kind"][jewels], minlength=N_JEWELRY_KINDS))
    w.scalar(prefix + "jewelry_vp", t["jewelry_vp"][jewels].sum())
    w.scalar(prefix + "priests", sum(1 for s in temple if s == seat))


def observation_tensor(state: Any, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 tensor of what `viewer` sees in `state` (length SIZE); written into `out` if given."""
    return encode(state.observation(viewer), state.components, out)


def observation_text(obs: dict[str, Any]) -> str:
    """A canonical text of an observation dict: a readable header line, then the view as compact JSON (without the
    stale entries above the decision stack)."""
    return encoding.observation_text(obs, _engine.PHASES, _engine.DECISIONS)


def names_of(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The named parts of a tensor (views, not copies)."""
    return LAYOUT.names_of(vector)


def hide_private(obs: dict[str, Any]) -> dict[str, Any]:
    """The view without the viewer's own God cards (only their number stays), as the other seats see that seat."""
    return dict(obs, pl=[dict(p, hand=None, hand_size=sum(p["hand"])) if p["hand"] is not None else p
                         for p in obs["pl"]])


# =============================================================================
# What chance shows each seat (OpenSpiel's perfect-recall information state)
# =============================================================================
def chance_view(engine: Any, observe: Any = None) -> tuple[tuple[Any, ...], tuple[tuple[int, ...], ...]]:
    """(public chance-dependent fields, each seat's God cards) of an engine state (read from the whole state, so
    `observe` is not used)."""
    d = engine.to_dict()["state"]
    n = d["n_players"]
    dice = tuple(tuple(d["pl"][i]["dice"]) for i in range(n))
    public = (dice, tuple(map(tuple, d["person_display"])), tuple(d["task_display"]), tuple(d["god_display"]))
    hands = tuple(tuple(d["pl"][i]["hand"]) for i in range(n))
    return public, hands


def chance_events(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> str:
    """What everyone learnt by chance between two public views (everything when `old` is None): a dice roll,
    new displayed tiles or cards."""
    parts = []
    if old is None or sum(v > 0 for p in new[0] for v in p) > sum(v > 0 for p in old[0] for v in p):
        parts.append("dice " + "/".join("".join(map(str, p)) for p in new[0]))
    shown = (("men", new[1][0]), ("women", new[1][1]), ("tasks", new[2]), ("gods", new[3]))
    before_all = (None,) * 4 if old is None else (old[1][0], old[1][1], old[2], old[3])
    for (name, after), before in zip(shown, before_all, strict=True):
        if before is None or any(t != NO_TILE and t != b for t, b in zip(after, before, strict=True)):
            parts.append(f"{name} " + ",".join("-" if t == NO_TILE else str(t) for t in after))
    return "; ".join(parts)


def private_events(old: tuple[int, ...] | None, new: tuple[int, ...]) -> str:
    """The seat's God cards, when they changed."""
    return "" if new == old else "hand " + "".join(map(str, new))


ENCODER = Encoder(
    game="bora_bora", title="Bora Bora", score_unit="vp", layout=LAYOUT, encode=encode, text=observation_text,
    chance_view=chance_view, chance_events=chance_events, private_events=private_events,
    private_slices=("p0.god_hand",), hide_private=hide_private,
    # Decisions in one game, an upper bound measured with a wide margin: the longest of 20,000 uniformly random
    # games per player count took 196 / 269 / 341 decisions (2 / 3 / 4 players) and of 1,000 heuristic games
    # 210 / 312 / 378.
    max_game_length=2000,
)
"""Bora Bora's encoder for the adapters (borabora_sim.envs), found through its record."""


__all__ = ["ENCODER", "SIZE", "encode", "observation_tensor", "observation_text", "player_slice"]
