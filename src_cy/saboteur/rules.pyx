# cython: language_level=3
"""Saboteur (AMIGO 2004) rules kernel: ``SaboteurRules``.

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
(``actions.pxd``), updated locally by each placement and rockfall.

Information: every event goes to a log of ``src_cy/events.pxd`` records
(``Event``: kind, actor, public details ``a``/``b``/``c``, the ``secret``
and its ``seers``); a player's information-state string, tensor event
sequence and key are all built from what that player saw of them.

Files (``src_cy/saboteur/``): ``rules.pxd`` declares the sizes, the state
and this class; ``catalog.pxi`` the card tables; ``actions.pxd`` the action
layout (the ``A_*`` ids, mirrored in ``games/saboteur/__init__.py``); this
file the parameters (``SabParams``, shared by an engine and its clones) and
the rules kernel; ``resample.pyx`` the resampler; ``render.pyx`` the
strings, views and tensors; ``persist.pyx`` snapshots and invariant checks;
``engine.pyx`` the final ``SaboteurEngine`` with the Python methods.

See ``docs/rules/saboteur.md`` for the rules as implemented and the action
encoding.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t, uint8_t, uint16_t, uint32_t

from src_cy.saboteur.actions cimport (A_ROCK_BLOCK, A_STRIDE, A_BREAK,
                                      A_REPAIR, A_MAP, A_PASS, A_KEEP, A_HAND_ON,
                                      A_TAIL_SIZE)
from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, key_public, key_private,
                            CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING)
from src_cy.events cimport Event
from libcpp.vector cimport vector


# Card edge masks that fit a cell (``fit_set``): bit ``e`` of
# ``_FIT_SET[cons][req]`` is set when ``e & cons == req`` (the edges towards
# tunnel cards match theirs); bit ``e`` of ``_MEET_SET[m]`` when ``e & m``
# (an open edge meets a reached open edge).
cdef int _FIT_SET[16][16]
cdef int _MEET_SET[16]
# ``_LANES[x]``: a 1 in 16-bit lane ``i`` for each set bit ``i`` of the
# nibble ``x`` (``fit_fill`` counts the cells each edge mask fits, four
# masks to a 64-bit word).
cdef uint64_t _LANES[16]
# Set bits of a seat or goal bit set (below ``1 << MAXP``).
cdef uint8_t _POP_SEATS[1 << MAXP]
# ``_NTH8[b][k]``: index of the ``k``-th lowest set bit of the byte ``b``
# (``nth_bit32``).
cdef uint8_t _NTH8[256][8]
# ``_MENDS[t]``: the repair cards (bit ``r`` for kind ``K_REPAIR + r``) that
# mend tool ``t``.
cdef unsigned int _MENDS[3]


cdef void _fill_fit_tables() noexcept nogil:
    cdef int cons, req, e, m
    for cons in range(16):
        for req in range(16):
            _FIT_SET[cons][req] = 0
            for e in range(16):
                if (e & cons) == req:
                    _FIT_SET[cons][req] |= 1 << e
    for m in range(1 << MAXP):
        _POP_SEATS[m] = popcount32(m)
    for m in range(3):
        _MENDS[m] = 0
        for e in range(6):
            if (REPAIR_MASK[e] >> m) & 1:
                _MENDS[m] |= 1u << e
    for m in range(256):
        cons = 0
        for e in range(8):
            _NTH8[m][e] = 0
            if (m >> e) & 1:
                _NTH8[m][cons] = e
                cons += 1
    for m in range(16):
        _LANES[m] = 0
        for e in range(4):
            if (m >> e) & 1:
                _LANES[m] |= (<uint64_t>1) << (16 * e)
        _MEET_SET[m] = 0
        for e in range(16):
            if e & m:
                _MEET_SET[m] |= 1 << e


_fill_fit_tables()

cdef inline int fit_set(const SabConf* c, const SabState* s, int g) noexcept nogil:
    """The open-edge masks ``e`` (bit ``e`` of the result, 16 bits) a
    tunnel card may have on the empty cell ``g``: every edge towards a
    card on the table matches it (open/open, wall/wall; face-down goals
    impose nothing: ``cons[g]``) and an open edge meets a reached open
    edge (``frm[g]``)."""
    cdef int cr = s.cons[g]
    return _FIT_SET[cr & 15][cr >> 4] & _MEET_SET[s.frm[g]]


cdef inline int sab_tail_count(const SabConf* c, const SabState* s, int p) noexcept nogil:
    """How many actions ``SaboteurRules.tail_walk`` lists for ``p`` before
    the passes (without the ``MAX_BRANCHING`` cap): inline, as
    ``sample_uniform_legal`` needs it at every rollout decision, and
    without data-dependent branches (each kind held adds its count)."""
    cdef unsigned int held = s.held[p], others = ((1u << c.n) - 1) & ~(1u << p)
    cdef int n, t
    n = (-<int>((held >> K_MAP) & 1)) & _POP_SEATS[sab_hidden_goals(s)]
    for t in range(3):
        n += (-<int>((held >> (K_BREAK + t)) & 1)) & _POP_SEATS[others & ~s.broken_at[t]]
        # Each repair kind held that mends tool t, once per broken one.
        n += (_POP_SEATS[(held >> K_REPAIR) & _MENDS[t]]
              * _POP_SEATS[s.broken_at[t]])
    return n


cdef inline void tail_block(unsigned int m, int off, int k, int* cnt, int* sel,
                            unsigned int* selm, int* before) noexcept nogil:
    """One block of ``sab_tail_nth``: the actions ``off + i`` for the set
    bits ``i`` of ``m``, kept (by masks) when they start at or before ``k``."""
    cdef bint le = cnt[0] <= k
    selm[0] = m if le else selm[0]
    sel[0] = off if le else sel[0]
    before[0] = cnt[0] if le else before[0]
    cnt[0] += _POP_SEATS[m]


cdef inline int sab_tail_nth(const SabConf* c, const SabState* s, int p, int k) noexcept nogil:
    """The ``k``-th action ``SaboteurRules.tail_walk`` lists for ``p``
    (``k`` below ``sab_tail_count``), found over every block, held or not
    (an empty one counts nothing), without data-dependent branches."""
    cdef unsigned int held = s.held[p], others = ((1u << c.n) - 1) & ~(1u << p), selm = 0
    cdef int cnt = 0, sel = 0, before = 0, t, r
    for t in range(3):
        tail_block(others & ~s.broken_at[t] & -((held >> (K_BREAK + t)) & 1),
                   A_BREAK + A_STRIDE * t, k, &cnt, &sel, &selm, &before)
    for r in range(6):
        for t in range(3):
            if (REPAIR_MASK[r] >> t) & 1:
                tail_block(s.broken_at[t] & -((held >> (K_REPAIR + r)) & 1),
                           A_REPAIR + A_STRIDE * (3 * r + t), k, &cnt, &sel, &selm, &before)
    tail_block(sab_hidden_goals(s) & -((held >> K_MAP) & 1), A_MAP, k, &cnt, &sel, &selm,
               &before)
    return c.tail0 + sel + nth_bit32(selm, k - before)


cdef inline int nth_bit32(unsigned int m, int k) noexcept nogil:
    """``nth_bit`` by byte tables, without data-dependent branches."""
    cdef int p0 = _POP_SEATS[m & 255]
    cdef int p1 = p0 + _POP_SEATS[(m >> 8) & 255]
    cdef int p2 = p1 + _POP_SEATS[(m >> 16) & 255]
    cdef int b = (k >= p0) + (k >= p1) + (k >= p2)
    cdef int before = (p0 & -(b >= 1)) + ((p1 - p0) & -(b >= 2)) + ((p2 - p1) & -(b >= 3))
    return 8 * b + _NTH8[(m >> (8 * b)) & 255][k - before]


cdef inline int fit_nth(const int* fit_fs, int e, int k) noexcept nogil:
    """The fit cache entry (``SaboteurRules.fit_fs``) of the ``k``-th cell
    (from 0) the edge mask ``e`` fits (``k`` below their number); the
    loop's exit is its only branch."""
    cdef int i = -1
    while k >= 0:
        i += 1
        k -= (fit_fs[i] >> e) & 1
    return i


cdef inline void sab_draw_to(SaboteurRules r, int p, int kind) noexcept nogil:
    """A card of ``kind`` from the deck into ``p``'s hand (a deal or a draw)."""
    r.s.deck[kind] -= 1
    r.s.deck_n -= 1
    r.s.hand[p][kind] += 1
    r.s.hand_n[p] += 1
    r.s.held[p] |= 1u << kind
    sab_emit(r, EV_DRAW, p, 0, 0, 0, kind, 1u << p)


cdef inline void sab_emit(SaboteurRules r, int ev, int actor, int a, int b, int c,
                          int secret, uint32_t seers) noexcept nogil:
    """``r.emit(...)`` unless ``r`` is quiet, the check inlined where the
    rules call it (a rollout steps through many events and logs none)."""
    if not r.quiet:
        r.emit(ev, actor, a, b, c, secret, seers)


#: The action layout of ``actions.pxd`` (mirrored in games/saboteur/__init__.py).
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


cdef class SaboteurRules(Engine):
    """The Saboteur rules kernel for 3-10 players, without a resampler
    (``SaboteurEngine`` adds it); see the module docstring."""

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
        self.s.stale_keys = 0
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
    cdef void emit(self, int ev, int actor, int a, int b, int c, int secret,
                   uint32_t seers) noexcept nogil:
        """Log an event every player sees happen (``events.pxd``: ``secret``
        seen by the seats of ``seers``, -1 and 0 for none) and hash it into
        the keys (nothing while quiet)."""
        cdef uint64_t tok
        cdef Event* e
        if self.quiet:
            return
        if self.s.stale_keys and self.s.nlog >= MAXLOG:
            self.rehash_keys(self.s.stale_keys)
        tok = sab_token(ev, actor, a, b, c, self.s.round)
        if self.s.nlog < MAXLOG:
            e = &self.s.log[self.s.nlog]
            e.kind = ev
            e.actor = actor
            e.pub = 1
            e.a = a
            e.b = b
            e.c = c
            e.secret = secret
            e.seers = seers
            self.s.nlog += 1
        self.observe_public(tok)
        while seers:
            self.observe_private(__builtin_ctz(seers), sab_secret_token(tok, secret))
            seers &= seers - 1

    cdef void rehash_keys(self, unsigned int players) noexcept nogil:
        """Hash the keys of the seats in the bit set ``players`` from the
        log, as ``emit`` hashed its events into them (``Engine.observe_public``
        and ``observe_private``; every event of round 0, ``stale_keys``),
        and mark them kept."""
        cdef int i, q, nlog = self.s.nlog, start = 0
        cdef unsigned int w = players
        cdef uint64_t h, tok
        cdef const Event* e
        cdef const uint64_t* toks
        # The cache holds the tokens of the log prefix the resampler left
        # the keys stale on when that prefix's public hash and length are
        # the cached ones (the public hash is a 64-bit hash of the events'
        # public parts, as trusted as the keys and the search's tree are);
        # the events after it are tokenised here.
        if self.ktok_n != self.s.stale_nlog or self.ktok_tag != self.s.stale_pub \
                or self.s.stale_nlog > nlog:
            self.ktok_n = 0
        else:
            start = self.ktok_n
        if <int>self.ktok.size() < nlog:
            self.ktok.resize(nlog)
        for i in range(start, nlog):
            e = &self.s.log[i]
            self.ktok[i] = sab_token(e.kind, e.actor, e.a, e.b, e.c, 0)
        if self.ktok_n == 0 and 0 < self.s.stale_nlog <= nlog:
            self.ktok_n = self.s.stale_nlog
            self.ktok_tag = self.s.stale_pub
        toks = self.ktok.data()
        while w:
            q = __builtin_ctz(w)
            w &= w - 1
            h = 0
            for i in range(nlog):
                tok = toks[i]
                h = key_public(h, tok)
                if (self.s.log[i].seers >> q) & 1:
                    h = key_private(h, sab_secret_token(tok, self.s.log[i].secret))
            self.ihash[q] = h
        self.s.stale_keys &= ~players

    cdef uint64_t info_key(self, int player) noexcept nogil:
        """``Engine.info_key``, the key hashed from the log first if it is
        stale (``stale_keys``)."""
        if (self.s.stale_keys >> player) & 1:
            self.rehash_keys(1u << player)
        return Engine.info_key(self, player)

    # ------------------------------------------------------------------
    # rounds
    # ------------------------------------------------------------------
    cdef void clear_maze(self) noexcept nogil:
        """Zero ``cell``, ``frm`` and ``cons`` where they can be non-zero:
        the cards listed in ``occ``, the start and the goals, the cells
        listed in ``fr``, the cells next to a card (``check_invariants``
        asserts that nothing else is set), a few hundred stores instead of
        the whole 32 KB grid."""
        cdef int i, d, g
        for i in range(4 + self.s.nocc):
            g = (self.xy(0, 0) if i == 0 else
                 (self.s.goal_cell[i - 1] if i < 4 else self.s.occ[i - 4]))
            for d in range(4):
                self.s.cons[g + sab_doff(self.p, d)] = 0
        for i in range(self.s.nocc):
            self.s.cell[self.s.occ[i]] = 0
        for i in range(3):
            self.s.cell[self.s.goal_cell[i]] = 0
        self.s.cell[self.xy(0, 0)] = 0
        for i in range(self.s.nfr):
            self.s.frm[self.s.fr[i]] = 0

    cdef void cons_card(self, int g, int e) noexcept nogil:
        """``cons`` of the neighbours of cell ``g`` when a card with open
        edges ``e`` starts to constrain them there (``e < 0``: stops)."""
        cdef int d, od, nb
        for d in range(4):
            nb = g + self.doff(d)
            od = (d + 2) & 3
            if e < 0:
                self.s.cons[nb] &= <uint8_t>~((1 << od) | (1 << (4 + od)))
            else:
                self.s.cons[nb] |= <uint8_t>((1 << od) | (((e >> d) & 1) << (4 + od)))

    cdef void start_round(self) noexcept nogil:
        cdef int k, p, g
        self.fit_ok = False
        self.clear_maze()
        memset(self.s.hand, 0, sizeof(self.s.hand))
        memset(self.s.hand_n, 0, sizeof(self.s.hand_n))
        memset(self.s.held, 0, sizeof(self.s.held))
        memset(self.s.disc, 0, sizeof(self.s.disc))
        memset(self.s.pub_disc, 0, sizeof(self.s.pub_disc))
        memset(self.s.broken, 0, sizeof(self.s.broken))
        memset(self.s.broken_at, 0, sizeof(self.s.broken_at))
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
        self.cons_card(self.xy(0, 0), 15)
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
        sab_emit(self, EV_ROUNDEND, -1, mask, winner, self.s.round, -1, 0)
        self.s.gqn = 0
        self.s.gqi = 0
        if winner == 1:
            for p in range(self.p.n):
                if self.s.role[p] == 1:
                    self.s.sab_gold[p] += SAB_PAY[nsab]
                    sab_emit(self, EV_SABGOLD, p, SAB_PAY[nsab], 0, 0, -1, 0)
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
        sab_emit(self, EV_GOLDDRAW, c, h, 0, 0, v, 1u << h)
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
        self.move_gold(v, r)
        sab_emit(self, EV_GOLD, r, c, 0, 0, v, (1u << r) | (1u << c))
        self.s.gqi += 1

    cdef void gold_take(self, int v) noexcept nogil:
        """Pick mode: the holder keeps a card of value index ``v`` and passes
        the rest face down to the next recipient, who looks at them."""
        cdef int r = self.s.gq[self.s.gqi], i, nxt, left, code
        self.move_gold(v, r)
        sab_emit(self, EV_GOLDTAKE, r, 0, 0, 0, v, 1u << r)
        self.s.gqi += 1
        left = self.s.gdrawn[0] + self.s.gdrawn[1] + self.s.gdrawn[2]
        if self.s.gqi < self.s.gqn and left > 0:
            nxt = self.s.gq[self.s.gqi]
            for i in range(NGOLD):
                if self.s.gloc[i] == LOC_DRAWN:
                    self.s.gseen[i] |= 1 << nxt
            code = self.s.gdrawn[0] + 11 * self.s.gdrawn[1] + 121 * self.s.gdrawn[2]
            sab_emit(self, EV_GOLDPASS, nxt, r, left, 0, code, 1u << nxt)
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
        if self.s.stale_keys and not self.quiet:
            self.rehash_keys(self.s.stale_keys)
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

    cdef void front_place(self, int g) noexcept nogil:
        """The frontier after a card went on the maze cell ``g``: ``g``
        leaves it and its empty neighbours inside the maze join, the list
        kept sorted (the same list as removing ``g`` and then ``front_add``
        of each neighbour; the neighbours are merged in from the end in one
        pass)."""
        cdef int* f = self.s.front
        cdef int n, W = self.p.W, S = self.p.S
        cdef int x = g % W, y = g // W, na = 0, i, nb, r, a, w
        cdef int add[4]
        cdef int cand[4]
        cdef int ig = sab_index(f, self.s.nfront, g)
        cand[0] = g - W if y > 1 else -1
        cand[1] = g - 1 if x > 1 else -1
        cand[2] = g + 1 if x < S else -1
        cand[3] = g + W if y < S else -1
        for i in range(4):
            nb = cand[i]
            # An empty neighbour joins unless a card other than ``g`` already
            # touches it (it is on the frontier then).
            if nb >= 0 and not (self.s.cell[nb] & CB_OCC) and not (
                    ((self.s.cell[nb - W] if nb - W != g else 0)
                     | (self.s.cell[nb + W] if nb + W != g else 0)
                     | (self.s.cell[nb - 1] if nb - 1 != g else 0)
                     | (self.s.cell[nb + 1] if nb + 1 != g else 0)) & CB_OCC):
                add[na] = nb
                na += 1
        if ig >= 0 and self.s.nfront - 1 + na <= MAXFRONT:
            self.front_swap(ig, add, na)
            return
        self.list_remove(f, &self.s.nfront, g)
        n = self.s.nfront
        if n + na > MAXFRONT:
            # Never (at most 4 cells per card on the table); the array's guard.
            na = MAXFRONT - n
        r = n - 1
        a = na - 1
        w = n + na - 1
        while a >= 0:
            if r >= 0 and f[r] > add[a]:
                f[w] = f[r]
                r -= 1
            else:
                f[w] = add[a]
                a -= 1
            w -= 1
        self.s.nfront = n + na

    cdef void front_swap(self, int ig, int* add, int na) noexcept nogil:
        """``front_place``'s list change where ``g = front[ig]`` (the card's
        cell) leaves and the cells ``add`` (ascending, none on the list)
        join: the entries between ``g`` and the joining cells move by one
        (up to the first joining cell above ``g``, when none is below it,
        without a pass over the entries above that)."""
        cdef int* f = self.s.front
        cdef int n = self.s.nfront, g = f[ig], nl = 0, i, r, w, a
        while nl < na and add[nl] < g:
            nl += 1
        if nl == 0:
            # The entries between g and the first joining cell move down into
            # g's place, that cell goes below them; the second joining cell
            # (if any) is merged in from the top as front_place merges.
            i = ig + 1
            while i < n and (na == 0 or f[i] < add[0]):
                f[i - 1] = f[i]
                i += 1
            if na == 0:
                self.s.nfront = n - 1
                return
            f[i - 1] = add[0]
            r = n - 1
            w = n + na - 2
            a = na - 1
            while a >= 1:
                if f[r] > add[a]:
                    f[w] = f[r]
                    r -= 1
                else:
                    f[w] = add[a]
                    a -= 1
                w -= 1
            self.s.nfront = n + na - 1
            return
        # A joining cell below g: one merge from the top down, g skipped (every
        # entry moves up, by one more below g); from g down when no cell
        # joins above it and one below (the entries above stay).
        if na == 1:
            r = ig
            w = ig
        else:
            r = n - 1
            w = n + na - 2
        a = na - 1
        while a >= 0:
            if r >= 0 and f[r] == g:
                r -= 1
            elif r >= 0 and f[r] > add[a]:
                f[w] = f[r]
                r -= 1
                w -= 1
            else:
                f[w] = add[a]
                a -= 1
                w -= 1
        self.s.nfront = n + na - 1

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
        self.cons_card(g, e)
        self.s.goal_up[slot] = 1
        sab_emit(self, EV_REVEAL, -1, slot, gid, best, -1, 0)
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

    cdef void fit_fill(self) noexcept nogil:
        """Fill the fit cache (``rules.pxd``): the frontier cells where a
        card may join (``frm``: a reached open edge points at them) and
        some edge mask fits, in frontier order."""
        cdef int j, g, fs, e, cr, nf = 0, nfront = self.s.nfront
        cdef uint64_t lanes[4]
        cdef const int* front = self.s.front
        cdef const uint8_t* cons = self.s.cons
        cdef const uint8_t* frm = self.s.frm
        cdef int* fit_j = self.fit_j
        cdef int* fit_fs = self.fit_fs
        # No data-dependent branch: a cell no card fits (``fit_set`` 0, as
        # when no reached edge points at it) is overwritten by the next.
        for j in range(nfront):
            g = front[j]
            cr = cons[g]
            fs = _FIT_SET[cr & 15][cr >> 4] & _MEET_SET[frm[g]]
            fit_j[nf] = j
            fit_fs[nf] = fs
            nf += fs != 0
        lanes[0] = lanes[1] = lanes[2] = lanes[3] = 0
        for j in range(nf):
            fs = fit_fs[j]
            lanes[0] += _LANES[fs & 15]
            lanes[1] += _LANES[(fs >> 4) & 15]
            lanes[2] += _LANES[(fs >> 8) & 15]
            lanes[3] += _LANES[fs >> 12]
        for e in range(16):
            self.fit_cnt[e] = <int>((lanes[e >> 2] >> (16 * (e & 3))) & 0xFFFF)
        for j in range(NTUN):
            e = TUN_EDGES[j]
            self.fit_kind[j] = self.fit_cnt[e] + (self.fit_cnt[rot180(e)] if rot180(e) != e else 0)
        self.fit_n = nf
        self.fit_ok = True

    cdef int legal_actions(self, int* out) noexcept nogil:
        """The legal actions, ascending (the placements of each kind and
        orientation in frontier order, then rockfalls and the fixed tail),
        so a caller's sort has nothing to move."""
        cdef int p = self.s.cur, n = 0, k, o, i, e, nf
        cdef int F = self.p.F, tail = self.p.tail0, base
        cdef unsigned int held = self.s.held[p], tk
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
        tk = held & ((1u << NTUN) - 1)
        if tk and not (self.s.broken[p][0] or self.s.broken[p][1] or self.s.broken[p][2]):
            if not self.fit_ok:
                self.fit_fill()
            nf = self.fit_n
            while tk:
                k = __builtin_ctz(tk)
                tk &= tk - 1
                for o in range(2):
                    e = TUN_EDGES[k]
                    if o == 1:
                        if rot180(e) == e:
                            break
                        e = rot180(e)
                    if not self.fit_cnt[e]:
                        continue
                    base = (k * 2 + o) * F
                    if n + self.fit_cnt[e] < MAX_BRANCHING:
                        # Every cell written (at most the fitting ones past
                        # ``n``, so within ``out``), kept where the card fits.
                        for i in range(nf):
                            out[n] = base + self.fit_j[i]
                            n += (self.fit_fs[i] >> e) & 1
                        continue
                    for i in range(nf):
                        if (self.fit_fs[i] >> e) & 1 and n < MAX_BRANCHING:
                            out[n] = base + self.fit_j[i]
                            n += 1
        if (held >> K_ROCK) & 1:
            for i in range(self.s.ntun):
                if n < MAX_BRANCHING:
                    out[n] = self.p.rock0 + i
                    n += 1
        self.tail_walk(p, -1, out, &n)
        return n

    cdef int tail_walk(self, int p, int k, int* out, int* n) noexcept nogil:
        """The fixed tail of ``p``'s legal actions at a card decision (tool
        breaks, repairs, map looks, passes), ascending, one ``bit_block``
        per action kind: with ``out``, appended to ``out[n[0]:]`` (while
        below ``MAX_BRANCHING``; -1); else the ``k``-th (``k >= 0``), or -1
        with ``n[0]`` raised by their number (``k < 0``, or ``k`` past them)."""
        cdef int tail = self.p.tail0, r, t, a
        cdef unsigned int held = self.s.held[p], w
        w = (held >> K_BREAK) & 7
        while w:
            t = __builtin_ctz(w)
            w &= w - 1
            a = bit_block(((1u << self.p.n) - 1) & ~(1u << p) & ~self.s.broken_at[t],
                          tail + A_BREAK + A_STRIDE * t, &k, out, n)
            if a >= 0:
                return a
        w = (held >> K_REPAIR) & 63
        while w:
            r = __builtin_ctz(w)
            w &= w - 1
            for t in range(3):
                if (REPAIR_MASK[r] >> t) & 1:
                    a = bit_block(self.s.broken_at[t], tail + A_REPAIR + A_STRIDE * (3 * r + t),
                                  &k, out, n)
                    if a >= 0:
                        return a
        if (held >> K_MAP) & 1:
            a = bit_block(sab_hidden_goals(&self.s), tail + A_MAP, &k, out, n)
            if a >= 0:
                return a
        return bit_block(held, tail + A_PASS, &k, out, n)

    cdef int tail_count(self, int p) noexcept nogil:
        """How many actions ``tail_walk`` lists for ``p`` before the passes
        (without the ``MAX_BRANCHING`` cap; ``sab_tail_count``)."""
        return sab_tail_count(self.p, &self.s, p)

    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil:
        """``Engine.sample_uniform_legal`` without listing the actions: the
        placements of each kind are counted by the fit cache
        (``fit_kind``), the rockfalls and the tail (``tail_count``, passes)
        likewise; the ``rng_int`` index picks a block, and an entry in it
        in the listing's order (``legal_actions``, ``tail_walk``).  The
        kinds are summed and the drawn one found over all ``NTUN`` kinds
        with masks, not branches.  Other phases, and more than
        ``MAX_BRANCHING`` actions, list them."""
        cdef int p = self.s.cur, n, nplace = 0, nrock, nhead, k, kd, e, c, le, sel, before
        cdef unsigned int held = self.s.held[p], tk
        if self.s.phase != PH_PLAY:
            return Engine.sample_uniform_legal(self, rng)
        tk = held & ((1u << NTUN) - 1)
        if tk and not (self.s.broken[p][0] or self.s.broken[p][1] or self.s.broken[p][2]):
            if not self.fit_ok:
                self.fit_fill()
            for kd in range(NTUN):
                nplace += self.fit_kind[kd] & -<int>((tk >> kd) & 1)
        else:
            tk = 0
        nrock = self.s.ntun & -<int>((held >> K_ROCK) & 1)
        nhead = sab_tail_count(self.p, &self.s, p)
        n = nplace + nrock + nhead + popcount32(held)
        if n > MAX_BRANCHING:
            return Engine.sample_uniform_legal(self, rng)
        k = rng_int(rng, n)
        if k < nplace:
            # The drawn kind: the held kind whose block of counts holds k
            # (kept by masks; the loop's exit is its only branch).
            sel = before = c = 0
            while tk:
                kd = __builtin_ctz(tk)
                tk &= tk - 1
                le = c <= k
                sel = kd if le else sel
                before = c if le else before
                c += self.fit_kind[kd]
            k -= before
            # Orientation 0's entries, then the turned card's.
            e = TUN_EDGES[sel]
            le = k >= self.fit_cnt[e]
            k -= self.fit_cnt[e] & -le
            if le:
                e = rot180(e)
            return (2 * sel + le) * self.p.F + self.fit_j[fit_nth(self.fit_fs, e, k)]
        k -= nplace
        if k < nrock:
            return self.p.rock0 + k
        # The passes, one per kind held, end the tail.
        k -= nrock + nhead
        if k >= 0:
            return self.p.tail0 + A_PASS + nth_bit32(held, k)
        return sab_tail_nth(self.p, &self.s, p, k + nhead)

    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil:
        """``Engine.sample_chance_sorted`` without listing a draw's outcomes
        (the card kinds, ascending, at the odds ``chance_outcomes`` gives).
        The kind is found on the integer counts (``u * deck_n`` against
        their running sum, no division); the running sum of the float odds
        the engine's draw compares ``u`` with is within 1e-14 of those
        counts over ``deck_n``, so only a ``u`` that close to a boundary
        (about once in 1e12 draws) walks the float odds as that draw does.
        The counts are summed over all kinds with masks, not branches."""
        cdef int k, last = -1, c = 0, d, xi, le, run
        cdef double u, x, acc = 0.0, tol
        if self.s.phase != PH_DEAL and self.s.phase != PH_DRAW:
            return Engine.sample_chance_sorted(self, rng)
        u = rng_double(rng)
        x = u * self.s.deck_n
        xi = <int>x
        # The kind: how many kinds' running counts are <= xi (an empty
        # kind is passed over), found with masks, not branches; ``c`` the
        # running count before it.
        k = c = run = 0
        for d in range(NKINDS):
            run += self.s.deck[d]
            le = run <= xi
            k += le
            c = run if le else c
        d = self.s.deck[k]
        c += d
        tol = 1e-12 * self.s.deck_n
        if c - x > tol and x - (c - d) > tol:
            return k
        for k in range(NKINDS):
            if self.s.deck[k] > 0:
                last = k
                acc += self.s.deck[k] / <double>self.s.deck_n
                if u < acc:
                    return k
        return last

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
        # Card plays and draws first, by two tests (a rollout alternates
        # them), the other phases after.
        if ph == PH_PLAY:
            self.play(action)
        elif ph == PH_DRAW:
            sab_draw_to(self, self.s.cur, action)
            self.advance()
        elif ph == PH_ROLE:
            p = self.s.deal_i
            self.s.role[p] = action
            self.s.role_left[action] -= 1
            sab_emit(self, EV_ROLE, p, 0, 0, 0, action, 1u << p)
            self.s.deal_i += 1
            if self.s.deal_i == self.p.n:
                self.s.phase = PH_GOAL
        elif ph == PH_GOAL:
            for g in range(3):
                self.s.goal_id[g] = PERMS[action][g]
            sab_emit(self, EV_GOALS, -1, 0, 0, 0, -1, 0)
            self.s.phase = PH_DEAL
            self.s.deal_i = 0
        elif ph == PH_DEAL:
            sab_draw_to(self, (self.s.starter + self.s.deal_i) % self.p.n, action)
            self.s.deal_i += 1
            if self.s.deal_i == self.s.ndeal:
                self.s.cur = (self.s.starter - 1 + self.p.n) % self.p.n
                self.advance()
        elif ph == PH_GOLD:
            self.gold_draw(action)
        elif ph == PH_SHARE:
            if self.p.pick:
                self.gold_take((action - self.p.tail0 - A_KEEP) % 3)
            else:
                self.give((action - self.p.tail0 - A_KEEP) % 3)
            self.share_auto()

    cdef void play(self, int a) noexcept nogil:
        cdef int p = self.s.cur, F = self.p.F, tail = self.p.tail0, k, o, g, e, t, q, r, idx
        if a < self.p.rock0:
            self.fit_ok = False
            k = (a // F) >> 1
            o = (a // F) & 1
            g = sab_target(self.p, &self.s, a)
            e = TUN_EDGES[k] if o == 0 else rot180(TUN_EDGES[k])
            self.take(p, k)
            self.remove_frontier(g)
            self.s.cell[g] = <uint16_t>(CB_OCC | CB_REACH | e | (k << 8) | (o << 13)
                                        | (CB_PASS if TUN_PASS[k] else 0))
            self.cons_card(g, e)
            if self.s.nocc < MAXOCC:
                self.s.occ[self.s.nocc] = g
                self.s.nocc += 1
                self.s.ntun = sab_insert(self.s.tun, self.s.ntun, g)
            self.front_place(g)
            self.s.last_placer = p
            sab_emit(self, EV_PLACE, p, self.acell_of(g), k, o, -1, 0)
            if TUN_PASS[k]:
                self.bfs(g)
        elif a < tail:
            self.fit_ok = False
            g = sab_target(self.p, &self.s, a)
            k = (self.s.cell[g] >> 8) & 31
            self.take(p, K_ROCK)
            self.s.pub_disc[K_ROCK] += 1
            self.s.pub_disc[k] += 1
            self.s.cell[g] = 0
            self.cons_card(g, -1)
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
            sab_emit(self, EV_ROCK, p, self.acell_of(g), k, 0, -1, 0)
            self.recompute()
        elif a < tail + A_REPAIR:
            idx = a - tail - A_BREAK
            t = idx // A_STRIDE
            q = idx % A_STRIDE
            self.take(p, K_BREAK + t)
            self.s.broken[q][t] = 1
            self.s.broken_at[t] |= 1u << q
            self.s.brk_on[p][q] += 1
            sab_emit(self, EV_BREAK, p, 0, t, q, -1, 0)
        elif a < tail + A_MAP:
            idx = a - tail - A_REPAIR
            r = idx // (3 * A_STRIDE)
            t = (idx % (3 * A_STRIDE)) // A_STRIDE
            q = idx % A_STRIDE
            self.take(p, K_REPAIR + r)
            self.s.broken[q][t] = 0
            self.s.broken_at[t] &= ~(1u << q)
            self.s.rep_on[p][q] += 1
            self.s.pub_disc[K_REPAIR + r] += 1
            self.s.pub_disc[K_BREAK + t] += 1
            sab_emit(self, EV_REPAIR, p, t, r, q, -1, 0)
        elif a < tail + A_PASS:
            g = a - tail - A_MAP
            self.take(p, K_MAP)
            self.s.pub_disc[K_MAP] += 1
            self.s.goal_seen[g] |= 1 << p
            self.s.mapped[p][g] += 1
            sab_emit(self, EV_MAP, p, g, 0, 0, self.s.goal_id[g], 1u << p)
        else:
            k = a - tail - A_PASS
            self.s.hand[p][k] -= 1
            self.s.hand_n[p] -= 1
            self.s.held[p] &= ~(<unsigned int>(self.s.hand[p][k] == 0) << k)
            self.s.disc[p][k] += 1
            self.s.passes[p] += 1
            sab_emit(self, EV_PASS, p, 0, 0, 0, k, 1u << p)
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
        self.s.held[p] &= ~(<unsigned int>(self.s.hand[p][k] == 0) << k)
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

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history).  ``SaboteurEngine`` overrides this with
        ``src_cy.saboteur.resample``; call that module on a kernel state."""
        out.clear()

    cdef Engine clone(self):
        """A copy of the same (final) class sharing the parameters."""
        cdef SaboteurRules e = type(self).__new__(type(self))
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef SaboteurRules o = <SaboteurRules>other
        cdef int i, g, d
        # The grid (32 KB) is copied where either state has something: this
        # one's marks are cleared first (with its own geometry; a new object's
        # grid is all zero), then the other's copied; the fields before the
        # lists are copied whole, the lists and the log up to their lengths
        # (the rest is unused).
        if self.p != NULL:
            self.clear_maze()
        self.fit_ok = False
        self.copy_base(other)
        self.params = o.params
        self.p = o.p
        memcpy(&self.s, &o.s, <size_t>(<char*>&o.s.occ[0] - <char*>&o.s))
        memcpy(self.s.occ, o.s.occ, o.s.nocc * sizeof(int))
        memcpy(self.s.fr, o.s.fr, o.s.nfr * sizeof(int))
        memcpy(self.s.front, o.s.front, o.s.nfront * sizeof(int))
        memcpy(self.s.tun, o.s.tun, o.s.ntun * sizeof(int))
        for i in range(o.s.nocc):
            g = o.s.occ[i]
            self.s.cell[g] = o.s.cell[g]
        for i in range(3):
            g = o.s.goal_cell[i]
            self.s.cell[g] = o.s.cell[g]
        g = self.xy(0, 0)
        self.s.cell[g] = o.s.cell[g]
        for i in range(o.s.nfr):
            g = o.s.fr[i]
            self.s.frm[g] = o.s.frm[g]
        for i in range(4 + o.s.nocc):
            g = self.xy(0, 0) if i == 0 else (o.s.goal_cell[i - 1] if i < 4 else o.s.occ[i - 4])
            for d in range(4):
                self.s.cons[g + self.doff(d)] = o.s.cons[g + self.doff(d)]
        memcpy(self.s.log, o.s.log, o.s.nlog * sizeof(Event))

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

    cdef int kgoal(self, int player, int g) noexcept nogil:
        return sab_known_goal(&self.s, player, g)
