# Bamboo rules kernels: set-up, piles and markets, patterns, final scoring, determinization.
# Plain C over `Comp` (component tables) and `GameState`; no Python objects, no GIL.
# Rule references: B-numbers are docs/bamboo_rulings.md, section titles are the rulebook's.

from libc.string cimport memcpy, memset

from counts cimport gain_u8, popcount, sort_u8
from seeds cimport below, shuffle_u8, splitmix_next

cdef inline int unscored_balance_hp(const Comp* c, int tile) noexcept nogil:
    """What a held balance tile whose pattern is met scores at the end of the game: its HP divided, rounded up."""
    return (c.bal_hp[tile] + c.unscored_divisor - 1) // c.unscored_divisor

cdef inline int seat_at(const GameState* g, int position) noexcept nogil:
    """The seat at `position` in turn order, counted from the starting player."""
    return (g.start_seat + position) % g.n_players

# =============================================================================
# Piles (rings with the top at home_top / bal_top) and markets (B4, B33)
# =============================================================================
cdef inline int pile_draw(uint8_t* pile, int base, int size, uint8_t* top, uint8_t* left,
                          uint8_t* unseen) noexcept nogil:
    """Takes the top tile of a ring pile, or NO_TILE if it is empty."""
    cdef int tile
    if left[0] == 0:
        return NO_TILE
    tile = pile[base + top[0]]
    top[0] = <uint8_t>((top[0] + 1) % size)
    left[0] -= 1
    if unseen[0] > 0:
        unseen[0] -= 1
    return tile

cdef inline void pile_under(uint8_t* pile, int base, int size, uint8_t top, uint8_t* left, int tile) noexcept nogil:
    pile[base + (top + left[0]) % size] = <uint8_t>tile
    left[0] += 1

cdef inline void market_take(uint8_t* market, int n, int pos) noexcept nogil:
    """Removes the tile at `pos`; the tiles above slide down and the top position is left empty."""
    cdef int i
    for i in range(pos, n - 1):
        market[i] = market[i + 1]
    market[n - 1] = NO_TILE

cdef inline void home_refill(const Comp* c, GameState* g, int cat) noexcept nogil:
    cdef int i
    for i in range(HOME_MARKET):
        if g.home_market[cat][i] == NO_TILE:
            g.home_market[cat][i] = <uint8_t>pile_draw(g.home_pile, c.home_base[cat], c.home_size[cat],
                                                       &g.home_top[cat], &g.home_left[cat], &g.home_unseen[cat])

cdef inline void bal_refill(const Comp* c, GameState* g, int side) noexcept nogil:
    cdef int i
    for i in range(BAL_MARKET):
        if g.bal_market[side][i] == NO_TILE:
            g.bal_market[side][i] = <uint8_t>pile_draw(g.bal_pile, c.bal_base[side], c.bal_size[side],
                                                       &g.bal_top[side], &g.bal_left[side], &g.bal_unseen[side])

cdef inline int bal_deal(const Comp* c, GameState* g, int side) noexcept nogil:
    return pile_draw(g.bal_pile, c.bal_base[side], c.bal_size[side], &g.bal_top[side], &g.bal_left[side],
                     &g.bal_unseen[side])

cdef void winter_markets(const Comp* c, GameState* g) noexcept nogil:
    """Winter step 4 (B33): the lowest tile of each market goes under its stack, the rest slide down, and the
    empty top is filled from the stack."""
    cdef int k, tile
    for k in range(HOME_CATS):
        tile = g.home_market[k][0]
        if tile != NO_TILE:
            market_take(g.home_market[k], HOME_MARKET, 0)
            pile_under(g.home_pile, c.home_base[k], c.home_size[k], g.home_top[k], &g.home_left[k], tile)
            home_refill(c, g, k)
    for k in range(N_SIDES):
        tile = g.bal_market[k][0]
        if tile != NO_TILE:
            market_take(g.bal_market[k], BAL_MARKET, 0)
            pile_under(g.bal_pile, c.bal_base[k], c.bal_size[k], g.bal_top[k], &g.bal_left[k], tile)
            bal_refill(c, g, k)

# =============================================================================
# Food (B21, B25)
# =============================================================================
cdef inline int food_on_display(const GameState* g) noexcept nogil:
    return g.food_display[0] + g.food_display[1] + g.food_display[2]

cdef void fill_food(GameState* g) noexcept nogil:
    """Fills the display up to 5 from the pile; an empty pile is remade from the discards (B21)."""
    cdef int k, n, i
    while food_on_display(g) < FOOD_DISPLAY:
        if g.food_left == 0:
            n = 0
            for k in range(N_FOOD_KINDS):
                for i in range(g.food_discard[k]):
                    g.food_pile[n] = <uint8_t>k
                    n += 1
                g.food_discard[k] = 0
            if n == 0:
                return
            shuffle_u8(&g.rng, g.food_pile, n)
            g.food_left = <uint8_t>n
        g.food_left -= 1
        k = g.food_pile[g.food_left]
        g.food_pile[g.food_left] = 0
        g.food_display[k] += 1

cdef void take_food(GameState* g, Player* p, int kind) noexcept nogil:
    g.food_display[kind] -= 1
    p.food[kind] += 1
    gain_u8(&p.food_taken, 1)
    if food_on_display(g) == 0:
        fill_food(g)

cdef void renew_food(GameState* g) noexcept nogil:
    cdef int k
    for k in range(N_FOOD_KINDS):
        g.food_discard[k] += g.food_display[k]
        g.food_display[k] = 0
    fill_food(g)

cdef inline int food_worth(const Comp* c, const Player* p, int from_kind) noexcept nogil:
    cdef int k, t = 0
    for k in range(from_kind, N_FOOD_KINDS):
        t += p.food[k] * c.food_units[k]
    return t

# =============================================================================
# Home and balance patterns (B19, B20)
# =============================================================================
cdef inline int home_tiles(const Player* p) noexcept nogil:
    cdef int i, n = 0
    for i in range(HOME_CELLS):
        if p.home[i] != NO_TILE:
            n += 1
    return n

cdef inline bint cell_takes(const Comp* c, const Player* p, int cell, int tile) noexcept nogil:
    return p.home[cell] == NO_TILE and (not p.advanced or c.night_type[cell] < 0
                                        or c.night_type[cell] == c.home_type[tile])

cdef inline bint can_place(const Comp* c, const Player* p, int tile) noexcept nogil:
    cdef int i
    for i in range(HOME_CELLS):
        if cell_takes(c, p, i, tile):
            return True
    return False

cdef struct HomeMasks:
    uint32_t occupied
    uint32_t has[N_HOME_TYPES]
    uint32_t low                             # comfort bit 0
    uint32_t high                            # comfort bit 1

cdef inline void home_masks(const Comp* c, const Player* p, HomeMasks* m) noexcept nogil:
    cdef int i, t
    cdef uint32_t bit
    memset(m, 0, sizeof(HomeMasks))
    for i in range(HOME_CELLS):
        t = p.home[i]
        if t != NO_TILE:
            bit = (<uint32_t>1) << i
            m.occupied |= bit
            m.has[c.home_type[t]] |= bit
            if c.home_comfort[t] & 1:
                m.low |= bit
            if c.home_comfort[t] & 2:
                m.high |= bit

cdef inline int comfort_on(const HomeMasks* m, uint32_t mask) noexcept nogil:
    return popcount(mask & m.low) + 2 * popcount(mask & m.high)

cdef bint pattern_met(const Comp* c, const HomeMasks* m, int tile) noexcept nogil:
    cdef int q, t
    cdef bint ok
    if c.bal_total_type[tile] >= 0:
        return comfort_on(m, m.has[c.bal_total_type[tile]] & c.bal_region[tile]) >= c.bal_min_comfort[tile]
    for q in range(c.bal_first[tile], c.bal_first[tile + 1]):
        if c.place_cover[q] & ~m.occupied:
            continue
        ok = True
        for t in range(N_HOME_TYPES):
            if c.place_need[q][t] & ~m.has[t]:
                ok = False
                break
        if ok and comfort_on(m, c.place_cover[q]) >= c.bal_min_comfort[tile]:
            return True
    return False

cdef inline int night_uncovered(const Comp* c, const Player* p) noexcept nogil:
    """Spaces with a type indication left without a home tile: they cost HP at the end in the advanced mode (B36)."""
    cdef int i, n = 0
    if not p.advanced:
        return 0
    for i in range(HOME_CELLS):
        if c.night_type[i] >= 0 and p.home[i] == NO_TILE:
            n += 1
    return n

cdef inline int total_comfort(const Comp* c, const Player* p) noexcept nogil:
    cdef HomeMasks m
    home_masks(c, p, &m)
    return comfort_on(&m, m.occupied)

# =============================================================================
# Set-up (I. Board Set Up, III. Players' Set Up, B1-B5, B30)
# =============================================================================
cdef void ghost_sticks(const Comp* c, GameState* g) noexcept nogil:
    """B30: the 4 temple tiles are shuffled and each temple gets the ghost sticks its tile shows."""
    cdef uint8_t order[N_TEMPLES]
    cdef int t
    for t in range(N_TEMPLES):
        order[t] = <uint8_t>t
    shuffle_u8(&g.event_rng, order, N_TEMPLES)
    for t in range(N_TEMPLES):
        g.incense[t][GHOST] = <uint8_t>c.temple_tile_sticks[order[t]]

cdef void begin_spring(GameState* g) noexcept nogil:
    """B7: the 4 gift tiles are shuffled and as many as there are players are revealed."""
    cdef uint8_t order[N_GIFTS]
    cdef int i
    for i in range(N_GIFTS):
        order[i] = <uint8_t>i
    shuffle_u8(&g.event_rng, order, N_GIFTS)
    g.gifts_up = 0
    for i in range(g.n_players):
        g.gifts_up |= <uint8_t>(1 << order[i])
    g.phase = PH_SPRING
    g.turn_idx = 0

cdef void setup(const Comp* c, GameState* g, int n_players, uint64_t seed, bint advanced) noexcept nogil:
    cdef int i, k, t, s, n, seat
    cdef uint8_t tmp[N_SPIRIT_TILES]
    cdef Player* p
    memset(g, 0, sizeof(GameState))
    g.rng = seed
    g.event_rng = seed ^ <uint64_t>0xD1B54A32D192ED03
    g.n_players = <int8_t>n_players
    g.round = 1
    g.phase = PH_SETUP
    g.visit = -1
    memset(g.draft, NO_TILE, sizeof(g.draft))
    memset(g.stalk_new, NO_TILE, sizeof(g.stalk_new))
    memset(g.to_place, NO_TILE, sizeof(g.to_place))
    memset(g.received, NO_TILE, sizeof(g.received))
    memset(g.spirit_stack, NO_TILE, sizeof(g.spirit_stack))
    memset(g.home_market, NO_TILE, sizeof(g.home_market))
    memset(g.bal_market, NO_TILE, sizeof(g.bal_market))
    g.start_seat = <int8_t>below(&g.rng, n_players)
    # Reed field (I): the 12 board-setup pieces at random on the shaded spaces.
    memcpy(tmp, c.field_kinds, FIELD_SPACES)
    shuffle_u8(&g.rng, tmp, FIELD_SPACES)
    for i in range(FIELD_SPACES):
        g.stalk[i // STALK_DEPTH][i % STALK_DEPTH] = tmp[i]
    # Draft pool (B1): 2 pieces per player from the 8 unmarked ones.
    memcpy(tmp, c.draft_kinds, DRAFT_MAX)
    shuffle_u8(&g.rng, tmp, DRAFT_MAX)
    for i in range(DRAFTED * n_players):
        g.draft[i] = tmp[i]
    # Home-tile stacks (I): 3+ tiles stay in the box with 2 players; 4 face up per category (B4).
    for k in range(HOME_CATS):
        n = 0
        for i in range(N_HOME):
            if c.home_cat[i] == k and not (n_players == 2 and c.home_three_plus[i]):
                g.home_pile[c.home_base[k] + n] = <uint8_t>i
                n += 1
        shuffle_u8(&g.rng, &g.home_pile[c.home_base[k]], n)
        g.home_left[k] = g.home_unseen[k] = <uint8_t>n
        home_refill(c, g, k)
    # Balance stacks (I): 3 face up per side.
    for k in range(N_SIDES):
        n = 0
        for i in range(N_BAL):
            if c.bal_side[i] == k:
                g.bal_pile[c.bal_base[k] + n] = <uint8_t>i
                n += 1
        shuffle_u8(&g.rng, &g.bal_pile[c.bal_base[k]], n)
        g.bal_left[k] = g.bal_unseen[k] = <uint8_t>n
        bal_refill(c, g, k)
    # Spirit stacks (I): 4 stacks of 4, the other 5 tiles to the box.
    n = 0
    for s in range(N_SPIRITS):
        for i in range(c.spirit_copies[s]):
            tmp[n] = <uint8_t>s
            n += 1
    shuffle_u8(&g.rng, tmp, n)
    for t in range(N_TEMPLES):
        for i in range(SPIRIT_STACK):
            g.spirit_stack[t][i] = tmp[t * SPIRIT_STACK + i]
        g.spirit_left[t] = SPIRIT_STACK
    # Food (I): the pile shuffled, 5 face up.
    n = 0
    for k in range(N_FOOD_KINDS):
        for i in range(c.food_count[k]):
            g.food_pile[n] = <uint8_t>k
            n += 1
    shuffle_u8(&g.rng, g.food_pile, n)
    g.food_left = <uint8_t>n
    fill_food(g)
    # Players (III.B-F, B2, B3).
    for i in range(n_players):
        seat = seat_at(g, i)
        p = &g.pl[seat]
        p.hp[SRC_START] = c.start_hp
        p.coins = <uint8_t>c.start_coins
        p.incense = <uint8_t>c.start_incense
        p.track = N_ROUNDS
        p.last_visit = -1
        p.advanced = advanced
        memset(p.area, NO_TILE, sizeof(p.area))
        memset(p.home, NO_TILE, sizeof(p.home))
        memset(p.balance, NO_TILE, sizeof(p.balance))
        for t in range(N_TEMPLES):
            k = c.set_kinds[i][t]
            p.area[k // N_ICONS][0] = <uint8_t>k
    for i in range(n_players):
        g.pl[seat_at(g, i)].balance[0][0] = <uint8_t>bal_deal(c, g, 0)
    if n_players == 2:
        ghost_sticks(c, g)

# =============================================================================
# Final scoring (VI, B34, B35)
# =============================================================================
cdef void final_scoring(const Comp* c, GameState* g) noexcept nogil:
    cdef int seat, s, d, j, tile, kinds, diff
    cdef Player* p
    cdef HomeMasks m
    for seat in range(g.n_players):
        p = &g.pl[seat]
        kinds = 0
        for s in range(N_SPIRITS):
            if p.spirits[s] > 0:
                kinds += 1
        p.hp[SRC_SPIRIT_TYPES] = <int16_t>(kinds * c.spirit_type_hp)
        home_masks(c, p, &m)
        diff = comfort_on(&m, m.occupied & c.side_cells[0]) - comfort_on(&m, m.occupied & c.side_cells[2])
        if diff < 0:
            diff = -diff
        p.hp[SRC_HARMONY] = <int16_t>(-diff * c.harmony_hp)
        p.hp[SRC_HALF_BALANCE] = 0
        for d in range(N_SIDES):
            for j in range(BAL_SLOTS):
                tile = p.balance[d][j]
                if tile != NO_TILE and pattern_met(c, &m, tile):
                    p.hp[SRC_HALF_BALANCE] += unscored_balance_hp(c, tile)
        p.hp[SRC_NIGHT_SPACES] = <int16_t>(-night_uncovered(c, p) * c.uncovered_hp)

cdef inline const int16_t* score_by_source(const Player* p) noexcept nogil:
    return p.hp

cdef inline bint beats(const Comp* c, const GameState* g, int x, int y) noexcept nogil:
    """Seat x ranks above seat y: more HP, then more comfort (VI, B35)."""
    cdef int hx = total_score(&g.pl[x]), hy = total_score(&g.pl[y])
    if hx != hy:
        return hx > hy
    return total_comfort(c, &g.pl[x]) > total_comfort(c, &g.pl[y])

cdef int rank_of(const Comp* c, const GameState* g, int seat) noexcept nogil:
    """1-based rank; players still tied after the comfort tie-break share a rank."""
    cdef int i, r = 1
    for i in range(g.n_players):
        if i != seat and beats(c, g, i, seat):
            r += 1
    return r

cdef int winner(const Comp* c, const GameState* g) noexcept nogil:
    """The lowest seat among those ranked first (the protocol's winner), -1 until the end."""
    cdef int seat
    if g.phase != PH_END:
        return -1
    for seat in range(g.n_players):
        if rank_of(c, g, seat) == 1:
            return seat
    return -1

cdef void returns(const Comp* c, const GameState* g, double* out) noexcept nogil:
    """1 to a sole winner, 1/k to each of k players sharing the victory (B35); 0 until the end."""
    cdef int i, k = 0
    for i in range(g.n_players):
        out[i] = 0.0
    if g.phase != PH_END:
        return
    for i in range(g.n_players):
        if rank_of(c, g, i) == 1:
            k += 1
    for i in range(g.n_players):
        if rank_of(c, g, i) == 1:
            out[i] = 1.0 / k

# =============================================================================
# Determinization: resample what no player can see (docs/bamboo_state.md)
# =============================================================================
cdef void reshuffle_unseen(uint8_t* pile, int base, int size, int top, int unseen, uint64_t* rng) noexcept nogil:
    cdef uint8_t tmp[N_BAL]
    cdef int i
    for i in range(unseen):
        tmp[i] = pile[base + (top + i) % size]
    sort_u8(tmp, unseen)
    shuffle_u8(rng, tmp, unseen)
    for i in range(unseen):
        pile[base + (top + i) % size] = tmp[i]

cdef void determinize(const Comp* c, GameState* g, int viewer, uint64_t seed) noexcept nogil:
    """Resamples the unseen part of every stack, the food pile's order, the hidden spirits and future chance: what
    no seat sees, so the same for every `viewer` (B37). Every hidden part is sorted first, so the result depends
    only on what is in view and on `seed`."""
    cdef uint64_t rng = seed
    cdef uint8_t pool[N_SPIRIT_TILES]
    cdef int k, s, t, i, n, seat, unseen
    for k in range(HOME_CATS):
        reshuffle_unseen(g.home_pile, c.home_base[k], c.home_size[k], g.home_top[k], g.home_unseen[k], &rng)
    for k in range(N_SIDES):
        reshuffle_unseen(g.bal_pile, c.bal_base[k], c.bal_size[k], g.bal_top[k], g.bal_unseen[k], &rng)
    sort_u8(g.food_pile, g.food_left)
    shuffle_u8(&rng, g.food_pile, g.food_left)
    n = 0
    for s in range(N_SPIRITS):
        unseen = c.spirit_copies[s] - g.spirit_gone[s]
        for seat in range(g.n_players):
            unseen -= g.pl[seat].spirits[s]
        for t in range(N_TEMPLES):
            if g.spirit_left[t] > 0 and g.spirit_stack[t][g.spirit_left[t] - 1] == s:
                unseen -= 1
        for i in range(unseen):
            pool[n] = <uint8_t>s
            n += 1
    shuffle_u8(&rng, pool, n)
    i = 0
    for t in range(N_TEMPLES):
        for k in range(g.spirit_left[t] - 1):
            g.spirit_stack[t][k] = pool[i]
            i += 1
    g.rng = splitmix_next(&rng)
    g.event_rng = splitmix_next(&rng)
