# cython: language_level=3
"""Ardillas del Bosque knowledge rollouts for the engine-speed ISMCTS
(``rollout="heuristic"``).

Uniform rollouts take winter tokens blindly, so in a search's rollouts what a
player remembers about the piles never changes who wins. Here every decision
is uniform except those that take a token into the mover's nest: the winter
draw (``PH_WDRAW``) and the Bear's draw (``PH_BEAR_DRAW``), which take a
pile's top, and the Lynx's pick (``PH_LYNX_PICK``), which takes any token of
the pile it looked through. Among those options the mover takes, uniformly:

1. a token it knows is a nut (its own knowledge bit, or face up), if any;
2. else a token it does not know to be a poo, if any;
3. else any.

Its pyspiel twin, ``games.ardillas_del_bosque.ardillas_rollout``, runs this same policy
(``games.spec.engine_twin``): the same choices from the same draws.
"""
from src_cy.engine cimport Engine, Rng, rng_int, MAX_BRANCHING
from src_cy.ismcts cimport RolloutPolicy
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules, AState
from src_cy.ardillas_del_bosque.catalog cimport PUB, PH_WDRAW, PH_BEAR_DRAW, PH_LYNX_PICK
from src_cy.ardillas_del_bosque.actions cimport A_PILE, A_INDEX, POO, SQUIRREL

cdef enum:
    NUT = 2        # the mover knows the token is a nut
    OPEN = 1       # not known to be a poo
    BAD = 0        # known poo


cdef inline int grade(const AState* s, int p, int o) noexcept nogil:
    """How ``p`` rates taking token ``o`` (``NUT``, ``OPEN`` or ``BAD``)."""
    if not (s.up[o] or s.known[o] & (PUB | (1 << p))):
        return OPEN
    if s.kind[o] < SQUIRREL:
        return NUT
    return BAD if s.kind[o] == POO else OPEN


cdef int take_pick(const AState* s, int p, int* actions, int n, Rng* rng) noexcept nogil:
    """The knowledge take of ``p`` among the sorted ``actions``."""
    cdef int g[MAX_BRANCHING]
    cdef int i, a, o, k, best = BAD, cnt = 0
    for i in range(n):
        a = actions[i]
        if s.phase == PH_LYNX_PICK:
            o = s.pile[s.ppile][a - A_INDEX]
        else:
            o = s.pile[a - A_PILE][s.psize[a - A_PILE] - 1]
        g[i] = grade(s, p, o)
        if g[i] > best:
            best = g[i]
            cnt = 1
        elif g[i] == best:
            cnt += 1
    k = rng_int(rng, cnt)
    for i in range(n):
        if g[i] == best:
            if k == 0:
                return actions[i]
            k -= 1
    return actions[n - 1]


cdef inline int rollout_pick(ArdillasRules e, int* actions, int n, Rng* rng) noexcept:
    cdef int ph = e.s.phase
    if ph == PH_WDRAW or ph == PH_BEAR_DRAW or ph == PH_LYNX_PICK:
        return take_pick(&e.s, e.current_player(), actions, n, rng)
    return actions[rng_int(rng, n)]


cdef class ArdillasRollout(RolloutPolicy):
    """Uniform rollouts whose takes use the taker's knowledge (module doc)."""

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        if isinstance(e, ArdillasRules):
            return rollout_pick(<ArdillasRules>e, actions, n, rng)
        return actions[rng_int(rng, n)]     # another game's engine: uniform

