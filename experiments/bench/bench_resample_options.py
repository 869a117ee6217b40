"""Resampler options benchmark: what each setting costs or saves, as ratios
measured in one run on the same positions and seeds (docs/benchmarks.md,
"Resampler options").

* ``gn-backjump``: Gold Nugget walks with conflict-directed backjumping
  against without (``set_resample_backjumping``), calls interleaved;
* ``gn-threshold``: the walks' jump threshold (backtracks to earlier nodes
  before a jump back), several values, calls interleaved;
* ``gn-exact``: the exact stage (``set_resample_exact_budget``) against the
  walks alone, on mini and small variants (exact) and on default games
  (the cost of a stage that cannot finish, at a given budget);
* ``gn-corrector``: the walks followed by the corrector at several step
  counts (``set_resample_corrector``) against the walks alone, calls
  interleaved, with the corrector steps taken as Metropolis-Hastings steps
  (their exact draw could pass the node budget) and their rejections,
  then CPU per ``best`` move at 4 and 5 players under each setting;
* ``gn-cost``: where a Gold Nugget world's time goes on the positions of
  ``experiments.bench.bench_resample`` (2 to 5 players): CPU per world of
  the walks alone and with the default corrector, the corrector's nodes,
  Metropolis-Hastings steps and rejections per call and its CPU per node,
  against the pyspiel
  replay of the position's history;
* ``gn-pool``: Gold Nugget ``best`` at 2 and 3 players, CPU per move with
  its pool of 32 worlds against a fresh world per simulation;
* ``sab-proposals``: Saboteur's importance-corrected card draw, CPU per
  ``best`` move at several K (``set_resample_proposals``) against K = 1.

``python -m experiments.bench.bench_resample_options gn-backjump [--games 16] [--seed 11]``
"""
from __future__ import annotations

import argparse
import time

import pyspiel
from tqdm import tqdm

import games  # noqa: F401
import games.gold_nugget as gn
from experiments.bench.gold_nugget_resample_stress import CONFIGS, states_along_games
from games import testing
from src_cy.gold_nugget import engine as gnc
from src_cy.rng import derive_seed

HARD = ("p4", "p5", "p4-advanced", "p5-advanced")


def _interleaved(settings: dict, apply_setting, games_: int, seed: int) -> None:
    """Resample every player at every state of the HARD configurations once
    per setting, settings interleaved call by call; print totals, 99th
    percentiles, the slowest call and each setting's ratio to the first."""
    times = {k: [] for k in settings}
    backs = {k: 0 for k in settings}
    for name in HARD:
        game = pyspiel.load_game("gold_nugget", CONFIGS[name])
        engines = states_along_games(game, games_, 25, seed, terminal=True)
        for i, engine in enumerate(tqdm(engines, desc=name, leave=False)):
            for p in range(game.num_players()):
                for label, value in settings.items():
                    apply_setting(value)
                    before = gnc.resample_stats()["backtracks"]
                    t0 = time.perf_counter()
                    engine.py_resample_history(p, derive_seed(4, i * 10 + p))
                    times[label].append(time.perf_counter() - t0)
                    backs[label] += gnc.resample_stats()["backtracks"] - before
    first = next(iter(settings))
    for label in settings:
        ts = sorted(times[label])
        print(f"{label:>14s}: {len(ts)} calls, total {sum(ts):7.2f} s "
              f"({sum(ts) / sum(times[first]):.2f}x of {first}), backtracks "
              f"{backs[label]:,} ({backs[label] / max(backs[first], 1):.2f}x), "
              f"99th pct {1000 * ts[int(0.99 * len(ts))]:.1f} ms, "
              f"slowest {1000 * ts[-1]:.0f} ms", flush=True)


def gn_backjump(args: argparse.Namespace) -> None:
    old = gnc.set_resample_backjumping(True)
    try:
        _interleaved({"backjumping": True, "chronological": False},
                     gnc.set_resample_backjumping, args.games, args.seed)
    finally:
        gnc.set_resample_backjumping(old)


def gn_threshold(args: argparse.Namespace) -> None:
    values = [int(v) for v in args.values.split(",")]
    try:
        _interleaved({f"threshold {v}": v for v in values},
                     lambda v: gnc._set_walk_tuning(v, 8), args.games, args.seed)
    finally:
        gnc._set_walk_tuning(32, 8)


SMALL_VARIANTS = {
    "mini": {},
    "mini, 2 days": {"days": 2},
    "mini, 5 stones": {"normal_stones": 3},
    "mini, 6 cards of 3 kinds": {"leaf_counts": "peek:2/chance:2/accuse:2"},
    "2 days, 6 stones, hands of 3": {"normal_stones": 3, "trap_stones": 2, "hand_size": 3,
                                     "start_stones": 2, "days": 2,
                                     "leaf_counts": "peek:2/chance:2/accuse:2/beg:1/glance:1"},
}


def gn_exact(args: argparse.Namespace) -> None:
    cases = [(name, dict(gn.MINI_PARAMS, **extra), -1) for name, extra in SMALL_VARIANTS.items()]
    cases += [(f"{p} players, budget {b}", {"players": p}, b)
              for p in (2, 5) for b in (500, 2000)]
    old = gnc.set_resample_exact_budget(-1)
    try:
        for name, params, budget in cases:
            game = pyspiel.load_game("gold_nugget", params)
            states = [s for s in testing.random_states(game, 6, seed=args.seed, every=3)
                      if not s.is_chance_node()][:40]
            cost = {}
            for label, b in (("walks", 0), ("exact", budget)):
                gnc.set_resample_exact_budget(b)
                before = gnc.resample_stats()
                t0 = time.perf_counter()
                n = 0
                for i, st in enumerate(states):
                    for p in range(game.num_players()):
                        st.engine.py_resample_history(p, derive_seed(1, i * 10 + p))
                        n += 1
                cost[label] = (time.perf_counter() - t0) / n
                after = gnc.resample_stats()
            print(f"{name:32s}: exact stage {1000 * cost['exact']:.3f} ms/world, walks "
                  f"{1000 * cost['walks']:.3f} ms/world ({cost['exact'] / cost['walks']:.2f}x); "
                  f"{after['exact'] - before['exact']} of {n} worlds exact, "
                  f"{(after['exact_nodes'] - before['exact_nodes']) / n:.0f} nodes/call",
                  flush=True)
    finally:
        gnc.set_resample_exact_budget(old)


def _best_cpu_per_move(game_name: str, players: int, positions: int, settings: dict,
                       apply_setting=None) -> None:
    """CPU per ``best`` move at mid-game positions under each setting, as a
    ratio to the first; one line per player count. A setting is passed to
    ``apply_setting``, or, without it, is a dict of ISMCTS options that
    override ``best``'s."""
    from games.spec import find_spec
    from solvers.ismcts import ISMCTSBot
    game = pyspiel.load_game(game_name, {"players": players})
    states = [s for s in testing.mid_game_states(game, positions, seed=4, min_depth=30)
              if not s.is_terminal() and not s.is_chance_node()]
    cpu = {}
    for label, value in settings.items():
        options = dict(find_spec(game_name).best(game))
        if apply_setting is None:
            options.update(value)
        else:
            apply_setting(value)
        bot = ISMCTSBot(game, seed=1, **options)
        t0 = time.process_time()
        for st in states:
            bot.step(st)
        cpu[label] = (time.process_time() - t0) / len(states)
    first = next(iter(settings))
    print(f"{game_name} {players}p best, {len(states)} moves: " + ", ".join(
        f"{label} {1000 * cpu[label]:.1f} ms ({cpu[label] / cpu[first]:.2f}x)"
        for label in settings), flush=True)


def gn_pool(args: argparse.Namespace) -> None:
    for players in (2, 3):
        _best_cpu_per_move("gold_nugget", players, args.positions,
                           {"pool of 32 worlds": {}, "fresh world per simulation":
                            {"cached_worlds": 0}})


def gn_corrector(args: argparse.Namespace) -> None:
    values = [int(v) for v in args.steps.split(",")]
    settings = {f"{v} steps": v for v in values}
    old = gnc.set_resample_corrector()
    before = gnc.resample_stats()
    try:
        _interleaved(settings, gnc.set_resample_corrector, args.games, args.seed)
        after = gnc.resample_stats()
        for players in (4, 5):
            _best_cpu_per_move("gold_nugget", players, args.positions, settings,
                               gnc.set_resample_corrector)
    finally:
        gnc.set_resample_corrector(*old)
    print(f"corrector in the interleaved calls: {after['mcmc_skips'] - before['mcmc_skips']} "
          f"Metropolis-Hastings steps ({after['mcmc_rejects'] - before['mcmc_rejects']} "
          f"rejected), {after['mcmc_moves'] - before['mcmc_moves']} steps changed the world, "
          f"{after['mcmc_fails'] - before['mcmc_fails']} failures", flush=True)


def _cpu_per_call(fn, states: list, seconds: float) -> float:
    """CPU seconds per call of fn(state, i), cycling over `states` for at
    least `seconds` of CPU."""
    calls = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for state in states:
            fn(state, calls)
            calls += 1
    return (time.process_time() - t0) / calls


def gn_cost(args: argparse.Namespace) -> None:
    from experiments.bench.bench_resample import positions, replay
    old = gnc.set_resample_corrector()
    try:
        for players in (2, 3, 4, 5):
            game = pyspiel.load_game("gold_nugget", {"players": players})
            states = positions(game, args.positions, 0)

            def world(state, i):
                return state.engine.py_resample(state.current_player(), i)

            gnc.set_resample_corrector(0)
            walks = _cpu_per_call(world, states, args.seconds)
            gnc.set_resample_corrector(*old)
            before = gnc.resample_stats()
            full = _cpu_per_call(world, states, args.seconds)
            after = gnc.resample_stats()
            rep = _cpu_per_call(replay, states, args.seconds)
            calls = after["calls"] - before["calls"]
            nodes = (after["mcmc_nodes"] - before["mcmc_nodes"]) / calls
            skips = (after["mcmc_skips"] - before["mcmc_skips"]) / calls
            rejects = (after["mcmc_rejects"] - before["mcmc_rejects"]) / calls
            print(f"{players} players: walks {1000 * walks:.3f} ms/world ({walks / rep:.2f} "
                  f"replays), with the corrector {1000 * full:.3f} ms/world ({full / rep:.2f} "
                  f"replays, replay / world {rep / full:.2f}x); corrector {nodes:,.0f} nodes/call, "
                  f"{skips:.1f} of {old[0]} steps Metropolis-Hastings ({rejects:.1f} rejected), "
                  f"{1e6 * (full - walks) / max(nodes, 1):.3f} us/node; pyspiel replay "
                  f"{1000 * rep:.3f} ms", flush=True)
    finally:
        gnc.set_resample_corrector(*old)


def sab_proposals(args: argparse.Namespace) -> None:
    from src_cy.saboteur import engine as sab
    ks = [int(k) for k in args.k.split(",")]
    old = sab.set_resample_proposals(1)
    try:
        for players in (3, 5):
            _best_cpu_per_move("saboteur", players, args.positions,
                               {f"K={k}": k for k in ks}, sab.set_resample_proposals)
    finally:
        sab.set_resample_proposals(old)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("gn-backjump", "gn-threshold", "gn-exact", "gn-corrector",
                                       "gn-cost", "gn-pool", "sab-proposals"))
    ap.add_argument("--games", type=int, default=16, help="random games per configuration")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--values", default="32,8,16", help="gn-threshold: thresholds")
    ap.add_argument("--steps", default="0,8,32", help="gn-corrector: step counts")
    ap.add_argument("--k", default="1,4,8", help="sab-proposals: K values, the first the baseline")
    ap.add_argument("--positions", type=int, default=12,
                    help="sab-proposals, gn-corrector, gn-pool: best moves; gn-cost: positions "
                         "(the resampling bench uses 6)")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="gn-cost: CPU seconds per measurement")
    args = ap.parse_args()
    {"gn-backjump": gn_backjump, "gn-threshold": gn_threshold, "gn-exact": gn_exact,
     "gn-corrector": gn_corrector, "gn-cost": gn_cost, "gn-pool": gn_pool,
     "sab-proposals": sab_proposals}[args.what](args)


if __name__ == "__main__":
    main()
