# cython: language_level=3
"""SplitMix64, goldspiel's one random number generator (C side).

Every seeded path draws from this generator: the engines and solver kernels
through these inline functions, Python code through its twin
``src_cy.rng.SplitMix64`` (``src_cy/rng.py``), which produces the same
stream for the same seed (``tests/test_rng.py`` checks it).  ``engine.pxd``
re-exports every name, so ``from src_cy.engine cimport Rng, rng_int`` works.
"""
from libc.stdint cimport uint64_t


cdef struct Rng:
    uint64_t s


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """Next 64-bit output (Steele, Lea & Flood's splitmix64)."""
    cdef uint64_t z
    r.s += <uint64_t>0x9E3779B97F4A7C15
    z = r.s
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int rng_int(Rng* r, int n) noexcept nogil:
    """Uniform integer in [0, n); n must be positive."""
    return <int>((rng_next(r) >> 11) % <uint64_t>n)


cdef inline double rng_double(Rng* r) noexcept nogil:
    """Uniform double in [0, 1): the top 53 bits of one output."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline uint64_t mix64(uint64_t h, uint64_t x) noexcept nogil:
    """Order-sensitive hash combine (information keys); not a generator step."""
    h ^= x + <uint64_t>0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
    h ^= h >> 31
    h *= <uint64_t>0xD6E8FEB86659FD93
    h ^= h >> 32
    return h
