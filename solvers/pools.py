"""The start method of the library's local worker pools.

Local matches, tournaments and parallel MCCFR run in a ``multiprocessing``
pool. ``fork`` is the fast choice (a worker inherits the parent's imports
and compiled games), but forking a process that runs other threads copies
their locks in whatever state they are: a Ray driver's threads (a process
that called ``ray.init``) can hold one at the fork, and the forked worker
then waits on it forever (seen as a local tournament that hung after
``ray.init`` in the same process). Such a process gets ``forkserver``
workers instead: they fork from a clean server process that imported
:mod:`games` once.
"""
from __future__ import annotations

import multiprocessing as mp
import multiprocessing.context
import sys


def ray_driver() -> bool:
    """Whether this process has a live Ray instance (``ray.init`` called)."""
    ray = sys.modules.get("ray")
    is_initialized = getattr(ray, "is_initialized", None)
    return bool(is_initialized()) if callable(is_initialized) else False


def pool_context() -> multiprocessing.context.BaseContext:
    """``fork``, or ``forkserver`` (preloading :mod:`games`) in a Ray driver
    (module doc)."""
    if ray_driver():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["games"])
        return ctx
    return mp.get_context("fork")
