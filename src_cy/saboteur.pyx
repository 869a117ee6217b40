# cython: language_level=3
"""Saboteur (AMIGO 2004) rules engine.

The whole state lives in one C struct (``SabState``); a clone is a struct
copy.  The maze is a square grid of side ``2R+1`` centred on the start card,
padded by one empty ring so neighbour look-ups never leave the array.
``R = max(T + 3, goal_distance)`` where ``T`` is the number of tunnel cards:
a card placed at Manhattan distance ``d`` from the start must be joined to
it by a chain of ``d - 1`` other cards (at most ``T - 1`` tunnels and the
three goals), so ``d <= T + 3`` and no legal game can leave the grid.

Reachability from the start is kept incrementally: ``CB_REACH`` marks cards
joined to the start, ``frm[c]`` is, for an empty cell ``c``, the set of
directions from which a reached open edge points at it, and ``fr`` lists
those cells.  A placement extends the reached set by a breadth-first search
from the new card only; a rockfall recomputes it from the start.

Information: every event goes to a log; a player's information-state string,
tensor event sequence and key are all built from the same *visible tuples* of
that log (``_visible``), and ``player_view`` gives the current view as typed
fields.  ``resample_history`` draws a whole history from a player's
information set by reading only that player's events (``make_plan``) and
replays it (``drive``); see the rules doc, "Resampling".  Snapshots are the
history itself, replayed and checked on ``load``.

See ``docs/rules/saboteur.md`` for the rules as implemented and the action
encoding (mirrored in ``games/saboteur.py``).
"""
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libcpp.vector cimport vector
from libc.stdint cimport uint64_t, uint8_t, uint16_t, int8_t, int16_t

from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, mix64, CHANCE_PLAYER,
                            TERMINAL_PLAYER, MAX_BRANCHING, ENGINE_MAX_PLAYERS)

import struct as _struct

SNAPSHOT_MAGIC = b"SABOTEUR"
SNAPSHOT_VERSION = 3

cdef enum:
    MAX_RESAMPLE_TRIES = 100000


KIND_NAMES = (
    ["path E-W", "path N-S", "path N-W", "path N-E", "path N-E-W", "path N-E-S",
     "path cross", "dead end N", "dead end E", "dead end N-E", "dead end N-S",
     "dead end N-W", "dead end E-W", "dead end N-E-S", "dead end N-E-W",
     "dead end cross", "map", "rockfall", "break pickaxe", "break lamp",
     "break cart", "repair pickaxe", "repair lamp", "repair cart",
     "repair pickaxe/lamp", "repair pickaxe/cart", "repair lamp/cart"])
TOOL_NAMES = ("pickaxe", "lamp", "cart")
GOAL_NAMES = ("treasure", "stone N-E", "stone N-W")
ROLE_NAMES = ("gold-digger", "saboteur")
PHASE_NAMES = ("roles", "goals", "deal", "play", "draw", "gold", "share", "over")


def _require(ok, str message) -> None:
    """Raise ValueError(message) unless ``ok`` (never ``assert``: python -O)."""
    if not ok:
        raise ValueError(message)


def _gold_counts(int code) -> tuple:
    """Counts of 1-, 2- and 3-nugget cards in a passed-on gold set code."""
    return (code % 11, (code // 11) % 11, code // 121)


def base_counts() -> list:
    """Full-deck count of each of the 27 card kinds (index = kind id)."""
    return [BASE_COUNT[k] for k in range(NKINDS)]


def scaled_counts(int deck_scale) -> list:
    """Count of each card kind at ``deck_scale`` percent (round half up)."""
    return [(BASE_COUNT[k] * deck_scale + 50) // 100 for k in range(NKINDS)]


cdef class SaboteurEngine(Engine):
    """Saboteur for 3-10 players; see the module docstring."""

    def __init__(self, int players=5, int rounds=3, int goal_distance=8, int utility=0,
                 int deck_scale=100, int hand_size=0, str game_string="saboteur()",
                 int gold_pick=1):
        cdef int k
        if not 3 <= players <= 10:
            raise ValueError(f"players={players} out of range 3..10")
        if not 1 <= rounds <= MAXROUNDS:
            raise ValueError(f"rounds={rounds} out of range 1..{MAXROUNDS}")
        if not 10 <= deck_scale <= 100:
            raise ValueError(f"deck_scale={deck_scale} out of range 10..100")
        if not 2 <= goal_distance <= 20:
            raise ValueError(f"goal_distance={goal_distance} out of range 2..20")
        if not 0 <= hand_size <= 6:
            raise ValueError(f"hand_size={hand_size} out of range 0..6")
        memset(&self.s, 0, sizeof(SabState))
        self.num_players = players
        self.game_string = game_string
        self.s.n = players
        self.s.rounds = rounds
        self.s.gd = goal_distance
        self.s.util = utility
        self.s.scale = deck_scale
        if hand_size == 0:
            hand_size = 6 if players <= 5 else (5 if players <= 7 else 4)
        self.s.hand_size = hand_size
        self.s.T = 0
        self.s.K = 0
        for k in range(NKINDS):
            self.s.init_deck[k] = (BASE_COUNT[k] * deck_scale + 50) // 100
            self.s.K += self.s.init_deck[k]
            if k < NTUN:
                self.s.T += self.s.init_deck[k]
        self.s.R = max(self.s.T + 3, goal_distance)
        self.s.S = 2 * self.s.R + 1
        self.s.W = self.s.S + 2
        self.s.C = self.s.S * self.s.S
        self.s.pick = 1 if gold_pick else 0
        self.to_initial()

    cdef void restart(self) noexcept nogil:
        """Back to the initial state (parameters kept), round 1 set-up pending."""
        cdef int k
        memset(self.s.gold, 0, sizeof(self.s.gold))
        memset(self.s.gdrawn, 0, sizeof(self.s.gdrawn))
        memset(self.s.sab_gold, 0, sizeof(self.s.sab_gold))
        memset(self.s.round_winner, 0, sizeof(self.s.round_winner))
        memset(self.s.gq, 0, sizeof(self.s.gq))
        for k in range(3):
            self.s.gold_pool[k] = GOLD_COUNT[k]
        for k in range(NGOLD):
            self.s.gval[k] = 0 if k < GOLD_COUNT[0] else (1 if k < GOLD_COUNT[0] + GOLD_COUNT[1] else 2)
            self.s.gloc[k] = LOC_PILE
            self.s.gseen[k] = 0
        self.s.last_placer = -1
        self.s.starter = 0
        self.s.round = 0
        self.s.steps = 0
        self.s.nlog = 0
        self.start_round()

    # ------------------------------------------------------------------
    # geometry helpers
    # ------------------------------------------------------------------
    cdef inline int grid_of(self, int acell) noexcept nogil:
        return sab_grid_of(&self.s, acell)

    cdef inline int acell_of(self, int g) noexcept nogil:
        return (g // self.s.W - 1) * self.s.S + g % self.s.W - 1

    cdef inline int inside(self, int g) noexcept nogil:
        cdef int x = g % self.s.W, y = g // self.s.W
        return 1 <= x <= self.s.S and 1 <= y <= self.s.S

    cdef inline int xy(self, int x, int y) noexcept nogil:
        return (y + self.s.R + 1) * self.s.W + x + self.s.R + 1

    cdef inline int doff(self, int d) noexcept nogil:
        return sab_doff(&self.s, d)

    # ------------------------------------------------------------------
    # information events
    # ------------------------------------------------------------------
    cdef uint64_t emit(self, int ev, int actor, int a, int b, int c, int priv, int privp) noexcept nogil:
        cdef uint64_t tok = (<uint64_t>ev | (<uint64_t>(actor + 1) << 8) | (<uint64_t>(a + 1) << 16)
                             | (<uint64_t>(b + 1) << 32) | (<uint64_t>(c + 1) << 40)
                             | (<uint64_t>self.s.round << 56))
        if self.s.nlog < MAXLOG:
            self.s.log[self.s.nlog].ev = ev
            self.s.log[self.s.nlog].actor = actor
            self.s.log[self.s.nlog].a = a
            self.s.log[self.s.nlog].b = b
            self.s.log[self.s.nlog].c = c
            self.s.log[self.s.nlog].priv = priv
            self.s.log[self.s.nlog].privp = privp
            self.s.nlog += 1
        self.observe_public(tok)
        if privp >= 0:
            self.observe_private(privp, mix64(tok, <uint64_t>(priv + 7)))
        return tok

    # ------------------------------------------------------------------
    # rounds
    # ------------------------------------------------------------------
    cdef void start_round(self) noexcept nogil:
        cdef int k, p, g
        memset(self.s.cell, 0, sizeof(self.s.cell))
        memset(self.s.frm, 0, sizeof(self.s.frm))
        memset(self.s.hand, 0, sizeof(self.s.hand))
        memset(self.s.hand_n, 0, sizeof(self.s.hand_n))
        memset(self.s.disc, 0, sizeof(self.s.disc))
        memset(self.s.pub_disc, 0, sizeof(self.s.pub_disc))
        memset(self.s.broken, 0, sizeof(self.s.broken))
        memset(self.s.played, 0, sizeof(self.s.played))
        memset(self.s.passes, 0, sizeof(self.s.passes))
        memset(self.s.mapped, 0, sizeof(self.s.mapped))
        memset(self.s.brk_on, 0, sizeof(self.s.brk_on))
        memset(self.s.rep_on, 0, sizeof(self.s.rep_on))
        for k in range(NKINDS):
            self.s.deck[k] = self.s.init_deck[k]
        self.s.deck_n = self.s.K
        for p in range(MAXP):
            self.s.role[p] = -1
        self.s.role_left[0] = ROLE_DIG[self.s.n]
        self.s.role_left[1] = ROLE_SAB[self.s.n]
        self.s.roles_public = 0
        self.s.nocc = 0
        self.s.nfr = 0
        self.s.winner = -1
        self.s.completer = -1
        self.s.gqn = 0
        self.s.gqi = 0
        self.s.phase = PH_ROLE
        self.s.deal_i = 0
        self.s.ndeal = min(self.s.n * self.s.hand_size, self.s.K)
        self.s.cur = self.s.starter
        self.s.cell[self.xy(0, 0)] = CB_OCC | CB_PASS | CB_REACH | 15 | (CODE_START << 8)
        for g in range(3):
            self.s.goal_id[g] = -1
            self.s.goal_up[g] = 0
            self.s.goal_seen[g] = 0
            self.s.goal_cell[g] = self.xy(self.s.gd, 2 * g - 2)
            self.s.cell[self.s.goal_cell[g]] = CB_OCC | CB_GOAL | ((CODE_GOAL + g) << 8)
        self.recompute()

    cdef void end_round(self, int winner) noexcept nogil:
        cdef int p, q, i, mask = 0, nsab = 0, total
        self.s.winner = winner
        self.s.roles_public = 1
        self.s.round_winner[self.s.round] = winner + 1
        for p in range(self.s.n):
            if self.s.role[p] == 1:
                mask |= 1 << p
                nsab += 1
        self.emit(EV_ROUNDEND, -1, mask, winner, self.s.round, -1, -1)
        self.s.gqn = 0
        self.s.gqi = 0
        if winner == 1:
            for p in range(self.s.n):
                if self.s.role[p] == 1:
                    self.s.sab_gold[p] += SAB_PAY[nsab]
                    self.emit(EV_SABGOLD, p, SAB_PAY[nsab], 0, 0, -1, -1)
        else:
            total = self.s.gold_pool[0] + self.s.gold_pool[1] + self.s.gold_pool[2]
            for i in range(self.s.n):
                q = (self.s.completer - i + self.s.n) % self.s.n
                if self.s.role[q] == 0 and self.s.gqn < total:
                    self.s.gq[self.s.gqn] = q
                    self.s.gqn += 1
        if self.s.gqn > 0:
            self.s.phase = PH_GOLD
            self.s.cur = self.s.completer
        else:
            self.finish_round()

    cdef inline int gold_holder(self) noexcept nogil:
        """Who holds (and has seen) the drawn gold cards: the completer when
        the finder chooses for everyone, else the recipient to pick next."""
        if not self.s.pick:
            return self.s.completer
        return self.s.gq[self.s.gqi] if self.s.gqi < self.s.gqn else -1

    cdef void gold_draw(self, int v) noexcept nogil:
        """Chance: a gold card of value index ``v`` from the pile joins the
        drawn set, seen by its holder only (``gold_holder``)."""
        cdef int i, c = self.s.completer, h = self.gold_holder()
        for i in range(NGOLD):
            if self.s.gloc[i] == LOC_PILE and self.s.gval[i] == v:
                break
        self.s.gloc[i] = LOC_DRAWN
        self.s.gseen[i] = 1 << h
        self.s.gold_pool[v] -= 1
        self.s.gdrawn[v] += 1
        self.emit(EV_GOLDDRAW, c, h, 0, 0, v, h)
        if self.s.gdrawn[0] + self.s.gdrawn[1] + self.s.gdrawn[2] == self.s.gqn:
            self.s.phase = PH_SHARE
            self.s.gqi = 0
            self.s.cur = self.gold_holder()
            self.share_auto()

    cdef int move_gold(self, int v, int r) noexcept nogil:
        """A drawn card of value index ``v`` goes to player ``r``; its index."""
        cdef int i
        for i in range(NGOLD):
            if self.s.gloc[i] == LOC_DRAWN and self.s.gval[i] == v:
                break
        self.s.gloc[i] = r
        self.s.gseen[i] |= 1 << r
        self.s.gdrawn[v] -= 1
        self.s.gold[r][v] += 1
        return i

    cdef void give(self, int v) noexcept nogil:
        """Finder mode: a drawn card of value index ``v`` goes to the next
        recipient; the recipient and the completer see its value, everybody
        sees who got one."""
        cdef int c = self.s.completer, r = self.s.gq[self.s.gqi]
        cdef uint64_t tok
        self.move_gold(v, r)
        tok = self.emit(EV_GOLD, r, c, 0, 0, v, r)
        if c != r:
            self.observe_private(c, mix64(tok, <uint64_t>(v + 7)))
        self.s.gqi += 1

    cdef void gold_take(self, int v) noexcept nogil:
        """Pick mode: the holder keeps a card of value index ``v`` and passes
        the rest face down to the next recipient, who looks at them."""
        cdef int r = self.s.gq[self.s.gqi], i, nxt, left, code
        self.move_gold(v, r)
        self.emit(EV_GOLDTAKE, r, 0, 0, 0, v, r)
        self.s.gqi += 1
        left = self.s.gdrawn[0] + self.s.gdrawn[1] + self.s.gdrawn[2]
        if self.s.gqi < self.s.gqn and left > 0:
            nxt = self.s.gq[self.s.gqi]
            for i in range(NGOLD):
                if self.s.gloc[i] == LOC_DRAWN:
                    self.s.gseen[i] |= 1 << nxt
            code = self.s.gdrawn[0] + 11 * self.s.gdrawn[1] + 121 * self.s.gdrawn[2]
            self.emit(EV_GOLDPASS, nxt, r, left, 0, code, nxt)
            self.s.cur = nxt

    cdef void share_auto(self) noexcept nogil:
        """Hand out drawn cards while no choice is left (one value remains);
        stop at a decision or finish the round."""
        cdef int v, nd, last
        while True:
            if self.s.gqi >= self.s.gqn:
                self.finish_round()
                return
            nd = 0
            last = 0
            for v in range(3):
                if self.s.gdrawn[v] > 0:
                    nd += 1
                    last = v
            if nd >= 2:
                return
            if self.s.pick:
                self.gold_take(last)
            else:
                self.give(last)

    cdef void finish_round(self) noexcept nogil:
        self.s.round += 1
        if self.s.round >= self.s.rounds:
            self.s.phase = PH_OVER
            return
        self.s.starter = (self.s.last_placer + 1) % self.s.n if self.s.last_placer >= 0 else 0
        self.start_round()

    cdef void advance(self) noexcept nogil:
        cdef int i, q
        for i in range(1, self.s.n + 1):
            q = (self.s.cur + i) % self.s.n
            if self.s.hand_n[q] > 0:
                self.s.cur = q
                self.s.phase = PH_PLAY
                return
        self.end_round(1)

    # ------------------------------------------------------------------
    # maze
    # ------------------------------------------------------------------
    cdef void add_frontier(self, int g, int d) noexcept nogil:
        if not self.inside(g):
            return
        if self.s.frm[g] == 0 and self.s.nfr < MAXFR:
            self.s.fr[self.s.nfr] = g
            self.s.nfr += 1
        self.s.frm[g] |= <uint8_t>(1 << d)

    cdef void remove_frontier(self, int g) noexcept nogil:
        cdef int i
        if self.s.frm[g] == 0:
            return
        self.s.frm[g] = 0
        for i in range(self.s.nfr):
            if self.s.fr[i] == g:
                self.s.nfr -= 1
                self.s.fr[i] = self.s.fr[self.s.nfr]
                return

    cdef void reveal(self, int slot) noexcept nogil:
        """Turn goal ``slot`` face up, oriented to fit where possible."""
        cdef int g = self.s.goal_cell[slot], gid = self.s.goal_id[slot]
        cdef int o, d, e, nv, od, connects, fitsall, best = -1, bestfit = 0
        for o in range(2):
            e = GOAL_EDGES[gid] if o == 0 else rot180(GOAL_EDGES[gid])
            connects = 0
            fitsall = 1
            for d in range(4):
                nv = self.s.cell[g + self.doff(d)]
                od = (d + 2) & 3
                if (nv & CB_OCC) and not (nv & CB_GOAL):
                    if ((e >> d) & 1) != ((nv >> od) & 1):
                        fitsall = 0
                    if (e >> d) & 1 and (nv & CB_REACH) and (nv & CB_PASS) and (nv >> od) & 1:
                        connects = 1
            if connects and (best < 0 or (fitsall and not bestfit)):
                best = o
                bestfit = fitsall
        if best < 0:
            best = 0
        e = GOAL_EDGES[gid] if best == 0 else rot180(GOAL_EDGES[gid])
        self.s.cell[g] = CB_OCC | CB_PASS | e | ((CODE_GOAL + slot) << 8) | (best << 13)
        self.s.goal_up[slot] = 1
        self.emit(EV_REVEAL, -1, slot, gid, best, -1, -1)
        if gid == 0:
            self.s.winner = 0

    cdef void bfs(self, int c0) noexcept nogil:
        cdef int queue[MAXOCC + 8]
        cdef int head = 0, tail = 1, c, d, nb, nv, od, e, slot
        queue[0] = c0
        while head < tail:
            c = queue[head]
            head += 1
            e = self.s.cell[c] & CB_EDGES
            for d in range(4):
                if not (e >> d) & 1:
                    continue
                nb = c + self.doff(d)
                nv = self.s.cell[nb]
                od = (d + 2) & 3
                if not (nv & CB_OCC):
                    self.add_frontier(nb, od)
                    continue
                if nv & CB_GOAL:
                    slot = ((nv >> 8) & 31) - CODE_GOAL
                    self.reveal(slot)
                    nv = self.s.cell[nb]
                if (nv >> od) & 1 and not (nv & CB_REACH):
                    self.s.cell[nb] = <uint16_t>(nv | CB_REACH)
                    if (nv & CB_PASS) and tail < MAXOCC + 8:
                        queue[tail] = nb
                        tail += 1

    cdef void recompute(self) noexcept nogil:
        cdef int i, g
        for i in range(self.s.nfr):
            self.s.frm[self.s.fr[i]] = 0
        self.s.nfr = 0
        for i in range(self.s.nocc):
            self.s.cell[self.s.occ[i]] &= <uint16_t>~CB_REACH
        for i in range(3):
            self.s.cell[self.s.goal_cell[i]] &= <uint16_t>~CB_REACH
        g = self.xy(0, 0)
        self.s.cell[g] |= CB_REACH
        self.bfs(g)

    cdef inline bint fits(self, int g, int e) noexcept nogil:
        cdef int d, nv
        for d in range(4):
            nv = self.s.cell[g + self.doff(d)]
            if (nv & CB_OCC) and not (nv & CB_GOAL):
                if ((e >> d) & 1) != ((nv >> ((d + 2) & 3)) & 1):
                    return False
        return True

    # ------------------------------------------------------------------
    # the interface
    # ------------------------------------------------------------------
    cdef int current_player(self) noexcept nogil:
        if self.s.phase == PH_OVER:
            return TERMINAL_PLAYER
        if self.s.phase == PH_PLAY or self.s.phase == PH_SHARE:
            return self.s.cur
        return CHANCE_PLAYER

    cdef bint is_terminal(self) noexcept nogil:
        return self.s.phase == PH_OVER

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int p = self.s.cur, n = 0, k, o, i, e, g, t, q, r, C = self.s.C
        cdef int* h = self.s.hand[p]
        if self.s.phase == PH_SHARE:
            o = 33 * C + (240 if self.s.pick or self.s.gq[self.s.gqi] == self.s.completer
                          else 243)
            for k in range(3):
                if self.s.gdrawn[k] > 0:
                    out[n] = o + k
                    n += 1
            return n
        if self.s.phase != PH_PLAY:
            return 0
        if not (self.s.broken[p][0] or self.s.broken[p][1] or self.s.broken[p][2]):
            for k in range(NTUN):
                if h[k] == 0:
                    continue
                for o in range(2):
                    e = TUN_EDGES[k]
                    if o == 1:
                        if rot180(e) == e:
                            break
                        e = rot180(e)
                    for i in range(self.s.nfr):
                        g = self.s.fr[i]
                        if (e & self.s.frm[g]) and self.fits(g, e) and n < MAX_BRANCHING:
                            out[n] = (k * 2 + o) * C + self.acell_of(g)
                            n += 1
        if h[K_ROCK]:
            for i in range(self.s.nocc):
                if n < MAX_BRANCHING:
                    out[n] = 32 * C + self.acell_of(self.s.occ[i])
                    n += 1
        for t in range(3):
            if h[K_BREAK + t]:
                for q in range(self.s.n):
                    if q != p and not self.s.broken[q][t] and n < MAX_BRANCHING:
                        out[n] = 33 * C + t * 10 + q
                        n += 1
        for r in range(6):
            if h[K_REPAIR + r]:
                for t in range(3):
                    if (REPAIR_MASK[r] >> t) & 1:
                        for q in range(self.s.n):
                            if self.s.broken[q][t] and n < MAX_BRANCHING:
                                out[n] = 33 * C + 30 + (r * 3 + t) * 10 + q
                                n += 1
        if h[K_MAP]:
            for g in range(3):
                if not self.s.goal_up[g] and n < MAX_BRANCHING:
                    out[n] = 33 * C + 210 + g
                    n += 1
        for k in range(NKINDS):
            if h[k] and n < MAX_BRANCHING:
                out[n] = 33 * C + 213 + k
                n += 1
        return n

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int n = 0, k, tot
        if self.s.phase == PH_ROLE:
            tot = self.s.role_left[0] + self.s.role_left[1]
            for k in range(2):
                if self.s.role_left[k] > 0:
                    out[n] = k
                    probs[n] = self.s.role_left[k] / <double>tot
                    n += 1
        elif self.s.phase == PH_GOAL:
            for k in range(6):
                out[k] = k
                probs[k] = 1.0 / 6.0
            n = 6
        elif self.s.phase == PH_DEAL or self.s.phase == PH_DRAW:
            for k in range(NKINDS):
                if self.s.deck[k] > 0:
                    out[n] = k
                    probs[n] = self.s.deck[k] / <double>self.s.deck_n
                    n += 1
        elif self.s.phase == PH_GOLD:
            tot = self.s.gold_pool[0] + self.s.gold_pool[1] + self.s.gold_pool[2]
            for k in range(3):
                if self.s.gold_pool[k] > 0:
                    out[n] = k
                    probs[n] = self.s.gold_pool[k] / <double>tot
                    n += 1
        return n

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.s.phase, p, k, g
        self.s.steps += 1
        if ph == PH_ROLE:
            p = self.s.deal_i
            self.s.role[p] = action
            self.s.role_left[action] -= 1
            self.emit(EV_ROLE, p, 0, 0, 0, action, p)
            self.s.deal_i += 1
            if self.s.deal_i == self.s.n:
                self.s.phase = PH_GOAL
        elif ph == PH_GOAL:
            for g in range(3):
                self.s.goal_id[g] = PERMS[action][g]
            self.emit(EV_GOALS, -1, 0, 0, 0, -1, -1)
            self.s.phase = PH_DEAL
            self.s.deal_i = 0
        elif ph == PH_DEAL or ph == PH_DRAW:
            p = (self.s.starter + self.s.deal_i) % self.s.n if ph == PH_DEAL else self.s.cur
            self.s.deck[action] -= 1
            self.s.deck_n -= 1
            self.s.hand[p][action] += 1
            self.s.hand_n[p] += 1
            self.emit(EV_DRAW, p, 0, 0, 0, action, p)
            if ph == PH_DEAL:
                self.s.deal_i += 1
                if self.s.deal_i == self.s.ndeal:
                    self.s.cur = (self.s.starter - 1 + self.s.n) % self.s.n
                    self.advance()
            else:
                self.advance()
        elif ph == PH_GOLD:
            self.gold_draw(action)
        elif ph == PH_SHARE:
            if self.s.pick:
                self.gold_take((action - 33 * self.s.C - 240) % 3)
            else:
                self.give((action - 33 * self.s.C - 240) % 3)
            self.share_auto()
        elif ph == PH_PLAY:
            self.play(action)

    cdef void play(self, int a) noexcept nogil:
        cdef int p = self.s.cur, C = self.s.C, k, o, g, e, t, q, r, idx
        if a < 32 * C:
            k = (a // C) >> 1
            o = (a // C) & 1
            g = self.grid_of(a % C)
            e = TUN_EDGES[k] if o == 0 else rot180(TUN_EDGES[k])
            self.take(p, k)
            self.remove_frontier(g)
            self.s.cell[g] = <uint16_t>(CB_OCC | CB_REACH | e | (k << 8) | (o << 13)
                                        | (CB_PASS if TUN_PASS[k] else 0))
            if self.s.nocc < MAXOCC:
                self.s.occ[self.s.nocc] = g
                self.s.nocc += 1
            self.s.last_placer = p
            self.emit(EV_PLACE, p, a % C, k, o, -1, -1)
            if TUN_PASS[k]:
                self.bfs(g)
        elif a < 33 * C:
            g = self.grid_of(a - 32 * C)
            k = (self.s.cell[g] >> 8) & 31
            self.take(p, K_ROCK)
            self.s.pub_disc[K_ROCK] += 1
            self.s.pub_disc[k] += 1
            self.s.cell[g] = 0
            for idx in range(self.s.nocc):
                if self.s.occ[idx] == g:
                    self.s.nocc -= 1
                    self.s.occ[idx] = self.s.occ[self.s.nocc]
                    break
            self.emit(EV_ROCK, p, a - 32 * C, k, 0, -1, -1)
            self.recompute()
        elif a < 33 * C + 30:
            idx = a - 33 * C
            t = idx // 10
            q = idx % 10
            self.take(p, K_BREAK + t)
            self.s.broken[q][t] = 1
            self.s.brk_on[p][q] += 1
            self.emit(EV_BREAK, p, 0, t, q, -1, -1)
        elif a < 33 * C + 210:
            idx = a - 33 * C - 30
            r = idx // 30
            t = (idx % 30) // 10
            q = idx % 10
            self.take(p, K_REPAIR + r)
            self.s.broken[q][t] = 0
            self.s.rep_on[p][q] += 1
            self.s.pub_disc[K_REPAIR + r] += 1
            self.s.pub_disc[K_BREAK + t] += 1
            self.emit(EV_REPAIR, p, t, r, q, -1, -1)
        elif a < 33 * C + 213:
            g = a - 33 * C - 210
            self.take(p, K_MAP)
            self.s.pub_disc[K_MAP] += 1
            self.s.goal_seen[g] |= 1 << p
            self.s.mapped[p][g] += 1
            self.emit(EV_MAP, p, g, 0, 0, self.s.goal_id[g], p)
        else:
            k = a - 33 * C - 213
            self.s.hand[p][k] -= 1
            self.s.hand_n[p] -= 1
            self.s.disc[p][k] += 1
            self.s.passes[p] += 1
            self.emit(EV_PASS, p, 0, 0, 0, k, p)
        if self.s.winner == 0:
            self.s.completer = p
            self.end_round(0)
        elif self.s.deck_n > 0:
            self.s.phase = PH_DRAW
        else:
            self.advance()

    cdef inline void take(self, int p, int k) noexcept nogil:
        self.s.hand[p][k] -= 1
        self.s.hand_n[p] -= 1
        self.s.played[p][k] += 1


    cdef void returns(self, double* out) noexcept nogil:
        cdef int p, best = -1, nbest = 0
        cdef int tot[MAXP]
        for p in range(self.s.n):
            tot[p] = (self.s.gold[p][0] + 2 * self.s.gold[p][1] + 3 * self.s.gold[p][2]
                      + self.s.sab_gold[p])
            out[p] = 0.0
        if self.s.phase != PH_OVER:
            return
        if self.s.util == UTIL_GOLD:
            for p in range(self.s.n):
                out[p] = tot[p]
            return
        for p in range(self.s.n):
            if tot[p] > best:
                best = tot[p]
                nbest = 1
            elif tot[p] == best:
                nbest += 1
        for p in range(self.s.n):
            out[p] = 1.0 / nbest if tot[p] == best else 0.0

    # ------------------------------------------------------------------
    # resampling: a whole history drawn from a player's information set
    # ------------------------------------------------------------------
    cdef int take_slot(self, SabPlan* pl, int q, Rng* rng) noexcept nogil:
        """Remove and return a uniformly drawn card slot held by ``q``."""
        cdef int i, j
        if pl.nopen[q] == 0:
            return -1
        i = rng_int(rng, pl.nopen[q])
        j = pl.open[q][i]
        pl.nopen[q] -= 1
        pl.open[q][i] = pl.open[q][pl.nopen[q]]
        return j

    cdef int finish_cards(self, SabPlan* pl, int p, int j0, int q0, Rng* rng) noexcept nogil:
        """Give the card slots of a round that no public play fixed (others'
        discards and hands; the deck is never drawn in the history) kinds drawn
        uniformly from the cards not accounted for; 0 if inconsistent."""
        cdef int cnt[NKINDS]
        cdef int pool[256]
        cdef int m = 0, k, j, i, t
        for k in range(NKINDS):
            cnt[k] = self.s.init_deck[k] - pl.used[k]
            if cnt[k] < 0:
                return 0
            for j in range(cnt[k]):
                pool[m] = k
                m += 1
        for j in range(j0, pl.ndraw):
            if pl.draw_kind[j] < 0:
                if m == 0:
                    return 0
                i = rng_int(rng, m)
                pl.draw_kind[j] = pool[i]
                m -= 1
                pool[i] = pool[m]
        for i in range(q0, pl.npass):
            if pl.pass_player[i] != p:
                pl.pass_kind[i] = pl.draw_kind[pl.pass_slot[i]]
        for k in range(NKINDS):
            pl.used[k] = 0
        for t in range(MAXP):
            pl.nopen[t] = 0
        return 1

    cdef void shuffle_ints(self, int* a, int n, Rng* rng) noexcept nogil:
        cdef int i, j, t
        for i in range(n - 1, 0, -1):
            j = rng_int(rng, i + 1)
            t = a[i]
            a[i] = a[j]
            a[j] = t

    cdef int sample_gold(self, int* gpool, int* out, int u, Rng* rng) noexcept nogil:
        """Draw ``u`` gold values without replacement from the unseen counts."""
        cdef int i, x, v, tot
        for i in range(u):
            tot = gpool[0] + gpool[1] + gpool[2]
            if tot <= 0:
                return 0
            x = rng_int(rng, tot)
            v = 0 if x < gpool[0] else (1 if x < gpool[0] + gpool[1] else 2)
            gpool[v] -= 1
            out[i] = v
        return 1

    cdef int plan_gold(self, SabPlan* pl, int p, Rng* rng) noexcept nogil:
        """Gold draws and hand-outs of every distribution in the log."""
        cdef int gpool[3]
        cdef int known[MAXROUNDS][3]
        cdef int vals[MAXP]
        cdef int S0[MAXP]
        cdef int i, r, v, k, D, T, nk, u, pos, mine, sawdraws, passpos, ntake
        cdef Ev e
        for v in range(3):
            gpool[v] = GOLD_COUNT[v]
        memset(known, 0, sizeof(known))
        # What p has seen of each distribution: the whole drawn set, a set
        # passed on to p, or p's own card.
        for r in range(pl.nrounds):
            sawdraws = 0
            for i in range(pl.gfirst[r], pl.glast[r]):
                e = pl.log[i]
                if e.ev == EV_GOLDDRAW and e.privp == p:
                    known[r][e.priv] += 1
                    sawdraws = 1
            if not sawdraws:
                for i in range(pl.gfirst[r], pl.glast[r]):
                    e = pl.log[i]
                    if e.ev == EV_GOLDPASS and e.privp == p:
                        known[r][0] = e.priv % 11
                        known[r][1] = (e.priv // 11) % 11
                        known[r][2] = e.priv // 121
                        sawdraws = 2
                if not sawdraws:
                    for i in range(pl.gfirst[r], pl.glast[r]):
                        e = pl.log[i]
                        if (e.ev == EV_GOLD or e.ev == EV_GOLDTAKE) and e.privp == p:
                            known[r][e.priv] += 1
            for v in range(3):
                gpool[v] -= known[r][v]
                if gpool[v] < 0:
                    return 0
        for r in range(pl.nrounds):
            D = 0
            T = 0
            sawdraws = 0
            passpos = -1
            pos = -1
            mine = -1
            for i in range(pl.gfirst[r], pl.glast[r]):
                e = pl.log[i]
                if e.ev == EV_GOLDDRAW:
                    if e.privp == p:
                        pl.gdraw[r][D] = e.priv
                        sawdraws = 1
                    D += 1
                elif e.ev == EV_GOLD or e.ev == EV_GOLDTAKE:
                    if e.privp == p:
                        pos = T
                        mine = e.priv
                    if e.ev == EV_GOLD and e.a == p:
                        pl.gtake[r][T] = e.priv
                    T += 1
                elif e.ev == EV_GOLDPASS and e.privp == p:
                    passpos = T
            if D == 0:
                continue
            if sawdraws:
                for k in range(D):
                    S0[k] = pl.gdraw[r][k]
            else:
                nk = 0
                for v in range(3):
                    for k in range(known[r][v]):
                        S0[nk] = v
                        nk += 1
                u = D - nk
                if u < 0 or not self.sample_gold(gpool, S0 + nk, u, rng):
                    return 0
                for k in range(D):
                    pl.gdraw[r][k] = S0[k]
                self.shuffle_ints(pl.gdraw[r], D, rng)
            if not self.s.pick and sawdraws:
                continue            # the finder saw every hand-out
            # vals: the drawn values not yet placed, to spread over positions.
            for k in range(D):
                pl.gtake[r][k] = -1
            if self.s.pick and passpos >= 0:
                # Earlier pickers took the cards p never saw, in any order.
                for k in range(passpos):
                    pl.gtake[r][k] = S0[nk + k]
                self.shuffle_ints(pl.gtake[r], passpos, rng)
            if mine >= 0:
                pl.gtake[r][pos] = mine
            ntake = 0
            for k in range(D):
                vals[k] = S0[k]
            u = D
            for k in range(D):
                if pl.gtake[r][k] >= 0:
                    for i in range(u):
                        if vals[i] == pl.gtake[r][k]:
                            u -= 1
                            vals[i] = vals[u]
                            break
            self.shuffle_ints(vals, u, rng)
            for k in range(D):
                if pl.gtake[r][k] < 0:
                    pl.gtake[r][k] = vals[ntake]
                    ntake += 1
        return 1

    cdef int make_plan(self, SabPlan* pl, int p, Rng* rng) noexcept nogil:
        """Draw every hidden part of a history consistent with ``p``'s log."""
        cdef int i, r, q, k, g, j, slot, cnt, pick, ok
        cdef int pool[MAXP + 1]
        cdef int m
        cdef Ev e
        cdef int n = self.s.n
        # Rounds: roles dealt, goals known to p, results.
        memset(pl.nroles, 0, sizeof(pl.nroles))
        memset(pl.ended, 0, sizeof(pl.ended))
        for r in range(MAXROUNDS):
            pl.own_role[r] = -1
            pl.gfirst[r] = 0
            pl.glast[r] = 0
            for g in range(3):
                pl.known[r][g] = -1
        r = 0
        for i in range(pl.nl):
            e = pl.log[i]
            if e.ev == EV_ROLE:
                if pl.ended[r]:
                    r += 1
                pl.nroles[r] += 1
                if e.actor == p:
                    pl.own_role[r] = e.priv
            elif e.ev == EV_REVEAL:
                pl.known[r][e.a] = e.b
            elif e.ev == EV_MAP and e.actor == p:
                pl.known[r][e.a] = e.priv
            elif e.ev == EV_ROUNDEND:
                pl.ended[r] = 1
                pl.mask[r] = e.a
                pl.gfirst[r] = i + 1
                pl.glast[r] = pl.nl
            if e.ev == EV_ROLE and r > 0 and pl.glast[r - 1] == pl.nl:
                pl.glast[r - 1] = i
        pl.nrounds = r + 1
        for r in range(pl.nrounds):
            if pl.ended[r]:
                for q in range(n):
                    pl.role[r][q] = (pl.mask[r] >> q) & 1
            else:
                m = 0
                for k in range(ROLE_DIG[n]):
                    pool[m] = 0
                    m += 1
                for k in range(ROLE_SAB[n]):
                    pool[m] = 1
                    m += 1
                if pl.own_role[r] >= 0:
                    for k in range(m):
                        if pool[k] == pl.own_role[r]:
                            m -= 1
                            pool[k] = pool[m]
                            break
                    pl.role[r][p] = pl.own_role[r]
                self.shuffle_ints(pool, m, rng)
                j = 0
                for q in range(pl.nroles[r]):
                    if q != p:
                        pl.role[r][q] = pool[j]
                        j += 1
            cnt = 0
            for k in range(6):
                ok = 1
                for g in range(3):
                    if pl.known[r][g] >= 0 and PERMS[k][g] != pl.known[r][g]:
                        ok = 0
                cnt += ok
            if cnt == 0:
                return 0
            pick = rng_int(rng, cnt)
            for k in range(6):
                ok = 1
                for g in range(3):
                    if pl.known[r][g] >= 0 and PERMS[k][g] != pl.known[r][g]:
                        ok = 0
                if ok:
                    if pick == 0:
                        pl.perm[r] = k
                        break
                    pick -= 1
        # Cards: others' public plays come from uniformly drawn held slots.
        pl.ndraw = 0
        pl.npass = 0
        memset(pl.used, 0, sizeof(pl.used))
        memset(pl.nopen, 0, sizeof(pl.nopen))
        cdef int j0 = 0, q0 = 0, newround = 0
        r = 0
        for i in range(pl.nl):
            e = pl.log[i]
            if e.ev == EV_ROUNDEND:
                newround = 1
            if e.ev == EV_ROLE and newround:
                if not self.finish_cards(pl, p, j0, q0, rng):
                    return 0
                j0 = pl.ndraw
                q0 = pl.npass
                newround = 0
            k = -2
            if e.ev == EV_DRAW:
                j = pl.ndraw
                pl.ndraw += 1
                pl.draw_player[j] = e.actor
                if e.actor == p:
                    pl.draw_kind[j] = e.priv
                    pl.used[e.priv] += 1
                else:
                    pl.draw_kind[j] = -1
                    if pl.nopen[e.actor] >= 8:
                        return 0
                    pl.open[e.actor][pl.nopen[e.actor]] = j
                    pl.nopen[e.actor] += 1
                continue
            elif e.ev == EV_PLACE:
                k = e.b
            elif e.ev == EV_ROCK:
                k = K_ROCK
            elif e.ev == EV_BREAK:
                k = K_BREAK + e.b
            elif e.ev == EV_REPAIR:
                k = K_REPAIR + e.b
            elif e.ev == EV_MAP:
                k = K_MAP
            elif e.ev == EV_PASS:
                k = -1
            if k == -2:
                continue
            q = e.actor
            if q == p:
                if k == -1:
                    pl.pass_player[pl.npass] = p
                    pl.pass_kind[pl.npass] = e.priv
                    pl.npass += 1
                continue
            slot = self.take_slot(pl, q, rng)
            if slot < 0:
                return 0
            if k >= 0:
                pl.draw_kind[slot] = k
                pl.used[k] += 1
            else:
                pl.pass_player[pl.npass] = q
                pl.pass_slot[pl.npass] = slot
                pl.npass += 1
        if not self.finish_cards(pl, p, j0, q0, rng):
            return 0
        return self.plan_gold(pl, p, rng)

    cdef int drive(self, SabPlan* pl) noexcept nogil:
        """From the initial state, apply the planned history until as many
        events as in the log are out; 0 on any inconsistency."""
        cdef int jd = 0, jp = 0, ip = 0, a, k, v, ph, steps = 0
        cdef int C = self.s.C
        cdef Ev e
        self.to_initial()
        while self.s.nlog < pl.nl:
            steps += 1
            if steps > 4 * MAXLOG:
                return 0
            ph = self.s.phase
            if ph == PH_ROLE:
                a = pl.role[self.s.round][self.s.deal_i]
                if self.s.role_left[a] <= 0:
                    return 0
            elif ph == PH_GOAL:
                a = pl.perm[self.s.round]
            elif ph == PH_DEAL or ph == PH_DRAW:
                if jd >= pl.ndraw:
                    return 0
                a = pl.draw_kind[jd]
                jd += 1
                if a < 0 or self.s.deck[a] <= 0:
                    return 0
            elif ph == PH_GOLD:
                v = self.s.gdrawn[0] + self.s.gdrawn[1] + self.s.gdrawn[2]
                a = pl.gdraw[self.s.round][v]
                if not 0 <= a < 3 or self.s.gold_pool[a] <= 0:
                    return 0
            elif ph == PH_SHARE:
                v = pl.gtake[self.s.round][self.s.gqi]
                if not 0 <= v < 3 or self.s.gdrawn[v] <= 0:
                    return 0
                a = 33 * C + (240 if self.s.pick or self.s.gq[self.s.gqi] == self.s.completer
                              else 243) + v
            elif ph == PH_PLAY:
                while ip < pl.nl and not (EV_PLACE <= pl.log[ip].ev <= EV_PASS):
                    ip += 1
                if ip >= pl.nl:
                    return 0
                e = pl.log[ip]
                ip += 1
                if e.actor != self.s.cur:
                    return 0
                if e.ev == EV_PLACE:
                    a = (2 * e.b + e.c) * C + e.a
                    k = e.b
                elif e.ev == EV_ROCK:
                    a = 32 * C + e.a
                    k = K_ROCK
                elif e.ev == EV_BREAK:
                    a = 33 * C + 10 * e.b + e.c
                    k = K_BREAK + e.b
                elif e.ev == EV_REPAIR:
                    a = 33 * C + 30 + 10 * (3 * e.b + e.a) + e.c
                    k = K_REPAIR + e.b
                elif e.ev == EV_MAP:
                    a = 33 * C + 210 + e.a
                    k = K_MAP
                else:
                    if jp >= pl.npass:
                        return 0
                    k = pl.pass_kind[jp]
                    jp += 1
                    if k < 0:
                        return 0
                    a = 33 * C + 213 + k
                if self.s.hand[self.s.cur][k] <= 0:
                    return 0
            else:
                return 0
            self.apply(a)
        return self.s.nlog == pl.nl

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A history drawn from ``player``'s information set by the procedure
        of the rules doc (section Information, "Resampling"); it reads only
        ``player``'s events.  Uses ``self`` as scratch space."""
        cdef SabPlan* pl
        cdef uint64_t key0 = self.info_key(player)
        cdef vector[int] truth = self.hist
        cdef int tries
        if self.s.nlog >= MAXLOG:
            out[0] = truth
            return
        pl = <SabPlan*>malloc(sizeof(SabPlan))
        if pl == NULL:
            out[0] = truth
            return
        memcpy(pl.log, self.s.log, sizeof(pl.log))
        pl.nl = self.s.nlog
        for tries in range(MAX_RESAMPLE_TRIES):
            if (self.make_plan(pl, player, rng) and self.drive(pl)
                    and self.info_key(player) == key0):
                out[0] = self.hist
                free(pl)
                return
        free(pl)
        # Unreachable in practice (see the rules doc): the true history.
        out[0] = truth

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """``resample_history`` then replay, skipping the replay when the
        scratch world already is that history (the usual case)."""
        cdef vector[int] h
        self.resample_history(player, rng, &h)
        if not (h == self.hist):
            self.replay(h.data(), <int>h.size())

    cdef Engine clone(self):
        cdef SaboteurEngine e = SaboteurEngine.__new__(SaboteurEngine)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef SaboteurEngine o = <SaboteurEngine>other
        self.copy_base(other)
        memcpy(&self.s, &o.s, sizeof(SabState))

    # ------------------------------------------------------------------
    # Python-facing helpers
    # ------------------------------------------------------------------
    @property
    def grid_radius(self) -> int:
        """Half side ``R`` of the maze grid (cells have |x|, |y| <= R)."""
        return self.s.R

    @property
    def num_actions(self) -> int:
        """Number of distinct player actions (33 * cells + 246)."""
        return 33 * self.s.C + 246

    def max_length(self) -> int:
        """True bound on the number of moves (chance and player) in a game."""
        return self.s.rounds * (3 * self.s.n + 2 * self.s.K)

    def cell_action(self, int x, int y) -> int:
        """Action-cell index of maze coordinate (x, y) (y grows southwards)."""
        if not (-self.s.R <= x <= self.s.R and -self.s.R <= y <= self.s.R):
            raise ValueError(f"cell ({x}, {y}) is outside the grid of radius {self.s.R}")
        return (y + self.s.R) * self.s.S + x + self.s.R

    def cell_xy(self, int acell) -> tuple:
        """Maze coordinate (x, y) of an action-cell index."""
        return (acell % self.s.S - self.s.R, acell // self.s.S - self.s.R)

    def state_view(self) -> dict:
        """Full (god's-eye) state as plain Python data, for tests and tools
        only; bots and features read ``player_view``."""
        cdef SabState* s = &self.s
        board = {}
        for i in range(s.nocc):
            g = s.occ[i]
            board[self.cell_xy(self.acell_of(g))] = self._cell_tuple(g)
        return {
            "phase": PHASE_NAMES[s.phase],
            "completer": s.completer,
            "round": s.round, "current": s.cur, "starter": s.starter,
            "last_placer": s.last_placer,
            "roles": [s.role[p] for p in range(s.n)],
            "role_pool": [s.role_left[0], s.role_left[1]],
            "goals": [s.goal_id[g] for g in range(3)],
            "goals_up": [bool(s.goal_up[g]) for g in range(3)],
            "goal_edges": [s.cell[s.goal_cell[g]] & 15 if s.goal_up[g] else None
                           for g in range(3)],
            "hands": [[s.hand[p][k] for k in range(NKINDS)] for p in range(s.n)],
            "deck": [s.deck[k] for k in range(NKINDS)],
            "discards": [[s.disc[p][k] for k in range(NKINDS)] for p in range(s.n)],
            "public_discards": [s.pub_disc[k] for k in range(NKINDS)],
            "broken": [[s.broken[p][t] for t in range(3)] for p in range(s.n)],
            "board": board,
            "reached": sorted(xy for xy, c in board.items() if c[3]),
            "frontier": sorted(self.cell_xy(self.acell_of(s.fr[i])) for i in range(s.nfr)),
            "gold_cards": [[s.gold[p][k] for k in range(3)] for p in range(s.n)],
            "gold_pool": [s.gold_pool[k] for k in range(3)],
            "gold_drawn": [s.gdrawn[k] for k in range(3)],
            "gold_recipients": [s.gq[i] for i in range(s.gqn)],
            "gold_detail": [(s.gloc[i], s.gval[i], [p for p in range(s.n) if (s.gseen[i] >> p) & 1])
                            for i in range(NGOLD)],
            "saboteur_gold": [s.sab_gold[p] for p in range(s.n)],
            "nuggets": [s.gold[p][0] + 2 * s.gold[p][1] + 3 * s.gold[p][2] + s.sab_gold[p]
                        for p in range(s.n)],
            "round_winners": [("none", "diggers", "saboteurs")[s.round_winner[r]]
                              for r in range(s.rounds)],
        }

    def _cell_tuple(self, int g):
        cdef int v = self.s.cell[g]
        return ((v >> 8) & 31, (v >> 13) & 1, v & 15, bool(v & CB_REACH), bool(v & CB_PASS))

    def action_to_string(self, int player, int action) -> str:
        """Human-readable action (chance outcomes read in the current phase)."""
        cdef int C = self.s.C, k, o, idx
        if player == CHANCE_PLAYER:
            ph = self.s.phase
            if ph == PH_ROLE:
                return f"deal role {ROLE_NAMES[action] if 0 <= action < 2 else action} to p{self.s.deal_i}"
            if ph == PH_GOAL:
                if 0 <= action < 6:
                    return "goals " + "/".join(GOAL_NAMES[PERMS[action][g]] for g in range(3))
                return f"goals {action}"
            if ph == PH_DEAL or ph == PH_DRAW:
                return f"draw {KIND_NAMES[action] if 0 <= action < NKINDS else action}"
            if ph == PH_GOLD:
                return f"draw gold card {action + 1}"
            return f"chance {action}"
        if action < 0 or action >= 33 * C + 246:
            return f"invalid action {action}"
        if action < 32 * C:
            k = (action // C) >> 1
            o = (action // C) & 1
            x, y = self.cell_xy(action % C)
            return f"place {KIND_NAMES[k]}{' rotated' if o else ''} at ({x},{y})"
        if action < 33 * C:
            x, y = self.cell_xy(action - 32 * C)
            return f"rockfall at ({x},{y})"
        idx = action - 33 * C
        if idx < 30:
            return f"break {TOOL_NAMES[idx // 10]} of p{idx % 10}"
        if idx < 210:
            idx -= 30
            return f"{KIND_NAMES[K_REPAIR + idx // 30]}: fix {TOOL_NAMES[(idx % 30) // 10]} of p{idx % 10}"
        if idx < 213:
            return f"map goal {idx - 210}"
        if idx < 240:
            return f"pass discarding {KIND_NAMES[idx - 213]}"
        if idx < 243:
            return f"keep gold card {idx - 239}"
        return f"hand on gold card {idx - 242}"

    def _visible(self, int i, int player) -> tuple:
        """Event ``i`` as ``player`` saw it: ``(ev, actor, a, b, c, private)``
        with ``private = -1`` unless ``player`` saw the private part."""
        cdef Ev e = self.s.log[i]
        seen = e.privp == player or (e.ev == EV_GOLD and e.a == player)
        return (e.ev, e.actor, e.a, e.b, e.c, e.priv if seen and e.privp >= 0 else -1)

    def _event_string(self, int i, int player) -> str:
        ev, actor, a, b, c, priv = self._visible(i, player)
        mine = priv >= 0
        if ev == EV_ROLE:
            return f"p{actor} role" + (f"={ROLE_NAMES[priv]}" if mine else "")
        if ev == EV_GOALS:
            return "goals laid"
        if ev == EV_DRAW:
            return f"p{actor} draws" + (f" {KIND_NAMES[priv]}" if mine else "")
        if ev == EV_PLACE:
            x, y = self.cell_xy(a)
            return f"p{actor} places {KIND_NAMES[b]}{' rotated' if c else ''} at ({x},{y})"
        if ev == EV_ROCK:
            x, y = self.cell_xy(a)
            return f"p{actor} rockfall ({x},{y}) removes {KIND_NAMES[b]}"
        if ev == EV_BREAK:
            return f"p{actor} breaks {TOOL_NAMES[b]} of p{c}"
        if ev == EV_REPAIR:
            return f"p{actor} {KIND_NAMES[K_REPAIR + b]} fixes {TOOL_NAMES[a]} of p{c}"
        if ev == EV_MAP:
            return f"p{actor} maps goal {a}" + (f" = {GOAL_NAMES[priv]}" if mine else "")
        if ev == EV_PASS:
            return f"p{actor} passes" + (f" discarding {KIND_NAMES[priv]}" if mine else "")
        if ev == EV_REVEAL:
            return f"goal {a} turned up: {GOAL_NAMES[b]}{' rotated' if c else ''}"
        if ev == EV_ROUNDEND:
            sabs = [p for p in range(self.s.n) if (a >> p) & 1]
            return (f"round {c + 1} won by {'diggers' if b == 0 else 'saboteurs'}; "
                    f"saboteurs {sabs}")
        if ev == EV_GOLDDRAW:
            return (f"p{actor} draws a gold card" + (f" for p{a}" if a != actor else "")
                    + (f" of {priv + 1}" if mine else ""))
        if ev == EV_GOLD:
            value = f" of {priv + 1}" if mine else ""
            if actor == a:
                return f"p{actor} keeps a gold card{value}"
            return f"p{actor} receives a gold card{value} from p{a}"
        if ev == EV_GOLDTAKE:
            return f"p{actor} takes a gold card" + (f" of {priv + 1}" if mine else "")
        if ev == EV_GOLDPASS:
            text = f"p{a} passes {b} gold card(s) to p{actor}"
            if mine:
                text += ": " + " ".join(str(v + 1) for v, cnt in enumerate(_gold_counts(priv))
                                        for _ in range(cnt))
            return text
        if ev == EV_SABGOLD:
            return f"p{actor} gets {a} nuggets"
        return f"event {ev}"

    def info_string(self, int player) -> str:
        """Everything ``player`` has observed, in order (perfect recall)."""
        lines = [f"p{player} {self.game_string}"]
        for i in range(self.s.nlog):
            lines.append(self._event_string(i, player))
        return "\n".join(lines)

    cdef int kgoal(self, int player, int g) noexcept nogil:
        return sab_known_goal(&self.s, player, g)

    def player_view(self, int player) -> dict:
        """What ``player`` knows now, as plain typed fields (see the rules doc,
        "Player view").  Every field is public or ``player``'s own."""
        cdef SabState* s = &self.s
        cdef int n = s.n, p, q, k, t, g, i
        if not 0 <= player < n:
            raise ValueError(f"player must be in [0, {n - 1}], got {player}")
        board = {}
        for i in range(s.nocc):
            board[self.cell_xy(self.acell_of(s.occ[i]))] = self._cell_tuple(s.occ[i])
        board[(0, 0)] = self._cell_tuple(self.xy(0, 0))
        for g in range(3):
            if s.goal_up[g]:
                board[(s.gd, 2 * g - 2)] = self._cell_tuple(s.goal_cell[g])
        drawn_public = s.phase == PH_GOLD or s.phase == PH_SHARE
        holder = self.gold_holder() if drawn_public else -1
        if s.phase == PH_GOLD and s.pick:
            holder = s.gq[0]
        known_gold = []
        if not s.pick:
            known_gold = sorted((s.gloc[i], s.gval[i]) for i in range(NGOLD)
                                if s.gloc[i] >= 0 and s.gloc[i] != player
                                and (s.gseen[i] >> player) & 1)
        return {
            "player": player,
            "num_players": n,
            "round": min(s.round, s.rounds - 1),
            "rounds": s.rounds,
            "phase": PHASE_NAMES[s.phase],
            "to_move": self.current_player(),
            "gold_handout": "pick" if s.pick else "finder",
            "grid_radius": s.R,
            "goal_distance": s.gd,
            "role": s.role[player],
            "roles": [s.role[q] for q in range(n)] if s.roles_public else None,
            "hand": [s.hand[player][k] for k in range(NKINDS)],
            "discards": [s.disc[player][k] for k in range(NKINDS)],
            "hand_sizes": [s.hand_n[q] for q in range(n)],
            "deck_size": s.deck_n,
            "broken": [[s.broken[q][t] for t in range(3)] for q in range(n)],
            "board": board,
            "reached": sorted(xy for xy, c in board.items() if c[3]),
            "frontier": sorted(self.cell_xy(self.acell_of(s.fr[i])) for i in range(s.nfr)),
            "goals_up": [bool(s.goal_up[g]) for g in range(3)],
            "known_goals": [self.kgoal(player, g) for g in range(3)],
            "starter": s.starter,
            "last_placer": s.last_placer,
            "played": [[s.played[q][k] for k in range(NKINDS)] for q in range(n)],
            "passes": [s.passes[q] for q in range(n)],
            "maps": [[s.mapped[q][g] for g in range(3)] for q in range(n)],
            "breaks": [[s.brk_on[q][p] for p in range(n)] for q in range(n)],
            "repairs": [[s.rep_on[q][p] for p in range(n)] for q in range(n)],
            "public_discards": [s.pub_disc[k] for k in range(NKINDS)],
            "round_winners": [("diggers", "saboteurs")[s.round_winner[r] - 1]
                              for r in range(s.rounds) if s.round_winner[r]],
            "completer": s.completer,
            "gold": [s.gold[player][k] for k in range(3)],
            "nuggets": (s.gold[player][0] + 2 * s.gold[player][1] + 3 * s.gold[player][2]
                        + s.sab_gold[player]),
            "gold_card_counts": [s.gold[q][0] + s.gold[q][1] + s.gold[q][2] for q in range(n)],
            "saboteur_gold": [s.sab_gold[q] for q in range(n)],
            "gold_recipients": [s.gq[i] for i in range(s.gqn)] if drawn_public else [],
            "gold_next": s.gq[s.gqi] if s.phase == PH_SHARE else -1,
            "gold_holder": holder,
            "gold_drawn_count": (s.gdrawn[0] + s.gdrawn[1] + s.gdrawn[2]) if drawn_public else 0,
            "held_gold": [s.gdrawn[k] for k in range(3)] if holder == player else None,
            "known_gold": known_gold,
        }

    def obs_string(self, int player) -> str:
        """The current view of ``player`` (rendered from ``player_view``)."""
        v = self.player_view(player)
        n = v["num_players"]
        lines = [f"round {v['round'] + 1}/{v['rounds']} phase {v['phase']}"
                 f" to move p{self.s.cur}",
                 self._maze_ascii(player)]
        role = v["role"]
        lines.append(f"you p{player}: {ROLE_NAMES[role] if role >= 0 else 'no role yet'}")
        if v["roles"] is not None:
            lines.append("roles: " + " ".join(ROLE_NAMES[r][0] for r in v["roles"]))
        lines.append("hand: " + ", ".join(f"{KIND_NAMES[k]} x{c}"
                                         for k, c in enumerate(v["hand"]) if c))
        lines.append("goals: " + " ".join(GOAL_NAMES[g] if g >= 0 else "?"
                                          for g in v["known_goals"]))
        lines.append("broken: " + " ".join(
            f"p{q}:" + ("".join("PLC"[t] for t in range(3) if v["broken"][q][t]) or "-")
            for q in range(n)))
        lines.append("hand sizes: " + " ".join(str(h) for h in v["hand_sizes"])
                     + f" deck {v['deck_size']}")
        lines.append(f"gold: {v['nuggets']} nuggets")
        if v["gold_holder"] >= 0:
            text = f"gold drawn for p{v['gold_holder']}: {v['gold_drawn_count']} card(s)"
            if v["held_gold"] is not None:
                text += " " + " ".join(str(k + 1) for k in range(3)
                                       for _ in range(v["held_gold"][k]))
            if v["gold_next"] >= 0:
                text += f", next to p{v['gold_next']}"
            lines.append(text)
        if v["known_gold"]:
            lines.append("gold handed out: " + " ".join(f"p{q}:{val + 1}"
                                                        for q, val in v["known_gold"]))
        return "\n".join(lines)

    def _maze_ascii(self, int viewer) -> str:
        """ASCII maze; ``viewer`` < 0 shows every goal, else what ``viewer`` knows."""
        cdef SabState* s = &self.s
        cells = [s.occ[i] for i in range(s.nocc)] + [s.goal_cell[g] for g in range(3)]
        cells.append(self.xy(0, 0))
        xs = [self.cell_xy(self.acell_of(g))[0] for g in cells]
        ys = [self.cell_xy(self.acell_of(g))[1] for g in cells]
        x0, x1 = max(min(xs) - 1, -s.R), min(max(xs) + 1, s.R)
        y0, y1 = max(min(ys) - 1, -s.R), min(max(ys) + 1, s.R)
        out = ["     " + "".join(f"{x:^3d}" for x in range(x0, x1 + 1))]
        for y in range(y0, y1 + 1):
            rows = ["", "", ""]
            for x in range(x0, x1 + 1):
                v = s.cell[self.xy(x, y)]
                if not v & CB_OCC:
                    mark = "," if s.frm[self.xy(x, y)] else "."
                    rows[0] += "   "
                    rows[1] += f" {mark} "
                    rows[2] += "   "
                    continue
                code = (v >> 8) & 31
                if v & CB_GOAL:
                    slot = code - CODE_GOAL
                    known = s.goal_id[slot] if viewer < 0 else self.kgoal(viewer, slot)
                    ch = "?TNW"[known + 1]
                    rows[0] += "   "
                    rows[1] += f"[{ch}]"
                    rows[2] += "   "
                    continue
                e = v & 15
                if code == CODE_START:
                    c = "S"
                elif code >= CODE_GOAL:
                    c = "T" if s.goal_id[code - CODE_GOAL] == 0 else "o"
                else:
                    c = "+" if v & CB_PASS else "x"
                rows[0] += " " + ("|" if e & 1 else " ") + " "
                rows[1] += ("-" if e & 8 else " ") + c + ("-" if e & 2 else " ")
                rows[2] += " " + ("|" if e & 4 else " ") + " "
            out.append("     " + rows[0])
            out.append(f"{y:>4d} " + rows[1])
            out.append("     " + rows[2])
        return "\n".join(out)

    def render(self) -> str:
        """The maze in ASCII plus the whole hidden state (for people and tests)."""
        cdef SabState* s = &self.s
        lines = [f"round {min(s.round + 1, s.rounds)}/{s.rounds} phase "
                 f"{PHASE_NAMES[s.phase]}"
                 f" current p{s.cur} deck {s.deck_n}",
                 self._maze_ascii(-1),
                 "goals: " + " ".join(GOAL_NAMES[s.goal_id[g]] if s.goal_id[g] >= 0 else "-"
                                      for g in range(3))]
        for p in range(s.n):
            role = ROLE_NAMES[s.role[p]] if s.role[p] >= 0 else "-"
            hand = ",".join(f"{k}x{s.hand[p][k]}" for k in range(NKINDS) if s.hand[p][k])
            disc = ",".join(f"{k}x{s.disc[p][k]}" for k in range(NKINDS) if s.disc[p][k])
            tools = "".join("PLC"[t] for t in range(3) if s.broken[p][t]) or "-"
            g = s.gold[p]
            lines.append(f"p{p} {role} broken:{tools} hand:[{hand}] discarded:[{disc}] "
                         f"gold:{g[0]}/{g[1]}/{g[2]}+{s.sab_gold[p]}")
        lines.append(f"gold pile: {s.gold_pool[0]}/{s.gold_pool[1]}/{s.gold_pool[2]} "
                     f"drawn: {s.gdrawn[0]}/{s.gdrawn[1]}/{s.gdrawn[2]}")
        return "\n".join(lines)

    # ------------------------------------------------------------------
    # tensors
    # ------------------------------------------------------------------
    def obs_tensor_size(self) -> int:
        """8 board planes, goal knowledge, tools, hand, roles, turn, counts, gold."""
        n = self.s.n
        return (8 * self.s.C + 12 + 3 * n + NKINDS + 3 + 2 * n + n + NPHASES
                + n + 1 + MAXROUNDS + 4 + 2 * n + 3 + 3 * n)

    def max_events(self) -> int:
        """Bound on logged events: per round ``n`` roles, the goals, every card
        drawn and played once, 3 reveals, the round end and at most ``3n``
        gold events (draws, hand-outs, passes; or saboteur payments)."""
        return self.s.rounds * (4 * self.s.n + 2 * self.s.K + 5)

    def event_size(self) -> int:
        """Floats per event in the information-state tensor."""
        return 1 + NEV + (self.s.n + 1) + 3 + 2

    def info_tensor_size(self) -> int:
        """Observation, this round's public summary, then the event sequence."""
        n = self.s.n
        return (self.obs_tensor_size() + n * NKINDS + n + NKINDS + 3 * n + 3 * MAXROUNDS
                + self.max_events() * self.event_size())

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Write the observation tensor of ``player`` into ``out``."""
        self._fill_obs(player, out)

    cdef int _fill_obs(self, int player, float[:] out):
        cdef int C = self.s.C, n = self.s.n, i, v, g, k, t, p, o = 0, known
        out[:] = 0.0
        for i in range(C):
            v = self.s.cell[self.grid_of(i)]
            if v & CB_OCC and not (v & CB_GOAL):
                out[i] = v & 1
                out[C + i] = (v >> 1) & 1
                out[2 * C + i] = (v >> 2) & 1
                out[3 * C + i] = (v >> 3) & 1
                out[4 * C + i] = 1.0 if v & CB_PASS else 0.0
                out[5 * C + i] = 1.0
                out[6 * C + i] = 1.0 if v & CB_REACH else 0.0
            elif v & CB_GOAL:
                out[7 * C + i] = 1.0
        o = 8 * C
        for g in range(3):
            known = self.kgoal(player, g)
            out[o + 4 * g + known + 1] = 1.0
        o += 12
        for p in range(n):
            for t in range(3):
                out[o + 3 * p + t] = self.s.broken[p][t]
        o += 3 * n
        for k in range(NKINDS):
            out[o + k] = self.s.hand[player][k]
        o += NKINDS
        out[o + self.s.role[player] + 1] = 1.0
        o += 3
        if self.s.roles_public:
            for p in range(n):
                out[o + 2 * p + self.s.role[p]] = 1.0
        o += 2 * n
        if self.s.phase == PH_PLAY or self.s.phase == PH_SHARE:
            out[o + self.s.cur] = 1.0
        o += n
        out[o + self.s.phase] = 1.0
        o += NPHASES
        for p in range(n):
            out[o + p] = self.s.hand_n[p]
        o += n
        out[o] = self.s.deck_n
        o += 1
        out[o + min(self.s.round, MAXROUNDS - 1)] = 1.0
        o += MAXROUNDS
        for k in range(3):
            out[o + k] = self.s.gold[player][k]
        out[o + 3] = self.s.sab_gold[player]
        o += 4
        for p in range(n):
            out[o + p] = self.s.gold[p][0] + self.s.gold[p][1] + self.s.gold[p][2]
            out[o + n + p] = self.s.sab_gold[p]
        o += 2 * n
        if (self.s.phase == PH_GOLD or self.s.phase == PH_SHARE) and player == self.gold_holder():
            for k in range(3):
                out[o + k] = self.s.gdrawn[k]
        o += 3
        for i in range(NGOLD):
            p = self.s.gloc[i]
            if not self.s.pick and p >= 0 and p != player and (self.s.gseen[i] >> player) & 1:
                out[o + 3 * p + self.s.gval[i]] += 1.0
        o += 3 * n
        return o

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """Write the information-state tensor of ``player`` into ``out``."""
        cdef int o = self._fill_obs(player, out), n = self.s.n, p, k, g, r
        for p in range(n):
            for k in range(NKINDS):
                out[o + p * NKINDS + k] = self.s.played[p][k]
        o += n * NKINDS
        for p in range(n):
            out[o + p] = self.s.passes[p]
        o += n
        for k in range(NKINDS):
            out[o + k] = self.s.disc[player][k]
        o += NKINDS
        for p in range(n):
            for g in range(3):
                out[o + 3 * p + g] = self.s.mapped[p][g]
        o += 3 * n
        for r in range(MAXROUNDS):
            if self.s.round_winner[r]:
                out[o + 3 * r + self.s.round_winner[r]] = 1.0
            else:
                out[o + 3 * r] = 1.0
        o += 3 * MAXROUNDS
        cdef int size = self.event_size(), i, f
        for i in range(self.s.nlog):
            ev, actor, a, b, c, priv = self._visible(i, player)
            f = o + i * size
            out[f] = 1.0
            out[f + 1 + ev] = 1.0
            out[f + 1 + NEV + actor + 1] = 1.0
            f += 1 + NEV + n + 1
            out[f] = a + 1
            out[f + 1] = b + 1
            out[f + 2] = c + 1
            if priv >= 0:
                out[f + 3] = 1.0
                out[f + 4] = priv + 1

    # ------------------------------------------------------------------
    # snapshot and invariants
    # ------------------------------------------------------------------
    def dump(self) -> bytes:
        """Versioned snapshot: the game string and the action history."""
        gs = self.game_string.encode()
        return (SNAPSHOT_MAGIC + _struct.pack("<III", SNAPSHOT_VERSION, len(gs), self.hist.size())
                + gs + _struct.pack(f"<{self.hist.size()}i", *self.hist))

    def load(self, data) -> None:
        """Restore a ``dump`` snapshot by replaying its history, every action
        checked; ValueError (state unchanged) on anything malformed."""
        cdef int nhead = len(SNAPSHOT_MAGIC) + 12
        if not isinstance(data, (bytes, bytearray)) or len(data) < nhead:
            raise ValueError("saboteur snapshot is too short")
        data = bytes(data)
        if data[:len(SNAPSHOT_MAGIC)] != SNAPSHOT_MAGIC:
            raise ValueError("not a saboteur snapshot (bad magic)")
        version, ngs, nh = _struct.unpack("<III", data[len(SNAPSHOT_MAGIC):nhead])
        if version != SNAPSHOT_VERSION:
            raise ValueError(f"unsupported saboteur snapshot version {version}")
        if len(data) != nhead + ngs + 4 * nh:
            raise ValueError("saboteur snapshot length does not match its header")
        if data[nhead:nhead + ngs] != self.game_string.encode():
            raise ValueError(f"saboteur snapshot is for {data[nhead:nhead + ngs]!r}, "
                             f"not {self.game_string!r}")
        actions = _struct.unpack(f"<{nh}i", data[nhead + ngs:])
        saved = [a for a in self.hist]
        self.to_initial()
        try:
            for a in actions:
                self.py_apply(a)
        except ValueError as exc:
            self.to_initial()
            for a in saved:
                self.apply(a)
            raise ValueError(f"saboteur snapshot holds an illegal history: {exc}") from None

    def _check_gold(self) -> None:
        """Gold conservation: the 28 cards against the pile / drawn / held counts."""
        cdef SabState* s = &self.s
        n = s.n
        everyone = (1 << n) - 1
        pile, drawn, held = [0] * 3, [0] * 3, [[0] * 3 for _ in range(n)]
        for i in range(NGOLD):
            v, loc, seen = s.gval[i], s.gloc[i], s.gseen[i]
            _require(0 <= v < 3,
                     "gold: invalid card value")
            _require(seen & ~everyone == 0,
                     "gold: seen by a player not in the game")
            if loc == LOC_PILE:
                _require(seen == 0,
                         "gold: a card in the pile was seen")
                pile[v] += 1
            elif loc == LOC_DRAWN:
                holder = self.gold_holder()
                _require(0 <= holder < n and (seen >> holder) & 1
                         and (s.pick or seen == 1 << holder),
                         "gold: a drawn card not seen by its holder")
                drawn[v] += 1
            else:
                _require(0 <= loc < n,
                         "gold: card held by a player not in the game")
                _require((seen >> loc) & 1,
                         "gold: a holder does not know their own card")
                held[loc][v] += 1
        for k in range(3):
            _require([pile[k], drawn[k]] == [s.gold_pool[k], s.gdrawn[k]],
                     f"gold: {k + 1}-nugget pile or drawn count differs from the cards")
            _require(all(held[p][k] == s.gold[p][k] for p in range(n)),
                     f"gold: {k + 1}-nugget holdings differ from the cards")
            _require(pile[k] + drawn[k] + sum(held[p][k] for p in range(n)) == GOLD_COUNT[k],
                     f"gold: {k + 1}-nugget cards not conserved")
        left = sum(drawn)
        if s.phase == PH_GOLD or s.phase == PH_SHARE:
            _require(0 <= s.completer < n and s.cur == (
                         s.gq[s.gqi] if s.pick and s.phase == PH_SHARE else s.completer),
                     "gold: bad player to move")
            _require(all(0 <= s.gq[i] < n and s.role[s.gq[i]] == 0 for i in range(s.gqn)),
                     "gold: a recipient is not a gold-digger")
        if s.phase == PH_GOLD:
            _require(s.gqi == 0 and left < s.gqn,
                     "gold: drawing past the recipients")
        elif s.phase == PH_SHARE:
            _require(left == s.gqn - s.gqi > 0,
                     "gold: drawn cards differ from recipients left")
            _require(sum(1 for k in range(3) if drawn[k]) >= 2,
                     "gold: a decision with only one value left")
        else:
            _require(left == 0,
                     "gold: drawn cards outside a distribution")

    def check_invariants(self) -> None:
        """Raise ValueError naming the broken conservation law."""
        cdef SabState* s = &self.s
        cdef SaboteurEngine c
        n = s.n
        on_board = [0] * NKINDS
        for i in range(s.nocc):
            v = s.cell[s.occ[i]]
            _require(v & CB_OCC and not v & CB_GOAL,
                     "maze: occupied-cell list names an empty cell")
            code = (v >> 8) & 31
            _require(code < NTUN,
                     "maze: occupied-cell list names a non-tunnel card")
            _require(self.inside(s.occ[i]),
                     "maze: a card lies outside the grid")
            on_board[code] += 1
        _require(s.nocc + 4 == sum(1 for g in range(s.W * s.W) if s.cell[g] & CB_OCC),
                 "maze: cards on the grid differ from the occupied-cell list")
        for k in range(NKINDS):
            tools = sum(s.broken[p][k - K_BREAK] for p in range(n)) if K_BREAK <= k < K_REPAIR else 0
            total = (s.deck[k] + sum(s.hand[p][k] + s.disc[p][k] for p in range(n))
                     + s.pub_disc[k] + on_board[k] + tools)
            _require(s.deck[k] >= 0 and all(s.hand[p][k] >= 0 for p in range(n)),
                     f"cards: negative count of {KIND_NAMES[k]}")
            _require(total == s.init_deck[k],
                     f"cards: {KIND_NAMES[k]} not conserved ({total} != {s.init_deck[k]})")
        _require(s.deck_n == sum(s.deck[k] for k in range(NKINDS)),
                 "cards: deck size mismatch")
        for p in range(n):
            _require(s.hand_n[p] == sum(s.hand[p][k] for k in range(NKINDS)),
                     f"cards: hand size of p{p} mismatch")
            _require(s.hand_n[p] <= s.hand_size,
                     f"cards: p{p} holds more than a full hand")
            for t in range(3):
                _require(s.broken[p][t] in (0, 1),
                         "tools: more than one broken tool of a kind")
        dealt = [s.role[p] for p in range(n) if s.role[p] >= 0]
        _require(all(r in (0, 1) for r in dealt),
                 "roles: invalid role")
        _require(dealt.count(1) + s.role_left[1] == ROLE_SAB[n],
                 "roles: saboteur cards not conserved")
        _require(dealt.count(0) + s.role_left[0] == ROLE_DIG[n],
                 "roles: digger cards not conserved")
        if s.phase > PH_GOAL and s.phase != PH_OVER:
            _require(sorted(s.goal_id[g] for g in range(3)) == [0, 1, 2],
                     "goals: not one treasure and two stones")
        self._check_gold()
        _require(sum(s.sab_gold[p] for p in range(n)) >= 0,
                 "gold: negative saboteur gold")
        c = self.clone()
        c.recompute()
        for g in range(s.W * s.W):
            if (c.s.cell[g] != s.cell[g]) or (c.s.frm[g] != s.frm[g]):
                raise ValueError("maze: incremental reachability differs from a full recompute")
