# cython: language_level=3
"""Kuhn and Leduc poker rules kernel declarations: the parameters class, the
state structs and ``KuhnRules`` / ``LeducRules``, so the engines' other modules
(``resample``, ``render``, ``persist``, ``engine``) read the state at C speed.
The rules live in ``rules.pyx``; the constants in ``catalog.pxd``; the action
layout in ``actions.pxd``.  Neither game keeps an event log: every event goes
straight into the information keys."""
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, ENGINE_MAX_PLAYERS, Rng
from src_cy.poker.catalog cimport KUHN_MAX_HIST, LEDUC_MAX_HIST, LEDUC_MAX_SEQ, LEDUC_MAX_CARDS


cdef class PokerParams:
    cdef readonly int players


cdef struct KuhnData:
    int n
    int hlen
    int first_bettor
    int winner
    int pot
    int hist[KUHN_MAX_HIST]
    int card_owner[ENGINE_MAX_PLAYERS + 1]   # card -> player, or -1
    int ante[ENGINE_MAX_PLAYERS]


cdef class KuhnRules(Engine):
    cdef KuhnData d
    cdef readonly PokerParams params

    cdef void clone_into(self, KuhnRules e) noexcept
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef bint _did_bet(self, int p) noexcept nogil


cdef struct LeducData:
    int n
    int cur
    int num_calls
    int num_raises
    int round
    int stakes
    int pot
    int public_card
    int deck_size
    int total_cards
    int dealt
    int remaining
    bint terminal
    int hlen
    int r1len
    int r2len
    int priv[ENGINE_MAX_PLAYERS]
    int ante[ENGINE_MAX_PLAYERS]
    bint folded[ENGINE_MAX_PLAYERS]
    double money[ENGINE_MAX_PLAYERS]
    int deck[LEDUC_MAX_CARDS]
    int r1[LEDUC_MAX_SEQ]
    int r2[LEDUC_MAX_SEQ]
    int hist[LEDUC_MAX_HIST]


cdef class LeducRules(Engine):
    cdef LeducData d
    cdef readonly PokerParams params

    cdef void clone_into(self, LeducRules e) noexcept
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef int _next_player(self) noexcept nogil
    cdef bint _ready_for_next_round(self) noexcept nogil
    cdef bint _check_terminal(self) noexcept nogil
    cdef int _rank(self, int p) noexcept nogil
    cdef int _resolve_winner(self) noexcept nogil
    cdef void _ante(self, int p, int amount) noexcept nogil
    cdef void _append_move(self, int move) noexcept nogil
    cdef void _after_bet(self) noexcept nogil
