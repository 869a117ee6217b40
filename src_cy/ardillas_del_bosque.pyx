# cython: language_level=3
"""Ardillas del Bosque rules engine (see docs/rules/ardillas_del_bosque.md).

Every token is a physical object ``o = owner * 7 + j`` (the owner's j-th token
to leave their hand); owners and positions are public, ``kind[o]`` is hidden
unless ``known[o]`` says otherwise.  Kinds: 0-4 nuts, 5 squirrel, 6 poo.
"""
from libc.stdint cimport uint64_t, uint8_t, int8_t, int16_t
from libc.string cimport memcpy, memset
from libcpp.vector cimport vector

from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, mix64, CHANCE_PLAYER,
                            TERMINAL_PLAYER, MAX_BRANCHING, ENGINE_MAX_PLAYERS)

cdef enum:
    MAXB = 5          # boards (players + sleepyheads)
    MAXH = 10         # hiding places
    MAXT = 35         # token objects
    NK = 7            # kinds
    SQUIRREL = 5
    POO = 6
    PUB = 0x80        # `known` bit: everybody knows the kind
    LOC_HAND = -1
    LOC_NEST = 10     # nest of player p is LOC_NEST + p
    LOC_REMOVED = 20
    MAXLOG = 2048
    # actions
    A_PILE = 0
    A_TAKE = 10
    A_KIND = 11
    A_NPLACE = 18
    A_INDEX = 88
    A_PAIR = 123
    A_NEST = 223
    A_BEETLE = 283
    A_SNAKE_UP = 308
    A_SNAKE_DOWN = 313
    NUM_ACTIONS = 318
    # phases
    PH_DEAL = 0
    PH_ADRAW = 1
    PH_APLACE = 2
    PH_KEEP = 3
    PH_NPLACE = 4
    PH_WDRAW = 5
    PH_BEAR_FLIP = 6
    PH_BEAR_DRAW = 7
    PH_LYNX_PILE = 8
    PH_LYNX_PICK = 9
    PH_EAGLE = 10
    PH_ANT_NEST = 11
    PH_ANT_DEC = 12
    PH_LIZ_DEST = 13
    PH_LIZ_SIZE = 14
    PH_LIZ_PAIR = 15
    PH_LIZ_TAKE = 16
    PH_BOAR_PILE = 17
    PH_BOAR_PICK = 18
    PH_FOX = 19
    PH_OWL = 20
    PH_BEETLE = 21
    PH_SNAKE = 22
    PH_END = 23
    PH_BOARDS = 24
    NPHASES = 25
    # events
    E_DEAL = 0
    E_DEAL_REMOVED = 1
    E_ADRAW = 2
    E_PLACE = 3
    E_KEEP = 4
    E_DRAW = 5
    E_FLIP = 6
    E_EXPOSE = 7
    E_LOOK = 8
    E_SEE = 9
    E_EAGLE = 10
    E_ANT_NEST = 11
    E_PEEK = 12
    E_ANT_MOVE = 13
    E_SPLIT = 14
    E_LIZ_FLIP = 15
    E_BOAR_PICK = 16
    E_BOAR_DONE = 17
    E_FOX = 18
    E_OWL = 19
    E_BEETLE = 20
    E_SNAKE = 21
    E_ELIM = 22
    E_REVEAL = 23
    E_ANIMAL = 24
    E_END = 25
    E_BOARD = 26
    E_LIZ_DEST = 27
    # history steps (for the perfect-recall tensor)
    MAXSTEP = 512
    TAG_BOARD = 8
    TAG_DEAL = 9
    TAG_ADRAW = 10    # + owner
    # step codes as a player sees a history step
    C_BOARD = 318     # + board pair
    C_SEEN_KIND = 323 # + kind (own autumn draw)
    C_HIDDEN = 330    # a chance draw the player does not see
    C_KEEP = 331      # another player's night keep
    C_NPLACE = 332    # + h: another player's night hide
    NCODE = 342
    CODE_LO = 32
    CODE_HI = 11

from typing import NamedTuple, Optional

KIND_NAMES = ("walnut", "almond", "hazelnut", "peanut", "chestnut", "squirrel", "poo")
ANIMAL_NAMES = ("bear", "lynx", "golden_eagle", "ant", "lizard",
                "wild_boar", "fox", "owl", "dung_beetle", "snake")
PHASE_NAMES = ("deal", "autumn-draw", "autumn-place", "night-keep", "night-place",
               "winter-draw", "bear-flip", "bear-draw", "lynx-pile", "lynx-pick",
               "golden-eagle", "ant-nest", "ant-decide", "lizard-split-dest",
               "lizard-split-size", "lizard-pair", "lizard-take", "boar-pile",
               "boar-order", "fox", "owl", "dung-beetle", "snake", "end", "boards")
BOARD_NAMES = tuple(f"{ANIMAL_NAMES[b]}/{ANIMAL_NAMES[b + 5]}" for b in range(5))


class Token(NamedTuple):
    """A token as one player knows it (``kind`` None: face unknown to them)."""
    owner: int          # board: seat 0..N-1, then sleepyheads N..
    ordinal: int        # the owner's j-th token to leave the hand
    kind: Optional[str]
    face_up: bool


class ArdillasView(NamedTuple):
    """What one player knows now (``ArdillasEngine.player_view``)."""
    player: int
    phase: str
    current_player: int                 # pyspiel id: seat, -1 chance, -4 terminal
    turn: int                           # seat whose turn it is
    night: bool
    king: Optional[str]
    board_animals: tuple                # per board: its animal, None until drawn
    hand: tuple                         # own kinds not yet out of the hand
    holding: Optional[Token]            # by day: the token being hidden
    piles: tuple                        # per hiding place: Tokens, top first
    nests: tuple                        # per seat: Tokens, arrival order
    active: tuple                       # per seat: still in the woods
    focus_pile: Optional[int]           # Lynx/Boar/Ant/Lizard-split pile
    lizard_piles: tuple                 # Lizard: split target, or the two flipped piles
    boar_remaining: tuple               # Wild Boar: Tokens still to order, top first
    boar_placed: tuple                  # Wild Boar: Tokens ordered so far, top first


SNAP_MAGIC = b"ARDL"
# Version 3: an action count before the history, so a truncation is refused.
SNAP_VERSION = 3


cdef struct Ev:
    int8_t typ
    int8_t actor
    int8_t a
    int8_t b
    int8_t obj
    uint8_t seers     # players who learn kind[obj] in this event (PUB = all)
    uint8_t pub       # 1 if everybody sees the event itself
    int8_t c


cdef struct AState:
    int8_t kind[MAXT]
    int8_t loc[MAXT]
    int8_t up[MAXT]
    uint8_t known[MAXT]
    int8_t pile[MAXH][MAXT]     # bottom -> top
    int8_t psize[MAXH]
    int8_t nest[MAXB][MAXT]     # arrival order
    int8_t nsize[MAXB]
    uint8_t hand[MAXB]          # kinds not yet out of the owner's hand
    int8_t nalloc[MAXB]
    int8_t active[MAXB]
    int8_t phase
    int8_t cur
    int8_t pend                 # day autumn: the drawn object
    int8_t ppile                # pile of the running animal action
    int8_t liz_a
    int8_t liz_b
    int8_t boar_n               # objects still to order
    int8_t boar_out             # objects already ordered
    int8_t boar_rem[MAXT]       # remaining objects, top-first
    int8_t boar_new[MAXT]       # new order, top-first
    int8_t deal_owner
    int8_t nactive
    int8_t animal_of[MAXB]      # board pair (0..4) shown by each board, -1 not drawn
    int8_t nboards              # boards already drawn at set-up
    int16_t alloc_at[MAXT]      # history index of the step that gave a token its kind
    int8_t step_tag[MAXSTEP]    # per history step: actor, or TAG_* for chance
    int16_t last_turn[MAXB]
    int16_t turn_ctr
    int16_t nmoves
    int16_t nlog


cdef inline void sort_desc(int* v) noexcept nogil:
    cdef int i, j, t
    for i in range(1, 5):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] < t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t


cdef inline int popc(unsigned int x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef class ArdillasEngine(Engine):
    """State and rules of one Ardillas del Bosque game (all modes)."""
    cdef AState s
    cdef Ev log[MAXLOG]
    cdef public int N, S, B, hp, H, night, king, little, nuts, max_len
    cdef public int tpp
    cdef uint8_t kindset
    cdef int8_t fixed[MAXB]
    cdef int random_boards

    def __init__(self, int players, int sleepyheads, int hiding_places, int night,
                 int king, int little, int nuts, tuple boards, int max_len, str game_string):
        """Set up the woods; `king` is -1 or an animal index 0..9; `boards` is
        () for boards drawn by chance at set-up, else the board pair (0..4) of
        each board (players' boards, then sleepyheads'); `max_len` bounds the
        number of actions of a game (the perfect-recall tensor's length)."""
        cdef int b, k
        self.N = players
        self.S = sleepyheads
        self.B = players + sleepyheads
        self.hp = hiding_places
        self.H = self.B * hiding_places
        self.night = night
        self.king = king
        self.little = little
        self.nuts = nuts
        if not 0 < max_len <= MAXSTEP:
            raise ValueError(f"max_len must be in [1, {MAXSTEP}], got {max_len}")
        self.max_len = max_len
        self.num_players = players
        self.game_string = game_string
        self.kindset = 0
        for k in range(nuts):
            self.kindset |= 1 << k
        if not little:
            self.kindset |= 1 << SQUIRREL
        self.kindset |= 1 << POO
        self.tpp = popc(self.kindset)
        if boards and (len(boards) != self.B or sorted(set(boards)) != sorted(boards)
                       or not all(0 <= x < 5 for x in boards)):
            raise ValueError(f"boards must be {self.B} distinct board numbers 0..4, got {boards}")
        # With a King of the Woods or without squirrels the boards' animals
        # never act, so no board is drawn: every board shows its own number.
        self.random_boards = 1 if (not boards and king < 0 and not little) else 0
        for b in range(MAXB):
            self.fixed[b] = boards[b] if boards and b < self.B else b
        self.to_initial()

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
    cdef inline int board_animal(self, int board) noexcept nogil:
        if self.king >= 0:
            return self.king
        return self.s.animal_of[board] + (5 if self.night else 0)

    cdef inline uint8_t pmask(self) noexcept nogil:
        return <uint8_t>((1 << self.N) - 1)

    cdef void log_ev(self, int typ, int actor, int a, int b, int obj, int seers, int pub,
                     int c=0) noexcept nogil:
        """Record an event and feed it to the information keys."""
        cdef Ev* e
        cdef uint64_t base, t
        cdef int p, kd
        if self.s.nlog < MAXLOG:
            e = &self.log[self.s.nlog]
            e.typ = typ
            e.actor = actor
            e.a = a
            e.b = b
            e.obj = obj
            e.seers = <uint8_t>seers
            e.pub = pub
            e.c = c
            self.s.nlog += 1
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

    cdef void reveal(self, int o, int seers) noexcept nogil:
        self.s.known[o] |= <uint8_t>seers

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
            self.log_ev(E_EXPOSE, -1, h, 0, o, PUB, 1)

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
                    self.log_ev(E_REVEAL, p, i, 0, o, PUB, 1)
        self.s.phase = PH_END
        self.log_ev(E_END, -1, 0, 0, -1, 0, 1)

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
        self.log_ev(E_ELIM, p, 0, 0, -1, 0, 1)
        while self.s.nsize[p] > 0:
            o = self.pop_nest_at(p, 0)
            if not (self.s.known[o] & PUB):
                self.s.known[o] |= PUB
                self.log_ev(E_REVEAL, p, 0, 0, o, PUB, 1)
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
                    out[n] = A_KIND + k
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
                self.log_ev(E_DEAL_REMOVED, owner, 0, 0, o, 0, 1)
            else:
                h = owner * self.hp
                if self.hp == 2 and j >= (n + 1) // 2:
                    h += 1
                self.push_pile(h, o, 0)
                self.log_ev(E_DEAL, owner, h, 0, o, 0, 1)
            if self.s.nalloc[owner] == self.tpp:
                self.s.deal_owner += 1
                if self.s.deal_owner == self.B:
                    self.start_autumn()
        elif ph == PH_ADRAW:
            o = self.alloc(p, action)
            self.s.known[o] |= 1 << p
            self.s.pend = o
            self.s.loc[o] = LOC_HAND
            self.log_ev(E_ADRAW, p, 0, 0, o, 1 << p, 1)
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
            self.log_ev(E_PLACE, p, h, 0, o, 1 << p, 1)
            self.s.last_turn[p] = self.s.turn_ctr
            self.s.turn_ctr += 1
            self.s.cur = (p + 1) % self.N
            if self.s.nalloc[self.s.cur] == self.tpp:
                self.s.cur = 0
                self.s.phase = PH_WDRAW
            else:
                self.s.phase = PH_ADRAW if ph == PH_APLACE else PH_NPLACE
        elif ph == PH_KEEP:
            o = self.alloc(p, action - A_KIND)
            self.s.known[o] |= 1 << p
            self.push_nest(p, o, 0)
            self.log_ev(E_KEEP, p, 0, 0, o, 1 << p, 1)
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
            self.log_ev(E_FLIP, p, h, 0, -1, 0, 1)
            self.expose(h)
            self.s.phase = PH_BEAR_DRAW
        elif ph == PH_LYNX_PILE or ph == PH_BOAR_PILE:
            h = action - A_PILE
            self.s.ppile = h
            self.log_ev(E_LOOK, p, h, 0, -1, 0, 1)
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
            self.log_ev(E_EAGLE, p, h, 0, o, 1 << p, 1)
            self.expose(h)
            self.end_turn()
        elif ph == PH_ANT_NEST:
            h = action - A_PILE
            self.s.ppile = h
            self.log_ev(E_ANT_NEST, p, h, 0, -1, 0, 1)
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
            self.log_ev(E_SNAKE, p, 0, 0, o, PUB, 1)
            self.end_turn()

    cdef void ant_peek(self) noexcept nogil:
        cdef int h = self.s.ppile
        cdef int o = self.s.pile[h][self.s.psize[h] - 1]
        self.s.known[o] |= 1 << self.s.cur
        self.log_ev(E_PEEK, self.s.cur, h, 0, o, 1 << self.s.cur, 1)
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
            self.log_ev(E_BOAR_DONE, self.s.cur, h, 0, -1, 0, 1)
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
        """Re-draw the kind of every token whose face `player` does not know.

        Owner by owner, the unknown tokens get distinct kinds drawn uniformly
        from the owner's kinds `player` has not seen among their tokens.  One
        rule branches on faces that may stay hidden: a player woken by the
        Snake who is still in the woods holds a nut; if another player is at
        that decision now, draws that leave them no nut are rejected.  The
        history steps that gave the tokens their kinds (a chance draw, or a
        night keep/hide choice) are then rewritten.  Everything else is public
        or seen by `player`, so the history replays to the same information
        state.
        """
        cdef int w, j, o, n, m, i, r, tmp, old, k, idx, tries, ok, t
        cdef int objs[MAXT]
        cdef int8_t newkind[MAXT]
        cdef int pool[NK]
        cdef uint8_t bit = <uint8_t>(1 << player)
        cdef uint8_t avail
        cdef int snake = self.s.phase == PH_SNAKE and self.s.cur != player
        cdef int nobj = 0
        for tries in range(1 << 20):
            memcpy(newkind, self.s.kind, sizeof(newkind))
            nobj = 0
            for w in range(self.B):
                if w == player:
                    continue
                avail = self.kindset
                n = 0
                for j in range(self.s.nalloc[w]):
                    o = w * NK + j
                    if self.s.known[o] & (PUB | bit):
                        avail &= <uint8_t>~(1 << self.s.kind[o])
                    else:
                        objs[nobj + n] = o
                        n += 1
                m = 0
                for k in range(NK):
                    if avail & (1 << k):
                        pool[m] = k
                        m += 1
                for i in range(n):
                    r = i + rng_int(rng, m - i)
                    tmp = pool[i]
                    pool[i] = pool[r]
                    pool[r] = tmp
                    newkind[objs[nobj + i]] = pool[i]
                nobj += n
            if not snake:
                break
            ok = 0
            for t in range(self.s.nsize[self.s.cur]):
                if newkind[self.s.nest[self.s.cur][t]] < SQUIRREL:
                    ok = 1
            if ok:
                break
        out[0] = self.hist
        for i in range(nobj):
            o = objs[i]
            idx = self.s.alloc_at[o]
            old = out[0][idx]
            if old < NK:
                out[0][idx] = newkind[o]
            elif old < A_NPLACE:
                out[0][idx] = A_KIND + newkind[o]
            else:
                out[0][idx] = A_NPLACE + 10 * newkind[o] + (old - A_NPLACE) % 10

    cdef Engine clone(self):
        cdef ArdillasEngine e = ArdillasEngine.__new__(ArdillasEngine)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef ArdillasEngine o = <ArdillasEngine>other
        self.copy_base(other)
        self.N = o.N
        self.S = o.S
        self.B = o.B
        self.hp = o.hp
        self.H = o.H
        self.night = o.night
        self.king = o.king
        self.little = o.little
        self.nuts = o.nuts
        self.max_len = o.max_len
        self.random_boards = o.random_boards
        memcpy(self.fixed, o.fixed, sizeof(self.fixed))
        self.tpp = o.tpp
        self.kindset = o.kindset
        self.s = o.s
        memcpy(self.log, o.log, o.s.nlog * sizeof(Ev))

    # ------------------------------------------------------------------ Python API
    def _check_player(self, int player) -> None:
        if not 0 <= player < self.N:
            raise ValueError(f"player must be in [0, {self.N - 1}], got {player}")

    def _tok(self, int o, int player) -> str:
        """Name of object o as `player` knows it: owner, ordinal and kind if known."""
        who = f"p{o // NK}" if o // NK < self.N else f"z{o // NK - self.N}"
        if player < 0 or self.s.known[o] & (PUB | (1 << player)):
            return f"{who}#{o % NK}:{KIND_NAMES[self.s.kind[o]]}"
        return f"{who}#{o % NK}:?"

    def _token(self, int o, int player):
        known = player < 0 or self.s.known[o] & (PUB | (1 << player))
        return Token(o // NK, o % NK, KIND_NAMES[self.s.kind[o]] if known else None,
                     bool(self.s.up[o]))

    def _animal_name(self, int board):
        if self.king < 0 and self.s.animal_of[board] < 0:
            return None
        return ANIMAL_NAMES[self.board_animal(board)]

    def num_events(self) -> int:
        """Events logged so far (the log holds at most 2048; see the rules doc)."""
        return self.s.nlog

    def player_view(self, int player) -> ArdillasView:
        """What `player` knows now, as typed fields (see ``ArdillasView``)."""
        self._check_player(player)
        return self._make_view(player)

    def _make_view(self, int player) -> ArdillasView:
        ph = self.s.phase
        holding = None
        if ph == PH_APLACE and self.s.pend >= 0 and (player < 0 or self.s.cur == player):
            holding = self._token(self.s.pend, player)
        liz = ()
        if ph == PH_LIZ_SIZE:
            liz = (int(self.s.liz_b),)
        elif ph == PH_LIZ_TAKE:
            liz = tuple(int(x) for x in (self.s.liz_a, self.s.liz_b) if x >= 0)
        boar = ph == PH_BOAR_PICK
        own = self.s.hand[player] if player >= 0 else 0
        return ArdillasView(
            player=player,
            phase=PHASE_NAMES[ph],
            current_player=self.current_player(),
            turn=self.s.cur,
            night=bool(self.night),
            king=ANIMAL_NAMES[self.king] if self.king >= 0 else None,
            board_animals=tuple(self._animal_name(b) for b in range(self.B)),
            hand=tuple(KIND_NAMES[k] for k in range(NK) if own & (1 << k)),
            holding=holding,
            piles=tuple(tuple(self._token(self.s.pile[h][i], player)
                              for i in range(self.s.psize[h] - 1, -1, -1))
                        for h in range(self.H)),
            nests=tuple(tuple(self._token(self.s.nest[q][i], player)
                              for i in range(self.s.nsize[q])) for q in range(self.N)),
            active=tuple(bool(self.s.active[q]) for q in range(self.N)),
            focus_pile=self.s.ppile if self.s.ppile >= 0 else None,
            lizard_piles=liz,
            boar_remaining=tuple(self._token(self.s.boar_rem[i], player)
                                 for i in range(self.s.boar_n)) if boar else (),
            boar_placed=tuple(self._token(self.s.boar_new[i], player)
                              for i in range(self.s.boar_out)) if boar else (),
        )

    def action_to_string(self, int player, int action) -> str:
        """Human-readable action (chance outcomes are kinds drawn)."""
        if player == CHANCE_PLAYER:
            if self.s.phase == PH_BOARDS and 0 <= action < 5:
                return f"board {self.s.nboards}: {BOARD_NAMES[action]}"
            return f"draw {KIND_NAMES[action]}" if 0 <= action < NK else f"chance {action}"
        if A_PILE <= action < A_TAKE:
            return f"pile h{action - A_PILE}"
        if action == A_TAKE:
            return "ant: take"
        if A_KIND <= action < A_NPLACE:
            return f"keep {KIND_NAMES[action - A_KIND]}"
        if A_NPLACE <= action < A_INDEX:
            k, h = divmod(action - A_NPLACE, 10)
            return f"place {KIND_NAMES[k]} on h{h}"
        if A_INDEX <= action < A_PAIR:
            return f"index {action - A_INDEX}"
        if A_PAIR <= action < A_NEST:
            a, b = divmod(action - A_PAIR, 10)
            return f"lizard flip h{a}+h{b}"
        if A_NEST <= action < A_BEETLE:
            t, c = divmod(action - A_NEST, 12)
            what = KIND_NAMES[c] if c < NK else f"hidden#{c - NK}"
            return f"nest p{t}: {what}"
        if A_BEETLE <= action < A_SNAKE_UP:
            a, b = divmod(action - A_BEETLE, 5)
            return f"poo p{a}->p{b}"
        if A_SNAKE_UP <= action < A_SNAKE_DOWN:
            return f"snake: throw {KIND_NAMES[action - A_SNAKE_UP]}"
        if A_SNAKE_DOWN <= action < NUM_ACTIONS:
            return f"snake: throw hidden#{action - A_SNAKE_DOWN}"
        return f"action {action}"

    def _event_text(self, int i, int player):
        cdef Ev e = self.log[i]
        see = player < 0 or (e.seers & PUB) or (e.seers & (1 << player))
        if not e.pub and not see:
            return None
        who = f"p{e.actor}"
        tok = ""
        if e.obj >= 0:
            o = e.obj
            own = f"p{o // NK}" if o // NK < self.N else f"z{o // NK - self.N}"
            tok = f"{own}#{o % NK}" + (f":{KIND_NAMES[self.s.kind[o]]}" if see else "")
        t = e.typ
        if t == E_DEAL:
            return f"deal {tok} to h{e.a}"
        if t == E_DEAL_REMOVED:
            return f"deal {tok} removed unseen"
        if t == E_ADRAW:
            return f"{who} takes {tok}"
        if t == E_PLACE:
            return f"{who} hides {tok} on h{e.a}"
        if t == E_KEEP:
            return f"{who} keeps {tok}"
        if t == E_DRAW:
            return f"{who} draws {tok} from h{e.a} (depth {e.b})"
        if t == E_FLIP:
            return f"{who} flips h{e.a}"
        if t == E_EXPOSE:
            return f"top of h{e.a} shows {tok}"
        if t == E_LOOK:
            return f"{who} looks through h{e.a}"
        if t == E_SEE:
            return f"{who} sees h{e.a}[{e.b}] = {tok}"
        if t == E_EAGLE:
            return f"{who} eagle-draws {tok} from h{e.a}"
        if t == E_ANT_NEST:
            return f"{who} ant nest h{e.a}"
        if t == E_PEEK:
            return f"{who} peeks {tok} on h{e.a}"
        if t == E_ANT_MOVE:
            return f"{who} moves {tok} h{e.a}->h{e.b}"
        if t == E_SPLIT:
            return f"{who} splits {e.c} from h{e.a} to h{e.b}"
        if t == E_LIZ_FLIP:
            return f"{who} lizard flips h{e.a}, h{e.b}"
        if t == E_BOAR_PICK:
            return f"{who} boar puts {tok} at {e.b}"
        if t == E_BOAR_DONE:
            return f"{who} boar flips h{e.a}"
        if t == E_FOX:
            return f"{who} fox takes {tok} from p{e.a}"
        if t == E_OWL:
            return f"{who} owl removes {tok} from p{e.a}"
        if t == E_BEETLE:
            return f"{who} moves poo {tok} p{e.a}->p{e.b}"
        if t == E_SNAKE:
            return f"{who} throws {tok}"
        if t == E_ELIM:
            return f"{who} leaves the woods"
        if t == E_REVEAL:
            return f"reveal {tok}"
        if t == E_ANIMAL:
            return f"{who} wakes {ANIMAL_NAMES[e.a]} (board {e.b})"
        if t == E_END:
            return "end"
        if t == E_BOARD:
            return f"board {e.a} is the {BOARD_NAMES[e.b]} board"
        if t == E_LIZ_DEST:
            return f"{who} lizard splits h{e.a} onto h{e.b}"
        return f"event {t}"

    def info_string(self, int player) -> str:
        """Perfect recall: everything `player` observed, in order."""
        self._check_player(player)
        cdef int own = self.s.hand[player]
        hand = (",".join(KIND_NAMES[k] for k in range(NK) if own & (1 << k)) if self.night
                else str(popc(own)))
        lines = [f"p{player} hand={hand}"]
        for i in range(self.s.nlog):
            txt = self._event_text(i, player)
            if txt is not None:
                lines.append(txt)
        return "\n".join(lines)

    def _hand_str(self, view) -> str:
        if self.night:
            return ",".join(view.hand)
        return str(len(view.hand))

    @staticmethod
    def _tok_text(t, int nplayers) -> str:
        who = f"p{t.owner}" if t.owner < nplayers else f"z{t.owner - nplayers}"
        return f"{who}#{t.ordinal}:{t.kind if t.kind is not None else '?'}"

    def _view_text(self, view) -> str:
        rows = []
        for h, pile in enumerate(view.piles):
            animal = view.board_animals[h // self.hp] or "?"
            rows.append(f"h{h}({animal}): " + " ".join(
                self._tok_text(t, self.N) + ("^" if t.face_up else "") for t in pile))
        for q, nest in enumerate(view.nests):
            out = "" if view.active[q] else " [out]"
            rows.append(f"nest p{q}{out}: " + " ".join(
                self._tok_text(t, self.N) + ("" if t.face_up else "(down)") for t in nest))
        return "\n".join(rows)

    def obs_string(self, int player) -> str:
        """Current view of `player`: piles, nests, own hand, phase."""
        self._check_player(player)
        view = self._make_view(player)
        holding = f" holding={self._tok_text(view.holding, self.N)}" if view.holding else ""
        return (f"p{player} phase={view.phase} cur=p{view.turn} "
                f"hand={self._hand_str(view)}{holding}\n" + self._view_text(view))

    def render(self) -> str:
        """The whole board, all faces shown."""
        return (f"phase={PHASE_NAMES[self.s.phase]} cur={self.current_player()}\n"
                + self._view_text(self._make_view(-1)))

    def _tensor_size(self) -> int:
        per = 1 + self.H + self.N + 1 + 1 + 1 + NK + 1 + 1
        return self.B * NK * per + NPHASES + (self.N + 1) + self.N + NK + self.N + self.H + 2

    def info_tensor_size(self) -> int:
        """The observation tensor, then one slot per history step (see docs)."""
        return self._tensor_size() + self.max_len * (CODE_HI + CODE_LO)

    def obs_tensor_size(self) -> int:
        return self._tensor_size()

    def _fill(self, int player, float[:] out) -> None:
        cdef int o, i, k, idx = 0, per, h, q
        cdef uint8_t bit = <uint8_t>(1 << player)
        self._check_player(player)
        per = 1 + self.H + self.N + 1 + 1 + 1 + NK + 1 + 1
        for q in range(self.B):
            for i in range(NK):
                o = q * NK + i
                if self.s.kind[o] >= 0 and self.s.loc[o] != LOC_HAND:
                    if self.s.loc[o] < self.H:
                        out[idx + 1 + self.s.loc[o]] = 1.0
                        for k in range(self.s.psize[self.s.loc[o]]):
                            if self.s.pile[self.s.loc[o]][k] == o:
                                out[idx + per - 3] = (k + 1) / <float>MAXT
                    elif self.s.loc[o] == LOC_REMOVED:
                        out[idx + 1 + self.H + self.N] = 1.0
                    else:
                        out[idx + 1 + self.H + self.s.loc[o] - LOC_NEST] = 1.0
                    out[idx + 2 + self.H + self.N] = self.s.up[o]
                    if self.s.known[o] & (PUB | bit):
                        out[idx + 3 + self.H + self.N + self.s.kind[o]] = 1.0
                        out[idx + per - 2] = 1.0
                    for k in range(self.s.boar_n):
                        if self.s.boar_rem[k] == o and self.s.phase == PH_BOAR_PICK:
                            out[idx + per - 1] = 1.0
                elif self.s.kind[o] >= 0:
                    out[idx] = 1.0
                idx += per
        out[idx + self.s.phase] = 1.0
        idx += NPHASES
        k = self.current_player()
        out[idx + (k if k >= 0 else self.N)] = 1.0
        idx += self.N + 1
        out[idx + player] = 1.0
        idx += self.N
        for k in range(NK):
            if self.s.hand[player] & (1 << k):
                out[idx + k] = 1.0
        idx += NK
        for k in range(self.N):
            out[idx + k] = self.s.active[k]
        idx += self.N
        if self.s.ppile >= 0:
            out[idx + self.s.ppile] = 1.0
        idx += self.H
        out[idx] = self.s.liz_a + 1
        out[idx + 1] = self.s.liz_b + 1

    def step_code(self, int step, int player) -> int:
        """History step `step` as `player` saw it, a code in [0, 342): a player
        action's id (318 actions), except another player's night keep (331) or
        night hide on h (332 + h), whose kind is hidden; chance: the board
        drawn (318 + board), the player's own autumn draw (323 + kind), any
        other draw (330, unseen)."""
        cdef int tag = self.s.step_tag[step], a = self.hist[step]
        if tag == TAG_BOARD:
            return C_BOARD + a
        if tag == TAG_DEAL:
            return C_HIDDEN
        if tag >= TAG_ADRAW:
            return C_SEEN_KIND + a if tag - TAG_ADRAW == player else C_HIDDEN
        if tag != player and A_KIND <= a < A_NPLACE:
            return C_KEEP
        if tag != player and A_NPLACE <= a < A_INDEX:
            return C_NPLACE + (a - A_NPLACE) % 10
        return a

    def fill_info_tensor(self, int player, out) -> None:
        """Information-state tensor of `player` into float32 `out`: the
        observation tensor, then per history step the one-hot pair
        (code // 32, code % 32) of ``step_code`` (perfect recall)."""
        cdef int base = self._tensor_size(), t, c, width = CODE_HI + CODE_LO
        self._fill(player, out)
        for t in range(min(<int>self.hist.size(), self.max_len)):
            c = self.step_code(t, player)
            out[base + t * width + c // CODE_LO] = 1.0
            out[base + t * width + CODE_HI + c % CODE_LO] = 1.0

    def fill_obs_tensor(self, int player, out) -> None:
        """Observation tensor of `player` into float32 `out`."""
        self._fill(player, out)

    def dump(self) -> bytes:
        """Snapshot: magic, version (1 byte), game string (2-byte length), the
        number of actions (4 bytes) and the action history (2 bytes each)."""
        game = self.game_string.encode()
        hist = b"".join(int(a).to_bytes(2, "little") for a in self.hist)
        return (SNAP_MAGIC + bytes([SNAP_VERSION]) + len(game).to_bytes(2, "little")
                + game + len(self.hist).to_bytes(4, "little") + hist)

    def load(self, data) -> None:
        """Restore a ``dump()`` by replaying its history, each action checked;
        refuses malformed data or another game's (ValueError, state untouched)."""
        if not isinstance(data, (bytes, bytearray)):
            raise ValueError(f"snapshot must be bytes, got {type(data).__name__}")
        data = bytes(data)
        if len(data) < 7 or data[:4] != SNAP_MAGIC:
            raise ValueError("not an Ardillas del Bosque snapshot (bad magic or too short)")
        if data[4] != SNAP_VERSION:
            raise ValueError(f"unsupported snapshot version {data[4]}; this is {SNAP_VERSION}")
        glen = int.from_bytes(data[5:7], "little")
        game = data[7:7 + glen]
        if len(game) != glen or game != self.game_string.encode():
            raise ValueError(f"snapshot was made for {game.decode(errors='replace')!r}, "
                             f"not {self.game_string!r}")
        if len(data) < 11 + glen:
            raise ValueError("Ardillas del Bosque snapshot is truncated (no action count)")
        count = int.from_bytes(data[7 + glen:11 + glen], "little")
        if count > self.max_len:
            raise ValueError(f"snapshot history has {count} actions, "
                             f"more than the game's bound {self.max_len}")
        body = data[11 + glen:]
        if len(body) != 2 * count:
            raise ValueError(f"snapshot history has {len(body)} bytes; {count} actions "
                             f"need {2 * count}")
        actions = [int.from_bytes(body[i:i + 2], "little") for i in range(0, len(body), 2)]
        old = [a for a in self.hist]
        self.to_initial()
        try:
            for a in actions:
                self.py_apply(a)
        except ValueError as exc:
            self.to_initial()
            for a in old:
                self.apply(a)
            raise ValueError(f"invalid Ardillas del Bosque snapshot: {exc}") from None

    def final_groups(self) -> list:
        """Per player: (nut groups largest first after poos, nuts left, last
        turn played) -- what the end-of-game ranking compares."""
        cdef int cnt[5]
        out = []
        for p in range(self.N):
            tot = self.group_counts(p, cnt)
            out.append(([cnt[k] for k in range(5)], tot, self.s.last_turn[p]))
        return out

    def check_invariants(self) -> None:
        """Raise ValueError naming the broken law (token conservation etc.)."""
        cdef int w, j, o, h, i, p, k, seen
        if not (0 <= self.s.phase < NPHASES):
            raise ValueError(f"phase out of range: {self.s.phase}")
        if not (0 <= self.s.cur < self.N):
            raise ValueError(f"current player out of range: {self.s.cur}")
        if not (-1 <= self.s.ppile < self.H and -1 <= self.s.liz_a < self.H and -1 <= self.s.liz_b < self.H):
            raise ValueError("pending hiding place out of range")
        if not (-1 <= self.s.pend < MAXT):
            raise ValueError("pending token out of range")
        if not (0 <= self.s.boar_n <= MAXT and 0 <= self.s.boar_out <= MAXT):
            raise ValueError("Wild Boar ordering out of range")
        if not (self.s.deal_owner <= self.B):
            raise ValueError("dealing past the last board")
        if self.s.phase in (PH_LYNX_PICK, PH_ANT_DEC, PH_LIZ_SIZE, PH_BOAR_PICK):
            if not (self.s.ppile >= 0):
                raise ValueError("animal action without its pile")
        if self.s.phase == PH_LIZ_TAKE:
            if not (self.s.liz_a >= 0):
                raise ValueError("Lizard take without flipped piles")
        count = {}
        for h in range(MAXH):
            if not (0 <= self.s.psize[h] <= MAXT):
                raise ValueError("pile size out of range")
            if not (h < self.H or self.s.psize[h] == 0):
                raise ValueError("token on a missing hiding place")
            for i in range(self.s.psize[h]):
                o = self.s.pile[h][i]
                if not (0 <= o < MAXT and self.s.loc[o] == h):
                    raise ValueError(f"pile h{h} / location mismatch")
                count[o] = count.get(o, 0) + 1
        for p in range(MAXB):
            if not (0 <= self.s.nsize[p] <= MAXT):
                raise ValueError("nest size out of range")
            if not (p < self.N or self.s.nsize[p] == 0):
                raise ValueError("nest of a non-player")
            for i in range(self.s.nsize[p]):
                o = self.s.nest[p][i]
                if not (0 <= o < MAXT and self.s.loc[o] == LOC_NEST + p):
                    raise ValueError(f"nest p{p} / location mismatch")
                count[o] = count.get(o, 0) + 1
        if not (all(v == 1 for v in count.values())):
            raise ValueError("token conservation: a token is in two places")
        nact = 0
        for w in range(MAXB):
            if w < self.N:
                nact += self.s.active[w]
            if not (0 <= self.s.nalloc[w] <= (self.tpp if w < self.B else 0)):
                raise ValueError("token conservation: allocated tokens exceed the owner's set")
            kinds = 0
            for j in range(NK):
                o = w * NK + j
                if j < self.s.nalloc[w]:
                    k = self.s.kind[o]
                    if not (0 <= k < NK and self.kindset & (1 << k)):
                        raise ValueError(f"token kind out of range: {k}")
                    if not (not kinds & (1 << k)):
                        raise ValueError(f"token conservation: owner {w} has kind {k} twice")
                    kinds |= 1 << k
                    if self.s.loc[o] == LOC_HAND:
                        if not (o == self.s.pend):
                            raise ValueError("token conservation: an allocated token is nowhere")
                    elif self.s.loc[o] != LOC_REMOVED:
                        if not (count.get(o, 0) == 1):
                            raise ValueError("token conservation: location not in a pile/nest")
                else:
                    if not (self.s.kind[o] == -1 and self.s.loc[o] == LOC_HAND):
                        raise ValueError("unallocated token has a kind or a place")
            if not ((kinds | self.s.hand[w]) == (self.kindset if w < self.B else 0) and not (kinds & self.s.hand[w])):
                raise ValueError(f"token conservation: owner {w}'s tokens don't add up")
        if not (nact == self.s.nactive):
            raise ValueError("active player count mismatch")
        if not (0 <= self.s.nlog <= MAXLOG):
            raise ValueError("event log size out of range")
        if not (0 <= self.s.nboards <= self.B):
            raise ValueError("boards drawn out of range")
        used = 0
        for w in range(self.B):
            k = self.s.animal_of[w]
            if (w < self.s.nboards or not self.random_boards) != (0 <= k < 5):
                raise ValueError(f"board {w} shows no board pair, or one before it was drawn")
            if k >= 0:
                if used & (1 << k):
                    raise ValueError(f"board pair {k} is in play twice")
                used |= 1 << k
        if self.hist.size() > self.max_len:
            raise ValueError(f"history longer than the game's bound {self.max_len}")
