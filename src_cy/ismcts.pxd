# cython: language_level=3
"""Rollout-policy hook of the engine-speed ISMCTS (see ``ismcts.pyx``).

A game that wants ISMCTS to roll out with its own policy subclasses
``RolloutPolicy`` in Cython and overrides ``choose``; the search calls it at
every non-chance rollout step with the legal actions sorted ascending.
"""
from src_cy.engine cimport Engine, Rng


cdef class RolloutPolicy:
    # Return one of actions[0..n-1] for the player to move in `e`.
    # Must draw randomness only from `rng` (keeps searches seed-deterministic).
    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept
