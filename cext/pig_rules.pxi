# Pig's rules (John Scarne, 1945; docs/pig.md): a turn of rolls of one die, each adding to the turn total until the
# mover holds (banks it) or rolls a 1 (loses it); the first to bank the goal wins at once. The shared flow
# (game_flow.pxi) takes the compulsory first roll of each turn as a forced move. Then the laws of a state
# (check_state) and what the Python side reads: ranks, returns, counters.

from libc.string cimport memset

from seeds cimport below

include "game_flow.pxi"


cdef inline int16_t capped(int value) noexcept nogil:
    """`value`, stopped at COUNT_MAX (scores, turn totals and counters never wrap)."""
    return <int16_t>(value if value < COUNT_MAX else COUNT_MAX)


cdef inline const int16_t* score_by_source(const Player* p) noexcept nogil:
    return p.score


# =============================================================================
# Play
# =============================================================================
cdef int legal_actions(const Comp* c, const GameState* g, int* out) noexcept nogil:
    """The first roll of a turn is compulsory (roll alone); after a roll of 2 or more, roll or hold."""
    if g.sp == 0:
        return 0
    out[0] = A_ROLL
    if g.stack[0].kind == F_FIRST_ROLL:
        return 1
    out[1] = A_HOLD
    return 2


cdef void begin_turn(GameState* g, int seat) noexcept nogil:
    g.sp = 0
    push(g, F_FIRST_ROLL, seat, 0, 0)
    g.pl[seat].turns = capped(g.pl[seat].turns + 1)


cdef void advance(const Comp* c, GameState* g) noexcept nogil:
    """The turn passes to the seat after the one whose turn ended (last_seat); a new round begins at start_seat."""
    cdef int seat = (g.last_seat + 1) % g.n_players
    if seat == g.start_seat and g.round < ROUND_MAX:
        g.round += 1
    begin_turn(g, seat)


cdef void end_turn(GameState* g, int seat, int how, int points) noexcept nogil:
    g.last_seat = <int8_t>seat
    g.pl[seat].last_end = <int8_t>how
    g.pl[seat].last_turn = <int16_t>points
    g.turn_total = 0


cdef void apply_action(const Comp* c, GameState* g, int a) noexcept nogil:
    """Hold banks the turn total (and wins at the goal); a roll of 1 loses it; any other roll adds to it."""
    cdef int seat = g.stack[0].player, face
    cdef Player* p = &g.pl[seat]
    if g.n_moves < MOVES_MAX:
        g.n_moves += 1
    if a == A_HOLD:
        p.holds = capped(p.holds + 1)
        p.score[SRC_BANKED] = capped(p.score[SRC_BANKED] + g.turn_total)
        end_turn(g, seat, END_HOLD, g.turn_total)
        if p.score[SRC_BANKED] >= c.goal:
            g.phase = PH_END
            g.sp = 0
        else:
            advance(c, g)
        return
    face = 1 + below(&g.rng, c.faces)
    p.rolls = capped(p.rolls + 1)
    g.last_roll = <int8_t>face
    if face == 1:                              # pig out
        p.pig_outs = capped(p.pig_outs + 1)
        p.points_lost = capped(p.points_lost + g.turn_total)
        end_turn(g, seat, END_PIG_OUT, g.turn_total)
        advance(c, g)
    else:
        g.turn_total = capped(g.turn_total + face)
        g.stack[0].kind = F_ROLL_OR_HOLD


cdef int start(const Comp* c, GameState* g, int n_players, uint64_t seed, int variant, int* out) noexcept nogil:
    """A new game: the die's generator from `seed`, the first seat drawn from it, and that seat's first roll."""
    memset(g, 0, sizeof(GameState))
    g.rng = seed
    g.n_players = <int8_t>n_players
    g.round = 1
    g.phase = PH_PLAY
    g.last_seat = -1
    g.start_seat = <int8_t>below(&g.rng, n_players)
    begin_turn(g, g.start_seat)
    return settle(c, g, out)


cdef void determinize(const Comp* c, GameState* g, int viewer, uint64_t seed) noexcept nogil:
    """Pig hides nothing: only future chance, the die, is reseeded, from `seed` alone (the same for every viewer)."""
    g.rng = seed


# =============================================================================
# The end: winner, ranks, returns
# =============================================================================
cdef int winner(const Comp* c, const GameState* g) noexcept nogil:
    """The seat whose hold reached the goal, -1 until then."""
    return g.last_seat if g.phase == PH_END else -1


cdef int rank_of(const Comp* c, const GameState* g, int seat) noexcept nogil:
    """1 + the seats with more points banked (the winner alone has the goal; equal scores share a rank)."""
    cdef int i, r = 1
    for i in range(g.n_players):
        if g.pl[i].score[SRC_BANKED] > g.pl[seat].score[SRC_BANKED]:
            r += 1
    return r


cdef void returns(const Comp* c, const GameState* g, double* out) noexcept nogil:
    """1 to the winner, the seat whose hold ended the game, and 0 to the others (to everyone until the end): Pig
    has no tie."""
    memset(out, 0, g.n_players * sizeof(double))
    if g.phase == PH_END:
        out[g.last_seat] = 1.0


cdef inline int start_position(const GameState* g, int seat) noexcept nogil:
    """The seat's place in the turn order (0: it played the first turn)."""
    return (seat - g.start_seat + g.n_players) % g.n_players


cdef inline void fill_counters(const GameState* g, int seat, int16_t* out) noexcept nogil:
    cdef const int16_t* first = &g.pl[seat].turns
    cdef int i
    for i in range(N_COUNTERS):
        out[i] = first[i]


# =============================================================================
# The laws of a state (by the number of INVARIANTS in pig.pyx, 0: all hold)
# =============================================================================
cdef inline int mover_after(const GameState* g) noexcept nogil:
    """The seat whose turn follows the last one ended (start_seat before any)."""
    return g.start_seat if g.last_seat < 0 else (g.last_seat + 1) % g.n_players


cdef bint last_turn_kept(const Player* p) noexcept nogil:
    """Whether the seat's last finished turn agrees with its counts: none before it has held or pigged out; a hold
    of at least 2 points (a roll), at most its score; a pig out losing at most all it ever lost."""
    if p.last_end == END_NONE:
        return p.last_turn == 0 and p.holds == 0 and p.pig_outs == 0
    if p.last_end == END_HOLD:
        return p.holds > 0 and 2 <= p.last_turn <= p.score[SRC_BANKED]
    return p.last_end == END_PIG_OUT and p.pig_outs > 0 and 0 <= p.last_turn <= p.points_lost


cdef bint counts_stopped(const GameState* g) noexcept nogil:
    """Whether a count has reached the value it stops at, past which the laws relating counts no longer hold."""
    cdef int seat, i
    cdef const int16_t* counts
    if g.n_moves == MOVES_MAX or g.round == ROUND_MAX:
        return True
    for seat in range(g.n_players):
        counts = &g.pl[seat].turns
        for i in range(N_COUNTERS):
            if counts[i] == COUNT_MAX:
                return True
    return False


cdef int check_seats(const Comp* c, const GameState* g, int mover) noexcept nogil:
    """Laws 7 to 11 (scores, counters, round, n_moves, unused seats), 0 when they hold."""
    cdef int seat, i, ended, moves = 0
    cdef const Player* p
    cdef const int16_t* counts
    cdef const unsigned char* raw
    cdef bint playing = g.phase == PH_PLAY, exact = not counts_stopped(g)
    for seat in range(g.n_players):
        p = &g.pl[seat]
        if p.score[SRC_BANKED] < 0 or (p.score[SRC_BANKED] >= c.goal) != (not playing and seat == mover):
            return 7
        counts = &p.turns
        for i in range(N_COUNTERS):
            if counts[i] < 0:
                return 8
        ended = p.turns - (1 if playing and seat == mover else 0)
        if exact and (p.holds + p.pig_outs != ended or p.rolls < p.turns or (p.pig_outs == 0 and p.points_lost)):
            return 8
        if exact and p.turns != g.round - (start_position(g, seat) > start_position(g, mover)):
            return 9
        moves += p.rolls + p.holds
    if exact and moves != g.n_moves:
        return 10
    for seat in range(g.n_players, MAX_PLAYERS):
        raw = <const unsigned char*>&g.pl[seat]
        for i in range(sizeof(Player)):
            if raw[i]:
                return 11
    return 0


cdef int check_state(const Comp* c, const GameState* g, bint loaded) noexcept nogil:
    """The number of the first law of INVARIANTS (pig.pyx) that `g` breaks, 0 when it keeps them all; a `loaded`
    state also keeps its counts far enough from the values they stop at for every law to be checked."""
    cdef int P = g.n_players, mover, seat, i
    cdef bint playing = g.phase == PH_PLAY
    if not 2 <= P <= MAX_PLAYERS:
        return 1
    if (g.phase != PH_PLAY and g.phase != PH_END) or not 0 <= g.start_seat < P or g.round < 1 \
            or (g.last_seat < 0 and g.round != 1):
        return 2
    if not -1 <= g.last_seat < P or (g.last_seat >= 0 and g.pl[g.last_seat].last_end == END_NONE):
        return 3
    for seat in range(P):
        if not last_turn_kept(&g.pl[seat]) or (g.last_seat < 0 and g.pl[seat].last_end != END_NONE):
            return 3
    if playing:
        if g.sp != 1 or g.stack[0].kind != F_ROLL_OR_HOLD or g.stack[0].a != 0 or g.stack[0].b != 0:
            return 4
        mover = g.stack[0].player
        if mover != mover_after(g):
            return 5
        if not 2 <= g.last_roll <= c.faces or g.turn_total < g.last_roll:
            return 6
    else:
        if g.sp != 0 or g.last_seat < 0 or g.pl[g.last_seat].last_end != END_HOLD:
            return 4
        mover = g.last_seat
        if not 2 <= g.last_roll <= c.faces or g.turn_total != 0 or g.pl[mover].last_turn < g.last_roll:
            return 6
    i = check_seats(c, g, mover)
    if i:
        return i
    if loaded:
        if g.turn_total > LOADED_MAX or g.n_moves > 2 * LOADED_MAX:
            return 12
        for seat in range(P):
            if g.pl[seat].score[SRC_BANKED] > LOADED_MAX:
                return 12
            for i in range(N_COUNTERS):
                if (&g.pl[seat].turns)[i] > LOADED_MAX:
                    return 12
    return 0
