# Pig's C contract: sizes, names shared with Python, the component tables and the game state.
# One plain struct per game, fixed sizes, no pointer: a struct copy is a complete clone (docs/pig.md).

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint64_t

cdef enum:
    MAX_PLAYERS = 4
    MAX_FACES = 20                # the largest die the engine rolls (components: die.faces 2..20)
    MAX_GOAL = 200                # the largest goal (components: goal.points 1..200)
    STACK_MAX = 1                 # the one pending decision: the mover's next roll
    N_COUNTERS = 5                # behaviour counters of Player: turns .. points_lost
    COUNT_MAX = 32767             # scores, turn totals and counters stop here
    MOVES_MAX = 65535             # n_moves stops here
    ROUND_MAX = 255               # round stops here
    LOADED_MAX = 30000            # a loaded state's scores, turn total and counters (n_moves: twice that)

cdef enum:                         # Phase
    PH_PLAY, PH_END

cdef enum:                         # Decision (Frame.kind)
    F_FIRST_ROLL,                 # the compulsory first roll of a turn: one legal action, taken at once
    F_ROLL_OR_HOLD,               # after a roll of 2 or more: roll again or hold
    N_DECISIONS

cdef enum:                         # Action
    A_ROLL, A_HOLD, NUM_ACTIONS

cdef enum:                         # Source: where points came from (score_breakdown)
    SRC_BANKED, N_SOURCES

cdef enum:                         # How a seat's last finished turn ended (Player.last_end)
    END_NONE, END_HOLD, END_PIG_OUT

cdef struct Comp:
    int16_t goal                  # points that win when banked (100)
    int8_t faces                  # faces of the die (6): a 1 ends the turn, 2..faces add to the turn total

cdef struct Frame:                 # the pending decision
    uint8_t kind                  # Decision
    int8_t player                 # seat deciding, 0..3
    int8_t a                      # 0: Pig's decisions take no argument
    int8_t b                      # 0

cdef struct Player:
    int16_t score[N_SOURCES]      # points banked, by Source
    # behaviour counters (stop at COUNT_MAX)
    int16_t turns                 # turns begun
    int16_t rolls                 # rolls made, the compulsory first ones included
    int16_t pig_outs              # turns ended by a 1
    int16_t holds                 # turns banked
    int16_t points_lost           # turn totals lost to a 1
    # the seat's last finished turn
    int8_t last_end               # how it ended: END_NONE (none yet), END_HOLD, END_PIG_OUT
    int16_t last_turn             # the points it banked (hold) or lost (pig out), 0 with none

cdef struct GameState:
    uint64_t rng                  # splitmix64: the die
    uint16_t n_moves              # actions applied (the compulsory rolls included), stops at MOVES_MAX
    int8_t n_players              # 2..4
    uint8_t round                 # 1..: the turns of every seat from start_seat on; stops at ROUND_MAX
    int8_t phase                  # Phase
    int8_t start_seat             # the seat of the first turn, drawn at the start
    int16_t turn_total            # points of the turn in progress (0 once the game is over)
    int8_t last_roll              # the mover's last roll, 2..faces (the winner's at the end)
    int8_t last_seat              # the seat whose turn ended last (pl[last_seat] says how), -1 before any
    int8_t sp                     # 1 while the game is on, 0 at the end
    Frame stack[STACK_MAX]
    Player pl[MAX_PLAYERS]
