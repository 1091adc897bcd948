# Heuristic evaluation of a state for the greedy policy built on it (greedy_policy.pxi).
# Values are in victory-point units; the weights are named in WEIGHT_NAMES (engine.pyx) and
# documented with the heuristic player (borabora_sim/players/heuristic.py).

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
    v = w[W_VP] * total_score(p) + w[W_PRIEST] * priests * temple_future
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

cdef inline bint is_sub_decision(int kind) noexcept nogil:
    """Part of a compound action already chosen (a target, a Helper item, a Fire Bonus ...)."""
    return not (kind == F_DIE or kind == F_PHASE_B or kind == F_JEWELRY or kind == F_TASK or
                kind == F_TAKE_TASK or kind == F_FINAL_TASKS or kind == F_SETUP_HUT)

cdef enum:
    FINISH_STEPS_MAX = 24          # judge_options finishes the step an action begins in at most this many decisions,
                                   # so a die on the temple is judged with its priest and Fire Bonus

include "greedy_policy.pxi"
