"""ISMCTS simulations per second: ours vs OpenSpiel's, same game and position.

    python -m experiments.bench.bench_search [--seconds 2] [--repeats 3] [--only TEXT]

Rows: each goldspiel game at a fixed mid-game position (seeded random play,
12 decisions) against OpenSpiel's Python ``ISMCTSBot`` on the same registered
game; ``leduc_poker`` (our Leduc engine vs OpenSpiel's C++ game, same
position) against both OpenSpiel bots.  All use random rollouts, UCT c=2,
unlimited world samples.  Rates are per CPU second of the searching thread,
the fastest of ``--repeats`` runs of about ``--seconds`` each (a shared
machine slows both sides less than wall time would).  Prints a Markdown
table with machine and date; also checks that OpenSpiel's C++ ISMCTSBot fails on a Python-registered game.
``--only saboteur`` keeps the rows whose name or game string contains the
text (and skips that check); ``--write`` needs every row.
"""
from __future__ import annotations

import argparse
from contextlib import nullcontext
import subprocess
import sys
import time

import numpy as np
import pyspiel

from experiments.bench._benchutil import machine_line, replace_section
from solvers.ismcts import fast_search
from src_cy.rng import SplitMix64, sample_sorted

POSITION_DECISIONS = 12


def mid_game(game: pyspiel.Game, seed: int = 5,
             decisions: int = POSITION_DECISIONS) -> pyspiel.State:
    """A fixed position: seeded uniform play until `decisions` decisions
    (default 12) were made."""
    state, rng, k = game.new_initial_state(), SplitMix64(seed), 0
    while k < decisions or state.is_chance_node():
        if state.is_terminal():
            raise RuntimeError("game ended before the benchmark position")
        if state.is_chance_node():
            state.apply_action(sample_sorted(sorted(state.chance_outcomes()), rng))
        else:
            legal = sorted(state.legal_actions())
            state.apply_action(legal[rng.randint(len(legal))])
            k += 1
    return state


def rate(run, seconds: float, repeats: int = 1) -> float:
    """Simulations per CPU second of ``run(n) -> None`` (this thread's CPU
    time, so other jobs on a shared machine count less): n is grown until
    a run takes ~``seconds``, then ``repeats - 1`` more runs of that n; the
    fastest run counts."""
    n = 16
    while True:
        t0 = time.thread_time()
        run(n)
        dt = time.thread_time() - t0
        if dt >= seconds or n >= 1 << 24:
            break
        n = int(n * min(16.0, max(2.0, 1.2 * seconds / max(dt, 1e-6))))
    for _ in range(repeats - 1):
        t0 = time.thread_time()
        run(n)
        dt = min(dt, time.thread_time() - t0)
    return n / dt


def ours(engine, player: int):
    return lambda n: fast_search(engine, player, max_simulations=n, seed=1)


def openspiel_python(game, state):
    from open_spiel.python.algorithms import ismcts, mcts

    def run(n):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                               2.0, n, random_state=np.random.RandomState(1))
        bot.run_search(state)
    return run


def openspiel_cpp(game, state):
    def run(n):
        bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, n)
        bot.step(state)
    return run


CPP_ON_PYTHON_GAME = """
import games, pyspiel
g = pyspiel.load_game("gold_thief")
s = g.new_initial_state()
while s.is_chance_node():
    s.apply_action(s.chance_outcomes()[0][0])
bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 10)
print("action", bot.step(s))
"""


def cpp_on_python_game() -> str:
    """What OpenSpiel's C++ ISMCTSBot does on gold_thief (run in a subprocess)."""
    p = subprocess.run([sys.executable, "-c", CPP_ON_PYTHON_GAME], capture_output=True,
                       text=True, timeout=120)
    if p.returncode == 0:
        return f"ran: {p.stdout.strip()}"
    last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
    return f"failed (exit code {p.returncode}): {last[:160]}"


def leduc_rows(measure) -> list[tuple]:
    """Our Leduc engine against both OpenSpiel bots on OpenSpiel's C++ game,
    same position (cards 0 and 3 dealt; call; raise)."""
    from src_cy.poker.engine import LeducEngine
    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    engine = LeducEngine({"players": 2})
    for action in (0, 3, 1, 2):
        state.apply_action(action)
        engine.py_apply(action)
    assert engine.info_string(1) == state.information_state_string(1)
    a = measure(ours(engine, state.current_player()))
    return [("leduc_poker", a, "OpenSpiel Python ISMCTSBot",
             measure(openspiel_python(game, state))),
            ("leduc_poker", a, "OpenSpiel C++ ISMCTSBot",
             measure(openspiel_cpp(game, state)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="ISMCTS speed vs OpenSpiel")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="target CPU time per measurement")
    ap.add_argument("--repeats", type=int, default=3,
                    help="runs per measurement (the fastest counts)")
    ap.add_argument("--only", default="", help="keep the rows whose name or game string contains this")
    ap.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = ap.parse_args(argv)
    if args.only and args.write:
        ap.error("--write needs every row (no --only)")
    if args.seconds <= 0 or args.repeats < 1:
        ap.error("--seconds must be > 0 and --repeats >= 1")

    def measure(run) -> float:
        return rate(run, args.seconds, args.repeats)

    def wanted(name: str, game_string: str) -> bool:
        return args.only.lower() in name.lower() or args.only in game_string

    import games  # noqa: F401
    from games.spec import bench_rows
    rows = []
    # Mid-game positions (mid_game: seeded random decisions in) of every game's
    # "search" rows (GameSpec.bench).
    for row in bench_rows("search"):
        if not wanted(row.label, row.game):
            continue
        game = pyspiel.load_game(row.game)
        state = mid_game(game)
        p = state.current_player()
        with row.setting() if row.setting else nullcontext():
            a = measure(ours(state.engine, p))
            b = measure(openspiel_python(game, state))
        rows.append((row.label, a, "OpenSpiel Python ISMCTSBot", b))
    if wanted("leduc_poker", "leduc_poker"):
        rows.extend(leduc_rows(measure))
    if not rows:
        ap.error(f"--only {args.only!r} matches no row")
    command = (f"python -m experiments.bench.bench_search --seconds {args.seconds:g} "
               f"--repeats {args.repeats}")
    if args.only:
        command += f" --only {args.only}"
    lines = [machine_line(), "", f"Command: `{command}`", "",
             "| game (position) | goldspiel ISMCTS sims/s | baseline | baseline sims/s | ratio |",
             "|---|---|---|---|---|"]
    for name, a, base, b in rows:
        lines.append(f"| {name} | {a:,.0f} | {base} | {b:,.0f} | {a / b:.1f}x |")
    if not args.only:
        lines.append("\nOpenSpiel C++ ISMCTSBot on gold_thief (Python-registered): "
                     f"{cpp_on_python_game()}")
    text = "\n".join(lines)
    print(text)
    if args.write:
        replace_section("docs/benchmarks.md", "ismcts", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
