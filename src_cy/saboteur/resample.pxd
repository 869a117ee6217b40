# cython: language_level=3
"""Saboteur resampler declarations (``resample.pyx``): the plan of one drawn
history and the entry the engine calls, over a rules-kernel state."""
from libcpp.vector cimport vector

from src_cy.engine cimport Rng
from src_cy.events cimport Event
from src_cy.saboteur.rules cimport SaboteurRules, MAXLOG, MAXROUNDS, MAXP, NKINDS


cdef struct SabPlan:
    # The hidden parts of one history drawn by ``sab_resample_history``.
    Event log[MAXLOG]
    int nl, nrounds
    int ended[MAXROUNDS]
    int gfirst[MAXROUNDS]
    int glast[MAXROUNDS]
    int role[MAXROUNDS][MAXP]
    int perm[MAXROUNDS]
    int ndraw, npass
    int draw_kind[MAXLOG]
    int pass_kind[MAXLOG]
    int pass_slot[MAXLOG]
    int pass_player[MAXLOG]
    int open[MAXP][8]
    int nopen[MAXP]
    int gdraw[MAXROUNDS][MAXP]
    int gtake[MAXROUNDS][MAXP]
    # 1 when the last round's gold hand-out is under way (a decision is due).
    int open_share


# Write into ``out`` a history drawn from ``player``'s information set in the
# game of ``rules`` (rules doc, "Resampling"), using ``rules`` as scratch: it
# is left at that history.  On a failure (a bug) ``out`` is left empty.
cdef void sab_resample_history(SaboteurRules rules, int player, Rng* rng,
                               vector[int]* out) noexcept nogil
