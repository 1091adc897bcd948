# Features of a Bora Bora state for the learned evaluation (cext/learned.pxi), from one seat's viewpoint.
# They use only what that seat can see: its own hand, and of the others their hand sizes and the cards
# known to have been taken face up (`known`), never their unknown cards or the order of any pile.
#
# Layout: N_GLOBAL_FEATURES about the game, then one block of N_SEAT_FEATURES for the viewer followed by a
# block for each other seat in seat order after it; the blocks of seats a smaller game lacks are zero.

cdef enum:
    N_GLOBAL_FEATURES = 24
    N_SEAT_FEATURES = 73
    N_FEATURES = N_GLOBAL_FEATURES + MAX_PLAYERS * N_SEAT_FEATURES

FEATURE_NAMES_GLOBAL = ("round", "phase_setup", "phase_a", "phase_b", "phase_c", "phase_final", "temple_vp_to_come",
                        "players_2", "players_3", "players_4", "god_deck_left", "god_tiles_left",
                        "low_die_helper", "low_die_temple", "low_die_build", "low_die_man", "low_die_woman",
                        "low_die_land", "low_die_water", "god_display_blue", "god_display_white",
                        "god_display_red", "god_display_green", "god_display_yellow")
FEATURE_NAMES_SEAT = ("vp", "priest_value", "status_vp", "status", "offerings", "god_cards", "god_tiles", "shells",
                      "materials", "materials_beside", "person_turns", "persons", "symbols", "free_spaces",
                      "regions", "fish", "task_progress", "tasks_held", "tasks_done", "goal_progress", "jewelry",
                      "buildings", "pending", "fishing_dice", "priests", "dice_left", "dice_points", "order",
                      "to_move", "huts_12th",
                      *[f"{sex}_{ability}" for sex in ("men", "women")
                        for ability in ("land_path", "water_path", "woman", "man", "build", "material", "move_hut",
                                        "victory_points", "god_card", "offering", "status", "shell")],
                      "men", "women", "god_blue", "god_white", "god_red", "god_green", "god_yellow",
                      "sand", "stone", "wood", "material_pairs", "islands", "terrains", "fish_types",
                      "reach_land", "reach_water", "jewelry_kinds", "shells_all", "persons_shifted")


cdef void seat_features(const Comp* c, const GameState* g, int s, int viewer, double* out) noexcept nogil:
    """The block of seat `s` as `viewer` sees it: the heuristic's terms (engine_eval.pxi) unweighted, and counts."""
    cdef Player p = g.pl[s]                    # a copy: another seat's unknown cards are replaced by its known ones
    cdef int i, r, t, k, need, filled = 0, materials = 0, beside = 0, symbols = 0, fish = 0, hand = 0
    cdef int first_round = g.round - 1 if g.phase <= PH_B else g.round
    cdef double temple_future = 0, priests = 0, tasks = 0, pending = 0
    for i in range(N_COLOURS):
        hand += p.hand[i]
        if s != viewer:
            p.hand[i] = p.known[i]
    if g.phase == PH_END:
        first_round = N_ROUNDS
    for r in range(first_round, N_ROUNDS):
        temple_future += c.temple_vp[r]
    for i in range(TEMPLE_SPACES):
        if g.temple[i] == s:
            priests += 1.0 - 0.08 * i
    for i in range(CEREMONY_SPACES):
        if p.ceremony[i] != CER_EMPTY: filled += 1
        if p.ceremony[i] == CER_MATERIAL: materials += 1
    for i in range(N_MATERIALS):
        beside += p.beside[i]
    for i in range(p.n_persons):
        if not (p.shifted & (1 << i)): symbols += c.person_symbols[p.persons[i]]
    for r in range(N_REGIONS):
        if g.region_owner[r] == s: fish += c.fish_value[g.fish_at[r]]
    k = 0
    for i in range(TASK_SLOTS):
        t = p.tasks[i]
        if t == NO_TILE: continue
        k += 1
        need = 0
        for r in range(MAX_TASK_REQS):
            if c.task_req_kind[t][r] >= 0: need += c.task_req_count[t][r]
        tasks += 6.0 * (1.0 - <double>task_shortfall(c, g, s, &p, t) / need) ** 2
    for i in range(g.sp):
        if g.stack[i].player == s:
            if g.stack[i].kind == F_HELPER: pending += g.stack[i].a
            elif is_sub_decision(g.stack[i].kind): pending += 2
    out[0] = total_score(&p)
    out[1] = priests * temple_future
    out[2] = c.status_vp[p.status] if g.phase <= PH_B else 0
    out[3] = p.status
    out[4] = p.offerings
    out[5] = hand
    out[6] = p.god_tiles
    out[7] = min(<int>p.shells, 12)
    out[8] = materials
    out[9] = beside
    out[10] = p.n_persons * (N_ROUNDS - first_round)
    out[11] = p.n_persons
    out[12] = symbols
    out[13] = free_person_spaces(c, &p)
    out[14] = popcount(p.regions)
    out[15] = fish
    out[16] = tasks
    out[17] = k
    out[18] = p.tasks_done
    out[19] = 6.0 * (cube(min(p.tasks_done, 9) / 9.0) + cube(p.n_jewelry / 6.0) + cube(filled / 12.0)
                     + cube(popcount(p.built) / 6.0) + cube(popcount(p.regions) / 12.0) + cube(p.n_persons / 12.0))
    out[20] = p.n_jewelry
    out[21] = popcount(p.built)
    out[22] = pending
    out[23] = p.dice_placed[ACT_FISH]
    out[24] = priests_in_temple(g, s)
    out[25] = 0
    out[26] = 0
    for i in range(N_DICE):
        if p.dice[i]:
            out[25] += 1
            out[26] += p.dice[i]
    out[27] = 0
    for i in range(g.n_players):
        if g.order[i] == s:
            out[27] = i
    out[28] = 1 if g.phase != PH_END and current_player(g) == s else 0
    out[29] = p.huts_12th
    extra_seat_features(c, g, s, &p, &out[30])


cdef void extra_seat_features(const Comp* c, const GameState* g, int s, const Player* p, double* out) noexcept nogil:
    """The seat's holdings one by one: its abilities, God cards, materials, spread and ways to expand; counted as a
    task counts them (task_have) wherever a task asks for the same thing."""
    cdef int i, t, q
    cdef unsigned int terrains = 0, fish_types = 0
    for i in range(p.n_persons):               # every ability in one pass (ability_count counts one)
        t = p.persons[i]
        out[(1 if t >= PERSONS_PER_SEX else 0) * N_PERSON_TYPES + c.person_type[t]] += 1
    out[24] = task_have(c, g, s, p, TR_MEN, 0)
    out[25] = task_have(c, g, s, p, TR_WOMEN, 0)
    for i in range(N_COLOURS):
        out[26 + i] = p.hand[i]
    for i in range(N_MATERIALS):
        out[31 + i] = task_have(c, g, s, p, TR_MATERIAL, i)
    for q in range(c.n_pairs):
        if p.ceremony[c.pair_a[q]] == CER_MATERIAL and p.ceremony[c.pair_b[q]] == CER_MATERIAL:
            out[34] += 1
    for i in range(N_REGIONS):
        if p.regions & (1 << i):
            terrains |= 1u << c.region_terrain[i]
            fish_types |= 1u << c.fish_type[g.fish_at[i]]
    out[35] = task_have(c, g, s, p, TR_ISLANDS, 0)
    out[36] = popcount(terrains)
    out[37] = popcount(fish_types)
    out[38] = popcount(reachable(c, p, 0, 6))
    out[39] = popcount(reachable(c, p, 1, 6))
    out[40] = task_have(c, g, s, p, TR_JEWELRY_KINDS, 0)
    out[41] = p.shells
    out[42] = task_have(c, g, s, p, TR_PERSONS_SHIFTED, 0)


cdef void features(const Comp* c, const GameState* g, int viewer, double* out) noexcept nogil:
    """The N_FEATURES features of `g` as seat `viewer` sees it (layout above)."""
    cdef int i, k, r
    cdef double temple_future = 0
    cdef int first_round = g.round - 1 if g.phase <= PH_B else g.round
    if g.phase == PH_END:
        first_round = N_ROUNDS
    for r in range(first_round, N_ROUNDS):
        temple_future += c.temple_vp[r]
    for i in range(N_FEATURES):
        out[i] = 0
    out[0] = g.round
    out[1] = g.phase == PH_SETUP
    out[2] = g.phase == PH_A
    out[3] = g.phase == PH_B
    out[4] = g.phase == PH_C_JEWELRY or g.phase == PH_C_TASK or g.phase == PH_C_TAKE_TASK
    out[5] = g.phase == PH_FINAL or g.phase == PH_END
    out[6] = temple_future
    out[7] = g.n_players == 2
    out[8] = g.n_players == 3
    out[9] = g.n_players == 4
    out[10] = g.deck_end - g.deck_top
    out[11] = g.temple_god_tiles
    for i in range(N_ACTION_TILES):
        out[12 + i] = g.tile_low[i]
    for i in range(GOD_DISPLAY_SIZE):
        if g.god_display[i] != NO_TILE: out[19 + g.god_display[i]] += 1
    for k in range(g.n_players):
        seat_features(c, g, (viewer + k) % g.n_players, viewer,
                      &out[N_GLOBAL_FEATURES + k * N_SEAT_FEATURES])
