"""The Python Gold Thief heuristic, kept verbatim as the reference oracle of the
compiled rules (``src_cy/gold_thief/heuristic.pyx``): ``reference_choose(view,
legal)`` decides from ``engine.player_view(player)`` and the legal set exactly
as ``GoldThiefHeuristicBot._choose`` did before the rules were compiled
(``tests/games/gold_thief/test_gold_thief_heuristic.py`` compares the two)."""
from __future__ import annotations

from src_cy.gold_thief.engine import ACTION_LAYOUT as _LAYOUT

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


def reference_choose(view, legal: set[int]) -> int:
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
