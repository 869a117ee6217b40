# cython: language_level=3
"""Saboteur rules-kernel declarations: sizes, the state struct and the rules
class, so the other modules of this game (``resample.pyx``, ``render.pyx``,
``persist.pyx``, ``engine.pyx``, ``rollout.pyx``) read the state at C speed.
The rules live in ``rules.pyx``; the catalogue tables in ``catalog.pxi``; the
action layout in ``actions.pxd``; the event record in ``src_cy/events.pxd``."""
from libc.stdint cimport uint64_t, uint8_t, uint16_t, uint32_t
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, mix64, popcount32, MAX_BRANCHING
from src_cy.events cimport Event

include "catalog.pxi"

cdef extern from *:
    # Index of the lowest set bit of ``x`` (``x`` nonzero).
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_ctzll(unsigned long long x) nogil


cdef enum:
    MAXP = 10
    MAXR = 43
    MAXW = 89
    MAXCELLS = 7921
    MAXLOG = 1024
    MAXOCC = 64
    MAXFR = 512
    # Room for the frontier list (``SabState.front``): at most 4 empty
    # neighbours for each card on the table (start, 3 goals, MAXOCC tunnels).
    MAXFRONT = 4 * (MAXOCC + 4)
    MAXROUNDS = 5
    NPHASES = 8
    LOC_PILE = -1
    LOC_DRAWN = -2
    NO_SCORE = 1 << 30

cdef enum:
    PH_ROLE = 0
    PH_GOAL = 1
    PH_DEAL = 2
    PH_PLAY = 3
    PH_DRAW = 4
    PH_GOLD = 5
    PH_SHARE = 6
    PH_OVER = 7

cdef enum:
    # A grid cell: open edges (N=1, E=2, S=4, W=8), flags, card code << 8,
    # orientation << 13.
    CB_EDGES = 15
    CB_PASS = 16
    CB_REACH = 32
    CB_OCC = 64
    CB_GOAL = 128
    CODE_START = 16
    CODE_GOAL = 17

cdef enum:
    EV_ROLE = 1
    EV_GOALS = 2
    EV_DRAW = 3
    EV_PLACE = 4
    EV_ROCK = 5
    EV_BREAK = 6
    EV_REPAIR = 7
    EV_MAP = 8
    EV_PASS = 9
    EV_REVEAL = 10
    EV_ROUNDEND = 11
    EV_GOLD = 12
    EV_SABGOLD = 13
    EV_GOLDDRAW = 14
    EV_GOLDTAKE = 15
    EV_GOLDPASS = 16
    NEV = 17

cdef enum:
    UTIL_GOLD = 0
    UTIL_WIN = 1


cdef struct SabConf:
    # The game parameters and the sizes derived from them (see SabParams).
    int n, rounds, gd, util, scale, hand_size, R, W, S, C, T, K
    # Action layout (``actions.pxd``): ``F`` the frontier bound
    # (``14 + 2 T + rockfall cards``, rules doc), ``rock0 = 32 F`` the first
    # rockfall id, ``tail0 = rock0 + T`` the first tail id.
    int F, rock0, tail0
    # Gold hand-out: 1 = each recipient picks from the cards passed on
    # (published rules), 0 = the finder chooses for everyone.
    int pick
    int init_deck[NKINDS]


cdef struct SabState:
    int phase, round, cur, deal_i, ndeal, starter, last_placer
    int role[MAXP]
    int role_left[2]
    int roles_public
    int goal_id[3]
    int goal_up[3]
    int goal_seen[3]
    int goal_cell[3]
    int deck[NKINDS]
    int deck_n
    int hand[MAXP][NKINDS]
    int hand_n[MAXP]
    # Bit ``k`` of ``held[p]``: ``hand[p][k] > 0`` (kept by every change of
    # a hand, for ``legal_actions``).
    unsigned int held[MAXP]
    int disc[MAXP][NKINDS]
    int pub_disc[NKINDS]
    int broken[MAXP][3]
    # Bit ``q`` of ``broken_at[t]``: ``broken[q][t]`` (kept with it).
    unsigned int broken_at[3]
    # Lengths of the lists ``occ``, ``fr``, ``front`` and ``tun`` below.
    int nocc
    int nfr
    int nfront
    int ntun
    int winner
    int completer
    int gq[MAXP]
    int gqn, gqi
    int gold_pool[3]
    int gold[MAXP][3]
    int gdrawn[3]
    int gval[NGOLD]
    int gloc[NGOLD]
    int gseen[NGOLD]
    int sab_gold[MAXP]
    int round_winner[MAXROUNDS]
    int played[MAXP][NKINDS]
    int passes[MAXP]
    int mapped[MAXP][3]
    int brk_on[MAXP][MAXP]
    int rep_on[MAXP][MAXP]
    int steps
    int nlog
    # Bit ``p``: ``ihash[p]`` is not kept up to date (the resampler set this
    # world in place, ``resample.redeal``); ``info_key`` hashes it from the
    # log first.  Only in round 0 (``finish_round`` hashes the stale keys
    # before the round changes, ``emit`` before an event the full log
    # cannot hold).
    unsigned int stale_keys
    # While keys are stale: the log's length and the public hash when the
    # resampler left them so (its events since are appended after them);
    # ``rehash_keys`` finds that prefix's public tokens in its cache.
    int stale_nlog
    uint64_t stale_pub
    # The lists, last before the grid so a copy takes only their used
    # lengths (``copy_from``): the tunnel cards on the table (``occ``, in
    # placing order), the cells a reached open edge points at (``fr``), and
    # the action lists (``actions.pxd``), kept sorted by grid index (= cell
    # order) as cards come and go: the frontier (empty cells next to any
    # card on the table) and the tunnel cards on the table.
    int occ[MAXOCC]
    int fr[MAXFR]
    int front[MAXFRONT]
    int tun[MAXOCC]
    uint16_t cell[MAXCELLS]
    uint8_t frm[MAXCELLS]
    # Per cell, what its card neighbours (tunnel cards, the start, goals
    # face up; not face-down goals) require of a card placed there: bit
    # ``d`` the neighbour in direction ``d`` is such a card, bit ``4 + d``
    # its edge towards the cell is open (``sab_cons``; kept as cards come
    # and go, nonzero only next to such cards).
    uint8_t cons[MAXCELLS]
    Event log[MAXLOG]


cdef struct SabPub:
    # The public state at one card decision of a player other than the
    # resampling one, as far as it sets how many actions a hand has
    # (``SaboteurRules.pub_counts``; the resampler's weights): ``a[k]`` the
    # plays a card of kind ``k`` gives the mover (placements, targets), so a
    # hand has, per kind held, one pass plus ``a[k]`` actions.
    uint16_t a[NKINDS]


cdef inline uint64_t sab_token(int ev, int actor, int a, int b, int c, int rnd) noexcept nogil:
    """The public hash token of an event (``SaboteurRules.emit``; the
    resampler rebuilds keys from a log with it)."""
    return (<uint64_t>ev | (<uint64_t>(actor + 1) << 8) | (<uint64_t>(a + 1) << 16)
            | (<uint64_t>(b + 1) << 32) | (<uint64_t>(c + 1) << 40) | (<uint64_t>rnd << 56))


cdef inline uint64_t sab_secret_token(uint64_t tok, int secret) noexcept nogil:
    """The private hash token of an event's ``secret`` for its seers (of
    the public token ``tok``, ``sab_token``)."""
    return mix64(tok, <uint64_t>(secret + 7))


cdef inline int sab_cons(const SabConf* c, const SabState* s, int g) noexcept nogil:
    """``SabState.cons`` of cell ``g`` computed from its neighbours.
    Direction ``d`` (N, E, S, W) looks at the neighbour's edge ``d + 2``."""
    cdef int d, nv, od, r = 0
    for d in range(4):
        nv = s.cell[g + sab_doff(c, d)]
        if (nv & (CB_OCC | CB_GOAL)) == CB_OCC:
            od = (d + 2) & 3
            r |= (1 << d) | (((nv >> od) & 1) << (4 + d))
    return r


cdef inline int sab_grid_of(const SabConf* c, int acell) noexcept nogil:
    """Grid index of an action-cell index."""
    return (acell // c.S + 1) * c.W + acell % c.S + 1


cdef inline int sab_doff(const SabConf* c, int d) noexcept nogil:
    """Grid offset one step in direction ``d`` (0 N, 1 E, 2 S, 3 W), by
    selects, not branches: a row (``W``) for N and S, else 1; forward for E
    and S."""
    cdef int m = 1 if d & 1 else c.W
    return m if (d ^ (d >> 1)) & 1 else -m


cdef inline int sab_insert(int* out, int n, int g) noexcept nogil:
    """Insert ``g`` into the ascending list ``out[:n]`` unless it is there;
    the new length."""
    cdef int i = n, j
    while i > 0 and out[i - 1] > g:
        i -= 1
    if i > 0 and out[i - 1] == g:
        return n
    for j in range(n, i, -1):
        out[j] = out[j - 1]
    out[i] = g
    return n + 1


cdef inline int sab_index(const int* lst, int n, int g) noexcept nogil:
    """Position of ``g`` in the ascending list ``lst[:n]``; -1 if absent."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if lst[mid] < g:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < n and lst[lo] == g else -1


cdef inline int sab_frontier(const SabConf* c, const SabState* s, int* out) noexcept nogil:
    """The frontier computed from the board into ``out`` (grid indices,
    ascending, which is cell-index order): the empty maze cells orthogonally
    next to a card on the table (start, goal cards, tunnel cards); its
    length (at most ``c.F``).  The engine keeps it as ``s.front``; this
    definition is what ``check_invariants`` compares that list with."""
    cdef int n = 0, i, d, g, nb, x, y
    for i in range(4 + s.nocc):
        if i == 0:
            g = (c.R + 1) * c.W + c.R + 1
        elif i < 4:
            g = s.goal_cell[i - 1]
        else:
            g = s.occ[i - 4]
        for d in range(4):
            nb = g + sab_doff(c, d)
            x = nb % c.W
            y = nb // c.W
            if 1 <= x <= c.S and 1 <= y <= c.S and not (s.cell[nb] & CB_OCC):
                n = sab_insert(out, n, nb)
    return n


cdef inline int sab_target(const SabConf* c, const SabState* s, int a) noexcept nogil:
    """Grid index a placement or rockfall id ``a`` targets; -1 if its
    position is beyond the current list (or ``a`` is another action)."""
    if 0 <= a < c.rock0:
        return s.front[a % c.F] if a % c.F < s.nfront else -1
    if c.rock0 <= a < c.tail0:
        return s.tun[a - c.rock0] if a - c.rock0 < s.ntun else -1
    return -1


cdef inline int bit_block(unsigned int m, int base, int* k, int* out, int* n) noexcept nogil:
    """One block of ``SaboteurRules.tail_walk``: the actions ``base + i``
    for the set bits ``i`` of ``m``, ascending.  Appended to ``out[n[0]:]``
    (while below ``MAX_BRANCHING``) when ``out`` is given; else the
    ``k[0]``-th of them if ``0 <= k[0] <`` their number, or -1 with
    ``k[0]`` lowered (if not negative) and ``n[0]`` raised by that number."""
    cdef int c
    if out != NULL:
        while m and n[0] < MAX_BRANCHING:
            out[n[0]] = base + __builtin_ctz(m)
            n[0] += 1
            m &= m - 1
        return -1
    c = popcount32(m)
    if 0 <= k[0] < c:
        return base + nth_bit(m, k[0])
    if k[0] >= 0:
        k[0] -= c
    n[0] += c
    return -1


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    """Index of the ``k``-th lowest set bit of ``m`` (``k`` below its set
    bits)."""
    while k:
        m &= m - 1
        k -= 1
    return __builtin_ctzll(m)


cdef inline unsigned int sab_hidden_goals(const SabState* s) noexcept nogil:
    """The goal places still face down (bit ``g`` for place ``g``)."""
    return (<unsigned int>(s.goal_up[0] == 0) | (<unsigned int>(s.goal_up[1] == 0) << 1)
            | (<unsigned int>(s.goal_up[2] == 0) << 2))


cdef inline int sab_known_goal(const SabState* s, int player, int g) noexcept nogil:
    """Identity of goal ``g`` if face up or looked at by ``player``, else -1."""
    if s.goal_id[g] >= 0 and (s.goal_up[g] or (s.goal_seen[g] >> player) & 1):
        return s.goal_id[g]
    return -1


cdef class SabParams:
    # One game's validated parameters, immutable; engines and their clones
    # share it by reference.
    cdef SabConf c
    cdef dict _values


cdef class SaboteurRules(Engine):
    # The rules kernel; ``src_cy.saboteur.engine.SaboteurEngine`` is its final
    # subclass with the resampler.  ``params`` owns the configuration ``p``
    # points into (shared by clones).
    cdef readonly SabParams params
    cdef const SabConf* p
    cdef SabState s
    # The frontier cells where some card edges fit (``fit_fill``), kept
    # while the maze stands (``fit_ok``; a placement, rockfall, new round
    # or copy clears it), so ``legal_actions`` does not test every cell on
    # every call: their positions in ``front`` (ascending), their fit sets,
    # per edge mask ``e`` the number of entries it fits, and per tunnel
    # kind the placements it has (both orientations).
    cdef bint fit_ok
    cdef int fit_n
    cdef int fit_j[MAXFRONT]
    cdef int fit_fs[MAXFRONT]
    cdef int fit_cnt[16]
    cdef int fit_kind[NTUN]
    # ``rehash_keys``' public tokens (``sab_token``, round 0) of the first
    # ``ktok_n`` log events of the log the resampler left stale keys on
    # (``stale_nlog``, ``stale_pub``), public hash ``ktok_tag``: the worlds
    # a search draws for one root share those events but for their secrets,
    # and ``copy_from`` leaves the cache, so each world's stale keys are
    # hashed without rebuilding the tokens.
    cdef vector[uint64_t] ktok
    cdef uint64_t ktok_tag
    cdef int ktok_n

    cdef int grid_of(self, int acell) noexcept nogil
    cdef int acell_of(self, int g) noexcept nogil
    cdef int inside(self, int g) noexcept nogil
    cdef int xy(self, int x, int y) noexcept nogil
    cdef int doff(self, int d) noexcept nogil
    cdef void emit(self, int ev, int actor, int a, int b, int c, int secret,
                   uint32_t seers) noexcept nogil
    cdef void rehash_keys(self, unsigned int players) noexcept nogil
    cdef uint64_t info_key(self, int player) noexcept nogil
    cdef void clear_maze(self) noexcept nogil
    cdef void cons_card(self, int g, int e) noexcept nogil
    cdef void start_round(self) noexcept nogil
    cdef void end_round(self, int winner) noexcept nogil
    cdef int gold_holder(self) noexcept nogil
    cdef void gold_draw(self, int v) noexcept nogil
    cdef int move_gold(self, int v, int r) noexcept nogil
    cdef void give(self, int v) noexcept nogil
    cdef void gold_take(self, int v) noexcept nogil
    cdef void share_auto(self) noexcept nogil
    cdef void finish_round(self) noexcept nogil
    cdef void advance(self) noexcept nogil
    cdef void add_frontier(self, int g, int d) noexcept nogil
    cdef bint next_to_card(self, int g) noexcept nogil
    cdef void front_add(self, int g) noexcept nogil
    cdef void front_place(self, int g) noexcept nogil
    cdef void front_swap(self, int ig, int* add, int na) noexcept nogil
    cdef void list_remove(self, int* lst, int* n, int g) noexcept nogil
    cdef void remove_frontier(self, int g) noexcept nogil
    cdef void reveal(self, int slot) noexcept nogil
    cdef void bfs(self, int c0) noexcept nogil
    cdef void recompute(self) noexcept nogil
    cdef void fit_fill(self) noexcept nogil
    cdef int tail_walk(self, int p, int k, int* out, int* n) noexcept nogil
    cdef int tail_count(self, int p) noexcept nogil
    cdef void play(self, int a) noexcept nogil
    cdef void take(self, int p, int k) noexcept nogil
    cdef void pub_counts(self, SabPub* u) noexcept nogil
    cdef int kgoal(self, int player, int g) noexcept nogil
    cdef int place_id(self, int k, int o, int g) noexcept nogil
    cdef int rock_id(self, int g) noexcept nogil
