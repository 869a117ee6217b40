# cython: language_level=3
"""Gold Thief rules engine (see docs/rules/gold_thief.md).

The whole state is one C struct ``GTState`` (clone = struct copy) plus an
event log (a C++ vector) from which information-state strings are rendered.
Action cards are drawn lazily from a multiset (the deck has no hidden order).
Every applied action is recorded (``hist``, plus ``hmeta``: public events so
far and the player to move), so a state is its history; ``resample_history``
draws a history from one player's information set using only that player's
view of the event log (see the rules doc, "Resampling").

This file holds the parameters, the engine class, the rules kernel and the
resampler; the included files hold the constant tables
(``gold_thief_catalog.pxi``), the rendering (``gold_thief_render.pxi``) and
the snapshot (``gold_thief_persist.pxi``); the action ids are defined once in
``gold_thief_actions.pxd``.
"""
cimport cython
from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memcpy, memset
from libc.math cimport log, exp, INFINITY, fabs
from libcpp.vector cimport vector

from src_cy.engine cimport (Engine, Rng, rng_int, rng_double, mix64,
                            CHANCE_PLAYER, TERMINAL_PLAYER, MAX_BRANCHING,
                            ENGINE_MAX_PLAYERS)

import numpy as np

from src_cy.gold_thief.actions cimport (
    MAXP, NT, MAX_GOALS, THIEF, GUARD, WITCH, FAERIE, NINJA,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_BIG_FLIP, A_GIVE,
    NUM_ACTIONS, C_CARD, C_GOAL, C_FIRST, NUM_CHANCE)

# The action layout (from ``gold_thief_actions.pxd``), for the Python mirror's test.
ACTION_LAYOUT = {
    "MAX_PLAYERS": MAXP, "NUM_CARD_TYPES": NT, "MAX_GOALS": MAX_GOALS,
    "THIEF": THIEF, "GUARD": GUARD, "WITCH": WITCH, "FAERIE": FAERIE, "NINJA": NINJA,
    "A_END_TURN": A_END_TURN, "A_PASS": A_PASS, "A_THIEF": A_THIEF, "A_GUARD": A_GUARD,
    "A_WITCH": A_WITCH, "A_FAERIE": A_FAERIE, "A_NINJA": A_NINJA,
    "A_GUARD_CANCEL": A_GUARD_CANCEL, "A_THIEF_RAID": A_THIEF_RAID,
    "A_WITCH_EXTRA": A_WITCH_EXTRA, "A_FAERIE_CANCEL": A_FAERIE_CANCEL,
    "A_NINJA_SCORE": A_NINJA_SCORE, "A_BIG_FLIP": A_BIG_FLIP, "A_GIVE": A_GIVE,
    "NUM_ACTIONS": NUM_ACTIONS, "C_CARD": C_CARD, "C_GOAL": C_GOAL, "C_FIRST": C_FIRST,
    "NUM_CHANCE_OUTCOMES": NUM_CHANCE,
}

include "catalog.pxi"

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

cdef struct Event:
    int kind
    int actor
    int a                 # secret detail (card type, goal id) or -1
    int b                 # public detail (target seat, action id)
    int vis               # bitmask of players who see `a`

cdef struct Consid:
    # A seat a window reached during a recorded silent replay (``build_world``):
    # whether it was asked and passed depends on its hidden hand, so the
    # proposal's weight has a factor 1 / (1 + its answers) there.
    int k                 # events of the player's view matched by then
    int q
    int mask              # response window: bit t set if holding a t is an answer
    int gold              # Ninja window: q's gold (-1 for a response window)
    int pub               # 1 if q answered with a public play


cdef enum:
    # Where a recorded replay stopped, after the view's last event: at a node
    # no hidden card decides (chance, the player's own decision, a public
    # one, the end), at another player's Give decision, or at a window seat
    # of another player (asked because of their hidden cards).
    TAIL_FIXED = 0
    TAIL_GIVE = 1
    TAIL_WINDOW = 2


cdef struct HChange:
    # A change the model made at event e of the view: object o (a card or a
    # goal) joins (d = 1) or leaves (d = -1) seat q's hand or face-down goals.
    int e
    int q
    int o
    int d


cdef struct GTState:
    int n
    int phase
    int active            # whose turn it is
    int first
    int turn              # turns started so far
    int moves             # actions applied so far
    int npub              # public events so far
    int winner            # -1 none / draw
    int gold[MAXP]
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


cdef inline void push_change(vector[HChange]* v, int e, int q, int o, int d) noexcept nogil:
    """Append the change (e, q, o, d), built from its four fields (a struct
    variable on the stack, updated field by field and then copied, stalls
    on store forwarding)."""
    v.push_back(HChange(e, q, o, d))


cdef inline void mul_prob(double* logp, double* prod, double x) noexcept nogil:
    """Multiply the probability exp(logp) * prod by x (0 < x <= 1), keeping
    the product in `prod` until it gets small (few logarithms are taken)."""
    prod[0] *= x
    if prod[0] < 1e-250:
        logp[0] += log(prod[0])
        prod[0] = 1.0


cdef inline int popcount64(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef enum:
    # Stage 1 runs only while other players have made at most this many
    # public card plays (each one is a constraint the prior rarely meets;
    # measured acceptance in the rules doc).
    EXACT_MAX_PLAYS_C = 2

EXACT_MAX_PLAYS = EXACT_MAX_PLAYS_C

# Attempts per resample of stage 1 (exact rejection) and stage 2 (model
# proposal); see ``set_resample_attempts``.
cdef int _EXACT_ATTEMPTS = 16
cdef int _MODEL_ATTEMPTS = 500
# Accepted stage-2 proposals per resample (K of the importance resampling;
# see ``set_model_proposals``).
DEFAULT_MODEL_PROPOSALS = 8
cdef int _MODEL_PROPOSALS = DEFAULT_MODEL_PROPOSALS
# How many resamples each stage produced (this process): calls, exact
# (stage 1), model (stage 2), search (stage 3).
cdef long _STATS[4]


# Stage 2 with model weights: [resamples, fallbacks to replaying every
# proposal, weights that disagreed with a replay, in-set verdicts that did];
# ``_CHECK_WEIGHTS`` replays every proposal too and compares (tests).
cdef long _WSTATS[4]
cdef bint _CHECK_WEIGHTS = False
# ``_FORCE_REPLAYED`` skips the model weights: every stage-2 resample takes
# the fallback that replays every proposal (tests of that path).
cdef bint _FORCE_REPLAYED = False


cdef inline bint weights_agree(double a, double b) noexcept nogil:
    return fabs(a - b) <= 1e-9 * (1.0 + fabs(a))


def model_weight_stats() -> dict:
    """Stage 2's model weights (this process): ``weighed`` resamples,
    ``fallbacks`` to replaying every proposal, ``disagreements`` between a
    model weight and the replayed world's, and ``wrong_verdicts``: proposals
    the model put in the information set (or out of it) and their replay did
    not (see ``set_model_weight_check``)."""
    return {"weighed": _WSTATS[0], "fallbacks": _WSTATS[1], "disagreements": _WSTATS[2],
            "wrong_verdicts": _WSTATS[3]}


def set_model_weight_check(bint on) -> bool:
    """Replay every stage-2 proposal as well and count the model weights
    that disagree with the replay's (``model_weight_stats``); returns the
    previous setting.  For tests: it costs a replay per proposal."""
    global _CHECK_WEIGHTS
    old = _CHECK_WEIGHTS
    _CHECK_WEIGHTS = on
    return old


def set_stage2_replayed(bint on) -> bool:
    """Make every stage-2 resample take the fallback that replays every
    proposal (the path a weight disagreement falls back to) instead of the
    model weights; returns the previous setting.  For tests."""
    global _FORCE_REPLAYED
    old = _FORCE_REPLAYED
    _FORCE_REPLAYED = on
    return old


def resample_stats() -> dict:
    """How many resamples (in this process) each stage produced: ``exact``
    (stage 1, the exact rejection sampler), ``model`` (stage 2, the
    importance-corrected model proposal) and ``search`` (stage 3, the complete
    backtracking search); ``calls`` is their sum."""
    return {"calls": _STATS[0], "exact": _STATS[1], "model": _STATS[2], "search": _STATS[3]}


def set_resample_attempts(int exact, int model) -> tuple:
    """Set the attempts of stage 1 (exact rejection) and stage 2 (model
    proposal) per resample (0 skips a stage; stage 3 always completes);
    returns the previous pair.  Defaults: 16 and 500."""
    global _EXACT_ATTEMPTS, _MODEL_ATTEMPTS
    if not 0 <= exact <= 1000000 or not 0 <= model <= 1000000:
        raise ValueError(f"attempts must be in [0, 1000000], got exact={exact}, model={model}")
    old = (_EXACT_ATTEMPTS, _MODEL_ATTEMPTS)
    _EXACT_ATTEMPTS = exact
    _MODEL_ATTEMPTS = model
    return old


def set_model_proposals(int k) -> int:
    """Set K, the accepted stage-2 proposals among which one world is drawn
    by its importance weight (sampling-importance-resampling; K = 1 is the
    uncorrected proposal; the distribution tends to the target as K grows);
    returns the previous K.  Default: 8 (rules doc, "Stage 2")."""
    global _MODEL_PROPOSALS
    if not 1 <= k <= 1000000:
        raise ValueError(f"model proposals K must be in [1, 1000000], got {k}")
    old = _MODEL_PROPOSALS
    _MODEL_PROPOSALS = k
    return old


cdef inline int _card_of_action_c(int b) noexcept nogil:
    if (A_THIEF <= b < A_THIEF + MAXP) or b == A_THIEF_RAID:
        return THIEF
    if (A_GUARD <= b < A_GUARD + MAXP) or b == A_GUARD_CANCEL:
        return GUARD
    if (A_WITCH <= b < A_WITCH + MAXP) or b == A_WITCH_EXTRA:
        return WITCH
    if (A_FAERIE <= b < A_FAERIE + MAX_GOALS) or b == A_FAERIE_CANCEL:
        return FAERIE
    return NINJA


# The engine parameters, by name (the mapping ``GoldThiefParams`` takes): the
# game parameters, ``goals`` as (a, b) pairs and ``raid_raids`` 0 or 1.
PARAM_NAMES = ("players", "thieves", "guards", "witches", "faeries", "ninjas", "hand_size",
               "start_gold", "goals", "goals_to_win", "big_pile", "max_turns",
               "first_player", "raid_raids")


cdef class GoldThiefParams:
    """The parameters of one Gold Thief game, typed and immutable; built
    once per game from the mapping of ``PARAM_NAMES`` that
    ``games.gold_thief`` validates against its parameter table (the valid
    ranges live there) and shared by every engine of that game and all
    their clones.  This class checks only what its C state can hold (seats,
    goal slots, hand and gold capacities); ValueError names a missing,
    unknown or unfitting parameter."""
    cdef readonly int players, hand_size, start_gold, goals_to_win, big_pile, max_turns
    cdef readonly int num_goals, first_player, max_moves, pub_cap, raid_raids
    cdef int counts[NT]
    cdef int goal_a[MAX_GOALS]
    cdef int goal_b[MAX_GOALS]

    def __init__(self, params):
        cdef int i
        names = set(params)
        if names != set(PARAM_NAMES):
            raise ValueError(f"Gold Thief parameters: missing "
                             f"{sorted(set(PARAM_NAMES) - names)}, unknown "
                             f"{sorted(names - set(PARAM_NAMES))}")
        goals = list(params["goals"])
        counts = [int(params[k]) for k in ("thieves", "guards", "witches", "faeries", "ninjas")]
        if min(counts) < 0 or sum(counts) > MAX_HAND:
            raise ValueError(f"thieves..ninjas must be >= 0 with a total of at most "
                             f"{MAX_HAND} (a hand's capacity), got {counts}")
        self.players = int(params["players"])
        self.hand_size = int(params["hand_size"])
        self.start_gold = int(params["start_gold"])
        self.goals_to_win = int(params["goals_to_win"])
        self.big_pile = int(params["big_pile"])
        self.max_turns = int(params["max_turns"])
        self.first_player = int(params["first_player"])
        self.raid_raids = int(params["raid_raids"])
        if self.raid_raids not in (0, 1):
            raise ValueError(f"raid_raids must be 0 or 1, got {self.raid_raids}")
        if not 2 <= self.players <= MAXP:
            raise ValueError(f"players must be in [2, {MAXP}], got {self.players}")
        if not 1 <= self.hand_size <= MAX_HAND:
            raise ValueError(f"hand_size must be in [1, {MAX_HAND}], got {self.hand_size}")
        if self.start_gold < 0 or self.players * self.start_gold > MAX_GOLD:
            raise ValueError(f"start_gold must be >= 0 with players * start_gold at most "
                             f"{MAX_GOLD}, got {self.start_gold}")
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {self.max_turns}")
        if not 1 <= len(goals) <= MAX_GOALS:
            raise ValueError(f"goals must hold 1..{MAX_GOALS} cards, got {len(goals)}")
        if not -1 <= self.first_player < self.players:
            raise ValueError(f"first_player must be in [-1, {self.players - 1}], "
                             f"got {self.first_player}")
        self.num_goals = len(goals)
        for i in range(NT):
            self.counts[i] = counts[i]
        for i in range(self.num_goals):
            self.goal_a[i] = int(goals[i][0])
            self.goal_b[i] = int(goals[i][1])
        self.max_moves = (1 + self.players + self.players * self.hand_size
                          + self.max_turns * MOVES_PER_TURN)
        self.pub_cap = PUB_EVENTS_PER_TURN * self.max_turns + PUB_EVENTS_BASE

    @property
    def counts_by_type(self) -> tuple:
        """Action cards per type (Thief, Guard, Witch, Faerie, Ninja)."""
        return tuple(self.counts[i] for i in range(NT))

    @property
    def goals(self) -> tuple:
        """The goal cards as (a, b) pairs, by goal id."""
        return tuple((self.goal_a[i], self.goal_b[i]) for i in range(self.num_goals))


@cython.final
cdef class GoldThiefEngine(Engine):
    """Gold Thief for 2-5 players: ``GoldThiefEngine(params, game_string="")``
    with ``params`` the validated mapping of ``games.gold_thief`` or a
    ``GoldThiefParams`` (shared by reference, also by clones)."""
    cdef GTState s
    cdef vector[Event] log
    # per applied action: (public events so far << 4) | (player to move + 1)
    cdef vector[int] hmeta
    # set by resample_history: True when `self` was left at the world drawn
    cdef bint world_built
    # Silent replay (``build_world``): while sil_p >= 0 no event is logged or
    # hashed and ``hmeta`` is not kept; each event is compared with sil_p's
    # wanted view instead (sil_k: events matched, sil_bad: a difference seen,
    # sil_gives: Witch gives so far).
    cdef int sil_p, sil_k, sil_gives
    cdef bint sil_bad
    # sil_loud: the events are also logged and hashed (a normal replay that
    # checks the view as it goes)
    cdef bint sil_loud
    # sil_rec: record in `rec` every seat a window reaches (``record_seat``)
    cdef bint sil_rec
    cdef vector[Consid] rec
    # where the recorded replay stopped (``build_world``): TAIL_* and the seat
    cdef int tail_kind, tail_q
    cdef vector[Event]* sil_want
    # ``build_model``'s work space (kept so that its proposals do not allocate)
    cdef vector[int] ws_otype, ws_ogen, ws_draws, ws_gives, ws_faeries, ws_gdraws, ws_gid
    cdef vector[int] ws_pleft
    cdef vector[int] ws_bottom, ws_pool, ws_cand, ws_rem, ws_rcand, ws_rend, ws_rpick
    cdef vector[uint64_t] ws_gmask
    # what ``model_weight`` reads: the hand and face-down goal changes, the
    # unseen Give decisions (e, victim), each generation's first pool and the
    # factors of w(h) known during the walk (log)
    cdef vector[HChange] ws_hl, ws_gl, ws_gv
    cdef vector[int] ws_pool0, ws_deck, ws_ttot, ws_midx
    cdef vector[Event] ws_mev
    cdef double ws_wfix
    cdef bint ws_flip_pending
    cdef bint rec_bad
    cdef vector[vector[int]] ws_hand, ws_down
    # ``resample_history``'s and ``stage2_weighed``'s work space (no
    # allocation per resample once grown)
    cdef vector[int] ws_T, ws_meta, ws_h
    cdef vector[Event] ws_want
    cdef vector[int] s2_draw, s2_gdraw, s2_faerie, s2_give, s2_refh
    cdef vector[int] s2_sd, s2_sg, s2_sf, s2_sv, s2_off
    cdef vector[double] s2_cw, s2_cwm
    cdef readonly GoldThiefParams params
    # copies of the parameters the rules read (from ``params``)
    cdef readonly int hand_size, start_gold, goals_to_win, big_pile, max_turns
    cdef readonly int num_goals, first_fixed, max_moves, pub_cap, raid_raids
    cdef int* counts
    cdef int* goal_a
    cdef int* goal_b

    def __cinit__(self):
        self.sil_p = -1

    def __init__(self, params, str game_string=""):
        self.set_params(params if isinstance(params, GoldThiefParams)
                        else GoldThiefParams(params))
        self.num_players = self.params.players
        self.game_string = game_string
        self.to_initial()

    cdef void set_params(self, GoldThiefParams prm) noexcept:
        self.params = prm
        self.hand_size = prm.hand_size
        self.start_gold = prm.start_gold
        self.goals_to_win = prm.goals_to_win
        self.big_pile = prm.big_pile
        self.max_turns = prm.max_turns
        self.first_fixed = prm.first_player
        self.max_moves = prm.max_moves
        self.num_goals = prm.num_goals
        self.pub_cap = prm.pub_cap
        self.raid_raids = prm.raid_raids
        self.counts = prm.counts
        self.goal_a = prm.goal_a
        self.goal_b = prm.goal_b

    cdef void restart(self) noexcept nogil:
        """Back to the initial state (before any chance event)."""
        cdef int i
        memset(&self.s, 0, sizeof(GTState))
        self.log.clear()
        self.hmeta.clear()
        self.s.n = self.num_players
        self.s.winner = -1
        for i in range(self.num_players):
            self.s.gold[i] = self.start_gold
        for i in range(NT):
            self.s.deck[i] = self.counts[i]
        for i in range(self.num_goals):
            self.s.goal_loc[i] = G_PILE
            self.s.goal_owner[i] = -1
        if self.first_fixed >= 0:
            self.s.first = self.first_fixed
            self.s.active = self.first_fixed
            self.s.phase = PH_SETUP_GOALS
            self.event(EV_FIRST, self.first_fixed, -1, -1, 0)
        else:
            self.s.phase = PH_FIRST

    # ------------------------------------------------------------ events
    cdef void event(self, int kind, int actor, int a, int b, int vis) noexcept nogil:
        """Record an event; players in `vis` see detail `a`, others don't."""
        cdef Event ev
        cdef int p
        cdef uint64_t full, red
        if self.quiet:
            # rollout mode: only the public count, which the rules read
            if kind != EV_PASS and kind != EV_ASKED:
                self.s.npub += 1
            return
        if self.sil_p >= 0:
            self.silent_event(kind, actor, a, b, vis)
            if not self.sil_loud:
                return
        ev.kind = kind
        ev.actor = actor
        ev.a = a
        ev.b = b
        ev.vis = vis
        self.log.push_back(ev)
        full = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ (<uint64_t>(a + 1) << 20) ^ <uint64_t>(b + 2)
        red = (<uint64_t>kind << 48) ^ (<uint64_t>(actor + 1) << 40) ^ <uint64_t>(b + 2)
        if kind == EV_PASS or kind == EV_ASKED:
            # Only the player asked knows a window was offered to them.
            self.observe_private(actor, full)
            return
        self.s.npub += 1
        if vis == 0:
            self.observe_public(full)
            return
        self.pubhash = mix64(self.pubhash, red)
        for p in range(self.s.n):
            if (vis >> p) & 1:
                self.ihash[p] = mix64(self.ihash[p], full)
            else:
                self.ihash[p] = mix64(self.ihash[p], red)

    cdef void silent_event(self, int kind, int actor, int a, int b, int vis) noexcept nogil:
        """``event`` during a silent replay: the public count and the give
        count kept, the event compared with sil_p's wanted view."""
        cdef int p = self.sil_p
        cdef Event* w
        if kind == EV_GIVE:
            self.sil_gives += 1
        if kind == EV_PASS or kind == EV_ASKED:
            if actor != p:
                return
        elif not self.sil_loud:
            self.s.npub += 1
        if self.sil_bad:
            return
        if self.sil_k >= <int>self.sil_want.size():
            self.sil_bad = True
            return
        w = &self.sil_want[0][self.sil_k]
        if not (vis == 0 or (vis >> p) & 1):
            a = -1
        if w.kind != kind or w.actor != actor or w.a != a or w.b != b:
            self.sil_bad = True
            return
        self.sil_k += 1

    # ------------------------------------------------------------ helpers
    cdef inline int holds(self, int p, int t) noexcept nogil:
        return self.s.hcnt[p][t]

    cdef int remove_card(self, int p, int t) noexcept nogil:
        """Remove the last card of type t from p's hand; returns its index or -1."""
        cdef int i, last
        for i in range(self.s.hand_n[p] - 1, -1, -1):
            if self.s.hand_type[p][i] == t:
                last = self.s.hand_n[p] - 1
                self.s.hand_type[p][i] = self.s.hand_type[p][last]
                self.s.hand_gen[p][i] = self.s.hand_gen[p][last]
                self.s.hand_n[p] = last
                self.s.hcnt[p][t] -= 1
                return i
        return -1

    cdef inline bint goal_matches(self, int g, int gold) noexcept nogil:
        return self.goal_a[g] == gold or self.goal_b[g] == gold

    cdef int down_count(self, int p) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                c += 1
        return c

    cdef int down_owners(self) noexcept nogil:
        """Bitmask of the players with a face-down goal."""
        cdef int g, m = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN:
                m |= 1 << self.s.goal_owner[g]
        return m

    cdef int up_count(self, int p) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_UP and self.s.goal_owner[g] == p:
                c += 1
        return c

    cdef int pile_random(self) noexcept nogil:
        cdef int g, c = 0
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_PILE:
                c += 1
        return c

    cdef int deck_total(self) noexcept nogil:
        cdef int t, c = 0
        for t in range(NT):
            c += self.s.deck[t]
        return c

    cdef int disc_total(self) noexcept nogil:
        cdef int t, c = 0
        for t in range(NT):
            c += self.s.disc[t]
        return c

    cdef void flip(self, int p, int g) noexcept nogil:
        """Turn p's goal g face up; ends the game on the winning flip."""
        self.s.goal_loc[g] = G_UP
        self.event(EV_FLIP, p, -1, g, 0)
        if self.up_count(p) >= self.goals_to_win and self.s.phase != PH_OVER:
            self.s.winner = p
            self.s.phase = PH_OVER
            self.event(EV_GAME_END, p, -1, -1, 0)

    cdef void end_game_draw(self) noexcept nogil:
        self.s.winner = -1
        self.s.phase = PH_OVER
        self.event(EV_GAME_END, -1, -1, -1, 0)

    cdef bint ensure_deck(self) noexcept nogil:
        """Reshuffle the discards into an empty deck; False if no card is left."""
        cdef int t
        if self.deck_total() > 0:
            return True
        if self.disc_total() == 0:
            return False
        for t in range(NT):
            self.s.deck[t] = self.s.disc[t]
            self.s.disc[t] = 0
        self.s.gen += 1
        self.event(EV_RESHUFFLE, -1, -1, -1, 0)
        return True

    cdef bint goal_draw_possible(self) noexcept nogil:
        return self.pile_random() > 0 or self.s.bottom_n > 0

    cdef void give_goal(self, int p, int g) noexcept nogil:
        cdef int i
        if self.s.goal_loc[g] == G_BOTTOM:
            for i in range(self.s.bottom_n - 1):
                self.s.bottom[i] = self.s.bottom[i + 1]
            self.s.bottom_n -= 1
        self.s.goal_loc[g] = G_DOWN
        self.s.goal_owner[g] = p

    # ------------------------------------------------------------ windows
    cdef bint can_respond(self, int q, Effect* e) noexcept nogil:
        cdef int k = e.kind
        if q == e.player:
            # the thief (or raider) may add their own Witch as an extra Thief
            return (k == E_THIEF or k == E_RAID) and self.holds(q, WITCH) > 0
        if k == E_THIEF or k == E_RAID:
            return self.holds(q, GUARD) > 0 or self.can_raid(q, e) or \
                (self.holds(q, WITCH) > 0 and q != e.victim)
        if k == E_WITCH_EXTRA:
            return self.holds(q, GUARD) > 0 or self.holds(q, FAERIE) > 0
        if k == E_GUARD_GIFT or k == E_GUARD_CANCEL or k == E_WITCH_STEAL:
            return self.holds(q, FAERIE) > 0
        return False

    cdef bint can_raid(self, int q, Effect* e) noexcept nogil:
        """q may raid theft e: "On someone else's turn, if they just played a
        Thief" -- a Thief of the active player, by anyone else; a raid itself
        only with ``raid_raids`` (rules doc, assumption 8)."""
        return self.holds(q, THIEF) > 0 and q != self.s.active and \
            (e.kind == E_THIEF or self.raid_raids)

    cdef void push(self, int kind, int player, int victim, int beneficiary,
                   int amount, int target) noexcept nogil:
        cdef Effect* e = &self.s.stack[self.s.sp]
        e.kind = kind
        e.player = player
        e.victim = victim
        e.beneficiary = beneficiary
        e.amount = amount
        e.target = target
        e.scan = 1
        e.canceled = 0
        e.uid = self.s.next_uid
        e.parent = -1
        self.s.next_uid += 1
        self.s.sp += 1

    cdef void transfer(self, int src, int dst, int amount) noexcept nogil:
        cdef int x = amount if amount < self.s.gold[src] else self.s.gold[src]
        self.s.gold[src] -= x
        self.s.gold[dst] += x

    cdef bint resolve_top(self) noexcept nogil:
        """Resolve and pop the top effect; False if it needs a Give decision."""
        cdef Effect* e = &self.s.stack[self.s.sp - 1]
        cdef int v, t, distinct, uid = e.uid
        if e.kind == E_RAID or e.kind == E_WITCH_EXTRA:
            # an add-on waits for the theft it follows
            self.s.dfr[self.s.ndfr] = e[0]
            self.s.dfr[self.s.ndfr].parent = self.s.stack[e.target].uid
            self.s.ndfr += 1
            self.s.sp -= 1
            self.event(EV_RESOLVE, e.player, -1, R_WAITS * 8 + e.kind, 0)
            return True
        self.event(EV_RESOLVE, e.player, -1, R_RESOLVES * 8 + e.kind, 0)
        if e.kind == E_THIEF:
            self.transfer(e.victim, e.beneficiary, e.amount)
        elif e.kind == E_GUARD_GIFT:
            self.transfer(e.player, e.beneficiary, 1)
        elif e.kind == E_GUARD_CANCEL or e.kind == E_FAERIE_CANCEL:
            self.s.stack[e.target].canceled = 1
        elif e.kind == E_WITCH_STEAL:
            v = e.victim
            if self.s.hand_n[v] > 0:
                distinct = 0
                for t in range(NT):
                    if self.holds(v, t) > 0:
                        distinct += 1
                if distinct > 1:
                    self.s.phase = PH_GIVE
                    self.s.decider = v
                    return False
                self.do_give(v, e.player, self.s.hand_type[v][0])
        self.s.sp -= 1
        self.flush(uid)
        return True

    cdef void flush(self, int uid) noexcept nogil:
        """Resolve the deferred add-ons that follow effect `uid`, each one
        followed by its own add-ons (in the order they were played)."""
        cdef int i = 0, j
        cdef Effect d
        while i < self.s.ndfr:
            if self.s.dfr[i].parent != uid:
                i += 1
                continue
            d = self.s.dfr[i]
            for j in range(i, self.s.ndfr - 1):
                self.s.dfr[j] = self.s.dfr[j + 1]
            self.s.ndfr -= 1
            self.event(EV_RESOLVE, d.player, -1, R_RESOLVES * 8 + d.kind, 0)
            self.transfer(d.victim, d.beneficiary, d.amount)
            self.flush(d.uid)
            i = 0

    cdef void do_give(self, int v, int thief, int t) noexcept nogil:
        cdef int i, k, gen
        for i in range(self.s.hand_n[v] - 1, -1, -1):
            if self.s.hand_type[v][i] == t:
                gen = self.s.hand_gen[v][i]
                self.remove_card(v, t)
                k = self.s.hand_n[thief]
                self.s.hand_type[thief][k] = t
                self.s.hand_gen[thief][k] = gen
                self.s.hand_n[thief] = k + 1
                self.s.hcnt[thief][t] += 1
                self.event(EV_GIVE, v, t, thief, (1 << v) | (1 << thief))
                return

    # ------------------------------------------------------------ flow
    cdef void advance(self) noexcept nogil:
        """Run automatic steps until a decision or chance node."""
        cdef Effect* e
        cdef int q, g, t, n = self.s.n, cnt
        while True:
            if self.s.phase == PH_OVER:
                return
            if self.s.moves >= self.max_moves or self.s.npub >= self.pub_cap:
                self.end_game_draw()
                return
            if self.s.phase == PH_GIVE or self.s.phase == PH_FIRST \
                    or self.s.phase == PH_BIG_FLIP:
                return
            if self.s.phase == PH_SETUP_GOALS:
                if self.s.setup_k < n and self.goal_draw_possible():
                    return
                self.s.setup_k = 0
                self.s.phase = PH_SETUP_CARDS
                continue
            if self.s.phase == PH_SETUP_CARDS:
                if self.s.setup_k < n * self.hand_size and self.ensure_deck():
                    return
                self.start_turn(self.s.first)
                continue
            if self.s.sp > 0:
                e = &self.s.stack[self.s.sp - 1]
                if e.canceled:
                    self.s.sp -= 1
                    self.event(EV_RESOLVE, e.player, -1, R_CANCELLED * 8 + e.kind, 0)
                    self.flush(e.uid)
                    if self.s.sp == 0:
                        self.s.phase = PH_PLAY
                    continue
                while e.scan <= n:
                    q = (e.player + e.scan) % n
                    e.scan += 1
                    if self.sil_rec:
                        self.record_seat(q, e)
                    if self.can_respond(q, e):
                        self.s.phase = PH_RESPOND
                        self.s.decider = q
                        self.event(EV_ASKED, q, -1, e.kind, 1 << q)
                        return
                if not self.resolve_top():
                    return
                if self.s.sp == 0:
                    self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_NINJA:
                # Offer the window to the next eligible seat, else score.
                while self.s.window_seat < n:
                    q = (self.s.active + self.s.window_seat) % n
                    self.s.window_seat += 1
                    if self.sil_rec:
                        self.record_seat(q, NULL)
                    if self.holds(q, NINJA) > 0 and self.ninja_goal_exists(q):
                        self.s.decider = q
                        self.event(EV_ASKED, q, -1, 7, 1 << q)
                        return
                self.score_turn_start()
                continue
            if self.s.phase == PH_DRAW:
                if self.s.draws_pending > 0 and self.ensure_deck():
                    return
                self.s.draws_pending = 0
                if self.s.draw_target == self.s.active and self.s.goal_round_left < 0:
                    # start-of-turn draw finished: goal round if anyone has none
                    self.s.goal_round_left = 0
                    if self.down_owners() != (1 << n) - 1:
                        self.s.goal_round_left = n
                        self.s.goal_target = self.s.active
                    self.s.phase = PH_DEAL_GOAL
                    continue
                self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_DEAL_GOAL:
                while self.s.goal_round_left > 0:
                    if self.pile_random() > 0:
                        return
                    if self.s.bottom_n > 0:
                        g = self.s.bottom[0]
                        self.give_goal(self.s.goal_target, g)
                        self.event(EV_DEAL_GOAL, self.s.goal_target, g, -1, 1 << self.s.goal_target)
                        self.next_goal_target()
                        continue
                    self.s.goal_round_left = 0
                self.s.phase = PH_PLAY
                continue
            if self.s.phase == PH_FAERIE_DRAW:
                if self.pile_random() > 0:
                    return
                if self.s.bottom_n > 0:
                    g = self.s.bottom[0]
                    self.give_goal(self.s.active, g)
                    self.event(EV_FAERIE_GOAL, self.s.active, g, -1, 1 << self.s.active)
                self.s.phase = PH_PLAY
                continue
            return

    cdef void record_seat(self, int q, Effect* e) noexcept nogil:
        """Record that a window reached seat q (another player than sil_p):
        the response window of effect `e` (the card types whose holder may
        answer, as ``can_respond`` and ``legal_actions``), or the Ninja
        window (`e` NULL)."""
        cdef Consid c
        cdef int k, m = 0
        if q == self.sil_p:
            return
        c.k = self.sil_k
        c.q = q
        c.pub = 0
        c.gold = -1
        if e == NULL:
            c.gold = self.s.gold[q]
        else:
            k = e.kind
            if q == e.player:
                if k == E_THIEF or k == E_RAID:
                    m = 1 << WITCH
            elif k == E_THIEF or k == E_RAID:
                m = 1 << GUARD
                if q != self.s.active and (k == E_THIEF or self.raid_raids):
                    m |= 1 << THIEF
                if q != e.victim:
                    m |= 1 << WITCH
            elif k == E_WITCH_EXTRA:
                m = (1 << GUARD) | (1 << FAERIE)
            elif k == E_GUARD_GIFT or k == E_GUARD_CANCEL or k == E_WITCH_STEAL:
                m = 1 << FAERIE
            if m == 0:
                return
        c.mask = m
        self.rec.push_back(c)

    cdef void next_goal_target(self) noexcept nogil:
        self.s.goal_round_left -= 1
        self.s.goal_target = (self.s.goal_target + 1) % self.s.n

    cdef bint ninja_goal_exists(self, int q) noexcept nogil:
        cdef int g
        for g in range(self.num_goals):
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == q \
                    and self.goal_matches(g, self.s.gold[q]):
                return True
        return False

    cdef void start_turn(self, int p) noexcept nogil:
        if self.s.turn >= self.max_turns:
            self.end_game_draw()
            return
        self.s.turn += 1
        self.s.active = p
        self.s.phase = PH_NINJA
        self.s.window_seat = 1

    cdef void score_turn_start(self) noexcept nogil:
        """Flip every matching goal; then the >big_pile pick."""
        cdef int p = self.s.active, g, gold = self.s.gold[p]
        self.event(EV_SCORE, p, -1, gold, 0)
        for g in range(self.num_goals):
            if self.s.phase == PH_OVER:
                return
            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                if self.goal_matches(g, gold):
                    self.flip(p, g)
        if self.s.phase == PH_OVER:
            return
        if gold > self.big_pile and self.down_count(p) > 0:
            if self.down_count(p) == 1:
                for g in range(self.num_goals):
                    if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                        self.flip(p, g)
                        break
                if self.s.phase == PH_OVER:
                    return
            else:
                self.s.phase = PH_BIG_FLIP
                self.s.decider = p
                return
        self.begin_draw()

    cdef void begin_draw(self) noexcept nogil:
        cdef int need = self.hand_size - self.s.hand_n[self.s.active]
        self.s.phase = PH_DRAW
        self.s.draw_target = self.s.active
        self.s.draws_pending = need if need > 0 else 0
        self.s.goal_round_left = -1

    # ------------------------------------------------------------ interface
    cdef int current_player(self) noexcept nogil:
        cdef int ph = self.s.phase
        if ph == PH_OVER:
            return TERMINAL_PLAYER
        if ph == PH_FIRST or ph == PH_SETUP_GOALS or ph == PH_SETUP_CARDS \
                or ph == PH_DRAW or ph == PH_DEAL_GOAL or ph == PH_FAERIE_DRAW:
            return CHANCE_PLAYER
        if ph == PH_PLAY or ph == PH_BIG_FLIP:
            return self.s.active
        return self.s.decider

    cdef bint is_terminal(self) noexcept nogil:
        return self.s.phase == PH_OVER

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, t, g, tot
        if ph == PH_FIRST:
            for t in range(self.s.n):
                out[k] = C_FIRST + t
                probs[k] = 1.0 / self.s.n
                k += 1
        elif ph == PH_SETUP_CARDS or ph == PH_DRAW:
            tot = self.deck_total()
            for t in range(NT):
                if self.s.deck[t] > 0:
                    out[k] = C_CARD + t
                    probs[k] = self.s.deck[t] / <double>tot
                    k += 1
        else:
            tot = self.pile_random()
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_PILE:
                    out[k] = C_GOAL + g
                    probs[k] = 1.0 / tot
                    k += 1
        return k

    cdef int legal_actions(self, int* out) noexcept nogil:
        cdef int ph = self.s.phase, k = 0, p, v, g, t, n = self.s.n
        cdef Effect* e
        if ph == PH_PLAY:
            p = self.s.active
            out[k] = A_END_TURN
            k += 1
            if self.holds(p, THIEF) > 0:
                for v in range(n):
                    if v != p and self.s.gold[v] > 0:
                        out[k] = A_THIEF + v
                        k += 1
            if self.holds(p, GUARD) > 0 and self.s.gold[p] > 0:
                for v in range(n):
                    if v != p:
                        out[k] = A_GUARD + v
                        k += 1
            if self.holds(p, WITCH) > 0:
                for v in range(n):
                    if v != p and self.s.hand_n[v] > 0:
                        out[k] = A_WITCH + v
                        k += 1
            if self.holds(p, FAERIE) > 0:
                for g in range(self.num_goals):
                    if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                        out[k] = A_FAERIE + g
                        k += 1
            if self.holds(p, NINJA) > 0:
                out[k] = A_NINJA
                k += 1
        elif ph == PH_RESPOND:
            p = self.s.decider
            e = &self.s.stack[self.s.sp - 1]
            out[k] = A_PASS
            k += 1
            if p == e.player:
                out[k] = A_WITCH_EXTRA
                k += 1
            elif e.kind == E_THIEF or e.kind == E_RAID:
                if self.holds(p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if self.can_raid(p, e):
                    out[k] = A_THIEF_RAID
                    k += 1
                if self.holds(p, WITCH) > 0 and p != e.victim:
                    # the victim's Witch would only take gold from itself
                    out[k] = A_WITCH_EXTRA
                    k += 1
            elif e.kind == E_WITCH_EXTRA:
                if self.holds(p, GUARD) > 0:
                    out[k] = A_GUARD_CANCEL
                    k += 1
                if self.holds(p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
            else:
                if self.holds(p, FAERIE) > 0:
                    out[k] = A_FAERIE_CANCEL
                    k += 1
        elif ph == PH_NINJA:
            p = self.s.decider
            out[k] = A_PASS
            k += 1
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p \
                        and self.goal_matches(g, self.s.gold[p]):
                    out[k] = A_NINJA_SCORE + g
                    k += 1
        elif ph == PH_BIG_FLIP:
            p = self.s.active
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == p:
                    out[k] = A_BIG_FLIP + g
                    k += 1
        elif ph == PH_GIVE:
            p = self.s.decider
            for t in range(NT):
                if self.holds(p, t) > 0:
                    out[k] = A_GIVE + t
                    k += 1
        return k

    cdef void do_apply(self, int action) noexcept nogil:
        cdef int ph = self.s.phase
        if (self.sil_p < 0 or self.sil_loud) and not self.quiet:
            self.hmeta.push_back((self.s.npub << 4) | (self.current_player() + 1))
        self.s.moves += 1
        if ph == PH_FIRST:
            self.s.first = action - C_FIRST
            self.s.active = self.s.first
            self.event(EV_FIRST, self.s.first, -1, -1, 0)
            self.s.phase = PH_SETUP_GOALS
        elif ph == PH_SETUP_GOALS:
            self.chance_goal((self.s.first + self.s.setup_k) % self.s.n, action - C_GOAL, EV_DEAL_GOAL)
            self.s.setup_k += 1
        elif ph == PH_SETUP_CARDS:
            self.chance_card((self.s.first + self.s.setup_k % self.s.n) % self.s.n, action - C_CARD)
            self.s.setup_k += 1
        elif ph == PH_DRAW:
            self.chance_card(self.s.draw_target, action - C_CARD)
            self.s.draws_pending -= 1
        elif ph == PH_DEAL_GOAL:
            self.chance_goal(self.s.goal_target, action - C_GOAL, EV_DEAL_GOAL)
            self.next_goal_target()
        elif ph == PH_FAERIE_DRAW:
            self.chance_goal(self.s.active, action - C_GOAL, EV_FAERIE_GOAL)
            self.s.phase = PH_PLAY
        elif ph == PH_PLAY:
            self.apply_play(action)
        elif ph == PH_RESPOND:
            self.apply_response(action)
        elif ph == PH_NINJA:
            if action == A_PASS:
                self.event(EV_PASS, self.s.decider, -1, A_PASS, 0)
            else:
                self.remove_card(self.s.decider, NINJA)
                self.s.disc[NINJA] += 1
                self.event(EV_PLAY, self.s.decider, -1, action, 0)
                self.flip(self.s.decider, action - A_NINJA_SCORE)
        elif ph == PH_BIG_FLIP:
            self.flip(self.s.active, action - A_BIG_FLIP)
            if self.s.phase != PH_OVER:
                self.begin_draw()
        elif ph == PH_GIVE:
            self.do_give(self.s.decider, self.s.stack[self.s.sp - 1].player, action - A_GIVE)
            self.s.sp -= 1
            self.s.phase = PH_PLAY if self.s.sp == 0 else PH_RESPOND
        self.advance()

    cdef void chance_card(self, int p, int t) noexcept nogil:
        cdef int k = self.s.hand_n[p]
        self.s.deck[t] -= 1
        self.s.hand_type[p][k] = t
        self.s.hand_gen[p][k] = self.s.gen
        self.s.hand_n[p] = k + 1
        self.s.hcnt[p][t] += 1
        self.event(EV_DRAW, p, t, -1, 1 << p)

    cdef void chance_goal(self, int p, int g, int kind) noexcept nogil:
        self.give_goal(p, g)
        self.event(kind, p, g, -1, 1 << p)

    cdef void apply_play(self, int action) noexcept nogil:
        cdef int p = self.s.active, n = self.s.n, g
        if action == A_END_TURN:
            self.event(EV_END_TURN, p, -1, -1, 0)
            self.start_turn((p + 1) % n)
            return
        if A_THIEF <= action < A_THIEF + MAXP:
            self.play_card(p, THIEF, action)
            self.push(E_THIEF, p, action - A_THIEF, p, 2, -1)
        elif A_GUARD <= action < A_GUARD + MAXP:
            self.play_card(p, GUARD, action)
            self.push(E_GUARD_GIFT, p, p, action - A_GUARD, 1, -1)
        elif A_WITCH <= action < A_WITCH + MAXP:
            self.play_card(p, WITCH, action)
            self.push(E_WITCH_STEAL, p, action - A_WITCH, p, 0, -1)
        elif A_FAERIE <= action < A_FAERIE + MAX_GOALS:
            g = action - A_FAERIE
            self.remove_card(p, FAERIE)
            self.s.disc[FAERIE] += 1
            self.event(EV_PLAY, p, g, A_FAERIE, 1 << p)
            self.s.goal_loc[g] = G_BOTTOM
            self.s.bottom[self.s.bottom_n] = g
            self.s.bottom_n += 1
            self.s.phase = PH_FAERIE_DRAW
            return
        elif action == A_NINJA:
            self.play_card(p, NINJA, action)
            self.s.phase = PH_DRAW
            self.s.draw_target = p
            self.s.draws_pending = 3
            return

    cdef void play_card(self, int p, int t, int action) noexcept nogil:
        self.remove_card(p, t)
        self.s.disc[t] += 1
        self.event(EV_PLAY, p, -1, action, 0)

    cdef void apply_response(self, int action) noexcept nogil:
        cdef int q = self.s.decider, top = self.s.sp - 1
        cdef Effect* e = &self.s.stack[top]
        if action == A_PASS:
            self.event(EV_PASS, q, -1, A_PASS, 0)
            return
        if action == A_GUARD_CANCEL:
            self.play_card(q, GUARD, action)
            self.push(E_GUARD_CANCEL, q, -1, -1, 0, top)
        elif action == A_THIEF_RAID:
            self.play_card(q, THIEF, action)
            self.push(E_RAID, q, e.player, q, 1, top)
        elif action == A_WITCH_EXTRA:
            self.play_card(q, WITCH, action)
            self.push(E_WITCH_EXTRA, q, e.victim, e.beneficiary, e.amount, top)
        elif action == A_FAERIE_CANCEL:
            self.play_card(q, FAERIE, action)
            self.push(E_FAERIE_CANCEL, q, -1, -1, 0, top)

    cdef void returns(self, double* out) noexcept nogil:
        cdef int i, n = self.s.n
        for i in range(n):
            out[i] = 0.0
        if self.s.phase == PH_OVER and self.s.winner >= 0:
            for i in range(n):
                out[i] = -1.0 / (n - 1)
            out[self.s.winner] = 1.0

    # ------------------------------------------------------------ resampling
    # (``step``, ``legal`` and ``replay``: the base class's ``apply``,
    # ``is_legal`` and ``replay`` with direct calls, for the resampler's replays)
    cdef inline void step(self, int action) noexcept nogil:
        self.hist.push_back(action)
        self.do_apply(action)

    cdef bint legal(self, int action) noexcept nogil:
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int i, n = 0
        if self.s.phase != PH_OVER:
            n = self.chance_outcomes(outs, probs) if self.current_player() == CHANCE_PLAYER \
                else self.legal_actions(outs)
        for i in range(n):
            if outs[i] == action:
                return True
        return False

    cdef void replay(self, const int* actions, int n) noexcept nogil:
        cdef int i
        self.to_initial()
        for i in range(n):
            self.step(actions[i])

    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A history drawn from `player`'s information set (rules doc,
        "Resampling").  Stage 1: exact rejection sampling along the public
        skeleton (hidden chance by its odds, others' hidden choices uniform,
        accepted iff `player`'s view is reproduced).  Stage 2, when stage 1
        found nothing in its attempts: the model proposal, importance-corrected
        (one of K accepted proposals kept by its weight).  Stage 3: a
        complete backtracking search.  Reads only `player`'s view of the events
        and the public skeleton of the history; never returns the true
        history as such."""
        # the history and the view, kept (``self`` is scratch from here)
        cdef vector[int]* T = &self.ws_T
        cdef vector[int]* meta = &self.ws_meta
        cdef vector[Event]* want = &self.ws_want
        cdef int attempt, j, last = -1, plays = 0, tries = _EXACT_ATTEMPTS, got = 0
        _STATS[0] += 1
        T[0] = self.hist
        meta[0] = self.hmeta
        self.view_events(player, &self.log, want)
        for j in range(<int>want.size()):
            if want[0][j].kind == EV_PLAY and want[0][j].actor != player:
                plays += 1
        if plays > EXACT_MAX_PLAYS_C:
            tries = 0
        for j in range(<int>T.size()):
            if not self.skippable(player, T, meta, j):
                last = j
        self.world_built = False
        for attempt in range(tries):
            if self.walk_world(player, rng, T, meta, last, want, False):
                _STATS[1] += 1
                out[0] = self.hist
                self.world_built = True
                return
        # Stage 2: sampling-importance-resampling over _MODEL_PROPOSALS
        # proposals, weighed from the model (one replay recorded), else with
        # every proposal replayed.
        self.model_events(player, want)
        got = -1 if _FORCE_REPLAYED else self.stage2_weighed(player, rng, want, T, meta,
                                                              last, out)
        if got < 0:
            _WSTATS[1] += 1
            self.world_built = False
            got = self.stage2_replayed(player, rng, want, T, meta, last, out)
        if got > 0:
            # `self` is the world if the drawn proposal was replayed last
            # (world_built), else scratch
            _STATS[2] += 1
            return
        # Complete: the true history is one of the worlds the search can
        # reach, so it always finds one (in its own random order).
        self.walk_world(player, rng, T, meta, last, want, True)
        _STATS[3] += 1
        out[0] = self.hist
        self.world_built = True

    cdef void model_events(self, int p, vector[Event]* want) noexcept nogil:
        """The events of `p`'s view ``build_model`` reads (``ws_mev``, with
        their indices in the view in ``ws_midx``): draws, reshuffles, plays,
        gives, goal deals, flips and scorings; of the others (`p`'s passes and
        windows, resolutions, ends of turn) only one right after a scoring
        and the flips it made, where the model applies the scoring's facts."""
        cdef int e, k, mq = -1, mx = 0
        cdef Event* ev
        self.ws_mev.clear()
        self.ws_midx.clear()
        for e in range(<int>want.size()):
            ev = &want[0][e]
            k = ev.kind
            if k == EV_PASS or k == EV_ASKED:
                continue
            if k == EV_DRAW or k == EV_RESHUFFLE or k == EV_PLAY or k == EV_GIVE \
                    or k == EV_DEAL_GOAL or k == EV_FAERIE_GOAL or k == EV_FLIP \
                    or k == EV_SCORE:
                if mq >= 0 and not (k == EV_FLIP and ev.actor == mq
                                    and self.goal_matches(ev.b, mx)):
                    mq = -1
                if k == EV_SCORE:
                    mq = ev.actor
                    mx = ev.b
            elif mq >= 0:
                mq = -1
            else:
                continue
            self.ws_mev.push_back(ev[0])
            self.ws_midx.push_back(e)

    cdef bint propose(self, int player, Rng* rng, vector[int]* draw_t, vector[int]* gdraw_g,
                      vector[int]* faerie_g, vector[int]* give_t, double* lrq) noexcept nogil:
        """One model proposal (``build_model`` on ``ws_mev``) into the four
        cleared vectors."""
        draw_t.clear()
        gdraw_g.clear()
        faerie_g.clear()
        give_t.clear()
        return self.build_model(player, rng, &self.ws_mev, draw_t, gdraw_g, faerie_g, give_t,
                                lrq)

    cdef int stage2_replayed(self, int player, Rng* rng, vector[Event]* want, vector[int]* T,
                             vector[int]* meta, int last, vector[int]* out) noexcept nogil:
        """Stage 2 with every proposal replayed: up to _MODEL_PROPOSALS
        accepted proposals, one kept (streaming) with probability proportional
        to its importance weight; 1 if one was kept (in `out`), else 0."""
        cdef vector[int] draw_t, gdraw_g, faerie_g, give_t, kept
        cdef int attempt, got = 0
        cdef double lw = 0.0, lrq = 0.0, ltot = 0.0
        for attempt in range(_MODEL_ATTEMPTS):
            if got >= _MODEL_PROPOSALS:
                break
            if not self.propose(player, rng, &draw_t, &gdraw_g, &faerie_g, &give_t, &lrq):
                continue
            if not self.build_world(player, want, T, meta, last, &draw_t, &gdraw_g,
                                    &faerie_g, &give_t, &lw):
                continue
            lw += lrq
            got += 1
            if got == 1:
                ltot = lw
            else:
                ltot = lw + log(1.0 + exp(ltot - lw)) if lw > ltot \
                    else ltot + log(1.0 + exp(lw - ltot))
            if got == 1 or rng_double(rng) < exp(lw - ltot):
                kept = self.hist
        if got > 0:
            out[0] = kept
            return 1
        return 0

    cdef int stage2_weighed(self, int player, Rng* rng, vector[Event]* want, vector[int]* T,
                            vector[int]* meta, int last, vector[int]* out) noexcept nogil:
        """Stage 2 with the weights computed from the model
        (``model_weight``): the first accepted proposal is replayed, recording
        the window seats (and its weight checked against the replay's), the
        others are weighed without a replay; one of the _MODEL_PROPOSALS is
        drawn by weight and replayed (a proposal whose replay leaves the
        information set gets weight 0 and another is drawn).  1 with the
        world's history in `out`, 0 if no proposal was found, -1 if the
        model's weight disagreed with a replay's (the caller then replays
        every proposal)."""
        cdef vector[int]* draw_t = &self.s2_draw
        cdef vector[int]* gdraw_g = &self.s2_gdraw
        cdef vector[int]* faerie_g = &self.s2_faerie
        cdef vector[int]* give_t = &self.s2_give
        cdef vector[int]* sd = &self.s2_sd
        cdef vector[int]* sg = &self.s2_sg
        cdef vector[int]* sf = &self.s2_sf
        cdef vector[int]* sv = &self.s2_sv
        cdef vector[int]* off = &self.s2_off
        cdef vector[double]* cw = &self.s2_cw
        cdef vector[double]* cwm = &self.s2_cwm
        cdef int attempt, got = 0, ref = -1, nwant = <int>want.size(), j, c, verdict
        cdef bint ok
        cdef double lw = 0.0, lrq = 0.0, lwm, mx, tot, u
        sd.clear()
        sg.clear()
        sf.clear()
        sv.clear()
        off.clear()
        cw.clear()
        cwm.clear()
        for attempt in range(_MODEL_ATTEMPTS):
            if got >= _MODEL_PROPOSALS:
                break
            if not self.propose(player, rng, draw_t, gdraw_g, faerie_g, give_t, &lrq):
                continue
            if ref < 0:
                if not self.build_world(player, want, T, meta, last, draw_t, gdraw_g,
                                        faerie_g, give_t, &lw, True):
                    continue
                lwm = self.model_weight(player, nwant, &verdict)
                if self.rec_bad or verdict != 1 or not weights_agree(lwm, lw):
                    _WSTATS[2] += 1
                    return -1
                ref = got
                self.s2_refh = self.hist
            else:
                lwm = self.model_weight(player, nwant, &verdict)
                if verdict < 0 or _CHECK_WEIGHTS:
                    # not known from the model (or checked): replay it
                    ok = self.build_world(player, want, T, meta, last, draw_t, gdraw_g,
                                          faerie_g, give_t, &lw)
                    if verdict >= 0 and ok != (verdict == 1):
                        _WSTATS[3] += 1
                    elif ok and not weights_agree(lwm, lw):
                        _WSTATS[2] += 1
                    verdict = 1 if ok else 0
                if verdict == 0:
                    continue
            off.push_back(<int>sd.size())
            off.push_back(<int>sg.size())
            off.push_back(<int>sf.size())
            off.push_back(<int>sv.size())
            for j in range(<int>draw_t.size()):
                sd.push_back(draw_t[0][j])
            for j in range(<int>gdraw_g.size()):
                sg.push_back(gdraw_g[0][j])
            for j in range(<int>faerie_g.size()):
                sf.push_back(faerie_g[0][j])
            for j in range(<int>give_t.size()):
                sv.push_back(give_t[0][j])
            cw.push_back(lwm + lrq)
            cwm.push_back(lwm)
            got += 1
        if got == 0:
            return 0
        _WSTATS[0] += 1
        off.push_back(<int>sd.size())
        off.push_back(<int>sg.size())
        off.push_back(<int>sf.size())
        off.push_back(<int>sv.size())
        while True:
            mx = -INFINITY
            for c in range(got):
                if cw[0][c] > mx:
                    mx = cw[0][c]
            if mx == -INFINITY:
                return -1
            tot = 0.0
            for c in range(got):
                tot += exp(cw[0][c] - mx)
            u = rng_double(rng) * tot
            j = -1
            for c in range(got):
                if cw[0][c] == -INFINITY:
                    continue
                j = c
                u -= exp(cw[0][c] - mx)
                if u < 0.0:
                    break
            if j == ref:
                out[0] = self.s2_refh
                return 1
            draw_t.assign(sd.begin() + off[0][4 * j], sd.begin() + off[0][4 * j + 4])
            gdraw_g.assign(sg.begin() + off[0][4 * j + 1], sg.begin() + off[0][4 * j + 5])
            faerie_g.assign(sf.begin() + off[0][4 * j + 2], sf.begin() + off[0][4 * j + 6])
            give_t.assign(sv.begin() + off[0][4 * j + 3], sv.begin() + off[0][4 * j + 7])
            if self.build_world(player, want, T, meta, last, draw_t, gdraw_g, faerie_g,
                                give_t, &lw, False, True):
                if not weights_agree(cwm[0][j], lw):
                    _WSTATS[2] += 1
                    return -1
                out[0] = self.hist
                self.world_built = True
                return 1
            # the model said it is in the information set: it is not
            _WSTATS[3] += 1
            return -1

    cdef void resample(self, int player, Rng* rng) noexcept nogil:
        """The base contract (the world is ``resample_history`` replayed),
        without replaying twice: the accepted world was built by that replay."""
        self.world_built = False
        self.resample_history(player, rng, &self.ws_h)
        if not self.world_built:
            self.replay(self.ws_h.data(), <int>self.ws_h.size())

    cdef void view_events(self, int p, vector[Event]* evs, vector[Event]* out) noexcept nogil:
        """`p`'s view of the event log: the events p observed, with the
        detail set to -1 where p did not see it."""
        cdef size_t e
        cdef Event ev
        out.clear()
        for e in range(evs.size()):
            ev = evs[0][e]
            if (ev.kind == EV_PASS or ev.kind == EV_ASKED) and ev.actor != p:
                continue
            if not (ev.vis == 0 or (ev.vis >> p) & 1):
                ev.a = -1
            out.push_back(ev)

    cdef bint check_events(self, int p, vector[Event]* want, size_t* logpos, int* k) noexcept nogil:
        """Compare the events logged since `logpos` with `p`'s wanted view
        (from event `k` on); advances both; False at the first difference."""
        cdef Event ev, w
        while logpos[0] < self.log.size():
            ev = self.log[logpos[0]]
            logpos[0] += 1
            if (ev.kind == EV_PASS or ev.kind == EV_ASKED) and ev.actor != p:
                continue
            if k[0] >= <int>want.size():
                return False
            w = want[0][k[0]]
            if not (ev.vis == 0 or (ev.vis >> p) & 1):
                ev.a = -1
            if ev.kind != w.kind or ev.actor != w.actor or ev.a != w.a or ev.b != w.b:
                return False
            k[0] += 1
        return True

    cdef int chance_target(self) noexcept nogil:
        """The seat that receives the outcome of the current chance node."""
        cdef int ph = self.s.phase
        if ph == PH_SETUP_GOALS:
            return (self.s.first + self.s.setup_k) % self.s.n
        if ph == PH_SETUP_CARDS:
            return (self.s.first + self.s.setup_k % self.s.n) % self.s.n
        if ph == PH_DRAW:
            return self.s.draw_target
        if ph == PH_DEAL_GOAL:
            return self.s.goal_target
        if ph == PH_FAERIE_DRAW:
            return self.s.active
        return -1

    cdef int node_options(self, int p, vector[int]* T, vector[int]* meta, int i, int* nexti,
                          vector[Event]* want, int k, int* odr, int* outs, double* probs,
                          double* acc) noexcept nogil:
        """The actions of the skeleton walk at the current node, with their
        proposal probabilities (0 = dead end).  Forced: public actions, `p`'s
        own, window answers (a player asked whose answer is not in the
        public record passes, accepted with probability 1 / their legal
        answers), the chance outcomes `p` observed (accepted with
        probability `acc`, see the rules doc).  Free: hidden chance
        outcomes (by their odds), another player's Give and Faerie goal
        (uniform).  `nexti`: the skeleton index after this step."""
        cdef int cp = self.current_player(), ph = self.s.phase, N = <int>T.size()
        cdef int n, j, t, g, wkey, act, found
        cdef Event w
        acc[0] = 1.0
        nexti[0] = i
        probs[0] = 1.0
        if cp == CHANCE_PLAYER:
            while i < N and self.skippable(p, T, meta, i):
                i += 1
            if i >= N or (meta[0][i] & 15) != 0:
                return 0
            nexti[0] = i + 1
            if ph == PH_FIRST:
                outs[0] = T[0][i]
                return 1
            if self.chance_target() != p:
                return self.chance_outcomes(outs, probs)
            if k >= <int>want.size():
                return 0
            w = want[0][k]
            if w.actor != p or w.a < 0:
                return 0
            if ph == PH_SETUP_CARDS or ph == PH_DRAW:
                t = w.a
                if w.kind != EV_DRAW or self.s.deck[t] <= 0:
                    return 0
                # P(t) / (an upper bound that depends only on p's information)
                acc[0] = self.s.deck[t] / <double>(self.s.deck[t] + odr[t])
                outs[0] = C_CARD + t
                return 1
            if (w.kind != EV_DEAL_GOAL and w.kind != EV_FAERIE_GOAL) \
                    or self.s.goal_loc[w.a] != G_PILE:
                return 0
            outs[0] = C_GOAL + w.a
            return 1
        if cp != p and (ph == PH_RESPOND or ph == PH_NINJA):
            wkey = (self.s.npub << 4) | (cp + 1)
            found = -1
            j = i
            while j < N:
                if meta[0][j] == wkey:
                    found = j
                    break
                if not self.skippable(p, T, meta, j):
                    break
                j += 1
            if found >= 0:
                act = T[0][found]
                nexti[0] = found + 1
            else:
                act = A_PASS
            if act == A_PASS:
                # a pass only the passer sees: a hidden choice, uniform among
                # their legal answers, so accepted with probability 1 / (legal)
                acc[0] = 1.0 / self.legal_actions(outs)
            outs[0] = act
            return 1
        if cp != p and ph == PH_GIVE:
            n = self.legal_actions(outs)
            for j in range(n):
                probs[j] = 1.0 / n
            return n
        while i < N and self.skippable(p, T, meta, i):
            i += 1
        if i >= N or (meta[0][i] & 15) != cp + 1:
            return 0
        act = T[0][i]
        nexti[0] = i + 1
        if cp != p and ph == PH_PLAY and A_FAERIE <= act < A_FAERIE + MAX_GOALS:
            if self.holds(cp, FAERIE) == 0:
                return 0
            n = 0
            for g in range(self.num_goals):
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == cp:
                    outs[n] = A_FAERIE + g
                    n += 1
            for j in range(n):
                probs[j] = 1.0 / n
            return n
        outs[0] = act
        return 1

    cdef bint walk_world(self, int p, Rng* rng, vector[int]* T, vector[int]* meta, int last,
                         vector[Event]* want, bint search) noexcept nogil:
        """Build a world on `self` along the true history's public skeleton.

        search=False: one exact rejection attempt (free choices drawn by their
        proposal probabilities; False as soon as `p`'s view differs).
        search=True: depth-first search over every free choice, in random
        order, backtracking at each difference; complete (False only if `p`'s
        information set is empty, which cannot happen)."""
        cdef int outs[MAX_BRANCHING]
        cdef double probs[MAX_BRANCHING]
        cdef int odr[NT]
        cdef int i = 0, k = 0, n, nexti, j, a, t, cur_gen, target, tmp
        cdef size_t logpos = 0
        cdef double acc, u
        cdef bint ok, other_draw
        # search frames: options (flat), and per frame its start, end, next
        # option, skeleton index after it, wanted-event count and path length
        cdef vector[int] opts, fstart, fend, fnext, fnexti, fk, fdepth, path
        for t in range(NT):
            odr[t] = 0
        self.to_initial()
        cur_gen = 0
        if not self.check_events(p, want, &logpos, &k):
            return False
        while True:
            if i > last and k == <int>want.size():
                return True
            ok = not self.is_terminal()
            n = 0
            if ok:
                n = self.node_options(p, T, meta, i, &nexti, want, k, odr, outs, probs, &acc)
                ok = n > 0
            if not search:
                if not ok or (acc < 1.0 and rng_double(rng) >= acc):
                    return False
                a = outs[n - 1]
                if n > 1:
                    u = rng_double(rng)
                    for j in range(n - 1):
                        u -= probs[j]
                        if u < 0.0:
                            a = outs[j]
                            break
                if not self.walk_step(p, a, &cur_gen, odr) \
                        or not self.check_events(p, want, &logpos, &k):
                    return False
                i = nexti
                continue
            if ok:
                fstart.push_back(<int>opts.size())
                for j in range(n - 1, 0, -1):
                    tmp = rng_int(rng, j + 1)
                    a = outs[j]
                    outs[j] = outs[tmp]
                    outs[tmp] = a
                for j in range(n):
                    opts.push_back(outs[j])
                fend.push_back(<int>opts.size())
                fnext.push_back(fstart.back())
                fnexti.push_back(nexti)
                fk.push_back(k)
                fdepth.push_back(<int>path.size())
            # take the next untried option of the deepest frame with one left
            while True:
                if fstart.size() == 0:
                    return False
                j = <int>fstart.size() - 1
                if fnext[j] >= fend[j]:
                    opts.resize(fstart[j])
                    fstart.pop_back()
                    fend.pop_back()
                    fnext.pop_back()
                    fnexti.pop_back()
                    fk.pop_back()
                    fdepth.pop_back()
                    continue
                a = opts[fnext[j]]
                fnext[j] += 1
                if <int>self.hist.size() != fdepth[j]:
                    path.resize(fdepth[j])
                    self.replay(path.data(), fdepth[j])
                    cur_gen = self.s.gen
                    self.recount_odr(p, odr)
                logpos = self.log.size()
                k = fk[j]
                if self.walk_step(p, a, &cur_gen, odr) \
                        and self.check_events(p, want, &logpos, &k):
                    path.push_back(a)
                    i = fnexti[j]
                    break

    cdef bint walk_step(self, int p, int a, int* cur_gen, int* odr) noexcept nogil:
        """Apply `a` if legal, keeping `odr` (per type: cards other players
        drew from the current deck generation) up to date."""
        cdef int t, ph = self.s.phase
        cdef bint other_draw = False
        if not self.legal(a):
            return False
        if (ph == PH_SETUP_CARDS or ph == PH_DRAW) and self.chance_target() != p:
            other_draw = True
        self.step(a)
        if other_draw:
            odr[a - C_CARD] += 1
        if self.s.gen != cur_gen[0]:
            cur_gen[0] = self.s.gen
            for t in range(NT):
                odr[t] = 0
        return True

    cdef void recount_odr(self, int p, int* odr) noexcept nogil:
        """`odr` recomputed from the event log (after a replay)."""
        cdef size_t e
        cdef int t
        for t in range(NT):
            odr[t] = 0
        for e in range(self.log.size()):
            if self.log[e].kind == EV_RESHUFFLE:
                for t in range(NT):
                    odr[t] = 0
            elif self.log[e].kind == EV_DRAW and self.log[e].actor != p:
                odr[self.log[e].a] += 1

    cdef int take_card(self, int q, int t, Rng* rng, vector[int]* otype, vector[int]* ogen,
                       vector[vector[int]]* hand, vector[int]* pool, vector[int]* pleft,
                       double* logq, double* qprod, vector[int]* rcand, vector[int]* rend,
                       vector[int]* rpick) noexcept nogil:
        """Remove a card of type t from q's modelled hand: a card known to be
        a t if there is one, else an unknown card, chosen with weight (t left
        in its deck generation) / (cards left in it), which becomes a t
        (`pleft`: cards left per generation, the sums of `pool`).
        Multiplies the choice's probability into `logq`, `qprod` (``mul_prob``)
        and records the unknown cards it chose among (see ``build_model``).
        -1 if impossible."""
        cdef vector[int]* h = &hand[0][q]
        cdef int i, o, j, nh = <int>h.size(), pt
        cdef double total = 0.0, x, w
        cdef double wts[MAX_HAND]
        for i in range(nh):
            if otype[0][h[0][i]] == t:
                o = h[0][i]
                h.erase(h.begin() + i)
                return o
        if nh > MAX_HAND:
            return -1
        for i in range(nh):
            o = h[0][i]
            w = 0.0
            if otype[0][o] < 0:
                pt = pool[0][ogen[0][o] * NT + t]
                if pt > 0:
                    w = pt / <double>pleft[0][ogen[0][o]]
            wts[i] = w
            total += w
        if total <= 0.0:
            return -1
        x = rng_double(rng) * total
        for i in range(nh):
            w = wts[i]
            if w <= 0.0:
                continue
            x -= w
            if x < 0.0 or i == nh - 1:
                o = h[0][i]
                mul_prob(logq, qprod, w / total)
                for j in range(nh):
                    if otype[0][h[0][j]] < 0:
                        rcand.push_back(h[0][j])
                rend.push_back(<int>rcand.size())
                rpick.push_back(o)
                otype[0][o] = t
                pool[0][ogen[0][o] * NT + t] -= 1
                pleft[0][ogen[0][o]] -= 1
                h.erase(h.begin() + i)
                return o
        return -1

    cdef bint build_model(self, int p, Rng* rng, vector[Event]* evs, vector[int]* draw_t,
                          vector[int]* gdraw_g, vector[int]* faerie_g,
                          vector[int]* give_t, double* logr_minus_q) noexcept nogil:
        """Walk `p`'s view of the events, modelling every card and goal as an
        object whose identity is fixed when `p` sees it or a public event
        needs it; then assign the still-unknown ones at random.  Reads only
        what `p` observed.  False on a dead end (the caller retries).

        `logr_minus_q`: log r(u | h) - log q(u) of the path u taken, where
        q(u) is the product of the probabilities of every random choice made
        and r(u | h) the probability that the backward kernel (uniform among
        the choices consistent with the world h drawn) retraces u; the
        importance weight of the world is w(h) r(u | h) / q(u) (rules doc,
        "Stage 2")."""
        cdef vector[int]* otype = &self.ws_otype
        cdef vector[int]* ogen = &self.ws_ogen
        cdef vector[int]* draws = &self.ws_draws
        cdef vector[int]* gives = &self.ws_gives
        cdef vector[int]* faeries = &self.ws_faeries
        cdef vector[int]* gdraws = &self.ws_gdraws
        cdef vector[int]* gid = &self.ws_gid
        cdef vector[int]* bottom = &self.ws_bottom
        cdef vector[int]* pool = &self.ws_pool
        cdef vector[int]* pleft = &self.ws_pleft
        cdef vector[int]* cand = &self.ws_cand
        cdef vector[int]* rem = &self.ws_rem
        cdef vector[int]* rcand = &self.ws_rcand
        cdef vector[int]* rend = &self.ws_rend
        cdef vector[int]* rpick = &self.ws_rpick
        cdef vector[uint64_t]* gmask = &self.ws_gmask
        cdef vector[vector[int]]* hand = &self.ws_hand
        cdef vector[vector[int]]* down = &self.ws_down
        cdef int n = self.s.n, ng = 1
        cdef int disc[NT]
        cdef int used[MAX_GOALS]
        cdef int g = 0, t, q, v, i, j, o, x, tmp, tries, ok, prc = self.num_goals
        cdef int mask_q = -1, mask_x = 0, a, k, m, left
        cdef size_t e
        cdef Event ev
        cdef double logq = 0.0, logr = 0.0, qp = 1.0, rp = 1.0, wfl = 0.0, wfp = 1.0
        cdef int he
        cdef int cnt[NT]
        # backward-kernel records: candidates rcand[rend[i-1]:rend[i]], picked rpick[i]
        for e in range(evs.size()):
            if evs[0][e].kind == EV_RESHUFFLE:
                ng += 1
        otype.clear()
        ogen.clear()
        draws.clear()
        gives.clear()
        faeries.clear()
        gdraws.clear()
        gid.clear()
        bottom.clear()
        pool.clear()
        pleft.clear()
        cand.clear()
        rem.clear()
        gmask.clear()
        rcand.clear()
        rend.clear()
        rpick.clear()
        self.ws_hl.clear()
        self.ws_gl.clear()
        self.ws_gv.clear()
        self.ws_pool0.clear()
        self.ws_pool0.resize(ng * NT)
        hand.resize(n)
        down.resize(n)
        for q in range(n):
            hand[0][q].clear()
            down[0][q].clear()
        pool.resize(ng * NT)
        pleft.resize(ng)
        for t in range(NT):
            pool[0][t] = self.counts[t]
            self.ws_pool0[t] = self.counts[t]
            pleft[0][0] += self.counts[t]
            disc[t] = 0
        for i in range(self.num_goals):
            used[i] = 0
        if self.first_fixed < 0:
            mul_prob(&wfl, &wfp, 1.0 / n)
        for e in range(evs.size()):
            ev = evs[0][e]
            k = ev.kind
            if k == EV_PASS or k == EV_ASKED:
                continue
            he = self.ws_midx[e]
            a = ev.a if (ev.vis == 0 or (ev.vis >> p) & 1) else -1
            if mask_q >= 0 and not (k == EV_FLIP and ev.actor == mask_q
                                    and self.goal_matches(ev.b, mask_x)):
                # compulsory scoring: the goals left face down do not show mask_x
                if mask_x <= MAX_GOLD:
                    for i in range(<int>down[0][mask_q].size()):
                        o = down[0][mask_q][i]
                        if gid[0][o] >= 0 and self.goal_matches(gid[0][o], mask_x):
                            return False
                        gmask[0][o] |= (<uint64_t>1) << mask_x
                mask_q = -1
            if k == EV_DRAW:
                if g >= ng:
                    return False
                otype.push_back(a)
                ogen.push_back(g)
                if a >= 0:
                    pool[0][g * NT + a] -= 1
                    pleft[0][g] -= 1
                    if pool[0][g * NT + a] < 0:
                        return False
                hand[0][ev.actor].push_back(<int>otype.size() - 1)
                draws.push_back(<int>otype.size() - 1)
                push_change(&self.ws_hl, he, ev.actor, <int>otype.size() - 1, 1)
            elif k == EV_RESHUFFLE:
                g += 1
                if g >= ng:
                    return False
                for t in range(NT):
                    pool[0][g * NT + t] = disc[t]
                    self.ws_pool0[g * NT + t] = disc[t]
                    pleft[0][g] += disc[t]
                    disc[t] = 0
            elif k == EV_PLAY:
                t = _card_of_action_c(ev.b)
                disc[t] += 1
                o = self.take_card(ev.actor, t, rng, otype, ogen, hand, pool, pleft, &logq, &qp,
                                   rcand, rend, rpick)
                if o < 0:
                    return False
                push_change(&self.ws_hl, he, ev.actor, o, -1)
                if ev.b == A_FAERIE:
                    q = ev.actor
                    o = -1
                    if q == p:
                        for i in range(<int>down[0][q].size()):
                            if gid[0][down[0][q][i]] == a:
                                o = i
                    elif down[0][q].size() > 0:
                        o = rng_int(rng, <int>down[0][q].size())
                        mul_prob(&logq, &qp, 1.0 / down[0][q].size())
                        mul_prob(&wfl, &wfp, 1.0 / down[0][q].size())
                    if o < 0:
                        return False
                    x = down[0][q][o]
                    push_change(&self.ws_gl, he, q, x, -1)
                    down[0][q].erase(down[0][q].begin() + o)
                    bottom.push_back(x)
                    faeries.push_back(x)
            elif k == EV_GIVE:
                v = ev.actor
                if v != p:
                    push_change(&self.ws_gv, he, v, -1, 0)
                if a >= 0:
                    o = self.take_card(v, a, rng, otype, ogen, hand, pool, pleft, &logq, &qp,
                                       rcand, rend, rpick)
                    if o < 0:
                        return False
                else:
                    if hand[0][v].size() == 0:
                        return False
                    i = rng_int(rng, <int>hand[0][v].size())
                    o = hand[0][v][i]
                    mul_prob(&logq, &qp, 1.0 / hand[0][v].size())
                    for j in range(<int>hand[0][v].size()):
                        rcand.push_back(hand[0][v][j])
                    rend.push_back(<int>rcand.size())
                    rpick.push_back(o)
                    hand[0][v].erase(hand[0][v].begin() + i)
                hand[0][ev.b].push_back(o)
                gives.push_back(o)
                push_change(&self.ws_hl, he, v, o, -1)
                push_change(&self.ws_hl, he, ev.b, o, 1)
            elif k == EV_DEAL_GOAL or k == EV_FAERIE_GOAL:
                q = ev.actor
                if prc > 0:
                    mul_prob(&wfl, &wfp, 1.0 / prc)
                    prc -= 1
                    if a >= 0:
                        if used[a]:
                            return False
                        used[a] = 1
                    gid.push_back(a)
                    gmask.push_back(0)
                    o = <int>gid.size() - 1
                    gdraws.push_back(o)
                else:
                    if bottom.size() == 0:
                        return False
                    o = bottom[0][0]
                    bottom.erase(bottom.begin())
                    if a >= 0:
                        if gid[0][o] < 0:
                            if used[a] or self.mask_hits(gmask[0][o], a):
                                return False
                            gid[0][o] = a
                            used[a] = 1
                        elif gid[0][o] != a:
                            return False
                down[0][q].push_back(o)
                push_change(&self.ws_gl, he, q, o, 1)
            elif k == EV_FLIP:
                q = ev.actor
                x = ev.b
                o = -1
                for i in range(<int>down[0][q].size()):
                    if gid[0][down[0][q][i]] == x:
                        o = i
                if o < 0:
                    if used[x]:
                        return False
                    cand.clear()
                    for i in range(<int>down[0][q].size()):
                        if gid[0][down[0][q][i]] < 0 and not self.mask_hits(gmask[0][down[0][q][i]], x):
                            cand.push_back(i)
                    if cand.size() == 0:
                        return False
                    o = cand[0][rng_int(rng, <int>cand.size())]
                    mul_prob(&logq, &qp, 1.0 / cand.size())
                    gid[0][down[0][q][o]] = x
                    used[x] = 1
                push_change(&self.ws_gl, he, q, down[0][q][o], -1)
                down[0][q].erase(down[0][q].begin() + o)
            elif k == EV_SCORE:
                mask_q = ev.actor
                mask_x = ev.b
        # Cards still unknown: a uniform arrangement of what is left of
        # their deck generation (the rest of the last one is the deck).
        for g in range(ng):
            rem.clear()
            cand.clear()
            for t in range(NT):
                for i in range(pool[0][g * NT + t]):
                    rem.push_back(t)
            for o in range(<int>otype.size()):
                if otype[0][o] < 0 and ogen[0][o] == g:
                    cand.push_back(o)
            if cand.size() > rem.size() or (g < ng - 1 and cand.size() != rem.size()):
                return False
            for i in range(<int>rem.size() - 1, 0, -1):
                j = rng_int(rng, i + 1)
                tmp = rem[0][i]
                rem[0][i] = rem[0][j]
                rem[0][j] = tmp
            # q of the type sequence given to cand: sequential draws without
            # replacement from what is left
            for t in range(NT):
                cnt[t] = pool[0][g * NT + t]
            left = <int>rem.size()
            for i in range(<int>cand.size()):
                otype[0][cand[0][i]] = rem[0][i]
                mul_prob(&logq, &qp, cnt[rem[0][i]] / <double>left)
                cnt[rem[0][i]] -= 1
                left -= 1
        # Goals still unknown: each in turn gets an unused id uniformly among
        # those its "does not show x" facts allow (a dead end fails).
        for o in range(<int>gid.size()):
            if gid[0][o] >= 0:
                continue
            cand.clear()
            for i in range(self.num_goals):
                if not used[i] and not self.mask_hits(gmask[0][o], i):
                    cand.push_back(i)
            if cand.size() == 0:
                return False
            x = cand[0][rng_int(rng, <int>cand.size())]
            mul_prob(&logq, &qp, 1.0 / cand.size())
            gid[0][o] = x
            used[x] = 1
        # r(u | h): uniform among the recorded candidates of the picked type
        j = 0
        for i in range(<int>rpick.size()):
            m = 0
            while j < rend[0][i]:
                if otype[0][rcand[0][j]] == otype[0][rpick[0][i]]:
                    m += 1
                j += 1
            if m <= 0:
                return False
            mul_prob(&logr, &rp, 1.0 / m)
        logr_minus_q[0] = logr + log(rp) - logq - log(qp)
        self.ws_wfix = wfl + log(wfp)
        # a scoring the view ends with: would a goal left face down flip?
        self.ws_flip_pending = False
        if mask_q >= 0 and mask_x <= MAX_GOLD:
            for i in range(<int>down[0][mask_q].size()):
                if self.goal_matches(gid[0][down[0][mask_q][i]], mask_x):
                    self.ws_flip_pending = True
        for i in range(<int>draws.size()):
            draw_t.push_back(otype[0][draws[0][i]])
        for i in range(<int>gdraws.size()):
            gdraw_g.push_back(gid[0][gdraws[0][i]])
        for i in range(<int>faeries.size()):
            faerie_g.push_back(gid[0][faeries[0][i]])
        for i in range(<int>gives.size()):
            give_t.push_back(otype[0][gives[0][i]])
        return True

    cdef double model_weight(self, int p, int nwant, int* verdict) noexcept nogil:
        """log w(h) of the world the last ``build_model`` drew, without
        replaying it: the factors known during the walk (``ws_wfix``), each
        card draw's odds (from each generation's first pool), and, from the
        windows of a recorded replay of another world of the same
        information set (``rec``, the same seats in the same order), 1 / (1 +
        answers) for each seat a window reached that did not answer publicly
        (1 when it could not answer: it was not asked), and 1 / (card types
        held) at each unseen Give decision.

        `verdict`: whether the world is in the information set (its replay
        would stop where the view ends): 1 if a window seat reached after
        the view's last event can answer (it is asked: the world stops
        there), or the recorded replay stopped at a node no hidden card
        decides (``tail_kind`` TAIL_FIXED), or at another player's Give
        decision that this world's victim also faces (two card types held or
        more); 0 if that victim holds one type (the card would be given at
        once, an event the view does not have) or if the view ends with a
        scoring that would flip one of this world's face-down goals; -1 if
        unknown (the recorded
        replay stopped at a window seat this world passes: replay it)."""
        cdef vector[int]* otype = &self.ws_otype
        cdef vector[int]* ogen = &self.ws_ogen
        cdef vector[int]* gid = &self.ws_gid
        cdef vector[int]* deck = &self.ws_deck
        cdef vector[int]* ttot = &self.ws_ttot
        cdef int cnt[MAXP][NT]
        cdef int held[MAXP]
        cdef int dn[MAXP]
        cdef int dg[MAXP][MAX_GOALS]
        cdef int tot, g, t, o, i, j, q, m, opts, ih = 0, ig = 0, iv = 0, ir = 0, pos, ng
        cdef int nh = <int>self.ws_hl.size(), nl = <int>self.ws_gl.size()
        cdef int nv = <int>self.ws_gv.size(), nr = <int>self.rec.size()
        cdef double lw = self.ws_wfix, wp = 1.0
        cdef Consid* c
        cdef HChange* h
        verdict[0] = -1
        ng = <int>self.ws_pool0.size() // NT
        deck[0] = self.ws_pool0
        ttot.assign(ng, 0)
        for g in range(ng):
            for t in range(NT):
                ttot[0][g] += deck[0][g * NT + t]
        for i in range(<int>self.ws_draws.size()):
            o = self.ws_draws[i]
            t = otype[0][o]
            g = ogen[0][o]
            if deck[0][g * NT + t] <= 0:
                return -INFINITY
            mul_prob(&lw, &wp, deck[0][g * NT + t] / <double>ttot[0][g])
            deck[0][g * NT + t] -= 1
            ttot[0][g] -= 1
        memset(cnt, 0, sizeof(cnt))
        memset(held, 0, sizeof(held))
        memset(dn, 0, sizeof(dn))
        while ir < nr or iv < nv:
            # the next window seat or Give decision, in event order
            if ir < nr and (iv >= nv or self.rec[ir].k <= self.ws_gv[iv].e):
                pos = self.rec[ir].k
            else:
                pos = self.ws_gv[iv].e
            while ih < nh and self.ws_hl[ih].e < pos:
                h = &self.ws_hl[ih]
                t = otype[0][h.o]
                cnt[h.q][t] += h.d
                if cnt[h.q][t] > 0:
                    held[h.q] |= 1 << t
                else:
                    held[h.q] &= ~(1 << t)
                ih += 1
            while ig < nl and self.ws_gl[ig].e < pos:
                h = &self.ws_gl[ig]
                if h.d > 0:
                    dg[h.q][dn[h.q]] = gid[0][h.o]
                    dn[h.q] += 1
                else:
                    for j in range(dn[h.q]):
                        if dg[h.q][j] == gid[0][h.o]:
                            dg[h.q][j] = dg[h.q][dn[h.q] - 1]
                            dn[h.q] -= 1
                            break
                ig += 1
            if ir < nr and self.rec[ir].k == pos:
                c = &self.rec[ir]
                ir += 1
                if c.pub:
                    continue
                q = c.q
                opts = 0
                if c.gold < 0:
                    opts = popcount64(<uint64_t>(c.mask & held[q]))
                elif cnt[q][NINJA] > 0:
                    for j in range(dn[q]):
                        if self.goal_matches(dg[q][j], c.gold):
                            opts += 1
                if c.k >= nwant:
                    # after the view's last event: a seat that can answer is
                    # asked, and the world stops there
                    if opts > 0:
                        verdict[0] = 1
                        break
                elif opts > 0:
                    mul_prob(&lw, &wp, 1.0 / (1 + opts))
            else:
                q = self.ws_gv[iv].q
                iv += 1
                m = popcount64(<uint64_t>held[q])
                if m > 1:
                    mul_prob(&lw, &wp, 1.0 / m)
        if self.ws_flip_pending:
            # the view ends with a scoring that this world's goals would add to
            verdict[0] = 0
        elif verdict[0] < 0:
            if self.tail_kind == TAIL_FIXED:
                verdict[0] = 1
            elif self.tail_kind == TAIL_GIVE:
                while ih < nh and self.ws_hl[ih].e < nwant:
                    h = &self.ws_hl[ih]
                    cnt[h.q][otype[0][h.o]] += h.d
                    ih += 1
                m = 0
                for t in range(NT):
                    if cnt[self.tail_q][t] > 0:
                        m += 1
                verdict[0] = 1 if m > 1 else 0
        return lw + log(wp)

    cdef bint mask_hits(self, uint64_t mask, int g) noexcept nogil:
        cdef int a = self.goal_a[g], b = self.goal_b[g]
        return (a <= MAX_GOLD and (mask >> a) & 1) or (b <= MAX_GOLD and (mask >> b) & 1)

    cdef inline bint skippable(self, int p, vector[int]* T, vector[int]* meta, int i) noexcept nogil:
        """A step of the true history whose existence `p` cannot see: another
        player's window pass or Give choice (they follow from hidden hands)."""
        cdef int d = (meta[0][i] & 15) - 1, act = T[0][i]
        return d >= 0 and d != p and (act == A_PASS or A_GIVE <= act < A_GIVE + NT)

    cdef bint build_world(self, int p, vector[Event]* want, vector[int]* T, vector[int]* meta,
                          int last, vector[int]* draw_t, vector[int]* gdraw_g,
                          vector[int]* faerie_g, vector[int]* give_t, double* logw,
                          bint rec=False, bint loud=False) noexcept nogil:
        """Replay the true history's skeleton on `self` with the model's hidden
        outcomes, silently (``silent_event``); True if the result is in `p`'s
        information set (its view of the events is `want`, all of it, and the
        skeleton is used up to `last`).  `self.hist` is then the world's
        history, but the log, the hashes and ``hmeta`` are not built (replay
        the history to get the state).  `logw`: log of the target weight w(h)
        of the world (chance probabilities, 1 / legal Gives at another
        player's Give, 1 / face-down goals at another player's Faerie play,
        1 / legal answers at another player's unrecorded window pass).
        `rec`: record the seats the windows reach in ``self.rec``
        (``record_seat``; ``rec_bad`` if a public answer does not match).
        `loud`: build the log, hashes and ``hmeta`` too (`self` is then the
        world, if accepted)."""
        cdef bint ok
        self.sil_rec = rec
        self.sil_loud = loud
        self.rec_bad = False
        if rec:
            self.rec.clear()
        self.sil_p = p
        self.sil_want = want
        self.sil_k = 0
        self.sil_gives = 0
        self.sil_bad = False
        ok = self.silent_world(p, T, meta, last, draw_t, gdraw_g, faerie_g, give_t, logw)
        if rec and ok:
            self.tail_kind = TAIL_FIXED
            self.tail_q = -1
            if not self.is_terminal() and self.current_player() != p \
                    and self.current_player() != CHANCE_PLAYER:
                if self.s.phase == PH_GIVE:
                    self.tail_kind = TAIL_GIVE
                    self.tail_q = self.s.decider
                elif self.s.phase == PH_RESPOND or self.s.phase == PH_NINJA:
                    self.tail_kind = TAIL_WINDOW
                    self.tail_q = self.s.decider
        self.sil_rec = False
        self.sil_loud = False
        self.sil_p = -1
        self.sil_want = NULL
        return ok

    cdef bint silent_world(self, int p, vector[int]* T, vector[int]* meta, int last,
                           vector[int]* draw_t, vector[int]* gdraw_g, vector[int]* faerie_g,
                           vector[int]* give_t, double* logw) noexcept nogil:
        """The replay of ``build_world`` (silent mode already set)."""
        cdef int N = <int>T.size(), i = 0, j, found, cp, ph, act, wkey, n, g, t, tot
        cdef int di = 0, gi = 0, fi = 0, vi, nwant = <int>self.sil_want.size()
        cdef int outs[MAX_BRANCHING]
        cdef double lw = 0.0, wp = 1.0
        logw[0] = 0.0
        self.to_initial()
        while not self.is_terminal():
            if self.sil_bad:
                return False
            if i > last and self.sil_k == nwant:
                break
            cp = self.current_player()
            ph = self.s.phase
            if cp == CHANCE_PLAYER:
                while i < N and self.skippable(p, T, meta, i):
                    i += 1
                if i >= N or (meta[0][i] & 15) != 0:
                    return False
                if ph == PH_FIRST:
                    act = T[0][i]
                    if not C_FIRST <= act < C_FIRST + self.s.n:
                        return False
                    mul_prob(&lw, &wp, 1.0 / self.s.n)
                elif ph == PH_SETUP_CARDS or ph == PH_DRAW:
                    if di >= <int>draw_t.size():
                        return False
                    t = draw_t[0][di]
                    di += 1
                    if self.s.deck[t] <= 0:
                        return False
                    mul_prob(&lw, &wp, self.s.deck[t] / <double>self.deck_total())
                    act = C_CARD + t
                else:
                    if gi >= <int>gdraw_g.size():
                        return False
                    g = gdraw_g[0][gi]
                    gi += 1
                    if self.s.goal_loc[g] != G_PILE:
                        return False
                    mul_prob(&lw, &wp, 1.0 / self.pile_random())
                    act = C_GOAL + g
                i += 1
                self.step(act)
                continue
            if cp != p and (ph == PH_RESPOND or ph == PH_NINJA):
                wkey = (self.s.npub << 4) | (cp + 1)
                found = -1
                j = i
                while j < N:
                    if meta[0][j] == wkey:
                        found = j
                        break
                    if not self.skippable(p, T, meta, j):
                        break
                    j += 1
                if found >= 0:
                    act = T[0][found]
                    i = found + 1
                else:
                    act = A_PASS
                if act != A_PASS and self.sil_rec:
                    if self.rec.size() > 0 and self.rec.back().q == cp:
                        self.rec.back().pub = 1
                    else:
                        self.rec_bad = True
                if act == A_PASS:
                    # A_PASS is always legal here
                    mul_prob(&lw, &wp, 1.0 / self.legal_actions(outs))
                    self.step(act)
                    continue
            elif cp != p and ph == PH_GIVE:
                vi = self.sil_gives
                if vi >= <int>give_t.size():
                    return False
                act = A_GIVE + give_t[0][vi]
                n = self.legal_actions(outs)
                if n <= 0:
                    return False
                mul_prob(&lw, &wp, 1.0 / n)
            else:
                while i < N and self.skippable(p, T, meta, i):
                    i += 1
                if i >= N or (meta[0][i] & 15) != cp + 1:
                    return False
                act = T[0][i]
                i += 1
                if ph == PH_PLAY and A_FAERIE <= act < A_FAERIE + MAX_GOALS:
                    if fi >= <int>faerie_g.size():
                        return False
                    if cp != p:
                        act = A_FAERIE + faerie_g[0][fi]
                        n = 0
                        for g in range(self.num_goals):
                            if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == cp:
                                n += 1
                        if n <= 0:
                            return False
                        mul_prob(&lw, &wp, 1.0 / n)
                    fi += 1
            if not self.legal(act):
                return False
            self.step(act)
        logw[0] = lw + log(wp)
        return not self.sil_bad and i > last and self.sil_k == nwant

    # ------------------------------------------------------------ clone
    cdef Engine clone(self):
        cdef GoldThiefEngine e = GoldThiefEngine.__new__(GoldThiefEngine)
        e.set_params(self.params)
        e.copy_from(self)
        return e

    cdef void copy_from(self, Engine other) noexcept:
        cdef GoldThiefEngine o = <GoldThiefEngine>other
        self.copy_base(other)
        self.s = o.s
        self.log = o.log
        self.hmeta = o.hmeta

    # ================================================================ Python
    # Everything below is for adapters, tests and people; never on a hot path.

    def action_to_string(self, int player, int action) -> str:
        """Readable name of `action` (a chance outcome when player == -1)."""
        return _gt_action_to_string(self, player, action)

    def goal_str(self, int g) -> str:
        """Goal card g as printed, e.g. '[4 or 10]' (with '#g' if two cards print alike)."""
        return _gt_goal_str(self, g)

    def visible_events(self, int player) -> list:
        """The events `player` observed, in order, as (kind, actor, detail, public
        detail) with detail -1 where `player` did not see it.  Strings, tensors
        and the player view are rendered from this list (and keys hash it)."""
        self._check_player(player)
        out = []
        cdef size_t i
        cdef Event ev
        for i in range(self.log.size()):
            ev = self.log[i]
            if (ev.kind == EV_PASS or ev.kind == EV_ASKED) and ev.actor != player:
                continue
            sees = ev.vis == 0 or (ev.vis >> player) & 1
            out.append((ev.kind, ev.actor, ev.a if sees else -1, ev.b))
        return out

    def info_string(self, int player) -> str:
        """Everything `player` has observed, in order (perfect recall)."""
        return _gt_info_string(self, player)

    def player_view(self, int player):
        """What `player` knows now, as typed fields (``src_cy.gold_thief.view.GoldThiefView``)."""
        return _gt_player_view(self, player)

    def obs_string(self, int player) -> str:
        """What `player` sees now (rendered from ``player_view``)."""
        return _gt_obs_string(self, player)

    def render(self) -> str:
        """The whole table, hidden cards included (for people, not players)."""
        return _gt_render(self)

    # ---- whole-state accessors (tests and people; players read ``player_view``)
    def hand(self, int player) -> list:
        """Card types in `player`'s hand (order not meaningful)."""
        self._check_player(player)
        return [self.s.hand_type[player][i] for i in range(self.s.hand_n[player])]

    def goals_down(self, int player) -> list:
        self._check_player(player)
        return [g for g in range(self.num_goals)
                if self.s.goal_loc[g] == G_DOWN and self.s.goal_owner[g] == player]

    def goals_up(self, int player) -> list:
        self._check_player(player)
        return [g for g in range(self.num_goals)
                if self.s.goal_loc[g] == G_UP and self.s.goal_owner[g] == player]

    def goal_numbers(self, int g) -> tuple:
        return (self.goal_a[g], self.goal_b[g])

    def public_view(self) -> dict:
        """Everything public: gold, counts, face-up goals, discards, deck size."""
        return {
            "gold": [self.s.gold[q] for q in range(self.s.n)],
            "hand_sizes": [self.s.hand_n[q] for q in range(self.s.n)],
            "face_down_counts": [self.down_count(q) for q in range(self.s.n)],
            "face_up": [self.goals_up(q) for q in range(self.s.n)],
            "deck": [self.s.deck[t] for t in range(NT)],
            "discard": [self.s.disc[t] for t in range(NT)],
            "turn": self.s.turn,
            "active": self.s.active,
            "phase": _PHASE_NAMES[self.s.phase],
            "winner": self.s.winner,
            "pending": [(self.s.stack[i].kind, self.s.stack[i].player,
                         self.s.stack[i].victim, self.s.stack[i].beneficiary,
                         bool(self.s.stack[i].canceled)) for i in range(self.s.sp)],
        }

    def gold(self) -> list:
        return [self.s.gold[q] for q in range(self.s.n)]

    def _check_player(self, int player):
        if not 0 <= player < self.s.n:
            raise ValueError(f"player must be in [0, {self.s.n - 1}], got {player}")

    # ---- tensors
    def obs_tensor_size(self) -> int:
        return _gt_obs_tensor_size(self)

    def event_slots(self) -> int:
        """Length of the event sequence in the information-state tensor: a
        bound on the events one player can observe (see the rules doc)."""
        return _gt_event_slots(self)

    def info_tensor_size(self) -> int:
        return _gt_info_tensor_size(self)

    def fill_obs_tensor(self, int player, float[:] out) -> None:
        """Current view of `player`, rendered from ``player_view``."""
        return _gt_fill_obs_tensor(self, player, out)

    def fill_info_tensor(self, int player, float[:] out) -> None:
        """The observation tensor, then four scaled fields per event `player`
        observed (kind, actor, seen detail, public detail; rules doc)."""
        return _gt_fill_info_tensor(self, player, out)

    # ---- snapshot
    def dump(self) -> bytes:
        """Snapshot: format tag, game string, player count and the history."""
        return _gt_dump(self)

    def load(self, data) -> None:
        """Restore a ``dump()`` by replaying its history (each action checked);
        anything malformed raises ValueError and leaves the engine as it was."""
        return _gt_load(self, data)

    def check_invariants(self) -> None:
        """Ranges, and conservation of cards, goals and gold; ValueError names
        the broken invariant."""
        return _gt_check_invariants(self)


def _card_of_action(int b) -> int:
    """Card type played by player action `b`."""
    return _card_of_action_c(b)


include "render.pxi"
include "persist.pxi"
