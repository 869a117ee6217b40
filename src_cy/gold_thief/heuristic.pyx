# cython: language_level=3
"""Gold Thief's heuristic bot compiled against the rules state: ``choose``;
and its MCCFR abstraction's parts (``games/gold_thief/abstraction.py``):
``compact_bucket`` and ``abstract_candidates``.

The rules are those of ``games/gold_thief/ai.py`` (its docstring describes
them; ``GoldThiefHeuristicBot`` calls ``choose`` through ``engine_rule``).
``choose`` reads only what the deciding player may know, the fields its
``player_view`` exposes: every seat's gold and face-up goals, its own hand
and face-down goals (with their numbers), the pending effect stack and its
legal actions.  It runs without the Python view, so MCCFR's fixed
heuristic opponents (``solvers.mccfr.HeuristicOpponents``) cost a C call;
the abstraction's bucket and candidates likewise read the same fields
without building the view.
"""
from libc.string cimport memset

from src_cy.engine cimport MAX_BRANCHING
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, Effect, MAXP, NT, MAX_GOALS, THIEF, GUARD, WITCH, FAERIE, NINJA,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_BIG_FLIP, A_GIVE,
    NUM_ACTIONS, E_THIEF, E_RAID, E_WITCH_EXTRA, E_GUARD_CANCEL, E_WITCH_STEAL, G_DOWN,
    PH_PLAY, PH_RESPOND, PH_NINJA, PH_GIVE, PH_BIG_FLIP, to_move, holds)

from src_cy.gold_thief.rules import PHASE_NAMES

# Witch victim: the card given away first (the one valued least).
cdef int GIVE_ORDER[NT]
GIVE_ORDER[:] = [FAERIE, WITCH, THIEF, NINJA, GUARD]


cdef inline int _dist(const int* targets, int nt, int amount) noexcept nogil:
    """Distance from `amount` to the nearest target number (0 with none)."""
    cdef int i, d, best = 0
    for i in range(nt):
        d = amount - targets[i]
        if d < 0:
            d = -d
        if i == 0 or d < best:
            best = d
    return best


cdef inline int _leader(GoldThiefRules r, const int* ups, int me, const bint* among) noexcept:
    """The other seat (among those `among` marks, if given; -1 if none) with
    most goals up (`ups`), then most gold, then the lowest seat."""
    cdef int v, best = -1
    for v in range(r.s.n):
        if v == me or (among != NULL and not among[v]):
            continue
        if best < 0 or ups[v] > ups[best] or (
                ups[v] == ups[best] and r.s.gold[v] > r.s.gold[best]):
            best = v
    return best


cdef inline int _trailer(GoldThiefRules r, const int* ups, int me, const bint* among) noexcept:
    """The other seat (among those `among` marks, if given; -1 if none) with
    fewest goals up, then least gold, then the lowest seat."""
    cdef int v, best = -1
    for v in range(r.s.n):
        if v == me or (among != NULL and not among[v]):
            continue
        if best < 0 or ups[v] < ups[best] or (
                ups[v] == ups[best] and r.s.gold[v] < r.s.gold[best]):
            best = v
    return best


cdef inline int _goal_dist(GoldThiefRules r, int g, int gold) noexcept:
    """Distance from `gold` to the nearer number of goal g."""
    cdef int d = gold - r.goal_a[g], e = gold - r.goal_b[g]
    if d < 0:
        d = -d
    if e < 0:
        e = -e
    return d if d < e else e


cdef int _check(GoldThiefRules r, int player, bint moving=True) except -1:
    """TypeError / ValueError unless `player` is a seat of engine `r` (and,
    with `moving`, the one to move)."""
    if r is None:
        raise TypeError("needs a Gold Thief engine, got None")
    if not 0 <= player < r.s.n:
        raise ValueError(f"player must be in [0, {r.s.n - 1}], got {player}")
    if moving and to_move(r) != player:
        raise ValueError(f"player {player} is not to move (current player {to_move(r)})")
    return 0


cpdef int choose(GoldThiefRules r, int player) except -1:
    """The heuristic's action for `player`, who must be the player to move."""
    cdef int acts[MAX_BRANCHING]
    cdef bint lg[NUM_ACTIONS]
    cdef int targets[2 * MAX_GOALS]
    cdef int ups[MAXP]
    cdef int nl, i, a, g, v, n, nt = 0, me = player
    cdef int gold, here, leader, trailer
    cdef const Effect* top = NULL
    _check(r, player)
    n = r.s.n
    nl = r.legal_actions(acts)
    memset(lg, 0, sizeof(lg))
    for i in range(nl):
        lg[acts[i]] = True
    gold = r.s.gold[me]
    for g in range(r.num_goals):
        if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == me:
            targets[nt] = r.goal_a[g]
            targets[nt + 1] = r.goal_b[g]
            nt += 2
    here = _dist(targets, nt, gold)
    # score: the first Ninja score or big-pile flip offered
    for a in range(A_NINJA_SCORE, A_GIVE):
        if lg[a]:
            return a
    if r.s.sp > 0:
        top = &r.s.stack[r.s.sp - 1]
    # defend
    if lg[A_GUARD_CANCEL] and top != NULL:
        if top.victim == me and not _dist(targets, nt, gold - (2 if top.kind == E_THIEF else 1)) < here:
            return A_GUARD_CANCEL
    if lg[A_FAERIE_CANCEL] and top != NULL:
        if top.kind == E_WITCH_STEAL and top.victim == me:
            return A_FAERIE_CANCEL
        if top.kind == E_GUARD_CANCEL and r.s.sp >= 2 and r.s.stack[r.s.sp - 2].beneficiary == me:
            return A_FAERIE_CANCEL
    # react
    if lg[A_THIEF_RAID] and _dist(targets, nt, gold + 1) <= here:
        return A_THIEF_RAID
    if lg[A_WITCH_EXTRA] and top != NULL and top.beneficiary == me \
            and _dist(targets, nt, gold + 1) <= here:
        return A_WITCH_EXTRA
    # Witch victim
    for i in range(NT):
        if lg[A_GIVE + GIVE_ORDER[i]]:
            return A_GIVE + GIVE_ORDER[i]
    if not lg[A_END_TURN]:    # a response window: nothing worth playing
        if lg[A_PASS]:
            return A_PASS
        for a in range(NUM_ACTIONS):
            if lg[a]:
                return a
    # own turn
    if lg[A_NINJA]:
        return A_NINJA
    for v in range(n):
        ups[v] = r.up_count(v)
    leader = _leader(r, ups, me, NULL)
    trailer = _trailer(r, ups, me, NULL)
    if lg[A_THIEF + leader] and (_dist(targets, nt, gold + 2) <= here or ups[leader] >= 2):
        return A_THIEF + leader
    if holds(r, me, GUARD) >= 2 and _dist(targets, nt, gold - 1) < here:
        if lg[A_GUARD + trailer]:
            return A_GUARD + trailer
    if lg[A_WITCH + leader] and holds(r, me, THIEF) == 0:
        return A_WITCH + leader
    for g in range(r.num_goals):
        if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == me and lg[A_FAERIE + g] \
                and _goal_dist(r, g, gold) >= 4:
            return A_FAERIE + g
    return A_END_TURN


# ---------------------------------------------------------------- abstraction
# The compact bucket's caps (``games/gold_thief/abstraction.py`` documents them).
cdef enum:
    HAND_CAP = 2          # Thieves and Guards shown up to this count
    NEED_CAP = 3          # the signed distance to your goal, clipped to +-NEED_CAP
    NUM_BANDS = 3
cdef int OPP_BANDS[NUM_BANDS]
OPP_BANDS[:] = [2, 5, 8]  # upper ends of the leader's gold bands (the last band is open)

# Which decisions offer abstract actions other than ``heuristic``
# (``abstract_candidates``' `offer`).
OFFER_ALL, OFFER_WINDOWS, OFFER_TURNS, OFFER_DEFENCE = range(4)


cpdef tuple compact_bucket(GoldThiefRules r, int player):
    """``gold_thief_compact``'s bucket of `player` at `r`: (phase, pending,
    thieves, guards, need, leader band, goals up, leader's goals up)."""
    cdef int ups[MAXP]
    cdef int v, g, x, d, i, gold, gap = 0, best = -1, lead, band
    cdef const Effect* top
    _check(r, player, False)
    pending = "-"
    if r.s.phase == PH_RESPOND and r.s.sp > 0:
        top = &r.s.stack[r.s.sp - 1]
        pending = (top.kind, "me" if top.player == player else
                   "victim" if top.victim == player else "other")
    gold = r.s.gold[player]
    # signed distance to the nearest goal number (target minus gold), ties towards gaining
    for g in range(r.num_goals):
        if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == player:
            for i in range(2):
                x = (r.goal_a[g] if i == 0 else r.goal_b[g]) - gold
                d = x if x >= 0 else -x
                if best < 0 or d < best or (d == best and x > gap):
                    best, gap = d, x
    if gold > r.big_pile:
        need = "big"
    else:
        need = max(-NEED_CAP, min(NEED_CAP, gap))
    for v in range(r.s.n):
        ups[v] = r.up_count(v)
    lead = _leader(r, ups, player, NULL)
    band = NUM_BANDS
    for i in range(NUM_BANDS):
        if r.s.gold[lead] <= OPP_BANDS[i]:
            band = i
            break
    return (PHASE_NAMES[r.s.phase], pending, min(holds(r, player, THIEF), HAND_CAP),
            min(holds(r, player, GUARD), HAND_CAP), need, band, ups[player], ups[lead])


cdef int _farthest_goal(GoldThiefRules r, int player, const bint* lg, int base) noexcept:
    """base + the face-down goal of `player` with base + goal legal farthest
    from its gold (ties: lowest goal), or -1."""
    cdef int g, d, best = -1, pick = -1
    for g in range(r.num_goals):
        if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == player and lg[base + g]:
            d = _goal_dist(r, g, r.s.gold[player])
            if d > best:
                best, pick = d, g
    return -1 if pick < 0 else base + pick


cpdef list abstract_candidates(GoldThiefRules r, int player, list legal, int offer=OFFER_ALL):
    """``GoldThiefActions.candidates``: the concrete action of each abstract
    action (heuristic, keep, thief, guard, witch, faerie, ninja, flip; None
    where absent) for `player` (to move) with the sorted `legal` ids; `offer`
    (OFFER_*): where actions other than ``heuristic`` exist."""
    cdef bint lg[NUM_ACTIONS]
    cdef bint among[MAXP]
    cdef int cand[8]
    cdef int ups[MAXP]
    cdef int i, a, v, t, k, ph = r.s.phase, n
    cdef bint choice
    cdef const Effect* top
    cdef int base[3]
    cdef bint lead_key[3]
    cdef int give[5]
    _check(r, player)
    n = r.s.n
    memset(lg, 0, sizeof(lg))
    for a in legal:
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {a} is not a Gold Thief action id")
        lg[a] = True
    for k in range(8):
        cand[k] = -1
    cand[0] = legal[0] if len(legal) == 1 else choose(r, player)
    if offer == OFFER_ALL:
        choice = True
    elif offer == OFFER_WINDOWS:
        choice = ph == PH_RESPOND or ph == PH_NINJA or ph == PH_GIVE
    elif offer == OFFER_TURNS:
        choice = not (ph == PH_RESPOND or ph == PH_NINJA or ph == PH_GIVE)
    else:
        choice = False
        if ph == PH_RESPOND and r.s.sp > 0:
            top = &r.s.stack[r.s.sp - 1]
            choice = (top.kind == E_THIEF or top.kind == E_RAID or top.kind == E_WITCH_EXTRA) \
                and top.victim == player
    if choice:
        cand[1] = A_END_TURN if lg[A_END_TURN] else A_PASS if lg[A_PASS] else -1
        if ph == PH_PLAY:
            for v in range(n):
                ups[v] = r.up_count(v)
            base[:] = [A_THIEF, A_GUARD, A_WITCH]
            lead_key[:] = [True, False, True]
            for k in range(3):
                for v in range(n):
                    among[v] = lg[base[k] + v]
                v = _leader(r, ups, player, among) if lead_key[k] else \
                    _trailer(r, ups, player, among)
                if v >= 0:
                    cand[2 + k] = base[k] + v
            cand[5] = _farthest_goal(r, player, lg, A_FAERIE)
            if lg[A_NINJA]:
                cand[6] = A_NINJA
        elif ph == PH_RESPOND:
            for k, a in enumerate((A_THIEF_RAID, A_GUARD_CANCEL, A_WITCH_EXTRA, A_FAERIE_CANCEL)):
                if lg[a]:
                    cand[2 + k] = a
        elif ph == PH_NINJA:
            for a in range(A_NINJA_SCORE, A_BIG_FLIP):
                if lg[a]:
                    cand[6] = a
                    break
        elif ph == PH_GIVE:
            give[:] = [THIEF, GUARD, WITCH, FAERIE, NINJA]
            for k in range(5):
                if lg[A_GIVE + give[k]]:
                    cand[2 + k] = A_GIVE + give[k]
        elif ph == PH_BIG_FLIP:
            cand[7] = _farthest_goal(r, player, lg, A_BIG_FLIP)
    return [None if cand[k] < 0 else cand[k] for k in range(8)]
