"""A short seeded Gold Thief game between random bots, printed move by move.

``python -m experiments.demo --players 3 --seed 7``

Moves are named and the end explained by the game's terminal renderer
(``GameSpec.renderer``, through :mod:`experiments.play_render`), as a
spectator sees them: no seat is "you".
"""
from __future__ import annotations

import argparse

import pyspiel

import games  # noqa: F401  (registers the games)
from experiments.play_render import end_summary, move_labels
from src_cy.rng import SplitMix64, sample_sorted

# The seat of a spectator: nobody's, so every player is named P<n>.
SPECTATOR = -1


def play(players: int, seed: int, max_lines: int) -> pyspiel.State:
    """Play one seeded game with uniform random bots and print it."""
    game = pyspiel.load_game("gold_thief", {"players": players, "max_turns": 30})
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    lines = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_sorted(state.chance_outcomes(), rng))
            continue
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        if lines < max_lines:
            print(f"P{player}: {move_labels(state, player, [action])[0]}")
            lines += 1
        state.apply_action(action)
    print()
    print(state)
    for line in end_summary(state, SPECTATOR):
        print(line)
    print("Returns:", state.returns())
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-lines", type=int, default=60)
    args = parser.parse_args(argv)
    play(args.players, args.seed, args.max_lines)


if __name__ == "__main__":
    main()
