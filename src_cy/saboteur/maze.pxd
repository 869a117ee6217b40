# cython: language_level=3
"""Saboteur maze geometry shared by the compiled bots (``rollout.pyx``, the
rollout policy, and ``heuristic.pyx``, the casual-dwarf heuristic): maze
coordinates of a grid cell and Manhattan steps to the goal places."""
from src_cy.saboteur.rules cimport SabConf, NO_SCORE


cdef inline int cell_x(const SabConf* c, int g) noexcept nogil:
    """Maze column ``x`` of grid cell ``g`` (the start is at x = 0)."""
    return g % c.W - c.R - 1


cdef inline int cell_y(const SabConf* c, int g) noexcept nogil:
    """Maze row ``y`` of grid cell ``g`` (south is +y; goals at y = -2, 0, 2)."""
    return g // c.W - c.R - 1


cdef inline int goal_dist(const SabConf* c, int g, int mask) noexcept nogil:
    """Manhattan steps from grid cell ``g`` to the nearest goal in ``mask``
    (bit ``slot`` for goal place ``slot``: north, middle, south)."""
    cdef int x = cell_x(c, g), y = cell_y(c, g)
    cdef int slot, dx, dy, best = NO_SCORE
    for slot in range(3):
        if (mask >> slot) & 1:
            dx = c.gd - x
            dy = 2 * slot - 2 - y
            dx = dx if dx >= 0 else -dx
            dy = dy if dy >= 0 else -dy
            if dx + dy < best:
                best = dx + dy
    return best
