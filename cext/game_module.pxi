# What both engine modules build the same way over their own rules, included by each after its `State` class:
# the C protocol (game_api.pxd) filled with its kernels, how a State is made, random games played in compiled
# code, and the heuristic's entry points. Each engine keeps only its rules; of them this and game_state.pxi use:
#   structs      Comp (component tables), GameState (a game: no pointer, so a struct copy clones it), Player
#   classes      Rules(EngineRules), whose __cinit__ fills the tables, and State(EngineState), which adds no field
#   kernels      start(c, g, players, seed, variant, out), legal_actions, step, current_player, determinize(c, g,
#                viewer, seed), check_state(c, g, loading), evaluate, greedy_action, judge_options (greedy_policy.pxi),
#                winner(c, g) (-1 until the end), rank_of(c, g, seat), returns(c, g, out), total_score(p),
#                score_by_source(p), fill_counters(g, seat, out), start_position(g, seat), features(c, g, viewer,
#                out) (the learned evaluation's N_FEATURES, as `viewer` sees the state)
#   Python       hide_from(state, observation, viewer), which removes what `viewer` cannot see
#   sizes        NUM_ACTIONS, MAX_PLAYERS, N_SOURCES, N_COUNTERS, N_WEIGHTS, N_FEATURES, PH_END
#   names        PHASES, DECISIONS, SOURCES, WEIGHT_NAMES, FEATURE_NAMES_GLOBAL and FEATURE_NAMES_SEAT (the game's
#                features, then a seat's block), INVARIANTS (by check_state's number), FORMAT ("<engine>.state",
#                which names the capsules too), FORMAT_VERSION, SEED_FIELDS (the 64-bit generators, saved in hex),
#                NEW_GAME_CALL and STATE_NAME (for messages)
#   layouts      COMP_DTYPE and GAME_DTYPE, which setup.py writes from the engine's .pxd (its *_layout.pxi)

from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memcpy

from game_api cimport GameVTable
from seeds cimport mix_seed, pick_uniform

NUM_DISTINCT_ACTIONS = NUM_ACTIONS
STATE_BYTES = sizeof(GameState)
SEED_MAX = 2**64 - 1

# =============================================================================
# The game-agnostic C interface (game_api.pxd)
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
    returns(<const Comp*>r, <const GameState*>s, out)

cdef void vt_scores(const void* r, const void* s, double* out) noexcept nogil:
    cdef const GameState* g = <const GameState*>s
    cdef int i
    for i in range(g.n_players):
        out[i] = total_score(&g.pl[i])

cdef void vt_determinize(const void* r, void* s, int player, uint64_t seed) noexcept nogil:
    determinize(<const Comp*>r, <GameState*>s, player, seed)

cdef void vt_evaluate(const void* r, const void* s, const double* w, double* out) noexcept nogil:
    evaluate(<const Comp*>r, <const GameState*>s, w, out)

cdef int vt_policy(const void* r, const void* s, const double* w, int thorough, uint64_t* rng) noexcept nogil:
    return greedy_action(<const Comp*>r, <const GameState*>s, w, thorough, rng)

cdef void vt_features(const void* r, const void* s, int seat, double* out) noexcept nogil:
    features(<const Comp*>r, <const GameState*>s, seat, out)

cdef GameVTable GAME_VTABLE
GAME_VTABLE.state_size = sizeof(GameState)
GAME_VTABLE.num_actions = NUM_ACTIONS
GAME_VTABLE.max_players = MAX_PLAYERS
GAME_VTABLE.legal_actions = vt_legal
GAME_VTABLE.step = vt_step
GAME_VTABLE.current_player = vt_current
GAME_VTABLE.num_players = vt_num_players
GAME_VTABLE.returns = vt_returns
GAME_VTABLE.scores = vt_scores
GAME_VTABLE.determinize = vt_determinize
GAME_VTABLE.num_weights = N_WEIGHTS
GAME_VTABLE.evaluate = vt_evaluate
GAME_VTABLE.policy = vt_policy
GAME_VTABLE.num_features = N_FEATURES       # the learned evaluation's features (<engine>_features.pxi)
GAME_VTABLE.features = vt_features
VTABLE = PyCapsule_New(&GAME_VTABLE, b"borabora_sim.GameVTable", NULL)

# =============================================================================
# Making states: only through _blank_state, so that Python code cannot make a State whose C struct was never filled
# =============================================================================
cdef bint _building = False               # only this module can build a State


cdef inline State _blank_state(EngineRules rules):
    """A State to be filled at once by the caller (a struct copy, start() or a checked load)."""
    global _building
    cdef State st
    _building = True
    try:
        st = State.__new__(State)
    finally:
        _building = False
    st.rules = rules
    return st


cdef State _started_state(Rules rules, players, seed, int variant):
    """A new game of the engine's rules `variant`, settled to its first real decision."""
    cdef State st = _blank_state(rules)
    cdef int buf[NUM_ACTIONS]
    start(&rules.c, &st.s, check_players(players), <uint64_t>check_int(seed, "seed", 0, SEED_MAX), variant, buf)
    return st


cdef State _loaded_state(Rules rules, data):
    """The state of a saved form (State.to_dict()): every field's type and range and every law of a loaded state
    is checked, and the first that fails is named in a StateFormatError."""
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

# =============================================================================
# Random games in compiled code
# =============================================================================
def derive_seed(seed, index):
    """The seed of game `index` of a run with master `seed` (the same in every process)."""
    return mix_seed(<uint64_t>check_int(seed, "seed", 0, SEED_MAX), <uint64_t>check_int(index, "index", 0, SEED_MAX))


cdef int random_rollout(const Comp* c, GameState* g, int n_legal, int* buf, uint64_t* rng) noexcept nogil:
    """Plays uniformly random legal actions (`buf` holds the `n_legal` of now) to the end; returns the number of
    decisions."""
    cdef int decisions = 0
    while n_legal > 0:
        n_legal = step(c, g, buf[pick_uniform(rng, n_legal)], buf)
        decisions += 1
    return decisions


cdef list _random_game_actions(Rules rules, players, game_seed, int variant):
    """The actions of the compiled random game `game_seed` (as played by random_playouts)."""
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef uint64_t rng = <uint64_t>check_int(game_seed, "game_seed", 0, SEED_MAX)
    cdef int n = start(&rules.c, &g, check_players(players), rng, variant, buf), a
    actions = []
    while n > 0:
        a = buf[pick_uniform(&rng, n)]
        actions.append(a)
        n = step(&rules.c, &g, a, buf)
    return actions


cdef dict _random_playouts(Rules rules, games, players, seed, first_game, int variant):
    """random_playouts' arrays: per game and seat the score, its breakdown by source, the behaviour counters, the
    rank and the place in the first turn order; per game the winner (winner(), the lowest seat ranked first), the
    decisions and the moves (forced ones included)."""
    games = check_int(games, "games", 0, 2**31 - 1)
    players = check_players(players)
    first_game = check_int(first_game, "first_game", 0, SEED_MAX - games)
    scores = np.zeros((games, players), dtype=np.int16)
    breakdown = np.zeros((games, players, N_SOURCES), dtype=np.int16)
    counters = np.zeros((games, players, N_COUNTERS), dtype=np.int16)
    ranks = np.zeros((games, players), dtype=np.int8)
    starts = np.zeros((games, players), dtype=np.int8)
    winners = np.zeros(games, dtype=np.int8)
    decisions = np.zeros(games, dtype=np.int32)
    moves = np.zeros(games, dtype=np.int32)
    cdef int16_t[:, :] sc = scores
    cdef int16_t[:, :, :] bd = breakdown
    cdef int16_t[:, :, :] ct = counters
    cdef int8_t[:, :] rk = ranks
    cdef int8_t[:, :] sp = starts
    cdef int8_t[:] wn = winners
    cdef int[:] dc = decisions
    cdef int[:] mv = moves
    cdef int buf[NUM_ACTIONS]
    cdef GameState g
    cdef const int16_t* by_source
    cdef uint64_t base = <uint64_t>check_int(seed, "seed", 0, SEED_MAX), rng, first = first_game
    cdef int i, k, n, src, n_games = games, n_players = players
    with nogil:
        for i in range(n_games):
            rng = mix_seed(base, first + i)
            n = start(&rules.c, &g, n_players, rng, variant, buf)
            dc[i] = random_rollout(&rules.c, &g, n, buf, &rng)
            mv[i] = g.n_moves
            wn[i] = winner(&rules.c, &g)
            for k in range(n_players):
                sc[i, k] = total_score(&g.pl[k])
                by_source = score_by_source(&g.pl[k])
                for src in range(N_SOURCES):
                    bd[i, k, src] = by_source[src]
                fill_counters(&g, k, &ct[i, k, 0])
                rk[i, k] = rank_of(&rules.c, &g, k)
                sp[i, k] = start_position(&g, k)
    return {"scores": scores, "breakdown": breakdown, "counters": counters, "ranks": ranks, "start_position": starts,
            "winner": winners, "decisions": decisions, "moves": moves}

# =============================================================================
# The heuristic (the engine's evaluation and greedy_policy.pxi)
# =============================================================================
cdef const double* _weights_pointer(const double[::1] weights) except NULL:
    if weights.shape[0] != N_WEIGHTS:
        raise ValueError(f"weights must have {N_WEIGHTS} values ({', '.join(WEIGHT_NAMES)}), got {weights.shape[0]}")
    return &weights[0]


def evaluate_state(State state not None, const double[::1] weights not None):
    """Heuristic value of `state` for each seat (in the game's points) under `weights` (see WEIGHT_NAMES)."""
    cdef const double* w = _weights_pointer(weights)
    cdef double out[MAX_PLAYERS]
    evaluate(&state.rules.c, &state.s, w, out)
    return [out[i] for i in range(state.s.n_players)]


def heuristic_action(State state not None, const double[::1] weights not None, seed, bint thorough=True):
    """The heuristic policy's action for the player to move, judged on a determinization for that player (so what
    it cannot see cannot influence it)."""
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
