# cython: language_level=3
"""Kuhn and Leduc poker resampler declarations (``resample.pyx``), cimported by
the engines (``engine.pyx``)."""
from libcpp.vector cimport vector

from src_cy.engine cimport Rng
from src_cy.poker.rules cimport KuhnRules, LeducRules


cdef void kuhn_resample_history(KuhnRules e, int player, Rng* rng,
                                vector[int]* out) noexcept nogil
cdef void leduc_resample_history(LeducRules e, int player, Rng* rng,
                                 vector[int]* out) noexcept nogil
