# cython: language_level=3
"""Gold Thief persistence declarations (the code is in ``persist.pyx``):
snapshots and invariants of a ``GoldThiefRules`` state."""
from src_cy.gold_thief.rules cimport GoldThiefRules

cpdef bytes dump(GoldThiefRules r)
cpdef load(GoldThiefRules r, data)
cpdef check_invariants(GoldThiefRules r)
