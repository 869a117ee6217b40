# cython: language_level=3
"""Gold Nugget knowledge rollouts for the engine-speed ISMCTS
(``rollout="heuristic"``).

A uniform random rollout ends with uniform random grabs, so in a search's
rollouts nothing a player learnt about the stones changes who wins, and
moves that gather or hide information look worthless. Here every decision
is uniform as before except a grab (``PH_GRAB``), where the animal to move
uses what it knows in the rollout's world (``GN.knows``, the stones whose
face it has seen and still tracks):

1. a lair stone it knows is the Gold Nugget: grab it (the first such);
2. else uniformly among the nest (``A_NEST``) and the lair stones it does
   not know to be something else;
3. else (every lair stone known, no nest) uniformly among all grabs.

Its pyspiel twin, ``games.gold_nugget.gold_nugget_rollout``, runs this same policy
(``games.spec.engine_twin``): the same choices from the same draws.
"""
from libc.stdint cimport uint32_t
from src_cy.engine cimport Engine, Rng, rng_int
from src_cy.ismcts cimport RolloutPolicy
from src_cy.gold_nugget.rules cimport GoldNuggetRules, GN
from src_cy.gold_nugget.catalog cimport PH_GRAB, F_NUGGET
from src_cy.gold_nugget.actions cimport A_NEST, A_STONE, MAXS


cdef int grab_pick(const GN* g, int p, int* actions, int n, Rng* rng) noexcept nogil:
    """The knowledge grab of ``p`` among the sorted grab ``actions``."""
    cdef int i, a, s, k, cand = 0
    cdef uint32_t known = g.knows[p]
    for i in range(n):
        a = actions[i]
        if a >= A_STONE:
            s = g.lair[(a - A_STONE) // MAXS][(a - A_STONE) % MAXS]
            if (known >> s) & 1 and g.face[s] == F_NUGGET:
                return a
    for i in range(n):
        a = actions[i]
        if a == A_NEST:
            cand += 1
        elif a >= A_STONE:
            s = g.lair[(a - A_STONE) // MAXS][(a - A_STONE) % MAXS]
            if not (known >> s) & 1:
                cand += 1
    if cand == 0:
        return actions[rng_int(rng, n)]
    k = rng_int(rng, cand)
    for i in range(n):
        a = actions[i]
        if a == A_NEST:
            if k == 0:
                return a
            k -= 1
        elif a >= A_STONE:
            s = g.lair[(a - A_STONE) // MAXS][(a - A_STONE) % MAXS]
            if not (known >> s) & 1:
                if k == 0:
                    return a
                k -= 1
    return actions[n - 1]


cdef inline int rollout_pick(GoldNuggetRules e, int* actions, int n, Rng* rng) noexcept:
    if e.g.phase == PH_GRAB:
        return grab_pick(&e.g, e.current_player(), actions, n, rng)
    return actions[rng_int(rng, n)]


cdef class GoldNuggetRollout(RolloutPolicy):
    """Uniform rollouts whose grabs use the grabber's knowledge (module doc)."""

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        if isinstance(e, GoldNuggetRules):
            return rollout_pick(<GoldNuggetRules>e, actions, n, rng)
        return actions[rng_int(rng, n)]     # another game's engine: uniform

