# cython: language_level=3
"""Saboteur's casual-dwarf heuristic compiled against the rules kernel.

``choose(engine, player)`` is the one implementation of the rules of
``games.saboteur.ai.SaboteurHeuristicBot`` (its module docstring states
them; ``SaboteurHeuristicBot.engine_rule`` is this function), so bots,
abstractions and the solvers' fixed heuristic opponents play the same move
at C speed.  It reads only what ``player_view(player)`` exposes: the public
maze (cards, the reachable frontier ``fr``), everybody's broken tools, the
player's own hand and role, the goals the player knows (``sab_known_goal``)
and the public plays of the round.  Legality is the kernel's own list.

Every tie-break is the Python rules' (kept in the tests as the reference
oracle): sorted candidates compare (steps to the target, -edges towards
it, action id), victims (suspicion, seat), and discards follow the role's
order of kinds.
"""
from libc.string cimport memset

from src_cy.engine cimport MAX_BRANCHING, CHANCE_PLAYER, TERMINAL_PLAYER
from src_cy.saboteur.rules cimport (SaboteurRules, SabConf, SabState, sab_known_goal, rot180,
                                    TUN_EDGES, REPAIR_MASK, NKINDS, NTUN, K_MAP, K_ROCK,
                                    K_BREAK, K_REPAIR, MAXP, PH_PLAY, PH_SHARE)
from src_cy.saboteur.actions cimport (A_STRIDE, A_BREAK, A_REPAIR, A_MAP, A_PASS, A_KEEP,
                                      A_HAND_ON, A_TAIL_SIZE)
from src_cy.saboteur.maze cimport cell_x, cell_y, goal_dist

from src_cy.saboteur.render import PHASE_NAMES

cdef enum:
    # Steps to the target when the reachable frontier is empty (the Python
    # rules' ``default=99``).
    FAR = 99
    NPATHS = 7
    # Edge bits of a tunnel card (``catalog.pxi``).
    EDGE_N = 1
    EDGE_E = 2
    EDGE_S = 4
    EDGE_W = 8

# Goal places in the order an unknown target is preferred: middle, north, south.
cdef int GOAL_PREFERENCE[3]
GOAL_PREFERENCE[:] = [1, 0, 2]
# Discard orders when passing, least valued first: the heuristic's (a
# digger's map goes before the breaks once the treasure is known) and the
# abstraction's ``pass`` (``abstract_candidates``).
cdef int DISCARD_SABOTEUR[NKINDS]
DISCARD_SABOTEUR[:] = [0, 1, 2, 3, 4, 5, 6, 21, 22, 23, 24, 25, 26, 16,
                       7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20]
cdef int DISCARD_DIGGER[NKINDS]
DISCARD_DIGGER[:] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 16, 17,
                     21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6]
cdef int DISCARD_DIGGER_MAP_FIRST[NKINDS]
DISCARD_DIGGER_MAP_FIRST[:] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 17,
                               21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6]
cdef int DISCARD_DIGGER_ABSTRACT[NKINDS]
DISCARD_DIGGER_ABSTRACT[:] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 16,
                              21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6]

cdef enum:
    # Which rockfalls ``nearest_rockfall`` considers.
    ROCK_DIGGER_CLEAR = 0     # dead ends off the goal column (the heuristic's digger)
    ROCK_NOT_START = 1        # any tunnel card but the start (the heuristic's saboteur)
    ROCK_DEAD_END = 2         # dead ends (the abstraction's ``clear``)
    ROCK_PATH = 3             # open paths (the abstraction's ``block`` fallback)


cdef struct Ctx:
    # One decision: the mover, its target goal's place (tx, ty), which tail
    # actions (``actions.pxd`` offsets) are legal and, once ``fill_suspicion``
    # ran, every player's suspicion.
    int me, tx, ty, treasure_known
    int sus[MAXP]
    unsigned char tail_ok[A_TAIL_SIZE]


cdef inline bint tail_legal(const Ctx* x, int off) noexcept nogil:
    return x.tail_ok[off] != 0


cdef int target_goal(const SabState* s, int me, int* treasure_known) noexcept nogil:
    """The target goal place: the treasure if ``me`` knows it, else the first
    unknown goal in ``GOAL_PREFERENCE`` order, else the middle."""
    cdef int g
    treasure_known[0] = 0
    for g in range(3):
        if sab_known_goal(s, me, g) == 0:
            treasure_known[0] = 1
            return g
    for g in range(3):
        if sab_known_goal(s, me, GOAL_PREFERENCE[g]) < 0:
            return GOAL_PREFERENCE[g]
    return GOAL_PREFERENCE[0]


cdef int best_placement(const SabConf* c, const SabState* s, const Ctx* x, const int* legal,
                        int n, bint dead_ends, int* best_dist, int* best_towards) noexcept nogil:
    """The legal placement of an open path (or, with ``dead_ends``, a dead
    end) minimising (steps to the target, -open edges towards it, id); -1
    if none.  Writes its steps and edges towards the target."""
    cdef int i, a, k, o, g, px, py, e, d, tw, best = -1, bd = 0, bt = 0
    for i in range(n):
        a = legal[i]
        if a >= c.rock0:
            continue
        k = (a // c.F) >> 1
        if (k >= NPATHS) != dead_ends:
            continue
        o = (a // c.F) & 1
        g = s.front[a % c.F]
        px = cell_x(c, g)
        py = cell_y(c, g)
        e = rot180(TUN_EDGES[k]) if o else TUN_EDGES[k]
        tw = 0
        if e & EDGE_E and x.tx > px:
            tw += 1
        if e & EDGE_W and x.tx < px:
            tw += 1
        if e & EDGE_S and x.ty > py:
            tw += 1
        if e & EDGE_N and x.ty < py:
            tw += 1
        d = abs(x.tx - px) + abs(x.ty - py)
        if best < 0 or d < bd or (d == bd and (tw > bt or (tw == bt and a < best))):
            best, bd, bt = a, d, tw
    best_dist[0] = bd
    best_towards[0] = bt
    return best


cdef int nearest_rockfall(const SabConf* c, const SabState* s, const Ctx* x, const int* legal,
                          int n, int which) noexcept nogil:
    """The legal rockfall minimising (steps to the target, id) among the
    cards ``which`` names (``ROCK_*``); -1 if none."""
    cdef int i, a, g, d, code, best = -1, bd = 0
    cdef int start = (c.R + 1) * c.W + c.R + 1
    for i in range(n):
        a = legal[i]
        if a < c.rock0 or a >= c.tail0:
            continue
        g = s.tun[a - c.rock0]
        code = (s.cell[g] >> 8) & 31
        if which == ROCK_NOT_START:
            if g == start:
                continue
        elif (code >= NPATHS) != (which != ROCK_PATH):
            continue
        elif which == ROCK_DIGGER_CLEAR and cell_x(c, g) == c.gd:
            continue
        d = abs(x.tx - cell_x(c, g)) + abs(x.ty - cell_y(c, g))
        if best < 0 or d < bd or (d == bd and a < best):
            best, bd = a, d
    return best


cdef int repair_of(const SabState* s, const Ctx* x, int q) noexcept nogil:
    """Mend ``q``'s first broken tool (pickaxe, lamp, cart) with the first
    fitting repair card held; -1 if none."""
    cdef int t, r, off
    for t in range(3):
        if not s.broken[q][t]:
            continue
        for r in range(6):
            off = A_REPAIR + A_STRIDE * (3 * r + t) + q
            if (REPAIR_MASK[r] >> t) & 1 and tail_legal(x, off):
                return off
    return -1


cdef int break_of(const Ctx* x, const int* victims, int nv) noexcept nogil:
    """Break the first legal tool (pickaxe, lamp, cart) of the first victim;
    -1 if none."""
    cdef int i, t, off
    for i in range(nv):
        for t in range(3):
            off = A_BREAK + A_STRIDE * t + victims[i]
            if tail_legal(x, off):
                return off
    return -1


cdef int map_unknown(const SabState* s, const Ctx* x) noexcept nogil:
    """Look at the first unknown goal in preference order while the treasure
    is unknown; -1 if none."""
    cdef int i, g
    if x.treasure_known:
        return -1
    for i in range(3):
        g = GOAL_PREFERENCE[i]
        if sab_known_goal(s, x.me, g) < 0 and tail_legal(x, A_MAP + g):
            return A_MAP + g
    return -1


cdef int others_by_suspicion(const SabConf* c, const Ctx* x, int* out, bint most_first,
                             int lo, int hi) noexcept nogil:
    """The other players with ``lo <= suspicion < hi`` sorted by (suspicion,
    seat), or (-suspicion, seat) with ``most_first``; their number."""
    cdef int q, m = 0, j, key, kq
    for q in range(c.n):
        if q == x.me or not (lo <= x.sus[q] < hi):
            continue
        kq = -x.sus[q] if most_first else x.sus[q]
        j = m
        while j > 0:
            key = -x.sus[out[j - 1]] if most_first else x.sus[out[j - 1]]
            if key <= kq:
                break
            out[j] = out[j - 1]
            j -= 1
        out[j] = q
        m += 1
    return m


cdef int first_pass(const SabState* s, const Ctx* x, const int* order) noexcept nogil:
    """Pass discarding the first held kind of ``order`` (all ``NKINDS``
    kinds) whose pass is legal: its tail offset; -1 if none."""
    cdef int i, k
    for i in range(NKINDS):
        k = order[i]
        if s.hand[x.me][k] and tail_legal(x, A_PASS + k):
            return A_PASS + k
    return -1


cdef int choose_pass(const SabState* s, const Ctx* x, bint digger, const int* legal,
                     int n, int tail0) noexcept nogil:
    """The heuristic's pass: discarding by the role's order; else the first
    legal pass; else the first legal action."""
    cdef int i, k, off, best = -1
    cdef const int* order = DISCARD_SABOTEUR
    if digger:
        order = <const int*>DISCARD_DIGGER_MAP_FIRST if x.treasure_known else <const int*>DISCARD_DIGGER
    off = first_pass(s, x, order)
    if off >= 0:
        return tail0 + off
    for k in range(NKINDS):
        if tail_legal(x, A_PASS + k):
            return tail0 + A_PASS + k
    for i in range(n):
        if best < 0 or legal[i] < best:
            best = legal[i]
    return best


cdef void fill_suspicion(const SabConf* c, const SabState* s, Ctx* x) noexcept nogil:
    """This round's suspicion of every player into ``x.sus``: +2 per
    rockfall or dead end played, +1 per tool broken, -1 per open path
    placed."""
    cdef int i, k
    cdef const int* row
    for i in range(c.n):
        row = s.played[i]
        x.sus[i] = 2 * row[K_ROCK] + row[K_BREAK] + row[K_BREAK + 1] + row[K_BREAK + 2]
        for k in range(NPATHS):
            x.sus[i] -= row[k]
        for k in range(NPATHS, NTUN):
            x.sus[i] += 2 * row[k]


cdef int init_ctx(const SabConf* c, const SabState* s, int me, const int* legal, int n,
                  Ctx* x) noexcept nogil:
    """Fill ``x`` for ``me`` deciding among ``legal`` (suspicion apart,
    ``fill_suspicion``): the legal tail actions and the target goal;
    returns the target's steps from the reachable frontier (``FAR`` if it
    is empty)."""
    cdef int i, off, g, front = FAR
    x.me = me
    memset(x.tail_ok, 0, A_TAIL_SIZE)
    for i in range(n):
        off = legal[i] - c.tail0
        if 0 <= off < A_TAIL_SIZE:
            x.tail_ok[off] = 1
    g = target_goal(s, me, &x.treasure_known)
    x.tx = c.gd
    x.ty = 2 * g - 2
    for i in range(s.nfr):
        front = min(front, goal_dist(c, s.fr[i], 1 << g))
    return front


cdef int sab_heuristic_pick(const SabConf* c, const SabState* s, int me, const int* legal,
                            int n) noexcept nogil:
    """The heuristic's move for ``me`` among the ``n`` legal actions
    ``legal`` (any order) of the kernel state ``s`` (see the module doc)."""
    cdef Ctx x
    cdef int victims[MAXP]
    cdef int i, a, off, nv, front, pd, pt, best
    cdef int tail0 = c.tail0
    cdef bint digger = s.role[me] == 0
    # Gold hand-out (the only phase where keep and hand-on ids are legal):
    # keep the most valuable card, hand on the least valuable.
    best = -1
    if s.phase == PH_SHARE:
        for i in range(n):
            off = legal[i] - tail0
            if A_KEEP <= off < A_KEEP + 3 and legal[i] > best:
                best = legal[i]
        if best >= 0:
            return best
        for i in range(n):
            off = legal[i] - tail0
            if A_HAND_ON <= off < A_HAND_ON + 3 and (best < 0 or legal[i] < best):
                best = legal[i]
        if best >= 0:
            return best

    front = init_ctx(c, s, me, legal, n, &x)
    off = repair_of(s, &x, me)
    if off >= 0:
        return tail0 + off
    if digger:
        best = best_placement(c, s, &x, legal, n, False, &pd, &pt)
        if best >= 0 and pd <= front + 1 and pt > 0:
            return best
        a = nearest_rockfall(c, s, &x, legal, n, ROCK_DIGGER_CLEAR)
        if a >= 0:
            return a
        off = map_unknown(s, &x)
        if off >= 0:
            return tail0 + off
        fill_suspicion(c, s, &x)
        nv = others_by_suspicion(c, &x, victims, True, 2, 1 << 30)
        off = break_of(&x, victims, nv)
        if off >= 0:
            return tail0 + off
        nv = others_by_suspicion(c, &x, victims, False, -(1 << 30), 2)
        for i in range(nv):
            off = repair_of(s, &x, victims[i])
            if off >= 0:
                return tail0 + off
        if best >= 0:
            return best
    else:
        fill_suspicion(c, s, &x)
        nv = others_by_suspicion(c, &x, victims, False, -(1 << 30), 1 << 30)
        off = break_of(&x, victims, nv)
        if off >= 0:
            return tail0 + off
        if front <= 3:
            a = nearest_rockfall(c, s, &x, legal, n, ROCK_NOT_START)
            if a >= 0:
                return a
        best = best_placement(c, s, &x, legal, n, True, &pd, &pt)
        if best >= 0 and pd <= front:
            return best
        off = map_unknown(s, &x)
        if off >= 0:
            return tail0 + off
    return choose_pass(s, &x, digger, legal, n, tail0)


cdef int check_mover(SaboteurRules engine, int player) except -1:
    """ValueError unless ``player`` is to move at a decision node of ``engine``."""
    cdef int cur = engine.current_player()
    if cur < 0:
        raise ValueError("the Saboteur heuristic moves at decision nodes only (the engine "
                         f"is at a {'terminal' if cur == TERMINAL_PLAYER else 'chance'} node)")
    if player != cur:
        raise ValueError(f"player {player} is not to move (player {cur} is)")
    return 0


cpdef int choose(SaboteurRules engine, int player) except -1:
    """The heuristic's move for ``player``, the player to move in ``engine``
    (``SaboteurHeuristicBot``'s rules; see the module doc).  ValueError at a
    chance or terminal node or when ``player`` is not to move."""
    cdef int legal[MAX_BRANCHING]
    cdef int n
    check_mover(engine, player)
    n = engine.legal_actions(legal)
    if n == 1:
        return legal[0]
    return sab_heuristic_pick(engine.p, &engine.s, player, legal, n)


def choose_among(SaboteurRules engine, int player, legal) -> int:
    """The heuristic's move for ``player`` restricted to ``legal``, a
    non-empty set of legal actions (a bot that filters the moves first, as
    ``games.saboteur.search.BeliefSaboteurBot``); ``choose`` when ``legal``
    is every legal action.  ValueError as ``choose``, or naming an action of
    ``legal`` that is not legal."""
    cdef int own[MAX_BRANCHING]
    cdef int buf[MAX_BRANCHING]
    cdef int n_own, n = 0, i
    check_mover(engine, player)
    n_own = engine.legal_actions(own)
    allowed = {own[i] for i in range(n_own)}
    for a in legal:
        if a not in allowed:
            raise ValueError(f"action {a} is not legal for player {player} here")
        if n == MAX_BRANCHING:
            raise ValueError(f"more than {MAX_BRANCHING} actions given")
        buf[n] = a
        n += 1
    if n == 0:
        raise ValueError("choose_among needs at least one legal action")
    return sab_heuristic_pick(engine.p, &engine.s, player, buf, n)


# ----------------------------------------------------------------------
# The abstraction's candidates and bucket (games/saboteur/abstraction.py)
# ----------------------------------------------------------------------
cdef object _none_or(int a):
    return None if a < 0 else a


def abstract_candidates(SaboteurRules engine, int player, legal) -> list:
    """The concrete move of each abstract action of ``saboteur_actions``
    (``games.saboteur.abstraction.SaboteurActions.candidates``, which
    documents them) for ``player``, the player to move, among ``legal``
    (legal actions): eight entries, an action id or None.  Ties and
    orders are the heuristic's; entry 0 is ``choose``."""
    cdef int buf[MAX_BRANCHING]
    cdef Ctx x
    cdef int victims[MAXP]
    cdef int n = 0, i, a, nv, pd, pt, off, path, dead, rock_dead, rock_path
    cdef const SabConf* c = engine.p
    cdef const SabState* s = &engine.s
    cdef bint digger
    for a in legal:
        if n == MAX_BRANCHING:
            raise ValueError(f"more than {MAX_BRANCHING} actions given")
        buf[n] = a
        n += 1
    out = [buf[0] if n == 1 else choose(engine, player)] + [None] * 7
    if s.phase != PH_PLAY:
        return out
    digger = s.role[player] == 0
    init_ctx(c, s, player, buf, n, &x)
    fill_suspicion(c, s, &x)
    path = best_placement(c, s, &x, buf, n, False, &pd, &pt)
    dead = best_placement(c, s, &x, buf, n, True, &pd, &pt)
    rock_dead = nearest_rockfall(c, s, &x, buf, n, ROCK_DEAD_END)
    rock_path = nearest_rockfall(c, s, &x, buf, n, ROCK_PATH)
    out[1] = _none_or(path)
    out[2] = _none_or(dead if dead >= 0 else rock_path)
    out[3] = _none_or(rock_dead)
    if digger:
        nv = others_by_suspicion(c, &x, victims, True, -(1 << 30), 1 << 30)
    else:
        nv = others_by_suspicion(c, &x, victims, False, -(1 << 30), 1 << 30)
    off = break_of(&x, victims, nv)
    out[4] = None if off < 0 else c.tail0 + off
    off = repair_of(s, &x, player)
    if off < 0:
        nv = others_by_suspicion(c, &x, victims, False, -(1 << 30), 1 << 30)
        for i in range(nv):
            off = repair_of(s, &x, victims[i])
            if off >= 0:
                break
    out[5] = None if off < 0 else c.tail0 + off
    off = map_unknown(s, &x)
    out[6] = None if off < 0 else c.tail0 + off
    off = first_pass(s, &x, <const int*>DISCARD_DIGGER_ABSTRACT if digger else
                     <const int*>DISCARD_SABOTEUR)
    out[7] = None if off < 0 else c.tail0 + off
    return out


def compact_bucket(SaboteurRules engine, int player) -> tuple:
    """``games.saboteur.abstraction.saboteur_compact``'s bucket of
    ``player`` (which documents it): ``(phase,)`` outside the play, else
    ``("play", role, steps capped at 4, treasure known, own tool broken,
    others with a broken tool, deck left)``.  ValueError for a seat
    outside the game."""
    cdef const SabConf* c = engine.p
    cdef const SabState* s = &engine.s
    cdef int g, i, q, known, steps = 9, others = 0
    if not 0 <= player < c.n:
        raise ValueError(f"player must be in [0, {c.n - 1}], got {player}")
    if s.phase != PH_PLAY:
        return (PHASE_NAMES[s.phase],)
    g = target_goal(s, player, &known)
    for i in range(s.nfr):
        steps = min(steps, goal_dist(c, s.fr[i], 1 << g))
    for q in range(c.n):
        if q != player and (s.broken[q][0] or s.broken[q][1] or s.broken[q][2]):
            others += 1
    return ("play", s.role[player], min(steps, 4), known != 0,
            bool(s.broken[player][0] or s.broken[player][1] or s.broken[player][2]),
            others, s.deck_n > 0)
