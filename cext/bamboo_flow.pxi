# Bamboo's decisions: legal actions, transitions and the phase sequence.
# Decision frames sit on a stack (docs/bamboo_actions.md); `advance` moves the phases on when the stack is empty
# and `settle` takes forced moves (B38) and skips a decision without a legal action (B40).

include "game_flow.pxi"

# =============================================================================
# Helpers read by several decisions
# =============================================================================
cdef inline int awake(const Player* p, int s) noexcept nogil:
    return p.spirits[s] - p.asleep[s]

cdef inline int area_count(const Player* p, int t) noexcept nogil:
    cdef int i, n = 0
    for i in range(AREA_CAP):
        if p.area[t][i] != NO_TILE:
            n += 1
    return n

cdef inline int stalk_free(const GameState* g, int s) noexcept nogil:
    cdef int i, n = 0
    for i in range(STALK_NEW):
        if g.stalk_new[s][i] == NO_TILE:
            n += 1
    return n

cdef inline bint food_reachable(const GameState* g) noexcept nogil:
    """Some counter can be taken or revealed (Tengu, B25)."""
    cdef int k
    if g.food_left > 0:
        return True
    for k in range(N_FOOD_KINDS):
        if g.food_display[k] > 0 or g.food_discard[k] > 0:
            return True
    return False

cdef inline int visit_ok(const Player* p, int t) noexcept nogil:
    return t != p.last_visit and p.area[t][0] != NO_TILE

cdef inline bint coins_widen_offering(const Comp* c, const GameState* g, const Player* p, int sticks,
                                      int gain) noexcept nogil:
    """`gain` more coins before the first stick would let more of the offering's `sticks` go to other temples
    (B11: 1 coin each), so a spirit giving coins is worth using there (B23)."""
    cdef int cost = c.other_temple_coins, now
    if g.bakeneko or cost <= 0:
        return False
    now = p.coins // cost
    return now < sticks and (p.coins + gain) // cost > now

cdef inline void improve_coin(const Comp* c, Player* p) noexcept nogil:
    """Improve Your Home taken as 1 coin (B20)."""
    gain_u8(&p.coins, c.improve_coins)
    gain_u8(&p.improve_coins, 1)

# =============================================================================
# Legal actions (ascending ids)
# =============================================================================
cdef int legal_activate(const Comp* c, const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[f.player]
    cdef int n = 0, x, s, plain = 0, any_left = 0
    for x in range(N_ACTIONS):
        plain += g.unactivated[x]
    any_left = plain + g.unactivated[ICON_WILD]
    if f.a > 0:
        if not g.kitsune:
            for x in range(N_ACTIONS):
                if g.unactivated[x] > 0:
                    out[n] = A_ACTIVATE + x; n += 1
        if (g.kitsune and any_left > 0) or g.unactivated[ICON_WILD] > 0:
            for x in range(N_ACTIONS):
                out[n] = A_WILD + x; n += 1
    for s in range(N_SPIRITS):
        if awake(p, s) <= 0:
            continue
        x = c.spirit_effect[s]
        if (x == EFF_BALANCE or x == EFF_IMPROVE or x == EFF_FUND
                or (x == EFF_WILDCARDS and f.a > 0 and not g.kitsune and plain > 0)
                or (x == EFF_RENEW_FOOD and food_reachable(g))):
            out[n] = A_USE + s; n += 1
    out[n] = A_DONE
    return n + 1

cdef int legal_offer(const Comp* c, const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[f.player]
    cdef int n = 0, t, s, need, x
    for t in range(f.b, N_TEMPLES):
        if t == g.visit or g.bakeneko:
            need = 0
        elif t < g.visit:
            need = c.other_temple_coins
        else:
            need = c.other_temple_coins * f.a
        if p.coins >= need:
            out[n] = A_INCENSE + t; n += 1
    if g.sticks_placed == 0:
        for s in range(N_SPIRITS):
            if awake(p, s) <= 0:
                continue
            x = c.spirit_effect[s]
            if ((x == EFF_FREE_OFFERING and not g.bakeneko)
                    or (x == EFF_FUND and coins_widen_offering(c, g, p, f.a, c.spirit_amount[s] * c.fund_coins))
                    or (x == EFF_IMPROVE and coins_widen_offering(c, g, p, f.a, c.improve_coins))):
                out[n] = A_USE + s; n += 1
    return n

cdef int legal_stalk(const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef int n = 0, s, u, room
    for s in range(f.b, N_STALKS):
        if stalk_free(g, s) == 0:
            continue
        room = 0
        for u in range(s, N_STALKS):
            room += stalk_free(g, u)
        if room >= f.a:
            out[n] = A_STALK + s; n += 1
    return n

cdef int legal_balance(const Comp* c, const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[f.player]
    cdef int n = 0, d, i
    cdef HomeMasks m
    if f.a >= 2:
        out[n] = A_BAL_HP; n += 1
    for d in range(N_SIDES):
        if p.balance[d][BAL_SLOTS - 1] == NO_TILE:
            for i in range(BAL_MARKET):
                if g.bal_market[d][i] != NO_TILE:
                    out[n] = A_OBTAIN + d * BAL_MARKET + i; n += 1
    home_masks(c, p, &m)
    for d in range(N_SIDES):
        for i in range(BAL_SLOTS):
            if p.balance[d][i] != NO_TILE and pattern_met(c, &m, p.balance[d][i]):
                out[n] = A_SCORE + d * BAL_SLOTS + i; n += 1
    if f.a < 2:
        out[n] = A_DONE; n += 1
    return n

cdef int legal_improve(const Comp* c, const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[f.player]
    cdef int n = 0, k, i, tile
    out[n] = A_COIN; n += 1
    for k in range(HOME_CATS):
        for i in range(HOME_MARKET):
            tile = g.home_market[k][i]
            if tile != NO_TILE and p.coins >= c.home_cost[tile] and can_place(c, p, tile):
                out[n] = A_BUY + k * HOME_MARKET + i; n += 1
    return n

cdef int legal_feed(const Comp* c, const GameState* g, const Frame* f, int* out) noexcept nogil:
    cdef const Player* p = &g.pl[f.player]
    cdef int n = 0, k, s
    if f.b == 0:
        for s in range(N_SPIRITS):
            if c.spirit_effect[s] == EFF_WINTER_FOOD and awake(p, s) > 0:
                out[n] = A_USE + s; n += 1
    for k in range(f.b - 1 if f.b > 0 else 0, N_FOOD_KINDS):
        if p.food[k] > 0 and food_worth(c, p, k) >= f.a:
            out[n] = A_PAY + k; n += 1
    return n

cdef int legal_actions(const Comp* c, const GameState* g, int* out) noexcept nogil:
    cdef const Frame* f
    cdef const Player* p
    cdef int n = 0, i, k, t, s
    if g.sp == 0:
        return 0
    f = &g.stack[g.sp - 1]
    p = &g.pl[f.player]
    if f.kind == F_ACTIVATE:
        return legal_activate(c, g, f, out)
    if f.kind == F_OFFER:
        return legal_offer(c, g, f, out)
    if f.kind == F_STALK:
        return legal_stalk(g, f, out)
    if f.kind == F_BALANCE:
        return legal_balance(c, g, f, out)
    if f.kind == F_IMPROVE:
        return legal_improve(c, g, f, out)
    if f.kind == F_FEED:
        return legal_feed(c, g, f, out)
    if f.kind == F_DRAFT or f.kind == F_SHOOT:
        for k in range(N_KINDS):
            if f.kind == F_DRAFT:
                for i in range(DRAFT_MAX):
                    if g.draft[i] == k:
                        out[n] = A_SHOOT + k; n += 1
                        break
            else:
                for i in range(AREA_CAP):
                    if g.to_place[i] == k:
                        out[n] = A_SHOOT + k; n += 1
                        break
        return n
    if f.kind == F_GIFT:
        for k in range(N_ACTIONS):
            for i in range(N_GIFTS):
                if g.gifts_up & (1 << i) and c.gift_action[i] == k:
                    out[n] = A_GIFT + k; n += 1
                    break
        return n
    if f.kind == F_VISIT:
        for t in range(N_TEMPLES):
            if visit_ok(p, t):
                out[n] = A_VISIT + t; n += 1
        return n
    if f.kind == F_HOME_SPACE:
        for i in range(HOME_CELLS):
            if cell_takes(c, p, i, f.a):
                out[n] = A_SPACE + i; n += 1
        return n
    if f.kind == F_COOK:
        for k in range(N_FOOD_KINDS):
            if g.food_display[k] > 0:
                out[n] = A_TAKE_FOOD + k; n += 1
        return n
    if f.kind == F_RENEW_FOOD:
        if f.a == 0:
            for k in range(N_FOOD_KINDS):
                if g.food_display[k] > 0:
                    out[n] = A_TAKE_FOOD + k; n += 1
        if food_reachable(g):
            out[n] = A_RENEW; n += 1
        if f.a == 1:
            out[n] = A_DONE; n += 1
        return n
    if f.kind == F_KEEP_SHOOT:
        for t in range(N_TEMPLES):
            if area_count(p, t) < AREA_CAP:
                out[n] = A_KEEP + t; n += 1
        return n
    if f.kind == F_WAKE:
        for s in range(f.b, N_SPIRITS):
            if p.asleep[s] > 0 and c.spirit_cost[s] > 0 and p.coins >= c.spirit_cost[s]:
                out[n] = A_WAKE + s; n += 1
        out[n] = A_DONE
        return n + 1
    return 0

# =============================================================================
# Transitions
# =============================================================================
cdef void start_action(const Comp* c, GameState* g, int seat, int action) noexcept nogil:
    """One Balance, Improve, Cook or Fund action (a shoot, a gift or a spirit), B18-B21."""
    cdef Player* p = &g.pl[seat]
    gain_u8(&p.actions[action], 1)
    if action == ACT_BALANCE:
        push(g, F_BALANCE, seat, 2, 0)
    elif action == ACT_IMPROVE:
        push(g, F_IMPROVE, seat, 0, 0)
    elif action == ACT_COOK:
        push(g, F_COOK, seat, 0, 0)
    else:
        gain_u8(&p.coins, c.fund_coins)

cdef void place_received(GameState* g, Player* p, int kind) noexcept nogil:
    """B17: a received shoot goes to the area of its colour when that area has room, else it waits."""
    cdef int t = kind // N_ICONS, n = area_count(p, t)
    if n < AREA_CAP:
        p.area[t][n] = <uint8_t>kind
    else:
        g.received[g.n_received] = <uint8_t>kind
        g.n_received += 1

cdef void next_turn(GameState* g) noexcept nogil:
    g.turn_idx = <int8_t>((g.turn_idx + 1) % g.n_players)

cdef void end_turn(GameState* g, int seat) noexcept nogil:
    """Summer step 5 (B16, B17): each stalk pushes off as many shoots as it received, bottom first, and they go
    to the player; shoots whose own area is full ask keep_shoot one at a time."""
    cdef Player* p = &g.pl[seat]
    cdef int s, k, i, j
    cdef int col[STALK_DEPTH + STALK_NEW]
    for s in range(N_STALKS):
        k = STALK_NEW - stalk_free(g, s)
        if k == 0:
            continue
        for i in range(STALK_DEPTH):
            col[i] = g.stalk[s][i]
        for i in range(k):
            col[STALK_DEPTH + i] = g.stalk_new[s][i]
        for i in range(k):
            place_received(g, p, col[i])
        for i in range(STALK_DEPTH):
            g.stalk[s][i] = <uint8_t>col[k + i]
        for j in range(STALK_NEW):
            g.stalk_new[s][j] = NO_TILE
    memset(g.unactivated, 0, sizeof(g.unactivated))
    g.kitsune = g.bakeneko = 0
    g.sticks_placed = 0
    g.visit = -1
    if g.n_received > 0:
        push(g, F_KEEP_SHOOT, seat, g.received[0], 0)
    else:
        next_turn(g)

cdef void do_visit(const Comp* c, GameState* g, int seat, int t) noexcept nogil:
    """Summer steps 2-4: the area's shoots leave it to be placed; min(shoots, incense) sticks (B11)."""
    cdef Player* p = &g.pl[seat]
    cdef int i, shoots = area_count(p, t), sticks
    sticks = shoots if shoots < p.incense else p.incense
    for i in range(AREA_CAP):
        g.to_place[i] = p.area[t][i]
        p.area[t][i] = NO_TILE
    g.visit = <int8_t>t
    g.sticks_placed = 0
    p.last_visit = <int8_t>t
    gain_u8(&p.turns, 1)
    gain_u8(&p.visits[t], 1)
    g.stick_clock += 1
    push(g, F_ACTIVATE, seat, sticks, 0)
    push(g, F_STALK, seat, shoots, 0)
    push(g, F_OFFER, seat, sticks, 0)

cdef void use_spirit(const Comp* c, GameState* g, Frame* f, int s) noexcept nogil:
    cdef int seat = f.player, units, e = c.spirit_effect[s], i
    cdef Player* p = &g.pl[seat]
    p.asleep[s] += 1
    gain_u8(&p.spirit_used[s], 1)
    if e == EFF_FUND:
        for i in range(c.spirit_amount[s]):
            start_action(c, g, seat, ACT_FUND)
    elif e == EFF_BALANCE:
        start_action(c, g, seat, ACT_BALANCE)
    elif e == EFF_IMPROVE:
        if f.kind == F_OFFER:             # B23: before the first stick, the action is taken as its coin
            gain_u8(&p.actions[ACT_IMPROVE], 1)
            improve_coin(c, p)
        else:
            start_action(c, g, seat, ACT_IMPROVE)
    elif e == EFF_WILDCARDS:
        g.kitsune = 1
    elif e == EFF_FREE_OFFERING:
        g.bakeneko = 1
    elif e == EFF_RENEW_FOOD:
        push(g, F_RENEW_FOOD, seat, 0, 0)
    elif e == EFF_WINTER_FOOD:
        units = c.spirit_amount[s]
        if units >= f.a:
            gain_u8(&p.food_wasted, units - f.a)
            g.sp -= 1
        else:
            f.a -= units
            feed_rest(c, g, f)

cdef void feed_rest(const Comp* c, GameState* g, Frame* f) noexcept nogil:
    """B31: a player whose food cannot cover what is owed (and who has no Ookami to use) pays it all and loses
    1 HP per unit short."""
    cdef Player* p = &g.pl[f.player]
    cdef int k, s, worth = food_worth(c, p, 0)
    if worth > f.a:
        return
    if f.b == 0:
        for s in range(N_SPIRITS):
            if c.spirit_effect[s] == EFF_WINTER_FOOD and awake(p, s) > 0:
                return
    for k in range(N_FOOD_KINDS):
        g.food_discard[k] += p.food[k]
        p.food[k] = 0
    p.hp[SRC_HUNGER] -= <int16_t>((f.a - worth) * c.hunger_hp)
    g.sp -= 1

cdef void apply_action(const Comp* c, GameState* g, int a) noexcept nogil:
    cdef Frame* f = &g.stack[g.sp - 1]
    cdef int seat = f.player, k, i, x, t, s, d, tile, u
    cdef Player* p = &g.pl[seat]
    g.n_moves += 1 if g.n_moves < 65535 else 0
    if f.kind == F_DRAFT:
        for i in range(DRAFT_MAX):
            if g.draft[i] == a:
                g.draft[i] = NO_TILE
                break
        t = a // N_ICONS
        if area_count(p, t) == AREA_CAP:      # only in a loaded state (B1, B40): the first area with room
            t = 0
            while area_count(p, t) == AREA_CAP:
                t += 1
        p.area[t][area_count(p, t)] = <uint8_t>a
        g.sp -= 1
    elif f.kind == F_GIFT:
        x = a - A_GIFT
        for i in range(N_GIFTS):
            if c.gift_action[i] == x:
                g.gifts_up &= <uint8_t>~(1 << i)
        gain_u8(&p.gifts[x], 1)
        g.sp -= 1
        start_action(c, g, seat, x)
    elif f.kind == F_VISIT:
        g.sp -= 1
        do_visit(c, g, seat, a - A_VISIT)
    elif f.kind == F_OFFER:
        if a >= A_USE:
            use_spirit(c, g, f, a - A_USE)
            return
        t = a - A_INCENSE
        if t != g.visit:
            if g.bakeneko:
                gain_u8(&p.sticks_free, 1)
            else:
                p.coins -= c.other_temple_coins
                gain_u8(&p.sticks_paid, 1)
        g.incense[t][seat] += 1
        g.incense_top[t][seat] = g.stick_clock
        p.incense -= 1
        g.sticks_placed += 1
        f.a -= 1
        f.b = <int8_t>t
        if f.a == 0:
            g.sp -= 1
    elif f.kind == F_STALK:
        f.b = <int8_t>(a - A_STALK)
        push(g, F_SHOOT, seat, a - A_STALK, 0)
    elif f.kind == F_SHOOT:
        for i in range(AREA_CAP):
            if g.to_place[i] == a:
                for k in range(i, AREA_CAP - 1):
                    g.to_place[k] = g.to_place[k + 1]
                g.to_place[AREA_CAP - 1] = NO_TILE
                break
        s = f.a
        g.stalk_new[s][STALK_NEW - stalk_free(g, s)] = <uint8_t>a
        g.unactivated[a % N_ICONS] += 1
        g.sp -= 1
        f = &g.stack[g.sp - 1]
        f.a -= 1
        if f.a == 0:
            g.sp -= 1
    elif f.kind == F_ACTIVATE:
        if a == A_DONE:
            gain_u8(&p.declined, f.a)
            g.sp -= 1
            end_turn(g, seat)
        elif a >= A_USE:
            use_spirit(c, g, f, a - A_USE)
        elif a >= A_WILD:
            x = a - A_WILD
            if g.unactivated[ICON_WILD] > 0:
                g.unactivated[ICON_WILD] -= 1
            else:
                for i in range(N_ACTIONS):
                    if g.unactivated[i] > 0:
                        g.unactivated[i] -= 1
                        break
            f.a -= 1
            gain_u8(&p.wild_actions, 1)
            start_action(c, g, seat, x)
        else:
            x = a - A_ACTIVATE
            g.unactivated[x] -= 1
            f.a -= 1
            start_action(c, g, seat, x)
    elif f.kind == F_BALANCE:
        if a == A_DONE:
            g.sp -= 1
        elif a == A_BAL_HP:
            p.hp[SRC_BALANCE_HP] += c.balance_hp
            g.sp -= 1
        elif a < A_SCORE:
            d = (a - A_OBTAIN) // BAL_MARKET
            i = (a - A_OBTAIN) % BAL_MARKET
            tile = g.bal_market[d][i]
            market_take(g.bal_market[d], BAL_MARKET, i)
            bal_refill(c, g, d)
            p.balance[d][0 if p.balance[d][0] == NO_TILE else 1] = <uint8_t>tile
            gain_u8(&p.balance_obtained, 1)
            f.a -= 1
            if f.a == 0:
                g.sp -= 1
        else:
            d = (a - A_SCORE) // BAL_SLOTS
            i = (a - A_SCORE) % BAL_SLOTS
            tile = p.balance[d][i]
            p.hp[SRC_BALANCE_SCORED] += c.bal_hp[tile]
            market_take(p.balance[d], BAL_SLOTS, i)
            gain_u8(&p.n_scored, 1)
            p.scored[tile >> 3] |= <uint8_t>(1 << (tile & 7))
            f.a -= 1
            if f.a == 0:
                g.sp -= 1
    elif f.kind == F_IMPROVE:
        if a == A_COIN:
            improve_coin(c, p)
            g.sp -= 1
        else:
            k = (a - A_BUY) // HOME_MARKET
            i = (a - A_BUY) % HOME_MARKET
            tile = g.home_market[k][i]
            p.coins -= c.home_cost[tile]
            p.hp[SRC_HOME_TILES] += c.home_hp[tile]
            market_take(g.home_market[k], HOME_MARKET, i)
            home_refill(c, g, k)
            f.kind = F_HOME_SPACE
            f.a = <int8_t>tile
    elif f.kind == F_HOME_SPACE:
        p.home[a - A_SPACE] = <uint8_t>f.a
        g.sp -= 1
    elif f.kind == F_COOK:
        take_food(g, p, a - A_TAKE_FOOD)
        g.sp -= 1
    elif f.kind == F_RENEW_FOOD:
        if a == A_DONE:
            g.sp -= 1
        elif a == A_RENEW:
            renew_food(g)
            if f.a == 0:
                f.kind = F_COOK
            else:
                g.sp -= 1
        else:
            take_food(g, p, a - A_TAKE_FOOD)
            f.a = 1
    elif f.kind == F_KEEP_SHOOT:
        t = a - A_KEEP
        p.area[t][area_count(p, t)] = <uint8_t>f.a
        gain_u8(&p.overflow, 1)
        market_take(g.received, AREA_CAP, 0)
        g.n_received -= 1
        g.sp -= 1
        if g.n_received > 0:
            push(g, F_KEEP_SHOOT, seat, g.received[0], 0)
        else:
            next_turn(g)
    elif f.kind == F_WAKE:
        if a == A_DONE:
            g.sp -= 1
        else:
            s = a - A_WAKE
            p.asleep[s] -= 1
            p.coins -= c.spirit_cost[s]
            gain_u8(&p.spirit_woken[s], 1)
            f.b = <int8_t>s
    elif f.kind == F_FEED:
        if a >= A_PAY:
            k = a - A_PAY
            u = c.food_units[k]
            p.food[k] -= 1
            g.food_discard[k] += 1
            if u >= f.a:
                gain_u8(&p.food_wasted, u - f.a)
                g.sp -= 1
            else:
                f.a -= u
                f.b = <int8_t>(k + 1)
        else:
            use_spirit(c, g, f, a - A_USE)
    if g.sp == 0:
        advance(c, g)

# =============================================================================
# Phases
# =============================================================================
cdef inline int temple_leader(const GameState* g, int t) noexcept nogil:
    """The seat (GHOST included) that would take temple t's spirit if Autumn came now (B29), -1 if none."""
    cdef int seat, best = -1
    for seat in range(N_SEATS):
        if g.incense[t][seat] == 0:
            continue
        if (best < 0 or g.incense[t][seat] > g.incense[t][best]
                or (g.incense[t][seat] == g.incense[t][best] and g.incense_top[t][seat] > g.incense_top[t][best])):
            best = seat
    return best

cdef void autumn(const Comp* c, GameState* g) noexcept nogil:
    """Phase 3 (B29, B30): majorities take the face-up spirits, all incense comes back, the next spirits show."""
    cdef int t, seat, best, spirit
    for t in range(N_TEMPLES):
        best = temple_leader(g, t)
        if g.spirit_left[t] > 0:
            spirit = g.spirit_stack[t][g.spirit_left[t] - 1]
            g.spirit_stack[t][g.spirit_left[t] - 1] = NO_TILE
            g.spirit_left[t] -= 1
            if best < 0 or best == GHOST:
                g.spirit_gone[spirit] += 1
            else:
                g.pl[best].spirits[spirit] += 1
    for t in range(N_TEMPLES):
        for seat in range(g.n_players):
            g.pl[seat].incense += g.incense[t][seat]
        memset(g.incense[t], 0, sizeof(g.incense[t]))
        memset(g.incense_top[t], 0, sizeof(g.incense_top[t]))
    if g.n_players == 2 and g.round < N_ROUNDS:
        ghost_sticks(c, g)

cdef void feed_player(const Comp* c, GameState* g, int seat) noexcept nogil:
    """Winter step 2 for one player (B27, B31)."""
    cdef int owed = home_tiles(&g.pl[seat]) * c.food_per_home_tile
    if owed == 0:
        return
    push(g, F_FEED, seat, owed, 0)
    feed_rest(c, g, &g.stack[g.sp - 1])

cdef void wake_player(const Comp* c, GameState* g, int seat) noexcept nogil:
    """Winter step 1 (B28): spirits that cost nothing wake at once; the others are woken by choice."""
    cdef Player* p = &g.pl[seat]
    cdef int s
    cdef bint choice = False
    for s in range(N_SPIRITS):
        if p.asleep[s] > 0 and c.spirit_cost[s] == 0:
            gain_u8(&p.spirit_woken[s], p.asleep[s])
            p.asleep[s] = 0
        elif p.asleep[s] > 0 and p.coins >= c.spirit_cost[s]:
            choice = True
    if choice:
        push(g, F_WAKE, seat, 0, 0)

cdef void advance(const Comp* c, GameState* g) noexcept nogil:
    """Moves the game on until a decision is pending or the game is over."""
    cdef int P = g.n_players, seat, t
    cdef Player* p
    while g.sp == 0 and g.phase != PH_END:
        if g.phase == PH_SETUP:
            if g.turn_idx < DRAFTED * P:            # B1: two passes in turn order
                push(g, F_DRAFT, seat_at(g, g.turn_idx % P), 0, 0)
                g.turn_idx += 1
            else:
                begin_spring(g)
        elif g.phase == PH_SPRING:
            if g.turn_idx < P:                      # B5, B7: the stick, then the gift
                seat = seat_at(g, g.turn_idx)
                p = &g.pl[seat]
                if p.track > 0:
                    p.track -= 1
                    p.incense += 1
                push(g, F_GIFT, seat, 0, 0)
                g.turn_idx += 1
            else:
                g.gifts_up = 0
                g.phase = PH_SUMMER
                g.turn_idx = 0
                g.passed = 0
                g.stick_clock = 0
        elif g.phase == PH_SUMMER:
            if g.passed == (1 << P) - 1:
                g.passed = 0
                g.stick_clock = 0
                autumn(c, g)
                g.phase = PH_WAKE
                g.turn_idx = 0
                continue
            seat = seat_at(g, g.turn_idx)
            p = &g.pl[seat]
            if not g.passed & (1 << seat):
                if p.incense > 0:
                    for t in range(N_TEMPLES):
                        if visit_ok(p, t):
                            push(g, F_VISIT, seat, 0, 0)
                            break
                if g.sp > 0:
                    break
                g.passed |= <uint8_t>(1 << seat)     # B9, B10
            next_turn(g)
        elif g.phase == PH_WAKE:
            if g.turn_idx < P:
                seat = seat_at(g, g.turn_idx)
                g.turn_idx += 1
                wake_player(c, g, seat)
            else:
                g.phase = PH_FEED
                g.turn_idx = 0
        elif g.phase == PH_FEED:
            if g.turn_idx < P:
                seat = seat_at(g, g.turn_idx)
                g.turn_idx += 1
                feed_player(c, g, seat)
            elif g.round == N_ROUNDS:                # B6: the game ends after the fourth Winter
                final_scoring(c, g)
                g.phase = PH_END
                g.turn_idx = 0
            else:                                    # Winter steps 3-5
                g.start_seat = <int8_t>((g.start_seat + 1) % P)
                winter_markets(c, g)
                fill_food(g)
                g.round += 1
                begin_spring(g)

cdef int start(const Comp* c, GameState* g, int n_players, uint64_t seed, bint advanced, int* out) noexcept nogil:
    setup(c, g, n_players, seed, advanced)
    advance(c, g)
    return settle(c, g, out)
