# The C-level game protocol: a table of functions over an opaque state, so that
# compiled search and playouts work for any game that fills one in.

from libc.stdint cimport uint64_t

ctypedef struct GameVTable:
    size_t state_size                 # bytes; states are plain structs, copied with memcpy
    int num_actions                   # actions are ints in [0, num_actions)
    int max_players
    # Fills `out` with the legal actions of the player to move; returns their number (0 when terminal).
    int (*legal_actions)(const void* rules, const void* state, int* out) noexcept nogil
    # Applies a legal action, then resolves forced moves; refills `out` like legal_actions.
    int (*step)(const void* rules, void* state, int action, int* out) noexcept nogil
    int (*current_player)(const void* state) noexcept nogil
    int (*num_players)(const void* state) noexcept nogil
    # Final reward per player in [0, 1] (1 for the winner after tie-breaks).
    void (*returns)(const void* rules, const void* state, double* out) noexcept nogil
    # Score of each player now (victory points).
    void (*scores)(const void* rules, const void* state, double* out) noexcept nogil
    # Resamples everything `player` cannot see, seeding future chance with `seed`.
    void (*determinize)(const void* rules, void* state, int player, uint64_t seed) noexcept nogil
    # Heuristic knowledge (optional: NULL when the game has none).
    int num_weights                   # length of the weight vector of evaluate / policy
    # Heuristic value of the state for each player, in the game's score units.
    void (*evaluate)(const void* rules, const void* state, const double* weights, double* out) noexcept nogil
    # A good action for the player to move; `thorough` spends more time per decision.
    int (*policy)(const void* rules, const void* state, const double* weights, int thorough,
                  uint64_t* rng) noexcept nogil
    # Learned evaluation (optional: 0 and NULL when the game has none; cext/learned.pxi).
    int num_features                  # length of a feature vector
    # The features of the state as `seat` sees it (its own hand, the public board; never hidden cards).
    void (*features)(const void* rules, const void* state, int seat, double* out) noexcept nogil
