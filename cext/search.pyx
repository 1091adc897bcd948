# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Game-independent compiled search over the C game protocol (game_api.pxd): information-set
MCTS and flat Monte Carlo. Python sees only the chosen action and the root statistics."""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.math cimport cos, exp, log, sqrt
from libc.stdint cimport int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from posix.stdlib cimport posix_memalign
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from "<pthread.h>" nogil:
    ctypedef struct pthread_attr_t:
        pass
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)

from game_api cimport GameVTable
from model cimport (LearnedModel, MAX_MODEL_FEATURES, MAX_MODEL_HIDDEN, MAX_MODEL_LAYERS, MAX_MODEL_SEATS,
                   FINISH_SEED, TURN_END_CAP, model_policy, model_win_probabilities, play_afterstate)
from seeds cimport mix_seed, pick_uniform, splitmix_next

import numpy as np

from borabora_sim.errors import check_int

SEED_MAX = 2**64 - 1
BUDGET_MAX = 2**31 - 1
THREADS_MAX = MAX_THREADS

cdef enum:
    MAX_SEARCH_PLAYERS = 8
    MAX_TREE_DEPTH = 4096
    TIME_CHECK_EVERY = 32
    MAX_THREADS = 64
    CACHE_LINE = 64
    MAX_NOISE_ACTIONS = 1024

cdef struct Node:
    int32_t first_child
    int32_t next_sibling
    int32_t action
    int32_t mover                  # player who chose `action` at the parent
    uint32_t visits
    uint32_t avail                 # iterations in which `action` was legal at the parent
    float prior                    # the policy's probability of `action` at the parent (PUCT only)
    double value[MAX_SEARCH_PLAYERS]   # summed rewards per player

cdef struct Config:
    long iterations                # budget in iterations (<= 0: none)
    double seconds                 # budget in seconds (<= 0: none)
    double c_uct                   # exploration constant
    int heuristic_rollout          # 0: uniformly random rollouts, 1: the game's policy
    int rollout_depth              # decisions before the rollout stops (at the end of that turn) and evaluates
    #                                (< 0: to the end)
    double margin_weight           # reward = (1 - m) * win + m * normalised score
    double temperature             # evaluation units per e-fold in the cut-off win estimate
    const double* weights          # the game's heuristic weights (or NULL)
    const LearnedModel* model      # the learned evaluation of cut-offs (NULL: the heuristic's)
    const LearnedModel* network    # PUCT: the network whose policy gives every node's priors
    double c_puct                  # > 0: PUCT with the network's policy as prior (0: UCT)
    bint rollout_leaves            # PUCT: a leaf is judged by a rollout, cut off and judged as UCT's are (else by
    #                                the network's value)
    double noise_alpha             # PUCT: Dirichlet noise of this concentration on the root's priors (0: none)
    double noise_fraction          # the noise's share of a root prior
    const unsigned char* root_allowed   # actions the root player may choose at the root (NULL: all)
    uint64_t seed

cdef struct Scratch:
    void* state
    int* legal
    int* stamp_legal
    int* stamp_tried
    double* priors                 # the policy at a node, in legal-action order (PUCT)
    void* after                    # an afterstate the policy judges, and its legal actions (PUCT)
    int* after_legal
    int stamp

cdef inline double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec

cdef void rollout_rewards(const GameVTable* vt, const void* rules, void* st, int n, int* legal,
                          const Config* cfg, uint64_t* rng, double* reward, int last_mover) noexcept nogil:
    """Plays on from `st` (whose `n` legal actions are in `legal`, `last_mover` having made the decision that
    led there) and fills reward[player]."""
    cdef int steps = 0, p, players = vt.num_players(st), a
    cdef double scores[MAX_SEARCH_PLAYERS]
    cdef double lo, hi, total
    # A cut-off waits for the end of the last mover's turn: states in the middle of a turn are not comparable.
    while n > 0 and (cfg.rollout_depth < 0 or steps < cfg.rollout_depth
                     or (vt.current_player(st) == last_mover and steps < cfg.rollout_depth + TURN_END_CAP)):
        last_mover = vt.current_player(st)
        if cfg.heuristic_rollout and cfg.weights != NULL:
            a = vt.policy(rules, st, cfg.weights, 0, rng)
        else:
            a = legal[pick_uniform(rng, n)]
        n = vt.step(rules, st, a, legal)
        steps += 1
    if n == 0:
        vt.returns(rules, st, reward)
        if cfg.margin_weight > 0:
            vt.scores(rules, st, scores)
            lo = hi = scores[0]
            for p in range(players):
                lo = min(lo, scores[p])
                hi = max(hi, scores[p])
            for p in range(players):
                reward[p] = (1 - cfg.margin_weight) * reward[p] + cfg.margin_weight * (
                    (scores[p] - lo) / (hi - lo) if hi > lo else 0.5)
        return
    if cfg.model != NULL:               # cut off: the learned win probabilities
        model_win_probabilities(vt, rules, st, cfg.model, reward)
        return
    # Cut off: a soft win estimate from the heuristic evaluation.
    vt.evaluate(rules, st, cfg.weights, scores)
    hi = scores[0]
    for p in range(players):
        hi = max(hi, scores[p])
    total = 0
    for p in range(players):
        reward[p] = exp((scores[p] - hi) / cfg.temperature)
        total += reward[p]
    for p in range(players):
        reward[p] /= total

cdef inline void new_tree(Node* nodes, long* n_nodes) noexcept nogil:
    """A tree of the root alone."""
    memset(&nodes[0], 0, sizeof(Node))
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].action = -1
    n_nodes[0] = 1

cdef inline bint budget_spent(const Config* cfg, long it, double start) noexcept nogil:
    if cfg.iterations > 0 and it >= cfg.iterations:
        return True
    return cfg.seconds > 0 and it % TIME_CHECK_EVERY == 0 and it > 0 and now() - start >= cfg.seconds

cdef inline int start_walk(const GameVTable* vt, const void* rules, const void* root, int root_player,
                           const Config* cfg, long it, Scratch* sc, int32_t* path, long* node,
                           int* depth) noexcept nogil:
    """Starts iteration `it` at the root: its determinization of the root for the root player into sc.state, the
    walk at the root node (the path holding it alone); the legal actions into sc.legal, their number returned."""
    node[0] = 0
    path[0] = 0
    depth[0] = 1
    memcpy(sc.state, root, vt.state_size)
    vt.determinize(rules, sc.state, root_player, mix_seed(cfg.seed, it))
    return vt.legal_actions(rules, sc.state, sc.legal)

cdef inline int mark_available(const Config* cfg, Node* nodes, long node, int n, Scratch* sc,
                               double* visits) noexcept nogil:
    """Stamps the `n` legal actions in sc.legal (at the root, only those the root may choose, to which sc.legal is
    narrowed: their number is returned), counts this iteration in the availability of the children they lead to and
    stamps those as tried; adds up those children's visits into `visits` unless it is NULL."""
    cdef int i, kept
    cdef long child
    if node == 0 and cfg.root_allowed != NULL:
        kept = 0
        for i in range(n):
            if cfg.root_allowed[sc.legal[i]]:
                sc.legal[kept] = sc.legal[i]
                kept += 1
        n = kept
    sc.stamp += 1
    for i in range(n):
        sc.stamp_legal[sc.legal[i]] = sc.stamp
    child = nodes[node].first_child
    while child >= 0:
        if sc.stamp_legal[nodes[child].action] == sc.stamp:
            nodes[child].avail += 1
            sc.stamp_tried[nodes[child].action] = sc.stamp
            if visits != NULL:
                visits[0] += nodes[child].visits
        child = nodes[child].next_sibling
    return n

cdef inline int count_untried(int n, const Scratch* sc) noexcept nogil:
    """How many of the `n` actions in sc.legal lead to no child yet (after mark_available)."""
    cdef int i, untried = 0
    for i in range(n):
        if sc.stamp_tried[sc.legal[i]] != sc.stamp:
            untried += 1
    return untried

cdef inline long add_child(Node* nodes, long* n_nodes, long parent, int action, int mover) noexcept nogil:
    cdef long child = n_nodes[0]
    n_nodes[0] += 1
    memset(&nodes[child], 0, sizeof(Node))
    nodes[child].action = action
    nodes[child].mover = mover
    nodes[child].avail = 1
    nodes[child].first_child = -1
    nodes[child].next_sibling = nodes[parent].first_child
    nodes[parent].first_child = child
    return child

cdef inline void back_up(Node* nodes, const int32_t* path, int depth, const double* reward, int players) noexcept nogil:
    cdef int i, p
    for i in range(depth):
        nodes[path[i]].visits += 1
        for p in range(players):
            nodes[path[i]].value[p] += reward[p]

cdef inline void leaf_rollout(const GameVTable* vt, const void* rules, const Config* cfg, const Node* nodes,
                              const int32_t* path, int depth, int n, Scratch* sc, uint64_t* rng,
                              double* reward) noexcept nogil:
    """The rewards of a rollout from the state an iteration's walk reached (sc.state, with its `n` legal actions),
    the last mover being the seat that chose the action of the path's last node (none at the root)."""
    rollout_rewards(vt, rules, sc.state, n, sc.legal, cfg, rng, reward,
                    nodes[path[depth - 1]].mover if depth > 1 else -1)

cdef long mcts(const GameVTable* vt, const void* rules, const void* root, int root_player,
               const Config* cfg, Node* nodes, long max_nodes, long* n_nodes, Scratch* sc) noexcept nogil:
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): one tree over
    the root player's information sets, one determinization per iteration, UCB with
    availability counts, and a reward per player backed up along the path."""
    cdef long it = 0, node, child, best
    cdef int n, i, a = -1, mover, untried, depth, players = vt.num_players(root)
    cdef int32_t path[MAX_TREE_DEPTH]
    cdef double reward[MAX_SEARCH_PLAYERS]
    cdef double score, best_score, start = now()
    cdef uint64_t rng = mix_seed(cfg.seed, 0xB0A)
    new_tree(nodes, n_nodes)
    while not budget_spent(cfg, it, start):
        n = start_walk(vt, rules, root, root_player, cfg, it, sc, path, &node, &depth)
        while n > 0 and depth < MAX_TREE_DEPTH:
            mover = vt.current_player(sc.state)
            n = mark_available(cfg, nodes, node, n, sc, NULL)
            untried = count_untried(n, sc)
            if untried > 0 and n_nodes[0] < max_nodes:
                untried = pick_uniform(&rng, untried)      # expand one untried action at random
                for i in range(n):
                    if sc.stamp_tried[sc.legal[i]] != sc.stamp:
                        if untried == 0:
                            a = sc.legal[i]
                            break
                        untried -= 1
                path[depth] = add_child(nodes, n_nodes, node, a, mover)
                n = vt.step(rules, sc.state, a, sc.legal)
                depth += 1
                break
            best = -1
            best_score = -1.0
            child = nodes[node].first_child
            while child >= 0:
                if sc.stamp_legal[nodes[child].action] == sc.stamp:
                    score = nodes[child].value[mover] / nodes[child].visits + cfg.c_uct * sqrt(
                        log(<double>nodes[child].avail) / nodes[child].visits)
                    if score > best_score:
                        best_score = score
                        best = child
                child = nodes[child].next_sibling
            if best < 0:
                break                               # tree full and nothing here yet: roll out
            n = vt.step(rules, sc.state, nodes[best].action, sc.legal)
            path[depth] = best
            depth += 1
            node = best
        leaf_rollout(vt, rules, cfg, nodes, path, depth, n, sc, &rng, reward)
        back_up(nodes, path, depth, reward, players)
        it += 1
    return it

cdef inline double uniform_open(uint64_t* rng) noexcept nogil:
    """A uniform draw in (0, 1)."""
    return (<double>(splitmix_next(rng) >> 11) + 0.5) / 9007199254740992.0

cdef double gamma_draw(double alpha, uint64_t* rng) noexcept nogil:
    """A Gamma(alpha, 1) draw (Marsaglia and Tsang 2000; alpha < 1 through Gamma(alpha + 1) * U^(1/alpha))."""
    cdef double boost = 1.0, d, c, x, v, u
    if alpha < 1:
        boost = uniform_open(rng) ** (1.0 / alpha)
        alpha += 1
    d = alpha - 1.0 / 3
    c = 1 / sqrt(9 * d)
    while True:
        x = sqrt(-2 * log(uniform_open(rng))) * cos(6.283185307179586 * uniform_open(rng))
        v = (1 + c * x) ** 3
        if v <= 0:
            continue
        u = uniform_open(rng)
        if log(u) < 0.5 * x * x + d - d * v + d * log(v):
            return boost * d * v

cdef void add_root_noise(const Config* cfg, double* priors, int n, uint64_t* rng) noexcept nogil:
    """Mixes Dirichlet(noise_alpha) noise into the root's priors, for the variety of self-play games."""
    cdef double noise[MAX_NOISE_ACTIONS]
    cdef double total = 0
    cdef int i
    if n > MAX_NOISE_ACTIONS:
        return
    for i in range(n):
        noise[i] = gamma_draw(cfg.noise_alpha, rng)
        total += noise[i]
    for i in range(n):
        priors[i] = (1 - cfg.noise_fraction) * priors[i] + cfg.noise_fraction * noise[i] / total

cdef long puct(const GameVTable* vt, const void* rules, const void* root, int root_player,
               const Config* cfg, Node* nodes, long max_nodes, long* n_nodes, Scratch* sc) noexcept nogil:
    """Information-set MCTS guided by a network (the AlphaZero search over determinizations): a node's children get
    the policy's probabilities as priors when it is first passed through, a child is chosen by PUCT (its mean reward
    plus c_puct * prior * sqrt(parent visits) / (1 + its visits), over the children legal in this determinization;
    an unvisited child is valued as its parent), and the first unvisited node reached is judged by the network's
    value (or the result, at the end) instead of a rollout; with `rollout_leaves`, by a rollout as in `mcts`."""
    cdef long it = 0, node, child, best
    cdef int n, i, mover, missing, depth, players = vt.num_players(root)
    cdef int32_t path[MAX_TREE_DEPTH]
    cdef double reward[MAX_SEARCH_PLAYERS]
    cdef double score, best_score, parent_visits, first_play, start = now()
    cdef uint64_t rng = mix_seed(cfg.seed, 0x9C7)
    new_tree(nodes, n_nodes)
    while not budget_spent(cfg, it, start):
        n = start_walk(vt, rules, root, root_player, cfg, it, sc, path, &node, &depth)
        while n > 0 and depth < MAX_TREE_DEPTH:
            mover = vt.current_player(sc.state)
            parent_visits = 0
            n = mark_available(cfg, nodes, node, n, sc, &parent_visits)
            missing = count_untried(n, sc)
            if missing > 0 and n_nodes[0] + missing <= max_nodes:
                model_policy(vt, rules, sc.state, cfg.network, sc.legal, n, sc.after, sc.after_legal, sc.priors)
                if node == 0 and cfg.noise_alpha > 0:
                    add_root_noise(cfg, sc.priors, n, &rng)
                for i in range(n):
                    if sc.stamp_tried[sc.legal[i]] != sc.stamp:
                        nodes[add_child(nodes, n_nodes, node, sc.legal[i], mover)].prior = <float>sc.priors[i]
            first_play = nodes[node].value[mover] / nodes[node].visits if nodes[node].visits else 0.5
            parent_visits = sqrt(parent_visits + 1)
            best = -1
            best_score = -1e300
            child = nodes[node].first_child
            while child >= 0:
                if sc.stamp_legal[nodes[child].action] == sc.stamp:
                    score = (nodes[child].value[mover] / nodes[child].visits if nodes[child].visits else first_play) \
                        + cfg.c_puct * nodes[child].prior * parent_visits / (1 + nodes[child].visits)
                    if score > best_score:
                        best_score = score
                        best = child
                child = nodes[child].next_sibling
            if best < 0:
                break                               # tree full and nothing here yet: judge this state
            n = vt.step(rules, sc.state, nodes[best].action, sc.legal)
            path[depth] = best
            depth += 1
            node = best
            if nodes[best].visits == 0:
                break
        if cfg.rollout_leaves:
            leaf_rollout(vt, rules, cfg, nodes, path, depth, n, sc, &rng, reward)
        elif n == 0:
            vt.returns(rules, sc.state, reward)
        else:
            model_win_probabilities(vt, rules, sc.state, cfg.network, reward)
        back_up(nodes, path, depth, reward, players)
        it += 1
    return it

cdef struct Worker:                # one thread of a root-parallel search: its own tree, scratch, seed and budget
    const GameVTable* vt
    const void* rules
    const void* root
    int root_player
    Config cfg
    Node* nodes
    long max_nodes
    long n_nodes
    Scratch* sc
    long done

cdef void* run_worker(void* arg) noexcept nogil:
    cdef Worker* w = <Worker*>arg
    if w.cfg.c_puct > 0:
        w.done = puct(w.vt, w.rules, w.root, w.root_player, &w.cfg, w.nodes, w.max_nodes, &w.n_nodes, w.sc)
    else:
        w.done = mcts(w.vt, w.rules, w.root, w.root_player, &w.cfg, w.nodes, w.max_nodes, &w.n_nodes, w.sc)
    return NULL

cdef void run_workers(Worker** workers, int n) noexcept nogil:
    """Runs worker 0 on the calling thread and each other worker on a thread of its own, and waits for them all.
    The workers share only what they read (the game's tables, the root state, the weights); a worker whose thread
    cannot be started runs on the calling thread afterwards: the same result, later."""
    cdef pthread_t ids[MAX_THREADS]
    cdef bint started[MAX_THREADS]
    cdef int t
    for t in range(1, n):
        started[t] = pthread_create(&ids[t], NULL, run_worker, workers[t]) == 0
    run_worker(workers[0])
    for t in range(1, n):
        if started[t]:
            pthread_join(ids[t], NULL)
        else:
            run_worker(workers[t])

cdef long flat_mc(const GameVTable* vt, const void* rules, const void* root, int root_player,
                  const Config* cfg, int rollouts, int* actions, int n_actions, double* totals,
                  Scratch* sc) noexcept nogil:
    """Each root action judged by `rollouts` rollouts on common determinizations (paired)."""
    cdef int k, i, n
    cdef long done = 0
    cdef double reward[MAX_SEARCH_PLAYERS]
    cdef double start = now()
    cdef uint64_t rng
    for k in range(rollouts):
        if cfg.seconds > 0 and k > 0 and now() - start >= cfg.seconds: break
        for i in range(n_actions):
            memcpy(sc.state, root, vt.state_size)
            vt.determinize(rules, sc.state, root_player, mix_seed(cfg.seed, k))
            rng = mix_seed(cfg.seed ^ <uint64_t>0x5EED, k)     # the same rollout randomness for every action
            n = vt.step(rules, sc.state, actions[i], sc.legal)
            rollout_rewards(vt, rules, sc.state, n, sc.legal, cfg, &rng, reward, root_player)
            totals[i] += reward[root_player]
            done += 1
    return done

# =============================================================================
# Python entry points
# =============================================================================
cdef class _Handles:
    """The C view of a game state for one search, checked before any compiled code touches it."""
    cdef const GameVTable* vt
    cdef const void* rules
    cdef const void* state
    cdef object keep                # the handles tuple: its last item owns the memory the pointers point into
    cdef object legal               # the legal actions at the root
    cdef int root_player            # the seat the search is for

    def __cinit__(self, handles, root_player):
        if not isinstance(handles, tuple) or len(handles) != 4:
            raise TypeError("handles must be the 4-tuple of state.search_handles()")
        vtable, rules, state, _owner = handles
        self.vt = <const GameVTable*>PyCapsule_GetPointer(vtable, b"borabora_sim.GameVTable")
        self.rules = PyCapsule_GetPointer(rules, _capsule_name(rules, b".rules"))
        self.state = PyCapsule_GetPointer(state, _capsule_name(state, b".state"))
        self.keep = handles
        cdef int* buf = <int*>malloc(self.vt.num_actions * sizeof(int))
        if buf == NULL:
            raise MemoryError()
        cdef int n = self.vt.legal_actions(self.rules, self.state, buf), i
        self.legal = frozenset([buf[i] for i in range(n)])
        free(buf)
        if n == 0:
            raise ValueError("the game is over: there is nothing to search")
        players = self.vt.num_players(self.state)
        if players > MAX_SEARCH_PLAYERS:
            raise ValueError(f"search handles games of at most {MAX_SEARCH_PLAYERS} players, this one has {players}")
        self.root_player = check_int(root_player, "root_player", 0, players - 1)

    def check_actions(self, actions, str what):
        """`actions` as a list, each of them legal at the root."""
        actions = list(actions)
        wrong = [a for a in actions if isinstance(a, bool) or a not in self.legal]
        if wrong or not actions:
            raise ValueError(f"{what} must be a non-empty list of legal actions ({sorted(self.legal)}), got {wrong or actions}")
        return actions


cdef bytes _capsule_name(capsule, bytes suffix):
    name = PyCapsule_GetName_(capsule)
    if name == NULL or not (<bytes>name).endswith(suffix):
        raise TypeError(f"expected a capsule named '*{suffix.decode()}' from state.search_handles()")
    return <bytes>name


cdef extern from "Python.h":
    const char* PyCapsule_GetName_ "PyCapsule_GetName"(object capsule) except? NULL


cdef void* alloc_lines(size_t size) noexcept nogil:
    """`size` bytes (NULL if there is no memory) on cache lines of their own: threads that write only their own
    buffers then never write to the same line (no false sharing)."""
    cdef void* p = NULL
    if posix_memalign(&p, CACHE_LINE, (size + CACHE_LINE - 1) // CACHE_LINE * CACHE_LINE) != 0:
        return NULL
    return p


cdef Scratch* new_scratch(const GameVTable* vt) except NULL:
    cdef Scratch* sc = <Scratch*>alloc_lines(sizeof(Scratch))
    if sc == NULL:
        raise MemoryError()
    sc.state = alloc_lines(vt.state_size)
    sc.legal = <int*>alloc_lines(vt.num_actions * sizeof(int))
    sc.stamp_legal = <int*>alloc_lines(vt.num_actions * sizeof(int))
    sc.stamp_tried = <int*>alloc_lines(vt.num_actions * sizeof(int))
    sc.priors = <double*>alloc_lines(vt.num_actions * sizeof(double))
    sc.after = alloc_lines(vt.state_size)
    sc.after_legal = <int*>alloc_lines(vt.num_actions * sizeof(int))
    sc.stamp = 0
    if sc.state == NULL or sc.legal == NULL or sc.stamp_legal == NULL or sc.stamp_tried == NULL or \
            sc.priors == NULL or sc.after == NULL or sc.after_legal == NULL:
        free_scratch(sc)
        raise MemoryError()
    memset(sc.stamp_legal, 0, vt.num_actions * sizeof(int))
    memset(sc.stamp_tried, 0, vt.num_actions * sizeof(int))
    return sc


cdef void free_scratch(Scratch* sc) noexcept:
    free(sc.state)
    free(sc.legal)
    free(sc.stamp_legal)
    free(sc.stamp_tried)
    free(sc.priors)
    free(sc.after)
    free(sc.after_legal)
    free(sc)


cdef Config make_config(const GameVTable* vt, long iterations, double seconds, double c_uct,
                        bint heuristic_rollout, int rollout_depth, double margin_weight,
                        double temperature, object weights, uint64_t seed, Model model=None,
                        double c_puct=0.0, double noise_alpha=0.0, double noise_fraction=0.0,
                        bint rollout_leaves=False) except *:
    cdef Config cfg
    cdef const double[::1] w
    cfg.iterations = iterations
    cfg.seconds = seconds
    cfg.c_uct = c_uct
    cfg.heuristic_rollout = heuristic_rollout
    cfg.rollout_depth = rollout_depth
    cfg.margin_weight = margin_weight
    cfg.temperature = temperature
    cfg.seed = seed
    cfg.weights = NULL
    cfg.root_allowed = NULL
    if not c_puct >= 0:
        raise ValueError(f"c_puct must be a number >= 0 (0: UCT with rollouts), got {c_puct}")
    cfg.c_puct = c_puct
    cfg.model = NULL
    cfg.network = NULL
    if c_puct > 0:
        if model is None:
            raise ValueError("PUCT (c_puct > 0) needs a model with a policy head")
        cfg.network = policy_model_for(vt, model)
    elif model is not None:
        cfg.model = model_for(vt, model)
    if rollout_leaves and c_puct == 0:
        raise ValueError("rollout_leaves judges PUCT's leaves by rollouts: give c_puct > 0")
    cfg.rollout_leaves = rollout_leaves
    if not (noise_alpha >= 0 and 0 <= noise_fraction <= 1):
        raise ValueError(f"root noise needs noise_alpha >= 0 and noise_fraction in [0, 1], got {noise_alpha} and "
                         f"{noise_fraction}")
    if noise_alpha > 0 and c_puct == 0:
        raise ValueError("root noise (noise_alpha > 0) is mixed into PUCT's priors: give c_puct > 0")
    cfg.noise_alpha = noise_alpha
    cfg.noise_fraction = noise_fraction
    if weights is not None:
        w = weights
        if w.shape[0] != vt.num_weights:
            raise ValueError(f"weights must have {vt.num_weights} values, got {w.shape[0]}")
        cfg.weights = &w[0]
    if (heuristic_rollout or (rollout_depth >= 0 and cfg.model == NULL and (c_puct == 0 or rollout_leaves))) and \
            (cfg.weights == NULL or vt.evaluate == NULL):
        raise ValueError("heuristic rollouts and cut-off rollouts need the game's heuristic weights")
    if iterations <= 0 and seconds <= 0:
        raise ValueError("give a budget: iterations > 0 or seconds > 0")
    return cfg


cdef Worker* new_worker(_Handles h, const Config* cfg, long iterations, uint64_t seed, long max_nodes) except NULL:
    """A worker searching from `h` with `cfg`, but its own budget of `iterations`, `seed` and tree of `max_nodes`."""
    cdef Worker* w = <Worker*>alloc_lines(sizeof(Worker))
    if w == NULL:
        raise MemoryError()
    w.vt, w.rules, w.root, w.root_player = h.vt, h.rules, h.state, h.root_player
    w.cfg = cfg[0]
    w.cfg.iterations = iterations
    w.cfg.seed = seed
    w.max_nodes = max_nodes
    w.n_nodes = 0
    w.done = 0
    w.sc = NULL
    w.nodes = <Node*>alloc_lines(max_nodes * sizeof(Node))
    if w.nodes == NULL:
        free(w)
        raise MemoryError()
    try:
        w.sc = new_scratch(h.vt)
    except MemoryError:
        free(w.nodes)
        free(w)
        raise
    return w


cdef void free_worker(Worker* w) noexcept:
    free(w.nodes)
    free_scratch(w.sc)
    free(w)


cdef long _default_tree(long iterations, double c_puct):
    """Nodes enough for `iterations`: one per iteration for UCT, which adds one; PUCT adds every child of a node it
    passes through for the first time (bounded at 4 million nodes, 400 MB)."""
    return min((iterations + 1) * 48, 4000000) if c_puct > 0 else iterations + 1


def run_mcts(handles, root_player, iterations=1000, double seconds=0.0, double c_uct=0.7,
             bint heuristic_rollout=False, rollout_depth=-1, double margin_weight=0.0,
             double temperature=10.0, weights=None, seed=0, max_nodes=0, root_actions=None, threads=1,
             Model model=None, double c_puct=0.0, double noise_alpha=0.0, double noise_fraction=0.25,
             bint rollout_leaves=False, bint root_values=False):
    """Runs IS-MCTS from the state in `handles` (State.search_handles()) for `root_player`.

    `root_actions` restricts the actions considered at the root (None: every legal action).
    `c_puct` > 0 searches with the network `model` instead (puct): its policy as priors, its value at the leaves,
    no rollouts; `noise_alpha` > 0 mixes Dirichlet noise into the root's priors (`noise_fraction` of each), for
    self-play. With `rollout_leaves` as well, the policy gives the priors and a rollout (the rollout options above)
    judges each leaf.
    `threads` > 1 searches root-parallel, one tree per thread without the GIL: thread 0 searches with `seed`,
    thread t with mix_seed(seed, t); `iterations` is the total, split as evenly as it goes (a thread with no
    iteration to do is not started), while `seconds` is each thread's; `max_nodes` bounds each tree. The root
    children's visits and summed rewards are added up by action, so one thread gives what the single-threaded
    search always gave, and the same seed and thread count give the same result.
    Returns (iterations done, list of (action, visits, mean reward for root_player)) for the
    root's children, most visited first; with `root_values`, also the root's mean reward of every seat (over
    every thread's iterations), the search's estimate of each seat's chance to win.
    """
    cdef _Handles h = _Handles(handles, root_player)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    cdef long budget = check_int(iterations, "iterations", 0, BUDGET_MAX)
    cdef Config cfg = make_config(h.vt, budget, seconds, c_uct, heuristic_rollout,
                                  check_int(rollout_depth, "rollout_depth", -1, BUDGET_MAX), margin_weight,
                                  temperature, w, check_int(seed, "seed", 0, SEED_MAX), model, c_puct,
                                  noise_alpha, noise_fraction, rollout_leaves)
    cdef long n_max = check_int(max_nodes, "max_nodes", 0, BUDGET_MAX)
    cdef int n_threads = check_int(threads, "threads", 1, THREADS_MAX), t
    allowed = None
    cdef const unsigned char[::1] allowed_view
    if root_actions is not None:
        allowed = np.zeros(h.vt.num_actions, dtype=np.uint8)
        allowed[np.asarray(h.check_actions(root_actions, "root_actions"), dtype=np.intp)] = 1
        allowed_view = allowed
        cfg.root_allowed = &allowed_view[0]
    if budget > 0:
        n_threads = min(n_threads, budget)
    cdef Worker* workers[MAX_THREADS]
    cdef long share, child
    cdef int started = 0
    merged = {}                     # action: [visits, summed reward of root_player], over every thread's root
    try:
        for t in range(n_threads):
            share = budget // n_threads + (t < budget % n_threads)
            workers[t] = new_worker(h, &cfg, share, cfg.seed if t == 0 else mix_seed(cfg.seed, t),
                                    n_max if n_max > 0 else _default_tree(share if budget > 0 else 200000, c_puct))
            started += 1
        with nogil:
            run_workers(workers, n_threads)
        for t in range(n_threads):
            child = workers[t].nodes[0].first_child
            while child >= 0:
                if workers[t].nodes[child].visits:
                    totals = merged.setdefault(workers[t].nodes[child].action, [0, 0.0])
                    totals[0] += workers[t].nodes[child].visits
                    totals[1] += workers[t].nodes[child].value[h.root_player]
                child = workers[t].nodes[child].next_sibling
        done = sum([workers[t].done for t in range(n_threads)])
        players = h.vt.num_players(h.state)
        means = [sum([workers[t].nodes[0].value[p] for t in range(n_threads)]) /
                 max(1, sum([workers[t].nodes[0].visits for t in range(n_threads)])) for p in range(players)]
    finally:
        for t in range(started):
            free_worker(workers[t])
    stats = [(action, visits, value / visits) for action, (visits, value) in merged.items()]
    stats.sort(key=lambda s: (-s[1], -s[2], s[0]))
    return (done, stats, means) if root_values else (done, stats)


def run_flat_mc(handles, root_player, actions, rollouts=100, double seconds=0.0,
                bint heuristic_rollout=False, rollout_depth=-1, double margin_weight=0.0,
                double temperature=10.0, weights=None, seed=0, Model model=None):
    """Flat Monte Carlo: each of `actions` judged by paired rollouts. Returns (rollouts done,
    list of (action, rollouts, mean reward for root_player)), best first."""
    cdef _Handles h = _Handles(handles, root_player)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    cdef int n_rollouts = check_int(rollouts, "rollouts", 0, BUDGET_MAX)
    cdef Config cfg = make_config(h.vt, n_rollouts, seconds, 0.0, heuristic_rollout,
                                  check_int(rollout_depth, "rollout_depth", -1, BUDGET_MAX), margin_weight,
                                  temperature, w, check_int(seed, "seed", 0, SEED_MAX), model)
    acts = np.ascontiguousarray(h.check_actions(actions, "actions"), dtype=np.intc)
    totals = np.zeros(len(acts), dtype=np.float64)
    cdef int[::1] a = acts
    cdef double[::1] t = totals
    cdef Scratch* sc = new_scratch(h.vt)
    cdef long done
    try:
        with nogil:
            done = flat_mc(h.vt, h.rules, h.state, h.root_player, &cfg, n_rollouts, &a[0], a.shape[0], &t[0], sc)
    finally:
        free_scratch(sc)
    per_action = done // max(1, len(acts))
    stats = [(int(acts[i]), per_action, totals[i] / max(1, per_action)) for i in range(len(acts))]
    stats.sort(key=lambda s: (-s[2], s[0]))
    return done, stats


include "learned.pxi"
