# Heuristic evaluation of a state and the greedy policy built on it (players, rollouts).
# Values are in victory-point units; the weights are named in WEIGHT_NAMES (engine.pyx) and
# documented with the heuristic player (borabora_sim/players/heuristic.py).

from libc.math cimport INFINITY

cdef enum:
    W_VP, W_PRIEST, W_STATUS, W_OFFERING, W_GOD_CARD, W_GOD_TILE, W_SHELL, W_MATERIAL,
    W_MATERIAL_BESIDE, W_PERSON, W_SYMBOL, W_FREE_SPACE, W_REGION, W_FISH, W_TASK, W_GOAL,
    W_PENDING, W_FISHING, N_WEIGHTS

cdef inline double cube(double x) noexcept nogil:
    return x * x * x

cdef double evaluate_player(const Comp* c, const GameState* g, const double* w, int s) noexcept nogil:
    cdef const Player* p = &g.pl[s]
    cdef int i, r, t, k, need, filled = 0, materials = 0, beside = 0, symbols = 0, fish = 0
    cdef int first_round = g.round - 1 if g.phase <= PH_B else g.round     # scorings still to come
    cdef double temple_future = 0, v, priests = 0
    if g.phase == PH_END:
        first_round = N_ROUNDS
    for r in range(first_round, N_ROUNDS):
        temple_future += c.temple_vp[r]
    for i in range(TEMPLE_SPACES):             # a priest further right is more likely pushed out
        if g.temple[i] == s:
            priests += 1.0 - 0.08 * i
    v = w[W_VP] * total_vp(p) + w[W_PRIEST] * priests * temple_future
    if g.phase <= PH_B:
        v += w[W_STATUS] * c.status_vp[p.status]
    v += w[W_OFFERING] * p.offerings + w[W_GOD_TILE] * p.god_tiles + w[W_SHELL] * min(<int>p.shells, 9)
    for i in range(N_COLOURS):
        v += w[W_GOD_CARD] * p.hand[i]
    for i in range(CEREMONY_SPACES):
        if p.ceremony[i] != CER_EMPTY: filled += 1
        if p.ceremony[i] == CER_MATERIAL: materials += 1
    for i in range(N_MATERIALS):
        beside += p.beside[i]
    v += w[W_MATERIAL] * materials + w[W_MATERIAL_BESIDE] * beside
    for i in range(p.n_persons):
        if not (p.shifted & (1 << i)): symbols += c.person_symbols[p.persons[i]]
    v += w[W_PERSON] * p.n_persons * (N_ROUNDS - first_round) + w[W_SYMBOL] * symbols
    v += w[W_FREE_SPACE] * free_person_spaces(c, p) + w[W_REGION] * popcount(p.regions)
    for r in range(N_REGIONS):
        if g.region_owner[r] == s: fish += c.fish_value[g.fish_at[r]]
    v += w[W_FISH] * fish
    for i in range(TASK_SLOTS):
        t = p.tasks[i]
        if t == NO_TILE: continue
        need = 0
        for k in range(MAX_TASK_REQS):
            if c.task_req_kind[t][k] >= 0: need += c.task_req_count[t][k]
        v += w[W_TASK] * 6.0 * (1.0 - <double>task_shortfall(c, g, s, p, t) / need) ** 2
    v += w[W_GOAL] * 6.0 * (cube(min(p.tasks_done, 9) / 9.0) + cube(p.n_jewelry / 6.0) + cube(filled / 12.0)
                            + cube(popcount(p.built) / 6.0) + cube(popcount(p.regions) / 12.0)
                            + cube(p.n_persons / 12.0))
    for i in range(g.sp):                      # half-resolved actions of this player
        if g.stack[i].player == s:
            k = g.stack[i].kind
            if k == F_HELPER: v += w[W_PENDING] * g.stack[i].a
            elif k != F_DIE and k != F_PHASE_B and k != F_JEWELRY and k != F_TASK and k != F_TAKE_TASK \
                    and k != F_FINAL_TASKS and k != F_SETUP_HUT:
                v += w[W_PENDING] * 2
    v += w[W_FISHING] * p.dice_placed[ACT_FISH]
    return v

cdef void evaluate(const Comp* c, const GameState* g, const double* w, double* out) noexcept nogil:
    cdef int s
    for s in range(g.n_players):
        out[s] = evaluate_player(c, g, w, s)

cdef inline bint is_sub_decision(int kind) noexcept nogil:
    """Part of a compound action already chosen (a target, a Helper item, a Fire Bonus ...)."""
    return not (kind == F_DIE or kind == F_PHASE_B or kind == F_JEWELRY or kind == F_TASK or
                kind == F_TAKE_TASK or kind == F_FINAL_TASKS or kind == F_SETUP_HUT)

cdef int judge_options(const Comp* c, const GameState* g, const double* w, bint thorough, uint64_t* rng,
                       int* actions, double* values, double* tie_breaks) noexcept nogil:
    """Fills `actions` with the legal actions and `values` with the value the player to move has after each.
    `thorough` first finishes the player's own compound action greedily, so a die on the temple is judged with
    its priest and Fire Bonus; otherwise one step is judged with the pending-action estimate. `tie_breaks`
    gets a tiny random amount per action from `rng`, for greedy_action. Returns the number of actions."""
    cdef int sub[NUM_ACTIONS]
    cdef int n = legal_actions(c, g, actions), i, me = current_player(g), guard, m
    cdef GameState after
    for i in range(n):
        after = g[0]
        m = step(c, &after, actions[i], sub)
        guard = 0
        while thorough and m > 0 and guard < 24 and current_player(&after) == me \
                and is_sub_decision(after.stack[after.sp - 1].kind):
            m = step(c, &after, greedy_action(c, &after, w, False, rng), sub)
            guard += 1
        rng[0] += <uint64_t>0x9E3779B97F4A7C15
        values[i] = evaluate_player(c, &after, w, me)
        tie_breaks[i] = 1e-6 * <double>(mix_seed(rng[0], 0) >> 11) / 9007199254740992.0
    return n

cdef int greedy_action(const Comp* c, const GameState* g, const double* w, bint thorough,
                       uint64_t* rng) noexcept nogil:
    """The legal action with the best value for the player to move (judge_options); ties broken at random."""
    cdef int actions[NUM_ACTIONS]
    cdef double values[NUM_ACTIONS]
    cdef double tie_breaks[NUM_ACTIONS]
    cdef int n = judge_options(c, g, w, thorough, rng, actions, values, tie_breaks), i, best = actions[0]
    cdef double best_value = -INFINITY
    for i in range(n):
        if values[i] + tie_breaks[i] > best_value:
            best_value = values[i] + tie_breaks[i]
            best = actions[i]
    return best
