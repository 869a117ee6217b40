"""Benchmark: parallel MCCFR (``solvers.mccfr_parallel``) against one process.

``python -m experiments.bench.bench_mccfr_parallel [--iterations N] [--seeds K]
[--batches 50,100,200] [--chain-batches 25000] [--ray] [--write]``

On leduc_poker (external sampling) for each configuration and seed: wall
time and exact exploitability after ``N`` iterations, single-process
``MCCFRSolver`` against ``ParallelMCCFR`` with 2 workers (local processes;
``--ray`` adds a local Ray instance) with one shared regret table at each of
``--batches`` and with per-worker regrets (``regrets="per-worker"``) at each
of ``--chain-batches``.  It reports the
mean exploitability (per iteration, the issue's "per traversal") and the
wall time per 1,000 iterations, with the ratios to one process.  Then
iterations per second for a heavier iteration, where a round's fixed cost
matters less: Saboteur ``mini`` over its abstraction, outcome sampling in
self-play (thousands of rows, each iteration milliseconds, as in the
full-size abstraction solves).  Speed is wall time: run it on an otherwise
idle machine.
"""
from __future__ import annotations

import sys
import time

import numpy as np
import pyspiel

import games  # noqa: F401
from experiments.bench._benchutil import bench_parser, publish
from games.spec import get_spec
from solvers.exploitability import measure_of_array
from solvers.mccfr import MCCFRSolver
from solvers.mccfr_parallel import ParallelMCCFR
from solvers.tree import compile_game


def _leduc(iterations: int, seeds: int, batches: list[int], chain_batches: list[int],
           backends: list[str]) -> str:
    game = pyspiel.load_game("leduc_poker")
    tree = compile_game(game)
    configs = ([("1 process", None, None, None)]
               + [(f"2 workers, {b}, shared regrets, batch {n:,}", b, n, "shared")
                  for b in backends for n in batches]
               + [(f"2 workers, {b}, per-worker regrets, batch {n:,}", b, n, "per-worker")
                  for b in backends for n in chain_batches])
    rows = []
    for name, backend, batch, regrets in configs:
        values, walls = [], []
        for seed in range(seeds):
            t0 = time.perf_counter()
            if backend is None:
                s = MCCFRSolver(game, seed=seed)
                s.run(iterations)
                walls.append(time.perf_counter() - t0)
                values.append(measure_of_array(game, tree, s.policy_array(tree))[1])
                continue
            with ParallelMCCFR(game, workers=2, batch=batch, seed=seed, backend=backend,
                               regrets=regrets) as p:
                warm = 2 if backend == "ray" else 0
                if warm:            # start Ray and its workers before the clock
                    p.run(warm)
                    t0 = time.perf_counter()
                p.run(iterations - warm)
                walls.append(time.perf_counter() - t0)
                values.append(measure_of_array(game, tree, p.policy_array(tree))[1])
        rows.append((name, float(np.mean(values)), float(np.std(values)),
                     1e6 * float(np.mean(walls)) / iterations))
    base_e, base_w = rows[0][1], rows[0][3]
    out = ["| configuration | exploitability (mean ± sd over seeds) | vs 1 process | "
           "wall ms per 1,000 iterations | wall vs 1 process |", "|---|---|---|---|---|"]
    for name, e, sd, w in rows:
        out.append(f"| {name} | {e:.4f} ± {sd:.4f} | {e / base_e:.2f}× | {w:.1f} | "
                   f"{w / base_w:.2f}× |")
    return (f"leduc_poker, external sampling, {iterations:,} iterations, {seeds} seeds:\n\n"
            + "\n".join(out))


def _heavy(seconds: float, batch: int) -> str:
    game = get_spec("saboteur").load("mini")
    options = dict(scheme="outcome", abstraction="saboteur_compact",
                   action_abstraction="saboteur_actions")
    rates = []
    for name in ("1 process", "2 workers"):
        if name == "1 process":
            s = MCCFRSolver(game, seed=0, **options)
        else:
            s = ParallelMCCFR(game, workers=2, batch=batch, seed=0, **options)
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            s.run(2 * batch)
            n += 2 * batch
        rates.append((name, n / (time.perf_counter() - t0), s.num_infosets))
        if name != "1 process":
            s.close()
    out = ["| configuration | iterations per second | rows |", "|---|---|---|"]
    out += [f"| {n} | {r:,.0f} | {k:,} |" for n, r, k in rates]
    return (f"Saboteur `mini` over its abstraction (`saboteur_compact` buckets, "
            f"`saboteur_actions`), outcome sampling in self-play, about "
            f"{seconds:.0f} s each, batch {batch}: 2 workers run "
            f"{rates[1][1] / rates[0][1]:.2f}× the iterations per second of 1 process.\n\n"
            + "\n".join(out))


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__, "unused (seeds are 0..K-1)")
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--batches", default="50,100,200")
    parser.add_argument("--chain-batches", default="25000",
                        help="batches of the per-worker-regrets rows")
    parser.add_argument("--ray", action="store_true", help="also on a local Ray instance")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="time per configuration of the heavier game")
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",") if b]
    backends = ["local"] + (["ray"] if args.ray else [])
    chain_batches = [int(b) for b in args.chain_batches.split(",") if b]
    text = (_leduc(args.iterations, args.seeds, batches, chain_batches, backends) + "\n\n"
            + _heavy(args.seconds, max(batches)))
    command = "python -m experiments.bench.bench_mccfr_parallel " + " ".join(
        sys.argv[1:] if argv is None else argv)
    publish(command.strip(), text, "mccfr-parallel", args.write)


if __name__ == "__main__":
    main()
