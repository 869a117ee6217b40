"""How often a seat never decides in a random game, per game preset.

OpenSpiel's ``tabular_qlearner`` (and any learner that expects every seat
to act) asserts when a seat reaches the end of an episode without one
decision.  ``python -m experiments.research.seats_never_act --games 2000`` prints,
for every game's mini and default preset, the number of uniformly random
games (fixed seeds) in which each seat made no decision.
"""
from __future__ import annotations

import argparse

import games  # noqa: F401
from games.spec import specs
from games.testing import random_action
from src_cy.rng import SplitMix64

GAMES = ("ardillas_del_bosque", "gold_nugget", "gold_thief", "saboteur")


def never_acting(game, num_games: int, seed: int = 0) -> list[int]:
    """Per seat, the number of ``num_games`` random games it never decided in."""
    rng = SplitMix64(seed)
    counts = [0] * game.num_players()
    for _ in range(num_games):
        state = game.new_initial_state()
        acted = set()
        while not state.is_terminal():
            if not state.is_chance_node():
                acted.add(state.current_player())
            state.apply_action(random_action(state, rng))
        for p in range(game.num_players()):
            counts[p] += p not in acted
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--presets", default="mini,default")
    args = ap.parse_args()
    for spec in specs():
        if spec.name not in GAMES:
            continue
        for preset in args.presets.split(","):
            counts = never_acting(spec.load(preset), args.games)
            print(f"{spec.name} {preset}: games where seat p never decided "
                  f"(of {args.games}): {counts}", flush=True)


if __name__ == "__main__":
    main()
