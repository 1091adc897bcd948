# The laws of a Bamboo state (docs/bamboo_state.md, "What a loaded state must satisfy").
# check_state returns 0 when all hold, else the number (1-based) of the first broken law in INVARIANTS.

cdef int check_frame(const Comp* c, const GameState* g, int i) noexcept nogil:
    """The arguments of frame i are in range and the premise they were offered on still holds."""
    cdef const Frame* f = &g.stack[i]
    cdef const Player* p = &g.pl[f.player]
    cdef int k, n
    if f.kind == F_VISIT:                       # B9: only a seat with incense that has not passed visits
        if p.incense == 0 or g.passed >> f.player & 1:
            return 1
    elif f.kind == F_OFFER:
        if g.visit < 0 or not (1 <= f.a <= AREA_CAP) or not (0 <= f.b < N_TEMPLES) or i < 2:
            return 1
        if g.stack[i - 2].kind != F_ACTIVATE or f.a + g.sticks_placed != g.stack[i - 2].a or f.a > p.incense:
            return 1
        if not g.bakeneko and f.b > g.visit and p.coins < f.a * c.other_temple_coins:
            return 1
    elif f.kind == F_STALK:
        n = 0
        for k in range(AREA_CAP):
            if g.to_place[k] != NO_TILE:
                n += 1
        if g.visit < 0 or not (1 <= f.a <= AREA_CAP) or n != f.a or not (0 <= f.b < N_STALKS):
            return 1
        if (i + 1 >= g.sp or g.stack[i + 1].kind != F_OFFER) and g.sticks_placed != g.stack[i - 1].a:
            return 1                            # the offering is over: every stick of the visit is placed
        n = 0
        for k in range(f.b, N_STALKS):
            n += stalk_free(g, k)
        if n < f.a:
            return 1
    elif f.kind == F_SHOOT:
        if not (0 <= f.a < N_STALKS) or stalk_free(g, f.a) == 0 or g.to_place[0] == NO_TILE:
            return 1
    elif f.kind == F_ACTIVATE:
        if g.visit < 0 or not (0 <= f.a <= AREA_CAP):
            return 1
    elif f.kind == F_BALANCE:
        if not (1 <= f.a <= 2):
            return 1
    elif f.kind == F_HOME_SPACE:
        if not (0 <= f.a < N_HOME) or not can_place(c, p, f.a):
            return 1
    elif f.kind == F_RENEW_FOOD:
        if not (0 <= f.a <= 1):
            return 1
    elif f.kind == F_KEEP_SHOOT:
        if g.n_received == 0 or f.a != g.received[0] or not (0 <= f.a < N_KINDS):
            return 1
        if area_count(p, f.a // N_ICONS) < AREA_CAP:
            return 1
    elif f.kind == F_WAKE:
        if not (0 <= f.b < N_SPIRITS):
            return 1
    elif f.kind == F_FEED:
        if not (1 <= f.a <= HOME_CELLS * c.food_per_home_tile) or not (0 <= f.b <= N_FOOD_KINDS):
            return 1
        if f.a > home_tiles(p) * c.food_per_home_tile:
            return 1
    return 0

cdef int check_stack(const GameState* g) noexcept nogil:
    """One base decision of the phase, with the frames the phase stacks on it, all of one seat."""
    cdef int i, k0, k1, k2
    if not (0 <= g.sp <= 3):
        return 1
    for i in range(g.sp):
        if g.stack[i].player != g.stack[0].player or not (0 <= g.stack[i].player < g.n_players):
            return 1
        if g.stack[i].kind >= N_DECISIONS:
            return 1
    if g.phase == PH_END:
        return g.sp != 0
    if g.sp == 0:
        return 1
    k0 = g.stack[0].kind
    k1 = g.stack[1].kind if g.sp > 1 else -1
    k2 = g.stack[2].kind if g.sp > 2 else -1
    if g.phase == PH_SETUP:
        return not (g.sp == 1 and k0 == F_DRAFT)
    if g.phase == PH_SPRING:
        return not (g.sp == 1 and (k0 == F_GIFT or k0 == F_BALANCE or k0 == F_IMPROVE or k0 == F_HOME_SPACE
                                   or k0 == F_COOK))
    if g.phase == PH_WAKE:
        return not (g.sp == 1 and k0 == F_WAKE)
    if g.phase == PH_FEED:
        return not (g.sp == 1 and k0 == F_FEED)
    # Summer
    if g.sp == 1:
        return not (k0 == F_VISIT or k0 == F_ACTIVATE or k0 == F_KEEP_SHOOT)
    if k0 != F_ACTIVATE:
        return 1
    if g.sp == 2:
        return not (k1 == F_STALK or k1 == F_BALANCE or k1 == F_IMPROVE or k1 == F_HOME_SPACE or k1 == F_COOK
                    or k1 == F_RENEW_FOOD)
    return not (k1 == F_STALK and (k2 == F_OFFER or k2 == F_SHOOT))

cdef int check_state(const Comp* c, const GameState* g, bint loaded) noexcept nogil:
    cdef int P = g.n_players, seat, t, k, i, j, s, n, tile, placed, total, mover
    cdef int counts[N_KINDS]
    cdef uint8_t seen[N_BAL]
    cdef const Player* p
    if not (2 <= P <= MAX_PLAYERS):
        return 1
    if not (1 <= g.round <= N_ROUNDS) or not (PH_SETUP <= g.phase <= PH_END) or (g.phase == PH_SETUP and g.round != 1):
        return 2
    if g.phase == PH_END and g.round != N_ROUNDS:
        return 2
    if not (0 <= g.start_seat < P):
        return 2
    # turn
    if g.phase == PH_SETUP:
        n = DRAFTED * P
    elif g.phase == PH_SUMMER:
        n = P - 1
    elif g.phase == PH_END:
        n = 0
    else:
        n = P
    if not (0 <= g.turn_idx <= n):
        return 3
    if g.passed >> P or (g.passed and g.phase != PH_SUMMER) or g.stick_clock > 28 or (
            g.stick_clock and g.phase != PH_SUMMER):
        return 3
    if check_stack(g):
        return 4
    if g.sp and g.phase != PH_END:               # the seat deciding is the one the phase has reached
        n = g.turn_idx if g.phase == PH_SUMMER else g.turn_idx - 1
        if n < 0 or g.stack[0].player != seat_at(g, n % P):
            return 3
    for i in range(g.sp):
        if check_frame(c, g, i):
            return 5
    mover = g.stack[0].player if g.sp else -1
    # the turn in progress
    n = g.sp > 0 and g.phase == PH_SUMMER and g.stack[0].kind == F_ACTIVATE
    if (g.visit >= 0) != n or g.visit >= N_TEMPLES:
        return 6
    placed = 0
    for s in range(N_STALKS):
        for j in range(STALK_NEW):
            if g.stalk_new[s][j] != NO_TILE:
                if g.stalk_new[s][j] >= N_KINDS or (j > 0 and g.stalk_new[s][j - 1] == NO_TILE):
                    return 6
                placed += 1
    total = 0
    for i in range(N_ICONS):
        total += g.unactivated[i]
    for i in range(AREA_CAP):
        if g.to_place[i] != NO_TILE and (g.to_place[i] >= N_KINDS or (i > 0 and g.to_place[i - 1] == NO_TILE)):
            return 6
    if not n and (placed or total or g.to_place[0] != NO_TILE or g.sticks_placed or g.kitsune or g.bakeneko):
        return 6
    if (g.to_place[0] != NO_TILE) != (g.sp >= 2 and g.stack[1].kind == F_STALK):    # shoots wait on the stalks
        return 6
    if total > placed or g.kitsune > 1 or g.bakeneko > 1 or g.sticks_placed > AREA_CAP:
        return 6
    if g.n_received > AREA_CAP or (g.n_received > 0) != (g.sp > 0 and g.stack[0].kind == F_KEEP_SHOOT):
        return 6
    for i in range(AREA_CAP):
        if (i < g.n_received) != (g.received[i] != NO_TILE) or (i < g.n_received and g.received[i] >= N_KINDS):
            return 6
    # incense
    for seat in range(MAX_PLAYERS):
        if seat >= P:
            continue
        p = &g.pl[seat]
        n = p.incense + p.track
        for t in range(N_TEMPLES):
            n += g.incense[t][seat]
        if n != INCENSE:
            return 7
        k = N_ROUNDS - g.round
        if g.phase == PH_SETUP or (g.phase == PH_SPRING and g.turn_idx <= ((seat - g.start_seat + P) % P)):
            k += 1
        if g.phase == PH_SETUP:
            k = N_ROUNDS
        if p.track != k:
            return 7
        if g.phase != PH_SUMMER:
            for t in range(N_TEMPLES):
                if g.incense[t][seat]:
                    return 7
        if g.passed & (1 << seat) and p.incense > 0:
            for t in range(N_TEMPLES):
                if visit_ok(p, t):
                    return 7
    for t in range(N_TEMPLES):
        if g.incense_top[t][GHOST] or (P != 2 and g.incense[t][GHOST]):
            return 7
        for seat in range(N_SEATS):
            if (seat >= P and seat != GHOST) and (g.incense[t][seat] or g.incense_top[t][seat]):
                return 7
            if seat < P and ((g.incense[t][seat] == 0) != (g.incense_top[t][seat] == 0)
                             or g.incense_top[t][seat] > g.stick_clock):
                return 7
            for j in range(seat):
                if g.incense_top[t][seat] and g.incense_top[t][seat] == g.incense_top[t][j]:
                    return 7
    n = 0
    for t in range(N_TEMPLES):
        n += g.incense[t][GHOST]
    if n > GHOST_STICKS:
        return 7
    n = 1 if g.visit >= 0 and g.sticks_placed == 0 else 0   # each turn places a stick: the first may be pending
    for t in range(N_TEMPLES):
        for seat in range(P):
            n += g.incense[t][seat]
    if g.stick_clock > n:
        return 7
    if g.visit >= 0:                    # the turn in progress: its stamp is its own (do_visit moved the clock on)
        n = 0
        for t in range(N_TEMPLES):
            for seat in range(P):
                if g.incense_top[t][seat] == g.stick_clock:
                    if seat != mover:
                        return 8
                    n += g.incense[t][seat]
        if g.stick_clock == 0 or n < g.sticks_placed or (n > 0 and g.sticks_placed == 0):
            return 8
    # shoots
    memset(counts, 0, sizeof(counts))
    for s in range(N_STALKS):
        for j in range(STALK_DEPTH):
            if g.stalk[s][j] >= N_KINDS:
                return 9
            counts[g.stalk[s][j]] += 1
        for j in range(STALK_NEW):
            if g.stalk_new[s][j] != NO_TILE:
                counts[g.stalk_new[s][j]] += 1
    for i in range(AREA_CAP):
        if g.to_place[i] != NO_TILE:
            counts[g.to_place[i]] += 1
        if g.received[i] != NO_TILE:
            counts[g.received[i]] += 1
    n = 0
    for i in range(DRAFT_MAX):
        if g.draft[i] != NO_TILE:
            if g.draft[i] >= N_KINDS or g.phase != PH_SETUP:
                return 9
            counts[g.draft[i]] += 1
            n += 1
    if g.phase == PH_SETUP and n != DRAFTED * P - g.turn_idx + (1 if g.sp else 0):
        return 9
    for seat in range(P):
        p = &g.pl[seat]
        n = 0
        for t in range(N_TEMPLES):
            for j in range(AREA_CAP):
                k = p.area[t][j]
                if k != NO_TILE:
                    if k >= N_KINDS or (j > 0 and p.area[t][j - 1] == NO_TILE):
                        return 9
                    counts[k] += 1
                    n += 1
        if seat == mover and g.phase == PH_SUMMER:
            for i in range(AREA_CAP):
                n += (g.to_place[i] != NO_TILE) + (g.received[i] != NO_TILE)
            n += placed
        if g.phase == PH_SETUP:
            k = SET_SHOOTS
            for i in range(g.turn_idx - (1 if g.sp else 0)):
                if seat_at(g, i % P) == seat:
                    k += 1
        else:
            k = PLAYER_SHOOTS
        if n != k:
            return 9
    for k in range(N_KINDS):
        if counts[k] > c.kind_pieces[k]:
            return 9
    # home tiles
    memset(seen, 0, sizeof(seen))
    for k in range(HOME_CATS):
        if g.home_left[k] > c.home_size[k] or g.home_unseen[k] > g.home_left[k] or g.home_top[k] >= c.home_size[k]:
            return 10
        for i in range(g.home_left[k]):
            tile = g.home_pile[c.home_base[k] + (g.home_top[k] + i) % c.home_size[k]]
            if tile >= N_HOME or seen[tile] or c.home_cat[tile] != k:
                return 10
            seen[tile] = 1
        for i in range(HOME_MARKET):
            tile = g.home_market[k][i]
            if tile == NO_TILE:
                continue
            if tile >= N_HOME or seen[tile] or c.home_cat[tile] != k or (i > 0 and g.home_market[k][i - 1] == NO_TILE):
                return 10
            seen[tile] = 1
    for seat in range(P):
        p = &g.pl[seat]
        for i in range(HOME_CELLS):
            tile = p.home[i]
            if tile == NO_TILE:
                continue
            if tile >= N_HOME or seen[tile]:
                return 10
            if p.advanced and c.night_type[i] >= 0 and c.night_type[i] != c.home_type[tile]:
                return 10
            seen[tile] = 1
    for i in range(g.sp):
        if g.stack[i].kind == F_HOME_SPACE:
            if seen[g.stack[i].a]:
                return 10
            seen[g.stack[i].a] = 1
    for tile in range(N_HOME):
        if seen[tile] != (0 if (P == 2 and c.home_three_plus[tile]) else 1):
            return 10
    # balance tiles
    memset(seen, 0, sizeof(seen))
    n = 0
    for k in range(N_SIDES):
        if g.bal_left[k] > c.bal_size[k] or g.bal_unseen[k] > g.bal_left[k] or g.bal_top[k] >= c.bal_size[k]:
            return 11
        for i in range(g.bal_left[k]):
            tile = g.bal_pile[c.bal_base[k] + (g.bal_top[k] + i) % c.bal_size[k]]
            if tile >= N_BAL or seen[tile] or c.bal_side[tile] != k:
                return 11
            seen[tile] = 1
            n += 1
        for i in range(BAL_MARKET):
            tile = g.bal_market[k][i]
            if tile == NO_TILE:
                continue
            if tile >= N_BAL or seen[tile] or c.bal_side[tile] != k or (i > 0 and g.bal_market[k][i - 1] == NO_TILE):
                return 11
            seen[tile] = 1
            n += 1
    for seat in range(P):
        p = &g.pl[seat]
        k = 0
        for tile in range(BAL_BYTES * 8):
            if p.scored[tile >> 3] >> (tile & 7) & 1:
                if tile >= N_BAL or seen[tile]:
                    return 11
                seen[tile] = 1
                k += 1
        if k != p.n_scored:
            return 11
        n += k
        for k in range(N_SIDES):
            for j in range(BAL_SLOTS):
                tile = p.balance[k][j]
                if tile == NO_TILE:
                    continue
                if tile >= N_BAL or seen[tile] or c.bal_side[tile] != k or (j > 0 and p.balance[k][j - 1] == NO_TILE):
                    return 11
                seen[tile] = 1
                n += 1
    if n != N_BAL:
        return 11
    # spirits
    n = 0
    for s in range(N_SPIRITS):
        k = g.spirit_gone[s]
        for seat in range(P):
            p = &g.pl[seat]
            if p.asleep[s] > p.spirits[s]:
                return 12
            k += p.spirits[s]
        for t in range(N_TEMPLES):
            for i in range(g.spirit_left[t] if g.spirit_left[t] <= SPIRIT_STACK else 0):
                if g.spirit_stack[t][i] == s:
                    k += 1
        if k > c.spirit_copies[s]:
            return 12
        n += k
    if n != N_TEMPLES * SPIRIT_STACK:
        return 12
    for t in range(N_TEMPLES):
        k = N_ROUNDS + 1 - g.round
        if g.phase == PH_WAKE or g.phase == PH_FEED or g.phase == PH_END:
            k -= 1
        if g.spirit_left[t] != k:
            return 12
        for i in range(SPIRIT_STACK):
            if (i < k) != (g.spirit_stack[t][i] != NO_TILE) or (i < k and g.spirit_stack[t][i] >= N_SPIRITS):
                return 12
    # food
    if g.food_left > N_FOOD:
        return 13
    for i in range(g.food_left):
        if g.food_pile[i] >= N_FOOD_KINDS:
            return 13
    for i in range(g.food_left, N_FOOD):
        if g.food_pile[i]:
            return 13
    n = 0
    for k in range(N_FOOD_KINDS):
        total = g.food_display[k] + g.food_discard[k]
        n += g.food_display[k]
        for i in range(g.food_left):
            total += g.food_pile[i] == k
        for seat in range(P):
            total += g.pl[seat].food[k]
        if total != c.food_count[k]:
            return 13
    if n > FOOD_DISPLAY or (n == 0 and g.food_left + g.food_discard[0] + g.food_discard[1] + g.food_discard[2]):
        return 13
    # gifts
    n = popcount(g.gifts_up)
    if g.gifts_up >> N_GIFTS or (g.phase != PH_SPRING and g.gifts_up):
        return 14
    if g.phase == PH_SPRING and n != P - g.turn_idx + (1 if g.sp and g.stack[0].kind == F_GIFT else 0):
        return 14
    # scores
    for seat in range(P):
        p = &g.pl[seat]
        for k in range(N_SOURCES):
            if (k == SRC_HUNGER or k == SRC_HARMONY or k == SRC_NIGHT_SPACES) != (p.hp[k] < 0) and p.hp[k] != 0:
                return 15
            if k >= SRC_SPIRIT_TYPES and p.hp[k] and g.phase != PH_END:
                return 15
    # unused seats
    for seat in range(P, MAX_PLAYERS):
        p = &g.pl[seat]
        for i in range(sizeof(Player)):
            if (<const uint8_t*>p)[i]:
                return 16
    # per-player ranges
    for seat in range(P):
        p = &g.pl[seat]
        if p.last_visit < -1 or p.last_visit >= N_TEMPLES or p.advanced > 1:
            return 17
    if loaded:
        for seat in range(P):
            p = &g.pl[seat]
            if total_score(p) > 10000 or total_score(p) < -10000 or p.coins > 200:
                return 18
            for i in range(N_COUNTERS):
                if (&p.turns)[i] > 120:
                    return 18
        if g.n_moves > 30000:
            return 18
    return 0
