# cython: language_level=3
"""The engine interface every goldspiel rules engine implements.

An engine owns the whole state of one game in C arrays.  Solvers call the
``cdef`` methods below through the vtable, so search and sampling run with
no Python work per node.  The ``def`` wrappers in ``engine.pyx`` expose the
same operations to Python (adapters, tests) with argument checking.
"""
from libc.stdint cimport uint64_t, int32_t
from libcpp.vector cimport vector

# The RNG and hash combine live in rng.pxd; re-exported here for the engines.
from src_cy.rng cimport Rng, rng_next, rng_int, rng_double, mix64
from src_cy.clock cimport Deadline

cdef enum:
    ENGINE_MAX_PLAYERS = 10
    # Player ids follow pyspiel.PlayerId.
    CHANCE_PLAYER = -1
    TERMINAL_PLAYER = -4
    # Upper bound on legal actions or chance outcomes at any node, any game.
    MAX_BRANCHING = 1024
    # ``Engine.resample_status`` after a resample.
    RESAMPLE_OK = 0
    RESAMPLE_OUT_OF_TIME = 1


cdef inline uint64_t key_public(uint64_t h, uint64_t token) noexcept nogil:
    """An information key after a public event's ``token`` (every key and
    the public hash: ``Engine.observe_public``)."""
    return mix64(h, token)


cdef inline uint64_t key_private(uint64_t h, uint64_t token) noexcept nogil:
    """A player's information key after a private ``token`` only that
    player saw (``Engine.observe_private``; an engine rebuilding keys from
    its log uses the same formula)."""
    return mix64(h, token ^ <uint64_t>0x5bd1e995)


cdef inline int popcount32(unsigned int x) noexcept nogil:
    """Set bits in ``x`` (SWAR: no loop, no popcnt instruction needed)."""
    x = x - ((x >> 1) & <unsigned int>0x55555555)
    x = (x & <unsigned int>0x33333333) + ((x >> 2) & <unsigned int>0x33333333)
    x = (x + (x >> 4)) & <unsigned int>0x0F0F0F0F
    return <int>((x * <unsigned int>0x01010101) >> 24)


cdef inline void sort_ints(int* a, int n) noexcept nogil:
    """Insertion sort, ascending; linear on the (usual) already-sorted input."""
    cdef int i, j, x
    i = 1
    while i < n and a[i - 1] <= a[i]:
        i += 1
    for i in range(i, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


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
    # A resampler with an unbounded tail (Gold Nugget's walks) stops at this
    # deadline and sets ``resample_status = RESAMPLE_OUT_OF_TIME``; the engine
    # is then scratch (no world), never the true history.  Set by callers
    # with a move budget (``src_cy.ismcts.search``); not copied by clones.
    cdef Deadline resample_deadline
    cdef int resample_status
    # Rollout mode (``src_cy.ismcts``: a rollout past the tree, whose states
    # nobody reads but for legality and returns): while set, ``observe_*``
    # do nothing and engines skip their event logs and other per-player
    # bookkeeping; rules, legal actions, chance odds and returns are
    # unchanged.  Information keys, logs and strings are then stale: only a
    # scratch engine the caller throws away may be quiet.  ``copy_base``
    # (so ``copy_from`` and ``clone``) and ``to_initial`` clear it.
    cdef readonly bint quiet

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
    # As ``resample_history``; ``prev`` (NULL or empty: none) is the last
    # world drawn for the same information set, never the true history: an
    # engine may continue a Markov chain from it (Gold Nugget, Gold Thief) instead of a
    # fresh draw.  Default: ignore it.
    cdef void resample_history_from(self, int player, Rng* rng, const vector[int]* prev,
                                    vector[int]* out) noexcept nogil
    # ``py_resample_history_from``'s draw on ``scratch`` (a clone of this
    # state): by default ``scratch.resample_history_from``; an engine whose
    # chain lives in its own resampler draws with that one instead.
    cdef void draw_history_on(self, Engine scratch, int player, Rng* rng,
                              const vector[int]* prev, vector[int]* out) noexcept nogil
    cdef Engine clone(self)
    cdef void copy_from(self, Engine other) noexcept

    # --- provided ---
    # Record ``action`` in ``hist``, then apply the rules (``do_apply``).
    # Inline (called directly, not through the vtable): engines override
    # ``do_apply``, never this.
    cdef inline void apply(self, int action) noexcept nogil:
        self.hist.push_back(action)
        self.do_apply(action)

    cdef void to_initial(self) noexcept nogil
    cdef void replay(self, const int* actions, int n) noexcept nogil
    cdef void resample(self, int player, Rng* rng) noexcept nogil
    cdef void resample_next(self, int player, Rng* rng, const vector[int]* prev) noexcept nogil
    cdef uint64_t info_key(self, int player) noexcept nogil
    cdef int sample_chance(self, Rng* rng) noexcept nogil
    # The draws of a search (``src_cy.ismcts``), which ``solvers/ismcts.py``
    # reproduces on pyspiel states: a chance outcome by one ``rng_double``
    # against the outcomes sorted by id, and a uniform legal action by one
    # ``rng_int(n)`` indexing the ``n`` legal actions sorted.  An engine may
    # override either with a faster way to the same outcome for every
    # generator state.
    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil
    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil
    cdef bint is_legal(self, int action) noexcept nogil
    # Hash an event into the keys: a public one into every key and the
    # public hash, a private one into ``player``'s key (nothing while
    # quiet).  Inline, as ``apply``: engines call them, never override them.
    cdef inline void observe_public(self, uint64_t token) noexcept nogil:
        cdef int p
        if self.quiet:
            return
        self.pubhash = key_public(self.pubhash, token)
        for p in range(self.num_players):
            self.ihash[p] = key_public(self.ihash[p], token)

    cdef inline void observe_private(self, int player, uint64_t token) noexcept nogil:
        if self.quiet:
            return
        self.ihash[player] = key_private(self.ihash[player], token)

    cdef void copy_base(self, Engine other) noexcept
