# Heuristic evaluation of a Bamboo state and the greedy policy built on it (players, rollouts).
# Values are in happiness-point units; the weights are named in WEIGHT_NAMES (bamboo.pyx) and described with
# the styles (borabora_sim/bamboo/game.py).

from libc.math cimport INFINITY

cdef enum:
    W_HP, W_COIN, W_FOOD, W_HUNGER, W_INCENSE, W_SHOOT_BALANCE, W_SHOOT_IMPROVE, W_SHOOT_COOK, W_SHOOT_FUND,
    W_SHOOT_WILD, W_COMFORT, W_HARMONY, W_NIGHT_SPACE, W_BALANCE_MET, W_BALANCE_NEAR, W_SPIRIT_KIND,
    W_SPIRIT_AWAKE, W_MAJORITY, W_PENDING, N_WEIGHTS

cdef double pattern_progress(const BComp* c, const HomeMasks* m, int tile) noexcept nogil:
    """How close the home is to balance tile `tile`'s pattern, 0..1: the best share of a placement's cells already
    holding a fitting tile, among the placements no placed tile rules out (tiles never move); for a type total,
    the share of the comfort it needs."""
    cdef int q, t, cells, done
    cdef double best = 0
    cdef bint ruled_out
    if c.bal_total_type[tile] >= 0:
        if c.bal_min_comfort[tile] <= 0:
            return 1.0
        return min(1.0, <double>comfort_on(m, m.has[c.bal_total_type[tile]] & c.bal_region[tile])
                   / c.bal_min_comfort[tile])
    for q in range(c.bal_first[tile], c.bal_first[tile + 1]):
        ruled_out = False
        for t in range(N_HOME_TYPES):
            if c.place_need[q][t] & m.occupied & ~m.has[t]:
                ruled_out = True
                break
        if ruled_out:
            continue
        cells = popcount(c.place_cover[q])
        done = popcount(c.place_cover[q] & m.occupied)
        if cells > 0 and <double>done / cells > best:
            best = <double>done / cells
    return best

cdef inline int food_owed(const GameState* g, int s) noexcept nogil:
    """Units `s` still owes in this Winter's feeding when it is under way, else -1."""
    cdef int i
    for i in range(g.sp):
        if g.stack[i].kind == F_FEED and g.stack[i].player == s:
            return g.stack[i].a
    return -1

cdef double evaluate_player(const BComp* c, const GameState* g, const double* w, int s) noexcept nogil:
    cdef const Player* p = &g.pl[s]
    cdef int P = g.n_players, i, t, d, k, tile, kinds = 0, awake_n = 0, left, right, diff, night = 0, winters
    cdef int tiles, units, need, owed, summers
    cdef double v = w[W_HP] * total_hp(p), span, live, shoots = 0
    cdef HomeMasks m
    if g.phase == PH_END:
        return v
    summers = N_ROUNDS - g.round + (1 if g.phase <= PH_SUMMER else 0)
    live = 1.0 if summers > 0 else 0.0
    span = min(summers, 2) * 0.5                  # what one more shoot or spirit is worth: its uses still to come
    # coins, incense, shoots in the temple areas
    v += w[W_COIN] * live * p.coins
    if g.phase == PH_SUMMER:
        v += w[W_INCENSE] * p.incense
    for t in range(N_TEMPLES):
        for i in range(AREA_CAP):
            k = p.area[t][i]
            if k != NO_TILE:
                shoots += w[W_SHOOT_BALANCE + k % N_ICONS]
    v += span * shoots
    # food against the feeding still to come: 1 unit per home tile each Winter (B31)
    tiles = home_tiles(p)
    units = food_worth(c, p, 0)
    owed = food_owed(g, s)
    winters = N_ROUNDS - g.round + 1
    if g.phase == PH_FEED and owed < 0 and ((s - g.start_seat + P) % P) < g.turn_idx:
        winters -= 1                                # fed already this Winter
    need = owed if owed >= 0 else (tiles if winters > (N_ROUNDS - g.round) else 0)
    v += w[W_FOOD] * min(units, need + tiles * (N_ROUNDS - g.round))
    if need > units:
        v -= w[W_HUNGER] * c.hunger_hp * (need - units)
    # home: comfort (tie-break, patterns), harmony and the advanced side's typed spaces, as they would score now
    home_masks(c, p, &m)
    v += w[W_COMFORT] * comfort_on(&m, m.occupied)
    left = comfort_on(&m, m.occupied & c.side_cells[0])
    right = comfort_on(&m, m.occupied & c.side_cells[2])
    diff = left - right if left > right else right - left
    v -= w[W_HARMONY] * c.harmony_hp * diff
    if p.advanced:
        for i in range(HOME_CELLS):
            if c.night_type[i] >= 0 and p.home[i] == NO_TILE:
                night += 1
        v -= w[W_NIGHT_SPACE] * c.uncovered_hp * night
    # balance tiles held: a met pattern is worth a share of the printed HP, an unmet one its progress squared
    for d in range(N_SIDES):
        for i in range(BAL_SLOTS):
            tile = p.balance[d][i]
            if tile == NO_TILE:
                continue
            if pattern_met(c, &m, tile):
                v += w[W_BALANCE_MET] * c.bal_hp[tile]
            else:
                v += w[W_BALANCE_NEAR] * c.bal_hp[tile] * pattern_progress(c, &m, tile) ** 2
    # spirits: variety scores at the end, awake ones are actions to come
    for k in range(N_SPIRITS):
        if p.spirits[k] > 0:
            kinds += 1
        awake_n += awake(p, k)
    v += w[W_SPIRIT_KIND] * c.spirit_type_hp * kinds + w[W_SPIRIT_AWAKE] * span * awake_n
    # temple majorities of this Summer: the face-up spirit the incense would take now
    if g.phase == PH_SUMMER:
        for t in range(N_TEMPLES):
            if g.spirit_left[t] > 0 and temple_leader(g, t) == s:
                k = g.spirit_stack[t][g.spirit_left[t] - 1]
                v += w[W_MAJORITY] * (1.0 + (c.spirit_type_hp if p.spirits[k] == 0 else 0))
    # decisions of this player still pending: activations left and actions started but not carried out
    for i in range(g.sp):
        if g.stack[i].player != s:
            continue
        k = g.stack[i].kind
        if k == F_ACTIVATE:
            v += w[W_PENDING] * g.stack[i].a
        elif k == F_BALANCE:                  # an action under way: what its shoot is worth to this style
            v += w[W_PENDING] * w[W_SHOOT_BALANCE] * (1.0 if g.stack[i].a >= 2 else 0.5)
        elif k == F_IMPROVE:
            v += w[W_PENDING] * w[W_SHOOT_IMPROVE]
        elif k == F_COOK:
            v += w[W_PENDING] * w[W_SHOOT_COOK]
        elif k == F_RENEW_FOOD:
            v += w[W_PENDING] * w[W_SHOOT_COOK] * 0.5
        elif k == F_HOME_SPACE:
            v += w[W_COMFORT] * c.home_comfort[g.stack[i].a]
    return v

cdef void evaluate(const BComp* c, const GameState* g, const double* w, double* out) noexcept nogil:
    cdef int s
    for s in range(g.n_players):
        out[s] = evaluate_player(c, g, w, s)

cdef inline bint is_sub_decision(int kind) noexcept nogil:
    """Part of a step already begun (the offering, stalks, activations and actions of a turn, a gift's action,
    the rest of a wake or a feeding); the draft, gift and visit choices begin one."""
    return not (kind == F_DRAFT or kind == F_GIFT or kind == F_VISIT)

cdef int judge_options(const BComp* c, const GameState* g, const double* w, bint thorough, uint64_t* rng,
                       int* actions, double* values, double* tie_breaks) noexcept nogil:
    """Fills `actions` with the legal actions and `values` with the value the player to move has after each.
    `thorough` first finishes the player's own step greedily, so a visit is judged with its whole turn (offering,
    stalks, activations); otherwise one decision is judged with the pending-decision estimate. `tie_breaks` gets
    a tiny random amount per action from `rng`, for greedy_action. Returns the number of actions."""
    cdef int sub[NUM_ACTIONS]
    cdef int n = legal_actions(c, g, actions), i, me = current_player(g), guard, m
    cdef GameState after
    for i in range(n):
        after = g[0]
        m = step(c, &after, actions[i], sub)
        guard = 0
        while thorough and m > 0 and guard < 64 and current_player(&after) == me \
                and is_sub_decision(after.stack[after.sp - 1].kind):
            m = step(c, &after, greedy_action(c, &after, w, False, rng), sub)
            guard += 1
        rng[0] += <uint64_t>0x9E3779B97F4A7C15
        values[i] = evaluate_player(c, &after, w, me)
        tie_breaks[i] = 1e-6 * <double>(mix_seed(rng[0], 0) >> 11) / 9007199254740992.0
    return n

cdef int greedy_action(const BComp* c, const GameState* g, const double* w, bint thorough,
                       uint64_t* rng) noexcept nogil:
    """The legal action with the best value for the player to move (judge_options); ties broken at random."""
    cdef int actions[NUM_ACTIONS]
    cdef double values[NUM_ACTIONS]
    cdef double tie_breaks[NUM_ACTIONS]
    cdef int n = judge_options(c, g, w, thorough, rng, actions, values, tie_breaks), i, best = actions[0]
    cdef double best_value = -INFINITY
    for i in range(n):
        if values[i] + tie_breaks[i] > best_value:
            best_value = values[i] + tie_breaks[i]
            best = actions[i]
    return best
