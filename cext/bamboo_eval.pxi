# Heuristic evaluation of a Bamboo state for the greedy policy built on it (greedy_policy.pxi).
# Values are in happiness-point units; the weights are named in WEIGHT_NAMES (bamboo.pyx) and described with
# the styles (borabora_sim/games/bamboo/game.py).

cdef enum:
    W_HP, W_COIN, W_FOOD, W_HUNGER, W_INCENSE, W_SHOOT_BALANCE, W_SHOOT_IMPROVE, W_SHOOT_COOK, W_SHOOT_FUND,
    W_SHOOT_WILD, W_COMFORT, W_HARMONY, W_NIGHT_SPACE, W_BALANCE_MET, W_BALANCE_NEAR, W_SPIRIT_KIND,
    W_SPIRIT_AWAKE, W_MAJORITY, W_PENDING, N_WEIGHTS

cdef enum:
    MAX_COMFORT = 3               # a home tile's comfort is 1..3 (two bit planes; components.MAX_COMFORT)
    TYPICAL_COMFORT = 2           # the mean comfort of the home tiles: what one more tile adds to a type total
    UNREACHABLE = 99              # home tiles missing for a pattern that can no longer be met

cdef int tiles_missing(const Comp* c, const HomeMasks* m, int tile) noexcept nogil:
    """The fewest home tiles still to place before balance tile `tile`'s pattern is met (0: met), or UNREACHABLE.
    A placement is out of reach when a placed tile of another type sits on one of its typed cells (tiles never
    move), or when its comfort could not reach the minimum even with the best tiles on its empty cells; a type
    total needs its missing comfort in typical tiles, on the region's empty cells."""
    cdef int q, t, empty, short, best = UNREACHABLE
    cdef bint ruled_out
    if c.bal_total_type[tile] >= 0:
        short = c.bal_min_comfort[tile] - comfort_on(m, m.has[c.bal_total_type[tile]] & c.bal_region[tile])
        if short <= 0:
            return 0
        empty = popcount(c.bal_region[tile] & ~m.occupied)
        if empty * MAX_COMFORT < short:
            return UNREACHABLE
        return min(empty, (short + TYPICAL_COMFORT - 1) // TYPICAL_COMFORT)
    for q in range(c.bal_first[tile], c.bal_first[tile + 1]):
        ruled_out = False
        for t in range(N_HOME_TYPES):
            if c.place_need[q][t] & m.occupied & ~m.has[t]:
                ruled_out = True
                break
        if ruled_out:
            continue
        empty = popcount(c.place_cover[q] & ~m.occupied)
        if empty < best and comfort_on(m, c.place_cover[q]) + MAX_COMFORT * empty >= c.bal_min_comfort[tile]:
            best = empty
            if best == 0:
                break
    return best

cdef inline double met_tile_worth(const Comp* c, int tile, double scoring_chance) noexcept nogil:
    """What a held balance tile whose pattern is met is worth: half its HP (rounded up) at the end for sure, and
    with `scoring_chance` its full HP from a Score Balance sub-action, which costs half a Balance action (the
    action's alternative is balance_hp)."""
    cdef int hp = c.bal_hp[tile], half = unscored_balance_hp(c, tile)
    return half + scoring_chance * max(0.0, hp - half - 0.5 * c.balance_hp)

cdef inline int food_owed(const GameState* g, int s) noexcept nogil:
    """Units `s` still owes in this Winter's feeding when it is under way, else -1."""
    cdef int i
    for i in range(g.sp):
        if g.stack[i].kind == F_FEED and g.stack[i].player == s:
            return g.stack[i].a
    return -1

cdef inline int summers_left(const GameState* g) noexcept nogil:
    """Summers still to come, this year's included until it is over."""
    return N_ROUNDS - g.round + (1 if g.phase <= PH_SUMMER else 0)

cdef inline int food_need(const GameState* g, int s, int tiles) noexcept nogil:
    """Food units `s` must still pay in this year's Winter (B31): what it owes while its feeding is under way, none
    once it is fed or the game is over, else 1 per home tile (`tiles`)."""
    cdef int owed = food_owed(g, s), P = g.n_players
    if owed >= 0:
        return owed
    if g.phase == PH_END or (g.phase == PH_FEED and ((s - g.start_seat + P) % P) < g.turn_idx):
        return 0
    return tiles

cdef inline bint still_acting(const GameState* g, int s, int summers) noexcept nogil:
    """Whether `s` still has Summer actions to come (or under way): what balance tiles and harmony can change."""
    cdef int i
    if summers > 1 or (summers == 1 and not (g.phase == PH_SUMMER and g.pl[s].incense == 0)):
        return True
    for i in range(g.sp):
        if g.stack[i].player == s and g.stack[i].kind >= F_OFFER and g.stack[i].kind <= F_HOME_SPACE:
            return True
    return False

cdef inline int harmony_reach(const Comp* c, const HomeMasks* m, int left, int right, int summers,
                              bint acting) noexcept nogil:
    """How much of the left/right comfort difference home tiles to come can still close: about one a Summer, of
    typical comfort, on the lighter side's empty spaces (0 without actions to come)."""
    if not acting:
        return 0
    return TYPICAL_COMFORT * min(summers, popcount(c.side_cells[2 if left > right else 0] & ~m.occupied))

cdef double evaluate_player(const Comp* c, const GameState* g, const double* w, int s) noexcept nogil:
    cdef const Player* p = &g.pl[s]
    cdef int i, t, d, k, tile, kinds = 0, awake_n = 0, left, right, diff
    cdef int tiles, units, need, summers, reach
    cdef bint acting
    cdef double v = w[W_HP] * total_score(p), span, live, shoots = 0
    cdef HomeMasks m
    if g.phase == PH_END:
        return v
    summers = summers_left(g)
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
    need = food_need(g, s, tiles)
    v += w[W_FOOD] * min(units, need + tiles * (N_ROUNDS - g.round))
    if need > units:
        v -= w[W_HUNGER] * c.hunger_hp * (need - units)
    # whether the seat still has Summer actions to come (or under way): what balance tiles and harmony can change
    acting = still_acting(g, s, summers)
    # home: comfort (tie-break, patterns) and harmony. The left/right difference scores at the end; until then
    # home tiles to come on the lighter side can close it (about one a Summer, of typical comfort, on its empty
    # spaces): the part beyond their reach costs in full, the part within it the share harmony
    home_masks(c, p, &m)
    v += w[W_COMFORT] * comfort_on(&m, m.occupied)
    left = comfort_on(&m, m.occupied & c.side_cells[0])
    right = comfort_on(&m, m.occupied & c.side_cells[2])
    diff = left - right if left > right else right - left
    reach = harmony_reach(c, &m, left, right, summers, acting)
    v -= c.harmony_hp * (max(0, diff - reach) + w[W_HARMONY] * min(diff, reach))
    v -= w[W_NIGHT_SPACE] * c.uncovered_hp * night_uncovered(c, p)
    # balance tiles held, in the HP they are expected to bring: a met one half its HP at the end or, while the
    # seat has actions to come, its full HP scored with the chance balance_met; an unmet one that worth times
    # balance_near for each home tile its pattern still lacks (each needs an Improve action to come)
    for d in range(N_SIDES):
        for i in range(BAL_SLOTS):
            tile = p.balance[d][i]
            if tile == NO_TILE:
                continue
            k = tiles_missing(c, &m, tile)
            if k == 0:
                v += met_tile_worth(c, tile, w[W_BALANCE_MET] if acting else 0.0)
            elif acting and k != UNREACHABLE:
                v += met_tile_worth(c, tile, w[W_BALANCE_MET]) * w[W_BALANCE_NEAR] ** k
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

cdef inline bint is_sub_decision(int kind) noexcept nogil:
    """Part of a step already begun (the offering, stalks, activations and actions of a turn, a gift's action,
    the rest of a wake or a feeding); the draft, gift and visit choices begin one."""
    return not (kind == F_DRAFT or kind == F_GIFT or kind == F_VISIT)

cdef enum:
    FINISH_STEPS_MAX = 64          # judge_options finishes the step an action begins in at most this many decisions,
                                   # so a visit is judged with its whole turn (offering, stalks, activations)

include "greedy_policy.pxi"
