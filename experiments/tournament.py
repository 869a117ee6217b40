"""Round-robin tournament between bots, with Bradley–Terry ratings.

Example::

    python -m experiments.tournament --game gold_thief --players 2 \\
        --bots heuristic,random,ismcts:max_simulations=200 --games 40

Every pair of bots plays ``--games`` games.  In game g of a pair (A, B),
seat s is played by A when ``s + g`` is even, by B otherwise, so the two
bots alternate seats and, over every two games, sit in every seat equally
often (in a game with more than two players each bot fills several seats).
A game scores 1 for the bot whose seats have the higher mean return, 0.5 for
equal means.  Game k of the tournament (pair p, game g: k = p * games + g)
is seeded by ``(seed, k)`` alone, so the tables are identical on every
backend (``--backend local|ray``) and process count.

Output (``--out``, default ``results/tournament/<game>/``), each written
atomically: ``tournament.md`` (the tables below), ``pairwise.csv``,
``ratings.csv``, ``ratings.png`` (mode 0644).  The pairwise table gives
each row bot's mean score against each column bot with its 95% Wilson
interval (honest at 0/n and n/n); ratings are Bradley–Terry on the Elo scale (mean 0) with 95%
bootstrap intervals (see ``solvers/ratings.py``).
"""
from __future__ import annotations

import argparse
import csv
import io
import itertools
import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from experiments.botspec import game_string
from solvers import backends
from solvers.backends import BACKENDS, run_tasks
from solvers.botspec import parse_lineup
from solvers.evaluate import BotSpec, Stat, _load, game_seed, play_game
from solvers.ratings import bootstrap_ratings, wilson


def seat_bots(players: int, g: int) -> list[int]:
    """Seat s of game g of a pair: 0 (the pair's first bot) or 1."""
    return [(s + g) % 2 for s in range(players)]


def tournament_task(job: tuple) -> tuple[int, list[float]]:
    """One game: ``(game_string, (spec_a, spec_b), g, seed, index)`` ->
    (index, returns per seat)."""
    gs, duo, g, seed, index = job
    n = _load(gs).num_players()
    lineup = [duo[b] for b in seat_bots(n, g)]
    returns, _ = play_game(gs, lineup, 0, game_seed(seed, index))
    return index, returns


@dataclass
class TournamentResult:
    """Every game's outcome and the fitted ratings."""

    game: str
    bots: list[str]
    games: int
    seed: int
    pairs: list[tuple[int, int]]
    scores: np.ndarray        # [pair, game]: score of the pair's first bot
    margins: np.ndarray       # [pair, game]: first bot's mean return minus second's
    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray

    def score(self, i: int, j: int) -> Stat:
        """Bot i's mean score against bot j, with its 95% half-width."""
        for p, (a, b) in enumerate(self.pairs):
            if (a, b) == (i, j):
                return Stat.of(self.scores[p])
            if (a, b) == (j, i):
                return Stat.of(1.0 - self.scores[p])
        raise ValueError(f"bots {i} and {j} did not meet")

    def interval(self, i: int, j: int) -> tuple[float, float]:
        """95% Wilson interval of bot i's mean score against bot j."""
        st = self.score(i, j)
        return wilson(st.mean, st.n)

    def cell(self, i: int, j: int) -> str:
        """``mean [low, high]`` of bot i against bot j."""
        low, high = self.interval(i, j)
        return f"{self.score(i, j).mean:.3f} [{low:.2f}, {high:.2f}]"

    def markdown(self) -> str:
        """The pairwise table and the ratings table."""
        n = len(self.bots)
        lines = [f"## {self.game}: round robin, {self.games} games per pair, seed {self.seed}",
                 "",
                 "Score of the row bot against the column bot (1 win, 0.5 tie) "
                 "with its 95% Wilson interval:",
                 "",
                 "| bot | " + " | ".join(self.bots) + " |",
                 "|---|" + "---|" * n]
        for i in range(n):
            cells = ["—" if i == j else self.cell(i, j) for j in range(n)]
            lines.append(f"| {self.bots[i]} | " + " | ".join(cells) + " |")
        lines += ["", "Bradley–Terry rating (Elo scale, mean 0) with 95% bootstrap "
                  "interval:", "", "| rank | bot | rating | 95% interval | mean score |",
                  "|---|---|---|---|---|"]
        for rank, i in enumerate(np.argsort(-self.ratings, kind="stable"), 1):
            mean = np.mean([self.score(i, j).mean for j in range(n) if j != i])
            lines.append(f"| {rank} | {self.bots[i]} | {self.ratings[i]:+.0f} | "
                         f"[{self.low[i]:+.0f}, {self.high[i]:+.0f}] | {mean:.3f} |")
        return "\n".join(lines) + "\n"

    def pairwise_csv(self) -> str:
        """One row per ordered pair of bots."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["bot", "opponent", "games", "score", "score_low95", "score_high95",
                    "wins", "ties", "losses", "mean_return_margin"])
        for p, (a, b) in enumerate(self.pairs):
            for i, j, s, m in ((a, b, self.scores[p], self.margins[p]),
                               (b, a, 1.0 - self.scores[p], -self.margins[p])):
                st = Stat.of(s)
                low, high = wilson(st.mean, st.n)
                w.writerow([self.bots[i], self.bots[j], len(s), f"{st.mean:.6f}",
                            f"{low:.6f}", f"{high:.6f}", int((s == 1).sum()), int((s == 0.5).sum()),
                            int((s == 0).sum()), f"{m.mean():.6f}"])
        return buf.getvalue()

    def ratings_csv(self) -> str:
        """One row per bot: rating and its interval."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["bot", "rating", "low95", "high95"])
        for i, bot in enumerate(self.bots):
            w.writerow([bot, f"{self.ratings[i]:.3f}", f"{self.low[i]:.3f}",
                        f"{self.high[i]:.3f}"])
        return buf.getvalue()


def run_tournament(game: str, bots: Sequence[BotSpec], games: int = 20, seed: int = 0,
                   backend: str = "local", processes: int | None = None,
                   address: str | None = None, progress: bool = True,
                   bootstrap: int = 200, task=tournament_task) -> TournamentResult:
    """Play the round robin (module doc) and fit the ratings."""
    if len(bots) < 2:
        raise ValueError(f"a tournament needs at least 2 bots, got {len(bots)}")
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    labels = [b.display for b in bots]
    if len(set(labels)) != len(labels):
        raise ValueError(f"bots must be distinct, got {labels}")
    backends.check_backend(backend, address)
    if backend == "ray" and not backends.ray_available():
        raise ValueError("--backend ray needs the optional 'ray' dependency: "
                         "pip install -e '.[ray]' (or use --backend local)")
    pgame = _load(game)
    for b in bots:   # fail fast on unknown bots or options
        b.build(pgame, 0)
    pairs = list(itertools.combinations(range(len(bots)), 2))
    jobs = [(game, (bots[a], bots[b]), g, seed, p * games + g)
            for p, (a, b) in enumerate(pairs) for g in range(games)]
    out = run_tasks(task, jobs, backend=backend, processes=processes, address=address,
                    progress=progress, desc=f"{game} round robin")
    n = pgame.num_players()
    scores = np.zeros((len(pairs), games))
    margins = np.zeros((len(pairs), games))
    for k, returns in enumerate(out):
        p, g = divmod(k, games)
        seats = np.array(seat_bots(n, g))
        r = np.asarray(returns, dtype=float)
        margin = r[seats == 0].mean() - r[seats == 1].mean()
        margins[p, g] = margin
        scores[p, g] = 0.5 if abs(margin) < 1e-9 else float(margin > 0)
    flat_pairs = [pairs[p] for p in range(len(pairs)) for _ in range(games)]
    ratings, low, high = bootstrap_ratings(len(bots), flat_pairs, scores.ravel(),
                                           samples=bootstrap, seed=seed)
    return TournamentResult(game, labels, games, seed, pairs, scores, margins,
                            ratings, low, high)


def _atomic_write(path: str, data: bytes) -> None:
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)      # mkstemp's 0600 would hide results from other users
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def plot(result: TournamentResult) -> bytes:
    """PNG: pairwise score heat map (with Wilson intervals) and ratings with
    bootstrap intervals, both panels listing the bots best-rated first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(result.bots)
    order = list(np.argsort(-result.ratings, kind="stable"))
    names = [result.bots[i].replace(":", "\n") for i in order]   # one option per line
    width = max(len(line) for b in names for line in b.split("\n"))
    height = max(b.count("\n") + 1 for b in names)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6.5 + 0.14 * width + 1.2 * n,
                                                  2.6 + (0.6 + 0.12 * height) * n
                                                  + 0.09 * width))
    m = np.full((n, n), np.nan)
    for r, i in enumerate(order):
        for c, j in enumerate(order):
            if i != j:
                m[r, c] = result.score(i, j).mean
    # the diagonal: dark grey, unlike the white of 0.5
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#4d4d4d")
    im = ax1.imshow(np.ma.masked_invalid(m), vmin=0, vmax=1, cmap=cmap)
    for r, i in enumerate(order):
        for c, j in enumerate(order):
            if i == j:
                ax1.text(c, r, "self", ha="center", va="center", fontsize=8, color="white")
                continue
            low, high = result.interval(i, j)
            ax1.text(c, r, f"{m[r, c]:.2f}\n[{low:.2f}, {high:.2f}]", ha="center",
                     va="center", fontsize=7.5,
                     color="white" if abs(m[r, c] - 0.5) > 0.3 else "black")
    ax1.set_xticks(range(n), names, fontsize=8, rotation=90)
    ax1.set_yticks(range(n), names, fontsize=8)
    ax1.set_xlabel("opponent (column)")
    ax1.set_ylabel("bot (row)")
    ax1.set_title(f"score of row vs column, 95% Wilson interval\n"
                  f"({result.games} games per pair)", fontsize=10)
    bar = fig.colorbar(im, ax=ax1, fraction=0.046, pad=0.04)
    bar.set_label("mean score of the row bot (1 win, 0.5 tie)")
    y = np.arange(n)
    rt = result.ratings[order]
    ax2.errorbar(rt, y, xerr=[rt - result.low[order], result.high[order] - rt], fmt="o",
                 capsize=4, color="tab:blue")
    ax2.axvline(0, color="grey", lw=0.8, ls=":")
    ax2.set_yticks(y, names, fontsize=8)
    ax2.set_ylim(n - 0.4, -0.6)        # best at the top, as in the heat map
    ax2.set_xlabel("Bradley–Terry rating (Elo scale, mean 0)")
    ax2.set_ylabel("bot")
    ax2.set_title("rating, 95% bootstrap interval", fontsize=10)
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{result.game}: {result.games} games per pair, seed {result.seed}",
                 fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write_outputs(result: TournamentResult, out_dir: str) -> list[str]:
    """Write the Markdown, both CSVs and the plot atomically; return the paths."""
    os.makedirs(out_dir, exist_ok=True)
    files = {"tournament.md": result.markdown().encode(),
             "pairwise.csv": result.pairwise_csv().encode(),
             "ratings.csv": result.ratings_csv().encode(),
             "ratings.png": plot(result)}
    paths = []
    for name, data in files.items():
        path = os.path.join(out_dir, name)
        _atomic_write(path, data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line entry (see the module doc); exit status 2 on bad arguments."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, help="game name or a full game string")
    ap.add_argument("--players", type=int, default=None, help="players (game parameter)")
    ap.add_argument("--bots", required=True,
                    help="comma-separated bot specs, each name[:key=value...]")
    ap.add_argument("--games", type=int, default=20, help="games per pair of bots")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--backend", choices=BACKENDS, default="local")
    ap.add_argument("--address", default=None, help="Ray cluster address")
    ap.add_argument("--processes", type=int, default=None, help="local: default all cores")
    ap.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamples")
    ap.add_argument("--out", default=None, help="default results/tournament/<game>")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        import games  # noqa: F401
        gs = game_string(args.game, args.players)
        bots = parse_lineup(args.bots)
        result = run_tournament(gs, bots, games=args.games, seed=args.seed,
                                backend=args.backend, processes=args.processes,
                                address=args.address, progress=not args.no_progress,
                                bootstrap=args.bootstrap)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out_dir = args.out or os.path.join("results", "tournament",
                                       _load(gs).get_type().short_name)
    paths = write_outputs(result, out_dir)
    print(result.markdown())
    print("wrote " + ", ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
