"""Fit the Saboteur leaf evaluation: P(gold-diggers win) from a world's features.

::

    python -m experiments.research.saboteur_eval_fit --rounds 1500 --seed 1

Plays one-round games (3, 4 and 5 players, default parameters) in which
every move is the ISMCTS rollout policy's (``SaboteurRollout``, through its
pyspiel twin), records ``src_cy.saboteur.rollout.py_leaf_features`` at every
decision of the round's play with the round's outcome (gold-diggers won),
and fits a logistic regression (Newton's method, a small ridge) on the
even-numbered games; prints the weights (``EVAL_W`` in
``src_cy/saboteur/rollout.pyx``) and the log loss and Brier score of the
model and of the constant base rate on the odd-numbered (held-out) games.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pyspiel

import games  # noqa: F401
from experiments.research.saboteur_ai import diggers_won
from games.saboteur import saboteur_rollout
from src_cy.rng import SplitMix64, sample_sorted
from src_cy.saboteur.rollout import py_leaf_features, py_leaf_values

FEATURES = ("1", "d/10", "(d/10)^2", "cards left per player/10", "broken diggers share",
            "saboteur share")


def collect(rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, outcome, game index) of every play decision of ``rounds`` games."""
    xs, ys, gs = [], [], []
    for i in range(rounds):
        players = 3 + i % 3
        game = pyspiel.load_game("saboteur", {"players": players, "rounds": 1})
        rng = SplitMix64(seed * 1_000_003 + i)
        s = game.new_initial_state()
        rows = []
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_sorted(sorted(s.chance_outcomes()), rng))
                continue
            if py_leaf_values(s.engine) is not None:
                rows.append(py_leaf_features(s.engine))
            s.apply_action(saboteur_rollout(s, sorted(s.legal_actions()), rng))
        won = float(diggers_won(s))
        xs.extend(rows)
        ys.extend([won] * len(rows))
        gs.extend([i] * len(rows))
    return np.array(xs), np.array(ys), np.array(gs)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, iters: int = 30) -> np.ndarray:
    """Logistic-regression weights by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(log loss, Brier score)."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p - y) ** 2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.rounds < 4:
        raise SystemExit("--rounds must be >= 4")
    x, y, g = collect(args.rounds, args.seed)
    train, test = g % 2 == 0, g % 2 == 1
    w = fit(x[train], y[train])
    model = 1.0 / (1.0 + np.exp(-x[test] @ w))
    base = np.full(test.sum(), y[train].mean())
    print(f"# {args.rounds} rounds, seed {args.seed}: {len(y)} decisions, "
          f"diggers won {y[g % 2 == 0].mean():.3f} of train decisions")
    for name, wi in zip(FEATURES, w):
        print(f"{name:>28}: {wi:+.4f}")
    print("EVAL_W[:] = [" + ", ".join(f"{wi:.4f}" for wi in w) + "]")
    print("held out: model log loss %.4f Brier %.4f; base rate log loss %.4f Brier %.4f"
          % (*scores(model, y[test]), *scores(base, y[test])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
