# cython: language_level=3
"""Saboteur heuristic rollout policy and leaf evaluation for the
engine-speed ISMCTS.

``SaboteurRollout`` (a ``RolloutPolicy``; its pyspiel twin
``games.saboteur.saboteur_rollout`` runs it through
``src_cy.ismcts.rollout_choice``) reads the engine state through ``rules.pxd`` and the action ids through
``actions.pxd``, so the rules engine itself imports nothing from the
search.  ``SaboteurRollout(cutoff=N)`` ends a rollout after N rollout
decisions with ``leaf_values``: a role-aware static evaluation of the world
(the maze distance to the treasure, the cards left, the gold-diggers' broken
tools), in the units of the game's returns; ``py_leaf_values`` is its
Python entry for the pyspiel twin.
"""
from libc.math cimport exp
from libc.string cimport memset
from src_cy.engine cimport Engine, Rng, rng_int, rng_double, MAX_BRANCHING
from src_cy.ismcts cimport RolloutPolicy
from src_cy.saboteur.rules cimport (SaboteurRules, SabState, SabConf, sab_doff,
                              sab_known_goal, rot180, TUN_EDGES, TUN_PASS, NO_SCORE,
                              PH_PLAY, PH_SHARE, CB_GOAL, CB_OCC, CB_REACH, CB_PASS,
                              CODE_GOAL, MAXCELLS, MAXP, UTIL_GOLD, SAB_PAY)
from src_cy.saboteur.actions cimport A_STRIDE, A_REPAIR, A_MAP
from src_cy.saboteur.maze cimport goal_dist


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
    # Placement ids target ``s.front[a % F]``, rockfall ids ``s.tun[a - rock0]``
    # (``actions.pxd``).
    cdef int p = s.cur, F = c.F, rock0 = c.rock0, base = c.tail0
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
            if a < rock0:
                k = (a // F) >> 1
                if TUN_PASS[k]:
                    e = TUN_EDGES[k] if (a // F) & 1 == 0 else rot180(TUN_EDGES[k])
                    score[i] = lead_dist(c, s, s.front[a % F], e, mask)
        if rng_double(rng) < 0.9:
            pick = pick_min(actions, score, n, rng)
            if pick >= 0:
                return pick
        # Anything that does not harm the diggers' path or tools.
        for i in range(n):
            a = actions[i]
            if a < rock0:
                score[i] = 0 if TUN_PASS[(a // F) >> 1] else NO_SCORE
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
                    if rock0 <= a < base:
                        g = s.tun[a - rock0]
                        if (s.cell[g] & CB_REACH) and (s.cell[g] & CB_PASS):
                            score[i] = goal_dist(c, g, mask)
                pick = pick_min(actions, score, n, rng)
                if pick >= 0:
                    return pick
            for i in range(n):
                a = actions[i]
                score[i] = NO_SCORE
                if a < rock0 and not TUN_PASS[(a // F) >> 1]:
                    score[i] = goal_dist(c, s.front[a % F], mask)
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
            if a < rock0:
                score[i] = NO_SCORE if TUN_PASS[(a // F) >> 1] else 0
            else:
                score[i] = NO_SCORE if base + A_REPAIR <= a < base + A_MAP else 0
    pick = pick_min(actions, score, n, rng)
    if pick >= 0:
        return pick
    return actions[rng_int(rng, n)]


# ----------------------------------------------------------------------
# Leaf evaluation: maze distance, features, P(gold-diggers win), values
# ----------------------------------------------------------------------
cdef enum:
    # Maze distance when no target can be reached (as ``maze_distance`` in
    # games/saboteur/search.py).
    EVAL_LIMIT = 40
    NFEAT = 6

# P(gold-diggers win | features) = 1 / (1 + exp(-(w . f))), f = leaf_features;
# weights fitted by logistic regression on SaboteurRollout self-play
# (``python -m experiments.saboteur_eval_fit --rounds 3000 --seed 1``: held-out
# log loss 0.327 against 0.498 for the base rate; docs/ai.md).
cdef double EVAL_W[NFEAT]
EVAL_W[:] = [0.8286, -5.8924, 1.6608, 2.2762, -1.2114, -8.1993]
#: The weights as Python floats (for tests and documentation).
EVAL_WEIGHTS = tuple([EVAL_W[i] for i in range(NFEAT)])


cdef int maze_distance(const SabConf* c, const SabState* s, int mask) noexcept nogil:
    """Cards the gold-diggers still need to reach a face-down goal in
    ``mask``: 1 + the empty cells on a shortest 4-connected walk from the
    frontier to a cell next to such a goal (cards and other goals block the
    walk, which stays in the box -gd <= x <= 2 gd, |y| <= gd); 0 if no goal
    of ``mask`` is face down; ``EVAL_LIMIT`` if none can be reached.  The
    same number as ``games.saboteur.search.maze_distance`` on the public
    maze (tested)."""
    cdef int queue[MAXCELLS]
    cdef unsigned char dist[MAXCELLS]
    cdef int slot, i, head = 0, tail = 0, g, nb, d, k, x, y, ntarget = 0
    cdef int tcell[3]
    for slot in range(3):
        if (mask >> slot) & 1 and not s.goal_up[slot]:
            tcell[ntarget] = s.goal_cell[slot]
            ntarget += 1
    if ntarget == 0:
        return 0
    memset(dist, 0, c.W * c.W)
    for i in range(s.nfr):
        g = s.fr[i]
        if dist[g] == 0:
            dist[g] = 1
            queue[tail] = g
            tail += 1
    while head < tail:
        g = queue[head]
        head += 1
        k = dist[g]
        if k >= EVAL_LIMIT:
            break
        for d in range(4):
            nb = g + sab_doff(c, d)
            for i in range(ntarget):
                if nb == tcell[i]:
                    return k
            if dist[nb] or (s.cell[nb] & CB_OCC):
                continue
            x = nb % c.W - c.R - 1
            y = nb // c.W - c.R - 1
            if not (-c.gd <= x <= 2 * c.gd and -c.gd <= y <= c.gd
                    and -c.R <= x <= c.R and -c.R <= y <= c.R):
                continue
            dist[nb] = k + 1
            queue[tail] = nb
            tail += 1
    return EVAL_LIMIT


cdef int treasure_slot(const SabState* s) noexcept nogil:
    cdef int slot
    for slot in range(3):
        if s.goal_id[slot] == 0:
            return slot
    return -1


cdef void leaf_features(const SabConf* c, const SabState* s, double* f) noexcept nogil:
    """The evaluation's features of a world (roles and goals known):
    1, d / 10, (d / 10)^2, cards left per player / 10 (deck and hands),
    share of gold-diggers with a broken tool, share of saboteurs; d is
    :func:`maze_distance` to the treasure, capped at 20."""
    cdef int p, ndig = 0, nsab = 0, nbroken = 0, left = s.deck_n, d
    cdef int t = treasure_slot(s)
    d = maze_distance(c, s, 1 << t) if t >= 0 else EVAL_LIMIT
    if d > 20:
        d = 20
    for p in range(c.n):
        left += s.hand_n[p]
        if s.role[p] == 0:
            ndig += 1
            if s.broken[p][0] or s.broken[p][1] or s.broken[p][2]:
                nbroken += 1
        else:
            nsab += 1
    f[0] = 1.0
    f[1] = d / 10.0
    f[2] = f[1] * f[1]
    f[3] = left / (10.0 * c.n)
    f[4] = nbroken / <double>ndig if ndig else 1.0
    f[5] = nsab / <double>c.n


cdef double dig_win_prob(const SabConf* c, const SabState* s) noexcept nogil:
    """P(the gold-diggers win this round) under the fitted logistic model."""
    cdef double f[NFEAT]
    cdef double z = 0.0
    cdef int i
    leaf_features(c, s, f)
    for i in range(NFEAT):
        z += EVAL_W[i] * f[i]
    return 1.0 / (1.0 + exp(-z))


cdef bint leaf_values(const SabConf* c, const SabState* s, double* out) noexcept nogil:
    """Values of every player in a world in the middle of a round's play
    (False elsewhere): gold banked so far plus this round's expectation,
    P(diggers win) times the mean value of the gold pile for a gold-digger,
    P(saboteurs win) times a saboteur's pay for a saboteur (utility
    ``gold``); with utility ``win``, P(the player's team wins)."""
    cdef int p, nsab = 0, npile
    cdef double pd, pile
    if s.phase != PH_PLAY:
        return False
    pd = dig_win_prob(c, s)
    for p in range(c.n):
        nsab += s.role[p] == 1
    npile = s.gold_pool[0] + s.gold_pool[1] + s.gold_pool[2]
    pile = (s.gold_pool[0] + 2.0 * s.gold_pool[1] + 3.0 * s.gold_pool[2]) / npile if npile else 0.0
    for p in range(c.n):
        if c.util == UTIL_GOLD:
            out[p] = (s.gold[p][0] + 2 * s.gold[p][1] + 3 * s.gold[p][2] + s.sab_gold[p]
                      + (pd * pile if s.role[p] == 0 else (1.0 - pd) * SAB_PAY[nsab]))
        else:
            out[p] = pd if s.role[p] == 0 else 1.0 - pd
    return True


def py_maze_distance(SaboteurRules engine, int mask) -> int:
    """:func:`maze_distance` of ``engine``'s maze to the goal slots in ``mask``."""
    if not 0 <= mask <= 7:
        raise ValueError(f"mask must be a goal-slot bit mask in 0..7, got {mask}")
    return maze_distance(engine.p, &engine.s, mask)


def py_leaf_features(SaboteurRules engine) -> list:
    """The evaluation's features of ``engine``'s world (``leaf_features``)."""
    cdef double f[NFEAT]
    leaf_features(engine.p, &engine.s, f)
    return [f[i] for i in range(NFEAT)]


def py_leaf_values(SaboteurRules engine):
    """Per-player leaf values of ``engine``'s world (``leaf_values``), or
    None outside the play of a round."""
    cdef double out[MAXP]
    if not leaf_values(engine.p, &engine.s, out):
        return None
    return [out[p] for p in range(engine.p.n)]


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

    ``cutoff`` > 0: the rollout ends before its ``cutoff``-th decision made
    during a round's play with :func:`leaf_values` (0: play to the end).
    """
    cdef readonly int cutoff

    def __init__(self, int cutoff=0):
        if cutoff < 0:
            raise ValueError(f"cutoff must be >= 0, got {cutoff}")
        self.cutoff = cutoff

    cdef int choose(self, Engine e, int* actions, int n, Rng* rng) noexcept:
        if isinstance(e, SaboteurRules):
            return rollout_pick((<SaboteurRules>e).p, &(<SaboteurRules>e).s, actions, n, rng)
        return actions[rng_int(rng, n)]

    cdef bint leaf_value(self, Engine e, int steps, double* out) noexcept:
        if self.cutoff <= 0 or steps < self.cutoff or not isinstance(e, SaboteurRules):
            return False
        return leaf_values((<SaboteurRules>e).p, &(<SaboteurRules>e).s, out)
