# cython: language_level=3
"""Draw helpers shared by engines (inline, no module of their own).

``walk_counts`` is the chance draw of a card from a deck of counts, the
same arithmetic as ``Engine.sample_chance_sorted`` over outcomes listed by
ascending id with probability ``count / total``: engines that draw without
listing their outcomes (Gold Thief, Gold Nugget) share it.
"""


cdef inline int walk_counts(const int* counts, int n, int tot, double u) noexcept nogil:
    """The first index whose running sum of ``counts[i] / tot`` (positive
    counts, ascending) exceeds ``u``; the last positive index when rounding
    leaves ``u`` above the whole sum; -1 when no count is positive."""
    cdef int i, last = -1
    cdef double acc = 0.0
    for i in range(n):
        if counts[i] > 0:
            last = i
            acc += counts[i] / <double>tot
            if u < acc:
                return i
    return last
