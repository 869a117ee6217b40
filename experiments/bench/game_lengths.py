"""Longest of N random games per game, preset and player count, against
``max_game_length``.

Players move uniformly at random among their legal actions, chance by its
odds (the engine's C-level ``random_playout``, seeded per game); length is
the number of actions of the whole history, chance included, as OpenSpiel's
random simulation counts it. Prints a Markdown table (the one in
``docs/benchmarks.md`` "Game lengths").

    ./run.sh py -m experiments.bench.game_lengths --games 10000 --seed 0
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import pyspiel
from tqdm import tqdm

import games  # noqa: F401  (registers the games)
from games.spec import find_spec, game_engine

GAMES = ("gold_thief", "gold_nugget", "ardillas_del_bosque", "saboteur")
PRESETS = ("default", "mini")


@dataclass(frozen=True)
class LengthRow:
    """Random-game lengths of one configuration."""

    game: str
    preset: str
    players: int
    games: int
    longest: int
    mean: float
    max_game_length: int

    @property
    def ratio(self) -> float:
        """``max_game_length`` over the longest random game."""
        return self.max_game_length / self.longest


def configurations(names=GAMES, presets=PRESETS) -> list[tuple[str, str, int, pyspiel.Game]]:
    """Every (game, preset, players, loaded game) that loads: each preset at
    every player count of the game's type (a preset that cannot deal to a
    player count is left out)."""
    out = []
    for name in names:
        spec = find_spec(name)
        if spec is None:
            raise ValueError(f"unknown game {name!r}")
        gt = pyspiel.load_game(name).get_type()
        for preset in presets:
            for n in range(gt.min_num_players, gt.max_num_players + 1):
                try:
                    game = pyspiel.load_game(name, {**spec.presets[preset], "players": n})
                except (pyspiel.SpielError, ValueError):
                    continue
                out.append((name, preset, n, game))
    return out


def lengths(game: pyspiel.Game, count: int, seed: int, bar=None) -> np.ndarray:
    """History lengths of ``count`` random games (game k uses seed
    ``seed * 1_000_003 + k``)."""
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    proto = game_engine(game)
    if proto is None:
        raise ValueError(f"{game} has no engine")
    out = np.empty(count, np.int64)
    for k in range(count):
        e = proto.py_clone()
        e.random_playout(seed * 1_000_003 + k)
        out[k] = len(e.py_history())
        if bar is not None:
            bar.update()
    return out


def measure(count: int, seed: int = 0, names=GAMES, presets=PRESETS,
            progress: bool = True) -> list[LengthRow]:
    """One ``LengthRow`` per configuration, ``count`` games each."""
    configs = configurations(names, presets)
    rows = []
    with tqdm(total=count * len(configs), disable=not progress, desc="random games") as bar:
        for name, preset, n, game in configs:
            ls = lengths(game, count, seed, bar)
            rows.append(LengthRow(name, preset, n, count, int(ls.max()), float(ls.mean()),
                                  game.max_game_length()))
    return rows


def table(rows: list[LengthRow]) -> str:
    """The Markdown table of ``rows``."""
    lines = ["| game | preset | players | games | mean | longest | max_game_length | ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.game} | {r.preset} | {r.players} | {r.games:,} | {r.mean:.1f} | "
                     f"{r.longest:,} | {r.max_game_length:,} | {r.ratio:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Command line: measure and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="random games per configuration")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=list(GAMES), choices=GAMES)
    args = ap.parse_args(argv)
    t = time.process_time()
    rows = measure(args.games, args.seed, args.only)
    print(table(rows))
    print(f"\n{args.games:,} games per row, seed {args.seed}, "
          f"{time.process_time() - t:.1f} CPU s")


if __name__ == "__main__":
    main()
