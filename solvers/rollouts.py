"""Game heuristic rollout policies for ISMCTS (``rollout="heuristic"``).

Each entry has an engine version (a Cython ``RolloutPolicy``) and a pyspiel
twin that makes the same choice from the same ``SplitMix64`` draws, so the
fast and slow search paths stay identical.  The Saboteur twin calls the
Cython policy code (``src_cy.saboteur_rollout.rollout_choice``) on the
pyspiel state's engine, so it matches by construction.
"""
from __future__ import annotations

from games.gold_thief import (A_END_TURN as END_TURN, A_GIVE as GIVE,
                              A_NINJA_SCORE as NINJA_SCORE, A_PASS as PASS, A_THIEF as THIEF,
                              MAX_PLAYERS as GT_MAX_PLAYERS)
from solvers.ismcts import SplitMix64, register_rollout
from src_cy.saboteur_rollout import rollout_choice as _saboteur_rollout_choice


def gold_thief_rollout(state, actions: list[int], rng: SplitMix64) -> int:
    """pyspiel twin of ``src_cy.gold_thief_rollout.GoldThiefRollout`` (same rules)."""
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


def _fast_gold_thief():
    from src_cy.gold_thief_rollout import GoldThiefRollout
    return GoldThiefRollout()


register_rollout("gold_thief", fast=_fast_gold_thief, slow=gold_thief_rollout)


def saboteur_rollout(state, actions: list[int], rng: SplitMix64) -> int:
    """pyspiel twin of ``src_cy.saboteur_rollout.SaboteurRollout``: runs the
    same code on ``state.engine`` from ``rng``'s state and advances ``rng``
    past the draws it made."""
    action, rng.s = _saboteur_rollout_choice(state.engine, actions, rng.s)
    return action


def _fast_saboteur():
    from src_cy.saboteur_rollout import SaboteurRollout
    return SaboteurRollout()


register_rollout("saboteur", fast=_fast_saboteur, slow=saboteur_rollout)
