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
- Against a reference bot (e.g. Saboteur's heuristic): ``PairedHeadToHead``,
  the mean paired difference between the policy and the reference policy in
  the same seat on the same seeded deals, every seat of every deal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from src_cy.rng import SplitMix64, derive_seed, sample_sorted

HEAD_TO_HEAD = "mean return vs random"
HEAD_TO_HEAD_HEURISTIC = "paired difference vs heuristic"


@dataclass(frozen=True)
class Measure:
    """How a measure of a policy is named and drawn (``MEASURES``).

    ``sampled``: an estimate with a 95% interval from played games (a
    strength measure) rather than an exact worst-case value.
    """

    key: str
    name: str
    axis_label: str
    sampled: bool


#: Every measure the library reports, by key (the key is what results store).
MEASURES: dict[str, Measure] = {m.key: m for m in (
    Measure("exploitability", "exploitability", "exploitability (utility units)", False),
    Measure("nash_conv", "NashConv", "NashConv (utility units)", False),
    Measure(HEAD_TO_HEAD, HEAD_TO_HEAD,
            "mean return vs uniform random\n(utility units, 95% CI)", True),
    Measure(HEAD_TO_HEAD_HEURISTIC, HEAD_TO_HEAD_HEURISTIC,
            "paired return difference vs heuristic\n(utility units, 95% CI)", True),
)}


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
        values[i] = _play(game, policy, seat, opponent, seed, i)[seat]
    return float(values.mean()), float(1.96 * values.std(ddof=1) / math.sqrt(games))


def _play(game: pyspiel.Game, policy: Any, seat: int, opponent: Any, seed: int,
          deal: int) -> list[float]:
    """Returns of one game: ``policy`` in ``seat``, ``opponent`` elsewhere (uniform
    random when None), chance and opponents from the stream of ``(seed, 2 deal)``,
    the policy's samples from that of ``(seed, 2 deal + 1)``."""
    rng = SplitMix64(derive_seed(seed, 2 * deal))
    mine = SplitMix64(derive_seed(seed, 2 * deal + 1))
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
    return state.returns()


class PairedHeadToHead:
    """Paired difference of a policy against a baseline policy in the same seat.

    Deal i (chance seeded by ``(seed, i)`` as in :func:`head_to_head`) is
    played once per seat s with the policy in s and ``opponent`` elsewhere,
    and once per seat with the ``baseline`` policy in s (computed once and
    cached: the deals are fixed).  The difference of deal i is the mean over
    seats of (policy's return - baseline's return in that seat); calling the
    object gives (mean difference, 95% half-width over the deals).  A policy
    that plays exactly like the baseline scores exactly 0, so most of the
    noise of the deal cancels.
    """

    def __init__(self, game: pyspiel.Game, baseline: Any, opponent: Any = None,
                 deals: int = 200, seed: int = 0):
        if deals < 2:
            raise ValueError(f"deals must be >= 2, got {deals}")
        self.game, self.opponent, self.deals, self.seed = game, opponent, deals, seed
        n = game.num_players()
        self.baseline = np.asarray([[_play(game, baseline, s, opponent, seed, i)[s]
                                     for s in range(n)] for i in range(deals)])

    def differences(self, policy: Any) -> np.ndarray:
        """(deals, seats) array of the policy's return minus the baseline's."""
        n = self.game.num_players()
        mine = np.asarray([[_play(self.game, policy, s, self.opponent, self.seed, i)[s]
                            for s in range(n)] for i in range(self.deals)])
        return mine - self.baseline

    def __call__(self, policy: Any) -> tuple[float, float]:
        per_deal = self.differences(policy).mean(axis=1)
        return (float(per_deal.mean()),
                float(1.96 * per_deal.std(ddof=1) / math.sqrt(self.deals)))
