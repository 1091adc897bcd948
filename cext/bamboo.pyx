# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Bamboo engine: the C kernels and their thin Python wrapper `State`."""

from bamboo_state cimport *

include "bamboo_core.pxi"
include "bamboo_flow.pxi"
include "bamboo_check.pxi"
include "bamboo_eval.pxi"
include "bamboo_features.pxi"

import operator

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.records import record_from_saved, record_to_python

FORMAT = "borabora_sim.bamboo.state"
FORMAT_VERSION = 2                          # 2: the balance tiles each player scored (pl.scored)
SEED_FIELDS = ("rng", "event_rng")          # 64-bit generator states, saved as hex strings
NO_TILE_ID = NO_TILE

PHASES = ("setup", "spring", "summer", "wake", "feed", "end")
DECISIONS = ("draft", "gift", "visit", "offer", "stalk", "shoot", "activate", "balance", "improve",
             "home_space", "cook", "renew_food", "keep_shoot", "wake", "feed")
SOURCES = ("start", "balance_hp", "balance_scored", "home_tiles", "hunger", "spirit_types", "harmony",
           "half_balance", "night_spaces")
MODES = ("normal", "advanced")
# The names of the component data's numbered kinds that the action and counter names use, in the order of the C
# enums, which the component data's name tables follow (games/bamboo/components.py)
ACTIONS = ("balance", "improve", "cook", "fund", "wildcard")
COLOURS = ("C1", "C2", "C3", "C4")
HOME_CATEGORIES = ("A", "B")
SIDES = ("left", "center", "right")
WEIGHT_NAMES = ("hp", "coin", "food", "hunger", "incense", "shoot_balance", "shoot_improve", "shoot_cook",
                "shoot_fund", "shoot_wild", "comfort", "harmony", "night_space", "balance_met", "balance_near",
                "spirit_kind", "spirit_awake", "majority", "pending")
INVARIANTS = (                              # by the number check_state returns (bamboo_check.pxi)
    "n_players must be 2..4",
    "round 1..4, phase 0..5, set-up only in round 1, the end only after round 4, start_seat < players",
    "turn_idx out of range for the phase or not at the seat deciding, or passed / stick_clock set outside Summer "
    "or out of range",
    "stack: the pending decisions are not stacked as the phase stacks them, for one seat < players",
    "stack: a pending decision's arguments (a, b) are out of range or the premise it was offered on is gone",
    "turn in progress: visit, to_place, stalk_new, unactivated, the flags and received are inconsistent",
    "incense: each player's reserve + round spaces + temples must be 7 with track = the sticks still due, "
    "stamps set exactly where sticks lie and unique per temple, ghost sticks only with 2 players (at most 8), "
    "stick_clock at most the turns the sticks in temples account for",
    "stick_clock: a Summer turn in progress has its own stamp, so it must be at least 1, no other seat's sticks may "
    "carry it, and the mover's sticks carry it only once sticks_placed > 0, at least sticks_placed of them",
    "shoots: a kind appears more often than its pieces, a shaded space is empty, an area is not front-filled, "
    "or a player does not hold 6 (4 + picks during the draft)",
    "home tiles: each tile once among piles, markets, homes and a pending placement, all in play (no 3+ "
    "tile with 2 players), in their category's pile and market, markets front-filled, typed spaces respected",
    "balance tiles: each tile once among piles, markets, slots and the players' scored sets, all 68, sides "
    "matching, and n_scored = the tiles in the player's scored set",
    "spirits: stacks + held + removed must be 16 (at most the copies of each), stacks as high as the round "
    "leaves them, asleep <= held",
    "food: display + pile + discards + players must be the counters of each kind, display at most 5 and empty "
    "only when the pile and the discards are",
    "gifts: face-up gift tiles only in Spring, one per player still to choose",
    "hunger, harmony and night-space HP must be <= 0, the others >= 0, and end sources 0 before the end",
    "pl entries of unused seats must be all zero",
    "last_visit must be -1..3 and advanced 0..1",
    "in a loaded state: HP within +-10000, coins <= 200, behaviour counters <= 120, n_moves <= 30000",
)
_BOARD_NUMBERS = (                          # (table, field, the compiled constant)
    ("board", "stalks", N_STALKS), ("board", "stalk_new_shoots", STALK_NEW),
    ("board", "stalk_shaded_spaces", STALK_DEPTH), ("board", "temple_area_spaces", AREA_CAP),
    ("board", "balance_slots", BAL_SLOTS), ("setup", "balance_face_up", BAL_MARKET),
    ("setup", "home_face_up", HOME_MARKET), ("setup", "food_face_up", FOOD_DISPLAY), ("setup", "rounds", N_ROUNDS),
    ("setup", "player_shoots", SET_SHOOTS), ("setup", "drafted_shoots", DRAFTED),
    ("setup", "spirit_stacks", N_TEMPLES), ("setup", "spirit_stack_size", SPIRIT_STACK),
    ("setup", "incense_per_player", INCENSE), ("setup", "start_left_balance", 1), ("actions", "balance_steps", 2),
)

cdef inline int start_position(const GameState* g, int seat) noexcept nogil:
    """The seat's place in the first round's turn order: the marker passes once in each Winter but the last."""
    cdef int P = g.n_players
    return (seat - (g.start_seat - (g.round - 1)) % P + 2 * P) % P

cdef inline void fill_counters(const GameState* g, int seat, int16_t* out) noexcept nogil:
    cdef const uint8_t* first = &g.pl[seat].turns
    cdef int i
    for i in range(N_COUNTERS):
        out[i] = first[i]

include "bamboo_layout.pxi"
include "game_state.pxi"

# =============================================================================
# Component tables
# =============================================================================
# The component columns copied into the C tables (Comp) of the same name, and those that fill a table named otherwise
_TABLE_COLUMNS = ("home_type", "home_comfort", "home_cost", "home_hp", "home_three_plus", "spirit_effect",
                  "spirit_amount", "spirit_copies", "food_count", "gift_action")
_RENAMED_TABLE_COLUMNS = {"home_cat": "home_category", "bal_side": "balance_side", "bal_hp": "balance_hp",
                          "spirit_cost": "spirit_wake_cost", "food_units": "food_value",
                          "temple_tile_sticks": "temple_tile_incense"}

cdef class Rules(EngineRules):
    """Component tables in C form, shared read-only by every state of a game."""
    cdef readonly tuple counter_names

    def __cinit__(self, components, str fingerprint not None):
        cdef int i, k, q
        check_components(components, _TABLE_COLUMNS + tuple(_RENAMED_TABLE_COLUMNS.values()),
                         "validated BambooComponents (borabora_sim.games.bamboo.load_components() builds them)")
        for table, field, want in _BOARD_NUMBERS:
            got = getattr(components, table)[field]
            if got != want:
                raise ValueError(f"{table}.{field} is {got}; the compiled engine is built for {want}")
        if (components.home_rows, components.home_cols) != (HOME_ROWS, HOME_COLS):
            raise ValueError(f"home is {components.home_rows} x {components.home_cols}; the compiled engine is "
                             f"built for {HOME_ROWS} x {HOME_COLS}")
        if len(components.food_count) != N_FOOD_KINDS:
            raise ValueError(f"{len(components.food_count)} food kinds; the compiled engine is built for "
                             f"{N_FOOD_KINDS}")
        self.components = components
        self.fingerprint = fingerprint
        self.copy_columns(components, _TABLE_COLUMNS, _RENAMED_TABLE_COLUMNS)
        field, draft = [], []
        sets = [[0] * N_TEMPLES for _ in range(MAX_PLAYERS)]
        for k in range(N_KINDS):
            self.c.kind_pieces[k] = 0
        for i in range(len(components.shoot_ids)):
            kind = int(components.shoot_colour[i]) * N_ICONS + int(components.shoot_action[i])
            self.c.kind_pieces[kind] += 1
            if components.shoot_setup[i] == 0:
                sets[components.shoot_set[i] - 1][components.shoot_colour[i]] = kind
            elif components.shoot_setup[i] == 1:
                field.append(kind)
            else:
                draft.append(kind)
        for i in range(FIELD_SPACES):
            self.c.field_kinds[i] = field[i]
        for i in range(DRAFT_MAX):
            self.c.draft_kinds[i] = draft[i]
        for i in range(MAX_PLAYERS):
            for k in range(N_TEMPLES):
                self.c.set_kinds[i][k] = sets[i][k]
        for k in range(HOME_CATS):
            self.c.home_size[k] = 0
        for i in range(N_HOME):
            self.c.home_size[self.c.home_cat[i]] += 1
        self.c.home_base[0] = 0
        self.c.home_base[1] = self.c.home_size[0]
        for i in range(HOME_CELLS):
            self.c.night_type[i] = -1
        for i, t in zip(components.night_cells, components.night_types):
            self.c.night_type[i] = t
        q = 0
        for k in range(N_SIDES):
            self.c.bal_size[k] = 0
            self.c.side_cells[k] = components.region_masks[k]
        for i in range(N_BAL):
            pattern = components.balance_patterns[i]
            self.c.bal_min_comfort[i] = pattern.min_comfort
            self.c.bal_total_type[i] = pattern.comfort_type
            self.c.bal_region[i] = pattern.region
            self.c.bal_size[self.c.bal_side[i]] += 1
            self.c.bal_first[i] = q
            if q + len(pattern.placements) > MAX_PLACEMENTS:
                raise ValueError(f"balance patterns have more than {MAX_PLACEMENTS} placements in all")
            for cover, *needs in pattern.placements:
                self.c.place_cover[q] = cover
                for k in range(N_HOME_TYPES):
                    self.c.place_need[q][k] = needs[k]
                q += 1
        self.c.bal_first[N_BAL] = q
        self.c.bal_base[0] = 0
        for k in range(1, N_SIDES):
            self.c.bal_base[k] = self.c.bal_base[k - 1] + self.c.bal_size[k - 1]
        for i in range(N_SPIRITS):
            if components.spirit_effect[i] in (EFF_BALANCE, EFF_IMPROVE, EFF_RENEW_FOOD) and \
                    components.spirit_amount[i] != 1:
                raise ValueError(f"spirits[{i}].amount is {components.spirit_amount[i]}; the compiled engine gives "
                                 f"one action or counter for the effects balance, improve and renew_food")
        setup, actions, scoring = components.setup, components.actions, components.scoring
        self.c.start_hp = setup["start_hp"]
        self.c.start_coins = setup["start_coins"]
        self.c.start_incense = setup["start_incense"]
        self.c.fund_coins = actions["fund_coins"]
        self.c.improve_coins = actions["improve_coins"]
        self.c.balance_hp = actions["balance_hp"]
        self.c.other_temple_coins = actions["other_temple_coins"]
        self.c.spirit_type_hp = scoring["spirit_type_hp"]
        self.c.harmony_hp = scoring["harmony_hp"]
        self.c.unscored_divisor = scoring["unscored_balance_divisor"]
        self.c.uncovered_hp = scoring["uncovered_space_hp"]
        self.c.hunger_hp = scoring["hunger_hp"]
        self.c.food_per_home_tile = scoring["food_per_home_tile"]
        self.action_names = tuple(_action_names(components))
        self.action_ids = {name: a for a, name in enumerate(self.action_names)}
        self.counter_names = tuple(_counter_names(components))


def _counter_names(components):
    """Names of the behaviour counters, in their order in Player (docs/bamboo_state.md)."""
    names = ["turns"] + [f"visits_{t + 1}" for t in range(N_TEMPLES)] + ["sticks_paid", "sticks_free"]
    names += [f"actions_{x}" for x in ACTIONS[:N_ACTIONS]] + ["wild_actions", "declined"]
    names += [f"gifts_{x}" for x in ACTIONS[:N_ACTIONS]]
    names += ["balance_obtained", "improve_coins", "food_taken", "food_wasted", "overflow"]
    names += [f"used_{name}" for name in components.spirit_names] + [f"woken_{name}" for name in components.spirit_names]
    assert len(names) == N_COUNTERS
    return names


def _action_names(components):
    """The fixed name of every action id (docs/bamboo_actions.md)."""
    names = [f"shoot {colour} {icon}" for colour in COLOURS for icon in ACTIONS]
    names += [f"gift {x}" for x in ACTIONS[:N_ACTIONS]]
    names += [f"visit temple {t + 1}" for t in range(N_TEMPLES)]
    names += [f"incense in temple {t + 1}" for t in range(N_TEMPLES)]
    names += [f"stalk {s + 1}" for s in range(N_STALKS)]
    names += [f"activate {x}" for x in ACTIONS[:N_ACTIONS]]
    names += [f"activate wildcard as {x}" for x in ACTIONS[:N_ACTIONS]]
    names += [f"use {name}" for name in components.spirit_names]
    names.append("balance 1 HP")
    names += [f"obtain {side} balance {i + 1}" for side in SIDES for i in range(BAL_MARKET)]
    names += [f"score {side} balance {j + 1}" for side in SIDES for j in range(BAL_SLOTS)]
    names.append("improve 1 coin")
    names += [f"buy home {cat} {i + 1}" for cat in HOME_CATEGORIES for i in range(HOME_MARKET)]
    names += [f"home space r{r + 1}c{col + 1}" for r in range(HOME_ROWS) for col in range(HOME_COLS)]
    names += [f"take {food}" for food in components.food_names]
    names.append("renew food")
    names += [f"keep shoot in area {t + 1}" for t in range(N_TEMPLES)]
    names += [f"wake {name}" for name in components.spirit_names]
    names += [f"pay {food}" for food in components.food_names]
    names.append("done")
    assert len(names) == NUM_ACTIONS
    return names

# =============================================================================
# The game in progress
# =============================================================================
cdef bint _advanced(mode) except -1:
    """Whether `mode` (one of MODES) is the advanced game: the nighttime side of the boards (B36)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode == "advanced"


cdef str NEW_GAME_CALL = "borabora_sim.games.bamboo.new_game()"
cdef str STATE_NAME = "bamboo.State"


cdef class State(EngineState):
    """A Bamboo game in progress. Create one with `borabora_sim.games.bamboo.new_game()`.

    The state always waits on a real decision (two or more legal actions) or is terminal:
    decisions with a single legal action are taken automatically (ruling B38).
    """

    @classmethod
    def _new(cls, Rules rules not None, players, seed, mode):
        return _started_state(rules, players, seed, _advanced(mode))

    @property
    def start_player(self):
        return self.s.start_seat

    def comfort(self):
        """Total comfort of each seat's home tiles (the tie-break, VI)."""
        return [total_comfort(&self.rules.c, &self.s.pl[i]) for i in range(self.s.n_players)]

    def winners(self):
        """The winning seats as a tuple, more than one when the victory is shared (B35); () until the end."""
        if self.s.phase != PH_END:
            return ()
        return tuple(seat for seat in range(self.s.n_players) if rank_of(&self.rules.c, &self.s, seat) == 1)

    def returns(self):
        """1 to a sole winner, 1/k to each of k winners sharing the victory, 0 to the others (B35)."""
        cdef double out[MAX_PLAYERS]
        returns(&self.rules.c, &self.s, out)
        return [out[i] for i in range(self.s.n_players)]

    def counters(self):
        """Behaviour counters per seat: {name: count} for each name in rules.counter_names, and start_position
        (the seat's place in the first turn order, 0 = first)."""
        cdef int16_t out[N_COUNTERS]
        names = self.rules.counter_names
        rows = []
        for seat in range(self.s.n_players):
            fill_counters(&self.s, seat, out)
            rows.append(dict(zip(names, out), start_position=start_position(&self.s, seat)))
        return rows

    @classmethod
    def from_dict(cls, data, Rules rules not None):
        """A state from to_dict() output, played with the component tables `rules` (rules_for(components)); every
        field's type and range and every law of a loaded state is checked, and the first that fails is named in a
        StateFormatError."""
        return _loaded_state(rules, data)


include "game_module.pxi"


cdef hide_from(EngineState state, dict d, viewer):
    """What State.observation leaves out of the saved form `d`, the same for every `viewer` (nobody holds a hidden
    hand, B37): the unseen part of each stack, the food pile's order (its counts by kind stay) and the spirits
    under the face-up ones."""
    cdef int k, i, size, base
    for k in range(HOME_CATS):
        base, size = state.rules.c.home_base[k], state.rules.c.home_size[k]
        for i in range(state.s.home_unseen[k]):
            d["home_pile"][base + (state.s.home_top[k] + i) % size] = NO_TILE
    for k in range(N_SIDES):
        base, size = state.rules.c.bal_base[k], state.rules.c.bal_size[k]
        for i in range(state.s.bal_unseen[k]):
            d["bal_pile"][base + (state.s.bal_top[k] + i) % size] = NO_TILE
    d["food_pile"] = [d["food_pile"][:state.s.food_left].count(k) for k in range(N_FOOD_KINDS)]
    for k in range(N_TEMPLES):
        for i in range(state.s.spirit_left[k] - 1):
            d["spirit_stack"][k][i] = NO_TILE


def new_state(Rules rules not None, players, seed, mode="normal"):
    return State._new(rules, players, seed, mode)


def random_game_actions(Rules rules not None, players, game_seed, mode="normal"):
    """The actions of the compiled random game `game_seed` (as played by random_playouts)."""
    return _random_game_actions(rules, players, game_seed, _advanced(mode))


def random_playouts(Rules rules not None, games, players, seed, mode="normal", first_game=0):
    """Plays `games` uniformly random games in compiled code (no Python per step).

    Game i starts from seed derive_seed(seed, first_game + i). Returns a dict of numpy arrays: `scores` (games x
    players), `breakdown` (games x players x len(SOURCES)), `counters` (games x players x len(rules.counter_names)),
    `ranks`, `start_position` (games x players), `winner` (the lowest seat ranked first), `decisions` (real
    decisions per game) and `moves` (all actions, forced ones included).
    """
    return _random_playouts(rules, games, players, seed, first_game, _advanced(mode))
