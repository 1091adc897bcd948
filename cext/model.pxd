# The learned evaluation's inference: a small multilayer perceptron applied to each seat's features (the game's
# GameVTable.features, from that seat's viewpoint), the seats' outputs softmaxed into win probabilities: the
# reward vector a search cut-off needs. Plain C loops, no allocation.

from libc.math cimport exp, tanh

from game_api cimport GameVTable

cdef enum:
    MAX_MODEL_FEATURES = 512
    MAX_MODEL_HIDDEN = 256
    MAX_MODEL_SEATS = 8

cdef struct LearnedModel:
    int n_in                       # features per seat (the game's num_features)
    int n_hidden
    const float* w1t               # n_in x n_hidden (the first layer transposed); the standardisation folded in
    const float* b1                # n_hidden
    const float* w2                # n_hidden
    double b2


cdef inline double seat_logit(const LearnedModel* m, const double* x) noexcept nogil:
    """The network's output (a logit) for one seat's feature vector `x`. The first layer adds one row per non-zero
    feature (many are zero: counts not yet started, seats a smaller game lacks), a loop the compiler vectorises."""
    cdef int j, i
    cdef float h[MAX_MODEL_HIDDEN]
    cdef float xi
    cdef const float* row
    cdef double out = m.b2
    for j in range(m.n_hidden):
        h[j] = m.b1[j]
    for i in range(m.n_in):
        if x[i] != 0:
            xi = <float>x[i]
            row = &m.w1t[i * m.n_hidden]
            for j in range(m.n_hidden):
                h[j] += xi * row[j]
    for j in range(m.n_hidden):
        out += m.w2[j] * tanh(h[j])
    return out


cdef inline void model_win_probabilities(const GameVTable* vt, const void* rules, const void* state,
                                         const LearnedModel* m, double* out) noexcept nogil:
    """out[seat] = the model's probability that `seat` wins, for every seat (they sum to 1)."""
    cdef double x[MAX_MODEL_FEATURES]
    cdef int s, players = vt.num_players(state)
    cdef double hi = -1e300, total = 0
    for s in range(players):
        vt.features(rules, state, s, x)
        out[s] = seat_logit(m, x)
        if out[s] > hi:
            hi = out[s]
    for s in range(players):
        out[s] = exp(out[s] - hi)
        total += out[s]
    for s in range(players):
        out[s] /= total
