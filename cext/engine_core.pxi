# Bora Bora rules kernels: set-up, legal moves, transitions, scoring, determinization.
# Plain C over `Comp` (component tables) and `GameState`; no Python objects, no GIL.
# Rule references in comments point to the rulebook sections and CLARIFICATIONS.md (C#).

from libc.string cimport memset

from counts cimport gain_u8, popcount, sort_u8
from seeds cimport below, shuffle_u8, splitmix_next

# =============================================================================
# Chance: splitmix64 held in the state (seeds.pxd)
# =============================================================================
cdef inline int roll_die(GameState* g) noexcept nogil:
    return 1 + below(&g.dice_rng, 6)

# =============================================================================
# Small queries
# =============================================================================
cdef inline int action_tile(int n_players, int act) noexcept nogil:
    """Action tile slot of a die action; combined tiles share a slot (C#4)."""
    if act == ACT_HELPER: return 0
    if act == ACT_TEMPLE: return 1
    if act == ACT_BUILD: return 2
    if act == ACT_MAN or act == ACT_WOMAN:
        return 3 if (act == ACT_MAN or n_players == 2) else 4
    return 5 if (act == ACT_LAND or n_players <= 3) else 6

cdef inline int effect_colour(int effect) noexcept nogil:
    if effect == GOD_GREEN_DOUBLE or effect == GOD_GREEN_EXTRA: return 3
    if effect == GOD_YELLOW: return 4
    return effect

cdef inline int priests_in_temple(const GameState* g, int seat) noexcept nogil:
    cdef int i, n = 0
    for i in range(TEMPLE_SPACES):
        if g.temple[i] == seat: n += 1
    return n

cdef inline int free_person_spaces(const Comp* c, const Player* p) noexcept nogil:
    cdef int regular = c.regular_spaces - p.reg_huts - (p.n_persons - p.person_12th)
    return regular + (1 if (p.huts_12th == 0 and p.person_12th == 0) else 0)

cdef inline uint16_t reachable(const Comp* c, const Player* p, int path_type, int strength) noexcept nogil:
    """Regions a new hut may go to: along a path of value <= strength, not yet settled (C#6, C#7)."""
    cdef uint16_t m = 0
    cdef int r
    if strength > 6: strength = 6
    for r in range(N_REGIONS):
        if p.regions & (1 << r):
            m |= c.reach[path_type][strength][r]
    return m & ~p.regions

cdef inline bint has_material_pair(const Comp* c, const Player* p) noexcept nogil:
    cdef int q
    for q in range(c.n_pairs):
        if p.ceremony[c.pair_a[q]] == CER_MATERIAL and p.ceremony[c.pair_b[q]] == CER_MATERIAL:
            return True
    return False

cdef inline bint can_build(const Comp* c, const Player* p, int strength) noexcept nogil:
    cdef int k
    if not has_material_pair(c, p): return False
    for k in range(N_BUILDINGS):
        if not (p.built & (1 << k)) and c.building_values[k] <= strength:
            return True
    return False

cdef inline bint can_take_person(const Comp* c, const GameState* g, const Player* p, int sex, int strength) noexcept nogil:
    cdef int i
    if free_person_spaces(c, p) <= 0 or p.n_persons >= PERSON_SPACES: return False
    for i in range(min(strength, DISPLAY_SIZE)):
        if g.person_display[sex][i] != NO_TILE: return True
    return False

cdef inline bint can_place_priest(const Comp* c, const GameState* g, int seat, int strength) noexcept nogil:
    cdef int i
    if priests_in_temple(g, seat) >= PRIESTS: return False
    for i in range(TEMPLE_SPACES):
        if c.temple_values[i] <= strength: return True
    return False

cdef inline bint god_deck_available(const GameState* g) noexcept nogil:
    cdef int i
    if g.deck_top < g.deck_end: return True
    for i in range(N_COLOURS):
        if g.discard[i]: return True
    return False

cdef inline bint god_card_available(const GameState* g) noexcept nogil:
    cdef int i
    if god_deck_available(g): return True
    for i in range(GOD_DISPLAY_SIZE):
        if g.god_display[i] != NO_TILE: return True
    return False

cdef inline bint can_move_hut(const Player* p) noexcept nogil:
    return p.reg_huts > 0 and p.person_12th == 0

cdef inline bint can_pay(const Player* p, int effect, int pay) noexcept nogil:
    """C#22: a card + an offering, a same-colour pair + an offering, or a God tile."""
    cdef int col = effect_colour(effect)
    if pay == PAY_TILE: return p.god_tiles > 0
    if p.offerings == 0: return False
    if pay == PAY_CARD: return p.hand[col] > 0
    # A pair of the effect's own colour only costs one card more than PAY_CARD: not offered.
    return pay - PAY_PAIR != col and p.hand[pay - PAY_PAIR] >= 2

cdef inline bint can_pay_any(const Player* p, int effect) noexcept nogil:
    cdef int pay
    for pay in range(N_PAYMENTS):
        if can_pay(p, effect, pay): return True
    return False

cdef inline void pay_god(Player* p, uint8_t* discard, int effect, int pay) noexcept nogil:
    cdef int col = effect_colour(effect)
    cdef int n = 1
    if pay == PAY_TILE:
        p.god_tiles -= 1
        gain_u8(&p.god_tiles_played, 1)
    else:
        p.offerings -= 1
        if pay != PAY_CARD:
            col = pay - PAY_PAIR
            n = 2
        p.hand[col] -= n
        discard[col] += n
        # An observer cannot tell which card left the hand: keep the lower bound (determinize).
        p.known[col] = p.known[col] - n if p.known[col] > n else 0
    gain_u8(&p.gods_played[effect], 1)

cdef inline int ability_count(const Player* p, int sex, int ptype, const Comp* c) noexcept nogil:
    cdef int i, n = 0, t
    for i in range(p.n_persons):
        t = p.persons[i]
        if (t >= PERSONS_PER_SEX) == sex and c.person_type[t] == ptype:
            n += 1
    return n

# =============================================================================
# Tasks (rulebook "Completing Tasks"; C#20, C#21)
# =============================================================================
cdef int task_have(const Comp* c, const GameState* g, int seat, const Player* p, int kind, int param) noexcept nogil:
    cdef int i, n = 0, t, r
    cdef unsigned int seen = 0
    if kind == TR_MEN or kind == TR_WOMEN:
        for i in range(p.n_persons):
            if (p.persons[i] >= PERSONS_PER_SEX) == (kind == TR_WOMEN): n += 1
        return n
    if kind == TR_PRIESTS: return priests_in_temple(g, seat)
    if kind == TR_JEWELRY: return p.n_jewelry
    if kind == TR_FIRST_PLAYER: return 1 if g.order[0] == seat else 0
    if kind == TR_REGIONS: return popcount(p.regions)
    if kind == TR_ISLANDS:
        for r in range(N_REGIONS):
            if p.regions & (1 << r): seen |= 1u << c.region_island[r]
        return popcount(seen)
    if kind == TR_GOD_OF_COLOUR: return p.hand[param]
    if kind == TR_GOD_ONE_COLOUR:
        for i in range(N_COLOURS): n = max(n, p.hand[i])
        return n
    if kind == TR_GOD_COLOURS:
        for i in range(N_COLOURS):
            if p.hand[i]: n += 1
        return n
    if kind == TR_MAN_TYPES or kind == TR_WOMAN_TYPES:
        for i in range(p.n_persons):
            t = p.persons[i]
            if (t >= PERSONS_PER_SEX) == (kind == TR_WOMAN_TYPES): seen |= 1u << c.person_type[t]
        return popcount(seen)
    if kind == TR_JEWELRY_KINDS:
        for i in range(p.n_jewelry): seen |= 1u << c.jewelry_kind[p.jewelry[i]]
        return popcount(seen)
    if kind == TR_BUILDINGS: return popcount(p.built)
    if kind == TR_JEWELRY_OF_KIND:
        for i in range(p.n_jewelry):
            if c.jewelry_kind[p.jewelry[i]] == param: n += 1
        return n
    if kind == TR_GOD_TILES: return p.god_tiles
    if kind == TR_OFFERINGS: return p.offerings
    if kind == TR_SHELLS: return p.shells
    if kind == TR_MATERIAL or kind == TR_MATERIALS:
        for i in range(CEREMONY_SPACES):
            if p.ceremony[i] == CER_MATERIAL and (kind == TR_MATERIALS or c.ceremony_material[i] == param):
                n += 1
        for i in range(N_MATERIALS):
            if kind == TR_MATERIALS or i == param: n += p.beside[i]
        return n
    if kind == TR_TERRAIN_REGIONS or kind == TR_FISH_TYPE_REGIONS:
        for r in range(N_REGIONS):
            if p.regions & (1 << r):
                if kind == TR_TERRAIN_REGIONS and c.region_terrain[r] == param: n += 1
                elif kind == TR_FISH_TYPE_REGIONS and c.fish_type[g.fish_at[r]] == param: n += 1
        return n
    if kind == TR_HUTS_12TH: return p.huts_12th
    if kind == TR_MEN_SHIFTED or kind == TR_WOMEN_SHIFTED or kind == TR_PERSONS_SHIFTED:
        for i in range(p.n_persons):
            if p.shifted & (1 << i):
                if kind == TR_PERSONS_SHIFTED or (p.persons[i] >= PERSONS_PER_SEX) == (kind == TR_WOMEN_SHIFTED):
                    n += 1
        return n
    if kind == TR_PERSONS_OF_TYPE:
        for i in range(p.n_persons):
            if c.person_type[p.persons[i]] == param: n += 1
        return n
    return 0

cdef int task_shortfall(const Comp* c, const GameState* g, int seat, const Player* p, int task) noexcept nogil:
    """Requirement units missing. A Yellow God covers exactly one, but never a whole task (C#20):
    a task of a single unit that is missing counts as two units short."""
    cdef int i, have, need, short = 0, units = 0
    for i in range(MAX_TASK_REQS):
        if c.task_req_kind[task][i] < 0: break
        have = task_have(c, g, seat, p, c.task_req_kind[task][i], c.task_req_param[task][i])
        need = c.task_req_count[task][i]
        units += need
        if have < need: short += need - have
    if short == units and short == 1:
        return 2
    return short

cdef bint yellow_enables(const Comp* c, const GameState* g, int seat, int pay) noexcept nogil:
    """Paying this Yellow God leaves a task one unit short that is not complete without it."""
    cdef Player after = g.pl[seat]
    cdef uint8_t scratch_discard[N_COLOURS]
    cdef int i, t
    memset(scratch_discard, 0, sizeof(scratch_discard))
    pay_god(&after, scratch_discard, GOD_YELLOW, pay)
    for i in range(TASK_SLOTS):
        t = g.pl[seat].tasks[i]
        if t == NO_TILE: continue
        if task_shortfall(c, g, seat, &g.pl[seat], t) > 0 and task_shortfall(c, g, seat, &after, t) == 1:
            return True
    return False
