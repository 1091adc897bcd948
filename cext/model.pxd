# The network's inference: a small multilayer perceptron applied to one seat's features (the game's
# GameVTable.features, from that seat's viewpoint). Its value head gives one logit per seat, the seats' logits
# softmaxed into win probabilities (the reward vector a search leaf needs). Its policy head, when it has one, rates
# each legal action of the seat to move by the state the action leads to (an afterstate, as that seat sees it): a
# logit from the same hidden layers plus a bias of the action, the legal actions' logits softmaxed. Judging the
# afterstate lets one small network tell apart actions whose meaning depends on the board (which die, which space),
# as the heuristic does with its evaluation; a linear part on the afterstate's features may be added to that logit.
# A network may name heuristic weights (`finish`) with which the mover's
# turn is played to its end before its afterstate is judged: a compound move (a die, then what the action it was
# placed on lets the mover take) is then judged by what it brings, as the heuristic judges it. Plain C loops, no
# allocation.

cimport cython
from libc.math cimport exp
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from game_api cimport GameVTable


cdef extern from "dense.h" nogil:
    void add_rows(float* out, const float* w, int width, const int* rows, const float* a, int n)

cdef enum:
    TURN_END_CAP = 64              # decisions that may be added to finish a turn (a guard: turns are far shorter)
    FINISH_SEED = 0x1EA5           # the greedy policy's tie-break stream when it finishes a turn
    MAX_MODEL_FEATURES = 512
    MAX_MODEL_HIDDEN = 256
    MAX_MODEL_LAYERS = 2
    MAX_MODEL_SEATS = 8

cdef struct LearnedModel:
    int n_in                       # features per seat (the game's num_features)
    int n_layers                   # hidden tanh layers, 1..MAX_MODEL_LAYERS
    int width[MAX_MODEL_LAYERS]    # units of each hidden layer
    const float* wt[MAX_MODEL_LAYERS]   # layer i transposed (its inputs x its units); the standardisation folded in
    const float* b[MAX_MODEL_LAYERS]
    const float* wv                # value head: one weight per unit of the last layer
    double bv
    int n_actions                  # policy head: 0 when the network has none, else the game's number of actions
    const float* wp                # one weight per unit of the last layer, applied to an afterstate's activations
    const float* bp                # n_actions: each action's bias
    const float* wl                # n_in weights on the afterstate's features themselves (a linear part beside the
    #                                hidden layers, which can carry a heuristic's weighted sum exactly), or NULL
    const double* finish           # heuristic weights that finish the mover's turn before the policy judges it, or NULL
    int n_finish                   # their number (the game's num_weights), 0 without
    double heuristic               # with finish weights: the weight of the mover's heuristic value (by them) of the
    #                                finished afterstate in its logit, so the policy starts from the heuristic's own
    #                                judgement and learns what to add to it


@cython.cdivision(True)          # no check for a zero divisor (q is at least 0.0048): it would keep the loop scalar
cdef inline float fast_tanh(float x) noexcept nogil:
    """tanh in single precision, within 4e-7 of the true value: a rational function of x, odd, on [-clamp, clamp]
    (beyond it tanh is 1 to single precision), free of branches and calls so that a loop of it vectorises; libm's
    tanh took a quarter of a network search's instructions."""
    cdef float clamp = 7.90531110763549805
    cdef float p13 = -2.76076847742355e-16, p11 = 2.00018790482477e-13, p9 = -8.60467152213735e-11
    cdef float p7 = 5.12229709037114e-08, p5 = 1.48572235717979e-05, p3 = 6.37261928875436e-04
    cdef float p1 = 4.89352455891786e-03
    cdef float q6 = 1.19825839466702e-06, q4 = 1.18534705686654e-04, q2 = 2.26843463243900e-03
    cdef float q0 = 4.89352518554385e-03
    x = clamp if x > clamp else x
    x = -clamp if x < -clamp else x
    cdef float x2 = x * x
    cdef float p = ((((((p13 * x2 + p11) * x2 + p9) * x2 + p7) * x2 + p5) * x2 + p3) * x2 + p1)
    cdef float q = (((q6 * x2 + q4) * x2 + q2) * x2 + q0)
    return x * p / q


cdef inline int trunk(const LearnedModel* m, const double* x, float* h) noexcept nogil:
    """The last hidden layer's activations for the feature vector `x`, into `h`; returns its width. The first layer
    adds one row per non-zero feature (many are zero: counts not yet started, seats a smaller game lacks)."""
    cdef int j, i, k, n = 0, width = m.width[0]
    cdef float first[MAX_MODEL_HIDDEN]
    cdef float a[MAX_MODEL_FEATURES]
    cdef int rows[MAX_MODEL_FEATURES]
    cdef float* out = h if m.n_layers == 1 else first
    for i in range(m.n_in):
        if x[i] != 0:
            rows[n], a[n] = i, <float>x[i]
            n += 1
    for j in range(width):
        out[j] = m.b[0][j]
    add_rows(out, m.wt[0], width, rows, a, n)
    for j in range(width):
        out[j] = fast_tanh(out[j])
    for k in range(1, m.n_layers):
        for i in range(width):
            rows[i] = i
        for j in range(m.width[k]):
            h[j] = m.b[k][j]
        add_rows(h, m.wt[k], m.width[k], rows, first, width)
        width = m.width[k]
        for j in range(width):
            h[j] = fast_tanh(h[j])
    return width


cdef inline double value_logit(const LearnedModel* m, const float* h, int width) noexcept nogil:
    cdef double out = m.bv
    cdef int j
    for j in range(width):
        out += m.wv[j] * h[j]
    return out


cdef inline void softmax(double* v, int n) noexcept nogil:
    """v becomes exp(v) / sum(exp(v)), computed without overflow."""
    cdef double hi = -1e300, total = 0
    cdef int i
    for i in range(n):
        if v[i] > hi:
            hi = v[i]
    for i in range(n):
        v[i] = exp(v[i] - hi)
        total += v[i]
    for i in range(n):
        v[i] /= total


cdef inline void model_win_probabilities(const GameVTable* vt, const void* rules, const void* state,
                                         const LearnedModel* m, double* out) noexcept nogil:
    """out[seat] = the model's probability that `seat` wins, for every seat (they sum to 1)."""
    cdef double x[MAX_MODEL_FEATURES]
    cdef float h[MAX_MODEL_HIDDEN]
    cdef int s, players = vt.num_players(state)
    for s in range(players):
        vt.features(rules, state, s, x)
        out[s] = value_logit(m, h, trunk(m, x, h))
    softmax(out, players)


cdef inline int finish_turn(const GameVTable* vt, const void* rules, void* st, int n, int* legal, int me,
                            const double* weights, uint64_t* rng) noexcept nogil:
    """Plays `me`'s turn to its end with the game's greedy policy; returns the number of legal actions then."""
    cdef int guard = 0
    while n > 0 and vt.current_player(st) == me and guard < TURN_END_CAP:
        n = vt.step(rules, st, vt.policy(rules, st, weights, 0, rng), legal)
        guard += 1
    return n


cdef inline int play_afterstate(const GameVTable* vt, const void* rules, const void* state, int action, int me,
                                const double* finish, void* after, int* scratch, uint64_t rng) noexcept nogil:
    """`after` becomes the state `action` leads to from `state`, with the rest of `me`'s turn played by the greedy
    policy with the weights `finish` when they are given (tie-breaks from the stream `rng`); returns the number of
    legal actions there (0: the game is over)."""
    memcpy(after, state, vt.state_size)
    cdef int n = vt.step(rules, after, action, scratch)
    if finish != NULL:
        n = finish_turn(vt, rules, after, n, scratch, me, finish, &rng)
    return n


cdef inline void model_policy(const GameVTable* vt, const void* rules, const void* state, const LearnedModel* m,
                              const int* legal, int n, void* after, int* scratch, double* out) noexcept nogil:
    """out[i] = the policy's probability of legal[i] for the seat to move in `state`, which must be a determinization
    for that seat (an action's afterstate may show it a card drawn: it must be one it could draw, not the real one).
    `after` (a state's size) and `scratch` (the game's number of actions) are working memory. The network must have
    a policy head."""
    cdef double x[MAX_MODEL_FEATURES]
    cdef double values[MAX_MODEL_SEATS]
    cdef float h[MAX_MODEL_HIDDEN]
    cdef int i, j, width, me = vt.current_player(state)
    for i in range(n):
        play_afterstate(vt, rules, state, legal[i], me, m.finish, after, scratch, FINISH_SEED)
        if m.heuristic != 0:
            vt.evaluate(rules, after, m.finish, values)
        vt.features(rules, after, me, x)
        width = trunk(m, x, h)
        out[i] = m.bp[legal[i]]
        for j in range(width):
            out[i] += m.wp[j] * h[j]
        if m.wl != NULL:
            for j in range(m.n_in):
                out[i] += m.wl[j] * x[j]
        if m.heuristic != 0:
            out[i] += m.heuristic * values[me]
    softmax(out, n)
