# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Bamboo engine: the C kernels and their thin Python wrapper `State`."""

cimport cython
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from bamboo_state cimport *
from game_api cimport GameVTable
from seeds cimport mix_seed, pick_uniform

include "bamboo_core.pxi"
include "bamboo_flow.pxi"
include "bamboo_check.pxi"
include "bamboo_eval.pxi"

import operator

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.records import record_from_saved, record_to_python

include "bamboo_layout.pxi"

NUM_DISTINCT_ACTIONS = NUM_ACTIONS
STATE_BYTES = sizeof(GameState)
FORMAT = "borabora_sim.bamboo.state"
FORMAT_VERSION = 2                          # 2: the balance tiles each player scored (pl.scored)
SEED_FIELDS = ("rng", "event_rng")          # 64-bit generator states, saved as hex strings
SEED_MAX = 2**64 - 1
NO_TILE_ID = NO_TILE

PHASES = ("setup", "spring", "summer", "wake", "feed", "end")
DECISIONS = ("draft", "gift", "visit", "offer", "stalk", "shoot", "activate", "balance", "improve",
             "home_space", "cook", "renew_food", "keep_shoot", "wake", "feed")
SOURCES = ("start", "balance_hp", "balance_scored", "home_tiles", "hunger", "spirit_types", "harmony",
           "half_balance", "night_spaces")
MODES = ("normal", "advanced")
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

# =============================================================================
# Game-agnostic C interface (game_api.pxd)
# =============================================================================
cdef int vt_legal(const void* r, const void* s, int* out) noexcept nogil:
    return legal_actions(<const BComp*>r, <const GameState*>s, out)

cdef int vt_step(const void* r, void* s, int a, int* out) noexcept nogil:
    return step(<const BComp*>r, <GameState*>s, a, out)

cdef int vt_current(const void* s) noexcept nogil:
    return current_player(<const GameState*>s)

cdef int vt_num_players(const void* s) noexcept nogil:
    return (<const GameState*>s).n_players

cdef void vt_returns(const void* r, const void* s, double* out) noexcept nogil:
    returns(<const BComp*>r, <const GameState*>s, out)

cdef void vt_scores(const void* r, const void* s, double* out) noexcept nogil:
    cdef const GameState* g = <const GameState*>s
    cdef int i
    for i in range(g.n_players):
        out[i] = total_hp(&g.pl[i])

cdef void vt_determinize(const void* r, void* s, int player, uint64_t seed) noexcept nogil:
    determinize(<const BComp*>r, <GameState*>s, seed)

cdef void vt_evaluate(const void* r, const void* s, const double* w, double* out) noexcept nogil:
    evaluate(<const BComp*>r, <const GameState*>s, w, out)

cdef int vt_policy(const void* r, const void* s, const double* w, int thorough, uint64_t* rng) noexcept nogil:
    return greedy_action(<const BComp*>r, <const GameState*>s, w, thorough, rng)

cdef inline int start_position(const GameState* g, int seat) noexcept nogil:
    """The seat's place in the first round's turn order: the marker passes once in each Winter but the last."""
    cdef int P = g.n_players
    return (seat - (g.start_seat - (g.round - 1)) % P + 2 * P) % P

cdef inline int first_winner(const BComp* c, const GameState* g) noexcept nogil:
    """The lowest seat among those ranked first (the protocol's winner), -1 before the end."""
    cdef int seat
    if g.phase != PH_END:
        return -1
    for seat in range(g.n_players):
        if rank_of(c, g, seat) == 1:
            return seat
    return -1

cdef inline void fill_counters(const Player* p, int16_t* out) noexcept nogil:
    cdef const uint8_t* first = &p.turns
    cdef int i
    for i in range(N_COUNTERS):
        out[i] = first[i]

cdef GameVTable BAMBOO_VTABLE
BAMBOO_VTABLE.state_size = sizeof(GameState)
BAMBOO_VTABLE.num_actions = NUM_ACTIONS
BAMBOO_VTABLE.max_players = MAX_PLAYERS
BAMBOO_VTABLE.legal_actions = vt_legal
BAMBOO_VTABLE.step = vt_step
BAMBOO_VTABLE.current_player = vt_current
BAMBOO_VTABLE.num_players = vt_num_players
BAMBOO_VTABLE.returns = vt_returns
BAMBOO_VTABLE.scores = vt_scores
BAMBOO_VTABLE.determinize = vt_determinize
BAMBOO_VTABLE.num_weights = N_WEIGHTS
BAMBOO_VTABLE.evaluate = vt_evaluate
BAMBOO_VTABLE.policy = vt_policy
VTABLE = PyCapsule_New(&BAMBOO_VTABLE, b"borabora_sim.GameVTable", NULL)

# =============================================================================
# Component tables
# =============================================================================
cdef class Rules:
    """Component tables in C form, shared read-only by every state of a game."""
    cdef BComp c
    cdef readonly object components
    cdef readonly str fingerprint
    cdef readonly tuple action_names
    cdef readonly dict action_ids
    cdef readonly tuple counter_names

    def __cinit__(self, components, str fingerprint not None):
        from borabora_sim.games.bamboo.components import BambooComponents
        cdef int i, k, q
        if not isinstance(components, BambooComponents):
            raise ArgumentTypeError(f"Rules need validated BambooComponents (borabora_sim.games.bamboo.load_components() "
                                    f"builds them), got {type(components).__name__}")
        for table, field, want in _BOARD_NUMBERS:
            got = getattr(components, table)[field]
            if got != want:
                raise ValueError(f"{table}.{field} is {got}; the compiled engine is built for {want}")
        if (components.home_rows, components.home_cols) != (HOME_ROWS, HOME_COLS):
            raise ValueError(f"home is {components.home_rows} x {components.home_cols}; the compiled engine is "
                             f"built for {HOME_ROWS} x {HOME_COLS}")
        self.components = components
        self.fingerprint = fingerprint
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
            self.c.home_type[i] = components.home_type[i]
            self.c.home_comfort[i] = components.home_comfort[i]
            self.c.home_cost[i] = components.home_cost[i]
            self.c.home_hp[i] = components.home_hp[i]
            self.c.home_cat[i] = components.home_category[i]
            self.c.home_three_plus[i] = bool(components.home_three_plus[i])
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
            self.c.bal_side[i] = components.balance_side[i]
            self.c.bal_hp[i] = components.balance_hp[i]
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
            self.c.spirit_effect[i] = components.spirit_effect[i]
            self.c.spirit_amount[i] = components.spirit_amount[i]
            self.c.spirit_cost[i] = components.spirit_wake_cost[i]
            self.c.spirit_copies[i] = components.spirit_copies[i]
        if len(components.food_count) != N_FOOD_KINDS:
            raise ValueError(f"{len(components.food_count)} food kinds; the compiled engine is built for "
                             f"{N_FOOD_KINDS}")
        for i in range(N_FOOD_KINDS):
            self.c.food_units[i] = components.food_value[i]
            self.c.food_count[i] = components.food_count[i]
        for i in range(N_TEMPLES):
            self.c.temple_tile_sticks[i] = components.temple_tile_incense[i]
        for i in range(N_GIFTS):
            self.c.gift_action[i] = components.gift_action[i]
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

    def capsule(self):
        return PyCapsule_New(&self.c, b"borabora_sim.bamboo.rules", NULL)


def _counter_names(components):
    """Names of the behaviour counters, in their order in Player (docs/bamboo_state.md)."""
    from borabora_sim.games.bamboo.components import ACTIONS
    names = ["turns"] + [f"visits_{t + 1}" for t in range(N_TEMPLES)] + ["sticks_paid", "sticks_free"]
    names += [f"actions_{x}" for x in ACTIONS[:N_ACTIONS]] + ["wild_actions", "declined"]
    names += [f"gifts_{x}" for x in ACTIONS[:N_ACTIONS]]
    names += ["balance_obtained", "improve_coins", "food_taken", "food_wasted", "overflow"]
    names += [f"used_{name}" for name in components.spirit_names] + [f"woken_{name}" for name in components.spirit_names]
    assert len(names) == N_COUNTERS
    return names


def _action_names(components):
    """The fixed name of every action id (docs/bamboo_actions.md)."""
    from borabora_sim.games.bamboo.components import ACTIONS, COLOURS, HOME_CATEGORIES, SIDES
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
# Python wrapper
# =============================================================================
@cython.freelist(8)
@cython.no_gc
cdef class State:
    """A Bamboo game in progress. Create one with `borabora_sim.games.bamboo.new_game()`.

    The state always waits on a real decision (two or more legal actions) or is terminal:
    decisions with a single legal action are taken automatically (ruling B38).
    """
    # clone() is the hot path of searches driven from Python: a freed State is kept for reuse, and states stay
    # out of the cycle collector, as they cannot be part of a cycle (their one reference is to Rules); built
    # without arguments, so that a clone parses none
    cdef GameState s
    cdef Rules rules

    def __cinit__(self):
        if not _building:
            raise ArgumentTypeError("a State cannot be built directly: use borabora_sim.games.bamboo.new_game() "
                                    "or State.from_dict(saved)")

    @classmethod
    def _new(cls, Rules rules not None, players, seed, mode):
        cdef State st = _blank_state(rules)
        cdef int buf[NUM_ACTIONS]
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        start(&rules.c, &st.s, check_players(players), <uint64_t>check_int(seed, "seed", 0, SEED_MAX),
              mode == "advanced", buf)
        return st

    # ---- read-only views --------------------------------------------------------
    @property
    def rules(self):
        return self.rules

    @property
    def components(self):
        return self.rules.components

    def search_handles(self):
        """(vtable, rules, state, owner) for compiled search (borabora_sim._search): the capsules point
        into `owner`, this state, which the tuple keeps alive."""
        return VTABLE, self.rules.capsule(), PyCapsule_New(&self.s, b"borabora_sim.bamboo.state", NULL), self

    @property
    def num_players(self):
        return self.s.n_players

    @property
    def current_player(self):
        """Seat to move (0..players-1), or -1 when the game is over."""
        return current_player(&self.s)

    @property
    def round(self):
        return self.s.round

    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def decision(self):
        """Kind of the pending decision (see docs/bamboo_actions.md), or None when terminal."""
        return DECISIONS[self.s.stack[self.s.sp - 1].kind] if self.s.sp else None

    @property
    def start_player(self):
        return self.s.start_seat

    @property
    def move_count(self):
        return self.s.n_moves

    def is_terminal(self):
        return self.s.phase == PH_END

    def legal_actions(self):
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf)
        return [buf[i] for i in range(n)]

    def legal_action_mask(self):
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf), i
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        for i in range(n):
            mask[buf[i]] = True
        return mask

    def apply(self, action):
        """Applies a legal action; an illegal one raises IllegalActionError and changes nothing."""
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf), i, a
        legal = [buf[i] for i in range(n)]
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise IllegalActionError(f"action must be an int, got {action!r}; " + self._legal_text(legal))
        try:
            action = operator.index(action)
        except TypeError:                   # has __index__ but is not one integer (a numpy array of one element)
            raise ArgumentTypeError(f"an action is one integer, got {type(action).__name__} {action!r}; "
                                    + self._legal_text(legal)) from None
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action} is outside [0, {NUM_ACTIONS}); " + self._legal_text(legal))
        a = action
        for i in range(n):
            if buf[i] == a:
                step(&self.rules.c, &self.s, a, buf)
                return
        raise IllegalActionError(self._illegal_message(a, legal))

    def _legal_text(self, legal):
        if not legal:
            return "the game is over: no action is legal"
        return "legal: " + ", ".join(f"{a} ({self.rules.action_names[a]})" for a in legal)

    def _illegal_message(self, action, legal):
        if self.is_terminal():
            return f"the game is over: no action is legal (got {action})"
        return (f"action {action} ({self.rules.action_names[action]}) is not legal for player "
                f"{self.current_player} at decision '{self.decision}' in round {self.round}, phase {self.phase}; "
                + self._legal_text(legal))

    def clone(self):
        cdef State st = _blank_state(self.rules)
        st.s = self.s
        return st

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __reduce__(self):
        components = self.rules.components
        data = None if components.source_path == "builtin" else components.to_json_dict()
        return (type(self).from_dict, (self.to_dict(), data))

    # ---- scores -----------------------------------------------------------------
    def scores(self):
        """Happiness points of each seat now (final once terminal)."""
        return [total_hp(&self.s.pl[i]) for i in range(self.s.n_players)]

    def score_breakdown(self):
        """HP by source for each seat: a list (by seat) of {source: HP}; sums to scores()."""
        return [{SOURCES[k]: self.s.pl[i].hp[k] for k in range(N_SOURCES)} for i in range(self.s.n_players)]

    def comfort(self):
        """Total comfort of each seat's home tiles (the tie-break, VI)."""
        return [total_comfort(&self.rules.c, &self.s.pl[i]) for i in range(self.s.n_players)]

    def winner(self):
        """The winning seat, None until the end; when the victory is shared (B35), the lowest of the seats
        sharing it (winners() names them all; ranks() gives each rank 1, returns() splits the win)."""
        seat = first_winner(&self.rules.c, &self.s)
        return None if seat < 0 else seat

    def winners(self):
        """The winning seats as a tuple, more than one when the victory is shared (B35); () until the end."""
        if self.s.phase != PH_END:
            return ()
        return tuple(seat for seat in range(self.s.n_players) if rank_of(&self.rules.c, &self.s, seat) == 1)

    def ranks(self):
        """1-based rank of each seat by HP, then comfort; players still tied share a rank."""
        return [rank_of(&self.rules.c, &self.s, seat) for seat in range(self.s.n_players)]

    def counters(self):
        """Behaviour counters per seat: {name: count} for each name in rules.counter_names, and start_position
        (the seat's place in the first turn order, 0 = first)."""
        cdef int16_t out[N_COUNTERS]
        rows = []
        for seat in range(self.s.n_players):
            fill_counters(&self.s.pl[seat], out)
            row = {self.rules.counter_names[k]: out[k] for k in range(N_COUNTERS)}
            row["start_position"] = start_position(&self.s, seat)
            rows.append(row)
        return rows

    def returns(self):
        """1 to a sole winner, 1/k to each of k winners sharing the victory, 0 to the others (B35)."""
        cdef double out[MAX_PLAYERS]
        returns(&self.rules.c, &self.s, out)
        return [out[i] for i in range(self.s.n_players)]

    # ---- actions by name ----------------------------------------------------------
    def action_to_string(self, action):
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise IllegalActionError(f"action must be an int in [0, {NUM_ACTIONS}), got {action!r}")
        try:
            action = operator.index(action)
        except TypeError:
            raise ArgumentTypeError(f"an action is one integer in [0, {NUM_ACTIONS}), got {type(action).__name__} "
                                    f"{action!r}") from None
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action must be in [0, {NUM_ACTIONS}), got {action}")
        return self.rules.action_names[action]

    def action_from_string(self, text):
        if not isinstance(text, str):
            raise ArgumentTypeError(f"an action name must be a str, got {type(text).__name__}")
        try:
            return self.rules.action_ids[text.strip()]
        except KeyError:
            legal = ", ".join(repr(self.rules.action_names[a]) for a in self.legal_actions())
            raise IllegalActionError(f"unknown action name {text!r}; legal now: {legal}") from None

    # ---- hidden information -------------------------------------------------------
    def determinize(self, player, seed):
        """A copy in which everything hidden is resampled consistently with what is in view (the same for every
        seat: nobody holds a hidden hand, B37), and future chance is seeded from `seed`."""
        check_int(player, "player", 0, self.s.n_players - 1)
        cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
        cdef State st = self.clone()
        determinize(&self.rules.c, &st.s, rng)
        return st

    def observation(self, player):
        """What `player` can see (JSON-safe): the state without the unseen part of each stack, the food pile's
        order (its counts by kind stay), the spirits under the face-up ones and the chance seeds (B37). Nobody
        holds a hidden hand, so every seat sees the same; `player` None gives that view with no seat named."""
        if player is not None:
            player = check_int(player, "player", 0, self.s.n_players - 1)
        cdef int k, i, size, base
        d = self.to_dict()["state"]
        for name in SEED_FIELDS:
            del d[name]
        for k in range(HOME_CATS):
            base, size = self.rules.c.home_base[k], self.rules.c.home_size[k]
            for i in range(self.s.home_unseen[k]):
                d["home_pile"][base + (self.s.home_top[k] + i) % size] = NO_TILE
        for k in range(N_SIDES):
            base, size = self.rules.c.bal_base[k], self.rules.c.bal_size[k]
            for i in range(self.s.bal_unseen[k]):
                d["bal_pile"][base + (self.s.bal_top[k] + i) % size] = NO_TILE
        d["food_pile"] = [d["food_pile"][:self.s.food_left].count(k) for k in range(N_FOOD_KINDS)]
        for k in range(N_TEMPLES):
            for i in range(self.s.spirit_left[k] - 1):
                d["spirit_stack"][k][i] = NO_TILE
        d["pl"] = d["pl"][:self.s.n_players]
        d["stack"] = d["stack"][:self.s.sp]
        d["viewer"] = player
        return d

    def to_svg(self, viewer=None):
        """The picture of this state as seat `viewer` sees it (None: the public view), as SVG text
        (borabora_sim.viewer.to_svg)."""
        from borabora_sim.viewer import to_svg
        return to_svg(self, viewer)

    def _repr_svg_(self):
        """Jupyter shows a state as its public picture."""
        return self.to_svg()

    # ---- serialisation ------------------------------------------------------------
    def to_dict(self):
        """JSON-safe, versioned snapshot (docs/bamboo_state.md)."""
        raw = (<const char*>&self.s)[:sizeof(GameState)]
        d = record_to_python(np.frombuffer(raw, dtype=GAME_DTYPE)[0], GAME_DTYPE)
        for name in SEED_FIELDS:
            d[name] = format(d[name], "016x")
        return {"format": FORMAT, "version": FORMAT_VERSION, "components": self.rules.fingerprint, "state": d}

    @classmethod
    def from_dict(cls, data, components=None):
        """A state from to_dict() output; every field's type and range and every law of a loaded state is
        checked, and the first that fails is named in a StateFormatError."""
        from borabora_sim.games.bamboo.game import rules_for
        cdef Rules rules = rules_for(components)
        record = record_from_saved(data, FORMAT, FORMAT_VERSION, rules.fingerprint, GAME_DTYPE, SEED_FIELDS)
        cdef State st = _blank_state(rules)
        cdef const unsigned char[:] raw = record.view(np.uint8)
        memcpy(&st.s, &raw[0], sizeof(GameState))
        code = check_state(&rules.c, &st.s, True)
        if code:
            raise StateFormatError(f"inconsistent state: {INVARIANTS[code - 1]}")
        cdef int buf[NUM_ACTIONS]
        if st.s.phase != PH_END and legal_actions(&rules.c, &st.s, buf) == 0:
            raise StateFormatError(f"inconsistent state: decision '{st.decision}' has no legal action")
        return st

    def check_invariants(self):
        """None if every law of docs/bamboo_state.md holds, else the broken law."""
        code = check_state(&self.rules.c, &self.s, False)
        return INVARIANTS[code - 1] if code else None

    def __repr__(self):
        if self.is_terminal():
            return f"<bamboo.State players={self.s.n_players} over scores={self.scores()}>"
        return (f"<bamboo.State players={self.s.n_players} round={self.s.round} phase={self.phase} "
                f"player={self.current_player} decision={self.decision}>")


include "state_builder.pxi"


def derive_seed(seed, index):
    """The seed of game `index` of a run with master `seed` (the same in every process)."""
    return mix_seed(<uint64_t>check_int(seed, "seed", 0, SEED_MAX), <uint64_t>check_int(index, "index", 0, SEED_MAX))


def random_game_actions(Rules rules not None, players, game_seed, mode="normal"):
    """The actions of the compiled random game `game_seed` (as played by random_playouts)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef uint64_t rng = <uint64_t>check_int(game_seed, "game_seed", 0, SEED_MAX)
    cdef int n = start(&rules.c, &g, check_players(players), rng, mode == "advanced", buf), a
    actions = []
    while n > 0:
        a = buf[pick_uniform(&rng, n)]
        actions.append(a)
        n = step(&rules.c, &g, a, buf)
    return actions


def random_playouts(Rules rules not None, games, players, seed, mode="normal", first_game=0):
    """Plays `games` uniformly random games in compiled code (no Python per step).

    Game i starts from seed derive_seed(seed, first_game + i). Returns a dict of numpy arrays: `scores` (games x
    players), `breakdown` (games x players x len(SOURCES)), `counters` (games x players x len(rules.counter_names)),
    `ranks`, `start_position` (games x players), `winner` (the lowest seat ranked first), `decisions` (real
    decisions per game) and `moves` (all actions, forced ones included).
    """
    games = check_int(games, "games", 0, 2**31 - 1)
    players = check_players(players)
    first_game = check_int(first_game, "first_game", 0, SEED_MAX - games)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    scores = np.zeros((games, players), dtype=np.int16)
    breakdown = np.zeros((games, players, N_SOURCES), dtype=np.int16)
    counters = np.zeros((games, players, N_COUNTERS), dtype=np.int16)
    ranks = np.zeros((games, players), dtype=np.int8)
    starts = np.zeros((games, players), dtype=np.int8)
    winners = np.zeros(games, dtype=np.int8)
    decisions = np.zeros(games, dtype=np.int32)
    moves = np.zeros(games, dtype=np.int32)
    cdef int8_t[:, :] sp = starts
    cdef int8_t[:] wn = winners
    cdef int16_t[:, :] sc = scores
    cdef int16_t[:, :, :] bd = breakdown
    cdef int16_t[:, :, :] ct = counters
    cdef int8_t[:, :] rk = ranks
    cdef int[:] dc = decisions
    cdef int[:] mv = moves
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef uint64_t base = <uint64_t>check_int(seed, "seed", 0, SEED_MAX), rng, first = first_game
    cdef int i, k, n, src, d, n_games = games, n_players = players
    cdef bint advanced = mode == "advanced"
    with nogil:
        for i in range(n_games):
            rng = mix_seed(base, first + i)
            n = start(&rules.c, &g, n_players, rng, advanced, buf)
            d = 0
            while n > 0:
                n = step(&rules.c, &g, buf[pick_uniform(&rng, n)], buf)
                d += 1
            dc[i] = d
            mv[i] = g.n_moves
            wn[i] = first_winner(&rules.c, &g)
            for k in range(n_players):
                sc[i, k] = total_hp(&g.pl[k])
                for src in range(N_SOURCES):
                    bd[i, k, src] = g.pl[k].hp[src]
                fill_counters(&g.pl[k], &ct[i, k, 0])
                rk[i, k] = rank_of(&rules.c, &g, k)
                sp[i, k] = start_position(&g, k)
    return {"scores": scores, "breakdown": breakdown, "counters": counters, "ranks": ranks, "start_position": starts,
            "winner": winners, "decisions": decisions, "moves": moves}


def new_state(Rules rules not None, players, seed, mode="normal"):
    return State._new(rules, players, seed, mode)


# =============================================================================
# Heuristic (bamboo_eval.pxi)
# =============================================================================
cdef const double* _weights_pointer(const double[::1] weights) except NULL:
    if weights.shape[0] != N_WEIGHTS:
        raise ValueError(f"weights must have {N_WEIGHTS} values ({', '.join(WEIGHT_NAMES)}), got {weights.shape[0]}")
    return &weights[0]


def evaluate_state(State state not None, const double[::1] weights not None):
    """Heuristic value of `state` for each seat (HP units) under `weights` (see WEIGHT_NAMES)."""
    cdef const double* w = _weights_pointer(weights)
    cdef double out[MAX_PLAYERS]
    evaluate(&state.rules.c, &state.s, w, out)
    return [out[i] for i in range(state.s.n_players)]


def heuristic_action(State state not None, const double[::1] weights not None, seed, bint thorough=True):
    """The heuristic policy's action for the player to move, judged on a determinization (so the order of the
    stacks and the hidden spirits cannot influence it)."""
    if state.s.phase == PH_END:
        raise IllegalActionError("the game is over: there is no action to choose")
    cdef const double* w = _weights_pointer(weights)
    cdef GameState sample = state.s
    cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
    cdef int action
    with nogil:
        determinize(&state.rules.c, &sample, rng)
        action = greedy_action(&state.rules.c, &sample, w, thorough, &rng)
    return action


def heuristic_option_values(State state not None, const double[::1] weights not None, seed, bint thorough=True):
    """[(action, value)] for every legal action: the value heuristic_action with the same seed gave it (the
    mover's evaluation after the action, on the same determinization), in legal-action order."""
    if state.s.phase == PH_END:
        raise IllegalActionError("the game is over: there are no options to judge")
    cdef const double* w = _weights_pointer(weights)
    cdef GameState sample = state.s
    cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
    cdef int actions[NUM_ACTIONS]
    cdef double values[NUM_ACTIONS]
    cdef double tie_breaks[NUM_ACTIONS]
    cdef int n, i
    with nogil:
        determinize(&state.rules.c, &sample, rng)
        n = judge_options(&state.rules.c, &sample, w, thorough, &rng, actions, values, tie_breaks)
    return [(actions[i], values[i]) for i in range(n)]
