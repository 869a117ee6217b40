# cython: language_level=3
"""Ardillas del Bosque resampler declarations (``resample.pyx``), cimported by
the engine (``engine.pyx``)."""
from libcpp.vector cimport vector

from src_cy.engine cimport Rng
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules


cdef void resample_history(ArdillasRules e, int player, Rng* rng,
                           vector[int]* out) noexcept nogil
