# cython: language_level=3
"""Rollout-policy hook of the engine-speed ISMCTS (see ``ismcts.pyx``).

A game that wants ISMCTS to roll out with its own policy subclasses
``RolloutPolicy`` in Cython and overrides ``choose``; the search calls it at
every non-chance rollout step with the legal actions sorted ascending.  A
policy may also cut a rollout short with a static evaluation by overriding
``leaf_value``, which the search asks before every rollout decision.
"""
from src_cy.engine cimport Engine, Rng


cdef class RolloutPolicy:
    # Return one of actions[0..n-1] for the player to move in `e`.
    # Must draw randomness only from `rng` (keeps searches seed-deterministic).
    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept
    # Before rollout decision number `steps` (0 = the first): return True and
    # write one value per player to `out` (in the units of the game's
    # returns) to end the rollout there with those values; False rolls on.
    # Must not draw randomness.  The default never cuts.
    cdef bint leaf_value(self, Engine e, int steps, double* out) noexcept
