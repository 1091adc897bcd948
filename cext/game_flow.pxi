# The flow both games' kernels share: the stack of pending decisions, forced moves taken at once, a step, a
# seat's total. Included by each engine's flow (engine_flow.pxi, bamboo_flow.pxi), whose names it uses: Comp,
# GameState (with `stack` of Frame, `sp` and `pl` of Player), legal_actions, apply_action, advance (which pushes the
# next decision, or ends the game) and score_by_source (a seat's points by source, N_SOURCES of them).

cdef inline void push(GameState* g, int kind, int player, int a, int b) noexcept nogil:
    cdef Frame* f = &g.stack[g.sp]
    f.kind = <uint8_t>kind
    f.player = <int8_t>player
    f.a = <int8_t>a
    f.b = <int8_t>b
    g.sp += 1

cdef int current_player(const GameState* g) noexcept nogil:
    return g.stack[g.sp - 1].player if g.sp > 0 else -1

cdef int settle(const Comp* c, GameState* g, int* out) noexcept nogil:
    """Takes every forced move (a decision with one legal action) and skips any decision with none: play never
    offers one, but a loaded state may hold one (a turn left without a die, a task or a free region in Bora Bora,
    Bamboo's ruling B40). Leaves the legal actions of the next real decision in `out` and returns their number
    (0: game over)."""
    cdef int n = legal_actions(c, g, out)
    while n <= 1 and g.sp > 0:
        if n == 1:
            apply_action(c, g, out[0])
        else:
            g.sp -= 1
            advance(c, g)
        n = legal_actions(c, g, out)
    return n

cdef int step(const Comp* c, GameState* g, int a, int* out) noexcept nogil:
    """Applies the legal action `a`, then settles (see settle)."""
    apply_action(c, g, a)
    return settle(c, g, out)

cdef inline int total_score(const Player* p) noexcept nogil:
    """The seat's points: victory points in Bora Bora, happiness points in Bamboo."""
    cdef const int16_t* points = score_by_source(p)
    cdef int i, t = 0
    for i in range(N_SOURCES):
        t += points[i]
    return t
