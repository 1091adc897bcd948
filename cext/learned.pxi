# The learned evaluation from Python: the model object the searches take, the features and win probabilities of a
# state, the learned player's judgement of each legal action, and self-play games that record training samples.
# Included by search.pyx (it uses its handles, scratch and seed helpers); inference itself is in model.pxd.

from libc.stdlib cimport realloc

cdef class Model:
    """A network for the compiled search and players: `layers`, a list of one or two hidden tanh layers (w, b) with
    w (units x inputs), applied to each seat's features; `value`, (w, b) with one weight per unit of the last layer,
    the seat's logit, the seats' logits softmaxed into win probabilities; and optionally `policy`, (w, b) with one
    weight per unit of the last layer and one bias per action of the game, or (w, b, linear) with one weight per
    feature more: an action's logit is w . (the activations of the state it leads to, as the mover sees it)
    + b[action] (+ linear . its features) (model.pxd); with `finish`, heuristic weights of the
    game, that state is the one after the rest of the mover's turn played by the greedy policy with them, and
    `heuristic` times the mover's value by them there is added to the logit. The first
    layer must already include the features' standardisation; the weights are kept in single precision, transposed.
    """
    cdef LearnedModel m
    cdef object arrays
    cdef object linear

    def __cinit__(self, layers, value, policy=None, finish=None, double heuristic=0.0):
        cdef int k
        self.m.wl = NULL
        self.m.heuristic = heuristic
        layers = [(_matrix(w, f"layers[{i}] weights"), _vector(b, f"layers[{i}] biases"))
                  for i, (w, b) in enumerate(layers)]
        if not 0 < len(layers) <= MAX_MODEL_LAYERS:
            raise ValueError(f"a model has 1..{MAX_MODEL_LAYERS} hidden layers, got {len(layers)}")
        inputs = layers[0][0].shape[1]
        if not 0 < inputs <= MAX_MODEL_FEATURES:
            raise ValueError(f"a model takes 1..{MAX_MODEL_FEATURES} features, got {inputs}")
        for i, (w, b) in enumerate(layers):
            if not (0 < w.shape[0] <= MAX_MODEL_HIDDEN and w.shape[1] == inputs and b.shape == (w.shape[0],)):
                raise ValueError(f"layers[{i}] must be a (units, {inputs}) matrix with 1..{MAX_MODEL_HIDDEN} hidden "
                                 f"units and one bias per unit, got shapes {w.shape} and {b.shape}")
            inputs = w.shape[0]
        value_w, value_b = _vector(value[0], "value weights"), float(value[1])
        if value_w.shape != (inputs,) or not np.isfinite(value_b):
            raise ValueError(f"the value head must have one value per hidden unit ({inputs}) and a finite bias, got "
                             f"shape {value_w.shape} and {value_b}")
        arrays = [np.ascontiguousarray(w.T, dtype=np.float32) for w, _ in layers]
        arrays += [np.ascontiguousarray(b, dtype=np.float32) for _, b in layers]
        arrays.append(np.ascontiguousarray(value_w, dtype=np.float32))
        self.m.n_actions = 0
        if policy is not None:
            policy_w, policy_b = _vector(policy[0], "policy weights"), _vector(policy[1], "policy biases")
            if policy_w.shape != (inputs,) or policy_b.shape[0] == 0:
                raise ValueError(f"the policy head must have one weight per hidden unit ({inputs}) and one bias per "
                                 f"action, got shapes {policy_w.shape} and {policy_b.shape}")
            arrays += [np.ascontiguousarray(policy_w, dtype=np.float32),
                       np.ascontiguousarray(policy_b, dtype=np.float32)]
            self.m.n_actions = policy_b.shape[0]
            if len(policy) == 3:
                linear = _vector(policy[2], "policy linear weights")
                if linear.shape != (layers[0][0].shape[1],):
                    raise ValueError(f"the policy's linear part must have one weight per feature "
                                     f"({layers[0][0].shape[1]}), got shape {linear.shape}")
                self.linear = np.ascontiguousarray(linear, dtype=np.float32)
        self.m.finish, self.m.n_finish = NULL, 0
        if finish is not None:
            finish = _vector(finish, "finish weights")
            if policy is None or finish.shape[0] == 0:
                raise ValueError("finish weights need a policy head and at least one weight")
            arrays.append(np.ascontiguousarray(finish, dtype=np.float64))
            self.m.n_finish = finish.shape[0]
        if heuristic != 0 and finish is None or not np.isfinite(heuristic):
            raise ValueError(f"the heuristic's weight in the policy must be finite and needs finish weights (the "
                             f"heuristic that judges), got {heuristic} with finish weights {finish is not None}")
        self.arrays = tuple(arrays)
        self.m.n_layers = len(layers)
        self.m.n_in = layers[0][0].shape[1]
        for k in range(self.m.n_layers):
            self.m.width[k] = layers[k][0].shape[0]
            self.m.wt[k] = _floats(arrays[k])
            self.m.b[k] = _floats(arrays[self.m.n_layers + k])
        self.m.wv = _floats(arrays[2 * self.m.n_layers])
        self.m.bv = value_b
        if self.m.n_actions:
            self.m.wp = _floats(arrays[2 * self.m.n_layers + 1])
            self.m.bp = _floats(arrays[2 * self.m.n_layers + 2])
        if self.m.n_finish:
            self.m.finish = _doubles(arrays[len(arrays) - 1])
        if self.linear is not None:
            self.m.wl = _floats(self.linear)

    @property
    def num_features(self):
        return self.m.n_in

    @property
    def hidden(self):
        """The units of each hidden layer."""
        return tuple(self.m.width[i] for i in range(self.m.n_layers))

    @property
    def num_actions(self):
        """The actions of the policy head (0: the network has none)."""
        return self.m.n_actions

    @property
    def heuristic(self):
        """The weight of the mover's heuristic value of a finished afterstate in the policy's logit."""
        return self.m.heuristic

    @property
    def finish(self):
        """The heuristic weights that finish the mover's turn before the policy judges it (None: it judges the state
        an action leads to at once)."""
        return None if self.m.finish == NULL else np.asarray(self.arrays[len(self.arrays) - 1]).copy()


cdef const float* _floats(array):
    cdef const float[::1] flat = array.reshape(-1)
    return &flat[0]


cdef const double* _doubles(array):
    cdef const double[::1] flat = array
    return &flat[0]


def _matrix(value, what):
    array = np.array(value, dtype=np.float64)
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"{what} must be a non-empty matrix, got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{what} must be finite numbers")
    return array


def _vector(value, what):
    array = np.array(value, dtype=np.float64)
    if array.ndim != 1 or not np.isfinite(array).all():
        raise ValueError(f"{what} must be a vector of finite numbers, got shape {array.shape}")
    return array


cdef const LearnedModel* model_for(const GameVTable* vt, Model model) except NULL:
    """The model's C view, checked against the game's features."""
    if vt.features == NULL or vt.num_features <= 0:
        raise ValueError("this game has no learned features: the learned evaluation is not available for it")
    if model.m.n_in != vt.num_features:
        raise ValueError(f"the model expects {model.m.n_in} features per seat, the game has {vt.num_features}")
    if model.m.n_actions and model.m.n_actions != vt.num_actions:
        raise ValueError(f"the model's policy has {model.m.n_actions} actions, the game has {vt.num_actions}")
    if model.m.n_finish and (vt.policy == NULL or model.m.n_finish != vt.num_weights):
        raise ValueError(f"the model finishes turns with {model.m.n_finish} heuristic weights, the game's heuristic "
                         f"has {vt.num_weights if vt.policy != NULL else 'none'}")
    return &model.m


cdef const LearnedModel* policy_model_for(const GameVTable* vt, Model model) except NULL:
    """The model's C view, checked against the game's features and actions; it must have a policy head."""
    cdef const LearnedModel* m = model_for(vt, model)
    if m.n_actions == 0:
        raise ValueError("this model has no policy head (a value-only network): give one trained with a policy")
    return m


cdef double value_for(const GameVTable* vt, const void* rules, const void* st, int n, int me,
                      const LearnedModel* m) noexcept nogil:
    """`me`'s win probability: the outcome if the game is over, else the model's estimate."""
    cdef double p[MAX_MODEL_SEATS]
    if n == 0:
        vt.returns(rules, st, p)
    else:
        model_win_probabilities(vt, rules, st, m, p)
    return p[me]


cdef void judge_learned(const GameVTable* vt, const void* rules, const void* root, int me, const LearnedModel* m,
                        const double* weights, uint64_t seed, int samples, void* det, void* after, int* legal,
                        int* sub, double* totals, int* counts) noexcept nogil:
    """totals[a] / counts[a]: the mean over `samples` determinizations for `me` of its win probability after
    action a and the rest of its turn played by the greedy policy (the same policy randomness for every a)."""
    cdef int k, i, n, na
    for k in range(samples):
        memcpy(det, root, vt.state_size)
        vt.determinize(rules, det, me, mix_seed(seed, k))
        na = vt.legal_actions(rules, det, legal)
        for i in range(na):
            n = play_afterstate(vt, rules, det, legal[i], me, weights, after, sub,
                                mix_seed(seed ^ <uint64_t>FINISH_SEED, k))
            totals[legal[i]] += value_for(vt, rules, after, n, me, m)
            counts[legal[i]] += 1


cdef class _Buffers:
    """Scratch memory for the learned player and self-play: two states and three action lists."""
    cdef void* det
    cdef void* after
    cdef int* legal
    cdef int* sub
    cdef int* counts
    cdef double* totals

    def __cinit__(self, size_t state_size, int num_actions):
        self.det = malloc(state_size)
        self.after = malloc(state_size)
        self.legal = <int*>malloc(num_actions * sizeof(int))
        self.sub = <int*>malloc(num_actions * sizeof(int))
        self.counts = <int*>malloc(num_actions * sizeof(int))
        self.totals = <double*>malloc(num_actions * sizeof(double))
        if not (self.det and self.after and self.legal and self.sub and self.counts and self.totals):
            raise MemoryError()

    def __dealloc__(self):
        free(self.det)
        free(self.after)
        free(self.legal)
        free(self.sub)
        free(self.counts)
        free(self.totals)


cdef const double* heuristic_weights(const GameVTable* vt, const double[::1] w) except NULL:
    if vt.policy == NULL or vt.num_weights <= 0:
        raise ValueError("this game has no heuristic policy to finish a turn with")
    if w.shape[0] != vt.num_weights:
        raise ValueError(f"weights must have {vt.num_weights} values, got {w.shape[0]}")
    return &w[0]


def features(handles, seat):
    """The game's features of the state in `handles` as `seat` sees it (a float64 array)."""
    cdef _Handles h = _Handles(handles, seat)
    if h.vt.features == NULL or h.vt.num_features <= 0:
        raise ValueError("this game has no learned features: the learned evaluation is not available for it")
    out = np.zeros(h.vt.num_features, dtype=np.float64)
    cdef double[::1] o = out
    h.vt.features(h.rules, h.state, h.root_player, &o[0])
    return out


def win_probabilities(handles, Model model not None):
    """The model's win probability of every seat in the state of `handles` (State.search_handles())."""
    cdef _Handles h = _Handles(handles, 0)
    cdef const LearnedModel* m = model_for(h.vt, model)
    cdef double p[MAX_MODEL_SEATS]
    model_win_probabilities(h.vt, h.rules, h.state, m, p)
    return [p[i] for i in range(h.vt.num_players(h.state))]


def policy(handles, Model model not None, seed=0):
    """[(action, probability)] of the model's policy for the player to move in the state of `handles`, in
    legal-action order, judged on a determinization for that player (chosen by `seed`): nothing hidden from it is
    read, not even through a card an action would draw."""
    cdef _Handles h = _Handles(handles, 0)
    cdef const LearnedModel* m = policy_model_for(h.vt, model)
    cdef uint64_t s = check_int(seed, "seed", 0, SEED_MAX)
    cdef _Buffers b = _Buffers(h.vt.state_size, h.vt.num_actions)
    cdef int n, i
    with nogil:
        memcpy(b.det, h.state, h.vt.state_size)
        h.vt.determinize(h.rules, b.det, h.vt.current_player(b.det), s)
        n = h.vt.legal_actions(h.rules, b.det, b.legal)
        model_policy(h.vt, h.rules, b.det, m, b.legal, n, b.after, b.sub, b.totals)
    return [(b.legal[i], b.totals[i]) for i in range(n)]


def afterstate_features(handles, seed=0, finish=None):
    """(legal actions, features, values) for the player to move in the state of `handles`: the features (one row per
    legal action, float32) of the state each action leads to, as that player sees it, on a determinization for it
    chosen by `seed` (what the policy head reads; for training it). With `finish`, heuristic weights of the game,
    each state is the one after the rest of the player's turn played by the greedy policy with them, and `values`
    (float32) the player's heuristic value by them there; without, `values` are zero."""
    cdef _Handles h = _Handles(handles, 0)
    if h.vt.features == NULL or h.vt.num_features <= 0:
        raise ValueError("this game has no learned features: the learned evaluation is not available for it")
    cdef uint64_t s = check_int(seed, "seed", 0, SEED_MAX)
    cdef _Buffers b = _Buffers(h.vt.state_size, h.vt.num_actions)
    cdef int me, n, i
    w = None if finish is None else np.ascontiguousarray(finish, dtype=np.float64)
    cdef const double* fw = NULL if w is None else heuristic_weights(h.vt, w)
    memcpy(b.det, h.state, h.vt.state_size)
    me = h.vt.current_player(b.det)
    h.vt.determinize(h.rules, b.det, me, s)
    n = h.vt.legal_actions(h.rules, b.det, b.legal)
    out = np.zeros((n, h.vt.num_features), dtype=np.float64)
    values = np.zeros(n, dtype=np.float32)
    cdef double[:, ::1] o = out
    cdef double seat_values[MAX_MODEL_SEATS]
    for i in range(n):
        play_afterstate(h.vt, h.rules, b.det, b.legal[i], me, fw, b.after, b.sub, FINISH_SEED)
        h.vt.features(h.rules, b.after, me, &o[i, 0])
        if fw != NULL:
            h.vt.evaluate(h.rules, b.after, fw, seat_values)
            values[i] = seat_values[me]
    return [b.legal[i] for i in range(n)], out.astype(np.float32), values


def learned_option_values(handles, Model model not None, weights, seed, samples=1):
    """[(action, value)] for each legal action of the player to move, in legal-action order: its win probability
    after the action and the rest of its turn (played by the greedy policy with `weights`), by the model, averaged
    over `samples` determinizations for that player (chosen by `seed`)."""
    cdef _Handles h = _Handles(handles, 0)
    cdef int me = h.vt.current_player(h.state)
    cdef const LearnedModel* m = model_for(h.vt, model)
    w = np.ascontiguousarray(weights, dtype=np.float64)
    cdef const double* wp = heuristic_weights(h.vt, w)
    cdef uint64_t s = check_int(seed, "seed", 0, SEED_MAX)
    cdef int k = check_int(samples, "samples", 1, 10000)
    cdef _Buffers b = _Buffers(h.vt.state_size, h.vt.num_actions)
    memset(b.counts, 0, h.vt.num_actions * sizeof(int))
    memset(b.totals, 0, h.vt.num_actions * sizeof(double))
    with nogil:
        judge_learned(h.vt, h.rules, h.state, me, m, wp, s, k, b.det, b.after, b.legal, b.sub, b.totals, b.counts)
    return [(a, b.totals[a] / b.counts[a] if b.counts[a] else 0.0) for a in sorted(h.legal)]


cdef int learned_choice(const GameVTable* vt, const void* rules, const void* st, int me, const LearnedModel* m,
                        const double* weights, uint64_t seed, _Buffers b) noexcept nogil:
    """The action with the best value by judge_learned (one determinization); the first of equal ones."""
    cdef int i, n, best = -1
    cdef double v, best_value = -1.0
    memset(b.counts, 0, vt.num_actions * sizeof(int))
    memset(b.totals, 0, vt.num_actions * sizeof(double))
    judge_learned(vt, rules, st, me, m, weights, seed, 1, b.det, b.after, b.legal, b.sub, b.totals, b.counts)
    for i in range(vt.num_actions):
        if b.counts[i]:
            v = b.totals[i] / b.counts[i]
            if v > best_value:
                best_value = v
                best = i
    return best


def self_play(handles, weights, seed, double keep=0.1, double explore=0.0, Model model=None, learned_seats=()):
    """Plays the game in `handles` to its end in compiled code and records training samples.

    Seat s plays the greedy policy with weights[s] (thorough, on a determinization for it), or, if s is in
    `learned_seats`, the learned player with `model` (finishing its turns with weights[s]); with probability
    `explore` a decision is a uniformly random legal action instead. At the end of each turn (the player to move
    changes) the state is kept with probability `keep`: the features of every seat from its own viewpoint.
    Returns (features: float32 array (samples, players, features), returns per seat, scores per seat).
    """
    cdef _Handles h = _Handles(handles, 0)
    cdef const GameVTable* vt = h.vt
    if vt.features == NULL or vt.num_features <= 0:
        raise ValueError("this game has no learned features: the learned evaluation is not available for it")
    cdef int players = vt.num_players(h.state), s, n, a, mover, count = 0, cap = 64
    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != players or w.shape[1] != vt.num_weights:
        raise ValueError(f"weights must be a ({players}, {vt.num_weights}) matrix: a weight vector per seat, got "
                         f"shape {w.shape}")
    cdef const double[:, ::1] wv = w
    heuristic_weights(vt, wv[0])
    cdef unsigned char learned[MAX_MODEL_SEATS]
    memset(learned, 0, sizeof(learned))
    for s in learned_seats:
        learned[check_int(s, "learned seat", 0, players - 1)] = 1
    cdef const LearnedModel* m = NULL
    if model is not None:
        m = model_for(vt, model)
    elif len(learned_seats):
        raise ValueError("learned_seats need a model")
    cdef uint64_t rng = mix_seed(check_int(seed, "seed", 0, SEED_MAX), 0x5E1F)
    cdef _Buffers b = _Buffers(vt.state_size, vt.num_actions)
    cdef void* st = malloc(vt.state_size)
    if st == NULL:
        raise MemoryError()
    cdef int* legal = <int*>malloc(vt.num_actions * sizeof(int))
    cdef float* rows = <float*>malloc(cap * players * vt.num_features * sizeof(float))
    cdef float* grown
    cdef double x[MAX_MODEL_FEATURES]
    cdef double ret[MAX_MODEL_SEATS]
    cdef double sc[MAX_MODEL_SEATS]
    cdef int f, nf = vt.num_features
    cdef bint out_of_memory = False
    cdef float[:, :, ::1] view
    try:
        if legal == NULL or rows == NULL:
            raise MemoryError()
        memcpy(st, h.state, vt.state_size)
        with nogil:
            n = vt.legal_actions(h.rules, st, legal)
            while n > 0:
                mover = vt.current_player(st)
                if explore > 0 and <double>(mix_seed(rng, 1) >> 11) / 9007199254740992.0 < explore:
                    a = legal[pick_uniform(&rng, n)]
                elif learned[mover]:
                    a = learned_choice(vt, h.rules, st, mover, m, &wv[mover, 0], mix_seed(rng, 2), b)
                else:
                    memcpy(b.det, st, vt.state_size)
                    vt.determinize(h.rules, b.det, mover, mix_seed(rng, 3))
                    a = vt.policy(h.rules, b.det, &wv[mover, 0], 1, &rng)
                rng = mix_seed(rng, 4)
                n = vt.step(h.rules, st, a, legal)
                if n > 0 and vt.current_player(st) != mover and \
                        <double>(mix_seed(rng, 5) >> 11) / 9007199254740992.0 < keep:
                    if count == cap:
                        grown = <float*>realloc(rows, 2 * cap * players * nf * sizeof(float))
                        if grown == NULL:
                            out_of_memory = True
                            break
                        rows = grown
                        cap *= 2
                    for s in range(players):
                        vt.features(h.rules, st, s, x)
                        for f in range(nf):
                            rows[(count * players + s) * nf + f] = <float>x[f]
                    count += 1
        if out_of_memory:
            raise MemoryError()
        vt.returns(h.rules, st, ret)
        vt.scores(h.rules, st, sc)
        out = np.empty((count, players, nf), dtype=np.float32)
        if count:
            view = out
            memcpy(&view[0, 0, 0], rows, count * players * nf * sizeof(float))
        return out, np.array([ret[s] for s in range(players)]), np.array([sc[s] for s in range(players)])
    finally:
        free(st)
        free(legal)
        free(rows)
