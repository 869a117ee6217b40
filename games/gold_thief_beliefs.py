"""Gold Thief's belief model: who holds Guards and Faeries.

The hidden variable is, per seat, (number of Guards, number of Faeries) in
hand (the player's own entry is exact).  The model is the marginal of the
engine's information-set resampler, estimated from seeded worlds
(``solvers.beliefs.sampled_belief``).  ``docs/ai.md`` documents it.
"""
from __future__ import annotations

import pyspiel

from solvers.beliefs import Belief, BeliefModel, sampled_belief

GOLD_THIEF_GUARD, GOLD_THIEF_FAERIE = 1, 3


def gold_thief_holdings(engine) -> tuple:
    """Per seat (Guards, Faeries) in hand in a world (an engine)."""
    return tuple((h.count(GOLD_THIEF_GUARD), h.count(GOLD_THIEF_FAERIE))
                 for h in (engine.hand(q) for q in range(engine.num_players)))


def gold_thief_belief(state: pyspiel.State, player: int, *, samples: int = 256,
                      seed: int = 0) -> Belief:
    """Who holds Guards and Faeries: per seat (Guards, Faeries) in hand."""
    return sampled_belief(state, player, gold_thief_holdings,
                          "per seat (Guards, Faeries) in hand", samples=samples, seed=seed)


#: The model ``games.gold_thief``'s spec gives (``GameSpec.belief``).
MODEL = BeliefModel(gold_thief_belief, gold_thief_holdings, weighted=False)
