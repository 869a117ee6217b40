# cython: language_level=3
"""Saboteur (AMIGO 2004) rules engine.

The whole state lives in one C struct (``SabState``); a clone is a struct
copy sharing the parameter object.  The maze is a square grid of side ``2R+1`` centred on the start card,
padded by one empty ring so neighbour look-ups never leave the array.
``R = max(T + 3, goal_distance)`` where ``T`` is the number of tunnel cards:
a card placed at Manhattan distance ``d`` from the start must be joined to
it by a chain of ``d - 1`` other cards (at most ``T - 1`` tunnels and the
three goals), so ``d <= T + 3`` and no legal game can leave the grid.

Reachability from the start is kept incrementally: ``CB_REACH`` marks cards
joined to the start, ``frm[c]`` is, for an empty cell ``c``, the set of
directions from which a reached open edge points at it, and ``fr`` lists
those cells.  A placement extends the reached set by a breadth-first search
from the new card only; a rockfall recomputes it from the start.  ``front``
and ``tun`` keep the sorted lists that placement and rockfall ids index
(``saboteur_actions.pxd``), updated locally by each placement and rockfall.

Information: every event goes to a log; a player's information-state string,
tensor event sequence and key are all built from the same *visible tuples* of
that log (``_visible``), and ``player_view`` gives the current view as typed
fields.  ``resample_history`` draws a whole history from a player's
information set by reading only that player's events (``make_plan``) and
replays it (``drive``); see the rules doc, "Resampling".  Snapshots are the
history itself, replayed and checked on ``load``.

Files: ``saboteur.pxd`` declares the sizes, the state and the engine (for
``saboteur_rollout.pyx``); ``saboteur_catalog.pxi`` the card tables;
``saboteur_actions.pxd`` the action layout (the ``A_*`` ids, mirrored in
``games/saboteur/__init__.py``); this file the parameters (``SabParams``, shared by an
engine and its clones) and the rules kernel; ``saboteur_render.pxi`` the
strings, views and tensors; ``saboteur_persist.pxi`` snapshots and
invariant checks.

See ``docs/rules/saboteur.md`` for the rules as implemented and the action
encoding.
"""
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport exp, log, INFINITY
from libcpp.vector cimport vector
from libc.stdint cimport uint64_t, uint8_t, uint16_t, int8_t, int16_t

from src_cy.saboteur.actions cimport (A_ROCK_BLOCK, A_STRIDE, A_BREAK,
                                      A_REPAIR, A_MAP, A_PASS, A_KEEP, A_HAND_ON,
                                      A_TAIL_SIZE)
from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, mix64, CHANCE_PLAYER,
                            TERMINAL_PLAYER, MAX_BRANCHING, ENGINE_MAX_PLAYERS)

import struct as _struct

from src_cy.saboteur.view import SaboteurView


cdef enum:
    # Cap on redraws of the gold plan (``make_plan``); the acceptance rate
    # is at least about 1/10, so the cap is never reached in practice.
    MAX_GOLD_DRAWS = 100000

# Card edge masks that fit a cell (``fit_set``): bit ``e`` of
# ``_FIT_SET[cons][req]`` is set when ``e & cons == req`` (the edges towards
# tunnel cards match theirs); bit ``e`` of ``_MEET_SET[m]`` when ``e & m``
# (an open edge meets a reached open edge).
cdef int _FIT_SET[16][16]
cdef int _MEET_SET[16]


cdef void _fill_fit_tables() noexcept nogil:
    cdef int cons, req, e, m
    for cons in range(16):
        for req in range(16):
            _FIT_SET[cons][req] = 0
            for e in range(16):
                if (e & cons) == req:
                    _FIT_SET[cons][req] |= 1 << e
    for m in range(16):
        _MEET_SET[m] = 0
        for e in range(16):
            if e & m:
                _MEET_SET[m] |= 1 << e


_fill_fit_tables()

cdef struct SabScratch:
    # Working memory of ``resample_history``: the kept and the current plan,
    # and the public counts at the other players' card decisions.
    SabPlan plans[2]
    SabPub pub[MAXLOG]


# One buffer for the process, allocated at the first resample (resampling
# runs in one thread at a time, like everything else on an engine).
cdef SabScratch* _scratch = NULL


cdef SabScratch* _resample_scratch() noexcept nogil:
    global _scratch
    if _scratch == NULL:
        _scratch = <SabScratch*>malloc(sizeof(SabScratch))
    return _scratch


cdef inline int fit_set(const SabConf* c, const SabState* s, int g) noexcept nogil:
    """The open-edge masks ``e`` (bit ``e`` of the result, 16 bits) a
    tunnel card may have on the empty cell ``g``: every edge towards a
    tunnel card matches it (open/open, wall/wall; face-down goals impose
    nothing) and an open edge meets a reached open edge (``frm[g]``)."""
    cdef int d, nv, cons = 0, req = 0
    for d in range(4):
        nv = s.cell[g + sab_doff(c, d)]
        if (nv & CB_OCC) and not (nv & CB_GOAL):
            cons |= 1 << d
            req |= ((nv >> ((d + 2) & 3)) & 1) << d
    return _FIT_SET[cons][req] & _MEET_SET[s.frm[g]]


cdef inline int played_kind(const Ev* e) noexcept nogil:
    """The card kind a public play event shows; -1 for a pass (kind
    hidden), -2 for an event that is no card decision."""
    if e.ev == EV_PLACE:
        return e.b
    if e.ev == EV_ROCK:
        return K_ROCK
    if e.ev == EV_BREAK:
        return K_BREAK + e.b
    if e.ev == EV_REPAIR:
        return K_REPAIR + e.b
    if e.ev == EV_MAP:
        return K_MAP
    if e.ev == EV_PASS:
        return -1
    return -2


cdef inline int next_pass_kind(const SabPlan* pl, int* jp) noexcept nogil:
    """The kind of the plan's next pass (index ``jp[0]``, then advanced);
    -1 if the plan has none."""
    if jp[0] >= pl.npass:
        return -1
    jp[0] += 1
    return pl.pass_kind[jp[0] - 1]


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


cdef inline int pub_legal(const SabPub* u, unsigned int held) noexcept nogil:
    """Legal actions of a mover holding the kinds of the bit set ``held``
    where the public counts are ``u``: ``legal_actions``' length, capped
    likewise."""
    cdef int n = 0, k
    while held:
        k = __builtin_ctz(held)
        n += 1 + u.a[k]
        held &= held - 1
    return n if n < MAX_BRANCHING else MAX_BRANCHING


cdef enum:
    LOG_TABLE = 1024

# log(i) for 0 < i < LOG_TABLE (the weights' factors are small integers).
cdef double _LOG_INT[LOG_TABLE]


cdef void _fill_log_table() noexcept nogil:
    cdef int i
    _LOG_INT[0] = -INFINITY
    for i in range(1, LOG_TABLE):
        _LOG_INT[i] = log(<double>i)


_fill_log_table()


cdef inline double log_int(int x) noexcept nogil:
    """log(x) for an integer x > 0 (the same value as ``log(<double>x)``)."""
    return _LOG_INT[x] if x < LOG_TABLE else log(<double>x)


# Worlds ``resample_history`` could not draw consistently (see
# ``resample_failures``); stays 0 unless the procedure has a bug.
cdef long long _resample_failures = 0
# Why the last ``resample_history`` failed (0: it did not); see ``_FAILURES``.
cdef int _resample_error = 0

# Proposals per world of the importance-corrected card draw (sampling-
# importance-resampling; rules doc, "Resampling"; ``set_resample_proposals``).
DEFAULT_RESAMPLE_PROPOSALS = 4
cdef int _proposals = DEFAULT_RESAMPLE_PROPOSALS


def set_resample_proposals(int k) -> int:
    """Proposals K per resampled world (K = 1: the uncorrected card
    proposal); returns the previous K. K >= 1."""
    global _proposals
    if k < 1:
        raise ValueError(f"proposals must be >= 1, got {k}")
    old = _proposals
    _proposals = k
    return old


_FAILURES = {
    1: "the event log is full",
    2: "out of memory for the plan",
    3: "no plan consistent with the player's events was drawn",
    4: "the drawn plan did not replay",
    5: "the replayed world has another information key than the player's",
}


def resample_failures() -> int:
    """How many resamples (process-wide, since import) failed to draw a world
    that replays to the player's information state.  The procedure draws
    consistent worlds by construction, so this stays 0; the tests assert it."""
    return _resample_failures


def _raise_if_resample_failed(int player) -> None:
    """RuntimeError naming the failure of the last ``resample_history``."""
    if _resample_error:
        raise RuntimeError(f"saboteur resample for player {player} failed: "
                           f"{_FAILURES[_resample_error]} (a bug in the resampler; "
                           f"the true history is never returned instead)")


def _public_legal_count(SaboteurEngine engine) -> int:
    """The number of legal actions of the player to move in a play phase,
    counted the way the resampler's weights count it: from the public counts
    (``pub_counts``) and the kinds the mover holds.  For the tests, which
    compare it with ``py_legal_actions``."""
    cdef SabPub u
    cdef unsigned int held = 0
    cdef int k
    if engine.s.phase != PH_PLAY:
        raise ValueError("not a play phase")
    engine.pub_counts(&u)
    for k in range(NKINDS):
        if engine.s.hand[engine.s.cur][k]:
            held |= 1u << k
    return pub_legal(&u, held)


#: The action layout of ``saboteur_actions.pxd`` (mirrored in games/saboteur/__init__.py).
ACTION_LAYOUT = {
    "A_ROCK_BLOCK": A_ROCK_BLOCK, "A_STRIDE": A_STRIDE,
    "A_BREAK": A_BREAK, "A_REPAIR": A_REPAIR, "A_MAP": A_MAP, "A_PASS": A_PASS,
    "A_KEEP": A_KEEP, "A_HAND_ON": A_HAND_ON, "A_TAIL_SIZE": A_TAIL_SIZE,
}


def base_counts() -> list:
    """Full-deck count of each of the 27 card kinds (index = kind id)."""
    return [BASE_COUNT[k] for k in range(NKINDS)]


def scaled_counts(int deck_scale) -> list:
    """Count of each card kind at ``deck_scale`` percent (round half up)."""
    return [(BASE_COUNT[k] * deck_scale + 50) // 100 for k in range(NKINDS)]


#: The game parameters ``SabParams`` takes, in game-string order.
PARAM_NAMES = ("deck_scale", "goal_distance", "gold_handout", "hand_size", "players",
               "rounds", "utility")
UTILITIES = ("gold", "win")
GOLD_HANDOUTS = ("pick", "finder")


def _int_param(params, str name, int lo, int hi) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"saboteur parameter {name}={value!r} is not an integer")
    if not lo <= value <= hi:
        raise ValueError(f"saboteur parameter {name}={value} out of range {lo}..{hi}")
    return value


def _choice_param(params, str name, tuple choices) -> str:
    value = params[name]
    if value not in choices:
        raise ValueError(f"saboteur parameter {name}={value!r} is not one of {choices}")
    return value


cdef class SabParams:
    """One game's parameters and derived sizes, immutable.

    ``params`` maps every name of ``PARAM_NAMES`` to its value, as validated
    by the game's parameter table (``games.saboteur.PARAMS``: the valid
    ranges live there).  This class checks only what its C state can hold
    (seats of the role table, rounds, the grid and frontier sizes, a hand
    within the deck); ValueError names a missing, unknown or unfitting
    parameter.  Engines and their clones share one object."""

    def __init__(self, params):
        cdef int k, players, deck_scale, goal_distance, hand_size
        names = set(params)
        if names != set(PARAM_NAMES):
            missing = sorted(set(PARAM_NAMES) - names)
            unknown = sorted(names - set(PARAM_NAMES))
            raise ValueError(f"saboteur parameters: missing {missing}, unknown {unknown}")
        players = _int_param(params, "players", 3, MAXP)
        deck_scale = _int_param(params, "deck_scale", 1, 1 << 16)
        goal_distance = _int_param(params, "goal_distance", 1, MAXR)
        hand_size = _int_param(params, "hand_size", 0, 1 << 16)
        memset(&self.c, 0, sizeof(SabConf))
        self.c.n = players
        self.c.rounds = _int_param(params, "rounds", 1, MAXROUNDS)
        self.c.gd = goal_distance
        self.c.util = UTILITIES.index(_choice_param(params, "utility", UTILITIES))
        self.c.scale = deck_scale
        if hand_size == 0:
            hand_size = 6 if players <= 5 else (5 if players <= 7 else 4)
        self.c.hand_size = hand_size
        for k in range(NKINDS):
            self.c.init_deck[k] = (BASE_COUNT[k] * deck_scale + 50) // 100
            self.c.K += self.c.init_deck[k]
            if k < NTUN:
                self.c.T += self.c.init_deck[k]
        self.c.R = max(self.c.T + 3, goal_distance)
        self.c.S = 2 * self.c.R + 1
        self.c.W = self.c.S + 2
        self.c.C = self.c.S * self.c.S
        # Frontier bound (rules doc, "Action encoding"): 14 cells next to the
        # start and goals, +2 per placement (the cell leaves, at most 3 empty
        # neighbours join), +1 per rockfall (the emptied cell joins).
        self.c.F = 14 + 2 * self.c.T + self.c.init_deck[K_ROCK]
        if self.c.R > MAXR or self.c.T > MAXOCC or self.c.F > MAXFR:
            raise ValueError(f"saboteur parameters deck_scale={deck_scale}, goal_distance="
                             f"{goal_distance}: the maze exceeds the engine's grid "
                             f"({self.c.R} > {MAXR} rows or {self.c.T} > {MAXOCC} tunnels)")
        if self.c.hand_size > self.c.K:
            raise ValueError(f"saboteur parameter hand_size={hand_size}: more than the "
                             f"{self.c.K} cards of the deck")
        self.c.rock0 = A_ROCK_BLOCK * self.c.F
        self.c.tail0 = self.c.rock0 + self.c.T
        self.c.pick = 1 if _choice_param(params, "gold_handout", GOLD_HANDOUTS) == "pick" else 0
        self._values = {name: params[name] for name in PARAM_NAMES}

    @property
    def values(self) -> dict:
        """The parameters by name (a copy: the object itself never changes)."""
        return dict(self._values)

    def game_string(self) -> str:
        """The pyspiel game string of these parameters."""
        return "saboteur(" + ",".join(f"{k}={self._values[k]}" for k in PARAM_NAMES) + ")"


cdef class SaboteurEngine(Engine):
    """Saboteur for 3-10 players; see the module docstring."""

    def __init__(self, params, *, game_string=None):
        """``params``: the game parameters (a mapping of every name in
        ``PARAM_NAMES``, or a ``SabParams`` to share); ``game_string`` the
        pyspiel game string (default: built from ``params``)."""
        self.params = params if isinstance(params, SabParams) else SabParams(params)
        self.p = &self.params.c
        memset(&self.s, 0, sizeof(SabState))
        self.num_players = self.p.n
        self.game_string = self.params.game_string() if game_string is None else game_string
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
        return sab_grid_of(self.p, acell)

    cdef inline int acell_of(self, int g) noexcept nogil:
        return (g // self.p.W - 1) * self.p.S + g % self.p.W - 1

    cdef inline int inside(self, int g) noexcept nogil:
        cdef int x = g % self.p.W, y = g // self.p.W
        return 1 <= x <= self.p.S and 1 <= y <= self.p.S

    cdef inline int xy(self, int x, int y) noexcept nogil:
        return (y + self.p.R + 1) * self.p.W + x + self.p.R + 1

    cdef inline int doff(self, int d) noexcept nogil:
        return sab_doff(self.p, d)

    # ------------------------------------------------------------------
    # information events
    # ------------------------------------------------------------------
    cdef uint64_t emit(self, int ev, int actor, int a, int b, int c, int priv, int privp) noexcept nogil:
        cdef uint64_t tok = (<uint64_t>ev | (<uint64_t>(actor + 1) << 8) | (<uint64_t>(a + 1) << 16)
                             | (<uint64_t>(b + 1) << 32) | (<uint64_t>(c + 1) << 40)
                             | (<uint64_t>self.s.round << 56))
        if self.quiet:
            return tok
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
            self.s.deck[k] = self.p.init_deck[k]
        self.s.deck_n = self.p.K
        for p in range(MAXP):
            self.s.role[p] = -1
        self.s.role_left[0] = ROLE_DIG[self.p.n]
        self.s.role_left[1] = ROLE_SAB[self.p.n]
        self.s.roles_public = 0
        self.s.nocc = 0
        self.s.nfr = 0
        self.s.winner = -1
        self.s.completer = -1
        self.s.gqn = 0
        self.s.gqi = 0
        self.s.phase = PH_ROLE
        self.s.deal_i = 0
        self.s.ndeal = min(self.p.n * self.p.hand_size, self.p.K)
        self.s.cur = self.s.starter
        self.s.cell[self.xy(0, 0)] = CB_OCC | CB_PASS | CB_REACH | 15 | (CODE_START << 8)
        for g in range(3):
            self.s.goal_id[g] = -1
            self.s.goal_up[g] = 0
            self.s.goal_seen[g] = 0
            self.s.goal_cell[g] = self.xy(self.p.gd, 2 * g - 2)
            self.s.cell[self.s.goal_cell[g]] = CB_OCC | CB_GOAL | ((CODE_GOAL + g) << 8)
        self.s.ntun = 0
        self.s.nfront = sab_frontier(self.p, &self.s, self.s.front)
        self.recompute()

    cdef void end_round(self, int winner) noexcept nogil:
        cdef int p, q, i, mask = 0, nsab = 0, total
        self.s.winner = winner
        self.s.roles_public = 1
        self.s.round_winner[self.s.round] = winner + 1
        for p in range(self.p.n):
            if self.s.role[p] == 1:
                mask |= 1 << p
                nsab += 1
        self.emit(EV_ROUNDEND, -1, mask, winner, self.s.round, -1, -1)
        self.s.gqn = 0
        self.s.gqi = 0
        if winner == 1:
            for p in range(self.p.n):
                if self.s.role[p] == 1:
                    self.s.sab_gold[p] += SAB_PAY[nsab]
                    self.emit(EV_SABGOLD, p, SAB_PAY[nsab], 0, 0, -1, -1)
        else:
            total = self.s.gold_pool[0] + self.s.gold_pool[1] + self.s.gold_pool[2]
            for i in range(self.p.n):
                q = (self.s.completer - i + self.p.n) % self.p.n
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
        if not self.p.pick:
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
            if self.p.pick:
                self.gold_take(last)
            else:
                self.give(last)

    cdef void finish_round(self) noexcept nogil:
        self.s.round += 1
        if self.s.round >= self.p.rounds:
            self.s.phase = PH_OVER
            return
        self.s.starter = (self.s.last_placer + 1) % self.p.n if self.s.last_placer >= 0 else 0
        self.start_round()

    cdef void advance(self) noexcept nogil:
        cdef int i, q
        for i in range(1, self.p.n + 1):
            q = (self.s.cur + i) % self.p.n
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

    cdef bint next_to_card(self, int g) noexcept nogil:
        """Whether cell ``g`` touches a card on the table (start, goal, tunnel)."""
        cdef int d
        for d in range(4):
            if self.s.cell[g + self.doff(d)] & CB_OCC:
                return True
        return False

    cdef void front_add(self, int g) noexcept nogil:
        """Put an empty maze cell ``g`` next to a card on the action frontier."""
        if self.inside(g) and not (self.s.cell[g] & CB_OCC) and self.s.nfront < MAXFRONT:
            self.s.nfront = sab_insert(self.s.front, self.s.nfront, g)

    cdef void list_remove(self, int* lst, int* n, int g) noexcept nogil:
        """Remove ``g`` from the sorted list ``lst[:n]`` if there, keeping order."""
        cdef int i = sab_index(lst, n[0], g), j
        if i < 0:
            return
        for j in range(i, n[0] - 1):
            lst[j] = lst[j + 1]
        n[0] -= 1

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
        cdef int p = self.s.cur, n = 0, k, o, i, e, g, t, q, r, nf, fs, j, F = self.p.F
        cdef int tail = self.p.tail0
        cdef int* h = self.s.hand[p]
        cdef unsigned int held = 0, tk, fits_any = 0, wanted
        cdef int open_j[MAXFR]
        cdef int fset[MAXFR]
        if self.s.phase == PH_SHARE:
            o = tail + (A_KEEP if self.p.pick or self.s.gq[self.s.gqi] == self.s.completer
                                    else A_HAND_ON)
            for k in range(3):
                if self.s.gdrawn[k] > 0:
                    out[n] = o + k
                    n += 1
            return n
        if self.s.phase != PH_PLAY:
            return 0
        for k in range(NKINDS):
            held |= (<unsigned int>(h[k] != 0)) << k
        tk = held & ((1u << NTUN) - 1)
        if tk and not (self.s.broken[p][0] or self.s.broken[p][1] or self.s.broken[p][2]):
            # The cells where a card may join (``fr``, a reached open edge
            # points at them) and one of the held cards fits: the held
            # card edges that fit there and their positions on the action
            # frontier (``fr`` is in no order; the kept cells keep it).
            wanted = 0
            t = tk
            while t:
                e = TUN_EDGES[__builtin_ctz(t)]
                wanted |= (1u << e) | (1u << rot180(e))
                t &= t - 1
            nf = 0
            for i in range(self.s.nfr):
                g = self.s.fr[i]
                fs = fit_set(self.p, &self.s, g) & wanted
                if fs:
                    j = sab_index(self.s.front, self.s.nfront, g)
                    if j >= 0:
                        open_j[nf] = j
                        fset[nf] = fs
                        nf += 1
                        fits_any |= <unsigned int>fs
            while tk:
                k = __builtin_ctz(tk)
                tk &= tk - 1
                for o in range(2):
                    e = TUN_EDGES[k]
                    if o == 1:
                        if rot180(e) == e:
                            break
                        e = rot180(e)
                    if not (fits_any >> e) & 1:
                        continue
                    for i in range(nf):
                        if (fset[i] >> e) & 1 and n < MAX_BRANCHING:
                            out[n] = (k * 2 + o) * F + open_j[i]
                            n += 1
        if h[K_ROCK]:
            for i in range(self.s.ntun):
                if n < MAX_BRANCHING:
                    out[n] = self.p.rock0 + i
                    n += 1
        for t in range(3):
            if h[K_BREAK + t]:
                for q in range(self.p.n):
                    if q != p and not self.s.broken[q][t] and n < MAX_BRANCHING:
                        out[n] = tail + A_BREAK + A_STRIDE * t + q
                        n += 1
        for r in range(6):
            if h[K_REPAIR + r]:
                for t in range(3):
                    if (REPAIR_MASK[r] >> t) & 1:
                        for q in range(self.p.n):
                            if self.s.broken[q][t] and n < MAX_BRANCHING:
                                out[n] = tail + A_REPAIR + A_STRIDE * (3 * r + t) + q
                                n += 1
        if h[K_MAP]:
            for g in range(3):
                if not self.s.goal_up[g] and n < MAX_BRANCHING:
                    out[n] = tail + A_MAP + g
                    n += 1
        while held and n < MAX_BRANCHING:
            out[n] = tail + A_PASS + __builtin_ctz(held)
            n += 1
            held &= held - 1
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
            if self.s.deal_i == self.p.n:
                self.s.phase = PH_GOAL
        elif ph == PH_GOAL:
            for g in range(3):
                self.s.goal_id[g] = PERMS[action][g]
            self.emit(EV_GOALS, -1, 0, 0, 0, -1, -1)
            self.s.phase = PH_DEAL
            self.s.deal_i = 0
        elif ph == PH_DEAL or ph == PH_DRAW:
            p = (self.s.starter + self.s.deal_i) % self.p.n if ph == PH_DEAL else self.s.cur
            self.s.deck[action] -= 1
            self.s.deck_n -= 1
            self.s.hand[p][action] += 1
            self.s.hand_n[p] += 1
            self.emit(EV_DRAW, p, 0, 0, 0, action, p)
            if ph == PH_DEAL:
                self.s.deal_i += 1
                if self.s.deal_i == self.s.ndeal:
                    self.s.cur = (self.s.starter - 1 + self.p.n) % self.p.n
                    self.advance()
            else:
                self.advance()
        elif ph == PH_GOLD:
            self.gold_draw(action)
        elif ph == PH_SHARE:
            if self.p.pick:
                self.gold_take((action - self.p.tail0 - A_KEEP) % 3)
            else:
                self.give((action - self.p.tail0 - A_KEEP) % 3)
            self.share_auto()
        elif ph == PH_PLAY:
            self.play(action)

    cdef void play(self, int a) noexcept nogil:
        cdef int p = self.s.cur, F = self.p.F, tail = self.p.tail0, k, o, g, e, t, q, r, idx
        if a < self.p.rock0:
            k = (a // F) >> 1
            o = (a // F) & 1
            g = sab_target(self.p, &self.s, a)
            e = TUN_EDGES[k] if o == 0 else rot180(TUN_EDGES[k])
            self.take(p, k)
            self.remove_frontier(g)
            self.s.cell[g] = <uint16_t>(CB_OCC | CB_REACH | e | (k << 8) | (o << 13)
                                        | (CB_PASS if TUN_PASS[k] else 0))
            if self.s.nocc < MAXOCC:
                self.s.occ[self.s.nocc] = g
                self.s.nocc += 1
                self.s.ntun = sab_insert(self.s.tun, self.s.ntun, g)
            self.list_remove(self.s.front, &self.s.nfront, g)
            for t in range(4):
                self.front_add(g + self.doff(t))
            self.s.last_placer = p
            self.emit(EV_PLACE, p, self.acell_of(g), k, o, -1, -1)
            if TUN_PASS[k]:
                self.bfs(g)
        elif a < tail:
            g = sab_target(self.p, &self.s, a)
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
            self.list_remove(self.s.tun, &self.s.ntun, g)
            for t in range(4):
                q = g + self.doff(t)
                if not (self.s.cell[q] & CB_OCC) and not self.next_to_card(q):
                    self.list_remove(self.s.front, &self.s.nfront, q)
            if self.next_to_card(g):
                self.front_add(g)
            self.emit(EV_ROCK, p, self.acell_of(g), k, 0, -1, -1)
            self.recompute()
        elif a < tail + A_REPAIR:
            idx = a - tail - A_BREAK
            t = idx // A_STRIDE
            q = idx % A_STRIDE
            self.take(p, K_BREAK + t)
            self.s.broken[q][t] = 1
            self.s.brk_on[p][q] += 1
            self.emit(EV_BREAK, p, 0, t, q, -1, -1)
        elif a < tail + A_MAP:
            idx = a - tail - A_REPAIR
            r = idx // (3 * A_STRIDE)
            t = (idx % (3 * A_STRIDE)) // A_STRIDE
            q = idx % A_STRIDE
            self.take(p, K_REPAIR + r)
            self.s.broken[q][t] = 0
            self.s.rep_on[p][q] += 1
            self.s.pub_disc[K_REPAIR + r] += 1
            self.s.pub_disc[K_BREAK + t] += 1
            self.emit(EV_REPAIR, p, t, r, q, -1, -1)
        elif a < tail + A_PASS:
            g = a - tail - A_MAP
            self.take(p, K_MAP)
            self.s.pub_disc[K_MAP] += 1
            self.s.goal_seen[g] |= 1 << p
            self.s.mapped[p][g] += 1
            self.emit(EV_MAP, p, g, 0, 0, self.s.goal_id[g], p)
        else:
            k = a - tail - A_PASS
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
        for p in range(self.p.n):
            tot[p] = (self.s.gold[p][0] + 2 * self.s.gold[p][1] + 3 * self.s.gold[p][2]
                      + self.s.sab_gold[p])
            out[p] = 0.0
        if self.s.phase != PH_OVER:
            return
        if self.p.util == UTIL_GOLD:
            for p in range(self.p.n):
                out[p] = tot[p]
            return
        for p in range(self.p.n):
            if tot[p] > best:
                best = tot[p]
                nbest = 1
            elif tot[p] == best:
                nbest += 1
        for p in range(self.p.n):
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
            cnt[k] = self.p.init_deck[k] - pl.used[k]
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
            nk = 0          # the finder (sawdraws) is never passed to: no pick reads nk then
            if sawdraws:
                for k in range(D):
                    S0[k] = pl.gdraw[r][k]
            else:
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
            if not self.p.pick and sawdraws:
                continue            # the finder saw every hand-out
            # vals: the drawn values not yet placed, to spread over positions.
            for k in range(D):
                pl.gtake[r][k] = -1
            if self.p.pick and passpos >= 0:
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
        cdef int n = self.p.n
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
            k = played_kind(&e)
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
        for tries in range(MAX_GOLD_DRAWS):
            if not self.plan_gold(pl, p, rng):
                return 0
            if not pl.open_share or self.open_set_has_choice(pl):
                return 1
        return 0

    cdef int open_set_has_choice(self, SabPlan* pl) noexcept nogil:
        """Whether the gold cards not yet taken in the plan's open hand-out
        (the last round's) hold two values or more, as they must while a
        recipient is deciding (else the hand-out would have been automatic)."""
        cdef int left[3]
        cdef int r = pl.nrounds - 1, i, D = 0, T = 0, v, nv = 0
        cdef Ev e
        for i in range(pl.gfirst[r], pl.glast[r]):
            e = pl.log[i]
            if e.ev == EV_GOLDDRAW:
                D += 1
            elif e.ev == EV_GOLD or e.ev == EV_GOLDTAKE:
                T += 1
        left[0] = left[1] = left[2] = 0
        for i in range(D):
            left[pl.gdraw[r][i]] += 1
        for i in range(T):
            left[pl.gtake[r][i]] -= 1
        for v in range(3):
            if left[v] > 0:
                nv += 1
        return nv >= 2

    cdef void pub_counts(self, SabPub* u) noexcept nogil:
        """The plays each card kind gives the player to move (``u.a``,
        as ``legal_actions`` counts them: a hand's legal actions are, per
        kind held, one pass plus these; ``pub_legal``).  Reads only public
        state (board, broken tools, goals)."""
        cdef int q = self.s.cur, i, t, r, g, fs, e, k
        cdef int cnt_e[16]
        cdef int nbroken[3]
        cdef int nfree[3]
        memset(u, 0, sizeof(SabPub))
        if not (self.s.broken[q][0] or self.s.broken[q][1] or self.s.broken[q][2]):
            memset(cnt_e, 0, sizeof(cnt_e))
            for i in range(self.s.nfr):
                g = self.s.fr[i]
                if sab_index(self.s.front, self.s.nfront, g) < 0:
                    continue
                fs = fit_set(self.p, &self.s, g)
                while fs:
                    cnt_e[__builtin_ctz(fs)] += 1
                    fs &= fs - 1
            for k in range(NTUN):
                e = TUN_EDGES[k]
                u.a[k] = cnt_e[e] + (cnt_e[rot180(e)] if rot180(e) != e else 0)
        u.a[K_ROCK] = self.s.ntun
        for g in range(3):
            if not self.s.goal_up[g]:
                u.a[K_MAP] += 1
        for t in range(3):
            nbroken[t] = 0
            nfree[t] = 0
            for r in range(self.p.n):
                if self.s.broken[r][t]:
                    nbroken[t] += 1
                elif r != q:
                    nfree[t] += 1
            u.a[K_BREAK + t] = nfree[t]
        for r in range(6):
            for t in range(3):
                if (REPAIR_MASK[r] >> t) & 1:
                    u.a[K_REPAIR + r] += nbroken[t]

    cdef int plan_logweight(self, SabPlan* pl, int player, const SabPub* pub, double* lw) noexcept nogil:
        """The log importance weight of a plan (rules doc, "Resampling"): at
        every card decision of a player other than ``player``, -log(held
        cards of the kind used x legal actions) -- the uniform-opponent
        target (1 / legal actions) over the proposal, which takes a public
        play or a pass from a uniformly chosen held card; the other factors
        are equal for every history of the information set.  The hands
        follow from the plan's draws; the legal actions from the hand and
        ``pub``, the public counts at those decisions in log order (the same
        for every history of the information set, ``drive`` records them).
        Adds to ``lw``; 0 if a play uses a card its player does not hold."""
        cdef int hand[MAXP][NKINDS]
        cdef unsigned int held[MAXP]
        cdef int jd = 0, jp = 0, t = 0, i, k, q
        cdef Ev e
        memset(hand, 0, sizeof(hand))
        memset(held, 0, sizeof(held))
        for i in range(pl.nl):
            e = pl.log[i]
            if e.ev == EV_DRAW:
                if jd >= pl.ndraw or pl.draw_kind[jd] < 0:
                    return 0
                k = pl.draw_kind[jd]
                hand[e.actor][k] += 1
                held[e.actor] |= 1u << k
                jd += 1
                continue
            if e.ev == EV_ROUNDEND:
                memset(hand, 0, sizeof(hand))
                memset(held, 0, sizeof(held))
                continue
            k = played_kind(&e)
            if k == -2:
                continue
            if k == -1:
                k = next_pass_kind(pl, &jp)
                if k < 0:
                    return 0
            q = e.actor
            if hand[q][k] <= 0:
                return 0
            if q != player:
                lw[0] -= log_int(hand[q][k] * pub_legal(&pub[t], held[q]))
                t += 1
            hand[q][k] -= 1
            if hand[q][k] == 0:
                held[q] &= ~(1u << k)
        return 1

    cdef int drive(self, SabPlan* pl, int player, SabPub* pub) noexcept nogil:
        """From the initial state, apply the planned history until as many
        events as in the log are out; 0 on any inconsistency.  With ``pub``
        given, also records the public counts (``pub_counts``) at every card
        decision of a player other than ``player``, in order."""
        cdef int jd = 0, jp = 0, ip = 0, a, k, v, ph, steps = 0, t = 0
        cdef int tail = self.p.tail0
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
                a = tail + (A_KEEP if self.p.pick or self.s.gq[self.s.gqi] == self.s.completer
                                        else A_HAND_ON) + v
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
                    a = self.place_id(e.b, e.c, self.grid_of(e.a))
                    k = e.b
                elif e.ev == EV_ROCK:
                    a = self.rock_id(self.grid_of(e.a))
                    k = K_ROCK
                elif e.ev == EV_BREAK:
                    a = tail + A_BREAK + A_STRIDE * e.b + e.c
                    k = K_BREAK + e.b
                elif e.ev == EV_REPAIR:
                    a = tail + A_REPAIR + A_STRIDE * (3 * e.b + e.a) + e.c
                    k = K_REPAIR + e.b
                elif e.ev == EV_MAP:
                    a = tail + A_MAP + e.a
                    k = K_MAP
                else:
                    k = next_pass_kind(pl, &jp)
                    if k < 0:
                        return 0
                    a = tail + A_PASS + k
                if a < 0 or self.s.hand[self.s.cur][k] <= 0:
                    return 0
                if pub != NULL and self.s.cur != player:
                    self.pub_counts(&pub[t])
                    t += 1
            else:
                return 0
            self.apply(a)
        return self.s.nlog == pl.nl

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A history drawn from ``player``'s information set by the procedure
        of the rules doc (section Information, "Resampling": K proposals,
        one kept with probability proportional to its importance weight);
        it reads only ``player``'s events and the public phase.  Uses ``self`` as scratch
        space and leaves it at the drawn history.  The first proposal is
        replayed (``drive``), recording the public counts its weight and the
        others' need (``plan_logweight``); the others are weighed from their
        plans alone and only the one kept is replayed.  Every draw replays
        to ``player``'s information state; one that does not is a bug:
        ``out`` is left empty (never the true history), the failure is
        counted in ``resample_failures`` and the Python entry points raise
        RuntimeError naming it."""
        global _resample_failures, _resample_error
        cdef SabScratch* sc
        cdef SabPlan* best
        cdef SabPlan* cur
        cdef SabPlan* tmp
        cdef SabPub* rec = NULL
        cdef uint64_t key0 = self.info_key(player)
        cdef int err = 0, i, nl = self.s.nlog
        cdef double lw, logtot = -INFINITY, m
        cdef bint driven = True     # self is at ``best``'s history
        _resample_error = 0
        out.clear()
        sc = _resample_scratch()
        if nl >= MAXLOG:
            err = 1
        elif sc == NULL:
            err = 2
        else:
            best = &sc.plans[0]
            cur = &sc.plans[1]
            if _proposals > 1:
                rec = &sc.pub[0]
            for i in range(2):
                memcpy(sc.plans[i].log, self.s.log, nl * sizeof(Ev))
                sc.plans[i].nl = nl
                sc.plans[i].open_share = self.s.phase == PH_SHARE
            # K proposals, one kept with probability proportional to its
            # importance weight (streaming: the i-th replaces the pick with
            # probability w_i / (w_1 + ... + w_i)).
            if not self.make_plan(best, player, rng):
                err = 3
            elif not self.drive(best, player, rec):
                err = 4
            elif _proposals > 1:
                lw = 0.0
                if not self.plan_logweight(best, player, sc.pub, &lw):
                    err = 4
                else:
                    logtot = lw
                    rng_double(rng)     # the first proposal is kept for sure
                    for i in range(1, _proposals):
                        lw = 0.0
                        if not self.make_plan(cur, player, rng):
                            err = 3
                        elif not self.plan_logweight(cur, player, sc.pub, &lw):
                            err = 4
                        if err:
                            break
                        m = lw if lw > logtot else logtot
                        logtot = m + log(exp(lw - m) + exp(logtot - m))
                        if rng_double(rng) < exp(lw - logtot):
                            tmp = best
                            best = cur
                            cur = tmp
                            driven = False
                    if not err and not driven and not self.drive(best, player, NULL):
                        err = 4
            if not err and self.info_key(player) != key0:
                err = 5
        if err:
            _resample_failures += 1
            _resample_error = err
            return
        out[0] = self.hist

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
        self.params = o.params
        self.p = o.p
        # the state up to the end of its log (the rest of the log is unused)
        memcpy(&self.s, &o.s, <size_t>(<char*>&o.s.log[o.s.nlog] - <char*>&o.s))

    # ------------------------------------------------------------------
    # Python-facing helpers
    # ------------------------------------------------------------------
    @property
    def grid_radius(self) -> int:
        """Half side ``R`` of the maze grid (cells have |x|, |y| <= R)."""
        return self.p.R

    @property
    def num_actions(self) -> int:
        """Number of distinct player actions (``32 F + T + 246``)."""
        return self.p.tail0 + A_TAIL_SIZE

    @property
    def frontier_bound(self) -> int:
        """``F``: the bound on the frontier's length, placement ids per
        (kind, orientation) block (rules doc, "Action encoding")."""
        return self.p.F

    @property
    def tunnel_bound(self) -> int:
        """``T``: tunnel cards in the deck, the number of rockfall ids."""
        return self.p.T

    def frontier(self) -> list:
        """The frontier (empty cells next to any card on the table) as
        action-cell indices in order: placement ``(2 k + o) * F + j`` targets
        entry ``j``.  A superset of ``player_view()["frontier"]``, the cells
        where a card may join the start's network now."""
        cdef int i
        return [self.acell_of(self.s.front[i]) for i in range(self.s.nfront)]

    def tunnel_cells(self) -> list:
        """The tunnel cards on the table as action-cell indices in order:
        rockfall ``32 F + i`` targets entry ``i``."""
        cdef int i
        return [self.acell_of(self.s.tun[i]) for i in range(self.s.ntun)]

    cdef int place_id(self, int k, int o, int g) noexcept nogil:
        """Id placing kind ``k`` (``o`` turned) on grid cell ``g``; -1 if
        ``g`` is not on the frontier."""
        cdef int j = sab_index(self.s.front, self.s.nfront, g)
        return (2 * k + o) * self.p.F + j if j >= 0 else -1

    cdef int rock_id(self, int g) noexcept nogil:
        """Id of a rockfall on grid cell ``g``; -1 if no tunnel card is there."""
        cdef int j = sab_index(self.s.tun, self.s.ntun, g)
        return self.p.rock0 + j if j >= 0 else -1

    def max_length(self) -> int:
        """True bound on the number of moves (chance and player) in a game."""
        return self.p.rounds * (3 * self.p.n + 2 * self.p.K)

    def cell_action(self, int x, int y) -> int:
        """Action-cell index of maze coordinate (x, y) (y grows southwards)."""
        if not (-self.p.R <= x <= self.p.R and -self.p.R <= y <= self.p.R):
            raise ValueError(f"cell ({x}, {y}) is outside the grid of radius {self.p.R}")
        return (y + self.p.R) * self.p.S + x + self.p.R

    def cell_xy(self, int acell) -> tuple:
        """Maze coordinate (x, y) of an action-cell index."""
        return (acell % self.p.S - self.p.R, acell // self.p.S - self.p.R)

    def state_view(self) -> dict:
        """Full (god's-eye) state as plain Python data, for tests and tools
        only; bots and features read ``player_view``."""
        return _state_view(self)

    def py_resample_history(self, int player, seed, deadline=None,
                            bint cpu=True) -> list:
        """A history drawn from `player`'s information set; RuntimeError if
        the draw failed (a bug: the procedure is exact by construction).
        ``deadline``: as ``Engine.py_resample_history`` (this resampler's
        cost is bounded, so it never stops at it)."""
        h = Engine.py_resample_history(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return h

    def py_resample(self, int player, seed, deadline=None, bint cpu=True) -> "Engine":
        """A copy of this world with everything hidden from `player` re-dealt;
        RuntimeError if the draw failed (a bug)."""
        e = Engine.py_resample(self, player, seed, deadline, cpu)
        _raise_if_resample_failed(player)
        return e

    def action_to_string(self, int player, int action) -> str:
        """Human-readable action (chance outcomes read in the current phase)."""
        return _action_to_string(self, player, action)

    def info_string(self, int player) -> str:
        """Everything ``player`` has observed, in order (perfect recall)."""
        return _info_string(self, player)

    cdef int kgoal(self, int player, int g) noexcept nogil:
        return sab_known_goal(&self.s, player, g)

    def event_log(self, int player) -> list:
        """``player``'s record as typed ``(kind, actor, a, b, c, private)``
        tuples, the events the information-state string renders (for bots
        and beliefs, which must not parse strings)."""
        return _event_log(self, player)

    def player_view(self, int player):
        """What ``player`` knows now, a ``src_cy.saboteur.view.SaboteurView``
        (see the rules doc, "Player view").  Every field is public or
        ``player``'s own."""
        return _player_view(self, player)

    def obs_string(self, int player) -> str:
        """The current view of ``player`` (rendered from ``player_view``)."""
        return _obs_string(self, player)

    def render(self) -> str:
        """The maze in ASCII plus the whole hidden state (for people and tests)."""
        return _render(self)

    # ------------------------------------------------------------------
    # tensors (bodies in saboteur_render.pxi)
    # ------------------------------------------------------------------
    def obs_tensor_size(self) -> int:
        """Tunnel-card slots, goal places and knowledge, tools, hand, roles,
        turn, counts, gold (rules doc, "Information")."""
        return _obs_tensor_size(self)

    def max_events(self) -> int:
        """Bound on logged events: per round ``n`` roles, the goals, every card
        drawn and played once, 3 reveals, the round end and at most ``3n``
        gold events (draws, hand-outs, passes; or saboteur payments)."""
        return _max_events(self)

    def event_size(self) -> int:
        """Floats per event record in the information-state tensor (8)."""
        return _event_size(self)

    def info_tensor_size(self) -> int:
        """Observation, this round's public summary, then the event sequence."""
        return _info_tensor_size(self)

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Write the observation tensor of ``player`` into ``out``."""
        return _fill_obs_tensor(self, player, out)

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """Write the information-state tensor of ``player`` into ``out``."""
        return _fill_info_tensor(self, player, out)

    # ------------------------------------------------------------------
    # snapshot and invariants (bodies in saboteur_persist.pxi)
    # ------------------------------------------------------------------
    def dump(self) -> bytes:
        """Versioned snapshot: the game string and the action history."""
        return _dump(self)

    def load(self, data) -> None:
        """Restore a ``dump`` snapshot by replaying its history, every action
        checked; ValueError (state unchanged) on anything malformed."""
        return _load(self, data)

    def check_invariants(self) -> None:
        """Raise ValueError naming the broken conservation law."""
        return _check_invariants(self)


include "render.pxi"
include "persist.pxi"
