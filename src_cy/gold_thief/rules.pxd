# cython: language_level=3
"""Gold Thief rules kernel declarations: the state struct, the parameters and
``GoldThiefRules``, so the other modules of this game (``resample``,
``render``, ``persist``, ``engine``, ``rollout``) read and drive the state at
C speed.  The rules live in ``rules.pyx``; the constants in ``catalog.pxi``
(included here, so cimporting this file gives them); the action ids in
``actions.pxd`` (re-exported here).

The kernel's own methods are ``final`` (direct calls inside ``rules.pyx``);
the engine interface's are virtual (Cython allows no ``final`` override),
so the hot ones have inline twins below (``to_move``, ``game_over``,
``step``, ``legal``) that ``rules.pyx`` and ``resample.pyx`` call directly.
``engine.GoldThiefEngine`` overrides ``resample_history`` and ``resample``.
"""
cimport cython
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector

from src_cy.engine cimport (Engine, Rng, CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS, popcount32)
from src_cy.events cimport Event, EVENT_NONE, SEERS_ALL
from src_cy.gold_thief.actions cimport (
    MAXP, NT, MAX_GOALS, THIEF, GUARD, WITCH, FAERIE, NINJA,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_BIG_FLIP, A_GIVE,
    NUM_ACTIONS, C_CARD, C_GOAL, C_FIRST, NUM_CHANCE)

include "catalog.pxi"


cdef enum:
    # Safety net on game length, counted in public events (so its timing is
    # public): a game ends as a draw after PUB_EVENTS_PER_TURN * max_turns +
    # PUB_EVENTS_BASE public events (random play never comes near it).
    PUB_EVENTS_PER_TURN = 24
    PUB_EVENTS_BASE = 64
    # Public events one step may add after the cap check (a cascade of
    # resolutions, at most one per card); bounds the information-state tensor.
    PUB_EVENTS_SLACK = 160
    # Safety net on game length in moves (chance included): a game ends as a
    # draw after the set-up moves plus MOVES_PER_TURN * max_turns moves, so
    # that is max_game_length, a true bound by construction (a turn itself is
    # unbounded: Ninjas draw, discards are reshuffled). Random play never
    # comes near it (docs/rules/gold_thief.md, assumption 12).
    MOVES_PER_TURN = 30


cdef struct Effect:
    int kind
    int player            # who played it
    int victim
    int beneficiary
    int amount
    int target            # stack index this effect cancels or follows
    int scan              # next seat offset to offer the window to
    int canceled
    int uid               # unique id (deferred add-ons name their parent by it)
    int parent            # uid of the theft an add-on follows (deferred list)


cdef struct Consid:
    # A seat a window reached during a recorded silent replay (the
    # resampler's ``build_world``): whether it was asked and passed depends
    # on its hidden hand, so the proposal's weight has a factor 1 / (1 + its
    # answers) there.
    int k                 # events of the player's view matched by then
    int q
    int mask              # response window: bit t set if holding a t is an answer
    int gold              # Ninja window: q's gold (-1 for a response window)
    int pub               # 1 if q answered with a public play


cdef struct GTState:
    # ``restart`` zeroes this struct in two blocks (the start up to
    # ``hand_type``, and ``hcnt`` up to ``stack``) and sets ``ndfr`` and
    # ``next_uid``; the hand slots, ``stack`` and ``dfr`` are written before
    # they are read. A new field goes before ``sp`` or is reset there too.
    int n
    int phase
    int active            # whose turn it is
    int first
    int turn              # turns started so far
    int moves             # actions applied so far
    int npub              # public events so far
    int winner            # -1 none / draw
    int gold[MAXP]
    # the goals by location, as bit sets of goal ids (``set_goal`` keeps
    # them equal to goal_loc / goal_owner): in the random pile, and face
    # down in front of each player
    int pile_m
    int down_m[MAXP]
    # action cards
    int deck[NT]
    int disc[NT]
    int gen               # deck generation (bumped at every reshuffle)
    int hand_n[MAXP]
    int hand_type[MAXP][MAX_HAND]
    int hand_gen[MAXP][MAX_HAND]
    int hcnt[MAXP][NT]    # cards of each type in each hand (from hand_type)
    # goals
    int goal_loc[MAX_GOALS]
    int goal_owner[MAX_GOALS]
    int bottom[MAX_GOALS]
    int bottom_n
    # flow
    int setup_k           # counter for set-up deals
    int draw_target
    int draws_pending
    int goal_target       # seat being dealt in a goal round
    int goal_round_left   # seats left in the current goal round
    int window_seat       # seat offset scanned in the Ninja window
    int decider           # player deciding in NINJA/RESPOND/GIVE
    int sp
    Effect stack[MAX_STACK]
    # Add-on answers (raid, Witch as extra Thief) whose window is over: each
    # resolves right after the theft it follows (issue 11, rules doc).
    int ndfr
    Effect dfr[MAX_STACK]
    int next_uid


cdef class GoldThiefParams:
    cdef readonly int players, hand_size, start_gold, goals_to_win, big_pile, max_turns
    cdef readonly int num_goals, first_player, max_moves, pub_cap, raid_raids
    cdef int counts[NT]
    cdef int goal_a[MAX_GOALS]
    cdef int goal_b[MAX_GOALS]


cdef class GoldThiefRules(Engine):
    cdef GTState s
    # the event log (``src_cy/events.pxd``: secret = the hidden detail, a =
    # the public detail, seers = who sees the secret; pub = 0 for a window
    # offered or passed, which only the actor sees)
    cdef vector[Event] log
    # per applied action: (public events so far << 4) | (player to move + 1)
    cdef vector[int] hmeta
    # Silent replay (the resampler's ``build_world``): while sil_p >= 0 no
    # event is logged or hashed and ``hmeta`` is not kept; each event is
    # compared with sil_p's wanted view instead (sil_k: events matched,
    # sil_bad: a difference seen, sil_gives: Witch gives so far).
    cdef int sil_p, sil_k, sil_gives
    cdef bint sil_bad
    # sil_loud: the events are also logged and hashed (a normal replay that
    # checks the view as it goes)
    cdef bint sil_loud
    # sil_rec: record in `rec` every seat a window reaches (``record_seat``)
    cdef bint sil_rec
    cdef vector[Consid] rec
    cdef vector[Event]* sil_want
    cdef readonly GoldThiefParams params
    # copies of the parameters the rules read (from ``params``)
    cdef readonly int hand_size, start_gold, goals_to_win, big_pile, max_turns
    cdef readonly int num_goals, first_fixed, max_moves, pub_cap, raid_raids
    cdef int* counts
    cdef int* goal_a
    cdef int* goal_b

    @cython.final
    cdef void set_params(self, GoldThiefParams prm) noexcept
    # events
    @cython.final
    cdef void event(self, int kind, int actor, int secret, int detail, int vis) noexcept nogil
    @cython.final
    cdef void event_full(self, int kind, int actor, int secret, int detail,
                         int vis) noexcept nogil
    # helpers
    @cython.final
    cdef inline int remove_card(self, int p, int t) noexcept nogil
    @cython.final
    cdef int down_count(self, int p) noexcept nogil
    @cython.final
    cdef int down_owners(self) noexcept nogil
    @cython.final
    cdef int up_count(self, int p) noexcept nogil
    @cython.final
    cdef int disc_total(self) noexcept nogil
    @cython.final
    cdef inline void flip(self, int p, int g) noexcept nogil
    @cython.final
    cdef inline void end_game_draw(self) noexcept nogil
    @cython.final
    cdef inline bint ensure_deck(self) noexcept nogil
    @cython.final
    cdef bint goal_draw_possible(self) noexcept nogil
    @cython.final
    cdef inline void give_goal(self, int p, int g) noexcept nogil
    @cython.final
    cdef inline void set_goal(self, int g, int loc, int owner) noexcept nogil
    # windows
    @cython.final
    cdef inline bint can_respond(self, int q, Effect* e) noexcept nogil
    @cython.final
    cdef inline bint can_raid(self, int q, Effect* e) noexcept nogil
    @cython.final
    cdef inline void push(self, int kind, int player, int victim, int beneficiary,
                   int amount, int target) noexcept nogil
    @cython.final
    cdef inline void transfer(self, int src, int dst, int amount) noexcept nogil
    @cython.final
    cdef inline bint resolve_top(self) noexcept nogil
    @cython.final
    cdef void flush(self, int uid) noexcept nogil
    @cython.final
    cdef inline void do_give(self, int v, int thief, int t) noexcept nogil
    # flow
    @cython.final
    cdef inline void advance(self) noexcept nogil
    @cython.final
    cdef void record_seat(self, int q, Effect* e) noexcept nogil
    @cython.final
    cdef inline void next_goal_target(self) noexcept nogil
    @cython.final
    cdef inline bint ninja_goal_exists(self, int q) noexcept nogil
    @cython.final
    cdef inline void start_turn(self, int p) noexcept nogil
    @cython.final
    cdef inline void score_turn_start(self) noexcept nogil
    @cython.final
    cdef inline void begin_draw(self) noexcept nogil
    @cython.final
    cdef inline void chance_card(self, int p, int t) noexcept nogil
    @cython.final
    cdef inline void chance_goal(self, int p, int g, int kind) noexcept nogil
    @cython.final
    cdef inline void apply_play(self, int action) noexcept nogil
    @cython.final
    cdef inline void play_card(self, int p, int t, int action) noexcept nogil
    @cython.final
    cdef inline void apply_response(self, int action) noexcept nogil
    # the engine interface
    cdef int current_player(self) noexcept nogil
    cdef bint is_terminal(self) noexcept nogil
    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil
    cdef int legal_actions(self, int* out) noexcept nogil
    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil
    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil
    cdef void do_apply(self, int action) noexcept nogil
    cdef void returns(self, double* out) noexcept nogil
    cdef void restart(self) noexcept nogil
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef Engine clone(self)
    cdef void copy_from(self, Engine other) noexcept
    cdef void replay(self, const int* actions, int n) noexcept nogil
    @cython.final
    cdef int chance_target(self) noexcept nogil


# The kernel's small queries and replay steps as inline functions (the
# resampler and the rules inline them; ``current_player`` and ``is_terminal``
# call them too).

cdef inline int to_move(GoldThiefRules r) noexcept nogil:
    """``current_player``: the seat to move, CHANCE_PLAYER or TERMINAL_PLAYER."""
    cdef int ph = r.s.phase
    if ph == PH_OVER:
        return TERMINAL_PLAYER
    if ph == PH_FIRST or ph == PH_SETUP_GOALS or ph == PH_SETUP_CARDS \
            or ph == PH_DRAW or ph == PH_DEAL_GOAL or ph == PH_FAERIE_DRAW:
        return CHANCE_PLAYER
    if ph == PH_PLAY or ph == PH_BIG_FLIP:
        return r.s.active
    return r.s.decider


cdef inline bint game_over(GoldThiefRules r) noexcept nogil:
    """``is_terminal``."""
    return r.s.phase == PH_OVER


cdef inline void step(GoldThiefRules r, int action) noexcept nogil:
    """The base class's ``apply`` (record, then the rules), inlined."""
    r.hist.push_back(action)
    r.do_apply(action)


cdef inline bint legal(GoldThiefRules r, int action) noexcept nogil:
    """The base class's ``is_legal``, inlined."""
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int i, n = 0
    if r.s.phase != PH_OVER:
        n = r.chance_outcomes(outs, probs) if to_move(r) == CHANCE_PLAYER \
            else r.legal_actions(outs)
    for i in range(n):
        if outs[i] == action:
            return True
    return False


cdef inline int holds(GoldThiefRules r, int p, int t) noexcept nogil:
    """Cards of type t in p's hand."""
    return r.s.hcnt[p][t]


cdef inline bint goal_matches(GoldThiefRules r, int g, int gold) noexcept nogil:
    """Whether goal g scores with `gold`."""
    return r.goal_a[g] == gold or r.goal_b[g] == gold


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


cdef inline int pile_random(GoldThiefRules r) noexcept nogil:
    """Goals in the random part of the pile."""
    return popcount32(<unsigned int>r.s.pile_m)


cdef inline int deck_total(GoldThiefRules r) noexcept nogil:
    """Action cards in the deck."""
    cdef int t, c = 0
    for t in range(NT):
        c += r.s.deck[t]
    return c


cdef inline bint sees_secret(const Event* ev, int p) noexcept nogil:
    """Whether `p` sees the secret of event `ev`."""
    return (ev.seers >> p) & 1


cdef inline bint observed(const Event* ev, int p) noexcept nogil:
    """Whether `p` observed event `ev` at all (a window offered or passed:
    only its actor)."""
    return ev.pub or ev.actor == p


cdef inline int card_of_action(int b) noexcept nogil:
    """Card type played by player action `b`."""
    if (A_THIEF <= b < A_THIEF + MAXP) or b == A_THIEF_RAID:
        return THIEF
    if (A_GUARD <= b < A_GUARD + MAXP) or b == A_GUARD_CANCEL:
        return GUARD
    if (A_WITCH <= b < A_WITCH + MAXP) or b == A_WITCH_EXTRA:
        return WITCH
    if (A_FAERIE <= b < A_FAERIE + MAX_GOALS) or b == A_FAERIE_CANCEL:
        return FAERIE
    return NINJA
