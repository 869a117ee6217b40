# cython: language_level=3
"""Gold Thief's heuristic bot compiled against the rules state: ``choose``.

The rules are those of ``games/gold_thief/ai.py`` (its docstring describes
them; ``GoldThiefHeuristicBot`` calls ``choose`` through ``engine_rule``).
``choose`` reads only what the deciding player may know, the fields its
``player_view`` exposes: every seat's gold and face-up goals, its own hand
and face-down goals (with their numbers), the pending effect stack and its
legal actions.  It runs without the Python view, so MCCFR's fixed
heuristic opponents (``solvers.mccfr.HeuristicOpponents``) cost a C call.
"""
from libc.string cimport memset

from src_cy.engine cimport MAX_BRANCHING
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, Effect, MAXP, NT, MAX_GOALS, THIEF, GUARD, WITCH, FAERIE, NINJA,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_GIVE, NUM_ACTIONS,
    E_THIEF, E_GUARD_CANCEL, E_WITCH_STEAL, G_DOWN, to_move, holds)

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


cpdef int choose(GoldThiefRules r, int player) except -1:
    """The heuristic's action for `player`, who must be the player to move."""
    cdef int acts[MAX_BRANCHING]
    cdef bint lg[NUM_ACTIONS]
    cdef int targets[2 * MAX_GOALS]
    cdef int ups[MAXP]
    cdef int nl, i, a, g, v, n, nt = 0, me = player
    cdef int gold, here, leader, trailer, d, best
    cdef const Effect* top = NULL
    if r is None:
        raise TypeError("choose needs a Gold Thief engine, got None")
    n = r.s.n
    if not 0 <= player < n:
        raise ValueError(f"player must be in [0, {n - 1}], got {player}")
    if to_move(r) != player:
        raise ValueError(f"player {player} is not to move (current player {to_move(r)})")
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
    leader = -1
    trailer = -1
    for v in range(n):
        ups[v] = r.up_count(v)
    for v in range(n):
        if v == me:
            continue
        # leader: most goals up, then most gold, then lowest seat
        if leader < 0 or ups[v] > ups[leader] or (
                ups[v] == ups[leader] and r.s.gold[v] > r.s.gold[leader]):
            leader = v
        # trailer: fewest goals up, then least gold, then lowest seat
        if trailer < 0 or ups[v] < ups[trailer] or (
                ups[v] == ups[trailer] and r.s.gold[v] < r.s.gold[trailer]):
            trailer = v
    if lg[A_THIEF + leader] and (_dist(targets, nt, gold + 2) <= here or ups[leader] >= 2):
        return A_THIEF + leader
    if holds(r, me, GUARD) >= 2 and _dist(targets, nt, gold - 1) < here:
        if lg[A_GUARD + trailer]:
            return A_GUARD + trailer
    if lg[A_WITCH + leader] and holds(r, me, THIEF) == 0:
        return A_WITCH + leader
    for g in range(r.num_goals):
        if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == me and lg[A_FAERIE + g]:
            d = gold - r.goal_a[g]
            best = d if d >= 0 else -d
            d = gold - r.goal_b[g]
            if d < 0:
                d = -d
            if d < best:
                best = d
            if best >= 4:
                return A_FAERIE + g
    return A_END_TURN
