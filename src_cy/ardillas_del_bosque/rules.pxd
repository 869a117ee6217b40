# cython: language_level=3
"""Ardillas del Bosque rules kernel declarations: the state struct, the
parameters class and ``ArdillasRules``, so the game's other modules
(``resample``, ``render``, ``persist``, ``engine``) read the state at C speed.
The rules live in ``rules.pyx``; the constants in ``catalog.pxd``; the action
layout in ``actions.pxd``; the event record is ``src_cy/events.pxd``'s
``Event``."""
from libc.stdint cimport uint8_t, int8_t, int16_t

from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng
from src_cy.events cimport Event
from src_cy.ardillas_del_bosque.actions cimport MAXB, MAXH, NK
from src_cy.ardillas_del_bosque.catalog cimport MAXT, MAXLOG, MAXSTEP


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
    """Sort the 5 ints of `v`, largest first."""
    cdef int i, j, t
    for i in range(1, 5):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] < t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t


cdef inline int popc(unsigned int x) noexcept nogil:
    """Number of set bits of `x`."""
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef class ArdillasParams:
    cdef readonly int players, sleepyheads, boards_count, hiding_places, hiding_total
    cdef readonly int night, king, little, nuts, max_len, tokens, random_boards
    cdef readonly tuple boards
    cdef uint8_t kindset
    cdef int8_t fixed[MAXB]


cdef class ArdillasRules(Engine):
    cdef AState s
    # The event log, ``s.nlog`` of ``MAXLOG`` records used: ``kind`` an
    # ``E_*`` of ``catalog.pxd``; ``secret`` the token whose kind ``seers``
    # learn (``-1``: none); ``a``, ``b``, ``c`` as each kind's ``log_ev`` call
    # gives them.  Allocated apart from the object (not zeroed), so a clone
    # costs a copy of the used records only.
    cdef Event* log
    cdef readonly ArdillasParams params
    # copies of the parameters the rules read (from ``params``)
    cdef int N, S, B, hp, H, night, king, little, nuts, max_len, tpp
    cdef uint8_t kindset
    cdef int8_t* fixed
    cdef int random_boards

    cdef void set_params(self, ArdillasParams prm) noexcept
    cdef void clone_into(self, ArdillasRules e) noexcept
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef void after_boards(self) noexcept nogil
    cdef void log_ev(self, int typ, int actor, int a, int b, int obj, int seers, int pub,
                     int c=*) noexcept nogil
    cdef int alloc(self, int owner, int k) noexcept nogil
    cdef void push_pile(self, int h, int o, int up) noexcept nogil
    cdef void push_nest(self, int p, int o, int up) noexcept nogil
    cdef int pop_pile_at(self, int h, int i) noexcept nogil
    cdef int pop_nest_at(self, int p, int i) noexcept nogil
    cdef void expose(self, int h) noexcept nogil
    cdef int woods_count(self) noexcept nogil
    cdef int next_active(self, int p) noexcept nogil
    cdef void start_autumn(self) noexcept nogil
    cdef void end_game(self) noexcept nogil
    cdef void end_turn(self) noexcept nogil
    cdef int count_nonempty(self, int* which) noexcept nogil
    cdef int has_nut(self, int p) noexcept nogil
    cdef int other_nest_tokens(self) noexcept nogil
    cdef int any_up_poo(self) noexcept nogil
    cdef void eliminate(self, int p) noexcept nogil
    cdef void start_animal(self, int animal, int board) noexcept nogil
    cdef void flip_top(self, int h) noexcept nogil
    cdef void after_draw(self, int o, int h) noexcept nogil
    cdef void draw_public(self, int h, int i) noexcept nogil
    cdef int nest_choice(self, int t, int c) noexcept nogil
    cdef void ant_peek(self) noexcept nogil
    cdef void lizard_flip(self, int a, int b) noexcept nogil
    cdef void boar_pick(self, int i) noexcept nogil
    cdef int group_counts(self, int p, int* cnt) noexcept nogil

    cdef inline int board_animal(self, int board) noexcept nogil:
        """The animal (0..9) board `board` wakes: the King's, or its board
        pair's by day (0..4) or by night (5..9)."""
        if self.king >= 0:
            return self.king
        return self.s.animal_of[board] + (5 if self.night else 0)
