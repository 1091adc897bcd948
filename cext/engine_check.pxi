# Conservation laws, value ranges and cross-field consistency of a state: used by the tests on every
# state of random games and by State.from_dict on every loaded state. A state that passes can be played
# on without reading or writing outside its arrays and without a count or a score overflowing its field;
# the pending decisions are ones the rules could have offered (turns without anything to decide are
# skipped by settle() in game_flow.pxi). Reaching the state by legal play is not required. A loaded state
# must also keep its scores, counts and clocks far from their fields' limits (`loading`), so that no game
# played on from it can overflow them; play itself may then go past those load limits. check_state returns 0 when the state passes, else
# the first broken law (a BadState number; its text is INVARIANTS[number - 1] in engine.pyx).

cdef enum BadState:
    BAD_PLAYERS = 1, BAD_ROUND, BAD_TURN, BAD_ORDER, BAD_STACK, BAD_FRAME, BAD_FLAGS, BAD_DICE,
    BAD_TILE_LOW, BAD_TEMPLE, BAD_REGIONS, BAD_FISH, BAD_PERSONS, BAD_PERSON_PILE, BAD_TASKS,
    BAD_TASK_PILE, BAD_JEWELRY, BAD_GOD_CARDS, BAD_HUTS, BAD_PERSON_SPACES, BAD_PRIESTS, BAD_STATUS,
    BAD_CEREMONY, BAD_VP, BAD_COUNTS, BAD_GOD_TILES, BAD_UNUSED_SEAT, BAD_CLOCK

cdef enum:                      # limits of a loaded state
    VP_LIMIT = 10000            # total VP: a whole game adds far less than 32767 - 10000 to a source
    COUNT_LIMIT = 120           # offerings, shells, materials beside, behaviour counters (they stop at 255)
    CLOCK_LIMIT = 30000         # status clock and move count: a game adds fewer than 2,000

cdef inline bint mark_seen(uint8_t* seen, int tile, int n) noexcept nogil:
    if tile < 0 or tile >= n or seen[tile]: return False
    seen[tile] = 1
    return True

cdef inline bint is_permutation(const int8_t* seats, int P) noexcept nogil:
    """seats[0..P-1] hold 0..P-1 once each and the unused places hold -1."""
    cdef uint8_t seen[MAX_PLAYERS]
    cdef int i
    memset(seen, 0, sizeof(seen))
    for i in range(MAX_PLAYERS):
        if i < P and not mark_seen(seen, seats[i], P): return False
        if i >= P and seats[i] != -1: return False
    return True

cdef inline int base_frame(int phase) noexcept nogil:
    """The decision at the bottom of the stack of a phase (-1: phase A, where sub-decisions may replace it)."""
    if phase == PH_SETUP: return F_SETUP_HUT
    if phase == PH_B: return F_PHASE_B
    if phase == PH_A: return -1
    return phase_c_decision(phase)

cdef inline bint follows(int below, int kind, int phase) noexcept nogil:
    """Whether decision `kind` may sit directly on `below` (-1: at the bottom of the stack)."""
    if below == F_FIRE_STATUS: return kind == F_FIRE_GOD              # Fire Bonus: God first, then status
    if below == F_RED: return kind == F_MATERIAL                       # the material is placed before Red
    if below == F_PHASE_B:
        return (kind == F_EXPAND or kind == F_PERSON or kind == F_BUILD_TILE or kind == F_BUILD_PAIR or
                kind == F_FIRE_STATUS or kind == F_RED or kind == F_MATERIAL or kind == F_MATERIAL_ANY or
                kind == F_TAKE_GOD)
    if below != -1 and not (phase == PH_A and below == F_DIE): return False
    if phase == PH_SETUP: return kind == F_SETUP_HUT or kind == F_MATERIAL
    if phase == PH_A:                   # a die turn may wait below another turn (queued in a loaded state)
        return (kind == F_DIE or kind == F_HELPER or kind == F_TEMPLE or kind == F_BUILD_TILE or
                kind == F_BUILD_PAIR or kind == F_PERSON or kind == F_EXPAND or kind == F_FIRE_STATUS or
                kind == F_RED or kind == F_MATERIAL)
    return kind == base_frame(phase)

cdef bint frame_ok(const Comp* c, const GameState* g, const Frame* f) noexcept nogil:
    """The frame's arguments are in range and the premises its decision was offered on still hold."""
    cdef const Player* p = &g.pl[f.player]
    cdef int k = f.kind, a = f.a, b = f.b
    if k == F_HELPER or k == F_TEMPLE or k == F_BUILD_TILE:
        if a < 1 or a > 6 or b != 0: return False
        if k == F_TEMPLE: return priests_in_temple(g, f.player) < PRIESTS
        if k == F_BUILD_TILE: return has_material_pair(c, p)
        return True
    if k == F_EXPAND or k == F_PERSON:
        if a < 1 or a > 6 or b < 0 or b > 1: return False
        return k == F_EXPAND or (free_person_spaces(c, p) > 0 and p.n_persons < PERSON_SPACES)
    if k == F_BUILD_PAIR:
        return 0 <= a < N_BUILDINGS and b == 0 and not (p.built & (1 << a)) and has_material_pair(c, p)
    if k == F_RED:
        return 0 <= a < N_REGIONS and b == 0 and (p.regions & (1 << a)) and not (p.fish_scored & (1 << a))
    if k == F_MATERIAL:
        return 0 <= a < N_MATERIALS and b == 0
    if k == F_MATERIAL_ANY or k == F_TAKE_GOD:
        return 1 <= a <= 2 * PERSON_SPACES and b == 0
    return a == 0 and b == 0

cdef int check_stack(const Comp* c, const GameState* g) noexcept nogil:
    """Decisions stacked as play stacks them, so the stack stays short; a sub-decision is of the seat of
    the decision below it."""
    cdef int i, below = -1, most
    if g.phase == PH_END: return 0 if g.sp == 0 else BAD_STACK
    most = 1 if g.phase != PH_A and g.phase != PH_B else (MAX_PLAYERS + 2 if g.phase == PH_A else 3)
    if g.sp < 1 or g.sp > most: return BAD_STACK
    for i in range(g.sp):
        if g.stack[i].kind >= N_DECISIONS or not follows(below, g.stack[i].kind, g.phase): return BAD_STACK
        if g.stack[i].player < 0 or g.stack[i].player >= g.n_players: return BAD_STACK
        if below != -1 and below != F_DIE and g.stack[i].player != g.stack[i - 1].player: return BAD_STACK
        if not frame_ok(c, g, &g.stack[i]): return BAD_FRAME
        below = g.stack[i].kind
    return 0

cdef int check_flags(const Comp* c, const GameState* g) noexcept nogil:
    """God effects waiting for their use; phase B's ability bookkeeping."""
    cdef int top = g.stack[g.sp - 1].kind if g.sp else -1, sex, t, seat
    if g.blue > 1 or g.white > 1 or g.yellow > 1 or g.green_used > 1 or g.green_double > 1 or g.green_extra > 1:
        return BAD_FLAGS
    if (g.blue or g.white) and top != F_DIE: return BAD_FLAGS
    if g.yellow:
        if top != F_TASK and top != F_FINAL_TASKS: return BAD_FLAGS
        seat = g.stack[g.sp - 1].player
        for t in range(TASK_SLOTS):     # a Yellow God is only played for a task one unit short (ruling R1)
            if g.pl[seat].tasks[t] != NO_TILE and task_shortfall(c, g, seat, &g.pl[seat], g.pl[seat].tasks[t]) == 1:
                break
        else:
            return BAD_FLAGS
    for sex in range(N_SEXES):
        if g.ab_count[sex] > 2 or g.ab_types[sex] >= (1 << N_PERSON_TYPES): return BAD_FLAGS
    if g.phase == PH_B:
        if (g.green_double or g.green_extra) and not g.green_used: return BAD_FLAGS
        if g.green_double and (g.green_extra or g.sp != 1): return BAD_FLAGS
        for sex in range(N_SEXES):
            if popcount(g.ab_types[sex]) != g.ab_count[sex]: return BAD_FLAGS
            if g.ab_count[sex] == 2 and not g.green_used: return BAD_FLAGS
    return 0

cdef int check_dice(const GameState* g) noexcept nogil:
    cdef int s, d
    for s in range(MAX_PLAYERS):
        for d in range(N_DICE):
            if g.pl[s].dice[d] > 6: return BAD_DICE
    for d in range(N_ACTION_TILES):
        if g.tile_low[d] < 1 or g.tile_low[d] > 7: return BAD_TILE_LOW
    return 0

cdef int check_map(const Comp* c, const GameState* g) noexcept nogil:
    cdef int P = g.n_players, i, s
    cdef uint8_t seen[N_REGIONS]
    for i in range(TEMPLE_SPACES):
        if g.temple[i] < -1 or g.temple[i] >= P: return BAD_TEMPLE
    memset(seen, 0, sizeof(seen))
    for i in range(N_REGIONS):
        if not mark_seen(seen, g.fish_at[i], N_REGIONS): return BAD_FISH
    for i in range(N_REGIONS):
        if g.region_owner[i] < -1 or g.region_owner[i] >= P: return BAD_REGIONS
        if g.region_owner[i] >= 0 and not (g.pl[g.region_owner[i]].regions & (1 << i)): return BAD_REGIONS
    for s in range(P):
        if g.pl[s].regions >= (1 << N_REGIONS) or g.pl[s].fish_scored & ~g.pl[s].regions: return BAD_REGIONS
    return 0

cdef int check_persons(const GameState* g) noexcept nogil:
    """Each person tile at most once among piles, displays and boards."""
    cdef uint8_t seen[N_PERSON_TILES]
    cdef int sex, i, k, s
    memset(seen, 0, sizeof(seen))
    for sex in range(N_SEXES):
        if g.person_top[sex] > PERSONS_PER_SEX: return BAD_PERSON_PILE
        for i in range(g.person_top[sex], PERSONS_PER_SEX):
            if not mark_seen(seen, g.person_pile[sex][i], N_PERSON_TILES): return BAD_PERSONS
            if (g.person_pile[sex][i] >= PERSONS_PER_SEX) != sex: return BAD_PERSONS
        for i in range(DISPLAY_SIZE):
            k = g.person_display[sex][i]
            if k != NO_TILE and (not mark_seen(seen, k, N_PERSON_TILES) or (k >= PERSONS_PER_SEX) != sex):
                return BAD_PERSONS
    for s in range(g.n_players):
        if g.pl[s].n_persons > PERSON_SPACES: return BAD_PERSON_SPACES
        for i in range(g.pl[s].n_persons):
            if not mark_seen(seen, g.pl[s].persons[i], N_PERSON_TILES): return BAD_PERSONS
    return 0

cdef int check_tasks(const GameState* g) noexcept nogil:
    """Each task tile at most once among the parrot pile, the display and the players' slots."""
    cdef uint8_t seen[N_TASKS]
    cdef int i, s
    if g.task_top > N_PARROT_TASKS: return BAD_TASK_PILE
    memset(seen, 0, sizeof(seen))
    for i in range(g.task_top, N_PARROT_TASKS):
        if not mark_seen(seen, g.task_pile[i], N_TASKS): return BAD_TASKS
    for i in range(DISPLAY_SIZE):
        if g.task_display[i] != NO_TILE and not mark_seen(seen, g.task_display[i], N_TASKS): return BAD_TASKS
    for s in range(g.n_players):
        for i in range(TASK_SLOTS):
            if g.pl[s].tasks[i] != NO_TILE and not mark_seen(seen, g.pl[s].tasks[i], N_TASKS): return BAD_TASKS
    return 0

cdef int check_jewelry(const GameState* g) noexcept nogil:
    cdef uint8_t seen[N_JEWELRY]
    cdef int i, k, s
    memset(seen, 0, sizeof(seen))
    for i in range(N_ROUNDS):
        for k in range(JEWELRY_ROWS):
            if g.jewelry_display[i][k] != NO_TILE and not mark_seen(seen, g.jewelry_display[i][k], N_JEWELRY):
                return BAD_JEWELRY
    for s in range(g.n_players):
        if g.pl[s].n_jewelry > N_ROUNDS: return BAD_JEWELRY
        for i in range(g.pl[s].n_jewelry):
            if not mark_seen(seen, g.pl[s].jewelry[i], N_JEWELRY): return BAD_JEWELRY
    return 0

cdef int check_god_cards(const GameState* g) noexcept nogil:
    """12 cards of each colour between pile, display, discard and hands."""
    cdef int col, i, s, cards
    if g.deck_top > g.deck_end or g.deck_end > N_GOD_CARDS: return BAD_GOD_CARDS
    for i in range(g.deck_top, g.deck_end):
        if g.god_deck[i] >= N_COLOURS: return BAD_GOD_CARDS
    for i in range(GOD_DISPLAY_SIZE):
        if g.god_display[i] != NO_TILE and g.god_display[i] >= N_COLOURS: return BAD_GOD_CARDS
    for col in range(N_COLOURS):
        cards = g.discard[col]
        for i in range(g.deck_top, g.deck_end):
            if g.god_deck[i] == col: cards += 1
        for i in range(GOD_DISPLAY_SIZE):
            if g.god_display[i] == col: cards += 1
        for s in range(g.n_players):
            cards += g.pl[s].hand[col]
            if g.pl[s].known[col] > g.pl[s].hand[col]: return BAD_GOD_CARDS
        if cards != CARDS_PER_COLOUR: return BAD_GOD_CARDS
    return 0

cdef inline bint is_zero(const void* data, size_t n) noexcept nogil:
    cdef const uint8_t* b = <const uint8_t*>data
    cdef size_t i
    for i in range(n):
        if b[i]: return False
    return True

cdef int check_player(const Comp* c, const GameState* g, int s, bint loading) noexcept nogil:
    cdef const Player* p = &g.pl[s]
    cdef int i, cells = 0, total = 0
    if p.reg_huts + p.huts_12th + popcount(p.regions) != HUTS: return BAD_HUTS
    if free_person_spaces(c, p) < 0 or p.person_12th > 1 or (p.person_12th and p.huts_12th): return BAD_PERSON_SPACES
    if p.shifted >= (1 << p.n_persons): return BAD_PERSON_SPACES
    if priests_in_temple(g, s) > PRIESTS: return BAD_PRIESTS
    if p.status < 0 or p.status > STATUS_TOP or p.status_stamp > g.status_clock: return BAD_STATUS
    for i in range(CEREMONY_SPACES):
        if p.ceremony[i] > CER_BUILDING: return BAD_CEREMONY
        if p.ceremony[i] == CER_BUILDING: cells += 1
    if cells != 2 * popcount(p.built) or p.built >= (1 << N_BUILDINGS): return BAD_CEREMONY
    for i in range(N_SOURCES):
        if p.vp[i] < 0: return BAD_VP
        total += p.vp[i]
    if not loading: return 0
    if total > VP_LIMIT: return BAD_VP
    if (p.offerings > COUNT_LIMIT or p.shells > COUNT_LIMIT or p.god_tiles_played > COUNT_LIMIT or
            p.tasks_done > COUNT_LIMIT):
        return BAD_COUNTS
    for i in range(N_MATERIALS):
        if p.beside[i] > COUNT_LIMIT: return BAD_COUNTS
    for i in range(N_GOD_EFFECTS):
        if p.gods_played[i] > COUNT_LIMIT: return BAD_COUNTS
    for i in range(N_DIE_ACTIONS):
        if p.dice_placed[i] > COUNT_LIMIT: return BAD_COUNTS
    return 0

cdef int check_state(const Comp* c, const GameState* g, bint loading) noexcept nogil:
    cdef int P = g.n_players, s, code, tiles = 0
    if P < 2 or P > MAX_PLAYERS: return BAD_PLAYERS
    if g.round < 1 or g.round > N_ROUNDS or g.phase < PH_SETUP or g.phase > PH_END: return BAD_ROUND
    if (g.phase == PH_SETUP and g.round != 1) or (g.phase >= PH_FINAL and g.round != N_ROUNDS): return BAD_ROUND
    if not is_permutation(g.order, P) or not is_permutation(g.first_order, P): return BAD_ORDER
    if g.turn_idx < 0 or g.turn_idx > (0 if g.phase == PH_END else N_DICE * P if g.phase == PH_A else P):
        return BAD_TURN
    for s in range(P, MAX_PLAYERS):
        if not is_zero(&g.pl[s], sizeof(Player)): return BAD_UNUSED_SEAT
    if loading and (g.status_clock > CLOCK_LIMIT or g.n_moves > CLOCK_LIMIT): return BAD_CLOCK
    for s in range(P):                  # first the fields the stack's premises read
        code = check_player(c, g, s, loading)
        if code: return code
    code = check_map(c, g)
    if code: return code
    code = check_stack(c, g)
    if code: return code
    code = check_flags(c, g)
    if code: return code
    code = check_dice(g)
    if code: return code
    code = check_persons(g)
    if code: return code
    code = check_tasks(g)
    if code: return code
    code = check_jewelry(g)
    if code: return code
    code = check_god_cards(g)
    if code: return code
    # God tiles: one each at the start, and one leaves the temple pile at each round's scoring, won or not
    if g.temple_god_tiles > TEMPLE_GOD_TILES: return BAD_GOD_TILES
    for s in range(P):
        tiles += g.pl[s].god_tiles + g.pl[s].god_tiles_played
    if tiles > P + TEMPLE_GOD_TILES - g.temple_god_tiles: return BAD_GOD_TILES
    return 0
