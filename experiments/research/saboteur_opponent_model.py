"""Measure the Saboteur opponent model of ``games.saboteur.beliefs``: how often the
heuristic bot plays each action category, per role, in self-play.

Example::

    python -m experiments.research.saboteur_opponent_model --players 5 --rounds 400

Prints ``SABOTEUR_MODEL``-style tables (frequencies per turn, by role).
"""
from __future__ import annotations

import argparse
import sys

import pyspiel

import games  # noqa: F401  (registers the games)
from games.saboteur.beliefs import SABOTEUR_CATEGORIES, saboteur_category, saboteur_record
from solvers.bots import make_bot
from src_cy.rng import SplitMix64, sample_sorted


def play_round(game: pyspiel.Game, bots: list, rng: SplitMix64) -> pyspiel.State:
    """Play one game with ``bots`` (chance from ``rng``); returns the final state."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
        else:
            s.apply_action(bots[s.current_player()].step(s))
    return s


def measure(players: int, rounds: int, seed: int) -> dict[int, dict[str, float]]:
    """Per-role category frequencies over ``rounds`` heuristic self-play rounds."""
    game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
    rng = SplitMix64(seed)
    counts = {r: {c: 0 for c in SABOTEUR_CATEGORIES} for r in (0, 1)}
    for i in range(rounds):
        bots = [make_bot("heuristic", game, seed=seed * 1000 + 10 * i + p) for p in range(players)]
        s = play_round(game, bots, rng)
        rec = saboteur_record(s.engine, 0)
        roles = rec.revealed
        for actor, kind, target in rec.events:
            cat = saboteur_category(roles[actor], kind, roles[target] if target >= 0 else None,
                                    actor, target)
            counts[roles[actor]][cat] += 1
    out = {}
    for r in (0, 1):
        total = sum(counts[r].values()) or 1
        out[r] = {c: counts[r][c] / total for c in SABOTEUR_CATEGORIES}
        out[r]["_turns"] = total
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    res = measure(args.players, args.rounds, args.seed)
    for r, name in ((0, "DIGGER"), (1, "SABOTEUR")):
        turns = res[r].pop("_turns")
        print(f"{name} ({turns} turns): " + ", ".join(
            f'"{c}": {res[r][c]:.3f}' for c in SABOTEUR_CATEGORIES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
