"""Saboteur encoding sizes and OpenSpiel ``rl_environment`` episode cost.

For the default game at 3..10 players: ``num_distinct_actions`` and the
observation / information-state tensor sizes.  Then the CPU time of random
``rl_environment`` episodes (information-state tensors for every player at
every step, OpenSpiel's default) on default Saboteur (5 players, 3 rounds)
next to OpenSpiel's C++ ``leduc_poker`` measured in the same run.  Episodes
and seeds are fixed before measuring.  Prints Markdown; ``--write`` replaces
the ``saboteur-encoding`` section of ``docs/benchmarks.md``.

``python -m experiments.bench_saboteur_encoding [--episodes 3] [--write]``
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

import games  # noqa: F401
from experiments._benchutil import machine_line, replace_section


def sizes() -> list[tuple[int, int, int, int]]:
    """(players, distinct actions, observation floats, information-state floats)."""
    out = []
    for n in range(3, 11):
        game = pyspiel.load_game("saboteur", {"players": n})
        out.append((n, game.num_distinct_actions(), game.observation_tensor_size(),
                    game.information_state_tensor_size()))
    return out


def episode_cpu(game_string: str, episodes: int, seed: int = 0) -> tuple[float, float]:
    """(CPU seconds per episode, mean steps) of uniformly random agents in
    ``rl_environment`` (seeded environment and agents)."""
    from open_spiel.python import rl_environment
    env = rl_environment.Environment(pyspiel.load_game(game_string), seed=seed)
    rng = np.random.RandomState(seed)
    steps = 0
    t0 = time.process_time()
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][p])])
            steps += 1
    return (time.process_time() - t0) / episodes, steps / episodes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=3, help="Saboteur episodes timed")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args(argv)
    lines = ["| players | distinct actions | observation floats | information-state floats |",
             "|---|---|---|---|"]
    lines += [f"| {n} | {a:,} | {o:,} | {i:,} |" for n, a, o, i in sizes()]
    sab, sab_steps = episode_cpu("saboteur", args.episodes)
    ref, ref_steps = episode_cpu("leduc_poker", 100 * args.episodes)
    text = (f"{machine_line()}\n\nCommand: `python -m experiments.bench_saboteur_encoding "
            f"--episodes {args.episodes}`\n\n" + "\n".join(lines) + "\n\n"
            f"`rl_environment` random episode, CPU time: default Saboteur "
            f"{sab:.3f} s ({sab_steps:.0f} steps, {args.episodes} episodes); OpenSpiel C++ "
            f"`leduc_poker` {ref * 1e3:.3f} ms ({ref_steps:.1f} steps, "
            f"{100 * args.episodes} episodes); per step Saboteur / leduc = "
            f"{(sab / sab_steps) / (ref / ref_steps):.1f}×.\n")
    print(text)
    if args.write:
        replace_section("docs/benchmarks.md", "saboteur-encoding", text)


if __name__ == "__main__":
    main()
