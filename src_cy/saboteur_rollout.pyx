# cython: language_level=3
"""Saboteur heuristic rollout policy for the engine-speed ISMCTS.

``SaboteurRollout`` (a ``RolloutPolicy``) and ``rollout_choice`` (the same
code for the pyspiel twin in ``solvers/rollouts.py``) read the engine state
through ``saboteur.pxd`` and the action ids through ``saboteur_actions.pxd``,
so the rules engine itself imports nothing from the search.
"""
from src_cy.engine cimport Engine, Rng, rng_int, rng_double, MAX_BRANCHING
from src_cy.ismcts cimport RolloutPolicy
from src_cy.saboteur cimport (SaboteurEngine, SabState, SabConf, sab_grid_of, sab_doff,
                              sab_known_goal, rot180, TUN_EDGES, TUN_PASS, NO_SCORE,
                              PH_PLAY, PH_SHARE, CB_GOAL, CB_OCC, CB_REACH, CB_PASS,
                              CODE_GOAL)
from src_cy.saboteur_actions cimport (A_ROCK_BLOCK, A_TAIL_BLOCK, A_STRIDE, A_REPAIR,
                                      A_MAP)


cdef int pick_min(int* actions, int* score, int n, Rng* rng) noexcept nogil:
    """Uniform draw among the actions of lowest score (one ``rng_int``);
    -1, drawing nothing, when every score is ``NO_SCORE``."""
    cdef int i, k, best = NO_SCORE, cnt = 0
    for i in range(n):
        if score[i] < best:
            best = score[i]
            cnt = 1
        elif score[i] == best:
            cnt += 1
    if best == NO_SCORE:
        return -1
    k = rng_int(rng, cnt)
    for i in range(n):
        if score[i] == best:
            if k == 0:
                return actions[i]
            k -= 1
    return -1



cdef int rollout_targets(const SabState* s, int p) noexcept nogil:
    """Goal slots ``p`` digs towards (bit mask): the treasure if ``p`` knows
    where it is, else every face-down goal ``p`` does not know is a stone."""
    cdef int slot, known, mask = 0
    for slot in range(3):
        if s.goal_up[slot]:
            continue
        known = sab_known_goal(s, p, slot)
        if known == 0:
            return 1 << slot
        if known < 0:
            mask |= 1 << slot
    return mask if mask else 7


cdef int goal_dist(const SabConf* c, int g, int mask) noexcept nogil:
    """Manhattan steps from grid cell ``g`` to the nearest goal in ``mask``."""
    cdef int x = g % c.W - c.R - 1, y = g // c.W - c.R - 1
    cdef int slot, dx, dy, best = NO_SCORE
    for slot in range(3):
        if (mask >> slot) & 1:
            dx = c.gd - x
            dy = 2 * slot - 2 - y
            dx = dx if dx >= 0 else -dx
            dy = dy if dy >= 0 else -dy
            if dx + dy < best:
                best = dx + dy
    return best


cdef int lead_dist(const SabConf* c, const SabState* s, int g, int e, int mask) noexcept nogil:
    """How near a target a path card with open edges ``e`` at cell ``g``
    leads: 0 if an edge opens onto a face-down target goal, else the
    distance of the nearest empty cell an edge opens onto (a card that
    opens onto no empty cell scores its own distance + 2)."""
    cdef int d, nb, nv, dd, best = NO_SCORE
    for d in range(4):
        if not (e >> d) & 1:
            continue
        nb = g + sab_doff(c, d)
        nv = s.cell[nb]
        if nv & CB_GOAL:
            if (mask >> (((nv >> 8) & 31) - CODE_GOAL)) & 1:
                return 0
            continue
        if nv & CB_OCC:
            continue
        dd = goal_dist(c, nb, mask)
        if dd < best:
            best = dd
    if best == NO_SCORE:
        best = goal_dist(c, g, mask) + 2
    return best


cdef int rollout_pick(const SabConf* c, const SabState* s, int* actions, int n, Rng* rng) noexcept nogil:
    """Role-aware rollout move of the player to move (see ``SaboteurRollout``)."""
    cdef int score[MAX_BRANCHING]
    cdef int p = s.cur, C = c.C, base = A_TAIL_BLOCK * c.C
    cdef int i, a, k, o, g, e, mask, fd, pick
    if s.phase == PH_SHARE:
        # Keep the most valuable gold card, hand on the least valuable.
        return actions[n - 1] if s.gq[s.gqi] == p else actions[0]
    for i in range(n):
        a = actions[i]
        if base + A_REPAIR <= a < base + A_MAP and (a - base - A_REPAIR) % A_STRIDE == p:
            return a
    mask = rollout_targets(s, p)
    if s.role[p] == 0:
        for i in range(n):
            a = actions[i]
            score[i] = NO_SCORE
            if a < A_ROCK_BLOCK * C:
                k = (a // C) >> 1
                if TUN_PASS[k]:
                    e = TUN_EDGES[k] if (a // C) & 1 == 0 else rot180(TUN_EDGES[k])
                    score[i] = lead_dist(c, s, sab_grid_of(c, a % C), e, mask)
        if rng_double(rng) < 0.9:
            pick = pick_min(actions, score, n, rng)
            if pick >= 0:
                return pick
        # Anything that does not harm the diggers' path or tools.
        for i in range(n):
            a = actions[i]
            if a < A_ROCK_BLOCK * C:
                score[i] = 0 if TUN_PASS[(a // C) >> 1] else NO_SCORE
            else:
                score[i] = NO_SCORE if a < base + A_REPAIR else 0
    else:
        if rng_double(rng) < 0.8:
            fd = NO_SCORE
            for i in range(s.nfr):
                fd = min(fd, goal_dist(c, s.fr[i], mask))
            if fd <= 2:
                for i in range(n):
                    a = actions[i]
                    score[i] = NO_SCORE
                    if A_ROCK_BLOCK * C <= a < base:
                        g = sab_grid_of(c, a - A_ROCK_BLOCK * C)
                        if (s.cell[g] & CB_REACH) and (s.cell[g] & CB_PASS):
                            score[i] = goal_dist(c, g, mask)
                pick = pick_min(actions, score, n, rng)
                if pick >= 0:
                    return pick
            for i in range(n):
                a = actions[i]
                score[i] = NO_SCORE
                if a < A_ROCK_BLOCK * C and not TUN_PASS[(a // C) >> 1]:
                    score[i] = goal_dist(c, sab_grid_of(c, a % C), mask)
            pick = pick_min(actions, score, n, rng)
            if pick >= 0:
                return pick
            for i in range(n):
                score[i] = 0 if base <= actions[i] < base + A_REPAIR else NO_SCORE
            pick = pick_min(actions, score, n, rng)
            if pick >= 0:
                return pick
        # Anything that does not help the diggers (open paths, repairs).
        for i in range(n):
            a = actions[i]
            if a < A_ROCK_BLOCK * C:
                score[i] = NO_SCORE if TUN_PASS[(a // C) >> 1] else 0
            else:
                score[i] = NO_SCORE if base + A_REPAIR <= a < base + A_MAP else 0
    pick = pick_min(actions, score, n, rng)
    if pick >= 0:
        return pick
    return actions[rng_int(rng, n)]


def rollout_choice(SaboteurEngine engine, actions, rng_state) -> tuple:
    """The heuristic rollout move among ``actions`` (the sorted legal actions
    of ``engine``) drawing from a splitmix64 stream at ``rng_state``:
    ``(action, new rng state)``.  Same code and draws as ``SaboteurRollout``,
    for the pyspiel twin in ``solvers/rollouts.py``."""
    cdef int buf[MAX_BRANCHING]
    cdef Rng r
    cdef int n = len(actions), i
    if engine.s.phase != PH_PLAY and engine.s.phase != PH_SHARE:
        raise ValueError("rollout_choice needs a decision node (the engine is at a "
                         "chance or terminal node)")
    if not 1 <= n <= MAX_BRANCHING:
        raise ValueError(f"rollout_choice needs 1..{MAX_BRANCHING} actions, got {n}")
    for i in range(n):
        buf[i] = actions[i]
    r.s = rng_state
    a = rollout_pick(engine.p, &engine.s, buf, n, &r)
    return a, r.s


cdef class SaboteurRollout(RolloutPolicy):
    """Role-aware ISMCTS rollouts for Saboteur (``rollout="heuristic"``).

    The player to move in the rollout world plays from its own role, hand and
    goal knowledge (``rollout_pick``):

    * gold hand-out: keep the most valuable card, hand on the least valuable;
    * repair one's own broken tool whenever a repair card fits;
    * gold-digger: with probability 0.9 the open path card that leads nearest
      a target goal (the treasure if known, else any face-down goal not known
      to be a stone), ties uniform; else uniform among moves that do not harm
      the diggers (no dead ends, rockfalls or broken tools);
    * saboteur: with probability 0.8 a rockfall on the joined path card
      nearest a target when the frontier is within 2 steps of one, else a
      dead end on the frontier cell nearest a target, else breaking a tool
      of a uniformly drawn other player; else uniform among moves that do
      not help the diggers (no open paths, no repairs);
    * when no move qualifies, uniform among all.
    """

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        if isinstance(e, SaboteurEngine):
            return rollout_pick((<SaboteurEngine>e).p, &(<SaboteurEngine>e).s, actions, n, rng)
        return actions[rng_int(rng, n)]
