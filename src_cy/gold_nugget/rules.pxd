# cython: language_level=3
"""Gold Nugget rules kernel declarations: the state struct, the parameters
and ``GoldNuggetRules``, the rules engine every other module of this game
works on (``resample.pyx``, ``render.pyx``, ``persist.pyx``, and
``engine.pyx``, whose ``GoldNuggetEngine`` is the final class).

The state is one C struct (``GN``) plus a growable event log of
``src_cy/events.pxd`` records (``Event``, built by ``ev``): ``seers`` are
the players who see the record (``pub``: all of them).  A player's
information state is the sequence of records they see, and their
information key is the hash of exactly that sequence of records' codes
(``ev_code``).  A resampling walk replays the rules
in *lazy* mode (``GN.lazy``): stone faces and other players' cards stay
open until they matter; the ``rs_*`` functions below are what the rules
do with them (rules.pyx), the walks themselves are ``resample.pyx``.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t
from libcpp.vector cimport vector

from src_cy.engine cimport Engine, Rng
from src_cy.events cimport Event, EVENT_NONE
from src_cy.gold_nugget.actions cimport MAXP, MAXS, NLEAF, NWIND, NCARD, A_DISCARD

cdef extern from *:
    """
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* Bit k set when h[k] > 0, for the 16 counts h[0..15]. */
    static inline unsigned int gn_positive16(const signed char* h) {
    #if defined(__SSE2__)
        return (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(
            _mm_loadu_si128((const __m128i*)h), _mm_setzero_si128()));
    #else
        unsigned int m = 0;
        for (int k = 0; k < 16; k++)
            m |= (unsigned int)(h[k] > 0) << k;
        return m;
    #endif
    }
    /* The first i < n (n <= 24) with a[i] == v, -1 if none; a holds 24 values. */
    static inline int gn_find24(const signed char* a, int n, int v) {
    #if defined(__SSE2__)
        const __m128i x = _mm_set1_epi8((char)v);
        unsigned int m = (unsigned int)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)a), x));
        m |= (unsigned int)(_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i*)(a + 16)), x)) & 0xFF) << 16;
        m &= (1u << n) - 1u;
        return m ? __builtin_ctz(m) : -1;
    #else
        for (int i = 0; i < n; i++)
            if (a[i] == v)
                return i;
        return -1;
    #endif
    }
    /* Bit i set when a[i] == v, for the 8 values a[0..7]. */
    static inline unsigned int gn_equal8(const signed char* a, int v) {
    #if defined(__SSE2__)
        return (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_loadl_epi64((const __m128i*)a), _mm_set1_epi8((char)v))) & 0xFFu;
    #else
        unsigned int m = 0;
        for (int i = 0; i < 8; i++)
            m |= (unsigned int)(a[i] == v) << i;
        return m;
    #endif
    }
    """
    unsigned int gn_positive16(const int8_t* h) noexcept nogil
    unsigned int gn_equal8(const int8_t* a, int v) noexcept nogil
    int gn_find24(const int8_t* a, int n, int v) noexcept nogil

cdef enum:
    MAXBL = 16       # unknown cards one hand can hold in a resampling walk
    # the length of GN's per-seat int8_t arrays: MAXP rounded up to a multiple
    # of 4, so the state has no padding (its copies and comparisons are bytewise)
    SEATS8 = 8
    BLANK = NCARD    # walk-only chance outcome: an unknown leaf card
    UNK = 32         # walk-only chance outcome UNK + k: card k from the unknown part
    A_GIVE_UNKNOWN = A_DISCARD + NLEAF   # walk-only Beg answer (never legal there): an unknown card

cdef struct Eff:
    int card
    int actor
    int step
    int t1
    int t2
    int s1
    int idx
    int cnt
    int ctx
    int last
    int npend      # acquired stones awaiting their acquirer's examine decision
    int pstage     # the first one's examine decision is taken: it is placed next
    uint32_t pfixed  # bit j: the j-th one keeps its slot (a swap), no placing
    int pend_s[MAXP + 2]
    int pend_w[MAXP + 2]
    int dk
    int who        # decision maker


cdef struct WChoice:
    # one choice point of a resampling search: the node it belongs to, the
    # seed of its random order, and the position in that order taken now
    int node
    uint64_t seed
    int pos
    int nvalid
    # the order drawn so far (rs_nth): draws made, the last option drawn, and
    # once a later position is needed, where the remaining weights are kept
    # in ``wcache`` (-1: not kept), where this choice point's keeping may
    # start, the options' count, the generator's state and the weight left
    int drawn
    int last
    int coff
    int cbase
    int cn
    uint64_t crs
    double ctot


cdef struct GN:
    # parameters
    int n
    int days
    int advanced
    int abilities
    int utility
    int hand_size
    int start_stones
    int deal_animals
    int hello_discard
    int animal_mask
    int nnormal
    int ntrap
    int nfeathers
    int max_moves
    int opening_window   # an instant window opens before the holder's first play
    int place_stones     # acquired stones are placed by choice (else appended)
    int ncards           # every card of the game (leaf and wind)
    int8_t leaf_init[NLEAF]
    int wind_init[NWIND]
    # int8_t keeps the state small, and a copy cheap: a card count (``hand``,
    # ``pool``, ``discard``, ``leaf_init``) is at most 30, the largest count;
    # a lair holds at most MAXS stones (``lairn``), a stone id (``lair``,
    # ``nest``, ``got``) is below MAXS, a face -1 to 2, a card id below 64,
    # an animal id below 12 (or -1), feathers at most 30, blanks at most MAXBL
    int deck[NCARD]
    int8_t hand[MAXP][NLEAF]
    int handn[MAXP]
    int8_t discard[NLEAF]
    int boxed[NWIND]
    int reshuffled
    # stones
    int nstones
    int8_t face[MAXS]
    int8_t lair[MAXP][MAXS]
    int8_t lairn[SEATS8]
    int8_t nest[MAXS]
    int nestn
    uint32_t knows[MAXP]
    # feathers
    int8_t feathers[SEATS8]
    int nest_feathers
    # animals, times, victory cards
    int8_t animal[SEATS8]
    int8_t offer[SEATS8][2]
    int animals_left
    int8_t tod[SEATS8]
    int tod_left[4]
    int8_t vc[SEATS8]
    int8_t vc_played[SEATS8]
    int vc_left
    # time
    int holder
    int time
    int day
    int8_t asleep[SEATS8]
    int8_t waking[SEATS8]
    int8_t elim[SEATS8]
    # flow
    int phase
    int cp
    int deal_i
    int order_i
    int special_used
    int plays
    int ability_used
    int final
    int nmoves
    Eff eff
    int8_t facedown[SEATS8]
    int8_t fdrec[SEATS8]  # the face-down card is recycled when it resolves
    int grab[MAXP]
    int8_t got[SEATS8]
    int winners
    int nlog
    # --- the lazy world of a resampling walk (lazy = 0 in every real game):
    # stone faces (-1) and other players' cards (blanks) are drawn when they
    # first matter, conditioned on the walking player's observations.
    int any_instant  # the game has instant cards at all (a parameter)
    uint32_t grabbed # lair stones taken in the final grab (they stay until revealed)
    int lazy
    int wdead        # the walk broke the walking player's observations
    int pcount       # events the walking player has observed so far
    int frem[3]      # faces not yet given to any stone
    uint32_t notnug  # open stones the walk decided are not the Gold Nugget
    uint32_t nottrap # open stones the walk decided are not traps
    int8_t pool[NLEAF]  # leaf cards whose whereabouts are unknown (deck or blanks)
    int deck_unk     # unknown cards in the deck
    int8_t nblank[SEATS8]
    int bq[MAXP][MAXBL]   # walk-history index of the draw of each blank
    int nres
    # conflict-directed backjumping (docs/rules/gold_nugget.md, "Resampling"):
    # the latest choice point (index into the walk's choice points, -1: none)
    # that placed each stone token or decided something about its face, that
    # gave each face to a token, and that excluded a face from any token
    int tcp[MAXS]
    int fcp[3]
    int xcp
    # and per lair (index NEST: the nest) the latest choice point that changed
    # its arrangement (which stone lies in which slot), directly or through
    # the lair a stone came from
    int lcp[MAXP + 1]
    int wconf        # the culprit of the current dead end (-1: backtrack chronologically)

# Gold Nugget's events in the shared record: ``actor`` is the seat (or the
# owner, for a stone's destination) the event is about, ``a``, ``b``, ``c``
# and ``secret`` its further details per kind (``render.event_text`` names
# them; ``secret``: the fifth detail, a flag or a count); an unused detail
# is 0 in every field, as in the code.  The whole record is seen by its
# ``seers`` only (``log`` sets them); private details are separate records.
cdef inline Event ev(int kind, int actor, int a, int b, int c, int secret) noexcept nogil:
    """An event record (``log`` sets who sees it)."""
    cdef Event e
    e.kind = kind
    e.actor = actor
    e.pub = 0
    e.a = a
    e.b = b
    e.c = c
    e.secret = secret
    e.seers = 0
    return e


cdef inline uint32_t ev_code(const Event* e) noexcept nogil:
    """The record's 32-bit code: its six details in bit fields of 6, 4, 4,
    6, 6 and 6 bits (kind, actor, a, b, c, secret); the token information
    keys hash, and the information-state tensor's six fields."""
    return (<uint32_t>e.kind) | (<uint32_t>e.actor << 6) | (<uint32_t>e.a << 10) | \
        (<uint32_t>e.b << 14) | (<uint32_t>e.c << 20) | (<uint32_t>e.secret << 26)


cdef class GoldNuggetParams:
    cdef GN g0                 # the initial state (``restart`` copies it)
    cdef readonly int players
    cdef dict _values


cdef class GoldNuggetRules(Engine):
    cdef GN g
    cdef readonly GoldNuggetParams params
    cdef const GN* g0          # the initial state (``params``; ``restart``)
    cdef Event* events         # the event log (``GN.nlog`` records)
    cdef int* logh             # history index of the action that logged each event
    cdef int logcap
    cdef vector[int] hact      # player who took each history action (-1 chance)
    # resampling walk context (the lazy rules below, resample.pyx)
    cdef const Event* wexp     # the walking player's true events ...
    cdef const uint32_t* wcode # ... and their codes
    cdef int wT
    cdef int wP
    cdef Rng* wrng
    cdef vector[WChoice] wch   # the search's choice points, oldest first
    cdef vector[double] wcache # the weights left of choice points' orders (WChoice.coff)
    cdef vector[GN] wsnap      # the walk's state before each node (node = history index)
    cdef int wsn               # records of wsnap that are the current walk's (the vector keeps its size)
    cdef vector[int] wsres     # resolutions recorded before each node
    cdef vector[int] wspi      # P's actions applied before each node
    cdef vector[int] wscp      # choice points made before each node
    cdef int wrep              # next choice point to replay or create
    cdef int wnode             # the node being applied
    cdef int wlast             # the choice point of the last rs_wchoose (-1: it was forced)
    cdef int wact              # the choice point of the action being applied (-1: forced)
    cdef long wleft            # backtracks this resample may still make
    cdef vector[int] resr      # blank resolutions: walk-history index ...
    cdef vector[int] resk      # ... and the card it became
    cdef bint wreal            # the state is the real replay of the last world resampled
    # the exact stage's frames (rs_enumerate), kept between calls for their capacity
    cdef vector[int] xeo, xfstart, xfn, xfi, xfpi, xpick
    cdef vector[double] xep, xfw
    # the corrector's chain (resample.pyx, rs_correct), kept between calls:
    # the last world it returned (``ccur``), its lazy states after each
    # prefix, P's actions before each and each action's target weight and
    # stop flag, valid below ``cvalid`` (``cclean``: Chain.clean), for the
    # next world chained from it in the same information set (P ``cP``, -1:
    # none; P's key ``ckey``; the player to move ``ccp``); and its steps'
    # search storage (rs_correct's Frames and Comps), kept for its capacity
    cdef vector[int] ccur
    cdef vector[GN] ccs
    cdef vector[int] ccpi
    cdef vector[double] ccq
    cdef vector[char] ccstop
    # the exact-step test's option count at each recorded state (-1: not
    # counted since that state was recorded; rs_block_fits)
    cdef vector[int] ccnt
    cdef int cvalid, cclean, cP, ccp
    cdef uint64_t ckey
    # the steps whose exact-step test failed on that world, per (t0, block
    # size): the answer depends on the world's actions before t0 only
    # (rs_block_fits), so it holds until a step changes the world there;
    # valid for the corrector setting ``cfail_lw``, ``cfail_budget``
    cdef vector[char] cfail
    cdef int cfail_lw
    cdef long cfail_budget
    # the real replay that realized the corrector's last world (``ccur``,
    # valid while ``cP`` is not -1): its full states at checkpoints every
    # few positions and at its end (positions ``rpos``), each with the
    # information hashes then (``rpub``; ``rih``, ENGINE_MAX_PLAYERS per
    # checkpoint), and the world's event log, the history index of each
    # event and the player of each action; the next world realized starts
    # from the last checkpoint before its first change (rs_realize)
    cdef vector[GN] rcs
    cdef vector[int] rpos
    cdef vector[uint64_t] rpub, rih
    cdef vector[Event] rev
    cdef vector[int] rlogh, rhact
    # the information of the player the last resample was for (``iP``):
    # the events it saw, their codes, its actions and the number of its
    # events before each (resample.pyx, rs_player_info), kept with what
    # they come from (the event log, its history indices, the history and
    # the players of its actions) to find the same state again
    cdef int iP
    cdef vector[Event] iexpv, iev
    cdef vector[uint32_t] iexpc
    cdef vector[int] ipact, ippos, ilogh, ihist, ihact
    cdef vector[int] keo, kfstart, kfn, kfi, kfpi, kfd, kpi, kpath
    cdef vector[double] kep, kfw, kw
    cdef vector[GN] kst

    cdef inline void log(self, Event e, uint32_t mask) noexcept nogil:
        """Record event ``e``, seen by the players of ``mask`` (none, or a
        rollout's quiet world: nothing)."""
        if self.quiet:
            return
        mask &= (1u << self.g.n) - 1
        if mask != 0:
            self.record(e, ev_code(&e), mask)

    cdef inline uint32_t all_mask(self) noexcept nogil:
        return (1u << self.g.n) - 1

    cdef inline bint has(self, int p, int animal) noexcept nogil:
        return self.g.abilities and not self.g.final and self.g.animal[p] == animal

    cdef inline bint holds(self, int p, int k) noexcept nogil:
        """p holds (or, in a resampling walk, may hold) leaf card k."""
        return self.g.hand[p][k] > 0 or (self.g.lazy and self.g.nblank[p] > 0
                                         and self.g.pool[k] > 0)

    cdef inline uint32_t held_cards(self, int p) noexcept nogil:
        """Bit k: ``holds(p, k)``, for every leaf card k."""
        cdef uint32_t m = gn_positive16(self.g.hand[p])
        if self.g.lazy and self.g.nblank[p] > 0:
            m |= gn_positive16(self.g.pool)
        return m

    cdef void record(self, Event e, uint32_t code, uint32_t mask) noexcept nogil
    cdef int sample_chance_sorted(self, Rng* rng) noexcept nogil
    cdef int sample_uniform_legal(self, Rng* rng) noexcept nogil
    cdef void resample_history(self, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef void grow_log(self, int cap) noexcept nogil
    cdef uint32_t seers(self) noexcept nogil
    cdef int next_in_play_order(self) noexcept nogil
    cdef bint capped(self) noexcept nogil
    cdef int hand_limit(self, int p) noexcept nogil
    cdef bint ability_acts(self, int p) noexcept nogil
    cdef bint target_ok(self, int q, int dk) noexcept nogil
    cdef bint any_target(self, int dk) noexcept nogil
    cdef int find_slot(self, int s, int* owner) noexcept nogil
    cdef uint32_t container_mask(self, int owner) noexcept nogil
    cdef void forget(self, uint32_t who, uint32_t stones) noexcept nogil
    cdef void learn(self, uint32_t who, int s) noexcept nogil
    cdef void remove_slot(self, int owner, int i) noexcept nogil
    cdef void put(self, int s, int dest) noexcept nogil
    cdef int move_stone(self, int owner, int i, int dest) noexcept nogil
    cdef int nest_take(self, int idx, int dest) noexcept nogil
    cdef void examine(self, int p, int s, bint traps) noexcept nogil
    cdef void reveal(self, int s) noexcept nogil
    cdef void take_feathers(self, int p, int k, int src, bint effect) noexcept nogil
    cdef void return_feathers(self, int p, int k) noexcept nogil
    cdef void catch(self, int p) noexcept nogil
    cdef void lose_card(self, int p, int k, bint public) noexcept nogil
    cdef int deck_total(self) noexcept nogil
    cdef void wind(self, int p, int w) noexcept nogil
    cdef int take_from_deck(self, int p, int action) noexcept nogil
    cdef void _after_deal(self) noexcept nogil
    cdef void _check_setup_stones(self) noexcept nogil
    cdef void pass_feather(self) noexcept nogil
    cdef void advance(self) noexcept nogil
    cdef int nest_free(self) noexcept nogil
    cdef void reshuffle(self) noexcept nogil
    cdef void finish(self) noexcept nogil
    cdef int vc_holder(self, int v) noexcept nogil
    cdef int score(self, int w, int* held) noexcept nogil
    cdef void meddle_action(self, int action) noexcept nogil
    cdef void play_card(self, int p, int action, int ctx) noexcept nogil
    cdef void start_effect(self, int card, int actor, int ctx, int cnt) noexcept nogil
    cdef void begin_effect(self, int card, int actor, int ctx, int cnt) noexcept nogil
    cdef void need(self, int who, int dk) noexcept nogil
    cdef void acquire(self, int p, int s) noexcept nogil
    cdef void pop_pending(self) noexcept nogil
    cdef void steal(self, int thief, int owner, int i) noexcept nogil
    cdef void continue_effect(self) noexcept nogil
    cdef void end_effect(self) noexcept nogil
    cdef void open_window(self) noexcept nogil
    cdef bint has_instant(self, int p) noexcept nogil
    cdef bint run_step(self) noexcept nogil
    cdef bint other_stones(self, int a) noexcept nogil
    cdef bint any_stone_in_lairs(self) noexcept nogil
    cdef void query(self, int a, int c) noexcept nogil
    cdef void effect_decision(self, int action) noexcept nogil
    cdef void place(self, int p, int i, int j) noexcept nogil
    cdef void swap_unseen(self, int seer, int o1, int i1, int o2, int i2) noexcept nogil


# ---------------------------------------------------------------- lazy world
# What the rules do in a resampling walk (rules.pyx); the walks are resample.pyx.

cdef inline Event rs_expect(GoldNuggetRules self, int k) noexcept nogil:
    """P's true event k positions ahead of the walk (every field
    ``EVENT_NONE``: none)."""
    if self.g.pcount + k < self.wT:
        return self.wexp[self.g.pcount + k]
    return ev(EVENT_NONE, EVENT_NONE, EVENT_NONE, EVENT_NONE, EVENT_NONE, EVENT_NONE)

cdef inline int rs_shown_face(GoldNuggetRules self, int s) noexcept nogil:
    """Face of s for an event (an open face is only ever logged to
    players other than the walking one, whose events are not kept)."""
    return self.g.face[s] if self.g.face[s] >= 0 else 0

cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b

cdef inline void rs_touch(GoldNuggetRules self, int s) noexcept nogil:
    """The last choice point (if any) decided something about stone s."""
    if self.wlast >= 0 and 0 <= s < MAXS:
        self.g.tcp[s] = imax(self.g.tcp[s], self.wlast)

cdef inline void rs_rearranged(GoldNuggetRules self, int dest, int src) noexcept nogil:
    """A walk: the arrangement of lair ``dest`` (NEST: the nest) changed, by
    the choice point being applied (if any) and, when a stone came from lair
    ``src`` (-1: none), by whatever arranged ``src``."""
    cdef int c
    if not self.g.lazy:
        return
    c = imax(self.wact, self.wlast)
    if 0 <= src <= MAXP:
        c = imax(c, self.g.lcp[src])
    if 0 <= dest <= MAXP:
        self.g.lcp[dest] = imax(self.g.lcp[dest], c)

cdef double rs_face_weight(GoldNuggetRules self, int s, int f) noexcept nogil
cdef bint rs_face_possible(GoldNuggetRules self, int s, int f) noexcept nogil
cdef void rs_set_face(GoldNuggetRules self, int s, int f) noexcept nogil
cdef int rs_wchoose(GoldNuggetRules self, int n, double* w) noexcept nogil
