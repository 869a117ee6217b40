"""MCCFR over several worker processes or a Ray cluster, merged by the driver.

:class:`ParallelMCCFR` runs the engine path of :class:`solvers.mccfr.MCCFRSolver`
in **rounds**.  In each round every worker starts from a snapshot of the
driver's regret and average-strategy tables, runs ``batch`` iterations with
its own seed (derived from the run's seed, the round and the worker's index)
and returns its *increments*: the change of every row it had, plus the rows
it created.  The driver adds the increments in worker order (rows new to
several workers are matched by their label, or by information key when the
run keeps no strings) and installs the merged tables; checkpoints are the
driver's :meth:`MCCFRSolver.save_checkpoint` files.

Why this shape: a worker's task is a pure function of (snapshot, seed,
batch), so a task lost with its worker (killed, node gone) is simply run
again (Ray retries it, ``max_retries``) and gives the same increment; no
merged work is ever lost, and the same seed, ``workers`` and ``batch`` give
identical tables on every backend.  Within a round the workers' current
strategies are those of the snapshot, so ``workers x batch`` iterations of a
round see slightly staler regrets than a single process would; with batches
small against the run, convergence per iteration matches the single-process
solve within noise (``tests/test_mccfr_parallel.py`` measures it on leduc).

**Per-worker regrets** (``regrets="per-worker"``).  With shared regrets a
round's increments are summed into one regret table, and regret matching
then answers regrets each worker never saw: on leduc, rounds of 2 x 10,000
iterations leave the exploitability at 0.22 where one process reaches 0.08,
so rounds must stay small (2 x 50) and a round's fixed cost (snapshot,
shipping, merge: milliseconds) then outweighs a leduc iteration (about
6 us).  With per-worker regrets each worker keeps its own regret and
average tables (a *chain*, held by the driver as a snapshot, so a lost task
is still just rerun); the driver's tables, which give the policy and the
checkpoints, are the chains' common start plus every chain's increments.
The chains are independent MCCFR runs, so rounds can be as long as
checkpoints allow; what is handed out is the sum of the chains' average
tables, a mixture of their average strategies, and exploitability is
convex in a strategy, so it is no worse than the chains' mean (measured on
leduc: the same exploitability per iteration as one process from about
200,000 iterations on; docs/benchmarks.md).

Backends (``solvers.backends``): ``"local"``, a pool of forked processes
(``forkserver`` ones in a Ray driver: ``solvers.pools``) kept for the whole
run (``workers == 1``: this process); ``"ray"``, one Ray task per worker
and round on a local Ray instance (started here, stopped by
:meth:`close`) or the cluster at ``address``.  Cluster nodes need goldspiel
installed and built at the driver's version (``docs/solvers_cfr.md``).
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyspiel

from solvers import policy_io
from solvers.backends import check_backend, init_ray
from solvers.mccfr import MCCFRSolver
from solvers.pools import pool_context
from src_cy.mccfr import row_identity
from src_cy.rng import derive_seed

#: How workers share regrets (module doc).
REGRETS = ("shared", "per-worker")
#: The snapshot arrays a per-worker checkpoint keeps for each chain.
CHAIN_ARRAYS = ("keys", "slots", "nact", "player", "acts", "regret", "avg", "strings",
                "rng", "iteration")

#: MCCFRSolver options a worker rebuilds its solver from (names, not objects).
SOLVER_OPTIONS = ("scheme", "abstraction", "action_abstraction", "fixed_opponents",
                  "epsilon", "keep_strings")

_WORKER_SOLVERS: dict[tuple, MCCFRSolver] = {}


def _worker_solver(game_string: str, options: tuple) -> MCCFRSolver:
    """This process's solver for (game, options), built once and reused."""
    key = (game_string, options)
    s = _WORKER_SOLVERS.get(key)
    if s is None:
        import games  # noqa: F401  (registers the goldspiel games in a fresh worker)
        s = MCCFRSolver(pyspiel.load_game(game_string), **dict(options))
        _WORKER_SOLVERS[key] = s
    return s


def snapshot(core: Any) -> dict:
    """The tables of an ``MCCFRCore`` as arrays, labels as a list (cheap to
    ship), in ``set_state``'s format; the random state is not part of it (0)."""
    st = core.table_arrays()
    del st["off"]
    st["strings"] = list(core.strings)
    st["rng"] = np.zeros(1, np.uint64)
    st["iteration"] = np.asarray([core.iteration], np.int64)
    return st


def round_task(job: tuple) -> tuple[int, dict]:
    """One worker's share of a round: ``(index, increments)``.

    ``job = (index, game_string, options, snapshot, seed, batch)``; the
    result depends on the job only (a retried task returns the same).
    """
    index, game_string, options, snap, seed, batch = job
    s = _worker_solver(game_string, options)
    state = dict(snap)
    state["rng"] = np.asarray([seed], np.uint64)
    state["iteration"] = np.zeros(1, np.int64)
    s._core.set_state(state, keep_cache=True)
    s.run(batch)
    return index, increments(snap, snapshot(s._core))


def increments(before: dict, after: dict) -> dict:
    """What a worker's run added to the tables ``before`` (both :func:`snapshot` dicts).

    ``idx``/``d_regret``/``d_avg``: the entries of ``before``'s rows that
    changed, and by how much (sparse: a batch touches few rows of a large
    table); ``new_*``: the rows created since (player, actions, sums,
    labels); ``keys``/``slots``: information keys first seen since, with
    their row (rows of ``before`` keep their index; new row ``j`` is
    ``len(before rows) + j``).
    """
    n0 = len(before["nact"])
    m0 = len(before["regret"])
    r, a = after["regret"][:m0], after["avg"][:m0]
    idx = np.flatnonzero((r != before["regret"]) | (a != before["avg"]))
    new_keys = ~np.isin(after["keys"], before["keys"], assume_unique=True)
    return {
        "idx": idx, "d_regret": r[idx] - before["regret"][idx],
        "d_avg": a[idx] - before["avg"][idx],
        "new_nact": after["nact"][n0:], "new_player": after["player"][n0:],
        "new_acts": after["acts"][m0:], "new_regret": after["regret"][m0:],
        "new_avg": after["avg"][m0:], "new_strings": after["strings"][n0:],
        "keys": after["keys"][new_keys], "slots": after["slots"][new_keys],
    }


def merge(state: dict, parts: list[dict], keep_strings: bool) -> dict:
    """The tables ``state`` plus every worker's increments, added in list order.

    Rows keep their index (the tables only grow, so every worker's rows
    ``0..n-1`` are the driver's); a row new to several workers becomes one
    row, matched by (player, label) when the run keeps labels
    (``keep_strings``), else by its information key.
    """
    n0 = len(state["nact"])
    regret = state["regret"].copy()
    avg = state["avg"].copy()
    for part in parts:
        regret[part["idx"]] += part["d_regret"]      # idx has no repeats
        avg[part["idx"]] += part["d_avg"]
    row_of: dict[Any, int] = {}
    known = state["keys"]
    extra: dict[int, int] = {}
    nact: list[int] = []
    player: list[int] = []
    acts: list[np.ndarray] = []
    strings: list[str] = []
    added: list[tuple[np.ndarray, np.ndarray]] = []   # (regret, avg) of merged new rows
    for part in parts:
        if not len(part["new_nact"]) and not len(part["keys"]):
            continue
        offs = np.concatenate([[0], np.cumsum(part["new_nact"])]).astype(np.int64)
        key_of_new: dict[int, int] = {}
        if not keep_strings:
            for k, sl in zip(part["keys"].tolist(), part["slots"].tolist()):
                if sl >= n0:
                    key_of_new.setdefault(sl - n0, k)
        where: list[int] = []
        for j, (n, p) in enumerate(zip(part["new_nact"].tolist(),
                                       part["new_player"].tolist())):
            if keep_strings:
                label = part["new_strings"][j]
                ident = row_identity(p, label)
            else:
                ident = (p, key_of_new[j])
            r = part["new_regret"][offs[j]:offs[j + 1]]
            a = part["new_avg"][offs[j]:offs[j + 1]]
            row = row_of.get(ident)
            if row is None:
                row = n0 + len(nact)
                row_of[ident] = row
                nact.append(n)
                player.append(p)
                acts.append(part["new_acts"][offs[j]:offs[j + 1]])
                if keep_strings:
                    strings.append(part["new_strings"][j])
                added.append((r.copy(), a.copy()))
            else:
                if nact[row - n0] != n:
                    raise ValueError(f"row {ident!r} has {nact[row - n0]} actions in one "
                                     f"worker and {n} in another")
                added[row - n0][0][:] += r
                added[row - n0][1][:] += a
            where.append(row)
        fresh = ~np.isin(part["keys"], known, assume_unique=True)
        for k, sl in zip(part["keys"][fresh].tolist(), part["slots"][fresh].tolist()):
            if k not in extra:
                extra[k] = sl if sl < n0 else where[sl - n0]
    out = dict(state)
    out["regret"], out["avg"] = regret, avg
    if nact:
        out["nact"] = np.concatenate([state["nact"], np.asarray(nact, np.int64)])
        out["player"] = np.concatenate([state["player"], np.asarray(player, np.int64)])
        out["acts"] = np.concatenate([state["acts"], *acts]).astype(np.int64)
        out["regret"] = np.concatenate([regret, *[r for r, _ in added]])
        out["avg"] = np.concatenate([avg, *[a for _, a in added]])
        out["strings"] = list(state["strings"]) + strings
    if extra:
        keys = np.concatenate([known, np.fromiter(extra, np.uint64, len(extra))])
        slots = np.concatenate([state["slots"],
                                np.fromiter(extra.values(), np.int64, len(extra))])
        order = np.argsort(keys, kind="stable")
        out["keys"], out["slots"] = keys[order], slots[order]
    return out


def _sum_chains(base: dict, chains: list[dict], keep_strings: bool) -> dict:
    """``base`` plus every chain's increments over it (per-worker regrets)."""
    return merge(base, [increments(base, c) for c in chains], keep_strings)


class ParallelMCCFR:
    """MCCFR whose iterations run on ``workers`` processes or Ray tasks (see module doc).

    ``solver`` is the driver's :class:`MCCFRSolver`: it holds the merged
    tables, so policies, tables and checkpoints come from it exactly as for
    a single-process solve.  ``regrets``: ``"shared"`` (one regret table,
    rounds must stay small) or ``"per-worker"`` (a chain per worker, rounds
    as long as you like; module doc).  Use as a context manager (or call
    :meth:`close`) to stop the pool or the Ray instance it started.
    """

    def __init__(self, game: pyspiel.Game, workers: int = 2, batch: int = 50,
                 backend: str = "local", address: str | None = None, seed: int = 0,
                 max_retries: int = 3, task: Any = round_task, regrets: str = "shared",
                 **options: Any):
        check_backend(backend, address)
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be an int >= 1, got {workers!r}")
        if not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be an int >= 1, got {batch!r}")
        if regrets not in REGRETS:
            raise ValueError(f"regrets must be one of {REGRETS}, got {regrets!r}")
        if options.get("scheme") == "probe":
            raise ValueError("parallel MCCFR does not run scheme 'probe' (its visit counts and "
                             "squared differences are not merged); use MCCFRSolver")
        bad = sorted(set(options) - set(SOLVER_OPTIONS))
        if bad:
            raise ValueError(f"unknown MCCFR option(s) {bad}; options: {SOLVER_OPTIONS}")
        for name in ("abstraction", "action_abstraction", "fixed_opponents"):
            if options.get(name) is not None and not isinstance(options[name], str):
                raise ValueError(f"{name} must be given by name for workers to rebuild it, "
                                 f"got {type(options[name]).__name__}")
        self.solver = MCCFRSolver(game, seed=seed, **options)
        if self.solver.backend != "engine":
            raise ValueError(f"{game}: parallel MCCFR needs a rules engine (the game has none)")
        self.game_string = str(game)
        self.options = tuple(sorted(options.items()))
        self.workers, self.batch, self.seed = workers, batch, seed
        self.regrets = regrets
        self._base: dict | None = None          # per-worker regrets: the chains' common start
        self._chains: list[dict] | None = None  # and each worker's tables (snapshots)
        self.backend, self.address, self.max_retries = backend, address, max_retries
        self.task = task
        self._pool: Any = None
        self._ray_started = False
        self._remote: Any = None

    # -- the solver's reading interface ---------------------------------
    @property
    def iteration(self) -> int:
        return self.solver.iteration

    @property
    def num_infosets(self) -> int:
        return self.solver.num_infosets

    def __getattr__(self, name: str) -> Any:
        # average_policy, greedy_policy, average_policy_table, policy_array, ...
        if name.startswith("_") or name in ("solver",):
            raise AttributeError(name)
        return getattr(self.solver, name)

    def save_checkpoint(self, path: str | os.PathLike) -> None:
        """The driver's checkpoint (an ``MCCFRSolver`` of the same settings can
        resume from it); with per-worker regrets also the chains, so that this
        class resumes them exactly."""
        if self.regrets == "shared":
            self.solver.save_checkpoint(path)
            return
        chains = self._ensure_chains()
        arrays = self.solver._core.get_state()
        for name, st in [("base", self._base)] + [(f"chain{w}", c) for w, c in enumerate(chains)]:
            for k in CHAIN_ARRAYS:
                arrays[f"{name}.{k}"] = (np.asarray(st[k], dtype=str) if k == "strings"
                                         else np.asarray(st[k]))
        meta = dict(self.solver._meta(), regrets=self.regrets, workers=self.workers)
        policy_io.save_arrays(path, kind="mccfr-checkpoint", game=self.solver.game_string,
                              meta=meta, arrays=arrays)

    def load_checkpoint(self, path: str | os.PathLike) -> None:
        """Resume from :meth:`save_checkpoint`; refuses a checkpoint of the other
        ``regrets`` mode or (per-worker) of another number of workers."""
        meta, arrays = policy_io.load_arrays(path, kind="mccfr-checkpoint",
                                             game=self.solver.game_string)
        theirs = meta.get("regrets", "shared")
        if theirs != self.regrets or (theirs == "per-worker"
                                      and meta.get("workers") != self.workers):
            raise ValueError(f"checkpoint {path} has regrets={theirs!r}, "
                             f"workers={meta.get('workers')}; this run regrets="
                             f"{self.regrets!r}, workers={self.workers}")
        if self.regrets == "shared":
            self.solver.load_checkpoint(path)
            return
        try:
            states = [{k: arrays[f"{name}.{k}"] for k in CHAIN_ARRAYS}
                      for name in ["base"] + [f"chain{w}" for w in range(self.workers)]]
        except KeyError as exc:
            raise policy_io.PolicyFileError(f"checkpoint {path}: chain array {exc} is missing") \
                from None
        for st in states:
            st["strings"] = st["strings"].tolist()
        total = _sum_chains(states[0], states[1:], self.solver._core.keep_strings)
        if any(not np.array_equal(arrays[k], total[k]) for k in
               ("keys", "slots", "nact", "player", "acts", "regret", "avg")):
            raise policy_io.PolicyFileError(f"checkpoint {path}: the chains do not add up "
                                            "to the driver's tables")
        self.solver.load_checkpoint(path)      # checks the settings; nothing changed before
        self._base, self._chains = states[0], states[1:]

    # -- running --------------------------------------------------------
    def run(self, iterations: int) -> None:
        """``iterations`` more iterations, in rounds of ``workers x batch``; a
        last, shorter round shares the rest between the workers."""
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        left = int(iterations)
        while left > 0:
            n = min(left, self.workers * self.batch)
            self._round([n // self.workers + (w < n % self.workers)
                         for w in range(self.workers)])
            left -= n

    def _round(self, shares: list[int]) -> None:
        """One round: worker ``w`` runs ``shares[w]`` iterations from the snapshot."""
        core = self.solver._core
        start = int(core.iteration)
        seeds = [derive_seed(derive_seed(self.seed, start), w) for w in range(self.workers)]
        if self.regrets == "shared":
            snap = snapshot(core)
            jobs = [(w, self.game_string, self.options, snap, seeds[w], n)
                    for w, n in enumerate(shares) if n > 0]
            merged = merge(snap, self._map(jobs), core.keep_strings)
        else:
            chains = self._ensure_chains()
            jobs = [(w, self.game_string, self.options, chains[w], seeds[w], n)
                    for w, n in enumerate(shares) if n > 0]
            for job, part in zip(jobs, self._map(jobs)):
                chains[job[0]] = merge(chains[job[0]], [part], core.keep_strings)
            merged = self._combined()
        merged["rng"] = np.asarray([derive_seed(self.seed, start)], np.uint64)  # unused here
        merged["iteration"] = np.asarray([start + sum(shares)], np.int64)
        core.set_state(merged)

    def _ensure_chains(self) -> list[dict]:
        """Per-worker regrets: the chains, started from the driver's tables."""
        if self._chains is None:
            self._base = snapshot(self.solver._core)
            self._chains = [dict(self._base) for _ in range(self.workers)]
        return self._chains

    def _combined(self) -> dict:
        """The driver's tables: the chains' common start plus every chain's increments."""
        return _sum_chains(self._base, self._chains, self.solver._core.keep_strings)

    def _map(self, jobs: list[tuple]) -> list[dict]:
        out: list[Any] = [None] * len(jobs)
        if self.backend == "ray":
            if self._remote is None:
                self._ray_started = init_ray(self.workers, self.address) or self._ray_started
            import ray
            if self._remote is None:
                self._remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(self.task)
            refs = [self._remote.remote(job) for job in jobs]
            results = ray.get(refs)
        elif self.workers == 1:
            results = [self.task(job) for job in jobs]
        else:
            if self._pool is None:
                self._pool = pool_context().Pool(self.workers)
            results = self._pool.map(self.task, jobs)
        index_of = {job[0]: k for k, job in enumerate(jobs)}
        for index, part in results:
            k = index_of.get(index)
            if k is None or out[k] is not None:
                raise RuntimeError(f"worker {index} returned twice or was not asked")
            out[k] = part
        if any(p is None for p in out):
            raise RuntimeError("a worker's increments are missing")
        return out

    def close(self) -> None:
        """Stop the process pool, and the Ray instance if this object started it."""
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None
        if self._ray_started:
            import ray
            ray.shutdown()
            self._ray_started = False
        self._remote = None

    def __enter__(self) -> "ParallelMCCFR":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
