"""CPU per heuristic decision, and per probing-MCCFR iteration of the
default-preset policy-table solves that play the heuristic.

Two rows per game: the heuristic bot through pyspiel (``bot.step(state)``,
what a user calls) and on the engine alone (``HeuristicOpponents`` on the
engine: the compiled rules, ``RuleBot.engine_rule``, where the game has
them); the decisions are those of seeded heuristic self-play games.  Then,
for every table entry whose default-preset solve is a probing response to
the heuristic, CPU per iteration of that solve (built as
``experiments.policy_tables`` builds it).  There is no OpenSpiel counterpart
of a heuristic, so the rows are absolute CPU times; compare them within one
run.

    python -m experiments.bench.bench_heuristics --games 4 --iterations 200 --write
"""
from __future__ import annotations

import time

import pyspiel

import games  # noqa: F401  (registers the games)
from experiments.bench._benchutil import bench_parser, publish
from experiments.policy_tables import abstract_solver_options, mccfr_mode
from solvers.bots import make_bot
from solvers.mccfr import HeuristicOpponents, MCCFRSolver
from solvers.policy_tables import for_preset, table_game, table_specs
from src_cy.rng import SplitMix64, sample_sorted

GAMES = {"gold_thief": "gold_thief(players=2)",
         "saboteur": "saboteur(players=5)",
         "ardillas_del_bosque": "ardillas_del_bosque(players=2)",
         "gold_nugget": "gold_nugget(players=2)"}


def decision_cpu(game_string: str, n_games: int, seed: int) -> tuple[int, float, float]:
    """(decisions, µs per decision via pyspiel ``bot.step``, µs per decision
    on the engine alone) over ``n_games`` seeded heuristic self-play games."""
    game = pyspiel.load_game(game_string)
    bot = make_bot("heuristic", game)
    fixed = HeuristicOpponents(game)
    rng = SplitMix64(seed)
    n, t_step, t_engine = 0, 0.0, 0.0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_sorted(sorted(state.chance_outcomes()), rng))
                continue
            p = state.current_player()
            t0 = time.process_time()
            a = bot.step(state)
            t1 = time.process_time()
            b = fixed(p, state.engine)
            t2 = time.process_time()
            if a != b:
                raise AssertionError(f"{game_string}: the two paths disagree ({a} vs {b})")
            t_step += t1 - t0
            t_engine += t2 - t1
            n += 1
            state.apply_action(a)
    return n, 1e6 * t_step / n, 1e6 * t_engine / n


def probe_cpu(name: str, iterations: int, seed: int) -> float | None:
    """ms of CPU per iteration of ``name``'s default-preset probing solve, or
    None if that solve is not a probing response."""
    entry = for_preset(table_specs()[name], "default")
    if mccfr_mode(entry) != "response" or entry.extra.get("response_scheme") != "probe":
        return None
    game = table_game(entry, "default")
    solver = MCCFRSolver(game, seed=seed, **abstract_solver_options(entry))
    solver.run(1)                         # warm-up: rows and caches of the first deal
    t0 = time.process_time()
    solver.run(iterations)
    return 1e3 * (time.process_time() - t0) / iterations


def main(argv: list[str] | None = None) -> str:
    parser = bench_parser(__doc__, "seed of the games and solves")
    parser.add_argument("--games", type=int, default=4, help="self-play games per row")
    parser.add_argument("--iterations", type=int, default=200,
                        help="probing iterations per solve row")
    args = parser.parse_args(argv)
    rows = ["| game | decisions | µs per decision: pyspiel `bot.step` | on the engine "
            "(compiled rules where the game has them) | probing solve (default preset): "
            "ms CPU per iteration |", "|---|---|---|---|---|"]
    for name, gs in GAMES.items():
        if args.only and args.only not in name:
            continue
        n, step, engine = decision_cpu(gs, args.games, args.seed)
        probe = probe_cpu(name, args.iterations, args.seed)
        rows.append(f"| {gs} | {n:,} | {step:.1f} | {engine:.1f} | "
                    f"{'—' if probe is None else f'{probe:.1f}'} |")
    table = "\n".join(rows)
    command = ("python -m experiments.bench.bench_heuristics "
               f"--games {args.games} --iterations {args.iterations} --seed {args.seed}")
    publish(command, table, "heuristics", args.write)
    return table


if __name__ == "__main__":
    main()
