"""Saboteur encoding sizes and OpenSpiel ``rl_environment`` episode cost.

For the default game at 3..10 players: ``num_distinct_actions`` and the
observation / information-state tensor sizes.  Then the CPU time of
``rl_environment`` episodes (information-state tensors for every player at
every step, OpenSpiel's default) on default Saboteur (5 players, 3 rounds),
with uniformly random agents and with OpenSpiel's ``tabular_qlearner``
(which keys its table by the stringified tensor), next to OpenSpiel's C++
``leduc_poker`` measured in the same run.  Episodes
and seeds are fixed before measuring.  Prints Markdown; ``--write`` replaces
the ``saboteur-encoding`` section of ``docs/benchmarks.md``.

``python -m experiments.bench.bench_saboteur_encoding [--episodes 3] [--write]``
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

import games  # noqa: F401
from experiments.bench._benchutil import machine_line, replace_section


def sizes() -> list[tuple[int, int, int, int]]:
    """(players, distinct actions, observation floats, information-state floats)."""
    out = []
    for n in range(3, 11):
        game = pyspiel.load_game("saboteur", {"players": n})
        out.append((n, game.num_distinct_actions(), game.observation_tensor_size(),
                    game.information_state_tensor_size()))
    return out


def episode_cpu(game_string: str, episodes: int, seed: int = 0,
                tabular: bool = False) -> tuple[float, float]:
    """(CPU seconds per episode, mean steps) in ``rl_environment``: uniformly
    random agents, or ``tabular_qlearner`` agents learning (seeded)."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner
    game = pyspiel.load_game(game_string)
    env = rl_environment.Environment(game, seed=seed)
    rng = np.random.RandomState(seed)
    np.random.seed(seed)                 # tabular_qlearner draws from numpy's global stream
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=game.num_distinct_actions())
              for p in range(game.num_players())] if tabular else None
    steps = 0
    t0 = time.process_time()
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            if agents:
                action = agents[p].step(step).action
            else:
                action = rng.choice(step.observations["legal_actions"][p])
            step = env.step([action])
            steps += 1
        for agent in agents or ():
            agent.step(step)
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
    sab_q, sab_q_steps = episode_cpu("saboteur", args.episodes, tabular=True)
    ref_q, ref_q_steps = episode_cpu("leduc_poker", 100 * args.episodes, tabular=True)
    text = (f"{machine_line()}\n\nCommand: `python -m experiments.bench.bench_saboteur_encoding "
            f"--episodes {args.episodes}`\n\n" + "\n".join(lines) + "\n\n"
            f"`rl_environment` random episode, CPU time: default Saboteur "
            f"{sab:.3f} s ({sab_steps:.0f} steps, {args.episodes} episodes); OpenSpiel C++ "
            f"`leduc_poker` {ref * 1e3:.3f} ms ({ref_steps:.1f} steps, "
            f"{100 * args.episodes} episodes); per step Saboteur / leduc = "
            f"{(sab / sab_steps) / (ref / ref_steps):.1f}×.\n\n"
            f"With `tabular_qlearner` agents: default Saboteur {sab_q:.3f} s "
            f"({sab_q_steps:.0f} steps); `leduc_poker` {ref_q * 1e3:.3f} ms "
            f"({ref_q_steps:.1f} steps); per step Saboteur / leduc = "
            f"{(sab_q / sab_q_steps) / (ref_q / ref_q_steps):.1f}×.\n")
    print(text)
    if args.write:
        replace_section("docs/benchmarks.md", "saboteur-encoding", text)


if __name__ == "__main__":
    main()
