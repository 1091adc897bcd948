# Conservation laws and value ranges of a state: used by the tests and by State.from_dict.
# check_state returns 0 when the state is consistent, else the number of the first broken law
# (its text is INVARIANTS[number - 1] in engine.pyx).

cdef inline bint mark_seen(uint8_t* seen, int tile, int n) noexcept nogil:
    if tile < 0 or tile >= n or seen[tile]: return False
    seen[tile] = 1
    return True

cdef int check_state(const Comp* c, const GameState* g) noexcept nogil:
    cdef int P = g.n_players, s, i, k, col, sex, cards, god_tiles = g.temple_god_tiles
    cdef int buildings_cells
    cdef uint8_t seen[N_PERSON_TILES]
    cdef int in_temple
    cdef const Player* p
    if P < 2 or P > MAX_PLAYERS: return 1
    if g.round < 1 or g.round > N_ROUNDS or g.phase < PH_SETUP or g.phase > PH_END: return 2
    if g.sp < 0 or g.sp > STACK_MAX or (g.sp == 0) != (g.phase == PH_END): return 3
    for i in range(g.sp):
        if g.stack[i].kind >= N_DECISIONS or g.stack[i].player < 0 or g.stack[i].player >= P: return 3
    memset(seen, 0, sizeof(seen))
    for i in range(P):
        if not mark_seen(seen, g.order[i], P): return 4
    memset(seen, 0, sizeof(seen))
    for i in range(P):
        if not mark_seen(seen, g.first_order[i], P): return 4
    for i in range(N_ACTION_TILES):
        if g.tile_low[i] < 1 or g.tile_low[i] > 7: return 5
    for i in range(TEMPLE_SPACES):
        if g.temple[i] < -1 or g.temple[i] >= P: return 6
    memset(seen, 0, sizeof(seen))
    for i in range(N_REGIONS):
        if g.region_owner[i] < -1 or g.region_owner[i] >= P: return 7
        if g.region_owner[i] >= 0 and not (g.pl[g.region_owner[i]].regions & (1 << i)): return 7
        if not mark_seen(seen, g.fish_at[i], N_REGIONS): return 8
    # person tiles: each at most once among piles, displays and boards
    memset(seen, 0, sizeof(seen))
    for sex in range(N_SEXES):
        if g.person_top[sex] > PERSONS_PER_SEX: return 9
        for i in range(g.person_top[sex], PERSONS_PER_SEX):
            if not mark_seen(seen, g.person_pile[sex][i], N_PERSON_TILES): return 9
            if (g.person_pile[sex][i] >= PERSONS_PER_SEX) != sex: return 9
        for i in range(DISPLAY_SIZE):
            k = g.person_display[sex][i]
            if k != NO_TILE and (not mark_seen(seen, k, N_PERSON_TILES) or (k >= PERSONS_PER_SEX) != sex): return 9
    for s in range(P):
        for i in range(g.pl[s].n_persons):
            if not mark_seen(seen, g.pl[s].persons[i], N_PERSON_TILES): return 9
    # task tiles
    memset(seen, 0, sizeof(seen))
    if g.task_top > N_PARROT_TASKS: return 10
    for i in range(g.task_top, N_PARROT_TASKS):
        if not mark_seen(seen, g.task_pile[i], N_TASKS): return 10
    for i in range(DISPLAY_SIZE):
        if g.task_display[i] != NO_TILE and not mark_seen(seen, g.task_display[i], N_TASKS): return 10
    for s in range(P):
        for i in range(TASK_SLOTS):
            if g.pl[s].tasks[i] != NO_TILE and not mark_seen(seen, g.pl[s].tasks[i], N_TASKS): return 10
    # jewelry tiles
    memset(seen, 0, sizeof(seen))
    for i in range(N_ROUNDS):
        for k in range(JEWELRY_ROWS):
            if g.jewelry_display[i][k] != NO_TILE and not mark_seen(seen, g.jewelry_display[i][k], N_JEWELRY): return 11
    for s in range(P):
        if g.pl[s].n_jewelry > N_ROUNDS: return 11
        for i in range(g.pl[s].n_jewelry):
            if not mark_seen(seen, g.pl[s].jewelry[i], N_JEWELRY): return 11
    # God cards: 12 of each colour between pile, display, discard and hands
    if g.deck_top > g.deck_end or g.deck_end > N_GOD_CARDS: return 12
    for col in range(N_COLOURS):
        cards = g.discard[col]
        for i in range(g.deck_top, g.deck_end):
            if g.god_deck[i] == col: cards += 1
        for i in range(GOD_DISPLAY_SIZE):
            if g.god_display[i] == col: cards += 1
        for s in range(P):
            cards += g.pl[s].hand[col]
            if g.pl[s].known[col] > g.pl[s].hand[col]: return 12
        if cards != CARDS_PER_COLOUR: return 12
    for i in range(g.deck_top, g.deck_end):
        if g.god_deck[i] >= N_COLOURS: return 12
    for i in range(GOD_DISPLAY_SIZE):
        if g.god_display[i] != NO_TILE and g.god_display[i] >= N_COLOURS: return 12
    for s in range(P):
        p = &g.pl[s]
        # 12 huts: player board + map
        if p.reg_huts + p.huts_12th + popcount(p.regions) != HUTS or p.regions >= (1 << N_REGIONS): return 13
        if free_person_spaces(c, p) < 0 or p.n_persons > PERSON_SPACES or p.person_12th > 1: return 14
        if p.person_12th and p.huts_12th: return 14
        if p.shifted >= (1 << p.n_persons): return 14
        in_temple = priests_in_temple(g, s)
        if in_temple > PRIESTS: return 15
        if p.status < 0 or p.status > STATUS_TOP: return 16
        for i in range(N_DICE):
            if p.dice[i] > 6: return 17
        buildings_cells = 0
        for i in range(CEREMONY_SPACES):
            if p.ceremony[i] > CER_BUILDING: return 18
            if p.ceremony[i] == CER_BUILDING: buildings_cells += 1
        if buildings_cells != 2 * popcount(p.built) or p.built >= (1 << N_BUILDINGS): return 18
        for i in range(N_SOURCES):
            if p.vp[i] < 0: return 19
        if p.tasks_done > N_ROUNDS + TASK_SLOTS: return 10
        if p.fish_scored & ~p.regions: return 20
        god_tiles += p.god_tiles + p.god_tiles_played
    if god_tiles > TEMPLE_GOD_TILES + P: return 21
    return 0
