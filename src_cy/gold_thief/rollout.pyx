# cython: language_level=3
"""Gold Thief heuristic rollout policy for the engine-speed ISMCTS.

It reads only the legal-action ids (see the table in games/gold_thief/__init__.py),
so the pyspiel twin in ``games/gold_thief/rollout.py`` makes the same choice from
the same random draws:

1. score whenever possible (Ninja scoring, big-pile flip): the first such action;
2. in a window (Pass legal, End turn not): answer with probability 1/2,
   choosing uniformly among the answers;
3. on your turn: with probability 0.6 play a Thief (uniform victim) if you
   can; else with probability 0.4 play another card (uniform); else end.
"""
from src_cy.engine cimport Engine, Rng, rng_double, rng_int
from src_cy.ismcts cimport RolloutPolicy
from src_cy.gold_thief.rules cimport A_END_TURN, A_PASS, A_THIEF, A_NINJA_SCORE, A_GIVE, MAXP


cdef class GoldThiefRollout(RolloutPolicy):
    """Heuristic rollouts: score, answer half the time, steal often."""

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        cdef int i, k, first
        cdef bint has_end = False, has_pass = False
        cdef int thieves = 0, others = 0
        for i in range(n):
            if A_NINJA_SCORE <= actions[i] < A_GIVE:
                return actions[i]
            if actions[i] == A_END_TURN:
                has_end = True
            elif actions[i] == A_PASS:
                has_pass = True
            elif A_THIEF <= actions[i] < A_THIEF + MAXP:
                thieves += 1
            else:
                others += 1
        if has_pass and not has_end:
            if n > 1 and rng_double(rng) < 0.5:
                return actions[1 + rng_int(rng, n - 1)]
            return A_PASS
        if has_end:
            if thieves > 0 and rng_double(rng) < 0.6:
                k = rng_int(rng, thieves)
                for i in range(n):
                    if A_THIEF <= actions[i] < A_THIEF + MAXP:
                        if k == 0:
                            return actions[i]
                        k -= 1
            if others > 0 and rng_double(rng) < 0.4:
                k = rng_int(rng, others)
                for i in range(n):
                    if actions[i] != A_END_TURN and not (A_THIEF <= actions[i] < A_THIEF + MAXP):
                        if k == 0:
                            return actions[i]
                        k -= 1
            return A_END_TURN
        first = rng_int(rng, n)
        return actions[first]
