# Small helpers of both games' kernels over bit sets and one-byte counts.

from libc.stdint cimport uint8_t

cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil

cdef inline int popcount(unsigned int x) noexcept nogil:
    return __builtin_popcount(x)

cdef inline void gain_u8(uint8_t* count, int n) noexcept nogil:
    """Adds n to a one-byte count, stopping at 255: no game comes near it, and a count must never wrap (Bamboo's
    ruling B40)."""
    cdef int v = count[0] + n
    count[0] = <uint8_t>(v if v < 255 else 255)

cdef inline void sort_u8(uint8_t* a, int n) noexcept nogil:
    """Sorts n bytes in place, ascending (insertion sort: the piles sorted are short)."""
    cdef int i, j
    cdef uint8_t t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t
