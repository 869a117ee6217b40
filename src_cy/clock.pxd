# cython: language_level=3
"""Clocks and deadlines for move-time budgets (C side).

A ``Deadline`` is an absolute time on one of two clocks: the process's CPU
time (``CLOCK_PROCESS_CPUTIME_ID``, the clock of ``time.process_time()``) or
wall time (``CLOCK_MONOTONIC``, the clock of ``time.monotonic()``), so Python
code computes ``deadline = clock + budget`` with the matching Python clock.
``at = INFINITY`` means no deadline.
"""
from libc.math cimport INFINITY
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID


cdef struct Deadline:
    double at
    bint cpu


cdef inline double clock_now(bint cpu) noexcept nogil:
    """Seconds on the CPU clock (``cpu``) or the monotonic wall clock."""
    cdef timespec ts
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID if cpu else CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint past(const Deadline* d) noexcept nogil:
    """True once the deadline has passed (never for ``at = INFINITY``)."""
    return d.at < INFINITY and clock_now(d.cpu) >= d.at


cdef inline void no_deadline(Deadline* d) noexcept nogil:
    d.at = INFINITY
    d.cpu = True
