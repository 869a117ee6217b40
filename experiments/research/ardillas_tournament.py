"""Ardillas del Bosque tournament: best of 5 games, one with each animal of a
side as King of the Woods, the starting player rotating (rulebook, "End of the
game (optional)").  The winner of each game takes the King token; most tokens
wins the series; a tie goes to the tied player who did best in the fifth game.

``python -m experiments.research.ardillas_tournament --players 3 --side day
--bots heuristic,random,random --series 20 --seed 0``
"""
from __future__ import annotations

import argparse
import math
from typing import Sequence

import pyspiel
from tqdm import tqdm

import games  # noqa: F401
from solvers.bots import make_bot
from src_cy.rng import SplitMix64, sample_sorted

DAY = ("bear", "lynx", "golden_eagle", "ant", "lizard")
NIGHT = ("wild_boar", "fox", "owl", "dung_beetle", "snake")


def game_rank_key(groups: tuple) -> tuple:
    """Sort key of one player's end of game: nut groups (largest first, after
    poos), then who played last: the engine's own tie-break order."""
    counts, _, last_turn = groups
    return (tuple(counts), last_turn)


def play_one(players: int, king: str, side: str, bot_names: Sequence[str], start: int,
             seed: int, options: dict) -> tuple[list[float], list[tuple]]:
    """One game with `king`; seat s is played by bot (s + start) % players.

    Returns returns and end-of-game groups, both indexed by *bot*.
    """
    game = pyspiel.load_game("ardillas_del_bosque",
                             {"players": players, "side": side, "king": king})
    rng = SplitMix64(seed)
    bots = [make_bot(bot_names[(s + start) % players], game, seed=rng.randint(2**31),
                     **options.get(bot_names[(s + start) % players], {}))
            for s in range(players)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_sorted(state.chance_outcomes(), rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    by_bot_returns = [0.0] * players
    by_bot_groups: list[tuple] = [()] * players
    groups = state.engine.final_groups()
    for s, r in enumerate(state.returns()):
        by_bot_returns[(s + start) % players] = r
        by_bot_groups[(s + start) % players] = groups[s]
    return by_bot_returns, by_bot_groups


def series_winner(tokens: Sequence[int], fifth_returns: Sequence[float],
                  fifth_groups: Sequence[tuple]) -> int:
    """Most King tokens; ties to the tied player best in the fifth game."""
    best = max(tokens)
    tied = [b for b, t in enumerate(tokens) if t == best]
    return max(tied, key=lambda b: (fifth_returns[b], game_rank_key(fifth_groups[b])))


def play_series(players: int, side: str, bot_names: Sequence[str], seed: int,
                options: dict | None = None) -> tuple[int, list[int]]:
    """One best-of-5 series; returns (winning bot index, King tokens per bot)."""
    animals = DAY if side == "day" else NIGHT
    tokens = [0] * players
    returns: list[float] = []
    groups: list[tuple] = []
    for g, king in enumerate(animals):
        returns, groups = play_one(players, king, side, bot_names, g % players,
                                   seed * 1_000_003 + g, options or {})
        tokens[max(range(players), key=lambda b: returns[b])] += 1
    return series_winner(tokens, returns, groups), tokens


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--side", choices=("day", "night"), default="day")
    parser.add_argument("--bots", default="heuristic,random,random",
                        help="one bot name per player (see solvers.bots.bot_names())")
    parser.add_argument("--series", type=int, default=10)
    parser.add_argument("--sims", type=int, default=300, help="ISMCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = [b for b in args.bots.split(",") if b]
    if len(names) != args.players:
        parser.error(f"--bots needs {args.players} names, got {len(names)}")
    if args.series < 1:
        parser.error(f"--series must be positive, got {args.series}")
    options = {"ismcts": {"max_simulations": args.sims}}
    wins = [0] * args.players
    for k in tqdm(range(args.series), desc="series", unit="series"):
        winner, _ = play_series(args.players, args.side, names, args.seed + k, options)
        wins[winner] += 1
    print("| # | bot | series won | rate | 95% CI |\n|---|---|---|---|---|")
    for b, name in enumerate(names):
        p = wins[b] / args.series
        half = 1.96 * math.sqrt(p * (1 - p) / args.series)
        print(f"| {b} | {name} | {wins[b]} | {p:.3f} | ±{half:.3f} |")
    return {"wins": wins, "bots": names}


if __name__ == "__main__":
    main()
