# Pig's heuristic (docs/pig.md): hold once the turn total reaches a target, the rule of Neller & Presser's
# "keep pace and end race" with the numbers of a style (WEIGHT_NAMES in pig.pyx):
#   hold_at      the target when the scores are level (20: "hold at 20"; 21 in keep pace)
#   pace         target points per point the best other seat is ahead (0; 1/8 in keep pace)
#   race_within  once any seat is this close to the goal, roll for the goal (0: never; 29 in keep pace, from 71)
# The target never exceeds what reaching the goal needs: a bank that reaches it wins at once. Nothing here looks
# at the die's generator: rolling is judged by the expectation over the die's faces.

from libc.math cimport floor

cdef enum:                         # the weights, in WEIGHT_NAMES order
    W_HOLD_AT, W_PACE, W_RACE_WITHIN, N_WEIGHTS


cdef int hold_target(const Comp* c, const GameState* g, const double* w, int seat) noexcept nogil:
    """The turn total at which `seat` holds, 1..the points it lacks to reach the goal."""
    cdef int i, mine = g.pl[seat].score[SRC_BANKED], lead = 0, lacking = c.goal - mine
    cdef double target
    for i in range(g.n_players):
        if i != seat:
            lead = max(lead, g.pl[i].score[SRC_BANKED])
        if w[W_RACE_WITHIN] > 0 and g.pl[i].score[SRC_BANKED] >= c.goal - w[W_RACE_WITHIN]:
            return max(lacking, 1)
    target = floor(w[W_HOLD_AT] + w[W_PACE] * (lead - mine) + 0.5)
    if not target < lacking:                   # NaN and huge weights too
        return max(lacking, 1)
    return <int>target if target >= 1 else 1


cdef double turn_worth(const Comp* c, int total, int target) noexcept nogil:
    """The points a turn at `total` banks on average when its mover rolls until `target` and then holds."""
    cdef double worth[MAX_GOAL + MAX_FACES]
    cdef int t, f
    if total >= target:
        return total
    for t in range(target + c.faces - 1, total - 1, -1):
        if t >= target:
            worth[t - total] = t
        else:
            worth[t - total] = 0
            for f in range(2, c.faces + 1):
                worth[t - total] += worth[t + f - total]
            worth[t - total] /= c.faces
    return worth[0]


cdef void evaluate(const Comp* c, const GameState* g, const double* w, double* out) noexcept nogil:
    """Each seat's points banked, and for the seat to move what its turn in progress banks on average under the
    style (turn_worth): the value of a position at a search's cut-off."""
    cdef int seat, mover = current_player(g)
    for seat in range(g.n_players):
        out[seat] = g.pl[seat].score[SRC_BANKED]
        if seat == mover:
            out[seat] += turn_worth(c, g.turn_total, hold_target(c, g, w, seat))


cdef int judge_options(const Comp* c, const GameState* g, const double* w, bint thorough, uint64_t* rng,
                       int* actions, double* values, double* tie_breaks) noexcept nogil:
    """The mover's points after each legal action, in the mover's view of the style: hold banks the turn total;
    roll is the average over the die's faces of the points after the roll (a 1 leaves the score as it is, a face
    f adds f to the turn total), where a turn still going is worth its total plus the style's premium for going
    on, (target - S) / (faces - 1) with S = 2 + ... + faces (0 when holding at 20 with six faces: plain expected
    points). Rolling is worth more exactly while the turn total is below the target, by (target - total) / faces.
    Each step is one decision, so `thorough` changes nothing; no tie is broken at random (greedy_action holds on a
    tie)."""
    cdef int n = legal_actions(c, g, actions), i, seat = current_player(g), total = g.turn_total
    cdef int target = hold_target(c, g, w, seat), faces = c.faces
    cdef double mine = g.pl[seat].score[SRC_BANKED]
    for i in range(n):
        tie_breaks[i] = 0.0
        if actions[i] == A_HOLD:
            values[i] = mine + total
        else:                                  # (1/F) mine + the sum over f of (1/F)(mine + total + f + premium)
            values[i] = mine + total + <double>(target - total) / faces
    return n


cdef int greedy_action(const Comp* c, const GameState* g, const double* w, bint thorough,
                       uint64_t* rng) noexcept nogil:
    """Hold once the turn total reaches the target, else roll (the compulsory first roll too): exactly the action
    judge_options values most, holding on a tie."""
    if g.sp and g.stack[0].kind == F_ROLL_OR_HOLD and g.turn_total >= hold_target(c, g, w, current_player(g)):
        return A_HOLD
    return A_ROLL
