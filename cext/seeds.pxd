# Chance shared by every compiled module: splitmix64's finaliser turns (seed, index) into a well-spread 64-bit seed
# (game i of a run, determinization k of a search), and the splitmix64 generator, whose state a game keeps in its
# struct, draws uniformly in [0, n) and shuffles.

from libc.stdint cimport uint8_t, uint64_t

cdef inline uint64_t splitmix_mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint64_t mix_seed(uint64_t seed, uint64_t index) noexcept nogil:
    return splitmix_mix(seed + (index + 1) * <uint64_t>0x9E3779B97F4A7C15)

cdef inline int pick_uniform(uint64_t* rng, int n) noexcept nogil:
    """Advances `rng` and returns an int in [0, n)."""
    rng[0] += <uint64_t>0x9E3779B97F4A7C15
    return <int>(((mix_seed(rng[0], 0) >> 32) * <uint64_t>n) >> 32)

cdef inline uint64_t splitmix_next(uint64_t* state) noexcept nogil:
    """The generator's next 64-bit output."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return splitmix_mix(state[0])

cdef inline int below(uint64_t* rng, int n) noexcept nogil:
    """An int in [0, n) from the generator `rng`."""
    return <int>(((splitmix_next(rng) >> 32) * <uint64_t>n) >> 32)

cdef inline void shuffle_u8(uint64_t* rng, uint8_t* a, int n) noexcept nogil:
    """Fisher-Yates shuffle of n bytes, drawing from `rng`."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = a[i]; a[i] = a[j]; a[j] = t
