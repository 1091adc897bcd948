# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Bora Bora engine: the C kernels and their thin Python wrapper `State`."""

cimport cython
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint64_t
from libc.string cimport memcpy

from state cimport *
from game_api cimport GameVTable
from seeds cimport mix_seed, pick_uniform

include "engine_core.pxi"
include "engine_flow.pxi"
include "engine_check.pxi"
include "engine_eval.pxi"
include "engine_features.pxi"

import operator

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.records import record_from_saved, record_to_python

include "engine_layout.pxi"

COMPILED = True
NUM_DISTINCT_ACTIONS = NUM_ACTIONS
STATE_BYTES = sizeof(GameState)
FORMAT_VERSION = 1
SEED_FIELDS = ("rng", "dice_rng")          # 64-bit generator states, saved as hex strings
SEED_MAX = 2**64 - 1

DIE_ACTIONS = ("fishing", "helper", "temple", "build", "man", "woman", "land_path", "water_path")
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

# =============================================================================
# Game-agnostic C interface (game_api.pxd)
# =============================================================================
cdef int vt_legal(const void* r, const void* s, int* out) noexcept nogil:
    return legal_actions(<const Comp*>r, <const GameState*>s, out)

cdef int vt_step(const void* r, void* s, int a, int* out) noexcept nogil:
    return step(<const Comp*>r, <GameState*>s, a, out)

cdef int vt_current(const void* s) noexcept nogil:
    return current_player(<const GameState*>s)

cdef int vt_num_players(const void* s) noexcept nogil:
    return (<const GameState*>s).n_players

cdef void vt_returns(const void* r, const void* s, double* out) noexcept nogil:
    cdef const GameState* g = <const GameState*>s
    cdef int i, w = winner(g)
    for i in range(g.n_players):
        out[i] = 1.0 if i == w else 0.0

cdef void vt_scores(const void* r, const void* s, double* out) noexcept nogil:
    cdef const GameState* g = <const GameState*>s
    cdef int i
    for i in range(g.n_players):
        out[i] = total_vp(&g.pl[i])

cdef void vt_determinize(const void* r, void* s, int player, uint64_t seed) noexcept nogil:
    determinize(<const Comp*>r, <GameState*>s, player, seed)

cdef void vt_evaluate(const void* r, const void* s, const double* w, double* out) noexcept nogil:
    evaluate(<const Comp*>r, <const GameState*>s, w, out)

cdef int vt_policy(const void* r, const void* s, const double* w, int thorough, uint64_t* rng) noexcept nogil:
    return greedy_action(<const Comp*>r, <const GameState*>s, w, thorough, rng)

cdef void vt_features(const void* r, const void* s, int seat, double* out) noexcept nogil:
    features(<const Comp*>r, <const GameState*>s, seat, out)

COUNTER_NAMES = tuple([f"dice_{a}" for a in DIE_ACTIONS] + [f"god_{e}" for e in GOD_EFFECTS] + [
    "god_tiles_played", "priests", "buildings", "tasks_done", "jewelry", "huts_on_map", "persons",
    "start_position"])

cdef enum:
    N_COUNTERS = N_DIE_ACTIONS + N_GOD_EFFECTS + 8

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
    for k in range(g.n_players):
        if g.first_order[k] == seat:
            out[n + 7] = k

cdef GameVTable BORA_BORA_VTABLE
BORA_BORA_VTABLE.state_size = sizeof(GameState)
BORA_BORA_VTABLE.num_actions = NUM_ACTIONS
BORA_BORA_VTABLE.max_players = MAX_PLAYERS
BORA_BORA_VTABLE.legal_actions = vt_legal
BORA_BORA_VTABLE.step = vt_step
BORA_BORA_VTABLE.current_player = vt_current
BORA_BORA_VTABLE.num_players = vt_num_players
BORA_BORA_VTABLE.returns = vt_returns
BORA_BORA_VTABLE.scores = vt_scores
BORA_BORA_VTABLE.determinize = vt_determinize
BORA_BORA_VTABLE.num_weights = N_WEIGHTS
BORA_BORA_VTABLE.evaluate = vt_evaluate
BORA_BORA_VTABLE.policy = vt_policy
BORA_BORA_VTABLE.num_features = N_FEATURES
BORA_BORA_VTABLE.features = vt_features
VTABLE = PyCapsule_New(&BORA_BORA_VTABLE, b"borabora_sim.GameVTable", NULL)

def die_placement(action):
    """(die value, die action name) of a "place V on ACTION" action id, or None for any other action."""
    action = check_int(action, "action", 0, NUM_ACTIONS - 1)
    if A_PLACE <= action < A_GOD:
        return action // N_DIE_ACTIONS + 1, DIE_ACTIONS[action % N_DIE_ACTIONS]
    return None


def derive_seed(seed, index):
    """The seed of game `index` of a run with master `seed` (the same in every process)."""
    return mix_seed(<uint64_t>check_int(seed, "seed", 0, SEED_MAX), <uint64_t>check_int(index, "index", 0, SEED_MAX))

cdef int random_rollout(const GameVTable* vt, const void* rules, void* state, int n_legal,
                        int* buf, uint64_t* rng) noexcept nogil:
    """Plays uniformly random legal actions to the end; returns the number of decisions."""
    cdef int decisions = 0
    while n_legal > 0:
        n_legal = vt.step(rules, state, buf[pick_uniform(rng, n_legal)], buf)
        decisions += 1
    return decisions


def random_game_actions(Rules rules not None, players, game_seed):
    """The actions of the compiled random game `game_seed` (as played by random_playouts)."""
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef uint64_t rng = <uint64_t>check_int(game_seed, "game_seed", 0, SEED_MAX)
    cdef int n = start(&rules.c, &g, check_players(players), rng, buf), a
    actions = []
    while n > 0:
        a = buf[pick_uniform(&rng, n)]
        actions.append(a)
        n = step(&rules.c, &g, a, buf)
    return actions

# =============================================================================
# Component tables
# =============================================================================
cdef class Rules:
    """Component tables in C form, shared read-only by every state of a game."""
    cdef Comp c
    cdef readonly object components
    cdef readonly str fingerprint
    cdef readonly tuple action_names
    cdef readonly dict action_ids

    def __cinit__(self, components, str fingerprint not None):
        from borabora_sim.games.bora_bora.components import Components
        cdef int i, j, t, s, r, q
        if not isinstance(components, Components):
            raise ArgumentTypeError(f"Rules need validated Components (borabora_sim.rules_for() builds them), "
                                    f"got {type(components).__name__}")
        self.components = components
        self.fingerprint = fingerprint
        for r in range(N_REGIONS):
            self.c.region_island[r] = components.region_island[r]
            self.c.region_terrain[r] = components.region_terrain[r]
            self.c.region_resource[r] = components.region_resource[r]
            self.c.fish_value[r] = components.fish_value[r]
            self.c.fish_type[r] = components.fish_type[r]
        paths = (components.land_path, components.water_path)
        for t in range(2):
            for s in range(7):
                for r in range(N_REGIONS):
                    self.c.reach[t][s][r] = 0
                    for q in range(N_REGIONS):
                        if 0 < paths[t][r, q] <= s:
                            self.c.reach[t][s][r] |= <uint16_t>(1 << q)
        for i in range(N_PERSON_TILES):
            self.c.person_type[i] = components.person_type[i]
            self.c.person_symbols[i] = components.person_symbols[i]
        for i in range(N_TASKS):
            self.c.task_crane[i] = bool(components.task_crane[i])
            for j in range(MAX_TASK_REQS):
                self.c.task_req_kind[i][j] = components.task_req_kind[i, j]
                self.c.task_req_count[i][j] = components.task_req_count[i, j]
                self.c.task_req_param[i][j] = components.task_req_param[i, j]
        for i in range(N_JEWELRY):
            self.c.jewelry_kind[i] = components.jewelry_kind[i]
            self.c.jewelry_cost[i] = components.jewelry_cost[i]
            self.c.jewelry_vp[i] = components.jewelry_vp[i]
        for i in range(STATUS_TOP + 1):
            self.c.status_vp[i] = components.status_vp[i]
        for i in range(TEMPLE_SPACES):
            self.c.temple_values[i] = components.temple_values[i]
        for i in range(CEREMONY_SPACES):
            self.c.ceremony_material[i] = components.ceremony_material[i]
        rows, cols = components.ceremony_rows, components.ceremony_cols
        pairs = [(y * cols + x, y * cols + x + 1) for y in range(rows) for x in range(cols - 1)]
        pairs += [(y * cols + x, (y + 1) * cols + x) for y in range(rows - 1) for x in range(cols)]
        self.c.n_pairs = len(pairs)
        for q, (a, b) in enumerate(pairs):
            self.c.pair_a[q] = a
            self.c.pair_b[q] = b
        for i in range(N_BUILDINGS):
            self.c.building_values[i] = components.building_values[i]
        for i in range(N_ROUNDS):
            self.c.building_vp[i] = components.building_vp_by_round[i]
            self.c.temple_vp[i] = components.temple_vp_by_round[i]
        for i in range(MAX_PLAYERS):
            self.c.start_vp[i] = components.start_vp[i]
        for i in range(N_HELPER_ITEMS):
            self.c.helper_cost[i] = components.helper_cost[i]
        self.c.fishing_vp = components.fishing_vp
        self.c.start_huts_12th = components.start_huts_on_12th_space
        self.c.regular_spaces = components.regular_person_spaces
        self.action_names = tuple(_action_names(components, pairs))
        self.action_ids = {name: a for a, name in enumerate(self.action_names)}

    def capsule(self):
        return PyCapsule_New(&self.c, b"borabora_sim.rules", NULL)


def _action_names(components, pairs):
    from borabora_sim.games.bora_bora.components import MATERIALS, PERSON_TYPES
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
# Python wrapper
# =============================================================================
@cython.freelist(8)
@cython.no_gc          # a state refers only to its Rules, which never refer back: no cycle to collect
cdef class State:
    """A Bora Bora game in progress. Create one with `borabora_sim.new_game()`.

    The state always waits on a real decision (two or more legal actions) or is terminal:
    decisions with a single legal action are taken automatically.
    """
    cdef GameState s
    cdef Rules rules

    def __cinit__(self):
        if not _building:
            raise ArgumentTypeError("a State cannot be built directly: use borabora_sim.new_game(players, seed) "
                                    "or State.from_dict(saved)")

    @staticmethod
    def _new(Rules rules not None, players, seed):
        cdef State st = _blank_state(rules)
        cdef int buf[NUM_ACTIONS]
        start(&rules.c, &st.s, check_players(players), <uint64_t>check_int(seed, "seed", 0, SEED_MAX), buf)
        return st

    # ---- read-only views --------------------------------------------------------
    @property
    def rules(self):
        return self.rules

    def search_handles(self):
        """(vtable, rules, state, owner) for compiled search (borabora_sim._search): the capsules point
        into `owner`, this state, which the tuple keeps alive."""
        return VTABLE, self.rules.capsule(), PyCapsule_New(&self.s, b"borabora_sim.state", NULL), self

    @property
    def components(self):
        return self.rules.components

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
        """Kind of the pending sub-decision (see docs/actions.md), or None when terminal."""
        return DECISIONS[self.s.stack[self.s.sp - 1].kind] if self.s.sp else None

    @property
    def turn_order(self):
        return [self.s.order[i] for i in range(self.s.n_players)]

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
        cdef unsigned char[:] m = mask.view(np.uint8)
        for i in range(n):
            m[buf[i]] = 1
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

    def step_random(self, seed):
        """Plays the rest of the game with uniformly random actions inside compiled code."""
        cdef int buf[NUM_ACTIONS]
        cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
        cdef int n = legal_actions(&self.rules.c, &self.s, buf)
        with nogil:
            n = random_rollout(&BORA_BORA_VTABLE, &self.rules.c, &self.s, n, buf, &rng)
        return n

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
        return (State.from_dict, (self.to_dict(), data))

    # ---- scores -----------------------------------------------------------------
    def scores(self):
        """Victory points of each seat now (final once terminal)."""
        return [total_vp(&self.s.pl[i]) for i in range(self.s.n_players)]

    def score_breakdown(self):
        """VP by source for each seat: a list (by seat) of {source: VP}; sums to scores()."""
        return [{SOURCES[k]: self.s.pl[i].vp[k] for k in range(N_SOURCES)} for i in range(self.s.n_players)]

    def winner(self):
        """Winning seat after the tie-break (earlier in the last turn order); None until the end."""
        return winner(&self.s) if self.s.phase == PH_END else None

    def ranks(self):
        """1-based rank of each seat, ties broken like winner()."""
        return [rank_of(&self.s, seat) for seat in range(self.s.n_players)]

    def counters(self):
        """Behaviour counters per seat: {name: count} for each name in COUNTER_NAMES."""
        cdef int16_t out[N_COUNTERS]
        rows = []
        for seat in range(self.s.n_players):
            fill_counters(&self.s, seat, out)
            rows.append({COUNTER_NAMES[k]: out[k] for k in range(N_COUNTERS)})
        return rows

    @property
    def first_turn_order(self):
        """Seats in the turn order of round 1 (position 0 started)."""
        return [self.s.first_order[i] for i in range(self.s.n_players)]

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
        """A copy in which everything `player` cannot see is resampled (see docs/state.md)."""
        player = check_int(player, "player", 0, self.s.n_players - 1)
        cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
        cdef State st = self.clone()
        determinize(&self.rules.c, &st.s, player, rng)
        return st

    def observation(self, player):
        """What `player` can see: the state without the draw piles' order, the other hands'
        unknown cards and the chance seeds (JSON-safe). `player` None gives the public view: what
        everyone sees, every hand reduced to its size."""
        if player is not None:
            player = check_int(player, "player", 0, self.s.n_players - 1)
        d = self.to_dict()["state"]
        for name in SEED_FIELDS:
            del d[name]
        d["god_deck"] = d["deck_end"] - d["deck_top"]
        del d["deck_top"], d["deck_end"]
        d["person_pile"] = [PERSONS_PER_SEX - t for t in d["person_top"]]
        d["task_pile"] = N_PARROT_TASKS - d["task_top"]
        del d["person_top"], d["task_top"]
        for seat, pl in enumerate(d["pl"]):
            if seat != player:
                pl["hand_size"] = sum(pl["hand"])
                pl["hand"] = None
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
        """JSON-safe, versioned snapshot (docs/state.md)."""
        raw = (<const char*>&self.s)[:sizeof(GameState)]
        d = record_to_python(np.frombuffer(raw, dtype=GAME_DTYPE)[0], GAME_DTYPE)
        for name in SEED_FIELDS:
            d[name] = format(d[name], "016x")
        return {"format": "borabora_sim.state", "version": FORMAT_VERSION,
                "components": self.rules.fingerprint, "state": d}

    @staticmethod
    def from_dict(data, components=None):
        from borabora_sim.games.bora_bora.game import rules_for
        cdef Rules rules = rules_for(components)
        record = record_from_saved(data, "borabora_sim.state", FORMAT_VERSION, rules.fingerprint, GAME_DTYPE,
                                   SEED_FIELDS)
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
        """None if every conservation law and value range holds, else the broken law."""
        code = check_state(&self.rules.c, &self.s, False)
        return INVARIANTS[code - 1] if code else None

    def __repr__(self):
        if self.is_terminal():
            return f"<State players={self.s.n_players} over scores={self.scores()}>"
        return (f"<State players={self.s.n_players} round={self.s.round} phase={self.phase} "
                f"player={self.current_player} decision={self.decision}>")


include "state_builder.pxi"








cdef int rank_of(const GameState* g, int seat) noexcept nogil:
    """1-based rank: more VP first, ties to the earlier place in the last turn order (C#26)."""
    cdef int i, t, v = total_vp(&g.pl[seat]), rank = 1, mine = 0
    for i in range(g.n_players):
        if g.order[i] == seat:
            mine = i
    for i in range(g.n_players):
        t = total_vp(&g.pl[g.order[i]])
        if t > v or (t == v and i < mine):
            rank += 1
    return rank


def random_playouts(Rules rules not None, games, players, seed, first_game=0):
    """Plays `games` uniformly random games in compiled code (no Python per step).

    Game i starts from derive_seed(seed, first_game + i). Returns a dict of numpy arrays: `scores`
    (games x players), `breakdown` (games x players x len(SOURCES)), `counters` (games x players x
    len(COUNTER_NAMES)), `winner`, `decisions` (real decisions per game) and `moves` (all actions,
    forced ones included).
    """
    games = check_int(games, "games", 0, 2**31 - 1)
    players = check_players(players)
    first_game = check_int(first_game, "first_game", 0, SEED_MAX - games)
    scores = np.zeros((games, players), dtype=np.int16)
    breakdown = np.zeros((games, players, N_SOURCES), dtype=np.int16)
    counters = np.zeros((games, players, N_COUNTERS), dtype=np.int16)
    ranks = np.zeros((games, players), dtype=np.int8)
    cdef int8_t[:, :] rk = ranks
    cdef int16_t[:, :, :] bd = breakdown
    cdef int16_t[:, :, :] ct = counters
    winners = np.zeros(games, dtype=np.int8)
    decisions = np.zeros(games, dtype=np.int32)
    moves = np.zeros(games, dtype=np.int32)
    cdef int16_t[:, :] sc = scores
    cdef int8_t[:] wn = winners
    cdef int[:] dc = decisions
    cdef int[:] mv = moves
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef uint64_t base = <uint64_t>check_int(seed, "seed", 0, SEED_MAX), rng, first = first_game
    cdef int i, k, n, src, n_games = games, n_players = players
    with nogil:
        for i in range(n_games):
            rng = mix_seed(base, first + i)
            n = start(&rules.c, &g, n_players, rng, buf)
            dc[i] = random_rollout(&BORA_BORA_VTABLE, &rules.c, &g, n, buf, &rng)
            mv[i] = g.n_moves
            wn[i] = winner(&g)
            for k in range(n_players):
                sc[i, k] = total_vp(&g.pl[k])
                for src in range(N_SOURCES):
                    bd[i, k, src] = g.pl[k].vp[src]
                fill_counters(&g, k, &ct[i, k, 0])
                rk[i, k] = rank_of(&g, k)
    return {"scores": scores, "breakdown": breakdown, "counters": counters, "ranks": ranks,
            "winner": winners, "decisions": decisions, "moves": moves}


cdef const double* _weights_pointer(const double[::1] weights) except NULL:
    if weights.shape[0] != N_WEIGHTS:
        raise ValueError(f"weights must have {N_WEIGHTS} values ({', '.join(WEIGHT_NAMES)}), got {weights.shape[0]}")
    return &weights[0]


def evaluate_state(State state not None, const double[::1] weights not None):
    """Heuristic value of `state` for each seat (VP units) under `weights` (see WEIGHT_NAMES)."""
    cdef const double* w = _weights_pointer(weights)
    cdef double out[MAX_PLAYERS]
    evaluate(&state.rules.c, &state.s, w, out)
    return [out[i] for i in range(state.s.n_players)]


def heuristic_action(State state not None, const double[::1] weights not None, seed, bint thorough=True):
    """The heuristic policy's action for the player to move, judged on a determinization for
    that player (so hidden cards and pile order cannot influence it)."""
    if state.s.phase == PH_END:
        raise IllegalActionError("the game is over: there is no action to choose")
    cdef const double* w = _weights_pointer(weights)
    cdef GameState sample = state.s
    cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
    cdef int action
    with nogil:
        determinize(&state.rules.c, &sample, current_player(&sample), rng)
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
        determinize(&state.rules.c, &sample, current_player(&sample), rng)
        n = judge_options(&state.rules.c, &sample, w, thorough, &rng, actions, values, tie_breaks)
    return [(actions[i], values[i]) for i in range(n)]


def new_state(Rules rules not None, players, seed):
    return State._new(rules, players, seed)
