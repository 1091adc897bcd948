# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Bora Bora engine: the C kernels and their thin Python wrapper `State`."""

from state cimport *

include "engine_core.pxi"
include "engine_flow.pxi"
include "engine_check.pxi"
include "engine_eval.pxi"
include "engine_features.pxi"

import operator

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.records import record_from_saved, record_to_python

COMPILED = True
FORMAT = "borabora_sim.state"
FORMAT_VERSION = 1
SEED_FIELDS = ("rng", "dice_rng")          # 64-bit generator states, saved as hex strings

DIE_ACTIONS = ("fishing", "helper", "temple", "build", "man", "woman", "land_path", "water_path")
# The names of the component data's numbered kinds that the action names use, in the order of the C enums, which the
# component data's name tables follow (games/bora_bora/components.py)
MATERIALS = ("sand", "stone", "wood")
PERSON_TYPES = ("land_path", "water_path", "woman", "man", "build", "material", "move_hut", "victory_points",
                "god_card", "offering", "status", "shell")
GOD_EFFECTS = ("blue", "white", "red", "green_double", "green_extra", "yellow")
GOD_COLOUR_NAMES = ("blue", "white", "red", "green", "yellow")
SOURCES = ("start", "fishing", "helper", "person", "temple", "status", "buildings", "tasks",
           "red_god", "jewelry", "fish_tiles", "god_tiles", "goal_tasks", "goal_jewelry",
           "goal_ceremony", "goal_buildings", "goal_regions", "goal_persons")
PHASES = ("setup", "A", "B", "C_jewelry", "C_task", "C_take_task", "final", "end")
DECISIONS = ("setup_hut", "die", "helper", "expand", "red_god", "material", "material_any",
             "person", "temple", "build_tile", "build_pair", "fire_bonus_god", "fire_bonus_status",
             "take_god_card", "phase_b", "jewelry", "task", "take_task", "final_tasks")
WEIGHT_NAMES = ("vp", "priest", "status", "offering", "god_card", "god_tile", "shell", "material",
                "material_beside", "person", "symbol", "free_space", "region", "fish", "task", "goal",
                "pending", "fishing")
INVARIANTS = (                              # by BadState number (engine_check.pxi)
    "n_players must be 2..4",
    "round must be 1..6 and phase 0..7, with set-up in round 1 and final / end in round 6",
    "turn_idx out of range for the phase (set-up, B, C and final 0..players; A 0..3 x players; end 0)",
    "order and first_order must hold each seat 0..players-1 once, then -1",
    "stack: the pending decisions (sp, kind, player) are not stacked as the phase stacks them, for one seat",
    "stack: a pending decision's arguments (a, b) are out of range or the premise it was offered on is gone",
    "God effect flags (blue, white, yellow, green_*) or phase B ability counts (ab_count, ab_types) inconsistent",
    "dice must be 0..6",
    "tile_low values must be 1..7",
    "temple spaces must hold a seat 0..players-1 or -1",
    "region_owner / regions / fish_scored inconsistent (an owner has a hut in the region, fish are scored "
    "only where a hut is)",
    "fish_at must be a permutation of 0..11",
    "person tiles duplicated or of the wrong sex",
    "person_top must be 0..36",
    "task tiles duplicated or out of range",
    "task_top must be 0..53",
    "jewelry tiles duplicated or out of range, or more than 6 for a player",
    "God cards must be 12 of each colour between pile, display, discard and hands, with known <= hand",
    "huts: reg_huts + huts_12th + huts on the map must be 12 for every player",
    "person spaces over-full (n_persons, person_12th, huts_12th, shifted)",
    "more than 4 priests of a player in the temple",
    "status must be 0..15 and status_stamp at most status_clock",
    "ceremony spaces must be 0..2 and hold two building cells per building built",
    "victory points must be 0 or more by source, and at most 10000 in total in a loaded state",
    "offerings, shells, beside, tasks_done and the behaviour counters must be at most 120 in a loaded state",
    "temple_god_tiles must be 0..6, and players hold at most players + the tiles gone from the temple",
    "pl entries of unused seats must be all zero",
    "status_clock and n_moves must be at most 30000 in a loaded state",
)

COUNTER_NAMES = tuple([f"dice_{a}" for a in DIE_ACTIONS] + [f"god_{e}" for e in GOD_EFFECTS] + [
    "god_tiles_played", "priests", "buildings", "tasks_done", "jewelry", "huts_on_map", "persons",
    "start_position"])

cdef enum:
    N_COUNTERS = N_DIE_ACTIONS + N_GOD_EFFECTS + 8

cdef int start_position(const GameState* g, int seat) noexcept nogil:
    """The seat's place in the first round's turn order (0 = first)."""
    cdef int k
    for k in range(g.n_players):
        if g.first_order[k] == seat:
            return k
    return 0

cdef void fill_counters(const GameState* g, int seat, int16_t* out) noexcept nogil:
    cdef const Player* p = &g.pl[seat]
    cdef int k, n = 0
    for k in range(N_DIE_ACTIONS):
        out[n] = p.dice_placed[k]; n += 1
    for k in range(N_GOD_EFFECTS):
        out[n] = p.gods_played[k]; n += 1
    out[n] = p.god_tiles_played
    out[n + 1] = priests_in_temple(g, seat)
    out[n + 2] = popcount(p.built)
    out[n + 3] = p.tasks_done
    out[n + 4] = p.n_jewelry
    out[n + 5] = popcount(p.regions)
    out[n + 6] = p.n_persons
    out[n + 7] = start_position(g, seat)

def die_placement(action):
    """(die value, die action name) of a "place V on ACTION" action id, or None for any other action."""
    action = check_int(action, "action", 0, NUM_ACTIONS - 1)
    if A_PLACE <= action < A_GOD:
        return action // N_DIE_ACTIONS + 1, DIE_ACTIONS[action % N_DIE_ACTIONS]
    return None


include "engine_layout.pxi"
include "game_state.pxi"

# =============================================================================
# Component tables
# =============================================================================
# The component columns copied into the C tables (Comp) of the same name, and those that fill a table named otherwise
_TABLE_COLUMNS = ("region_island", "region_terrain", "region_resource", "fish_value", "fish_type", "person_type",
                  "person_symbols", "task_crane", "task_req_kind", "task_req_count", "task_req_param", "jewelry_kind",
                  "jewelry_cost", "jewelry_vp", "status_vp", "temple_values", "ceremony_material", "building_values",
                  "start_vp", "helper_cost")
_RENAMED_TABLE_COLUMNS = {"building_vp": "building_vp_by_round", "temple_vp": "temple_vp_by_round"}

cdef class Rules(EngineRules):
    """Component tables in C form, shared read-only by every state of a game."""

    def __cinit__(self, components, str fingerprint not None):
        cdef int t, s, r, q
        check_components(components, _TABLE_COLUMNS + tuple(_RENAMED_TABLE_COLUMNS.values()),
                         "validated Components (borabora_sim.rules_for() builds them)")
        self.components = components
        self.fingerprint = fingerprint
        self.copy_columns(components, _TABLE_COLUMNS, _RENAMED_TABLE_COLUMNS)
        paths = (components.land_path, components.water_path)
        for t in range(2):
            for s in range(7):
                for r in range(N_REGIONS):
                    self.c.reach[t][s][r] = 0
                    for q in range(N_REGIONS):
                        if 0 < paths[t][r, q] <= s:
                            self.c.reach[t][s][r] |= <uint16_t>(1 << q)
        rows, cols = components.ceremony_rows, components.ceremony_cols
        pairs = [(y * cols + x, y * cols + x + 1) for y in range(rows) for x in range(cols - 1)]
        pairs += [(y * cols + x, (y + 1) * cols + x) for y in range(rows - 1) for x in range(cols)]
        self.c.n_pairs = len(pairs)
        for q, (a, b) in enumerate(pairs):
            self.c.pair_a[q] = a
            self.c.pair_b[q] = b
        self.c.fishing_vp = components.fishing_vp
        self.c.start_huts_12th = components.start_huts_on_12th_space
        self.c.regular_spaces = components.regular_person_spaces
        self.action_names = tuple(_action_names(components, pairs))
        self.action_ids = {name: a for a, name in enumerate(self.action_names)}


def _action_names(components, pairs):
    names = []
    for v in range(1, 7):
        names += [f"place {v} on {act}" for act in DIE_ACTIONS]
    pays = ["card"] + [f"pair of {col}" for col in GOD_COLOUR_NAMES] + ["god tile"]
    for effect in GOD_EFFECTS:
        names += [f"play {effect} god with {pay}" for pay in pays]
    names += [f"region {r}" for r in components.region_ids]
    names += [f"ceremony space {s + 1} ({MATERIALS[m]})" for s, m in enumerate(components.ceremony_material)]
    names += [f"{m} beside board" for m in MATERIALS]
    names += [f"take person at position {i + 1}" for i in range(DISPLAY_SIZE)]
    names += [f"temple space {i + 1} (value {v})" for i, v in enumerate(components.temple_values)]
    names += [f"building tile {k + 1} (value {v})" for k, v in enumerate(components.building_values)]
    names += [f"ceremony pair {a + 1}+{b + 1}" for a, b in pairs]
    names += [f"unused ceremony pair {q + 1}" for q in range(len(pairs), MAX_CEREMONY_PAIRS)]
    names += ["god card from pile"] + [f"god card from display {i + 1}" for i in range(GOD_DISPLAY_SIZE)]
    names += ["offering", "status step", "shell", "victory point", "move hut to 12th space"]
    names += [f"shift down person {i + 1}" for i in range(PERSON_SPACES)]
    names += [f"use {sex} {t}" for sex in ("man", "woman") for t in PERSON_TYPES]
    names += [f"buy jewelry row {j + 1}" for j in range(JEWELRY_ROWS)]
    names += [f"complete task {i + 1}" for i in range(TASK_SLOTS)]
    names += [f"surrender task {i + 1}" for i in range(TASK_SLOTS)]
    names += [f"take task {i + 1} from display" for i in range(DISPLAY_SIZE)]
    names.append("done")
    assert len(names) == NUM_ACTIONS
    return names

# =============================================================================
# The game in progress
# =============================================================================
cdef str NEW_GAME_CALL = "borabora_sim.new_game(players, seed)"
cdef str STATE_NAME = "State"


cdef class State(EngineState):
    """A Bora Bora game in progress. Create one with `borabora_sim.new_game()`.

    The state always waits on a real decision (two or more legal actions) or is terminal:
    decisions with a single legal action are taken automatically.
    """

    @staticmethod
    def _new(Rules rules not None, players, seed):
        return _started_state(rules, players, seed, 0)

    @property
    def turn_order(self):
        """Seats in the turn order of the round being played (position 0 first)."""
        return [self.s.order[i] for i in range(self.s.n_players)]

    @property
    def first_turn_order(self):
        """Seats in the turn order of round 1 (position 0 started)."""
        return [self.s.first_order[i] for i in range(self.s.n_players)]

    def step_random(self, seed):
        """Plays the rest of the game with uniformly random actions inside compiled code."""
        cdef int buf[NUM_ACTIONS]
        cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
        cdef int n = legal_actions(&self.rules.c, &self.s, buf)
        with nogil:
            n = random_rollout(&self.rules.c, &self.s, n, buf, &rng)
        return n

    def counters(self):
        """Behaviour counters per seat: {name: count} for each name in COUNTER_NAMES."""
        cdef int16_t out[N_COUNTERS]
        rows = []
        for seat in range(self.s.n_players):
            fill_counters(&self.s, seat, out)
            rows.append({COUNTER_NAMES[k]: out[k] for k in range(N_COUNTERS)})
        return rows

    @staticmethod
    def from_dict(data, Rules rules not None):
        """A state from to_dict() output, played with the component tables `rules` (rules_for(components)); every
        field's type and range and every law of a loaded state is checked, and the first that fails is named in a
        StateFormatError."""
        return _loaded_state(rules, data)


include "game_module.pxi"


cdef hide_from(EngineState state, dict d, viewer):
    """What State.observation leaves out of the saved form `d` for `viewer` (None: for everyone): the draw
    piles' order and the other hands' unknown cards, each hand reduced to its size."""
    d["god_deck"] = d["deck_end"] - d["deck_top"]
    del d["deck_top"], d["deck_end"]
    d["person_pile"] = [PERSONS_PER_SEX - t for t in d["person_top"]]
    d["task_pile"] = N_PARROT_TASKS - d["task_top"]
    del d["person_top"], d["task_top"]
    for seat, pl in enumerate(d["pl"]):
        if seat != viewer:
            pl["hand_size"] = sum(pl["hand"])
            pl["hand"] = None


def new_state(Rules rules not None, players, seed):
    return State._new(rules, players, seed)


def random_game_actions(Rules rules not None, players, game_seed):
    """The actions of the compiled random game `game_seed` (as played by random_playouts)."""
    return _random_game_actions(rules, players, game_seed, 0)


def random_playouts(Rules rules not None, games, players, seed, first_game=0):
    """Plays `games` uniformly random games in compiled code (no Python per step).

    Game i starts from derive_seed(seed, first_game + i). Returns a dict of numpy arrays: `scores`
    (games x players), `breakdown` (games x players x len(SOURCES)), `counters` (games x players x
    len(COUNTER_NAMES)), `winner`, `decisions` (real decisions per game) and `moves` (all actions,
    forced ones included).
    """
    result = _random_playouts(rules, games, players, seed, first_game, 0)
    del result["start_position"]          # the last of the counters
    return result
