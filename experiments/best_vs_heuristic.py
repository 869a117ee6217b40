"""`best` against heuristic seats, with `best`'s CPU time per move.

Example::

    python -m experiments.best_vs_heuristic --game gold_nugget --players 2 \\
        --games 100 --seed 1 --processes 2

One `best` seat (the game spec's ``best`` options, ``solvers.bots.best_config``;
``--set key=value`` pairs override them) against heuristic seats, seats
rotated, played by
``solvers.evaluate.run_match`` (the same games and table as
``experiments.match --bots best,heuristic`` for the same seed and options).
The `best` bot is wrapped so it also counts its moves and the CPU time
(``time.process_time``, its own process) spent in ``step``; the summary
line gives the mean, the median and the 95th percentile (from a histogram
of whole milliseconds) and the number of moves over 0.1 s.  On a loaded
machine CPU time is inflated by cache and hyper-thread contention, so it
is an upper bound of the idle figure.
"""
from __future__ import annotations

import argparse
import datetime
import sys
import time
from typing import Any

import pyspiel

from solvers import evaluate
from solvers.bots import make_bot, register_bot
from solvers.botspec import parse_value

BUDGET_S = 0.1
HIST_PREFIX = "cpu_ms="   # stats keys of the per-move CPU histogram (whole ms)


class CpuTimedBot(pyspiel.Bot):
    """Wraps a bot; ``stats()`` gives its moves and CPU microseconds in ``step``."""

    def __init__(self, inner: pyspiel.Bot):
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self.moves = 0
        self.cpu_us = 0
        self.over_budget = 0
        self.hist: dict[int, int] = {}

    def step(self, state: pyspiel.State) -> int:
        t = time.process_time()
        action = self.inner.step(state)
        dt = time.process_time() - t
        self.moves += 1
        self.cpu_us += int(dt * 1e6)
        self.over_budget += dt > BUDGET_S
        bucket = int(dt * 1000)
        self.hist[bucket] = self.hist.get(bucket, 0) + 1
        return action

    def restart_at(self, state: pyspiel.State) -> None:
        self.inner.restart_at(state)

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        self.inner.inform_action(state, player_id, action)

    def provides_policy(self) -> bool:
        return False

    def stats(self) -> dict[str, int]:
        out = {"moves": self.moves, "cpu_us": self.cpu_us, "over_0.1s": self.over_budget}
        out.update((f"{HIST_PREFIX}{k}", v) for k, v in self.hist.items())
        return out


def percentile_ms(hist: dict[int, int], q: float) -> int:
    """The ``q`` quantile (0..1) of a whole-millisecond histogram: the
    smallest bucket with at least ``q`` of the moves at or below it."""
    total = sum(hist.values())
    if total == 0:
        raise ValueError("empty histogram")
    seen = 0
    for k in sorted(hist):
        seen += hist[k]
        if seen >= q * total:
            return k
    return max(hist)


def _timed_best(game: pyspiel.Game, seed: int | None = 0, **options: Any) -> pyspiel.Bot:
    return CpuTimedBot(make_bot("best", game, seed=seed, **options))


register_bot("timed_best", _timed_best)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override an option of the best bot (solvers.bots.best_config)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    options = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            print(f"error: --set {item!r} is not KEY=VALUE", file=sys.stderr)
            return 2
        options[key] = parse_value(value)
    game = f"{args.game}(players={args.players})"
    lineup = [evaluate.spec("timed_best", label="best", **options), evaluate.spec("heuristic")]
    t0 = time.time()
    try:
        result = evaluate.run_match(game, lineup, games=args.games, seed=args.seed,
                                    processes=args.processes, progress=not args.no_progress)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    st = result.bot_stats.get("best", {})
    hist = {int(k[len(HIST_PREFIX):]): st.pop(k) for k in list(st) if k.startswith(HIST_PREFIX)}
    moves = st.get("moves", 0)
    print(f"## {game}: best{options or ''} vs heuristic, {args.games} games, seed {args.seed}; "
          f"{time.time() - t0:.0f} s wall ({datetime.date.today()})\n")
    print(result.table())
    if moves:
        print(f"\nbest CPU per move: {st['cpu_us'] / moves / 1000:.1f} ms mean, median "
              f"{percentile_ms(hist, 0.5)} ms, 95th percentile {percentile_ms(hist, 0.95)} ms "
              f"(whole ms) over {moves} moves, {st['over_0.1s']} moves "
              f"({st['over_0.1s'] / moves:.1%}) over {BUDGET_S} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
