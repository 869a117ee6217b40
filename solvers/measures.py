"""Which measure of a policy applies, and an estimate for games too large to solve exactly.

- 2-player constant-sum games: **exploitability** ((sum of best-response
  values - utility sum) / 2), exact on a compiled tree.
- Other games (more players, general-sum): **NashConv** (sum over players of
  what a best response gains), exact on a compiled tree.
- Games whose tree does not compile: no best response is computed.  The
  documented estimate is ``head_to_head``: the mean return of the policy
  against uniform-random opponents, every seat in turn, over a fixed set of
  seeded games (so successive checkpoints are compared on the same deals).  It
  is a strength measure, not an exploitability bound: it rises as the policy
  improves against weak play and says nothing about the worst case.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyspiel

from src_cy.rng import SplitMix64, derive_seed, sample_sorted

HEAD_TO_HEAD = "mean return vs random"


def head_to_head(game: pyspiel.Game, policy: Any, games: int = 200,
                 seed: int = 0, opponent: Any = None) -> tuple[float, float]:
    """(mean return of ``policy``, 95% half-width) against uniform-random opponents.

    Game i seats the policy at ``i % players``; chance and the opponents draw
    from a ``SplitMix64`` seeded by ``(seed, i)``, the policy's own samples
    from a separate stream, so every call with the same seed plays the same
    deals.  ``opponent(state, rng)`` picks the other seats' actions (default:
    uniform random from ``rng``).
    """
    if games < 2:
        raise ValueError(f"games must be >= 2, got {games}")
    n = game.num_players()
    values = np.zeros(games)
    for i in range(games):
        seat = i % n
        rng = SplitMix64(derive_seed(seed, 2 * i))
        mine = SplitMix64(derive_seed(seed, 2 * i + 1))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_sorted(state.chance_outcomes(), rng))
            elif state.current_player() == seat:
                probs = policy.action_probabilities(state)
                state.apply_action(sample_sorted(sorted(probs.items()), mine))
            else:
                state.apply_action(opponent(state, rng) if opponent is not None
                                   else rng.choice(state.legal_actions()))
        values[i] = state.returns()[seat]
    return float(values.mean()), float(1.96 * values.std(ddof=1) / math.sqrt(games))
