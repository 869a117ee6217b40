"""Stress measurement of the Gold Nugget resampler (docs/rules/gold_nugget.md,
"Resampling"): states along seeded uniform random games, every player, a few
seeds each; per-world time, walks and backtracks per call, and which stage
produced each world (``src_cy.gold_nugget.engine.resample_stats()``).

    python -m experiments.bench.gold_nugget_resample_stress --games 20 --every 25 --seeds 2
"""
from __future__ import annotations

import argparse
import time

import pyspiel

import games  # noqa: F401
from games.testing import random_action
from src_cy.gold_nugget.engine import resample_stats
from src_cy.rng import SplitMix64, derive_seed

CONFIGS = {
    "p2": {"players": 2}, "p3": {"players": 3}, "p4": {"players": 4}, "p5": {"players": 5},
    "p4-advanced": {"players": 4, "advanced": True},
    "p5-advanced": {"players": 5, "advanced": True},
}


def states_along_games(game: pyspiel.Game, n_games: int, every: int, seed: int,
                       terminal: bool = False) -> list:
    """Engines of the decision states at every ``every``-th move (from move
    ``every``) of ``n_games`` seeded uniform random games, and with
    ``terminal`` each game's final state too (the hardest case: the final
    grabs reveal faces long after the moves that placed the stones)."""
    out = []
    for g in range(n_games):
        rng = SplitMix64(derive_seed(seed, g))
        state = game.new_initial_state()
        depth = 0
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
            depth += 1
            if depth % every == 0 and not state.is_chance_node() and not state.is_terminal():
                out.append(state.engine.py_clone())
        if terminal:
            out.append(state.engine.py_clone())
    return out


def measure(name: str, n_games: int, every: int, seeds: int, seed: int = 1,
            terminal: bool = False) -> dict:
    """Resample every player of every state ``seeds`` times; the statistics."""
    game = pyspiel.load_game("gold_nugget", CONFIGS[name])
    engines = states_along_games(game, n_games, every, seed, terminal)
    before = resample_stats()
    times, worst_at = [], None
    for i, eng in enumerate(engines):
        for p in range(game.num_players()):
            for s in range(seeds):
                t0 = time.perf_counter()
                eng.py_resample_history(p, derive_seed(seed, 1_000_000 + i * 97 + p * 7 + s))
                dt = time.perf_counter() - t0
                times.append(dt)
                if worst_at is None or dt > worst_at[0]:
                    worst_at = (dt, i, p, s)
    after = resample_stats()
    diff = {k: after[k] - before[k] for k in after}
    calls = max(diff["calls"], 1)
    ranked = sorted(times)
    return {
        "config": name, "states": len(engines), "worlds": len(times),
        "mean_ms": 1000 * sum(times) / len(times), "worst_ms": 1000 * max(times),
        "p99_ms": 1000 * ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))],
        "worst_at": worst_at[1:], "walks_per_call": diff["walks"] / calls,
        "backtracks_per_call": diff["backtracks"] / calls,
        "stages": {k: v for k, v in diff.items() if k not in ("calls", "walks", "backtracks")},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--terminal", action="store_true",
                    help="also resample each game's final state")
    args = ap.parse_args()
    for name in args.configs.split(","):
        r = measure(name, args.games, args.every, args.seeds, args.seed, args.terminal)
        print(f"{r['config']:12s} states {r['states']:4d} worlds {r['worlds']:5d} "
              f"mean {r['mean_ms']:8.3f} ms p99 {r['p99_ms']:8.1f} ms "
              f"worst {r['worst_ms']:8.1f} ms "
              f"(state {r['worst_at']}) walks/call {r['walks_per_call']:.2f} "
              f"backtracks/call {r['backtracks_per_call']:.1f} stages {r['stages']}",
              flush=True)


if __name__ == "__main__":
    main()
