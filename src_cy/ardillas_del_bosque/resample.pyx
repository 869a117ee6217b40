# cython: language_level=3
"""Ardillas del Bosque resampler: a whole history drawn from a player's
information set (docs/rules/ardillas_del_bosque.md, "Resampling"), over an
``ArdillasRules`` state (``rules.pxd``).  ``engine.pyx``'s ``ArdillasEngine``
overrides ``Engine.resample_history`` with ``resample_history``;
:func:`sample_history` calls it from Python on any rules state."""
from libc.stdint cimport uint64_t, uint8_t, int8_t
from libc.string cimport memcpy
from libcpp.vector cimport vector

from src_cy.engine cimport Rng, rng_int
from src_cy.ardillas_del_bosque.actions cimport NK, SQUIRREL, A_KEEP, A_NPLACE
from src_cy.ardillas_del_bosque.catalog cimport MAXT, PUB, PH_SNAKE
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules


cdef void resample_history(ArdillasRules e, int player, Rng* rng,
                           vector[int]* out) noexcept nogil:
    """Re-draw the kind of every token whose face `player` does not know.

    Owner by owner, the unknown tokens get distinct kinds drawn uniformly
    from the owner's kinds `player` has not seen among their tokens.  One
    rule branches on faces that may stay hidden: a player woken by the
    Snake who is still in the woods holds a nut; if another player is at
    that decision now, draws that leave them no nut are rejected.  The
    history steps that gave the tokens their kinds (a chance draw, or a
    night keep/hide choice) are then rewritten.  Everything else is public
    or seen by `player`, so the history replays to the same information
    state.
    """
    cdef int w, j, o, n, m, i, r, tmp, old, k, idx, tries, ok, t
    cdef int objs[MAXT]
    cdef int8_t newkind[MAXT]
    cdef int pool[NK]
    cdef uint8_t bit = <uint8_t>(1 << player)
    cdef uint8_t avail
    cdef int snake = e.s.phase == PH_SNAKE and e.s.cur != player
    cdef int nobj = 0
    for tries in range(1 << 20):
        memcpy(newkind, e.s.kind, sizeof(newkind))
        nobj = 0
        for w in range(e.B):
            if w == player:
                continue
            avail = e.kindset
            n = 0
            for j in range(e.s.nalloc[w]):
                o = w * NK + j
                if e.s.known[o] & (PUB | bit):
                    avail &= <uint8_t>~(1 << e.s.kind[o])
                else:
                    objs[nobj + n] = o
                    n += 1
            m = 0
            for k in range(NK):
                if avail & (1 << k):
                    pool[m] = k
                    m += 1
            for i in range(n):
                r = i + rng_int(rng, m - i)
                tmp = pool[i]
                pool[i] = pool[r]
                pool[r] = tmp
                newkind[objs[nobj + i]] = pool[i]
            nobj += n
        if not snake:
            break
        ok = 0
        for t in range(e.s.nsize[e.s.cur]):
            if newkind[e.s.nest[e.s.cur][t]] < SQUIRREL:
                ok = 1
        if ok:
            break
    out[0] = e.hist
    for i in range(nobj):
        o = objs[i]
        idx = e.s.alloc_at[o]
        old = out[0][idx]
        if old < NK:
            out[0][idx] = newkind[o]
        elif old < A_NPLACE:
            out[0][idx] = A_KEEP + newkind[o]
        else:
            out[0][idx] = A_NPLACE + 10 * newkind[o] + (old - A_NPLACE) % 10


def sample_history(ArdillasRules e, int player, seed) -> list:
    """The history ``resample_history`` draws from `player`'s
    information set in `e`, with a SplitMix64 stream seeded by `seed` (the
    same draw as ``Engine.py_resample_history``); `e` is not changed."""
    cdef Rng rng
    cdef vector[int] h
    if not 0 <= player < e.num_players:
        raise ValueError(f"player must be in [0, {e.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    resample_history(e, player, &rng, &h)
    return [a for a in h]
