"""A bot's fingerprint: a hash of its moves and root statistics at fixed positions.

Example::

    python -m experiments.bot_fingerprint --bot best
    python -m experiments.bot_fingerprint --bot ismcts:max_simulations=200 --games gold_thief

Why: a strength table measured on one commit holds for another exactly when
the bot plays the same there. A speed change that claims "identical
searches" is checked by running this on both commits (two checkouts, or a
build of each) and comparing the printed hashes; a change of play shows up
as a different hash, and the per-game lines say which game moved.

Positions: decision nodes spread along one seeded uniform-random game per
game string (``--seed``), ``--positions`` of them; at each a fresh bot
(seed ``--bot-seed``) makes one move. The record is the move and, where the
bot keeps them (``last_stats``: ISMCTS-based bots), the root's visit counts
and values rounded to 9 digits. Deterministic: bots with a fixed simulation
count; a move that hits a CPU budget (``move_budget``) depends on the
machine, so use positions and budgets well inside it.
"""
from __future__ import annotations

import argparse
import hashlib
from typing import Any, Sequence

import pyspiel

import games  # noqa: F401  (registers the games)
from games import testing
from solvers.botspec import parse_bot

DEFAULT_GAMES = ("gold_nugget(players=2)", "gold_nugget(players=4)", "gold_thief(players=2)",
                 "ardillas_del_bosque(players=2)", "saboteur(players=4)")


def positions(game: pyspiel.Game, seed: int, count: int) -> list[pyspiel.State]:
    """``count`` decision nodes spread along one seeded uniform-random game."""
    states = [s for s in testing.random_states(game, 1, seed=seed)
              if not s.is_terminal() and not s.is_chance_node()]
    if not states:
        raise ValueError(f"{game} has no decision node in the game of seed {seed}")
    step = max(1, len(states) // count)
    return states[::step][:count]


def records(bot_text: str, game_string: str, seed: int = 21, count: int = 5,
            bot_seed: int = 3) -> list[tuple[Any, ...]]:
    """Per position: (history length, move, visits, values) of a fresh bot."""
    game = pyspiel.load_game(game_string)
    spec = parse_bot(bot_text)
    out: list[tuple[Any, ...]] = []
    for state in positions(game, seed, count):
        bot = spec.build(game, bot_seed)
        move = bot.step(state)
        stats = getattr(bot, "last_stats", None)
        root = None if stats is None else (list(stats.visits),
                                           [round(float(v), 9) for v in stats.values])
        out.append((len(state.history()), int(move), root))
    return out


def digest(obj: Any) -> str:
    """SHA-256 (first 16 hex digits) of ``repr(obj)``."""
    return hashlib.sha256(repr(obj).encode()).hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> str:
    """Print one hash per game string and the overall hash; return the latter."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--bot", default="best", help="bot spec (solvers.botspec), default best")
    ap.add_argument("--games", default=";".join(DEFAULT_GAMES),
                    help="game strings separated by ';'")
    ap.add_argument("--seed", type=int, default=21, help="seed of the random game per string")
    ap.add_argument("--positions", type=int, default=5, help="positions per game string")
    ap.add_argument("--bot-seed", type=int, default=3)
    args = ap.parse_args(argv)
    if args.positions < 1:
        ap.error(f"--positions must be >= 1, got {args.positions}")
    every = []
    for game_string in [g for g in args.games.split(";") if g]:
        rec = records(args.bot, game_string, args.seed, args.positions, args.bot_seed)
        every.append((game_string, rec))
        print(f"{digest(rec)}  {game_string}")
    total = digest(every)
    print(f"{total}  all ({args.bot}, seed {args.seed}, {args.positions} positions each)")
    return total


if __name__ == "__main__":
    main()
