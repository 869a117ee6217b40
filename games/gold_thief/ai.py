"""Gold Thief's rule-based heuristic bot: what a sensible casual player does.

The heuristic looks only at what its player may know (its own hand and
goals, the public view, cards it saw through Witch steals); the game's spec
(``games/gold_thief/__init__.py``) refers to it.  The other games' heuristics have
their own modules, each referred to by its game's spec.

Gold Thief (``gold_thief``), in order of priority:

* score: always take a Ninja score or a goal flip when offered;
* defend: cancel (Guard) a theft or raid on me unless losing the gold brings
  me nearer one of my goal numbers; Faerie-cancel a Witch on me or a Guard
  that cancels my own theft;
* react: raid a thief (Thief) or add a Witch to my own theft when the gold
  does not take me further from my nearest goal number;
* own turn: Ninja first (more cards); Thief on the *leader* (most goals face
  up, then most gold; their goals are secret, so this is "the player
  nearest a goal") when +2 gold does not take me further from my goal or the
  leader is one goal from winning; a Guard gift when I am above my number
  and keep another Guard (a Thief is always likely); Witch on the leader
  when I have no Thief to play; Faerie away a goal 4+ gold from my purse;
  otherwise end the turn;
* Witch victim: give away the card I value least (Faerie, Witch, Thief,
  Ninja, Guard).
"""
from __future__ import annotations

import pyspiel

from games.interfaces import RuleBot
from src_cy.gold_thief.engine import ACTION_LAYOUT as _LAYOUT  # the ids' one definition (gold_thief_actions.pxd)

GT_FLIP = _LAYOUT["A_BIG_FLIP"]
GT_END = _LAYOUT["A_END_TURN"]
GT_FAERIE = _LAYOUT["A_FAERIE"]
GT_FAERIE_CANCEL = _LAYOUT["A_FAERIE_CANCEL"]
GT_GIVE = _LAYOUT["A_GIVE"]
GT_GUARD = _LAYOUT["A_GUARD"]
GT_GUARD_CANCEL = _LAYOUT["A_GUARD_CANCEL"]
GT_NINJA = _LAYOUT["A_NINJA"]
GT_NINJA_SCORE = _LAYOUT["A_NINJA_SCORE"]
GT_PASS = _LAYOUT["A_PASS"]
GT_THIEF = _LAYOUT["A_THIEF"]
GT_RAID = _LAYOUT["A_THIEF_RAID"]
GT_WITCH = _LAYOUT["A_WITCH"]
GT_WITCH_EXTRA = _LAYOUT["A_WITCH_EXTRA"]
FAERIE = _LAYOUT["FAERIE"]
GUARD = _LAYOUT["GUARD"]
NINJA = _LAYOUT["NINJA"]
THIEF = _LAYOUT["THIEF"]
WITCH = _LAYOUT["WITCH"]

E_THIEF, E_RAID, E_WITCH_EXTRA, E_GUARD_GIFT, E_GUARD_CANCEL, E_WITCH_STEAL = range(6)
GIVE_ORDER = (FAERIE, WITCH, THIEF, NINJA, GUARD)


class GoldThiefHeuristicBot(RuleBot):
    """The casual-player rules above; deterministic (``seed`` is accepted)."""

    GAME = "gold_thief"

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        return self._choose(state.engine.player_view(me), set(legal))

    @staticmethod
    def _choose(view, legal: set[int]) -> int:
        """Decide from the player's own view (``GoldThiefView``) only."""
        me = view.player
        gold = view.gold
        n = len(gold)
        numbers = view.goal_numbers
        targets = [x for g in view.goals_down for x in numbers[g]]

        def dist(amount: int) -> int:
            return min((abs(amount - t) for t in targets), default=0)

        here = dist(gold[me])
        for a in sorted(legal):
            if GT_NINJA_SCORE <= a < GT_FLIP or GT_FLIP <= a < GT_GIVE:
                return a
        pending = view.pending
        top = pending[-1] if pending else None
        if GT_GUARD_CANCEL in legal and top is not None:
            kind, _player, victim, _ben, _canc = top
            if victim == me and not dist(gold[me] - (2 if kind == E_THIEF else 1)) < here:
                return GT_GUARD_CANCEL
        if GT_FAERIE_CANCEL in legal and top is not None:
            kind, _player, victim, _ben, _canc = top
            if kind == E_WITCH_STEAL and victim == me:
                return GT_FAERIE_CANCEL
            if kind == E_GUARD_CANCEL and len(pending) >= 2 and pending[-2][3] == me:
                return GT_FAERIE_CANCEL
        if GT_RAID in legal and dist(gold[me] + 1) <= here:
            return GT_RAID
        if GT_WITCH_EXTRA in legal and top is not None and top[3] == me \
                and dist(gold[me] + 1) <= here:
            return GT_WITCH_EXTRA
        give = [a for a in legal if a >= GT_GIVE]
        if give:
            for t in GIVE_ORDER:
                if GT_GIVE + t in legal:
                    return GT_GIVE + t
        if GT_END not in legal:   # a response window: nothing worth playing
            return GT_PASS if GT_PASS in legal else min(legal)
        # Own turn.
        if GT_NINJA in legal:
            return GT_NINJA
        others = [v for v in range(n) if v != me]
        leader = max(others, key=lambda v: (len(view.face_up[v]), gold[v], -v))
        hand = view.hand
        if GT_THIEF + leader in legal and (
                dist(gold[me] + 2) <= here or len(view.face_up[leader]) >= 2):
            return GT_THIEF + leader
        if hand[GUARD] >= 2 and dist(gold[me] - 1) < here:
            trailer = min(others, key=lambda v: (len(view.face_up[v]), gold[v], v))
            if GT_GUARD + trailer in legal:
                return GT_GUARD + trailer
        if GT_WITCH + leader in legal and hand[THIEF] == 0:
            return GT_WITCH + leader
        for g in view.goals_down:
            if GT_FAERIE + g in legal and min(abs(gold[me] - x) for x in numbers[g]) >= 4:
                return GT_FAERIE + g
        return GT_END


