# cython: language_level=3
"""The engine interface every goldspiel rules engine implements.

An engine owns the whole state of one game in C arrays.  Solvers call the
``cdef`` methods below through the vtable, so search and sampling run with
no Python work per node.  The ``def`` wrappers in ``engine.pyx`` expose the
same operations to Python (adapters, tests) with argument checking.
"""
from libc.stdint cimport uint64_t, int32_t
from libcpp.vector cimport vector

cdef enum:
    ENGINE_MAX_PLAYERS = 10
    # Player ids follow pyspiel.PlayerId.
    CHANCE_PLAYER = -1
    TERMINAL_PLAYER = -4
    # Upper bound on legal actions or chance outcomes at any node, any game.
    MAX_BRANCHING = 1024


cdef struct Rng:
    uint64_t s


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """splitmix64: a fast, well-mixed 64-bit generator."""
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
    """Uniform double in [0, 1)."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline uint64_t mix64(uint64_t h, uint64_t x) noexcept nogil:
    """Order-sensitive hash combine used for information keys."""
    h ^= x + <uint64_t>0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
    h ^= h >> 31
    h *= <uint64_t>0xD6E8FEB86659FD93
    h ^= h >> 32
    return h


cdef class Engine:
    cdef readonly int num_players
    # pyspiel game string, so an engine can be rebuilt from a snapshot.
    cdef public object game_string
    # Hash of all public events, and per player of every event that player saw.
    cdef uint64_t pubhash
    cdef uint64_t ihash[ENGINE_MAX_PLAYERS]
    # Every action (chance outcomes included) applied since the initial
    # state: replaying it from ``to_initial()`` reproduces this state exactly.
    cdef vector[int] hist

    # --- the interface (override all of these) ---
    cdef int current_player(self) noexcept nogil
    cdef bint is_terminal(self) noexcept nogil
    cdef int legal_actions(self, int* out) noexcept nogil
    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil
    # The rules of one step (``apply`` records it in ``hist`` first).
    cdef void do_apply(self, int action) noexcept nogil
    cdef void returns(self, double* out) noexcept nogil
    # Game state (not the base fields) back to the initial state.
    cdef void restart(self) noexcept nogil
    # Write into ``out`` a whole history, drawn from `player`'s information
    # set (see docs/architecture.md, "The information contract").
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef Engine clone(self)
    cdef void copy_from(self, Engine other) noexcept

    # --- provided ---
    cdef void apply(self, int action) noexcept nogil
    cdef void to_initial(self) noexcept nogil
    cdef void replay(self, const int* actions, int n) noexcept nogil
    cdef void resample(self, int player, Rng* rng) noexcept nogil
    cdef uint64_t info_key(self, int player) noexcept nogil
    cdef int sample_chance(self, Rng* rng) noexcept nogil
    cdef bint is_legal(self, int action) noexcept nogil
    cdef void observe_public(self, uint64_t token) noexcept nogil
    cdef void observe_private(self, int player, uint64_t token) noexcept nogil
    cdef void copy_base(self, Engine other) noexcept
