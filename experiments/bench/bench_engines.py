"""Engine benchmark: random playouts, apply and clone rates per game.

Each goldspiel game is driven two ways — through its Cython engine directly
(``src_cy.engine`` loops, no Python per step) and through the pyspiel
interface from Python — next to OpenSpiel's C++ ``leduc_poker`` driven the
same way through pyspiel.  Prints a Markdown table; ``--write`` replaces the
engine section of ``docs/benchmarks.md``.

``python -m experiments.bench.bench_engines [--seconds 1.0] [--write]``
"""
from __future__ import annotations

import argparse
import time
from contextlib import nullcontext
from typing import Callable

import pyspiel

import games  # noqa: F401
from games.spec import bench_rows
from games.testing import random_action
from experiments.bench._benchutil import machine_line, replace_section
from src_cy.engine import apply_loop, clone_loop, copy_loop, legal_loop, random_playouts
from src_cy.rng import SplitMix64


def rate(fn: Callable[[int], object], seconds: float, start: int = 1) -> float:
    """Calls of fn(n) per second, growing n until a run lasts `seconds`."""
    n = start
    while True:
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        if dt >= seconds or n >= 1 << 30:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-6) * 1.1))


def pyspiel_playouts(game: pyspiel.Game, n: int, seed: int = 0) -> None:
    """n random games driven through the pyspiel API from Python."""
    rng = SplitMix64(seed)
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))


def pyspiel_applies(game: pyspiel.Game, n: int, seed: int = 0) -> None:
    """n random actions through pyspiel, restarting at terminals."""
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    for _ in range(n):
        if state.is_terminal():
            state = game.new_initial_state()
        state.apply_action(random_action(state, rng))


def mid_game(game: pyspiel.Game, moves: int = 40, seed: int = 0) -> pyspiel.State:
    """A fixed position: seeded random play for `moves` moves, then on to a decision."""
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and (state.move_number() < moves or state.is_chance_node()):
        state.apply_action(random_action(state, rng))
    return state


def bench(name: str, game_string: str, seconds: float) -> dict:
    game = pyspiel.load_game(game_string)
    row = {"name": name}
    row["py_playouts"] = rate(lambda n: pyspiel_playouts(game, n), seconds)
    row["py_applies"] = rate(lambda n: pyspiel_applies(game, n), seconds, 100)
    mid = mid_game(game)
    row["py_clones"] = rate(lambda n: [mid.clone() for _ in range(n)], seconds, 100)
    row["py_legal"] = rate(lambda n: [mid.legal_actions() for _ in range(n)], seconds, 100)
    if hasattr(game, "make_engine"):
        proto = game.make_engine()
        row["eng_playouts"] = rate(lambda n: random_playouts(proto, n, 1), seconds)
        row["eng_applies"] = rate(lambda n: apply_loop(proto, n, 1), seconds, 1000)
        row["eng_clones"] = rate(lambda n: clone_loop(mid.engine, n), seconds, 1000)
        row["eng_copies"] = rate(lambda n: copy_loop(mid.engine, n), seconds, 1000)
        row["eng_legal"] = rate(lambda n: legal_loop(mid.engine, n), seconds, 1000)
    return row


def table(rows: list[dict]) -> str:
    def f(x):
        return "—" if x is None else (f"{x:,.0f}" if x >= 100 else f"{x:,.1f}")
    out = ["| game | playouts/s engine | playouts/s pyspiel | ratio | applies/s engine"
           " | applies/s pyspiel | clones/s engine (copy into scratch) | clones/s pyspiel"
           " | legal-move gens/s engine | legal-move gens/s pyspiel |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = (f"{r['eng_playouts'] / r['py_playouts']:,.0f}×" if "eng_playouts" in r else "—")
        copies = f"{f(r.get('eng_clones'))} ({f(r.get('eng_copies'))})" if "eng_clones" in r else "—"
        out.append(f"| {r['name']} | {f(r.get('eng_playouts'))} | {f(r['py_playouts'])} | {ratio} | "
                   f"{f(r.get('eng_applies'))} | {f(r['py_applies'])} | {copies} | {f(r['py_clones'])} | "
                   f"{f(r.get('eng_legal'))} | {f(r['py_legal'])} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args(argv)
    rows = []
    for row in bench_rows("engines"):
        with row.setting() if row.setting else nullcontext():
            rows.append(bench(row.label, row.game, args.seconds))
    rows.append(bench("OpenSpiel C++ leduc_poker (reference)", "leduc_poker", args.seconds))
    text = (f"{machine_line()}\n\nCommand: `python -m experiments.bench.bench_engines "
            f"--seconds {args.seconds}`\n\n{table(rows)}\n")
    print(text)
    if args.write:
        replace_section("docs/benchmarks.md", "engines", text)


if __name__ == "__main__":
    main()
