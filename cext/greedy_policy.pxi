# The heuristic policy both games share: each legal action judged by the mover's evaluation after it, the best one
# taken. Included at the end of each engine's evaluation (engine_eval.pxi, bamboo_eval.pxi), whose names it uses:
# evaluate_player (a seat's value), is_sub_decision (the decisions that continue a step the mover has begun) and
# FINISH_STEPS_MAX.

from libc.math cimport INFINITY

from seeds cimport mix_seed

cdef void evaluate(const Comp* c, const GameState* g, const double* w, double* out) noexcept nogil:
    cdef int s
    for s in range(g.n_players):
        out[s] = evaluate_player(c, g, w, s)

cdef int judge_options(const Comp* c, const GameState* g, const double* w, bint thorough, uint64_t* rng,
                       int* actions, double* values, double* tie_breaks) noexcept nogil:
    """Fills `actions` with the legal actions and `values` with the value the player to move has after each.
    `thorough` first finishes the step the action begins greedily (is_sub_decision; at most FINISH_STEPS_MAX
    decisions), so a choice is judged with what it commits the mover to; otherwise one decision is judged with
    the evaluation's estimate of what is pending. `tie_breaks` gets a tiny random amount per action from `rng`,
    for greedy_action. Returns the number of actions."""
    cdef int sub[NUM_ACTIONS]
    cdef int n = legal_actions(c, g, actions), i, me = current_player(g), guard, m
    cdef GameState after
    for i in range(n):
        after = g[0]
        m = step(c, &after, actions[i], sub)
        guard = 0
        while thorough and m > 0 and guard < FINISH_STEPS_MAX and current_player(&after) == me \
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
