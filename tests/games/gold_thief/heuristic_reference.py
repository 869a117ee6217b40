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


# ---------------------------------------------------------------- abstraction
# games/gold_thief/abstraction.py's bucket and candidates as they were in
# Python (now ``compact_bucket`` and ``abstract_candidates`` in
# src_cy/gold_thief/heuristic.pyx).
_END, _PASS = _LAYOUT["A_END_TURN"], _LAYOUT["A_PASS"]
_THIEF, _GUARD, _WITCH, _FAERIE = (_LAYOUT["A_THIEF"], _LAYOUT["A_GUARD"], _LAYOUT["A_WITCH"],
                                   _LAYOUT["A_FAERIE"])
_NINJA, _NINJA_SCORE, _BIG_FLIP, _GIVE = (_LAYOUT["A_NINJA"], _LAYOUT["A_NINJA_SCORE"],
                                          _LAYOUT["A_BIG_FLIP"], _LAYOUT["A_GIVE"])
_CANCEL, _RAID, _EXTRA, _FCANCEL = (_LAYOUT["A_GUARD_CANCEL"], _LAYOUT["A_THIEF_RAID"],
                                    _LAYOUT["A_WITCH_EXTRA"], _LAYOUT["A_FAERIE_CANCEL"])
HAND_CAP = 2
NEED_CAP = 3
OPP_BANDS = (2, 5, 8)
WINDOW_NEED_CAP = 2
WINDOWS = ("respond", "ninja-window", "witch-give")
THEFTS = (0, 1, 2)


def _goal_gap(view, gold: int) -> int:
    numbers = view.goal_numbers
    gaps = [x - gold for g in view.goals_down for x in numbers[g]]
    return min(gaps, key=lambda d: (abs(d), -d), default=0)


def _leader(view) -> int:
    others = [v for v in range(view.num_players) if v != view.player]
    return max(others, key=lambda v: (len(view.face_up[v]), view.gold[v], -v))


def _band(gold: int) -> int:
    return next((i for i, top in enumerate(OPP_BANDS) if gold <= top), len(OPP_BANDS))


def _compact(view, big_pile: int) -> tuple:
    player = view.player
    pending = "-"
    if view.phase == "respond" and view.pending:
        kind, who, victim, _ben, _canc = view.pending[-1]
        pending = (kind, "me" if who == player else "victim" if victim == player else "other")
    gold = view.gold[player]
    gap = _goal_gap(view, gold)
    need = "big" if gold > big_pile else max(-NEED_CAP, min(NEED_CAP, gap))
    lead = _leader(view)
    return (view.phase, pending, min(view.hand[THIEF], HAND_CAP), min(view.hand[GUARD], HAND_CAP),
            need, _band(view.gold[lead]), len(view.face_up[player]), len(view.face_up[lead]))


def reference_compact(player: int, engine) -> tuple:
    """``gold_thief_compact``."""
    return _compact(engine.player_view(player), engine.big_pile)


def reference_windows(player: int, engine) -> tuple:
    """``gold_thief_windows``."""
    view = engine.player_view(player)
    if view.phase not in WINDOWS:
        return (view.phase,)
    decision, pending, _thieves, guards, need, _band, mine, lead = _compact(view, engine.big_pile)
    if need != "big":
        need = max(-WINDOW_NEED_CAP, min(WINDOW_NEED_CAP, need))
    return (decision, pending, guards >= 2, need, mine, lead)


def _offers_choice(name: str, view) -> bool:
    if name == "gold_thief_responses":
        return view.phase in WINDOWS
    if name == "gold_thief_turns":
        return view.phase not in WINDOWS
    if name == "gold_thief_defence":
        top = view.pending[-1] if view.pending else None
        return (view.phase == "respond" and top is not None and top[0] in THEFTS
                and top[2] == view.player)
    return True


def reference_candidates(name: str, player: int, engine, legal) -> list:
    """``candidates`` of the action abstraction ``name`` (gold_thief_actions,
    _responses, _turns or _defence)."""
    view = engine.player_view(player)
    legal = sorted(legal)
    legal_set = set(legal)
    heuristic = legal[0] if len(legal) == 1 else reference_choose(view, legal_set)
    out = [heuristic] + [None] * 7

    def have(a: int):
        return a if a in legal_set else None

    out[1] = have(_END) if _END in legal_set else have(_PASS)
    phase = view.phase
    gold = view.gold[player]

    def farthest_goal(base: int):
        goals = [g for g in view.goals_down if base + g in legal_set]
        if not goals:
            return None
        g = max(goals, key=lambda g: (min(abs(gold - x) for x in view.goal_numbers[g]), -g))
        return base + g

    if phase == "play":
        others = [v for v in range(view.num_players) if v != player]
        lead_key = (lambda v: (len(view.face_up[v]), view.gold[v], -v))
        trail_key = (lambda v: (-len(view.face_up[v]), -view.gold[v], -v))
        for k, base, key in ((2, _THIEF, lead_key), (3, _GUARD, trail_key),
                             (4, _WITCH, lead_key)):
            targets = [v for v in others if base + v in legal_set]
            out[k] = base + max(targets, key=key) if targets else None
        out[5] = farthest_goal(_FAERIE)
        out[6] = have(_NINJA)
    elif phase == "respond":
        out[2], out[3], out[4], out[5] = have(_RAID), have(_CANCEL), have(_EXTRA), \
            have(_FCANCEL)
    elif phase == "ninja-window":
        out[6] = next((a for a in legal if _NINJA_SCORE <= a < _BIG_FLIP), None)
    elif phase == "witch-give":
        for k, t in ((2, THIEF), (3, GUARD), (4, WITCH), (5, FAERIE), (6, NINJA)):
            out[k] = have(_GIVE + t)
    elif phase == "big-pile-flip":
        out[7] = farthest_goal(_BIG_FLIP)
    if not _offers_choice(name, view):
        out[1:] = [None] * 7
    return out
