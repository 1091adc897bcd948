# Features of a Bamboo state for the learned evaluation (cext/learned.pxi), from one seat's viewpoint. Bamboo has no
# hidden hand (B37): what no seat sees is the order of the stacks, of the food pile and of the spirits under the
# face-up ones, and future chance; the features read none of it (only the stacks' sizes and the face-up tiles).
#
# Layout: N_GLOBAL_FEATURES about the game, then one block of N_SEAT_FEATURES for the viewer followed by a
# block for each other seat in seat order after it; the blocks of seats a smaller game lacks are zero. Counts are
# divided by a typical maximum, so that every feature stays within about -1..2 (the tests check -3..3).

cdef enum:
    N_GLOBAL_FEATURES = 21
    N_SEAT_FEATURES = 39
    N_FEATURES = N_GLOBAL_FEATURES + MAX_PLAYERS * N_SEAT_FEATURES

FEATURE_NAMES_GLOBAL = ("round", "phase_setup", "phase_spring", "phase_summer", "phase_wake", "phase_feed",
                        "phase_end", "summers_left", "players_2", "players_3", "players_4", "advanced",
                        "home_market_cost", "home_stacks", "balance_market_hp", "balance_stacks", "food_display",
                        "food_pile", "spirits_left", "ghost_incense", "passed_share")
FEATURE_NAMES_SEAT = ("hp", "coins", "incense", "incense_track", "incense_offered", "shoots_balance",
                      "shoots_improve", "shoots_cook", "shoots_fund", "shoots_wild", "visitable", "food_units",
                      "food_need", "food_kept", "hunger", "home_tiles", "comfort", "harmony_loss", "harmony_open",
                      "night_uncovered", "balance_held", "balance_scored", "balance_met_half", "balance_met_extra",
                      "balance_near_1", "balance_near_more", "spirit_kinds", "spirits_awake", "spirits_asleep",
                      "temples_led", "temples_led_new_kind", "pending_activations", "pending_actions",
                      "pending_comfort", "acting", "order", "to_move", "passed", "homes_affordable")


cdef void seat_features(const Comp* c, const GameState* g, int s, double* out) noexcept nogil:
    """The block of seat `s`: the heuristic's terms (bamboo_eval.pxi) unweighted, in HP where they are HP, and
    counts, each scaled."""
    cdef const Player* p = &g.pl[s]
    cdef int i, t, k, tile, P = g.n_players, summers = summers_left(g), tiles = home_tiles(p)
    cdef int units = food_worth(c, p, 0), need = food_need(g, s, tiles), left, right, diff, reach
    cdef int shoots[N_ICONS]
    cdef bint acting = g.phase != PH_END and still_acting(g, s, summers)
    cdef HomeMasks m
    home_masks(c, p, &m)
    for i in range(N_ICONS):
        shoots[i] = 0
    for t in range(N_TEMPLES):
        for i in range(AREA_CAP):
            if p.area[t][i] != NO_TILE:
                shoots[p.area[t][i] % N_ICONS] += 1
        out[4] += g.incense[t][s] / 7.0
        out[10] += visit_ok(p, t) / 4.0
        if g.spirit_left[t] > 0 and temple_leader(g, t) == s:         # the face-up spirit the incense takes now
            out[29] += 0.25
            if p.spirits[g.spirit_stack[t][g.spirit_left[t] - 1]] == 0:
                out[30] += 0.25
    out[0] = total_score(p) / 30.0
    out[1] = p.coins / 10.0
    out[2] = p.incense / 7.0
    out[3] = p.track / 4.0
    for i in range(N_ICONS):
        out[5 + i] = shoots[i] / 4.0
    out[11] = units / 15.0
    out[12] = need / 15.0
    out[13] = min(units, need + tiles * (N_ROUNDS - g.round)) / 15.0
    out[14] = c.hunger_hp * max(0, need - units) / 15.0
    out[15] = tiles / 15.0
    out[16] = comfort_on(&m, m.occupied) / 20.0
    left = comfort_on(&m, m.occupied & c.side_cells[0])
    right = comfort_on(&m, m.occupied & c.side_cells[2])
    diff = left - right if left > right else right - left
    reach = harmony_reach(c, &m, left, right, summers, acting)
    out[17] = c.harmony_hp * max(0, diff - reach) / 10.0
    out[18] = c.harmony_hp * min(diff, reach) / 10.0
    out[19] = c.uncovered_hp * night_uncovered(c, p) / 10.0
    for i in range(N_SIDES * BAL_SLOTS):                              # held balance tiles by what they lack
        tile = p.balance[i // BAL_SLOTS][i % BAL_SLOTS]
        if tile == NO_TILE:
            continue
        out[20] += 1.0 / 6.0
        k = tiles_missing(c, &m, tile)
        if k == 0:
            out[22] += met_tile_worth(c, tile, 0.0) / 10.0
            out[23] += (met_tile_worth(c, tile, 1.0) - met_tile_worth(c, tile, 0.0)) / 10.0
        elif k != UNREACHABLE:
            out[24 if k == 1 else 25] += met_tile_worth(c, tile, 1.0) / 20.0
    out[21] = p.n_scored / 5.0
    for k in range(N_SPIRITS):
        out[26] += (p.spirits[k] > 0) / 7.0
        out[27] += awake(p, k) / 4.0
        out[28] += p.asleep[k] / 4.0
    for i in range(g.sp):                                             # what this seat has begun and not finished
        if g.stack[i].player != s:
            continue
        k = g.stack[i].kind
        if k == F_ACTIVATE:
            out[31] += g.stack[i].a / 4.0
        elif k == F_BALANCE or k == F_IMPROVE or k == F_COOK or k == F_RENEW_FOOD:
            out[32] += 0.5
        elif k == F_HOME_SPACE:
            out[33] += c.home_comfort[g.stack[i].a] / 3.0
    out[34] = acting
    out[35] = ((s - g.start_seat + P) % P) / 3.0
    out[36] = g.phase != PH_END and current_player(g) == s
    out[37] = (g.passed >> s) & 1
    for i in range(HOME_CATS * HOME_MARKET):                          # face-up home tiles it can buy and place
        tile = g.home_market[i // HOME_MARKET][i % HOME_MARKET]
        if tile != NO_TILE and c.home_cost[tile] <= p.coins and can_place(c, p, tile):
            out[38] += 1.0 / 8.0


cdef void features(const Comp* c, const GameState* g, int viewer, double* out) noexcept nogil:
    """The N_FEATURES features of `g` as seat `viewer` sees it (layout above)."""
    cdef int i, k, P = g.n_players
    for i in range(N_FEATURES):
        out[i] = 0
    out[0] = g.round / 4.0
    out[1 + g.phase] = 1                          # phase_setup .. phase_end, in PHASES order
    out[7] = summers_left(g) / 4.0
    out[8 + P - 2] = 1
    out[11] = g.pl[viewer].advanced
    for k in range(HOME_CATS):                    # the markets: what the face-up tiles cost and bring, on average
        out[13] += g.home_left[k] / 64.0
        for i in range(HOME_MARKET):
            if g.home_market[k][i] != NO_TILE:
                out[12] += c.home_cost[g.home_market[k][i]] / (9.0 * HOME_CATS * HOME_MARKET)
    for k in range(N_SIDES):
        out[15] += g.bal_left[k] / 68.0
        for i in range(BAL_MARKET):
            if g.bal_market[k][i] != NO_TILE:
                out[14] += c.bal_hp[g.bal_market[k][i]] / (20.0 * N_SIDES * BAL_MARKET)
    for k in range(N_FOOD_KINDS):
        out[16] += g.food_display[k] * c.food_units[k] / 15.0
    out[17] = g.food_left / 26.0
    for k in range(N_TEMPLES):
        out[18] += g.spirit_left[k] / 16.0
        out[19] += g.incense[k][GHOST] / 8.0
    out[20] = popcount(g.passed) / <double>P
    for k in range(P):
        seat_features(c, g, (viewer + k) % P, &out[N_GLOBAL_FEATURES + k * N_SEAT_FEATURES])
