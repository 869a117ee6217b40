"""OpenSpiel's JAX DQN on a goldspiel game, then evaluated against random.

One DQN agent per seat learns by self-play through OpenSpiel's
``rl_environment.Environment`` (information-state tensors, the default);
then each trained agent plays greedily in its seat against random players
in the others, on paired deals: the same chance seed is played once with
the agent and once with a random player in that seat. Needs the optional
extra ``[rl]`` (``pip install 'goldspiel[rl]'``: jax, flax, optax, ...).

    ./run.sh py -m experiments.rl_dqn --game gold_thief --preset mini \\
        --episodes 3000 --deals 300 --seed 0
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pyspiel

RL_EXTRA = ("OpenSpiel's JAX algorithms need jax, flax and optax: install goldspiel's "
            "optional extra [rl] (pip install 'goldspiel[rl]')")


def import_dqn():
    """``open_spiel.python.jax.dqn``, or an ImportError naming the ``[rl]`` extra."""
    try:
        from open_spiel.python.jax import dqn
    except ImportError as exc:
        raise ImportError(f"{RL_EXTRA}; import failed: {exc}") from exc
    return dqn


@dataclass
class DQNRun:
    """A finished training run: the agents (one per seat), every loss a
    learning step reported (per seat, in order), the Q-values of the
    agents on the information states of the last episodes, and the CPU
    seconds of the run."""

    agents: list
    losses: list[list[float]]
    q_values: list[np.ndarray] = field(default_factory=list)
    cpu: float = 0.0


def make_env(game: pyspiel.Game, seed: int):
    """An ``rl_environment.Environment`` on ``game`` with seeded chance."""
    from open_spiel.python import rl_environment
    return rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))


def _as_arrays(ts):
    """``ts`` with its information states as float32 arrays (the environment
    gives lists, which ``jnp.asarray`` converts element by element: most of
    the CPU time of a run on a long tensor)."""
    info = ts.observations["info_state"]
    for p, x in enumerate(info):
        info[p] = np.asarray(x, np.float32)
    return ts


def train_dqn(game: pyspiel.Game, episodes: int, seed: int = 0,
              hidden: Sequence[int] = (32,), batch_size: int = 32,
              min_buffer_size_to_learn: int = 64, replay_buffer_capacity: int = 10_000,
              q_probe_episodes: int = 10, **dqn_options: Any) -> DQNRun:
    """Self-play DQN (OpenSpiel's defaults except the sizes given here) for
    ``episodes`` episodes; seeded (chance from ``seed``, seat p's agent from
    ``seed + p``). The Q-values are probed on every information state the
    agents saw in the last ``q_probe_episodes`` episodes."""
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    dqn = import_dqn()
    import jax.numpy as jnp
    start = time.process_time()
    env = make_env(game, seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(p, size, actions, hidden_layers_sizes=list(hidden), batch_size=batch_size,
                      min_buffer_size_to_learn=min_buffer_size_to_learn,
                      replay_buffer_capacity=replay_buffer_capacity, seed=seed + p,
                      allow_checkpointing=False, **dqn_options)
              for p in range(game.num_players())]
    losses: list[list[float]] = [[] for _ in agents]
    probe: list[list[np.ndarray]] = [[] for _ in agents]

    def step(agent, ts):
        out = agent.step(ts)
        if agent.loss is not None and agent._iteration % agent._learn_every == 0:  # noqa: SLF001
            losses[agent.player_id].append(float(agent.loss))
        return out

    for episode in range(episodes):
        ts = _as_arrays(env.reset())
        while not ts.last():
            p = ts.observations["current_player"]
            if episode >= episodes - q_probe_episodes:
                probe[p].append(ts.observations["info_state"][p])
            ts = _as_arrays(env.step([step(agents[p], ts).action]))
        for agent in agents:
            step(agent, ts)
    q_values = [np.asarray(agent._q_network(jnp.asarray(np.stack(states))))  # noqa: SLF001
                for agent, states in zip(agents, probe) if states]
    return DQNRun(agents, losses, q_values, time.process_time() - start)


def train_preset(name: str, preset: str, episodes: int, seed: int = 0,
                 **options: Any) -> tuple[list[list[float]], list[np.ndarray]]:
    """:func:`train_dqn` on a game's preset, returning only the losses and
    probed Q-values (picklable), so a test can train in a fresh interpreter
    (``multiprocessing`` "spawn"): JAX starts threads, and a process that
    forks after that (our local tournament and evaluation pools) may
    deadlock."""
    import games  # noqa: F401  (registers the games in a fresh interpreter)
    from games.spec import find_spec
    run = train_dqn(find_spec(name).load(preset), episodes, seed=seed, **options)
    return run.losses, run.q_values


def _play(game: pyspiel.Game, deal: int, seat: int, agent, rng: np.random.Generator) -> float:
    """One game on chance seed ``deal``: ``agent`` (greedy; None: random) in
    ``seat``, random players elsewhere; the seat's return."""
    env = make_env(game, deal)
    ts = _as_arrays(env.reset())
    while not ts.last():
        p = ts.observations["current_player"]
        if p == seat and agent is not None:
            action = agent.step(ts, is_evaluation=True).action
        else:
            legal = ts.observations["legal_actions"][p]
            action = legal[rng.integers(len(legal))]
        ts = _as_arrays(env.step([int(action)]))
    return float(ts.rewards[seat])


def evaluate_vs_random(game: pyspiel.Game, agents: list, deals: int,
                       seed: int = 1_000_000) -> dict[str, Any]:
    """Paired evaluation: for each deal and seat, the seat's return with the
    trained agent minus with a random player, on the same chance seed and
    the same random stream for the other seats. Mean, 95% half-width, and
    the two means."""
    if deals < 2:
        raise ValueError(f"deals must be >= 2, got {deals}")
    with_agent, without = [], []
    for d in range(deals):
        for seat, agent in enumerate(agents):
            key = [seed, d, seat]
            with_agent.append(_play(game, seed + d, seat, agent, np.random.default_rng(key)))
            without.append(_play(game, seed + d, seat, None, np.random.default_rng(key)))
    diff = np.asarray(with_agent) - np.asarray(without)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    return {"games": len(diff), "dqn": float(np.mean(with_agent)),
            "random": float(np.mean(without)), "diff": float(diff.mean()), "half_width": float(half)}


def main(argv: list[str] | None = None) -> None:
    """Command line: train, evaluate, print one summary."""
    import games  # noqa: F401  (registers the games)
    from games.spec import find_spec
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="gold_thief")
    ap.add_argument("--preset", default="mini")
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    spec = find_spec(args.game)
    if spec is None:
        raise SystemExit(f"unknown game {args.game!r}")
    game = spec.load(args.preset)
    run = train_dqn(game, args.episodes, seed=args.seed)
    finite = all(np.isfinite(x).all() for x in run.losses) and all(
        np.isfinite(q).all() for q in run.q_values)
    print(f"{game}: {args.episodes} episodes, {sum(map(len, run.losses))} learning steps, "
          f"losses and Q-values finite: {finite}, training CPU {run.cpu:.1f} s")
    t = time.process_time()
    ev = evaluate_vs_random(game, run.agents, args.deals)
    print(f"vs random, {ev['games']} paired games ({args.deals} deals x seats): DQN seat "
          f"return {ev['dqn']:+.3f}, random in the same seat {ev['random']:+.3f}, "
          f"difference {ev['diff']:+.3f} +- {ev['half_width']:.3f} (95%); "
          f"evaluation CPU {time.process_time() - t:.1f} s")


if __name__ == "__main__":
    main()
