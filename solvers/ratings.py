"""Bradley–Terry ratings from pairwise game scores, with bootstrap intervals.

A game between bots i and j scores ``s`` in [0, 1] for i (1 a win, 0.5 a
tie, 0 a loss) and ``1 - s`` for j.  The Bradley–Terry model says
P(i beats j) = g_i / (g_i + g_j); :func:`bradley_terry` fits the strengths
by the MM algorithm (Hunter 2004) with ties as half a win each way and a
weak prior of ``prior`` virtual games scored 0.5 between every pair that
met (it keeps a bot that won or lost everything finite).  Ratings are on the
Elo scale: ``400 log10 g``, centred on mean 0, so a 400-point gap is 10:1
odds.  :func:`bootstrap_ratings` resamples the games of each pair with
replacement (seeded) and reports percentile intervals.  :func:`wilson` is the
score interval of one pair of bots: honest at 0/n and n/n, where the normal
approximation claims a width of 0.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

ELO = 400.0 / math.log(10.0)


def wilson(mean: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval (default 95%) of a mean score ``mean`` in [0, 1]
    over ``n`` games (a tie counts as half a win).

    At 0/n it is ``[0, z²/(n + z²)]``, not the zero-width ``0 ± 0`` of the
    normal approximation; ``n = 0`` gives ``(0, 1)``.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0.0 <= mean <= 1.0:
        raise ValueError(f"mean must lie in [0, 1], got {mean}")
    if n == 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _wins(n: int, pairs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((n, n))
    np.add.at(wins, (pairs[:, 0], pairs[:, 1]), scores)
    np.add.at(wins, (pairs[:, 1], pairs[:, 0]), 1.0 - scores)
    return wins, wins + wins.T


def bradley_terry(n: int, pairs: Sequence[tuple[int, int]], scores: Sequence[float],
                  prior: float = 1.0, iterations: int = 10000,
                  tol: float = 1e-10) -> np.ndarray:
    """Elo-scale Bradley–Terry ratings (mean 0) of ``n`` bots.

    ``pairs[k] = (i, j)`` played game k, which scored ``scores[k]`` for i.
    """
    pairs = np.asarray(pairs, dtype=int).reshape(-1, 2)
    scores = np.asarray(scores, dtype=float)
    if n < 2:
        raise ValueError(f"need at least 2 bots, got {n}")
    if len(pairs) != len(scores):
        raise ValueError(f"{len(pairs)} pairs but {len(scores)} scores")
    if len(pairs) and (pairs.min() < 0 or pairs.max() >= n or (pairs[:, 0] == pairs[:, 1]).any()):
        raise ValueError("pairs must name two different bots in 0..n-1")
    if ((scores < 0) | (scores > 1)).any():
        raise ValueError("scores must lie in [0, 1]")
    if prior < 0:
        raise ValueError(f"prior must be >= 0, got {prior}")
    wins, games = _wins(n, pairs, scores)
    met = games > 0
    wins = wins + 0.5 * prior * met
    games = games + prior * met
    total = wins.sum(axis=1)
    g = np.ones(n)
    for _ in range(iterations):
        denom = (games / (g[:, None] + g[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), g)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(g))) < tol:
            g = new
            break
        g = new
    r = ELO * np.log(g)
    return r - r.mean()


def bootstrap_ratings(n: int, pairs: Sequence[tuple[int, int]], scores: Sequence[float],
                      samples: int = 200, seed: int = 0, prior: float = 1.0,
                      level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ratings, low, high): the fit and ``level`` percentile intervals from
    ``samples`` bootstrap resamples of each pair's games."""
    pairs = np.asarray(pairs, dtype=int).reshape(-1, 2)
    scores = np.asarray(scores, dtype=float)
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    fit = bradley_terry(n, pairs, scores, prior=prior)
    rng = np.random.default_rng(seed)
    groups = {}
    for k, (i, j) in enumerate(map(tuple, pairs)):
        groups.setdefault((min(i, j), max(i, j)), []).append(k)
    draws = np.empty((samples, n))
    for b in range(samples):
        idx = np.concatenate([rng.choice(ks, size=len(ks), replace=True)
                              for ks in groups.values()]) if groups else np.zeros(0, int)
        draws[b] = bradley_terry(n, pairs[idx], scores[idx], prior=prior)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail], axis=0)
    return fit, low, high
