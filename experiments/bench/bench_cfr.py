"""Benchmark: compiled-tree CFR+ and engine MCCFR against OpenSpiel, same run.

``python -m experiments.bench.bench_cfr [--seconds S]`` prints a Markdown report:

* CFR+ iterations per second on leduc_poker, ours vs OpenSpiel's C++
  ``pyspiel.CFRPlusSolver`` (and the speed ratio);
* wall time for our CFR+ to reach exploitability 1e-3 on leduc (tree
  compilation included), and OpenSpiel C++ CFR+'s exploitability after the
  same wall time;
* memory per information set of the compiled tree + solver tables, and of the
  MCCFR tables;
* external-sampling MCCFR at equal wall time: ours (Cython, LeducEngine) vs
  OpenSpiel's Python ``external_sampling_mccfr``.
"""
from __future__ import annotations

import argparse
import datetime
import time

import pyspiel
from open_spiel.python.algorithms import exploitability as os_expl
from open_spiel.python.algorithms import external_sampling_mccfr as os_es

from experiments.bench._benchutil import machine_line, replace_section
from solvers import cfr
from solvers.exploitability import compiled_tree, exploitability_of_array
from solvers.mccfr import MCCFRSolver
from solvers.tree import compile_game


def _rate(step, seconds: float, chunk: int = 1) -> tuple[float, int]:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step(chunk)
        n += chunk
    return n / (time.perf_counter() - start), n


def bench_cfr_plus(game: pyspiel.Game, seconds: float) -> dict:
    ours = cfr.CFRPlusSolver(game)
    ours_rate, _ = _rate(ours.run, seconds, chunk=50)
    theirs = pyspiel.CFRPlusSolver(game)
    cpp_rate, _ = _rate(lambda k: [theirs.evaluate_and_update_policy() for _ in range(k)], seconds)
    return {"ours": ours_rate, "cpp": cpp_rate}


def time_to_target(game: pyspiel.Game, target: float, limit: float) -> dict:
    start = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    expl = solver.exploitability()
    while expl > target and time.perf_counter() - start < limit:
        solver.run(25)
        expl = solver.exploitability()
    elapsed = time.perf_counter() - start
    cpp = pyspiel.CFRPlusSolver(game)
    cstart = time.perf_counter()
    while time.perf_counter() - cstart < elapsed:
        cpp.evaluate_and_update_policy()
    return {"seconds": elapsed, "iterations": solver.iteration, "exploitability": expl,
            "cpp_exploitability": pyspiel.exploitability(game, cpp.average_policy()),
            "solver": solver}


def memory_per_infoset(solver: cfr.CFRPlusSolver) -> dict:
    tree = solver.tree
    tables = 3 * tree.num_slots * 8 + 3 * tree.num_nodes * 8  # regret, cum, policy + sweeps
    return {"tree": tree.nbytes() / tree.num_infosets,
            "solver": tables / tree.num_infosets,
            "nodes": tree.num_nodes, "infosets": tree.num_infosets}


def bench_mccfr(game: pyspiel.Game, seconds: float) -> dict:
    tree = compiled_tree(game)
    ours = MCCFRSolver(game, scheme="external", seed=0)
    ours_rate, ours_n = _rate(ours.run, seconds, chunk=500)
    theirs = os_es.ExternalSamplingSolver(game, os_es.AverageType.SIMPLE)
    their_rate, their_n = _rate(lambda k: [theirs.iteration() for _ in range(k)], seconds)
    slots = tree.num_slots
    return {"ours_iters": ours_n, "ours_rate": ours_rate,
            "ours_expl": exploitability_of_array(tree, ours.policy_array(tree)),
            "their_iters": their_n, "their_rate": their_rate,
            "their_expl": os_expl.exploitability(game, theirs.average_policy()),
            "table_bytes_per_infoset": (2 * slots * 8 + slots * 4 + tree.num_infosets * 48)
            / tree.num_infosets}


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="wall time per measured solver (default 5)")
    parser.add_argument("--target", type=float, default=1e-3,
                        help="exploitability target for the time-to-target row")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    game = pyspiel.load_game("leduc_poker")
    t0 = time.perf_counter()
    compile_game(game)
    compile_s = time.perf_counter() - t0
    speed = bench_cfr_plus(game, args.seconds)
    target = time_to_target(game, args.target, limit=60.0)
    mem = memory_per_infoset(target["solver"])
    mc = bench_mccfr(game, args.seconds)
    lines = [
        f"### CFR benchmark ({datetime.date.today().isoformat()})",
        "",
        f"{machine_line()}. Game: leduc_poker ({mem['nodes']} nodes, "
        f"{mem['infosets']} information sets; tree compiled in {compile_s:.2f} s).",
        "",
        "| measure | goldspiel | OpenSpiel | ratio |",
        "| --- | --- | --- | --- |",
        f"| CFR+ iterations/s (OpenSpiel: C++ `pyspiel.CFRPlusSolver`) | {speed['ours']:.0f} "
        f"| {speed['cpp']:.1f} | {speed['ours'] / speed['cpp']:.0f}x |",
        f"| CFR+ wall time to exploitability {args.target:g} (incl. compile) | "
        f"{target['seconds']:.2f} s ({target['iterations']} it, expl {target['exploitability']:.2e}) "
        f"| expl {target['cpp_exploitability']:.2e} after the same time (C++) | |",
        f"| ES-MCCFR, {args.seconds:g} s wall (OpenSpiel: Python `external_sampling_mccfr`) "
        f"| expl {mc['ours_expl']:.4f} ({mc['ours_iters']} it, {mc['ours_rate']:.0f} it/s) "
        f"| expl {mc['their_expl']:.4f} ({mc['their_iters']} it, {mc['their_rate']:.0f} it/s) "
        f"| {mc['ours_rate'] / mc['their_rate']:.0f}x it/s |",
        f"| memory per information set: tree arrays + CFR+ tables | "
        f"{mem['tree']:.0f} B + {mem['solver']:.0f} B | | |",
        f"| memory per information set: MCCFR tables (approx.) | "
        f"{mc['table_bytes_per_infoset']:.0f} B | | |",
    ]
    report = "\n".join(lines)
    print(report)
    if args.write:
        replace_section("docs/benchmarks.md", "cfr",
                        report + f"\n\nCommand: `python -m experiments.bench.bench_cfr --seconds {args.seconds:g}`")
    return report


if __name__ == "__main__":
    main()
