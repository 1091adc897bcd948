# Bora Bora game flow: set-up, legal moves per pending decision, transitions, phase C, end.

include "game_flow.pxi"

# =============================================================================
# Gains shared by several actions
# =============================================================================
cdef inline void move_status(GameState* g, Player* p, int steps) noexcept nogil:
    """Status track: a marker landing on an occupied space goes on top (rulebook, Helper)."""
    p.status = min(STATUS_TOP, p.status + steps)
    g.status_clock += 1
    p.status_stamp = g.status_clock

cdef inline int draw_god(GameState* g) noexcept nogil:
    """Top card of the draw pile; the discard pile is reshuffled when it runs out (C#22)."""
    cdef int col, k, n = 0
    if g.deck_top == g.deck_end:
        for col in range(N_COLOURS):
            for k in range(g.discard[col]):
                g.god_deck[n] = col
                n += 1
            g.discard[col] = 0
        if n == 0:
            return -1
        shuffle_u8(&g.rng, g.god_deck, n)
        g.deck_top = 0
        g.deck_end = n
    g.deck_top += 1
    return g.god_deck[g.deck_top - 1]

cdef inline void take_god_card(GameState* g, Player* p, int action) noexcept nogil:
    cdef int col, i
    if action == A_GOD_DECK:
        col = draw_god(g)
        if col >= 0: p.hand[col] += 1
        return
    i = action - A_GOD_DISPLAY
    col = g.god_display[i]
    p.hand[col] += 1
    p.known[col] += 1          # everyone saw it taken face up
    col = draw_god(g)          # refill at once (Helper: God cards)
    g.god_display[i] = NO_TILE if col < 0 else col

cdef inline void gain_material(const Comp* c, GameState* g, int seat, int m) noexcept nogil:
    """A material goes on a free matching ceremony space, else beside the board (Helper, C#8)."""
    cdef Player* p = &g.pl[seat]
    cdef int s, free = 0, last = -1
    for s in range(CEREMONY_SPACES):
        if p.ceremony[s] == CER_EMPTY and c.ceremony_material[s] == m:
            free += 1
            last = s
    if free == 0:
        gain_u8(&p.beside[m], 1)
    elif free == 1:
        p.ceremony[last] = CER_MATERIAL
    else:
        push(g, F_MATERIAL, seat, m, 0)

cdef inline void push_fire_bonus(GameState* g, int seat) noexcept nogil:
    """Fire Bonus: (God card or offering) and (status step or shell) (C#14)."""
    push(g, F_FIRE_STATUS, seat, 0, 0)
    push(g, F_FIRE_GOD, seat, 0, 0)

cdef void place_hut(const Comp* c, GameState* g, int seat, int r, bint initial) noexcept nogil:
    """Expand onto region r (rulebook "Expand", C#7-C#9); `initial` is the set-up hut (C#27)."""
    cdef Player* p = &g.pl[seat]
    cdef int res = c.region_resource[r]
    if p.reg_huts > 0:          # ruling R3: the 12th space is emptied last
        p.reg_huts -= 1
    else:
        p.huts_12th -= 1
    g.region_owner[r] = seat    # a hut already there moves beside the space, still in the region
    p.regions |= <uint16_t>(1 << r)
    if res == N_MATERIALS:
        gain_u8(&p.offerings, 1)    # ruling R13: this offering may already pay for the Red God
    if not initial and not (p.fish_scored & (1 << r)) and can_pay_any(p, GOD_RED):
        push(g, F_RED, seat, r, 0)          # decided after the material placement (stack order)
    if res != N_MATERIALS:
        gain_material(c, g, seat, res)

cdef void place_priest(GameState* g, int seat, int t) noexcept nogil:
    """Temple: occupants shift along the arrows (to the right); the last may drop off (C#12)."""
    cdef int j = t
    while j < TEMPLE_SPACES - 1 and g.temple[j] != -1:
        j += 1
    while j > t:
        g.temple[j] = g.temple[j - 1]
        j -= 1
    g.temple[t] = seat

cdef void take_person(const Comp* c, GameState* g, Player* p, int sex, int pos) noexcept nogil:
    cdef int tile = g.person_display[sex][pos]
    g.person_display[sex][pos] = NO_TILE
    if c.regular_spaces - p.reg_huts - (p.n_persons - p.person_12th) <= 0:
        p.person_12th = 1       # ruling R4: the 12th space takes a person only when no other is free
    p.persons[p.n_persons] = tile
    p.n_persons += 1

# =============================================================================
# Set-up (rulebook "Board and Common Components Setup", "Player Setup"; C#27-C#29)
# =============================================================================
cdef void roll_dice(GameState* g) noexcept nogil:
    cdef int s, d
    for s in range(g.n_players):
        for d in range(N_DICE):
            g.pl[s].dice[d] = roll_die(g)
    for d in range(N_ACTION_TILES):
        g.tile_low[d] = 7

cdef void fill_displays(GameState* g) noexcept nogil:
    """Six new men and women and players + 2 tasks each round; leftovers leave (C#29). A pile never runs
    out in play; one shortened in a loaded state leaves display positions empty."""
    cdef int sex, i
    for sex in range(N_SEXES):
        for i in range(DISPLAY_SIZE):
            if g.person_top[sex] < PERSONS_PER_SEX:
                g.person_display[sex][i] = g.person_pile[sex][g.person_top[sex]]
                g.person_top[sex] += 1
            else:
                g.person_display[sex][i] = NO_TILE
    for i in range(DISPLAY_SIZE):
        if i < g.n_players + 2 and g.task_top < N_PARROT_TASKS:
            g.task_display[i] = g.task_pile[g.task_top]
            g.task_top += 1
        else:
            g.task_display[i] = NO_TILE

cdef void setup(const Comp* c, GameState* g, int n_players, uint64_t seed) noexcept nogil:
    cdef int i, s, k, n_crane = 0, n_parrot = 0, col
    cdef uint8_t crane[N_CRANE_TASKS]
    cdef uint8_t perm[N_JEWELRY]
    cdef Player* p
    memset(g, 0, sizeof(GameState))
    g.rng = seed
    g.dice_rng = seed ^ <uint64_t>0xD1CE5EED0F00D5E1
    g.n_players = n_players
    g.round = 1
    g.phase = PH_SETUP
    for i in range(N_REGIONS):
        g.region_owner[i] = -1
        perm[i] = i
    for i in range(TEMPLE_SPACES):
        g.temple[i] = -1
    for i in range(N_ACTION_TILES):
        g.tile_low[i] = 7
    for i in range(MAX_PLAYERS):
        g.order[i] = i if i < n_players else -1
    shuffle_u8(&g.rng, <uint8_t*>g.order, n_players)          # turn order tiles drawn at random
    for i in range(MAX_PLAYERS):
        g.first_order[i] = g.order[i]
    shuffle_u8(&g.rng, perm, N_REGIONS)                          # fish tiles
    for i in range(N_REGIONS):
        g.fish_at[i] = perm[i]
    for s in range(N_SEXES):
        for i in range(PERSONS_PER_SEX):
            g.person_pile[s][i] = s * PERSONS_PER_SEX + i
        shuffle_u8(&g.rng, g.person_pile[s], PERSONS_PER_SEX)
    for i in range(N_TASKS):
        if c.task_crane[i]:
            crane[n_crane] = i
            n_crane += 1
        else:
            g.task_pile[n_parrot] = i
            n_parrot += 1
    shuffle_u8(&g.rng, crane, N_CRANE_TASKS)
    shuffle_u8(&g.rng, g.task_pile, N_PARROT_TASKS)
    for i in range(N_JEWELRY):
        perm[i] = i
    shuffle_u8(&g.rng, perm, N_JEWELRY)
    for i in range(N_JEWELRY):
        g.jewelry_display[i // JEWELRY_ROWS][i % JEWELRY_ROWS] = perm[i]
    g.temple_god_tiles = TEMPLE_GOD_TILES
    for i in range(N_GOD_CARDS):
        g.god_deck[i] = i // CARDS_PER_COLOUR
    shuffle_u8(&g.rng, g.god_deck, N_GOD_CARDS)
    g.deck_end = N_GOD_CARDS
    for i in range(GOD_DISPLAY_SIZE):
        g.god_display[i] = draw_god(g)
    for k in range(n_players):
        s = g.order[k]
        p = &g.pl[s]
        p.vp[SRC_START] = c.start_vp[k]
        p.status_stamp = n_players - k            # start player's marker on top
        p.huts_12th = c.start_huts_12th
        p.reg_huts = HUTS - c.start_huts_12th
        p.offerings = 2
        p.god_tiles = 1
        for i in range(2):
            col = draw_god(g)
            p.hand[col] += 1
        p.tasks[0] = crane[k]
        p.tasks[1] = g.task_pile[g.task_top]
        p.tasks[2] = g.task_pile[g.task_top + 1]
        g.task_top += 2
    g.status_clock = n_players
    fill_displays(g)

# =============================================================================
# Legal moves, one generator per pending decision (sorted ascending ids)
# =============================================================================
cdef inline int add_god_plays(const Player* p, int effect, int* out, int n) noexcept nogil:
    cdef int pay
    for pay in range(N_PAYMENTS):
        if can_pay(p, effect, pay):
            out[n] = A_GOD + effect * N_PAYMENTS + pay
            n += 1
    return n

cdef inline bint die_action_feasible(const Comp* c, const GameState* g, int seat, int act, int strength) noexcept nogil:
    """An action tile may be chosen only if its action can be carried out (C#5)."""
    cdef const Player* p = &g.pl[seat]
    if act == ACT_FISH or act == ACT_HELPER: return True
    if act == ACT_TEMPLE: return can_place_priest(c, g, seat, strength)
    if act == ACT_BUILD: return can_build(c, p, strength)
    if act == ACT_MAN: return can_take_person(c, g, p, 0, strength)
    if act == ACT_WOMAN: return can_take_person(c, g, p, 1, strength)
    return reachable(c, p, act - ACT_LAND, strength) != 0

cdef int legal_die(const Comp* c, const GameState* g, int seat, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[seat]
    cdef int n = 0, v, d, act, strength
    cdef bint have, blue_helps = False, white_helps = False
    for v in range(1, 7):
        have = False
        for d in range(N_DICE):
            if p.dice[d] == v: have = True
        if not have: continue
        if v < 6: white_helps = True
        strength = 6 if g.white else v
        for act in range(N_DIE_ACTIONS):
            if not die_action_feasible(c, g, seat, act, strength): continue
            if act != ACT_FISH and not g.blue and v >= g.tile_low[action_tile(g.n_players, act)]:
                blue_helps = True       # strictly-lower rule (C#1); Blue God lifts it (C#2)
                continue
            out[n] = A_PLACE + (v - 1) * N_DIE_ACTIONS + act
            n += 1
    if not g.blue and blue_helps:
        n = add_god_plays(p, GOD_BLUE, out, n)
    if not g.white and white_helps:
        n = add_god_plays(p, GOD_WHITE, out, n)
    return n

cdef inline int legal_god_card(const GameState* g, int* out, int n) noexcept nogil:
    cdef int i
    if god_deck_available(g):
        out[n] = A_GOD_DECK
        n += 1
    for i in range(GOD_DISPLAY_SIZE):
        if g.god_display[i] != NO_TILE:
            out[n] = A_GOD_DISPLAY + i
            n += 1
    return n

cdef inline int legal_material(const Comp* c, const Player* p, int only, int* out, int n) noexcept nogil:
    """Free ceremony spaces (of material `only`, or any if -1); beside only if none matches."""
    cdef int s, m
    cdef int free_of[N_MATERIALS]
    free_of[0] = free_of[1] = free_of[2] = 0
    for s in range(CEREMONY_SPACES):
        if p.ceremony[s] == CER_EMPTY:
            free_of[c.ceremony_material[s]] += 1
            if only < 0 or c.ceremony_material[s] == only:
                out[n] = A_SPACE + s
                n += 1
    for m in range(N_MATERIALS):
        if free_of[m] == 0 and (only < 0 or m == only):
            out[n] = A_BESIDE + m
            n += 1
    return n

cdef int legal_helper(const Comp* c, const GameState* g, int seat, int points, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[seat]
    cdef int n = 0, i, t
    if points >= c.helper_cost[HELP_MATERIAL]:
        n = legal_material(c, p, -1, out, n)
    if points >= c.helper_cost[HELP_GOD_CARD]:
        n = legal_god_card(g, out, n)
    if points >= c.helper_cost[HELP_OFFERING]:
        out[n] = A_OFFERING; n += 1
    if points >= c.helper_cost[HELP_VP]:
        out[n] = A_VP; n += 1
    if points >= c.helper_cost[HELP_MOVE_HUT] and can_move_hut(p):
        out[n] = A_MOVE_HUT; n += 1
    for i in range(p.n_persons):
        t = p.persons[i]
        if p.shifted & (1 << i): continue
        if points >= c.helper_cost[HELP_SHELLS if t >= PERSONS_PER_SEX else HELP_TATTOO]:
            out[n] = A_SHIFT + i; n += 1
    out[n] = A_DONE
    return n + 1

cdef inline int ability_strength(int ptype, int count) noexcept nogil:
    """Phase B strengths: paths 2/4/any, take & build as die 3/6, others the count (rulebook)."""
    if ptype == PT_LAND or ptype == PT_WATER: return min(6, 2 * count)
    if ptype == PT_WOMAN or ptype == PT_MAN or ptype == PT_BUILD: return 3 if count == 1 else 6
    return count

cdef bint ability_usable(const Comp* c, const GameState* g, int seat, int sex, int ptype, bint doubled) noexcept nogil:
    cdef const Player* p = &g.pl[seat]
    cdef int n = ability_count(p, sex, ptype, c), strength
    if n == 0 or (g.ab_types[sex] & (1 << ptype)): return False
    strength = ability_strength(ptype, n * 2 if doubled else n)
    if ptype == PT_LAND or ptype == PT_WATER: return reachable(c, p, ptype - PT_LAND, strength) != 0
    if ptype == PT_WOMAN: return can_take_person(c, g, p, 1, strength)
    if ptype == PT_MAN: return can_take_person(c, g, p, 0, strength)
    if ptype == PT_BUILD: return can_build(c, p, strength)
    if ptype == PT_MOVE_HUT: return can_move_hut(p)
    if ptype == PT_GOD_CARD: return god_card_available(g)
    return True

cdef int legal_phase_b(const Comp* c, const GameState* g, int seat, int* out) noexcept nogil:
    """C#15, C#16: one man and one woman ability; one Green God doubles or adds a different type."""
    cdef const Player* p = &g.pl[seat]
    cdef int n = 0, sex, t
    cdef int open_types[N_SEXES]
    cdef int abilities[N_SEXES * N_PERSON_TYPES]
    cdef int n_ab = 0
    cdef bint doubling_helps = False
    for sex in range(N_SEXES):
        open_types[sex] = 0
        for t in range(N_PERSON_TYPES):
            if g.ab_count[sex] == 0 and not g.green_used and ability_usable(c, g, seat, sex, t, True):
                doubling_helps = True       # a doubled ability may be the only usable one
            if ability_usable(c, g, seat, sex, t, g.green_double):
                open_types[sex] += 1
                if g.ab_count[sex] == 0 or g.green_extra:
                    abilities[n_ab] = A_ABILITY + sex * N_PERSON_TYPES + t
                    n_ab += 1
    if not g.green_used:
        if doubling_helps:
            n = add_god_plays(p, GOD_GREEN_DOUBLE, out, n)
        for sex in range(N_SEXES):
            if open_types[sex] >= (2 if g.ab_count[sex] == 0 else 1):
                n = add_god_plays(p, GOD_GREEN_EXTRA, out, n)
                break
    for t in range(n_ab):
        out[n] = abilities[t]
        n += 1
    out[n] = A_DONE
    return n + 1

cdef int legal_tasks(const Comp* c, const GameState* g, int seat, bint final, int* out) noexcept nogil:
    """Phase C: complete one task, else surrender one (C#20); at the end, each task (C#23)."""
    cdef const Player* p = &g.pl[seat]
    cdef int n = 0, i, t, pay, completable = 0
    cdef int complete[TASK_SLOTS]
    for i in range(TASK_SLOTS):
        t = p.tasks[i]
        # after a Yellow God only the tasks it is needed for (one unit short): ruling R1
        if t != NO_TILE and task_shortfall(c, g, seat, p, t) == (1 if g.yellow else 0):
            complete[completable] = A_COMPLETE + i
            completable += 1
    if not g.yellow:
        for pay in range(N_PAYMENTS):
            if can_pay(p, GOD_YELLOW, pay) and yellow_enables(c, g, seat, pay):
                out[n] = A_GOD + GOD_YELLOW * N_PAYMENTS + pay
                n += 1
    for i in range(completable):
        out[n] = complete[i]
        n += 1
    if completable == 0:
        if final:
            out[n] = A_DONE
            n += 1
        else:
            for i in range(TASK_SLOTS):
                if p.tasks[i] != NO_TILE:
                    out[n] = A_DISCARD + i
                    n += 1
    return n

cdef int legal_actions(const Comp* c, const GameState* g, int* out) noexcept nogil:
    cdef const Frame* f
    cdef const Player* p
    cdef int n = 0, i, seat, r
    cdef uint16_t m
    if g.sp == 0: return 0
    f = &g.stack[g.sp - 1]
    seat = f.player
    p = &g.pl[seat]
    if f.kind == F_DIE:
        return legal_die(c, g, seat, out)
    if f.kind == F_HELPER:
        return legal_helper(c, g, seat, f.a, out)
    if f.kind == F_PHASE_B:
        return legal_phase_b(c, g, seat, out)
    if f.kind == F_SETUP_HUT:
        for r in range(N_REGIONS):
            if c.fish_value[g.fish_at[r]] == 1 and g.region_owner[r] == -1:
                out[n] = A_REGION + r; n += 1
        return n
    if f.kind == F_EXPAND:
        m = reachable(c, p, f.b, f.a)
        for r in range(N_REGIONS):
            if m & (1 << r):
                out[n] = A_REGION + r; n += 1
        return n
    if f.kind == F_RED:
        n = add_god_plays(p, GOD_RED, out, 0)
        out[n] = A_DONE
        return n + 1
    if f.kind == F_MATERIAL:
        return legal_material(c, p, f.a, out, 0)
    if f.kind == F_MATERIAL_ANY:
        return legal_material(c, p, -1, out, 0)
    if f.kind == F_PERSON:
        for i in range(min(<int>f.a, DISPLAY_SIZE)):
            if g.person_display[f.b][i] != NO_TILE:
                out[n] = A_PERSON + i; n += 1
        return n
    if f.kind == F_TEMPLE:
        for i in range(TEMPLE_SPACES):
            if c.temple_values[i] <= f.a:
                out[n] = A_TEMPLE + i; n += 1
        return n
    if f.kind == F_BUILD_TILE:
        for i in range(N_BUILDINGS):
            if not (p.built & (1 << i)) and c.building_values[i] <= f.a:
                out[n] = A_BUILD_TILE + i; n += 1
        return n
    if f.kind == F_BUILD_PAIR:
        for i in range(c.n_pairs):
            if p.ceremony[c.pair_a[i]] == CER_MATERIAL and p.ceremony[c.pair_b[i]] == CER_MATERIAL:
                out[n] = A_BUILD_PAIR + i; n += 1
        return n
    if f.kind == F_FIRE_GOD:
        n = legal_god_card(g, out, 0)
        out[n] = A_OFFERING
        return n + 1
    if f.kind == F_FIRE_STATUS:
        out[0] = A_STATUS
        out[1] = A_SHELL
        return 2
    if f.kind == F_TAKE_GOD:
        n = legal_god_card(g, out, 0)
        if n == 0:
            out[0] = A_DONE     # every God card is in a hand: nothing to take
            n = 1
        return n
    if f.kind == F_JEWELRY:
        for i in range(JEWELRY_ROWS if p.n_jewelry < N_ROUNDS else 0):     # one a round: the board holds 6
            r = g.jewelry_display[g.round - 1][i]
            if r != NO_TILE and c.jewelry_cost[r] <= p.shells:
                out[n] = A_JEWELRY + i; n += 1
        out[n] = A_DONE
        return n + 1
    if f.kind == F_TASK:
        return legal_tasks(c, g, seat, False, out)
    if f.kind == F_FINAL_TASKS:
        return legal_tasks(c, g, seat, True, out)
    if f.kind == F_TAKE_TASK:
        for i in range(DISPLAY_SIZE if p.tasks[0] == NO_TILE or p.tasks[1] == NO_TILE or p.tasks[2] == NO_TILE else 0):
            if g.task_display[i] != NO_TILE:
                out[n] = A_TAKE_TASK + i; n += 1
        return n
    return 0

# =============================================================================
# Transitions
# =============================================================================
cdef void use_ability(const Comp* c, GameState* g, int seat, int sex, int ptype) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int count = ability_count(p, sex, ptype, c), k, strength
    if g.ab_count[sex] > 0:
        g.green_extra = 0           # the second type of this sex is the Green God's
    g.ab_count[sex] += 1
    g.ab_types[sex] |= <uint16_t>(1 << ptype)
    if g.green_double:
        count *= 2                  # C#16: double the whole effect
        g.green_double = 0
    strength = ability_strength(ptype, count)
    if ptype == PT_LAND or ptype == PT_WATER:
        push(g, F_EXPAND, seat, strength, ptype - PT_LAND)
    elif ptype == PT_WOMAN:
        push(g, F_PERSON, seat, strength, 1)
    elif ptype == PT_MAN:
        push(g, F_PERSON, seat, strength, 0)
    elif ptype == PT_BUILD:
        push(g, F_BUILD_TILE, seat, strength, 0)
    elif ptype == PT_MATERIAL:
        push(g, F_MATERIAL_ANY, seat, count, 0)     # one frame for all: `a` counts the materials to place
    elif ptype == PT_MOVE_HUT:
        for k in range(min(count, <int>p.reg_huts)):
            p.reg_huts -= 1
            p.huts_12th += 1
    elif ptype == PT_VP:
        p.vp[SRC_PERSON] += 2 * count
    elif ptype == PT_GOD_CARD:
        push(g, F_TAKE_GOD, seat, count, 0)         # `a` counts the cards to take
    elif ptype == PT_OFFERING:
        gain_u8(&p.offerings, count)
    elif ptype == PT_STATUS:
        move_status(g, p, count)
    else:
        gain_u8(&p.shells, count)

cdef void place_die(const Comp* c, GameState* g, int seat, int value, int act) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int d, tile, strength = 6 if g.white else value    # C#3: White acts as a 6, the die keeps its value
    for d in range(N_DICE):
        if p.dice[d] == value:
            p.dice[d] = 0
            break
    if act != ACT_FISH:
        tile = action_tile(g.n_players, act)
        if value < g.tile_low[tile]:
            g.tile_low[tile] = value
    gain_u8(&p.dice_placed[act], 1)
    g.blue = 0
    g.white = 0
    if act == ACT_FISH:
        p.vp[SRC_FISHING] += c.fishing_vp
    elif act == ACT_HELPER:
        push(g, F_HELPER, seat, strength, 0)
    elif act == ACT_TEMPLE:
        push(g, F_TEMPLE, seat, strength, 0)
    elif act == ACT_BUILD:
        push(g, F_BUILD_TILE, seat, strength, 0)
    elif act == ACT_MAN or act == ACT_WOMAN:
        push(g, F_PERSON, seat, strength, act - ACT_MAN)
    else:
        push(g, F_EXPAND, seat, strength, act - ACT_LAND)

cdef void helper_spend(const Comp* c, GameState* g, int seat, int a) noexcept nogil:
    cdef Frame* f = &g.stack[g.sp - 1]
    cdef Player* p = &g.pl[seat]
    cdef int cost, t
    if a < A_BESIDE:
        cost = c.helper_cost[HELP_MATERIAL]
        p.ceremony[a - A_SPACE] = CER_MATERIAL
    elif a < A_PERSON:
        cost = c.helper_cost[HELP_MATERIAL]
        gain_u8(&p.beside[a - A_BESIDE], 1)
    elif a < A_OFFERING:
        cost = c.helper_cost[HELP_GOD_CARD]
        take_god_card(g, p, a)
    elif a == A_OFFERING:
        cost = c.helper_cost[HELP_OFFERING]
        gain_u8(&p.offerings, 1)
    elif a == A_VP:
        cost = c.helper_cost[HELP_VP]
        p.vp[SRC_HELPER] += 1
    elif a == A_MOVE_HUT:
        cost = c.helper_cost[HELP_MOVE_HUT]
        p.reg_huts -= 1
        p.huts_12th += 1
    else:                       # shift down: tattoo a man / collect a woman's shells
        t = p.persons[a - A_SHIFT]
        p.shifted |= <uint16_t>(1 << (a - A_SHIFT))
        if t >= PERSONS_PER_SEX:
            cost = c.helper_cost[HELP_SHELLS]
            gain_u8(&p.shells, c.person_symbols[t])
        else:
            cost = c.helper_cost[HELP_TATTOO]
            move_status(g, p, c.person_symbols[t])
    f.a -= cost
    if f.a <= 0:
        g.sp -= 1

cdef void play_god(const Comp* c, GameState* g, int seat, int a) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    cdef int effect = (a - A_GOD) // N_PAYMENTS, r
    pay_god(p, g.discard, effect, (a - A_GOD) % N_PAYMENTS)
    if effect == GOD_BLUE:
        g.blue = 1
    elif effect == GOD_WHITE:
        g.white = 1
    elif effect == GOD_RED:
        g.sp -= 1
        r = g.stack[g.sp].a
        p.fish_scored |= <uint16_t>(1 << r)
        p.vp[SRC_RED_GOD] += c.fish_value[g.fish_at[r]]
    elif effect == GOD_YELLOW:
        g.yellow = 1
    else:
        g.green_used = 1
        if effect == GOD_GREEN_DOUBLE:
            g.green_double = 1
        else:
            g.green_extra = 1

cdef void resolve_task(const Comp* c, GameState* g, int seat, int a) noexcept nogil:
    cdef Player* p = &g.pl[seat]
    if a >= A_DISCARD:
        p.tasks[a - A_DISCARD] = NO_TILE
        return
    p.tasks[a - A_COMPLETE] = NO_TILE
    gain_u8(&p.tasks_done, 1)
    p.vp[SRC_TASKS] += 4 if g.yellow else 6
    g.yellow = 0

cdef void apply_action(const Comp* c, GameState* g, int a) noexcept nogil:
    """Applies a legal action `a` to the pending decision (no checks: see legal_actions)."""
    cdef Frame f = g.stack[g.sp - 1]
    cdef int seat = f.player, k
    cdef Player* p = &g.pl[seat]
    g.n_moves += 1
    if A_GOD <= a < A_REGION:
        play_god(c, g, seat, a)
    elif f.kind == F_HELPER:
        if a == A_DONE:
            g.sp -= 1
        else:
            helper_spend(c, g, seat, a)
    elif f.kind == F_PHASE_B:
        if a == A_DONE:
            g.sp -= 1
        else:
            use_ability(c, g, seat, (a - A_ABILITY) // N_PERSON_TYPES, (a - A_ABILITY) % N_PERSON_TYPES)
    elif f.kind == F_FINAL_TASKS:
        if a == A_DONE:
            g.sp -= 1
        else:
            resolve_task(c, g, seat, a)
    else:
        if (f.kind == F_MATERIAL_ANY or f.kind == F_TAKE_GOD) and f.a > 1:
            g.stack[g.sp - 1].a -= 1    # a repeated gain: the same decision again, one fewer to go
        else:
            g.sp -= 1
        if f.kind == F_DIE:
            place_die(c, g, seat, a // N_DIE_ACTIONS + 1, a % N_DIE_ACTIONS)
        elif f.kind == F_SETUP_HUT:
            place_hut(c, g, seat, a - A_REGION, True)
        elif f.kind == F_EXPAND:
            place_hut(c, g, seat, a - A_REGION, False)
        elif f.kind == F_MATERIAL or f.kind == F_MATERIAL_ANY:
            if a < A_BESIDE:
                p.ceremony[a - A_SPACE] = CER_MATERIAL
            else:
                gain_u8(&p.beside[a - A_BESIDE], 1)
        elif f.kind == F_PERSON:
            take_person(c, g, p, f.b, a - A_PERSON)
        elif f.kind == F_TEMPLE:
            place_priest(g, seat, a - A_TEMPLE)
            push_fire_bonus(g, seat)
        elif f.kind == F_BUILD_TILE:
            push(g, F_BUILD_PAIR, seat, a - A_BUILD_TILE, 0)
        elif f.kind == F_BUILD_PAIR:
            k = a - A_BUILD_PAIR
            p.ceremony[c.pair_a[k]] = CER_BUILDING
            p.ceremony[c.pair_b[k]] = CER_BUILDING
            p.built |= <uint8_t>(1 << f.a)
            p.vp[SRC_BUILDINGS] += c.building_vp[g.round - 1]
            push_fire_bonus(g, seat)
        elif f.kind == F_FIRE_GOD or f.kind == F_TAKE_GOD:
            if a == A_OFFERING:
                gain_u8(&p.offerings, 1)
            elif a != A_DONE:
                take_god_card(g, p, a)
        elif f.kind == F_FIRE_STATUS:
            if a == A_STATUS:
                move_status(g, p, 1)
            else:
                gain_u8(&p.shells, 1)
        elif f.kind == F_JEWELRY:
            if a != A_DONE:
                k = g.jewelry_display[g.round - 1][a - A_JEWELRY]
                g.jewelry_display[g.round - 1][a - A_JEWELRY] = NO_TILE
                p.shells -= c.jewelry_cost[k]
                p.jewelry[p.n_jewelry] = k
                p.n_jewelry += 1
        elif f.kind == F_TASK:
            resolve_task(c, g, seat, a)
        elif f.kind == F_TAKE_TASK:
            for k in range(TASK_SLOTS):
                if p.tasks[k] == NO_TILE:
                    p.tasks[k] = g.task_display[a - A_TAKE_TASK]
                    break
            g.task_display[a - A_TAKE_TASK] = NO_TILE
    advance(c, g)

# =============================================================================
# Phase C and the end (rulebook "Phase C", "Game End", "Final Scoring"; C#17-C#26)
# =============================================================================
cdef void score_status_and_temple(const Comp* c, GameState* g) noexcept nogil:
    cdef int P = g.n_players, i, j, s, best = -1, most = 0, n
    cdef int8_t order[MAX_PLAYERS]
    cdef Player* p
    for i in range(P):
        order[i] = i
        p = &g.pl[i]
        p.vp[SRC_STATUS] += c.status_vp[p.status]
    for i in range(1, P):               # insertion sort: further ahead, then higher in the stack
        s = order[i]
        j = i - 1
        while j >= 0 and (g.pl[order[j]].status < g.pl[s].status or
                          (g.pl[order[j]].status == g.pl[s].status and
                           g.pl[order[j]].status_stamp < g.pl[s].status_stamp)):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    for i in range(P):
        g.order[i] = order[i]
        g.pl[order[i]].status = 0
        g.pl[order[i]].status_stamp = g.status_clock + P - i
    g.status_clock += P
    for s in range(P):
        g.pl[s].vp[SRC_TEMPLE] += priests_in_temple(g, s) * c.temple_vp[g.round - 1]
    for i in range(TEMPLE_SPACES):      # most priests; a tie goes to the leftmost priest (C#18)
        s = g.temple[i]
        if s >= 0:
            n = priests_in_temple(g, s)
            if n > most:
                most = n
                best = s
    if g.temple_god_tiles > 0:
        g.temple_god_tiles -= 1
        if best >= 0:
            g.pl[best].god_tiles += 1

cdef void final_scoring(const Comp* c, GameState* g) noexcept nogil:
    cdef int s, r, i, full
    cdef Player* p
    for s in range(g.n_players):
        p = &g.pl[s]
        p.vp[SRC_GOD_TILES] += 2 * p.god_tiles
        for r in range(N_REGIONS):      # only a hut ON the building space scores its fish (C#24)
            if g.region_owner[r] == s:
                p.vp[SRC_FISH_TILES] += c.fish_value[g.fish_at[r]]
        for i in range(p.n_jewelry):
            p.vp[SRC_JEWELRY] += c.jewelry_vp[p.jewelry[i]]
        full = 1
        for i in range(CEREMONY_SPACES):
            if p.ceremony[i] == CER_EMPTY: full = 0
        p.vp[SRC_GOAL_TASKS] = 6 if p.tasks_done >= 9 else 0
        p.vp[SRC_GOAL_JEWELRY] = 6 if p.n_jewelry >= 6 else 0
        p.vp[SRC_GOAL_CEREMONY] = 6 * full
        p.vp[SRC_GOAL_BUILDINGS] = 6 if popcount(p.built) == N_BUILDINGS else 0
        p.vp[SRC_GOAL_REGIONS] = 6 if popcount(p.regions) == N_REGIONS else 0
        p.vp[SRC_GOAL_PERSONS] = 6 if p.n_persons == PERSON_SPACES else 0

cdef inline int phase_c_decision(int phase) noexcept nogil:
    if phase == PH_C_JEWELRY: return F_JEWELRY
    if phase == PH_C_TASK: return F_TASK
    if phase == PH_C_TAKE_TASK: return F_TAKE_TASK
    return F_FINAL_TASKS

cdef void advance(const Comp* c, GameState* g) noexcept nogil:
    """Moves the game on until a decision is pending or the game is over."""
    cdef int P = g.n_players, i
    while g.sp == 0 and g.phase != PH_END:
        if g.phase == PH_SETUP:
            if g.turn_idx < P:          # initial huts in REVERSE turn order (C#27)
                push(g, F_SETUP_HUT, g.order[P - 1 - g.turn_idx], 0, 0)
                g.turn_idx += 1
            else:
                roll_dice(g)
                g.phase = PH_A
                g.turn_idx = 0
        elif g.phase == PH_A:
            if g.turn_idx < N_DICE * P:  # one die at a time, in turn order
                push(g, F_DIE, g.order[g.turn_idx % P], 0, 0)
                g.turn_idx += 1
            else:
                g.phase = PH_B
                g.turn_idx = 0
        elif g.phase == PH_B:
            if g.turn_idx < P:
                g.green_used = g.green_double = g.green_extra = 0
                g.ab_count[0] = g.ab_count[1] = 0
                g.ab_types[0] = g.ab_types[1] = 0
                push(g, F_PHASE_B, g.order[g.turn_idx], 0, 0)
                g.turn_idx += 1
            else:
                score_status_and_temple(c, g)
                g.phase = PH_C_JEWELRY
                g.turn_idx = 0
        elif g.phase == PH_C_JEWELRY or g.phase == PH_C_TASK or g.phase == PH_C_TAKE_TASK or g.phase == PH_FINAL:
            if g.turn_idx < P:
                push(g, phase_c_decision(g.phase), g.order[g.turn_idx], 0, 0)
                g.turn_idx += 1
                continue
            g.turn_idx = 0
            if g.phase == PH_C_JEWELRY:
                for i in range(JEWELRY_ROWS):   # leftovers of this round's column are discarded
                    g.jewelry_display[g.round - 1][i] = NO_TILE
                g.phase = PH_C_TASK
            elif g.phase == PH_C_TASK:
                g.phase = PH_C_TAKE_TASK
            elif g.phase == PH_C_TAKE_TASK:
                if g.round == N_ROUNDS:
                    g.phase = PH_FINAL
                else:
                    g.round += 1
                    fill_displays(g)
                    roll_dice(g)
                    g.phase = PH_A
            else:
                final_scoring(c, g)
                g.phase = PH_END

cdef int start(const Comp* c, GameState* g, int n_players, uint64_t seed, int variant, int* out) noexcept nogil:
    """A new game of `n_players` from `seed`, settled (game_flow.pxi); `variant` is for games that have some, and
    Bora Bora has none."""
    setup(c, g, n_players, seed)
    advance(c, g)
    return settle(c, g, out)

# =============================================================================
# Outcome: what the shared wrapper (game_module.pxi) reads of a game
# =============================================================================
cdef inline const int16_t* score_by_source(const Player* p) noexcept nogil:
    return p.vp

cdef int winner(const Comp* c, const GameState* g) noexcept nogil:
    """Most VP; a tie goes to the tied player earlier in the last turn order (C#26). -1 until the end."""
    cdef int i, s, best = -1, best_vp = -1, v
    if g.phase != PH_END:
        return -1
    for i in range(g.n_players):
        s = g.order[i]
        v = total_score(&g.pl[s])
        if v > best_vp:
            best_vp = v
            best = s
    return best

cdef int rank_of(const Comp* c, const GameState* g, int seat) noexcept nogil:
    """1-based rank: more VP first, ties to the earlier place in the last turn order (C#26)."""
    cdef int i, t, v = total_score(&g.pl[seat]), rank = 1, mine = 0
    for i in range(g.n_players):
        if g.order[i] == seat:
            mine = i
    for i in range(g.n_players):
        t = total_score(&g.pl[g.order[i]])
        if t > v or (t == v and i < mine):
            rank += 1
    return rank

cdef void returns(const Comp* c, const GameState* g, double* out) noexcept nogil:
    """1 to the winner, 0 to the others; 0 to all until the end."""
    cdef int i, w = winner(c, g)
    for i in range(g.n_players):
        out[i] = 1.0 if i == w else 0.0

# =============================================================================
# Determinization: resample what `viewer` cannot see
# =============================================================================
cdef void determinize(const Comp* c, GameState* g, int viewer, uint64_t seed) noexcept nogil:
    """Other hands' unknown cards and the God draw pile are dealt anew from their union; the
    person and task piles are reshuffled; future chance gets a new seed. Hand sizes and cards
    seen taken face up (`known`) are public and kept. Each hidden part is put in a canonical
    order before shuffling, so the result depends only on what `viewer` saw and on `seed`."""
    cdef uint8_t pool[N_GOD_CARDS]
    cdef int hidden[MAX_PLAYERS]
    cdef int counts[N_COLOURS]
    cdef int n = 0, i, s, col, k, sex
    g.rng = seed * <uint64_t>0xD1B54A32D192ED03 + <uint64_t>0x8CB92BA72F3D8DD7
    g.dice_rng = splitmix_next(&g.rng)      # future dice are hidden too
    for col in range(N_COLOURS):
        counts[col] = 0
    for i in range(g.deck_top, g.deck_end):
        counts[g.god_deck[i]] += 1
    for s in range(g.n_players):
        hidden[s] = 0
        if s == viewer: continue
        for col in range(N_COLOURS):
            k = g.pl[s].hand[col] - g.pl[s].known[col]
            hidden[s] += k
            counts[col] += k
            g.pl[s].hand[col] = g.pl[s].known[col]
    for col in range(N_COLOURS):
        for i in range(counts[col]):
            pool[n] = col
            n += 1
    shuffle_u8(&g.rng, pool, n)
    k = 0
    for s in range(g.n_players):
        for i in range(hidden[s]):
            g.pl[s].hand[pool[k]] += 1
            k += 1
    for i in range(g.deck_top, g.deck_end):
        g.god_deck[i] = pool[k]
        k += 1
    for sex in range(N_SEXES):
        sort_u8(&g.person_pile[sex][g.person_top[sex]], PERSONS_PER_SEX - g.person_top[sex])
        shuffle_u8(&g.rng, &g.person_pile[sex][g.person_top[sex]], PERSONS_PER_SEX - g.person_top[sex])
    sort_u8(&g.task_pile[g.task_top], N_PARROT_TASKS - g.task_top)
    shuffle_u8(&g.rng, &g.task_pile[g.task_top], N_PARROT_TASKS - g.task_top)
