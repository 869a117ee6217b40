"""Gold Nugget's belief model: where the Gold Nugget is.

The hidden variable is the location of the Gold Nugget stone,
``("lair", seat, slot)`` or ``("nest",)``.  The model is the marginal of the
engine's information-set resampler (which keeps everything the player saw
or inferred: examined faces, answers, traps shown), estimated from seeded
worlds (``solvers.beliefs.sampled_belief``); no behavioural likelihood, so
belief-weighted determinization accepts every world.  ``docs/ai.md``
documents it.
"""
from __future__ import annotations

import pyspiel

from games.interfaces import Belief, BeliefModel, sampled_belief

GOLD_NUGGET_FACE = 2


def gold_nugget_location(engine) -> tuple:
    """Where the Gold Nugget is in a world (an engine)."""
    stone = engine.stone_faces().index(GOLD_NUGGET_FACE)
    for q, lair in enumerate(engine.lairs()):
        if stone in lair:
            return ("lair", q, lair.index(stone))
    return ("nest",)


def gold_nugget_belief(state: pyspiel.State, player: int, *, samples: int = 256,
                       seed: int = 0) -> Belief:
    """Where the Gold Nugget is: ("lair", seat, slot) or ("nest",)."""
    return sampled_belief(state, player, gold_nugget_location,
                          "location of the Gold Nugget", samples=samples, seed=seed)


#: The model ``games.gold_nugget``'s spec gives (``GameSpec.belief``).
MODEL = BeliefModel(gold_nugget_belief, gold_nugget_location, weighted=False)
