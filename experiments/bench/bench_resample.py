"""Resampling benchmark: time per resampled world, per game and player count.

Three ways to get a world of the player to move, on the same positions
(non-terminal decision states spread along seeded random games):

* engine: the engine's C ``resample`` drawn into a kept scratch engine
  (``engine.py_resample_into``: a copy of the position plus the C resample),
  ``--block`` worlds in a row at one position before the next, which is
  how a search uses them (one root, a world per simulation; a resampler
  may keep what depends only on the view between them); chained: the
  same with ``py_resample_into(..., chain=True)``, each world continued
  from the last one drawn at its position where the engine chains worlds
  (Gold Nugget and Gold Thief, ``set_resample_chain``; the first world of
  a position is fresh), as a search draws them; and, for
  comparison, ``engine.py_resample`` with the positions alternating, a new
  engine allocated per world (the measurement of the tables before
  2026-12-03's last one: every world cold);
* API: OpenSpiel's ``state.resample_from_infostate(p, sampler)`` on our
  pyspiel state (the world's history replayed through ``apply_action``),
  in blocks like the engine;
* replay: the position's own history replayed through pyspiel
  ``apply_action`` from a new initial state — what a world of that length
  costs through OpenSpiel's own API, the baseline of the ratios.

The chain's mixing, on the same positions: the distinct worlds among 64
successive chained worlds of a position (the first fresh; 64 where every
world is new), and the share of the chain's Metropolis-Hastings proposals
accepted where the engine counts them (Gold Thief's ``resample_stats``).

Each measurement runs ``--repeats`` times, the ways interleaved (engine,
clone, API, replay, engine, ...), and the median is reported, so a burst of
load on a shared machine moves one sample, not a ratio.

Prints a Markdown table; ``--write`` replaces the resampling section of
``docs/benchmarks.md``.

``--only gold_thief`` keeps the games whose label or game string contains
the text; ``--gold-thief-k K`` sets Gold Thief's stage-2 proposals K
(``src_cy.gold_thief.engine.set_model_proposals``) to compare its cost;
``--gold-nugget-steps S`` sets the corrector steps after a Gold Nugget walk
(``src_cy.gold_nugget.engine.set_resample_corrector``; 0 = the walks alone),
to split a fresh world's cost into the walks' and the corrector's.

``python -m experiments.bench.bench_resample [--seconds 0.5] [--positions 6] [--repeats 3]
[--block 16] [--seed 0] [--only TEXT] [--gold-thief-k K] [--gold-nugget-steps S] [--write]``
"""
from __future__ import annotations

import importlib
import statistics
import time
from contextlib import nullcontext
from typing import Callable

import pyspiel
from tqdm import tqdm

import games  # noqa: F401
from experiments.bench._benchutil import bench_parser, publish
from games.spec import bench_rows
from games.testing import random_states
from src_cy.rng import SplitMix64


def positions(game: pyspiel.Game, count: int, seed: int) -> list[pyspiel.State]:
    """`count` decision states spread evenly along two seeded random games."""
    states = [s for s in random_states(game, 2, seed=seed)
              if not s.is_terminal() and not s.is_chance_node()]
    if not states:
        raise ValueError(f"no decision state in random games of {game}")
    step = max(1, len(states) // count)
    return states[::step][:count]


def per_call(fn: Callable[[pyspiel.State, int], object], states: list[pyspiel.State],
             seconds: float, block: int = 1) -> float:
    """Seconds per call of fn(state, i), cycling over `states` for at least
    `seconds`, `block` calls in a row on each state."""
    calls, i = 0, 0
    t0 = time.perf_counter()
    while True:
        for state in states:
            for _ in range(block):
                fn(state, i)
                i += 1
        calls += len(states) * block
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return dt / calls


def replay(state: pyspiel.State, _: int) -> pyspiel.State:
    """The state's history through pyspiel ``apply_action`` from the start."""
    world = state.get_game().new_initial_state()
    for action in state.history():
        world.apply_action(action)
    return world


def chain_mixing(states: list[pyspiel.State], n: int = 64) -> tuple[float, float | None]:
    """Mean distinct worlds among ``n`` successive chained worlds per
    position (the first fresh), and the share of chain proposals accepted
    where the engine's module counts them (``chain_proposals`` in its
    ``resample_stats``; else None)."""
    stats = getattr(importlib.import_module(type(states[0].engine).__module__),
                    "resample_stats", None)
    before = stats() if stats else {}
    distinct = []
    for state in states:
        scratch, p = state.engine.py_clone(), state.current_player()
        distinct.append(len({tuple(state.engine.py_resample_into(scratch, p, i, chain=i > 0)
                                   .py_history()) for i in range(n)}))
    accepted = None
    if "chain_proposals" in before:
        after = stats()
        proposed = after["chain_proposals"] - before["chain_proposals"]
        if proposed:
            accepted = (after["chain_accepts"] - before["chain_accepts"]) / proposed
    return statistics.mean(distinct), accepted


def bench(label: str, game_string: str, count: int, seconds: float, seed: int,
          repeats: int = 1, block: int = 1) -> dict:
    """Seconds per world of each way (median of `repeats` interleaved runs;
    the engine and the API draw `block` worlds in a row per position)."""
    game = pyspiel.load_game(game_string)
    states = positions(game, count, seed)
    rng = SplitMix64(seed)
    scratch = {id(s): s.engine.py_clone() for s in states}
    chain_scratch = {id(s): s.engine.py_clone() for s in states}
    started: set[int] = set()

    def engine(state: pyspiel.State, i: int) -> object:
        return state.engine.py_resample_into(scratch[id(state)], state.current_player(), i)

    def chained(state: pyspiel.State, i: int) -> object:
        first = id(state) not in started
        started.add(id(state))
        return state.engine.py_resample_into(chain_scratch[id(state)], state.current_player(),
                                              i, chain=not first)

    def clone(state: pyspiel.State, i: int) -> object:
        return state.engine.py_resample(state.current_player(), i)

    def api(state: pyspiel.State, _: int) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), rng.random)

    ways = {"engine": (engine, block), "chained": (chained, block), "clone": (clone, 1),
            "api": (api, block),
            "replay": (replay, 1)}
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, (fn, b) in ways.items():
            samples[name].append(per_call(fn, states, seconds, b))
    out: dict = {"label": label, "positions": len(states),
                 "length": sum(len(s.history()) for s in states) / len(states)}
    out.update({name: statistics.median(xs) for name, xs in samples.items()})
    out["distinct"], out["accepted"] = chain_mixing(states)
    return out


def ratio(x: float) -> str:
    return f"{x:.1f}×" if x >= 1 else f"{x:.2f}×"


def table(rows: list[dict]) -> str:
    out = ["| game | positions (mean history length) | engine C `resample` ms/world "
           "| chained ms/world | new engine, positions alternating ms/world "
           "| `resample_from_infostate` ms/world | pyspiel replay ms/world "
           "| replay ÷ engine | replay ÷ chained | replay ÷ new engine | API ÷ replay "
           "| chained: distinct worlds / 64 | chain proposals accepted |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} | {r['positions']} ({r['length']:.0f}) "
                   f"| {r['engine'] * 1e3:.3f} | {r['chained'] * 1e3:.3f} "
                   f"| {r['clone'] * 1e3:.3f} "
                   f"| {r['api'] * 1e3:.3f} | {r['replay'] * 1e3:.3f} "
                   f"| {ratio(r['replay'] / r['engine'])} | {ratio(r['replay'] / r['chained'])} "
                   f"| {ratio(r['replay'] / r['clone'])} "
                   f"| {ratio(r['api'] / r['replay'])} | {r['distinct']:.1f} "
                   f"| {'—' if r['accepted'] is None else format(r['accepted'], '.0%')} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__, "seed of the random games")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    parser.add_argument("--positions", type=int, default=6, help="positions per game")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved runs per measurement (the median is reported)")
    parser.add_argument("--block", type=int, default=16,
                        help="worlds in a row per position for the engine and the API")
    parser.add_argument("--gold-thief-k", type=int, default=None,
                        help="Gold Thief stage-2 proposals K (default: the engine's)")
    parser.add_argument("--gold-nugget-steps", type=int, default=None,
                        help="Gold Nugget corrector steps after a walk (default: the "
                             "engine's; 0: the walks alone)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.positions < 1 or args.repeats < 1 or args.block < 1:
        parser.error("--seconds must be > 0; --positions, --repeats and --block >= 1")
    if args.write and (args.gold_thief_k is not None or args.gold_nugget_steps is not None):
        parser.error("--write keeps the engines' default settings: drop --gold-thief-k "
                     "and --gold-nugget-steps")
    configs = [row for row in bench_rows("resample")
               if args.only.lower() in row.label.lower() or args.only in row.game]
    if not configs:
        parser.error(f"--only {args.only!r} matches no game")
    command = (f"python -m experiments.bench.bench_resample --seconds {args.seconds} "
               f"--positions {args.positions} --repeats {args.repeats} --block {args.block} "
               f"--seed {args.seed}")
    if args.only:
        command += f" --only {args.only}"
    if args.gold_nugget_steps is not None and args.gold_nugget_steps < 0:
        parser.error(f"--gold-nugget-steps must be >= 0, got {args.gold_nugget_steps}")
    restores = []
    try:
        if args.gold_thief_k is not None:
            from src_cy.gold_thief.engine import set_model_proposals
            try:
                restores.append((set_model_proposals, (set_model_proposals(args.gold_thief_k),)))
            except ValueError as err:
                parser.error(str(err))
            command += f" --gold-thief-k {args.gold_thief_k}"
        if args.gold_nugget_steps is not None:
            from src_cy.gold_nugget.engine import set_resample_corrector
            restores.append((set_resample_corrector,
                             set_resample_corrector(steps=args.gold_nugget_steps)))
            command += f" --gold-nugget-steps {args.gold_nugget_steps}"
        rows = []
        for row in tqdm(configs, desc="games", unit="game"):
            with row.setting() if row.setting else nullcontext():
                rows.append(bench(row.label, row.game, args.positions, args.seconds, args.seed,
                                  args.repeats, args.block))
    finally:
        for setter, previous in reversed(restores):
            setter(*previous)
    publish(command, table(rows), "resample", args.write)


if __name__ == "__main__":
    main()
