"""Where a match's games run: this machine's processes or a Ray cluster.

:func:`run_tasks` maps a per-game function over jobs and returns the results
in job order.  Every job is one game, determined by its own arguments (the
match seed and the game's index), so the result does not depend on the
backend, the number of processes or the order in which games finish.

* ``"local"``: a ``multiprocessing`` pool (fork; forkserver in a process
  that runs Ray, ``solvers.pools``) of ``processes`` workers, or this
  process when ``processes == 1``.
* ``"ray"``: one Ray task per game on a local Ray instance (started here
  and stopped afterwards, unless Ray is already initialised) or on the
  cluster at ``address``.  A task whose worker dies (killed, out of memory,
  node lost) is rescheduled by Ray up to ``max_retries`` times; the driver
  keeps exactly one result per game index and refuses a missing or
  duplicated one, so no game is lost or counted twice.  Cluster nodes need
  goldspiel installed and built (``pip install -e .[ray]`` and the Cython
  build) at the driver's version.

:func:`run_match` is :func:`solvers.evaluate.run_match` on either backend.
"""
from __future__ import annotations

import logging
import os
from typing import Any, Callable, Sequence

import numpy as np

from solvers.evaluate import (BotSpec, MatchResult, _labels, _load, _summarize, _worker,
                              full_lineup)
from solvers.pools import pool_context

BACKENDS = ("local", "ray")
Task = Callable[[tuple], tuple[int, Any]]


def check_backend(backend: str, address: str | None) -> None:
    """Raise ``ValueError`` for an unknown backend or a misplaced address."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if address is not None and backend != "ray":
        raise ValueError("--address needs --backend ray")


def ray_available() -> bool:
    """True when the optional ``ray`` extra is installed."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_tasks(task: Task, jobs: Sequence[tuple], backend: str = "local",
              processes: int | None = None, address: str | None = None,
              progress: bool = True, desc: str = "games",
              max_retries: int = 3) -> list[Any]:
    """``task(job) -> (index, result)`` for every job; results by index.

    ``jobs[i]`` must make ``task`` return index ``i``.  ``task`` must be a
    module-level function (pickled by reference) or, for Ray, any function
    cloudpickle can ship.
    """
    check_backend(backend, address)
    if processes is not None and processes < 1:
        raise ValueError(f"processes must be >= 1, got {processes}")
    from tqdm import tqdm
    bar = tqdm(total=len(jobs), desc=desc, disable=not progress, leave=False)
    results: list[Any] = [None] * len(jobs)
    done = np.zeros(len(jobs), dtype=bool)

    def take(index: int, value: Any) -> None:
        if not 0 <= index < len(jobs):
            raise RuntimeError(f"task returned game index {index}, outside 0..{len(jobs) - 1}")
        if done[index]:
            raise RuntimeError(f"game {index} was returned twice")
        done[index] = True
        results[index] = value
        bar.update()

    try:
        if backend == "ray":
            _run_ray(task, jobs, processes, address, max_retries, take)
        else:
            _run_local(task, jobs, processes, take)
    finally:
        bar.close()
    if not done.all():
        raise RuntimeError(f"games lost: {np.flatnonzero(~done).tolist()[:10]}")
    return results


def _run_local(task: Task, jobs: Sequence[tuple], processes: int | None, take) -> None:
    if processes is None:
        processes = os.cpu_count() or 1
    if processes == 1 or len(jobs) <= 1:
        for job in jobs:
            take(*task(job))
        return
    with pool_context().Pool(processes) as pool:
        chunk = max(1, len(jobs) // (processes * 8))
        for index, value in pool.imap_unordered(task, jobs, chunksize=chunk):
            take(index, value)


def init_ray(processes: int | None, address: str | None) -> bool:
    """Start a local Ray instance (``processes`` CPUs) or join ``address``,
    unless Ray is already initialised; True when this call started it."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs the 'ray' extra: "
                         "pip install -e '.[ray]'") from None
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False,
                               "logging_level": logging.WARNING,
                               "log_to_driver": False}
    if address is None:
        options["num_cpus"] = processes or os.cpu_count() or 1
    else:
        options["address"] = address
    ray.init(**options)
    return True


def _run_ray(task: Task, jobs: Sequence[tuple], processes: int | None,
             address: str | None, max_retries: int, take) -> None:
    started = init_ray(processes, address)
    import ray
    try:
        remote = ray.remote(num_cpus=1, max_retries=max_retries)(task)
        pending = [remote.remote(job) for job in jobs]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                take(*ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def run_match(game_string: str, lineup: Sequence[BotSpec], games: int = 100,
              seed: int = 0, backend: str = "local", processes: int | None = None,
              address: str | None = None, progress: bool = True,
              task: Task = _worker) -> MatchResult:
    """:func:`solvers.evaluate.run_match` on ``backend`` (same result for
    the same seed, whatever the backend).  ``task`` plays one game (tests
    wrap it to kill a worker)."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    check_backend(backend, address)
    game = _load(game_string)
    n = game.num_players()
    lineup = full_lineup(lineup, n)
    for b in lineup:   # fail fast on unknown bots or options
        b.build(game, 0)
    labels = _labels(lineup)
    jobs = [(game_string, lineup, i, seed) for i in range(games)]
    out = run_tasks(task, jobs, backend=backend, processes=processes, address=address,
                    progress=progress, desc=game_string)
    returns = np.array([r for r, _, _ in out], dtype=float)
    seating = np.array([s for _, s, _ in out], dtype=int)
    return _summarize(game_string, labels, seed, returns, seating)
