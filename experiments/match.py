"""Play a match between bots and print a Markdown table.

Example::

    python -m experiments.match --game gold_thief --players 2 \\
        --bots ismcts,random --games 200 --time 0.1

``--bots`` lists bot specs seat by seat (``solvers.botspec``: a
``solvers.bots`` name with ``:option=value`` pairs, e.g.
``cfr:policy_file=results/gold_thief/policy.npz:fallback=ismcts``); a short
list is padded with its last entry.  The ISMCTS flags are defaults for every
``ismcts`` bot, which its spec may override.  Bots that count their table
misses (``cfr``) have them reported under the table.
``--backend ray`` runs every game as a Ray task (a local Ray instance, or the
cluster at ``--address``); the table is the same as the local backend's for
the same seed (see ``solvers/backends.py``); table misses are counted on the
local backend only.
The default line-up is ``best,heuristic`` (the game's ``best`` bot against
heuristic seats); ``--sims`` / ``--time`` also set the budget of ``best`` bots.
"""
from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time

from experiments.botspec import game_string
from solvers import backends, evaluate
from solvers.backends import BACKENDS
from solvers.botspec import parse_lineup


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, help="pyspiel game name, e.g. gold_thief")
    ap.add_argument("--players", type=int, default=None, help="players (game parameter)")
    ap.add_argument("--bots", default="best,heuristic",
                    help="comma-separated bot specs, name[:option=value...], e.g. "
                         "cfr:policy_file=p.npz,ismcts:max_simulations=500 "
                         "(default: best,heuristic)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--processes", type=int, default=None, help="default: all cores")
    ap.add_argument("--sims", type=int, default=None, help="ISMCTS simulations per move")
    ap.add_argument("--time", type=float, default=None, help="ISMCTS seconds per move")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--so", action="store_true", help="SO-ISMCTS instead of MO-ISMCTS")
    ap.add_argument("--rollout", choices=("random", "heuristic"), default="random",
                    help="ISMCTS rollout policy (heuristic: the one in the game's spec)")
    ap.add_argument("--backend", choices=BACKENDS, default="local",
                    help="local processes or Ray tasks (needs the 'ray' extra)")
    ap.add_argument("--address", default=None,
                    help="Ray cluster address (default: start a local Ray instance)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    best_budget = {}
    if args.sims is not None or args.time is not None:
        best_budget = dict(max_simulations=args.sims, time_limit=args.time)
    if args.sims is None and args.time is None:
        args.sims = 1000
    defaults = {"ismcts": dict(max_simulations=args.sims, time_limit=args.time,
                               uct_c=args.uct_c, multi_observer=not args.so,
                               rollout=args.rollout)}
    if best_budget:
        defaults["best"] = best_budget
    t0 = time.time()
    try:
        game = game_string(args.game, args.players)
        lineup = parse_lineup(args.bots, defaults)
        backends.check_backend(args.backend, args.address)
        if args.backend == "local":
            result = evaluate.run_match(game, lineup, games=args.games, seed=args.seed,
                                        processes=args.processes,
                                        progress=not args.no_progress)
        else:
            result = backends.run_match(game, lineup, games=args.games, seed=args.seed,
                                        backend=args.backend, processes=args.processes,
                                        address=args.address, progress=not args.no_progress)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"## {game}: {' vs '.join(result.lineup)}, {args.games} games, seed {args.seed}")
    print(f"ISMCTS: sims={args.sims} time={args.time} uct_c={args.uct_c} "
          f"{'SO' if args.so else 'MO'} rollout={args.rollout}; "
          f"{time.time() - t0:.0f} s on {platform.node()} "
          f"({datetime.date.today()})\n")
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
