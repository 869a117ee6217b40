"""How close `best` stays to its move budget: CPU per move over whole games.

Plays ``--games`` seeded games per configuration with ``best`` (its default
``move_budget``, ``solvers.bots.BEST_MOVE_BUDGET`` CPU seconds, or
``--budget``) in every seat (``--seats all``), or in one seat, game g's seat
g mod n, with the heuristic in the others (``--seats one``: the same number
of ``best`` positions per game as players fewer, for many games): every game
at 2 and 4 players, Saboteur at 4 and 5.  For every move it
records the process CPU time of ``bot.step`` and whether the cap stopped the
search (``out_of_time``) or left it no simulation (the fallback move).
Prints a Markdown table: moves, mean / 95th percentile / max CPU per move,
max / budget, and the capped and fallback counts.  ``--write`` replaces the
move-budget section of ``docs/benchmarks.md``.

Run: ``python -m experiments.bench.bench_move_budget [--games N] [--seed S]
[--only TEXT] [--budget SECONDS] [--seats all|one] [--write]``
"""
from __future__ import annotations

import time

import numpy as np
import pyspiel
from tqdm import tqdm

import games  # noqa: F401  (registers every game)
from experiments.bench._benchutil import bench_parser, publish
from games.testing import random_action
from solvers.bots import BEST_MOVE_BUDGET, make_bot
from src_cy.rng import SplitMix64

CONFIGS = [("Gold Thief", "gold_thief", 2), ("Gold Thief", "gold_thief", 4),
           ("Ardillas del Bosque", "ardillas_del_bosque", 2),
           ("Ardillas del Bosque", "ardillas_del_bosque", 4),
           ("Gold Nugget", "gold_nugget", 2), ("Gold Nugget", "gold_nugget", 4),
           ("Saboteur", "saboteur", 4), ("Saboteur", "saboteur", 5)]


def play(game: pyspiel.Game, seed: int, budget: float,
         seats: str = "all") -> tuple[list[float], int, int]:
    """One game with ``best`` in every seat (or in seat ``seed`` mod n, the
    heuristic elsewhere): (CPU seconds per ``best`` move, capped moves,
    fallback moves)."""
    n = game.num_players()
    tested = set(range(n)) if seats == "all" else {seed % n}
    bots = [make_bot("best" if p in tested else "heuristic", game, seed=seed * 10 + p,
                     move_budget=budget) for p in range(n)]
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    times, capped = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        p = state.current_player()
        bot = bots[p]
        t = time.process_time()
        action = bot.step(state)
        if p in tested:
            times.append(time.process_time() - t)
            stats = getattr(bot, "last_stats", None)
            capped += bool(stats is not None and stats.out_of_time)
        state.apply_action(action)
    return times, capped, sum(getattr(bots[p], "fallback_moves", 0) for p in tested)


def bench(label: str, name: str, players: int, games_: int, seed: int, budget: float,
          seats: str = "all") -> dict:
    game = pyspiel.load_game(name, {"players": players})
    times: list[float] = []
    capped = fallback = 0
    for g in tqdm(range(games_), desc=f"{label} {players}p", unit="game", leave=False):
        t, c, f = play(game, seed + g, budget, seats)
        times += t
        capped += c
        fallback += f
    arr = np.asarray(times)
    return {"label": label, "players": players, "games": games_, "moves": arr.size,
            "mean": arr.mean(), "p95": np.percentile(arr, 95), "max": arr.max(),
            "budget": budget, "capped": capped, "fallback": fallback}


def table(rows: list[dict]) -> str:
    out = ["| game | players | games | moves | CPU/move mean | p95 | max | max / budget "
           "| capped moves | fallback moves |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} | {r['players']} | {r['games']} | {r['moves']} | "
                   f"{1e3 * r['mean']:.1f} ms | {1e3 * r['p95']:.1f} ms | "
                   f"{1e3 * r['max']:.1f} ms | {r['max'] / r['budget']:.2f} | "
                   f"{r['capped']} | {r['fallback']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__, "seed of the first game")
    parser.add_argument("--games", type=int, default=20, help="games per configuration")
    parser.add_argument("--budget", type=float, default=BEST_MOVE_BUDGET,
                        help="move budget in CPU seconds (default: best's)")
    parser.add_argument("--seats", choices=("all", "one"), default="all",
                        help="best in every seat, or in one (rotating) with the "
                             "heuristic in the others")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if not args.budget > 0:
        parser.error(f"--budget must be > 0, got {args.budget}")
    configs = [c for c in CONFIGS if args.only.lower() in c[0].lower()]
    if not configs:
        parser.error(f"--only {args.only!r} matches no game")
    command = (f"python -m experiments.bench.bench_move_budget --games {args.games} "
               f"--seed {args.seed} --budget {args.budget} --seats {args.seats}"
               + (f" --only {args.only}" if args.only else ""))
    rows = [bench(label, name, n, args.games, args.seed, args.budget, args.seats)
            for label, name, n in tqdm(configs, desc="configurations", unit="config")]
    publish(command, table(rows), "move-budget", args.write)


if __name__ == "__main__":
    main()
