# Features of a Pig state for the learned evaluation and the network (cext/learned.pxi, docs/expert.md), from one
# seat's viewpoint. Pig hides nothing (only the die's future rolls), so every seat sees the same board; the layout
# still starts with the viewer, as the other games' do.
#
# Layout: N_GLOBAL_FEATURES about the game, then one block of N_SEAT_FEATURES for the viewer followed by a block for
# each other seat in seat order after it; the blocks of seats a smaller game lacks are zero. Points are divided by
# the goal, so every feature lies in 0..1 but a turn total past the goal, which the mover would bank at once.

cdef enum:
    N_GLOBAL_FEATURES = 5
    N_SEAT_FEATURES = 5
    N_FEATURES = N_GLOBAL_FEATURES + MAX_PLAYERS * N_SEAT_FEATURES

FEATURE_NAMES_GLOBAL = ("players_2", "players_3", "players_4", "turn_total", "over")
FEATURE_NAMES_SEAT = ("score", "to_go", "with_turn_total", "to_move", "turns_until_move")


cdef void features(const Comp* c, const GameState* g, int viewer, double* out) noexcept nogil:
    """The N_FEATURES features of `g` as seat `viewer` sees it (layout above)."""
    cdef int i, k, s, P = g.n_players, mover = current_player(g)
    cdef double goal = c.goal, banked
    cdef double* block
    for i in range(N_FEATURES):
        out[i] = 0
    out[P - 2] = 1
    out[3] = g.turn_total / goal
    out[4] = g.phase == PH_END
    for k in range(P):
        s = (viewer + k) % P
        block = &out[N_GLOBAL_FEATURES + k * N_SEAT_FEATURES]
        banked = total_score(&g.pl[s])
        block[0] = banked / goal
        block[1] = max(0.0, goal - banked) / goal
        block[2] = (banked + (g.turn_total if s == mover else 0)) / goal
        block[3] = s == mover
        block[4] = ((s - mover + P) % P) / <double>P if mover >= 0 else 0
