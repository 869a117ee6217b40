"""Matches between bot line-ups, seats rotated, across processes.

``run_match(game_string, lineup, games=N, seed=S)`` plays N games.  Game i
rotates the line-up by ``i mod players`` seats, so every bot sits in every
seat equally often (when N is a multiple of the player count).  Game i is
fully determined by ``(seed, i)``: chance outcomes and every bot's seed come
from a splitmix64 stream derived from both, so results do not depend on the
number of processes.

A line-up shorter than the player count is filled with its last entry
(``["ismcts", "random"]`` in a 4-player game is one ISMCTS and three random
bots).  A *win* is a top return; k seats sharing it score 1/k each.  Means
come with 95% normal-approximation confidence half-widths (1.96 s/sqrt(n)).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
import pyspiel

from solvers.pools import pool_context
from src_cy.rng import SplitMix64, derive_seed, sample_sorted


@dataclass(frozen=True)
class BotSpec:
    """A bot in a line-up: a ``make_bot`` name, its options and a label."""

    name: str
    options: tuple = ()
    label: str = ""

    @property
    def display(self) -> str:
        return self.label or self.name

    def build(self, game: pyspiel.Game, seed: int) -> pyspiel.Bot:
        from solvers.bots import make_bot
        return make_bot(self.name, game, seed=seed, **dict(self.options))


def spec(name: str, label: str = "", **options: Any) -> BotSpec:
    """Convenience constructor: ``spec("ismcts", max_simulations=500)``."""
    return BotSpec(name, tuple(sorted(options.items())), label)


@dataclass
class Stat:
    """Mean with a 95% confidence half-width."""

    mean: float
    ci95: float
    n: int

    @staticmethod
    def of(values: Sequence[float]) -> "Stat":
        a = np.asarray(values, dtype=float)
        if len(a) == 0:
            return Stat(math.nan, math.nan, 0)
        half = 1.96 * a.std(ddof=1) / math.sqrt(len(a)) if len(a) > 1 else math.inf
        return Stat(float(a.mean()), float(half), len(a))

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.ci95:.3f}"


@dataclass
class MatchResult:
    """Per-seat and per-bot returns and win rates of one match."""

    game: str
    lineup: list[str]
    games: int
    seed: int
    seat_returns: list[Stat]
    bot_returns: dict[str, Stat]
    bot_win_rates: dict[str, Stat]
    returns: np.ndarray = field(repr=False)   # [game, seat]
    seating: np.ndarray = field(repr=False)   # [game, seat] -> line-up index
    # label -> summed ``bot.stats()`` counters (e.g. a policy bot's table misses)
    bot_stats: dict = field(default_factory=dict)

    def table(self) -> str:
        """Markdown table: per bot mean return and win rate with 95% CIs."""
        rows = ["| bot | seats/game | mean return | win rate |", "|---|---|---|---|"]
        counts = {lab: self.lineup.count(lab) for lab in self.lineup}
        for lab in dict.fromkeys(self.lineup):
            wr = self.bot_win_rates[lab]
            rows.append(f"| {lab} | {counts[lab]} | {self.bot_returns[lab]} | "
                        f"{wr.mean:.3f} ± {wr.ci95:.3f} |")
        rows.append("")
        rows.append("| seat | mean return |")
        rows.append("|---|---|")
        for s, st in enumerate(self.seat_returns):
            rows.append(f"| {s} | {st} |")
        for lab, counters in self.bot_stats.items():
            text = ", ".join(f"{k} {v:,}" for k, v in counters.items())
            if "misses" in counters and counters.get("decisions"):
                text += (f" ({counters['misses'] / counters['decisions']:.1%} of decisions "
                         "not in its table)")
            rows.append(f"\n{lab}: {text}")
        return "\n".join(rows)


def full_lineup(lineup: Sequence[BotSpec], players: int) -> list[BotSpec]:
    """Pad ``lineup`` to ``players`` seats with its last entry (checked)."""
    if not lineup:
        raise ValueError("the line-up is empty")
    if len(lineup) > players:
        raise ValueError(f"{len(lineup)} bots for a {players}-player game")
    lineup = list(lineup)
    return lineup + [lineup[-1]] * (players - len(lineup))


def _labels(lineup: Sequence[BotSpec]) -> list[str]:
    """Distinct display labels; identical specs share one label."""
    labels, seen = [], {}
    for b in lineup:
        lab = b.display
        if lab in seen and seen[lab] != b:
            k = 2
            while f"{lab}#{k}" in seen and seen[f"{lab}#{k}"] != b:
                k += 1
            lab = f"{lab}#{k}"
        seen[lab] = b
        labels.append(lab)
    return labels


def game_seed(seed: int, index: int) -> int:
    """Seed of game ``index`` of a match seeded ``seed`` (``derive_seed``)."""
    return derive_seed(seed, index)


_GAMES: dict[str, pyspiel.Game] = {}


def _load(game_string: str) -> pyspiel.Game:
    if game_string not in _GAMES:
        import games  # noqa: F401  (registers goldspiel games)
        _GAMES[game_string] = pyspiel.load_game(game_string)
    return _GAMES[game_string]


def play_game(game_string: str, lineup: Sequence[BotSpec], rotation: int,
              seed: int) -> tuple[list[float], list[int]]:
    """Play one game; seat s gets ``lineup[(s + rotation) % n]``.

    Returns (returns per seat, line-up index per seat).
    """
    returns, seating, _ = play_game_stats(game_string, lineup, rotation, seed)
    return returns, seating


def play_game_stats(game_string: str, lineup: Sequence[BotSpec], rotation: int,
                    seed: int) -> tuple[list[float], list[int], list[dict]]:
    """``play_game`` plus each seat's ``bot.stats()`` (``{}`` for bots without)."""
    returns, seating, stats, _ = play_game_final(game_string, lineup, rotation, seed)
    return returns, seating, stats


def play_game_final(game_string: str, lineup: Sequence[BotSpec], rotation: int, seed: int,
                    final: Callable[[pyspiel.State], Any] | None = None
                    ) -> tuple[list[float], list[int], list[dict], Any]:
    """``play_game_stats`` plus ``final(terminal state)`` (None without ``final``):
    what a caller reads from the finished game, computed where it was played
    (a worker process returns it instead of the state)."""
    game = _load(game_string)
    n = game.num_players()
    rng = SplitMix64(seed)
    seating = [(s + rotation) % n for s in range(n)]
    bots = [lineup[seating[s]].build(game, rng.next()) for s in range(n)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_sorted(sorted(state.chance_outcomes()), rng)
        else:
            player = state.current_player()
            action = bots[player].step(state)
            for s, bot in enumerate(bots):
                if s != player:
                    bot.inform_action(state, player, action)
        state.apply_action(action)
    stats = [dict(b.stats()) if callable(getattr(b, "stats", None)) else {} for b in bots]
    return list(state.returns()), seating, stats, (None if final is None else final(state))


def _worker(args):
    game_string, lineup, index, seed = args
    n = _load(game_string).num_players()
    return index, play_game_stats(game_string, lineup, index % n, game_seed(seed, index))


def run_match(game_string: str, lineup: Sequence[BotSpec], games: int = 100,
              seed: int = 0, processes: int | None = None,
              progress: bool = True) -> MatchResult:
    """Play ``games`` games of the line-up with rotated seats; see module doc."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    game = _load(game_string)
    n = game.num_players()
    lineup = full_lineup(lineup, n)
    for b in lineup:   # fail fast on unknown bots or options
        b.build(game, 0)
    labels = _labels(lineup)
    if processes is None:
        processes = os.cpu_count() or 1
    if processes < 1:
        raise ValueError(f"processes must be >= 1, got {processes}")
    jobs = [(game_string, lineup, i, seed) for i in range(games)]
    returns = np.zeros((games, n))
    seating = np.zeros((games, n), dtype=int)
    bot_stats: dict[str, dict] = {}
    from tqdm import tqdm
    bar = tqdm(total=games, desc=f"{game_string}", disable=not progress, leave=False)
    if processes == 1:
        results = map(_worker, jobs)
        pool = None
    else:
        pool = pool_context().Pool(processes)
        results = pool.imap_unordered(_worker, jobs, chunksize=max(1, games // (processes * 8)))
    try:
        for index, (ret, seats, stats) in results:
            returns[index] = ret
            seating[index] = seats
            for seat, counters in enumerate(stats):
                acc = bot_stats.setdefault(labels[seats[seat]], {}) if counters else None
                for k, v in counters.items():
                    acc[k] = acc.get(k, 0) + v
            bar.update()
    finally:
        bar.close()
        if pool is not None:
            pool.close()
            pool.join()
    result = _summarize(game_string, labels, seed, returns, seating)
    result.bot_stats = {lab: bot_stats[lab] for lab in dict.fromkeys(labels) if lab in bot_stats}
    return result


def _summarize(game_string, labels, seed, returns, seating) -> MatchResult:
    games, n = returns.shape
    top = returns.max(axis=1, keepdims=True)
    winners = np.isclose(returns, top)
    credit = winners / winners.sum(axis=1, keepdims=True)
    bot_returns, bot_wins = {}, {}
    for lab in dict.fromkeys(labels):
        idx = [i for i, l in enumerate(labels) if l == lab]
        mask = np.isin(seating, idx)
        # one value per game: the bot's mean over the seats it occupied
        per_game_ret = (returns * mask).sum(axis=1) / mask.sum(axis=1)
        per_game_win = (credit * mask).sum(axis=1) / mask.sum(axis=1)
        bot_returns[lab] = Stat.of(per_game_ret)
        bot_wins[lab] = Stat.of(per_game_win)
    seat_returns = [Stat.of(returns[:, s]) for s in range(n)]
    return MatchResult(game_string, labels, games, seed, seat_returns, bot_returns,
                       bot_wins, returns, seating)
