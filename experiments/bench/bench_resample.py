"""Resampling benchmark: time per resampled world, per game and player count.

Three ways to get a world of the player to move, on the same positions
(non-terminal decision states spread along seeded random games):

* engine: the engine's C ``resample`` (``engine.py_resample``: a clone plus
  the C resample, the path our ISMCTS takes);
* API: OpenSpiel's ``state.resample_from_infostate(p, sampler)`` on our
  pyspiel state (the world's history replayed through ``apply_action``);
* replay: the position's own history replayed through pyspiel
  ``apply_action`` from a new initial state — what a world of that length
  costs through OpenSpiel's own API, the baseline of the ratios.

Prints a Markdown table; ``--write`` replaces the resampling section of
``docs/benchmarks.md``.

``--only gold_thief`` keeps the games whose label or game string contains
the text; ``--gold-thief-k K`` sets Gold Thief's stage-2 proposals K
(``src_cy.gold_thief.engine.set_model_proposals``) to compare its cost.

``python -m experiments.bench.bench_resample [--seconds 0.5] [--positions 6] [--seed 0]
[--only TEXT] [--gold-thief-k K] [--write]``
"""
from __future__ import annotations

import time
from typing import Callable

import pyspiel
from tqdm import tqdm

import games  # noqa: F401
from experiments.bench._benchutil import bench_parser, publish
from games.testing import random_states
from src_cy.rng import SplitMix64

# label, game string
CONFIGS = [
    ("Gold Thief 2p", "gold_thief(players=2)"),
    ("Gold Thief 3p", "gold_thief(players=3)"),
    ("Gold Thief 4p", "gold_thief(players=4)"),
    ("Gold Thief 5p", "gold_thief(players=5)"),
    ("Saboteur 3p, 1 round", "saboteur(players=3,rounds=1)"),
    ("Saboteur 4p, 1 round", "saboteur(players=4,rounds=1)"),
    ("Saboteur 5p, 1 round", "saboteur(players=5,rounds=1)"),
    ("Saboteur 6p, 1 round", "saboteur(players=6,rounds=1)"),
    ("Saboteur 7p, 1 round", "saboteur(players=7,rounds=1)"),
    ("Saboteur 8p, 1 round", "saboteur(players=8,rounds=1)"),
    ("Saboteur 9p, 1 round", "saboteur(players=9,rounds=1)"),
    ("Saboteur 10p, 1 round", "saboteur(players=10,rounds=1)"),
    ("Ardillas del Bosque 2p", "ardillas_del_bosque(players=2)"),
    ("Ardillas del Bosque 3p", "ardillas_del_bosque(players=3)"),
    ("Ardillas del Bosque 4p", "ardillas_del_bosque(players=4)"),
    ("Ardillas del Bosque 5p", "ardillas_del_bosque(players=5)"),
    ("Gold Nugget mini (exact stage)",
     "gold_nugget(abilities=False,animals=raccoon/bear,black_feathers=3,days=1,deal_animals=1,"
     "hand_size=1,hello_discard=False,leaf_counts=peek:2,leaf_default=0,normal_stones=1,"
     "players=2,start_stones=1,trap_stones=1,wind_default=0)"),
    ("Gold Nugget 2p", "gold_nugget(players=2)"),
    ("Gold Nugget 3p", "gold_nugget(players=3)"),
    ("Gold Nugget 4p", "gold_nugget(players=4)"),
    ("Gold Nugget 5p", "gold_nugget(players=5)"),
]


def positions(game: pyspiel.Game, count: int, seed: int) -> list[pyspiel.State]:
    """`count` decision states spread evenly along two seeded random games."""
    states = [s for s in random_states(game, 2, seed=seed)
              if not s.is_terminal() and not s.is_chance_node()]
    if not states:
        raise ValueError(f"no decision state in random games of {game}")
    step = max(1, len(states) // count)
    return states[::step][:count]


def per_call(fn: Callable[[pyspiel.State, int], object], states: list[pyspiel.State],
             seconds: float) -> float:
    """Seconds per call of fn(state, i), cycling over `states` for at least `seconds`."""
    calls, i = 0, 0
    t0 = time.perf_counter()
    while True:
        for state in states:
            fn(state, i)
            i += 1
        calls += len(states)
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return dt / calls


def replay(state: pyspiel.State, _: int) -> pyspiel.State:
    """The state's history through pyspiel ``apply_action`` from the start."""
    world = state.get_game().new_initial_state()
    for action in state.history():
        world.apply_action(action)
    return world


def bench(label: str, game_string: str, count: int, seconds: float, seed: int) -> dict:
    game = pyspiel.load_game(game_string)
    states = positions(game, count, seed)
    rng = SplitMix64(seed)

    def engine(state: pyspiel.State, i: int) -> object:
        return state.engine.py_resample(state.current_player(), i)

    def api(state: pyspiel.State, _: int) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), rng.random)

    return {
        "label": label,
        "positions": len(states),
        "length": sum(len(s.history()) for s in states) / len(states),
        "engine": per_call(engine, states, seconds),
        "api": per_call(api, states, seconds),
        "replay": per_call(replay, states, seconds),
    }


def ratio(x: float) -> str:
    return f"{x:.1f}×" if x >= 1 else f"{x:.2f}×"


def table(rows: list[dict]) -> str:
    out = ["| game | positions (mean history length) | engine C `resample` ms/world "
           "| `resample_from_infostate` ms/world | pyspiel replay ms/world "
           "| replay ÷ engine | API ÷ replay |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} | {r['positions']} ({r['length']:.0f}) "
                   f"| {r['engine'] * 1e3:.3f} | {r['api'] * 1e3:.3f} | {r['replay'] * 1e3:.3f} "
                   f"| {ratio(r['replay'] / r['engine'])} | {ratio(r['api'] / r['replay'])} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__, "seed of the random games")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    parser.add_argument("--positions", type=int, default=6, help="positions per game")
    parser.add_argument("--gold-thief-k", type=int, default=None,
                        help="Gold Thief stage-2 proposals K (default: the engine's)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.positions < 1:
        parser.error("--seconds must be > 0 and --positions >= 1")
    configs = [(label, gs) for label, gs in CONFIGS
               if args.only.lower() in label.lower() or args.only in gs]
    if not configs:
        parser.error(f"--only {args.only!r} matches no game")
    command = (f"python -m experiments.bench.bench_resample --seconds {args.seconds} "
               f"--positions {args.positions} --seed {args.seed}")
    if args.only:
        command += f" --only {args.only}"
    if args.gold_thief_k is not None:
        from src_cy.gold_thief.engine import set_model_proposals
        try:
            set_model_proposals(args.gold_thief_k)
        except ValueError as err:
            parser.error(str(err))
        command += f" --gold-thief-k {args.gold_thief_k}"
    rows = [bench(label, gs, args.positions, args.seconds, args.seed)
            for label, gs in tqdm(configs, desc="games", unit="game")]
    publish(command, table(rows), "resample", args.write)


if __name__ == "__main__":
    main()
