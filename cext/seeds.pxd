# Seed mixing shared by every compiled module: splitmix64's finaliser turns (seed, index) into a well-spread
# 64-bit seed (game i of a run, determinization k of a search), and a generator step picks uniformly in [0, n).

from libc.stdint cimport uint64_t

cdef inline uint64_t mix_seed(uint64_t seed, uint64_t index) noexcept nogil:
    cdef uint64_t z = seed + (index + 1) * <uint64_t>0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline int pick_uniform(uint64_t* rng, int n) noexcept nogil:
    """Advances `rng` and returns an int in [0, n)."""
    rng[0] += <uint64_t>0x9E3779B97F4A7C15
    return <int>(((mix_seed(rng[0], 0) >> 32) * <uint64_t>n) >> 32)
