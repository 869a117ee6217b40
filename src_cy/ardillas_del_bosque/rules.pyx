# cython: language_level=3
"""Ardillas del Bosque rules kernel (see docs/rules/ardillas_del_bosque.md).

Every token is a physical object ``o = owner * 7 + j`` (the owner's j-th token
to leave their hand); owners and positions are public, ``kind[o]`` is hidden
unless ``known[o]`` says otherwise.  Kinds: 0-4 nuts, 5 squirrel, 6 poo.

This module holds the parameters class and ``ArdillasRules``: legal actions,
chance, the rules of a step, returns, information keys, clone/copy and quiet
mode.  The declarations are in ``rules.pxd``; the resampler is ``resample.pyx``,
the strings, view and tensors ``render.pyx``, the snapshot and invariants
``persist.pyx``; ``engine.pyx`` builds the game's engine from them.
"""
from libc.stdint cimport uint64_t, uint8_t, uint32_t, int16_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from src_cy.engine cimport Engine, mix64, CHANCE_PLAYER, TERMINAL_PLAYER
from src_cy.events cimport Event, EVENT_NONE, SEERS_ALL
from src_cy.ardillas_del_bosque.actions cimport (
    MAXB, MAXH, NK, SQUIRREL, POO, A_PILE, A_TAKE, A_KEEP, A_NPLACE, A_INDEX, A_PAIR,
    A_NEST, A_BEETLE, A_SNAKE_UP, A_SNAKE_DOWN)
from src_cy.ardillas_del_bosque.catalog cimport *


# The engine parameters, by name (the mapping ``ArdillasParams`` takes).
PARAM_NAMES = ("players", "sleepyheads", "hiding_places", "night", "king",
               "little_squirrels", "nuts", "boards", "max_len")


def _int_param(params, str name, int lo, int hi) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"Ardillas del Bosque parameter {name}={value!r} is invalid; "
                         f"valid: an integer in [{lo}, {hi}]")
    return value


cdef class ArdillasParams:
    """One game's parameters, typed and immutable; built once per game from
    a mapping of every name of ``PARAM_NAMES`` (``games.ardillas_del_bosque``
    builds it: ``night`` and ``little_squirrels`` bools, ``king`` -1 or an
    animal index 0..9, ``boards`` () for boards drawn by chance at set-up,
    else the board pair (0..4) of each board, players' boards first,
    ``max_len`` a bound on the actions of a game) and shared by every engine
    of that game and all their clones.  ValueError names a missing, unknown
    or invalid parameter."""

    def __init__(self, params):
        cdef int b, k
        names = set(params)
        if names != set(PARAM_NAMES):
            raise ValueError(f"Ardillas del Bosque parameters: missing "
                             f"{sorted(set(PARAM_NAMES) - names)}, unknown "
                             f"{sorted(names - set(PARAM_NAMES))}")
        self.players = _int_param(params, "players", 2, MAXB)
        self.sleepyheads = _int_param(params, "sleepyheads", 0, MAXB - self.players)
        self.boards_count = self.players + self.sleepyheads
        self.hiding_places = _int_param(params, "hiding_places", 1, MAXH // self.boards_count)
        self.hiding_total = self.boards_count * self.hiding_places
        self.night = 1 if params["night"] else 0
        self.king = _int_param(params, "king", -1, 9)
        self.little = 1 if params["little_squirrels"] else 0
        self.nuts = _int_param(params, "nuts", 1, SQUIRREL)
        self.max_len = _int_param(params, "max_len", 1, MAXSTEP)
        boards = tuple(params["boards"])
        if boards and (len(boards) != self.boards_count or len(set(boards)) != len(boards)
                       or not all(isinstance(x, int) and 0 <= x < NUM_BOARD_PAIRS
                                  for x in boards)):
            raise ValueError(f"boards must be {self.boards_count} distinct board numbers "
                             f"0..4, got {boards}")
        self.boards = boards
        self.kindset = 0
        for k in range(self.nuts):
            self.kindset |= 1 << k
        if not self.little:
            self.kindset |= 1 << SQUIRREL
        self.kindset |= 1 << POO
        self.tokens = popc(self.kindset)
        # With a King of the Woods or without squirrels the boards' animals
        # never act, so no board is drawn: every board shows its own number.
        self.random_boards = 1 if (not boards and self.king < 0 and not self.little) else 0
        for b in range(MAXB):
            self.fixed[b] = boards[b] if boards and b < self.boards_count else b


cdef class ArdillasRules(Engine):
    """The rules kernel of one Ardillas del Bosque game (all modes):
    ``ArdillasRules(params, game_string="")`` with ``params`` an
    ``ArdillasParams`` (shared by reference, also by clones) or the mapping
    it takes.  It has no resampler of its own (the base class's, which
    returns the true history): the game's engine is ``ArdillasEngine``
    (``engine.pyx``), which adds ``resample.pyx``'s."""

    def __cinit__(self, *args, **kwargs):
        self.log = <Event*>malloc(MAXLOG * sizeof(Event))
        if self.log == NULL:
            raise MemoryError("Ardillas del Bosque event log")

    def __dealloc__(self):
        free(self.log)

    def __init__(self, params, str game_string="") -> None:
        self.set_params(params if isinstance(params, ArdillasParams)
                        else ArdillasParams(params))
        self.num_players = self.N
        self.game_string = game_string
        self.to_initial()

    cdef void set_params(self, ArdillasParams prm) noexcept:
        self.params = prm
        self.N = prm.players
        self.S = prm.sleepyheads
        self.B = prm.boards_count
        self.hp = prm.hiding_places
        self.H = prm.hiding_total
        self.night = prm.night
        self.king = prm.king
        self.little = prm.little
        self.nuts = prm.nuts
        self.max_len = prm.max_len
        self.tpp = prm.tokens
        self.kindset = prm.kindset
        self.fixed = prm.fixed
        self.random_boards = prm.random_boards

    cdef void restart(self) noexcept nogil:
        cdef int b, k
        memset(&self.s, 0, sizeof(AState))
        for k in range(MAXT):
            self.s.kind[k] = -1
            self.s.loc[k] = LOC_HAND
            self.s.alloc_at[k] = -1
        for b in range(self.B):
            self.s.hand[b] = self.kindset
            self.s.active[b] = 1 if b < self.N else 0
        for b in range(MAXB):
            self.s.animal_of[b] = -1 if self.random_boards else self.fixed[b]
        self.s.nactive = self.N
        self.s.ppile = -1
        self.s.liz_a = -1
        self.s.liz_b = -1
        self.s.pend = -1
        if self.random_boards:
            self.s.phase = PH_BOARDS
        else:
            self.after_boards()

    cdef void after_boards(self) noexcept nogil:
        if self.S > 0:
            self.s.phase = PH_DEAL
            self.s.deal_owner = self.N
        else:
            self.start_autumn()

    # ------------------------------------------------------------------ helpers
    cdef void log_ev(self, int typ, int actor, int a, int b, int obj, int seers, int pub,
                     int c=EVENT_NONE) noexcept nogil:
        """Record an event (``obj`` the token whose kind `seers` learn, a
        bit set of seats or ``PUB``; unused details ``EVENT_NONE``) and feed
        it to the information keys."""
        cdef Event* e
        cdef uint64_t base, t
        cdef int p, kd
        if self.quiet:
            return
        if self.s.nlog < MAXLOG:
            e = &self.log[self.s.nlog]
            e.kind = typ
            e.actor = actor
            e.pub = pub
            e.a = a
            e.b = b
            e.c = c
            e.secret = obj
            e.seers = SEERS_ALL if seers & PUB else <uint32_t>seers
            self.s.nlog += 1
        # An unused detail hashes as 0, as it did when the log stored it so.
        if a < 0:
            a = 0
        if b < 0:
            b = 0
        if c < 0:
            c = 0
        kd = self.s.kind[obj] if obj >= 0 else -1
        base = mix64(mix64(mix64(<uint64_t>(typ + 1), <uint64_t>(actor + 2)),
                           <uint64_t>(((a + 2) * 64 + b + 2) * 64 + c)), <uint64_t>(obj + 2))
        if pub:
            t = mix64(base, <uint64_t>(kd + 2 if seers & PUB else 0))
            self.observe_public(t)
        if not (seers & PUB):
            t = mix64(base, <uint64_t>(kd + 100))
            for p in range(self.N):
                if seers & (1 << p):
                    self.observe_private(p, t)

    cdef int alloc(self, int owner, int k) noexcept nogil:
        cdef int o = owner * NK + self.s.nalloc[owner]
        self.s.nalloc[owner] += 1
        self.s.kind[o] = k
        self.s.hand[owner] &= <uint8_t>~(1 << k)
        self.s.alloc_at[o] = <int16_t>(self.hist.size() - 1)
        return o

    cdef void push_pile(self, int h, int o, int up) noexcept nogil:
        self.s.pile[h][self.s.psize[h]] = o
        self.s.psize[h] += 1
        self.s.loc[o] = h
        self.s.up[o] = up

    cdef void push_nest(self, int p, int o, int up) noexcept nogil:
        self.s.nest[p][self.s.nsize[p]] = o
        self.s.nsize[p] += 1
        self.s.loc[o] = LOC_NEST + p
        self.s.up[o] = up

    cdef int pop_pile_at(self, int h, int i) noexcept nogil:
        """Remove and return the object at index i (0 = bottom) of pile h."""
        cdef int o = self.s.pile[h][i]
        cdef int j
        for j in range(i, self.s.psize[h] - 1):
            self.s.pile[h][j] = self.s.pile[h][j + 1]
        self.s.psize[h] -= 1
        return o

    cdef int pop_nest_at(self, int p, int i) noexcept nogil:
        cdef int o = self.s.nest[p][i]
        cdef int j
        for j in range(i, self.s.nsize[p] - 1):
            self.s.nest[p][j] = self.s.nest[p][j + 1]
        self.s.nsize[p] -= 1
        return o

    cdef void expose(self, int h) noexcept nogil:
        """A face-up token on top of a pile is seen by everybody."""
        cdef int o
        if self.s.psize[h] == 0:
            return
        o = self.s.pile[h][self.s.psize[h] - 1]
        if self.s.up[o] and not (self.s.known[o] & PUB):
            self.s.known[o] |= PUB
            self.log_ev(E_EXPOSE, -1, h, EVENT_NONE, o, PUB, 1)

    cdef int woods_count(self) noexcept nogil:
        cdef int h, n = 0
        for h in range(self.H):
            n += self.s.psize[h]
        return n

    cdef int next_active(self, int p) noexcept nogil:
        cdef int i
        for i in range(1, self.N + 1):
            if self.s.active[(p + i) % self.N]:
                return (p + i) % self.N
        return p

    cdef void start_autumn(self) noexcept nogil:
        self.s.cur = 0
        self.s.phase = PH_KEEP if self.night else PH_ADRAW

    cdef void end_game(self) noexcept nogil:
        cdef int p, i, o
        for p in range(self.N):
            for i in range(self.s.nsize[p]):
                o = self.s.nest[p][i]
                if not (self.s.known[o] & PUB):
                    self.s.known[o] |= PUB
                    self.log_ev(E_REVEAL, p, i, EVENT_NONE, o, PUB, 1)
        self.s.phase = PH_END
        self.log_ev(E_END, -1, EVENT_NONE, EVENT_NONE, -1, 0, 1)

    cdef void end_turn(self) noexcept nogil:
        self.s.last_turn[self.s.cur] = self.s.turn_ctr
        self.s.turn_ctr += 1
        if self.woods_count() == 0 or self.s.nactive < 2:
            self.end_game()
            return
        self.s.cur = self.next_active(self.s.cur)
        self.s.phase = PH_WDRAW

    cdef int count_nonempty(self, int* which) noexcept nogil:
        cdef int h, n = 0
        for h in range(self.H):
            if self.s.psize[h] > 0:
                which[0] = h
                n += 1
        return n

    cdef int has_nut(self, int p) noexcept nogil:
        cdef int i, o
        for i in range(self.s.nsize[p]):
            o = self.s.nest[p][i]
            if self.s.kind[o] < SQUIRREL:
                return 1
        return 0

    cdef int other_nest_tokens(self) noexcept nogil:
        cdef int p
        for p in range(self.N):
            if p != self.s.cur and self.s.active[p] and self.s.nsize[p] > 0:
                return 1
        return 0

    cdef int any_up_poo(self) noexcept nogil:
        cdef int p, i, o
        for p in range(self.N):
            if not self.s.active[p]:
                continue
            for i in range(self.s.nsize[p]):
                o = self.s.nest[p][i]
                if self.s.up[o] and self.s.kind[o] == POO:
                    return 1
        return 0

    cdef void eliminate(self, int p) noexcept nogil:
        cdef int o
        self.log_ev(E_ELIM, p, EVENT_NONE, EVENT_NONE, -1, 0, 1)
        while self.s.nsize[p] > 0:
            o = self.pop_nest_at(p, 0)
            if not (self.s.known[o] & PUB):
                self.s.known[o] |= PUB
                self.log_ev(E_REVEAL, p, 0, EVENT_NONE, o, PUB, 1)
            self.s.loc[o] = LOC_REMOVED
        self.s.active[p] = 0
        self.s.nactive -= 1

    cdef void start_animal(self, int animal, int board) noexcept nogil:
        cdef int h = -1, n
        self.log_ev(E_ANIMAL, self.s.cur, animal, board, -1, 0, 1)
        if animal < 5 and self.woods_count() == 0:
            self.end_turn()
            return
        if animal == 0:
            self.s.phase = PH_BEAR_FLIP
        elif animal == 1:
            self.s.phase = PH_LYNX_PILE
        elif animal == 2:
            self.s.phase = PH_EAGLE
        elif animal == 3:
            self.s.phase = PH_ANT_NEST
        elif animal == 4:
            n = self.count_nonempty(&h)
            if n >= 2:
                self.s.phase = PH_LIZ_PAIR
            elif self.s.psize[h] >= 2:
                self.s.ppile = h
                self.s.phase = PH_LIZ_DEST
            else:
                self.flip_top(h)
                self.s.liz_a = h
                self.s.liz_b = -1
                self.s.phase = PH_LIZ_TAKE
        elif animal == 5:
            if self.woods_count() == 0:
                self.end_turn()
            else:
                self.s.phase = PH_BOAR_PILE
        elif animal == 6 or animal == 7:
            if self.other_nest_tokens():
                self.s.phase = PH_FOX if animal == 6 else PH_OWL
            else:
                self.end_turn()
        elif animal == 8:
            if self.any_up_poo() and self.s.nactive >= 2:
                self.s.phase = PH_BEETLE
            else:
                self.end_turn()
        else:
            if self.has_nut(self.s.cur):
                self.s.phase = PH_SNAKE
            else:
                self.eliminate(self.s.cur)
                self.end_turn()

    cdef void flip_top(self, int h) noexcept nogil:
        cdef int o = self.s.pile[h][self.s.psize[h] - 1]
        self.s.up[o] = 1
        self.expose(h)

    cdef void after_draw(self, int o, int h) noexcept nogil:
        """A token went face up into the current player's nest from pile h."""
        if self.s.kind[o] == SQUIRREL:
            self.start_animal(self.board_animal(h // self.hp), h // self.hp)
        else:
            self.end_turn()

    cdef void draw_public(self, int h, int i) noexcept nogil:
        """Move pile h's object at index i face up into the current nest."""
        cdef int o = self.pop_pile_at(h, i)
        self.s.known[o] |= PUB
        self.push_nest(self.s.cur, o, 1)
        self.log_ev(E_DRAW, self.s.cur, h, self.s.psize[h] - i, o, PUB, 1)
        self.expose(h)
        self.after_draw(o, h)

    cdef int nest_choice(self, int t, int c) noexcept nogil:
        """Index in nest t of choice c (face-up kind c, or face-down number c-7)."""
        cdef int i, o, d = 0
        for i in range(self.s.nsize[t]):
            o = self.s.nest[t][i]
            if c < NK:
                if self.s.up[o] and self.s.kind[o] == c:
                    return i
            elif not self.s.up[o]:
                if d == c - NK:
                    return i
                d += 1
        return -1

    # ------------------------------------------------------------------ interface
    cdef int current_player(self) noexcept nogil:
        if self.s.phase == PH_END:
            return TERMINAL_PLAYER
        if self.s.phase == PH_DEAL or self.s.phase == PH_ADRAW or self.s.phase == PH_BOARDS:
            return CHANCE_PLAYER
        return self.s.cur

    cdef bint is_terminal(self) noexcept nogil:
        return self.s.phase == PH_END

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int owner, k, b, used, n = 0
        if self.s.phase == PH_BOARDS:
            used = 0
            for b in range(self.s.nboards):
                used |= 1 << self.s.animal_of[b]
            for k in range(5):
                if not used & (1 << k):
                    out[n] = k
                    n += 1
            for k in range(n):
                probs[k] = 1.0 / n
            return n
        owner = self.s.deal_owner if self.s.phase == PH_DEAL else self.s.cur
        for k in range(NK):
            if self.s.hand[owner] & (1 << k):
                out[n] = k
                n += 1
        for k in range(n):
            probs[k] = 1.0 / n
        return n

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int n = 0, h, k, i, t, c, a, b, o, ph = self.s.phase, p = self.s.cur
        if ph == PH_APLACE:
            for h in range(self.N * self.hp):
                out[n] = A_PILE + h
                n += 1
        elif ph == PH_KEEP:
            for k in range(NK):
                if self.s.hand[p] & (1 << k):
                    out[n] = A_KEEP + k
                    n += 1
        elif ph == PH_NPLACE:
            for k in range(NK):
                if self.s.hand[p] & (1 << k):
                    for h in range(self.N * self.hp):
                        out[n] = A_NPLACE + k * 10 + h
                        n += 1
        elif (ph == PH_WDRAW or ph == PH_BEAR_FLIP or ph == PH_BEAR_DRAW or ph == PH_LYNX_PILE
              or ph == PH_EAGLE or ph == PH_ANT_NEST or ph == PH_BOAR_PILE):
            for h in range(self.H):
                if self.s.psize[h] > 0:
                    out[n] = A_PILE + h
                    n += 1
        elif ph == PH_LYNX_PICK:
            for i in range(self.s.psize[self.s.ppile]):
                out[n] = A_INDEX + i
                n += 1
        elif ph == PH_ANT_DEC:
            out[n] = A_TAKE
            n += 1
            if self.s.psize[self.s.ppile] >= 2:
                for h in range(self.H):
                    if h != self.s.ppile:
                        out[n] = A_PILE + h
                        n += 1
        elif ph == PH_LIZ_DEST:
            for h in range(self.H):
                if self.s.psize[h] == 0:
                    out[n] = A_PILE + h
                    n += 1
        elif ph == PH_LIZ_SIZE:
            for i in range(1, self.s.psize[self.s.ppile]):
                out[n] = A_INDEX + i
                n += 1
        elif ph == PH_LIZ_PAIR:
            for a in range(self.H):
                if self.s.psize[a] == 0:
                    continue
                for b in range(a + 1, self.H):
                    if self.s.psize[b] > 0:
                        out[n] = A_PAIR + a * 10 + b
                        n += 1
        elif ph == PH_LIZ_TAKE:
            out[n] = A_PILE + self.s.liz_a
            n += 1
            if self.s.liz_b >= 0:
                out[n] = A_PILE + self.s.liz_b
                n += 1
        elif ph == PH_BOAR_PICK:
            for i in range(self.s.boar_n):
                out[n] = A_INDEX + i
                n += 1
        elif ph == PH_FOX or ph == PH_OWL:
            for t in range(self.N):
                if t == p or not self.s.active[t]:
                    continue
                for c in range(NK + 5):
                    if self.nest_choice(t, c) >= 0:
                        out[n] = A_NEST + t * 12 + c
                        n += 1
        elif ph == PH_BEETLE:
            for a in range(self.N):
                if self.s.active[a] and self.nest_choice(a, POO) >= 0:
                    for b in range(self.N):
                        if b != a and self.s.active[b]:
                            out[n] = A_BEETLE + a * 5 + b
                            n += 1
        elif ph == PH_SNAKE:
            for k in range(SQUIRREL):
                if self.nest_choice(p, k) >= 0:
                    out[n] = A_SNAKE_UP + k
                    n += 1
            for c in range(5):
                i = self.nest_choice(p, NK + c)
                if i >= 0 and self.s.kind[self.s.nest[p][i]] < SQUIRREL:
                    out[n] = A_SNAKE_DOWN + c
                    n += 1
        return n

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.s.phase, p = self.s.cur, o, h, k, i, j, n, t, c, a, b, owner
        cdef int step = <int>self.hist.size() - 1
        self.s.nmoves += 1
        if 0 <= step < MAXSTEP:
            if ph == PH_BOARDS:
                self.s.step_tag[step] = TAG_BOARD
            elif ph == PH_DEAL:
                self.s.step_tag[step] = TAG_DEAL
            elif ph == PH_ADRAW:
                self.s.step_tag[step] = TAG_ADRAW + p
            else:
                self.s.step_tag[step] = p
        if ph == PH_BOARDS:
            b = self.s.nboards
            self.s.animal_of[b] = action
            self.s.nboards += 1
            self.log_ev(E_BOARD, -1, b, action, -1, 0, 1)
            if self.s.nboards == self.B:
                self.after_boards()
        elif ph == PH_DEAL:
            owner = self.s.deal_owner
            j = self.s.nalloc[owner]
            o = self.alloc(owner, action)
            n = self.tpp - (1 if self.night else 0)
            if j >= n:
                self.s.loc[o] = LOC_REMOVED
                self.log_ev(E_DEAL_REMOVED, owner, EVENT_NONE, EVENT_NONE, o, 0, 1)
            else:
                h = owner * self.hp
                if self.hp == 2 and j >= (n + 1) // 2:
                    h += 1
                self.push_pile(h, o, 0)
                self.log_ev(E_DEAL, owner, h, EVENT_NONE, o, 0, 1)
            if self.s.nalloc[owner] == self.tpp:
                self.s.deal_owner += 1
                if self.s.deal_owner == self.B:
                    self.start_autumn()
        elif ph == PH_ADRAW:
            o = self.alloc(p, action)
            self.s.known[o] |= 1 << p
            self.s.pend = o
            self.s.loc[o] = LOC_HAND
            self.log_ev(E_ADRAW, p, EVENT_NONE, EVENT_NONE, o, 1 << p, 1)
            self.s.phase = PH_APLACE
        elif ph == PH_APLACE or ph == PH_NPLACE:
            if ph == PH_APLACE:
                o = self.s.pend
                h = action - A_PILE
                self.s.pend = -1
            else:
                k = (action - A_NPLACE) // 10
                h = (action - A_NPLACE) % 10
                o = self.alloc(p, k)
                self.s.known[o] |= 1 << p
            self.push_pile(h, o, 0)
            self.log_ev(E_PLACE, p, h, EVENT_NONE, o, 1 << p, 1)
            self.s.last_turn[p] = self.s.turn_ctr
            self.s.turn_ctr += 1
            self.s.cur = (p + 1) % self.N
            if self.s.nalloc[self.s.cur] == self.tpp:
                self.s.cur = 0
                self.s.phase = PH_WDRAW
            else:
                self.s.phase = PH_ADRAW if ph == PH_APLACE else PH_NPLACE
        elif ph == PH_KEEP:
            o = self.alloc(p, action - A_KEEP)
            self.s.known[o] |= 1 << p
            self.push_nest(p, o, 0)
            self.log_ev(E_KEEP, p, EVENT_NONE, EVENT_NONE, o, 1 << p, 1)
            self.s.last_turn[p] = self.s.turn_ctr
            self.s.turn_ctr += 1
            self.s.cur = (p + 1) % self.N
            if self.s.cur == 0:
                self.s.phase = PH_NPLACE
        elif ph == PH_WDRAW or ph == PH_BEAR_DRAW:
            h = action - A_PILE
            self.draw_public(h, self.s.psize[h] - 1)
        elif ph == PH_BEAR_FLIP:
            h = action - A_PILE
            n = self.s.psize[h]
            for i in range(n // 2):
                o = self.s.pile[h][i]
                self.s.pile[h][i] = self.s.pile[h][n - 1 - i]
                self.s.pile[h][n - 1 - i] = o
            for i in range(n):
                o = self.s.pile[h][i]
                self.s.up[o] = 1 - self.s.up[o]
            self.log_ev(E_FLIP, p, h, EVENT_NONE, -1, 0, 1)
            self.expose(h)
            self.s.phase = PH_BEAR_DRAW
        elif ph == PH_LYNX_PILE or ph == PH_BOAR_PILE:
            h = action - A_PILE
            self.s.ppile = h
            self.log_ev(E_LOOK, p, h, EVENT_NONE, -1, 0, 1)
            n = self.s.psize[h]
            for i in range(n - 1, -1, -1):
                o = self.s.pile[h][i]
                self.s.known[o] |= 1 << p
                self.log_ev(E_SEE, p, h, n - 1 - i, o, 1 << p, 0)
            if ph == PH_LYNX_PILE:
                self.s.phase = PH_LYNX_PICK
            else:
                for i in range(n):
                    self.s.boar_rem[i] = self.s.pile[h][n - 1 - i]
                self.s.boar_n = n
                self.s.boar_out = 0
                self.s.phase = PH_BOAR_PICK
                if n == 1:
                    self.boar_pick(0)
        elif ph == PH_LYNX_PICK:
            h = self.s.ppile
            i = action - A_INDEX
            self.s.ppile = -1
            self.draw_public(h, self.s.psize[h] - 1 - i)
        elif ph == PH_EAGLE:
            h = action - A_PILE
            o = self.pop_pile_at(h, self.s.psize[h] - 1)
            self.s.known[o] |= 1 << p
            self.push_nest(p, o, 0)
            self.log_ev(E_EAGLE, p, h, EVENT_NONE, o, 1 << p, 1)
            self.expose(h)
            self.end_turn()
        elif ph == PH_ANT_NEST:
            h = action - A_PILE
            self.s.ppile = h
            self.log_ev(E_ANT_NEST, p, h, EVENT_NONE, -1, 0, 1)
            self.ant_peek()
        elif ph == PH_ANT_DEC:
            h = self.s.ppile
            if action == A_TAKE:
                self.s.ppile = -1
                self.draw_public(h, self.s.psize[h] - 1)
            else:
                b = action - A_PILE
                o = self.pop_pile_at(h, self.s.psize[h] - 1)
                self.push_pile(b, o, 0)
                self.log_ev(E_ANT_MOVE, p, h, b, o, 0, 1)
                self.expose(h)
                self.ant_peek()
        elif ph == PH_LIZ_DEST:
            self.s.liz_b = action - A_PILE
            self.log_ev(E_LIZ_DEST, p, self.s.ppile, self.s.liz_b, -1, 0, 1)
            self.s.phase = PH_LIZ_SIZE
        elif ph == PH_LIZ_SIZE:
            k = action - A_INDEX
            h = self.s.ppile
            b = self.s.liz_b
            n = self.s.psize[h]
            for i in range(n - k, n):
                o = self.s.pile[h][i]
                self.push_pile(b, o, self.s.up[o])
            self.s.psize[h] = n - k
            self.log_ev(E_SPLIT, p, h, b, -1, 0, 1, k)
            self.s.ppile = -1
            self.lizard_flip(h, b)
        elif ph == PH_LIZ_PAIR:
            a = (action - A_PAIR) // 10
            b = (action - A_PAIR) % 10
            self.lizard_flip(a, b)
        elif ph == PH_LIZ_TAKE:
            h = action - A_PILE
            self.s.liz_a = -1
            self.s.liz_b = -1
            self.draw_public(h, self.s.psize[h] - 1)
        elif ph == PH_BOAR_PICK:
            self.boar_pick(action - A_INDEX)
        elif ph == PH_FOX or ph == PH_OWL:
            t = (action - A_NEST) // 12
            c = (action - A_NEST) % 12
            i = self.nest_choice(t, c)
            o = self.pop_nest_at(t, i)
            if ph == PH_FOX:
                self.push_nest(p, o, self.s.up[o])
                if not self.s.up[o]:
                    self.s.known[o] |= 1 << p
                self.log_ev(E_FOX, p, t, c, o, PUB if self.s.up[o] else (1 << p), 1)
            else:
                self.s.loc[o] = LOC_REMOVED
                self.log_ev(E_OWL, p, t, c, o, PUB if self.s.up[o] else 0, 1)
            self.end_turn()
        elif ph == PH_BEETLE:
            a = (action - A_BEETLE) // 5
            b = (action - A_BEETLE) % 5
            o = self.pop_nest_at(a, self.nest_choice(a, POO))
            self.push_nest(b, o, 1)
            self.log_ev(E_BEETLE, p, a, b, o, PUB, 1)
            self.end_turn()
        elif ph == PH_SNAKE:
            if action < A_SNAKE_DOWN:
                i = self.nest_choice(p, action - A_SNAKE_UP)
            else:
                i = self.nest_choice(p, NK + action - A_SNAKE_DOWN)
            o = self.pop_nest_at(p, i)
            self.s.loc[o] = LOC_REMOVED
            self.s.known[o] |= PUB
            self.log_ev(E_SNAKE, p, EVENT_NONE, EVENT_NONE, o, PUB, 1)
            self.end_turn()

    cdef void ant_peek(self) noexcept nogil:
        cdef int h = self.s.ppile
        cdef int o = self.s.pile[h][self.s.psize[h] - 1]
        self.s.known[o] |= 1 << self.s.cur
        self.log_ev(E_PEEK, self.s.cur, h, EVENT_NONE, o, 1 << self.s.cur, 1)
        self.s.phase = PH_ANT_DEC

    cdef void lizard_flip(self, int a, int b) noexcept nogil:
        self.log_ev(E_LIZ_FLIP, self.s.cur, a, b, -1, 0, 1)
        self.flip_top(a)
        self.flip_top(b)
        self.s.liz_a = a
        self.s.liz_b = b
        self.s.phase = PH_LIZ_TAKE

    cdef void boar_pick(self, int i) noexcept nogil:
        cdef int o = self.s.boar_rem[i]
        cdef int j, h = self.s.ppile, n
        for j in range(i, self.s.boar_n - 1):
            self.s.boar_rem[j] = self.s.boar_rem[j + 1]
        self.s.boar_n -= 1
        self.s.boar_new[self.s.boar_out] = o
        self.s.boar_out += 1
        self.log_ev(E_BOAR_PICK, self.s.cur, h, self.s.boar_out - 1, o, 0, 1)
        if self.s.boar_n == 1:
            self.boar_pick(0)
            return
        if self.s.boar_n == 0:
            n = self.s.boar_out
            for j in range(n):
                o = self.s.boar_new[n - 1 - j]
                self.s.pile[h][j] = o
                self.s.up[o] = 1 - self.s.up[o]
            self.s.boar_out = 0
            self.s.ppile = -1
            self.log_ev(E_BOAR_DONE, self.s.cur, h, EVENT_NONE, -1, 0, 1)
            self.expose(h)
            self.end_turn()

    cdef int group_counts(self, int p, int* cnt) noexcept nogil:
        """Nut groups of p's nest, largest first, after the poos took their
        nuts (each from the smallest group, best for the nest's owner);
        returns the number of nuts left."""
        cdef int k, i, o, npoo = 0, tot = 0
        for k in range(5):
            cnt[k] = 0
        for i in range(self.s.nsize[p]):
            o = self.s.nest[p][i]
            if self.s.kind[o] < SQUIRREL:
                cnt[self.s.kind[o]] += 1
            elif self.s.kind[o] == POO:
                npoo += 1
        sort_desc(cnt)
        for k in range(5):
            tot += cnt[k]
        k = 4
        while npoo > 0 and k >= 0:
            if cnt[k] > 0:
                cnt[k] -= 1
                tot -= 1
                npoo -= 1
            else:
                k -= 1
        return tot

    cdef void returns(self, double* out) noexcept nogil:
        cdef int p, k, w = 0, best = -1, cmp
        cdef int cnt[MAXB][5]
        cdef int tot[MAXB]
        cdef int win[MAXB]
        for p in range(self.N):
            out[p] = 0.0
            win[p] = 0
        if self.s.phase != PH_END:
            return
        for p in range(self.N):
            tot[p] = self.group_counts(p, cnt[p])
        if self.little:
            for p in range(self.N):
                if self.s.active[p] and (best < 0 or tot[p] > tot[best]):
                    best = p
            for p in range(self.N):
                if self.s.active[p] and tot[p] == tot[best]:
                    win[p] = 1
                    w += 1
        else:
            for p in range(self.N):
                if not self.s.active[p]:
                    continue
                if best < 0:
                    best = p
                    continue
                cmp = 0
                for k in range(5):
                    if cnt[p][k] != cnt[best][k]:
                        cmp = 1 if cnt[p][k] > cnt[best][k] else -1
                        break
                if cmp > 0 or (cmp == 0 and self.s.last_turn[p] > self.s.last_turn[best]):
                    best = p
            win[best] = 1
            w = 1
        if w == self.N:
            return
        for p in range(self.N):
            out[p] = 1.0 / w if win[p] else -1.0 / (self.N - w)

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """The kernel has no resampler: ``out`` is left empty (no world,
        never the true history); the final engine class overrides this."""
        out.clear()

    cdef Engine clone(self):
        cdef ArdillasRules e = ArdillasRules.__new__(ArdillasRules)
        self.clone_into(e)
        return e

    cdef void clone_into(self, ArdillasRules e) noexcept:
        """Make the fresh ``e`` (of any subclass) a copy of this state; a
        subclass's ``clone`` allocates its own class and calls this."""
        e.set_params(self.params)
        e.copy_from(self)

    cdef void copy_from(self, Engine other) noexcept:
        cdef ArdillasRules o = <ArdillasRules>other
        self.copy_base(other)
        self.s = o.s
        memcpy(self.log, o.log, o.s.nlog * sizeof(Event))
