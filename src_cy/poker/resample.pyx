# cython: language_level=3
"""Kuhn and Leduc poker resamplers: a whole history drawn from a player's
information set, over a ``KuhnRules`` / ``LeducRules`` state (``rules.pxd``).
``engine.pyx``'s engines override ``Engine.resample_history`` with these
functions; ``sample_history`` calls them from Python on any rules state."""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng, rng_int, ENGINE_MAX_PLAYERS
from src_cy.poker.catalog cimport KUHN_MAX_HIST, LEDUC_MAX_HIST, LEDUC_MAX_CARDS
from src_cy.poker.rules cimport KuhnRules, LeducRules


cdef void kuhn_resample_history(KuhnRules e, int player, Rng* rng,
                                vector[int]* out) noexcept nogil:
    """Re-deal every card `player` has not seen (uniformly, without
    replacement, from the cards other than theirs); the betting is public."""
    cdef int hist[KUHN_MAX_HIST]
    cdef int pool[ENGINE_MAX_PLAYERS + 1]
    cdef int n = e.d.n, hlen = e.d.hlen
    cdef int ndealt = hlen if hlen < n else n
    cdef int own = e.d.hist[player] if player < ndealt else -1
    cdef int npool = 0, q, c, j
    memcpy(hist, e.d.hist, hlen * sizeof(int))
    for c in range(n + 1):
        if c != own:
            pool[npool] = c
            npool += 1
    for q in range(ndealt):
        if q == player:
            continue
        j = rng_int(rng, npool)
        hist[q] = pool[j]
        npool -= 1
        pool[j] = pool[npool]
    out.assign(hist, hist + hlen)


cdef void leduc_resample_history(LeducRules e, int player, Rng* rng,
                                 vector[int]* out) noexcept nogil:
    """Re-deal every private card `player` has not seen (uniformly from the
    cards other than theirs and the public card); at a showdown, whose
    payoffs are public, redraw until they match.  Uses `e` as scratch (it
    replays each draw), as ``Engine.resample_history`` may."""
    cdef int hist[LEDUC_MAX_HIST]
    cdef int pool[LEDUC_MAX_CARDS]
    cdef double money[ENGINE_MAX_PLAYERS]
    cdef int n = e.d.n, hlen = e.d.hlen, ndealt = e.d.dealt
    cdef int own = e.d.priv[player] if player < ndealt else -1
    cdef int npool, q, c, j, tries, p
    cdef bint showdown = e.d.terminal and e.d.remaining > 1
    cdef bint same
    memcpy(hist, e.d.hist, hlen * sizeof(int))
    memcpy(money, e.d.money, n * sizeof(double))
    for tries in range(100000):
        npool = 0
        for c in range(e.d.total_cards):
            if c != own and c != e.d.public_card:
                pool[npool] = c
                npool += 1
        for q in range(ndealt):
            if q == player:
                continue
            j = rng_int(rng, npool)
            hist[q] = pool[j]
            npool -= 1
            pool[j] = pool[npool]
        e.replay(hist, hlen)
        if not showdown:
            break
        # At a showdown the payoffs are public: keep only matching deals.
        same = True
        for p in range(n):
            if e.d.money[p] != money[p]:
                same = False
        if same:
            break
    out.assign(hist, hist + hlen)


def sample_history(Engine e, int player, seed) -> list:
    """The history the game's resampler draws from `player`'s information
    set in the Kuhn or Leduc state `e`, with a SplitMix64 stream seeded by
    `seed` (the same draw as ``Engine.py_resample_history``); `e` is not
    changed."""
    cdef Rng rng
    cdef vector[int] h
    if not 0 <= player < e.num_players:
        raise ValueError(f"player must be in [0, {e.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    if isinstance(e, KuhnRules):
        kuhn_resample_history(<KuhnRules>e, player, &rng, &h)
    elif isinstance(e, LeducRules):
        leduc_resample_history(<LeducRules>e.clone(), player, &rng, &h)
    else:
        raise TypeError(f"not a Kuhn or Leduc poker state: {type(e).__name__}")
    return [a for a in h]
