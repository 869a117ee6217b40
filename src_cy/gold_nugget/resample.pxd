# cython: language_level=3
"""Gold Nugget resampler declarations (``resample.pyx``): a whole history
drawn from a player's information set, over a ``GoldNuggetRules`` state
used as scratch."""
from libcpp.vector cimport vector

from src_cy.engine cimport Rng
from src_cy.gold_nugget.rules cimport GoldNuggetRules

cdef void rs_resample_history(GoldNuggetRules self, int player, Rng* rng,
                              vector[int]* out) noexcept nogil
cdef void rs_resample_history_from(GoldNuggetRules self, int player, Rng* rng,
                                   const vector[int]* prev, vector[int]* out) noexcept nogil
