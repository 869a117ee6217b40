"""Gold Thief's heuristic rollout policy for ISMCTS (``rollout="heuristic"``), pyspiel twin.

The engine version is the Cython ``src_cy.gold_thief.rollout.GoldThiefRollout``;
this twin makes the same choice from the same ``SplitMix64`` draws, so the
fast and slow search paths stay identical.  Both are referenced by the game's
spec (``games/gold_thief/__init__.py``).
"""
from __future__ import annotations

from src_cy.gold_thief.engine import ACTION_LAYOUT as _LAYOUT  # the ids' one definition

END_TURN, GIVE = _LAYOUT["A_END_TURN"], _LAYOUT["A_GIVE"]
NINJA_SCORE, PASS, THIEF = _LAYOUT["A_NINJA_SCORE"], _LAYOUT["A_PASS"], _LAYOUT["A_THIEF"]
GT_MAX_PLAYERS = _LAYOUT["MAX_PLAYERS"]


def gold_thief_rollout(state, actions: list[int], rng: "SplitMix64") -> int:
    """pyspiel twin of ``src_cy.gold_thief.rollout.GoldThiefRollout`` (same rules)."""
    for a in actions:
        if NINJA_SCORE <= a < GIVE:
            return a
    has_end, has_pass = END_TURN in actions, PASS in actions
    thieves = [a for a in actions if THIEF <= a < THIEF + GT_MAX_PLAYERS]
    others = [a for a in actions if a not in (END_TURN, PASS) and not THIEF <= a < THIEF + GT_MAX_PLAYERS]
    if has_pass and not has_end:
        if len(actions) > 1 and rng.random() < 0.5:
            return actions[1 + rng.randint(len(actions) - 1)]
        return PASS
    if has_end:
        if thieves and rng.random() < 0.6:
            return thieves[rng.randint(len(thieves))]
        if others and rng.random() < 0.4:
            return others[rng.randint(len(others))]
        return END_TURN
    return actions[rng.randint(len(actions))]

