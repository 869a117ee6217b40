"""Gold Nugget chained resampling diagnostics (docs/rules/gold_nugget.md,
"Resampling").

On the positions ``bench_resample`` uses (decision states along two seeded
random games), draws ``--worlds`` worlds per position one way:

* ``fresh``: ``py_resample_into`` (walks and the full corrector, or the
  exact stage in small games);
* ``chained``: ``py_resample_into(..., chain=True)``, each world continued
  from the last one of its position (the first one fresh);
* ``replay``: the position's own history through pyspiel ``apply_action``
  (the baseline of bench_resample's ratios);
* ``none``: nothing (the setup alone, for instruction counts by difference).

and prints the time per world, the resample counters' changes, the
distinct worlds per position and the corrector's move rate.  For
repeatable instruction counts run it under callgrind once per way and
subtract the ``none`` run (``docs/benchmarks.md``)::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/x.cg \\
        python -m experiments.bench.gold_nugget_chain --players 2 --way chained

``python -m experiments.bench.gold_nugget_chain [--players 2] [--way chained]
[--worlds 64] [--positions 6] [--seed 0] [--steps K] [--refresh R]``
"""
from __future__ import annotations

import argparse
import time

import pyspiel

import games  # noqa: F401
from experiments.bench.bench_resample import positions, replay
from src_cy.gold_nugget.engine import resample_stats, set_resample_chain

WAYS = ("fresh", "chained", "replay", "none")


def run(players: int, way: str, worlds: int, count: int, seed: int) -> dict:
    """Draw ``worlds`` worlds per position ``way``; the time per world, the
    resample counters' changes and the distinct worlds per position."""
    game = pyspiel.load_game("gold_nugget", {"players": players})
    states = positions(game, count, seed)
    scratch = [s.engine.py_clone() for s in states]
    before = resample_stats()
    distinct = []
    t0 = time.perf_counter()
    for k, state in enumerate(states):
        p = state.current_player()
        seen = set()
        for i in range(worlds if way != "none" else 0):
            if way == "replay":
                replay(state, i)
                continue
            w = state.engine.py_resample_into(scratch[k], p, 7919 * k + i,
                                              chain=way == "chained" and i > 0)
            seen.add(tuple(w.py_history()))
        distinct.append(len(seen))
    dt = time.perf_counter() - t0
    after = resample_stats()
    delta = {key: after[key] - before[key] for key in after}
    return {"seconds_per_world": dt / max(1, worlds * len(states)), "stats": delta,
            "distinct": distinct,
            "length": sum(len(s.history()) for s in states) / len(states)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, help="players (2..5)")
    parser.add_argument("--way", choices=WAYS, default="chained")
    parser.add_argument("--worlds", type=int, default=64, help="worlds per position")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=None, help="chained corrector steps")
    parser.add_argument("--refresh", type=float, default=None, help="chain refresh probability")
    args = parser.parse_args(argv)
    if args.worlds < 1 or args.positions < 1:
        parser.error("--worlds and --positions must be >= 1")
    try:
        set_resample_chain(args.steps, args.refresh)
    except ValueError as err:
        parser.error(str(err))
    out = run(args.players, args.way, args.worlds, args.positions, args.seed)
    st = out["stats"]
    steps = st["mcmc_skips"] + st["mcmc_moves"]
    print(f"{args.players}p {args.way}: {out['seconds_per_world'] * 1e3:.3f} ms/world "
          f"(mean history length {out['length']:.0f}); distinct worlds per position "
          f"{out['distinct']}")
    print(f"chained {st['chained']} chain_fresh {st['chain_fresh']} "
          f"chain_fails {st['chain_fails']} walks {st['walks']} exact {st['exact']} "
          f"mcmc_moves {st['mcmc_moves']} mcmc_skips {st['mcmc_skips']} "
          f"mcmc_rejects {st['mcmc_rejects']} mcmc_nodes {st['mcmc_nodes']}"
          + (f" (moves per MH-or-moved step {st['mcmc_moves'] / steps:.2f})" if steps else ""))


if __name__ == "__main__":
    main()
