# cython: language_level=3
"""Gold Thief resampler: a history drawn from one player's information set
over a ``GoldThiefRules`` state (rules doc, "Resampling"), using only that
player's view of the event log and the public skeleton of the history.

Stage 1 is exact rejection sampling along the public skeleton; stage 2 the
model proposal (``build_model``), importance-corrected over K proposals;
stage 3 a complete backtracking search.  The replays run on the state
itself, driving the rules' silent-replay hooks (``sil_*``, ``record_seat``),
so the state is scratch afterwards: ``GoldThiefResampler.resample`` leaves
it at the world drawn.  This module's knobs (``set_resample_attempts``,
``set_model_proposals``, ...) and counters (``resample_stats``,
``model_weight_stats``) hold for the whole process; ``src_cy.gold_thief.engine``
re-exports them.  ``draw_history`` and ``draw_world`` run the resampler on
any rules state from Python (tests).
"""
cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy, memcmp
from libc.math cimport log, exp, INFINITY, fabs
from libcpp.vector cimport vector
from numbers import Integral, Real

from src_cy.engine cimport rng_int, rng_double
from src_cy.clock cimport past
from src_cy.engine import check_chain_settings
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, Consid, MAXP, NT, MAX_GOALS, MAX_HAND, MAX_GOLD, MAX_BRANCHING,
    CHANCE_PLAYER, THIEF, GUARD, WITCH, FAERIE, NINJA, A_PASS, A_FAERIE, A_GIVE, C_CARD,
    C_GOAL, C_FIRST, PH_FIRST, PH_SETUP_CARDS, PH_DRAW, PH_PLAY, PH_RESPOND, PH_NINJA,
    PH_GIVE, G_PILE, G_DOWN, EV_DRAW, EV_RESHUFFLE, EV_PLAY, EV_PASS, EV_ASKED, EV_GIVE,
    EV_DEAL_GOAL, EV_FAERIE_GOAL, EV_FLIP, EV_SCORE, holds, goal_matches, pile_random,
    deck_total, card_of_action, sees_secret, observed, to_move, game_over, step, legal)


cdef enum:
    # ``schedule``'s kinds of step: a hand change, a face-down goal change,
    # a window seat, an unseen Give decision.
    SCH_HAND = 0
    SCH_GOAL = 1
    SCH_SEAT = 2
    SCH_GIVE = 3


cdef enum:
    # Where a recorded replay stopped, after the view's last event: at a node
    # no hidden card decides (chance, the player's own decision, a public
    # one, the end), at another player's Give decision, or at a window seat
    # of another player (asked because of their hidden cards).
    TAIL_FIXED = 0
    TAIL_GIVE = 1
    TAIL_WINDOW = 2


cdef inline void push_change(vector[HChange]* v, int e, int q, int o, int d) noexcept nogil:
    """Append the change (e, q, o, d), built from its four fields (a struct
    variable on the stack, updated field by field and then copied, stalls
    on store forwarding)."""
    v.push_back(HChange(e, q, o, d))


cdef inline void obj_erase(ObjList* h, int i) noexcept nogil:
    """Remove entry i of `h`, keeping the order of the others."""
    cdef int j
    for j in range(i, h.n - 1):
        h.v[j] = h.v[j + 1]
    h.n -= 1


cdef inline bint obj_push(ObjList* h, int o, int cap) noexcept nogil:
    """Append `o` to `h` (capacity `cap`); False if it is full."""
    if h.n >= cap:
        return False
    h.v[h.n] = o
    h.n += 1
    return True


cdef inline void mul_prob(double* logp, double* prod, double x) noexcept nogil:
    """Multiply the probability exp(logp) * prod by x (0 < x <= 1), keeping
    the product in `prod` until it gets small (few logarithms are taken)."""
    prod[0] *= x
    if prod[0] < 1e-250:
        logp[0] += log(prod[0])
        prod[0] = 1.0


cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil


cdef inline int nth_bit(uint64_t x, int r) noexcept nogil:
    """The r-th (from 0, ascending) set bit of x (x has more than r)."""
    while r > 0:
        x &= x - 1
        r -= 1
    return __builtin_ctzll(x)


cdef inline int popcount64(uint64_t x) noexcept nogil:
    """Set bits in x (SWAR: no loop, no popcnt instruction needed)."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    x = (x & <uint64_t>0x3333333333333333) + ((x >> 2) & <uint64_t>0x3333333333333333)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    return <int>((x * <uint64_t>0x0101010101010101) >> 56)


# Set bits of a set of card types (NT bits): ``model_weight``'s answers at a
# window seat and card types held at a Give.
cdef int TYPE_BITS[1 << NT]
for _m in range(1 << NT):
    TYPE_BITS[_m] = bin(_m).count("1")


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
# (stage 1), model (stage 2), search (stage 3), chained (from the last world).
cdef long _STATS[5]
# Chaining (``set_resample_chain``): independence Metropolis-Hastings steps
# per chained world (0: no chaining) and the chance of a fresh world instead.
DEFAULT_CHAIN_STEPS = 3
RESAMPLE_CHAIN_DEFAULT = {"steps": DEFAULT_CHAIN_STEPS, "refresh": 1.0 / 64}
cdef int _CHAIN_STEPS = DEFAULT_CHAIN_STEPS
cdef double _CHAIN_REFRESH = 1.0 / 64
# Chaining's counters: fresh worlds the refresh drew instead of a chained one,
# chains whose moved world failed its replay (the last world kept; never
# expected), proposals, accepted ones, chains stopped at the deadline.
cdef long _CSTATS[5]
# Tests only: accept every chain proposal (``_set_chain_accept_all``).
cdef bint _CHAIN_ACCEPT_ALL = False


# Stage 2 with model weights: [resamples, fallbacks to replaying every
# proposal, weights that disagreed with a replay, in-set verdicts that did];
# ``_CHECK_WEIGHTS`` replays every proposal too and compares (tests).
cdef long _WSTATS[4]
cdef bint _CHECK_WEIGHTS = False
# ``_FORCE_REPLAYED`` skips the model weights: every stage-2 resample takes
# the fallback that replays every proposal (tests of that path).
cdef bint _FORCE_REPLAYED = False
# ``_KEEP_RECORD``: stage 2 records one replay per kept view, not per draw
# (``set_record_kept``; off replays one proposal per draw, as before).
cdef bint _KEEP_RECORD = True
# ``_KEEP_PREFIX``: every proposal of a kept view starts from the model's
# walk before its first random step, kept once (``set_model_prefix_kept``;
# off walks the whole view in every proposal).
cdef bint _KEEP_PREFIX = True


cdef inline bint weights_agree(double a, double b) noexcept nogil:
    """Whether two log weights agree (up to rounding)."""
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


def set_record_kept(bint on) -> bool:
    """Whether stage 2 reuses the window seats recorded by the first replay
    of a kept view for every later draw of that view (on, the default) or
    replays the first accepted proposal of every draw to record them again
    (off); the worlds are the same either way.  Returns the previous
    setting.  For tests and benchmarks."""
    global _KEEP_RECORD
    old = _KEEP_RECORD
    _KEEP_RECORD = on
    return old


def set_model_prefix_kept(bint on) -> bool:
    """Whether ``build_model`` starts every proposal of a kept view from
    its walk before the first random step, kept by the view's first
    proposal (on, the default), or walks the whole view each time (off);
    the worlds are the same either way.  Returns the previous setting.  For
    tests and benchmarks."""
    global _KEEP_PREFIX
    old = _KEEP_PREFIX
    _KEEP_PREFIX = on
    return old


def resample_stats() -> dict:
    """How many resamples (in this process) each stage produced: ``exact``
    (stage 1, the exact rejection sampler), ``model`` (stage 2, the
    importance-corrected model proposal) and ``search`` (stage 3, the complete
    backtracking search) and ``chained`` (stage 2's last world moved on by
    ``set_resample_chain``'s steps); ``calls`` is their sum.  Chaining:
    ``chain_fresh`` (fresh worlds its refresh drew instead), ``chain_fails``
    (a moved world whose replay left the information set: the last world
    kept; never expected), ``chain_proposals`` and ``chain_accepts`` (its
    Metropolis-Hastings steps and the accepted ones) and ``chain_cut``
    (chains stopped at the deadline, their current world returned)."""
    return {"calls": _STATS[0], "exact": _STATS[1], "model": _STATS[2], "search": _STATS[3],
            "chained": _STATS[4], "chain_fresh": _CSTATS[0], "chain_fails": _CSTATS[1],
            "chain_proposals": _CSTATS[2], "chain_accepts": _CSTATS[3],
            "chain_cut": _CSTATS[4]}


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


def set_resample_chain(steps: Integral | None = None, refresh: Real | None = None) -> tuple:
    """Set chaining (rules doc, "Chaining"): a stage-2 world drawn with the
    last world of the same information set at hand (``resample_next``:
    ISMCTS, the pyspiel adapter) is that world moved by ``steps``
    independence Metropolis-Hastings steps, each one model proposal, except
    that with probability ``refresh`` it is drawn afresh (stage 2's K
    proposals); ``steps`` 0 turns chaining off.  None keeps a setting
    (defaults ``RESAMPLE_CHAIN_DEFAULT``).  Returns the previous (steps,
    refresh)."""
    global _CHAIN_STEPS, _CHAIN_REFRESH
    check_chain_settings(steps, refresh, 1000000)
    old = (_CHAIN_STEPS, _CHAIN_REFRESH)
    if steps is not None:
        _CHAIN_STEPS = steps
    if refresh is not None:
        _CHAIN_REFRESH = refresh
    return old


def _set_chain_accept_all(bint on) -> bool:
    """Tests only: accept every proposal of a chain's steps, whatever its
    weight (the uncorrected model proposal; a mutant the stationarity test
    must refuse); returns the previous setting."""
    global _CHAIN_ACCEPT_ALL
    old = _CHAIN_ACCEPT_ALL
    _CHAIN_ACCEPT_ALL = on
    return old


cdef inline bint mask_hits(GoldThiefRules st, uint64_t mask, int g) noexcept nogil:
    """Whether goal g shows a number the facts in `mask` exclude (bit x:
    "does not show x")."""
    cdef int a = st.goal_a[g], b = st.goal_b[g]
    return (a <= MAX_GOLD and (mask >> a) & 1) or (b <= MAX_GOLD and (mask >> b) & 1)


cdef inline bint skippable(int p, vector[int]* T, vector[int]* meta, int i) noexcept nogil:
    """A step of the true history whose existence `p` cannot see: another
    player's window pass or Give choice (they follow from hidden hands)."""
    cdef int d = (meta[0][i] & 15) - 1, act = T[0][i]
    return d >= 0 and d != p and (act == A_PASS or A_GIVE <= act < A_GIVE + NT)


cdef inline int window_answer(int p, vector[int]* T, vector[int]* meta, int i, int N,
                              int wkey) noexcept nogil:
    """Where the recorded answer to the window keyed ``wkey`` (public events
    << 4 | seat + 1) is, scanning from ``i`` over entries ``p`` may skip;
    -1 when the window was passed (no answer recorded there)."""
    cdef int j = i
    while j < N:
        if meta[0][j] == wkey:
            return j
        if not skippable(p, T, meta, j):
            return -1
        j += 1
    return -1


cdef enum:
    # ``params_sig``'s length: the rule parameters, the card counts and the
    # goals' two numbers
    SIG_LEN = 11 + NT + 2 * MAX_GOALS


cdef void params_sig(GoldThiefRules st, int* sig) noexcept nogil:
    """The parameters `st` plays by, as ints (what a kept view depends on
    besides the history; compared by content, not by object)."""
    cdef int i
    memset(sig, 0, SIG_LEN * sizeof(int))
    sig[0] = st.num_players
    sig[1] = st.hand_size
    sig[2] = st.start_gold
    sig[3] = st.goals_to_win
    sig[4] = st.big_pile
    sig[5] = st.max_turns
    sig[6] = st.num_goals
    sig[7] = st.first_fixed
    sig[8] = st.max_moves
    sig[9] = st.pub_cap
    sig[10] = st.raid_raids
    for i in range(NT):
        sig[11 + i] = st.counts[i]
    for i in range(st.num_goals):
        sig[11 + NT + i] = st.goal_a[i]
        sig[11 + NT + MAX_GOALS + i] = st.goal_b[i]


cdef int view_events(int p, vector[Event]* evs, vector[Event]* out) noexcept nogil:
    """`p`'s view of the event log: the events p observed, with the
    detail set to -1 where p did not see it (written in place); returns the
    card plays of the other players in it."""
    cdef size_t e, n = 0
    cdef int plays = 0
    cdef Event* ev
    cdef Event* w
    out.resize(evs.size())
    w = out.data()
    for e in range(evs.size()):
        ev = &evs[0][e]
        if not observed(ev, p):
            continue
        w[n] = ev[0]
        if not sees_secret(ev, p):
            w[n].secret = -1
        if ev.kind == EV_PLAY and ev.actor != p:
            plays += 1
        n += 1
    out.resize(n)
    return plays


cdef inline int take_card(int q, int t, Rng* rng, int* ot, int* og, ObjList* hand, int* pool,
                          int* pleft, double* logq, double* qprod, int* rcand, int* nrc,
                          int* rend, int* rpick, int* npick) noexcept nogil:
    """Remove a card of type t from q's modelled hand: a card known to be
    a t if there is one, else an unknown card, chosen with weight (t left
    in its deck generation) / (cards left in it), which becomes a t
    (`pleft`: cards left per generation, the sums of `pool`).
    Multiplies the choice's probability into `logq`, `qprod` (``mul_prob``)
    and records the unknown cards it chose among (``rcand[:nrc]``, their
    end in ``rend`` and the card picked in ``rpick``, ``npick`` records;
    see ``build_model``).  -1 if impossible.  One pass over the hand finds
    a known t (the first), the unknown cards and their weights."""
    cdef ObjList* h = &hand[q]
    cdef int i, o, nh = h.n, pt, lastg = -1, tt, base = nrc[0], c = 0
    cdef double gw = 0.0
    cdef double total = 0.0, x, w
    cdef double wts[MAX_HAND]
    for i in range(nh):
        o = h.v[i]
        tt = ot[o]
        if tt == t:
            obj_erase(h, i)
            return o
        w = 0.0
        if tt < 0:
            rcand[base + c] = o
            c += 1
            if og[o] != lastg:
                # (a hand's unknown cards are mostly of one generation)
                lastg = og[o]
                pt = pool[lastg * NT + t]
                gw = pt / <double>pleft[lastg] if pt > 0 else 0.0
            w = gw
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
            o = h.v[i]
            mul_prob(logq, qprod, w / total)
            nrc[0] = base + c
            rend[npick[0]] = base + c
            rpick[npick[0]] = o
            npick[0] += 1
            ot[o] = t
            pool[og[o] * NT + t] -= 1
            pleft[og[o]] -= 1
            obj_erase(h, i)
            return o
    return -1


cdef inline void copy_ints(vector[int]* dst, vector[int]* src) noexcept nogil:
    """`dst` made a copy of `src` (no allocation once `dst` has grown;
    short vectors, so an element loop)."""
    cdef int i, n = <int>src.size()
    cdef int* d
    cdef int* s = src.data()
    dst.resize(n)
    d = dst.data()
    for i in range(n):
        d[i] = s[i]


cdef inline void append_ints(vector[int]* dst, vector[int]* src) noexcept nogil:
    """`src`'s elements appended to `dst` (one growth, not one per element)."""
    cdef int i, m = <int>dst.size(), n = <int>src.size()
    cdef int* d
    cdef int* s = src.data()
    dst.resize(m + n)
    d = dst.data() + m
    for i in range(n):
        d[i] = s[i]


cdef inline void copy_objs(ObjList* dst, ObjList* src) noexcept nogil:
    """`dst` made a copy of `src` (its entries only, not the whole capacity)."""
    cdef int i
    dst.n = src.n
    for i in range(src.n):
        dst.v[i] = src.v[i]


cdef inline bint holds_known(ObjList* h, int* ot, int t) noexcept nogil:
    """Whether modelled hand `h` holds a card object known to be a `t`."""
    cdef int i
    for i in range(h.n):
        if ot[h.v[i]] == t:
            return True
    return False


cdef inline bint fixed_step(Event* ev, int p, int* ot, ObjList* hand, ObjList* down,
                            int* gi) noexcept nogil:
    """Whether ``build_model``'s step at view event `ev` certainly draws
    nothing at random, given the walk so far: a draw, a reshuffle, a goal
    deal or a scoring; a play or give of a card type the hand is known to
    hold (``take_card`` takes it), not another player's Faerie play (which
    goal goes is drawn); a flip of a goal known to be down."""
    cdef int k = ev.kind, i, q = ev.actor
    if k == EV_PLAY:
        if ev.a == A_FAERIE and q != p:
            return False
        return holds_known(&hand[q], ot, card_of_action(ev.a))
    if k == EV_GIVE:
        return ev.secret >= 0 and holds_known(&hand[q], ot, ev.secret)
    if k == EV_FLIP:
        for i in range(down[q].n):
            if gi[down[q].v[i]] == ev.a:
                return True
        return False
    return True


def draw_history(GoldThiefRules rules, int player, seed) -> list:
    """A history drawn from `player`'s information set in `rules` (as an
    engine's ``py_resample_history``: on a clone, here with a resampler of
    its own); it replays to a world that `player` cannot tell from `rules`."""
    cdef Rng rng
    cdef vector[int] h
    if not 0 <= player < rules.num_players:
        raise ValueError(f"player must be in [0, {rules.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef GoldThiefRules scratch = <GoldThiefRules>rules.clone()
    GoldThiefResampler().draw(scratch, player, &rng, &h)
    return [a for a in h]


def draw_world(GoldThiefRules rules, int player, seed) -> GoldThiefRules:
    """A clone of `rules` (same class) with everything hidden from `player`
    re-drawn (as an engine's ``py_resample``, with a resampler of its own)."""
    cdef Rng rng
    if not 0 <= player < rules.num_players:
        raise ValueError(f"player must be in [0, {rules.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef GoldThiefRules world = <GoldThiefRules>rules.clone()
    GoldThiefResampler().resample(world, player, &rng)
    return world


@cython.final
cdef class GoldThiefResampler:
    """The resampler's work space and stages (``draw``: a history; ``resample``:
    the state become that world)."""

    cdef void draw(self, GoldThiefRules st, int player, Rng* rng, vector[int]* out) noexcept nogil:
        """A fresh history drawn from `player`'s information set (``draw_from``
        without a last world)."""
        self.draw_from(st, player, rng, NULL, out)

    cdef void draw_from(self, GoldThiefRules st, int player, Rng* rng, const vector[int]* prev,
                        vector[int]* out) noexcept nogil:
        """A history drawn from `player`'s information set (rules doc,
        "Resampling").  Stage 1: exact rejection sampling along the public
        skeleton (hidden chance by its odds, others' hidden choices uniform,
        accepted iff `player`'s view is reproduced).  Stage 2, when stage 1
        found nothing in its attempts: the model proposal, importance-corrected
        (one of K accepted proposals kept by its weight).  Stage 3: a
        complete backtracking search.  Reads only `player`'s view of the events
        and the public skeleton of the history; never returns the true
        history as such.  Chaining: when ``prev`` (NULL or empty: none) is the
        last stage-2 world this resampler drew for the same view and stage 1
        does not run there, that world moved by ``chain`` (rules doc,
        "Chaining"), or with probability ``_CHAIN_REFRESH`` a fresh one."""
        # the history and the view, kept (`st` is scratch from here)
        cdef vector[int]* T = &self.ws_T
        cdef vector[int]* meta = &self.ws_meta
        cdef vector[Event]* want = &self.ws_want
        cdef int attempt, j, last = -1, plays = 0, tries = _EXACT_ATTEMPTS, got = 0
        _STATS[0] += 1
        if not self.same_view(st, player):
            T[0] = st.hist
            meta[0] = st.hmeta
            plays = view_events(player, &st.log, want)
            for j in range(<int>T.size()):
                if not skippable(player, T, meta, j):
                    last = j
            self.ws_view_player = player
            params_sig(st, self.ws_view_sig)
            self.ws_view_key = st.ihash[player]
            self.ws_view_plays = plays
            self.ws_view_last = last
            self.ws_view_ok = True
            self.ws_mev_ok = False
            self.ws_sched_ok = False
            self.ws_rec_ok = False
            self.ch_ok = False
        plays = self.ws_view_plays
        last = self.ws_view_last
        if plays > EXACT_MAX_PLAYS_C:
            tries = 0
        self.world_built = False
        if prev != NULL and prev.size() > 0 and _CHAIN_STEPS > 0 and tries == 0 \
                and self.ch_ok and prev.size() == self.ch_h.size() \
                and memcmp(prev.data(), self.ch_h.data(), prev.size() * sizeof(int)) == 0:
            if _CHAIN_REFRESH > 0.0 and rng_double(rng) < _CHAIN_REFRESH:
                _CSTATS[0] += 1
            else:
                _STATS[4] += 1
                self.chain(st, player, rng, want, T, meta, last, out)
                return
        self.ch_ok = False
        for attempt in range(tries):
            if self.walk_world(st, player, rng, T, meta, last, want, False):
                _STATS[1] += 1
                out[0] = st.hist
                self.world_built = True
                return
        # Stage 2: sampling-importance-resampling over _MODEL_PROPOSALS
        # proposals, weighed from the model (one replay recorded), else with
        # every proposal replayed.
        if not self.ws_mev_ok:
            self.model_events(st, player, want)
            self.ws_mev_ok = True
        got = -1 if _FORCE_REPLAYED else self.stage2_weighed(st, player, rng, want, T, meta,
                                                              last, out)
        if got < 0:
            _WSTATS[1] += 1
            self.world_built = False
            got = self.stage2_replayed(st, player, rng, want, T, meta, last, out)
        if got > 0:
            # `st` is the world if the drawn proposal was replayed last
            # (world_built), else scratch
            _STATS[2] += 1
            if tries == 0:
                # a chain may start here (``draw_from``)
                self.ch_h.assign(out.begin(), out.end())
                self.ch_lw = self.s2_lw
                self.ch_ok = True
            return
        # Complete: the true history is one of the worlds the search can
        # reach, so it always finds one (in its own random order).
        self.walk_world(st, player, rng, T, meta, last, want, True)
        _STATS[3] += 1
        out[0] = st.hist
        self.world_built = True

    cdef bint same_view(self, GoldThiefRules st, int p) noexcept nogil:
        """Whether the last ``draw`` kept `st`'s history and `p`'s view
        (``ws_T``, ``ws_meta``, ``ws_want`` and what is derived from them:
        ``model_events``, ``schedule``): the same player, `p`'s information
        key, history and parameters (an ISMCTS search resamples one root
        again and again)."""
        cdef size_t n = st.hist.size()
        cdef int sig[SIG_LEN]
        if not (self.ws_view_ok and self.ws_view_player == p
                and self.ws_view_key == st.ihash[p] and self.ws_T.size() == n
                and (n == 0 or memcmp(self.ws_T.data(), st.hist.data(), n * sizeof(int)) == 0)):
            return False
        params_sig(st, sig)
        return memcmp(sig, self.ws_view_sig, SIG_LEN * sizeof(int)) == 0

    cdef void model_events(self, GoldThiefRules st, int p, vector[Event]* want) noexcept nogil:
        """The events of `p`'s view ``build_model`` reads (``ws_mev``, with
        their indices in the view in ``ws_midx``): draws, reshuffles, plays,
        gives, goal deals, flips and scorings; of the others (`p`'s passes and
        windows, resolutions, ends of turn) only one right after a scoring
        and the flips it made, where the model applies the scoring's facts."""
        cdef int e, j, k, mq = -1, mx = 0, no
        cdef Event* ev
        self.ws_pre_ok = False
        self.ws_tt0_ok = False
        self.ws_mev.clear()
        self.ws_midx.clear()
        self.ws_ng = 1
        self.ws_nd = 0
        self.ws_ntake = 0
        for e in range(<int>want.size()):
            ev = &want[0][e]
            k = ev.kind
            if k == EV_PASS or k == EV_ASKED:
                continue
            if k == EV_DRAW or k == EV_RESHUFFLE or k == EV_PLAY or k == EV_GIVE \
                    or k == EV_DEAL_GOAL or k == EV_FAERIE_GOAL or k == EV_FLIP \
                    or k == EV_SCORE:
                if mq >= 0 and not (k == EV_FLIP and ev.actor == mq
                                    and goal_matches(st, ev.a, mx)):
                    mq = -1
                if k == EV_SCORE:
                    mq = ev.actor
                    mx = ev.a
            elif mq >= 0:
                mq = -1
            else:
                continue
            if k == EV_RESHUFFLE:
                self.ws_ng += 1
            elif k == EV_DRAW:
                self.ws_nd += 1
            elif k == EV_PLAY or k == EV_GIVE:
                self.ws_ntake += 1
            self.ws_mev.push_back(ev[0])
            self.ws_midx.push_back(e)
        # The model's hand and goal changes and the unseen Give decisions
        # (what ``model_weight`` reads), in the order ``build_model`` meets
        # them; which card or goal object moves is filled in by each proposal
        # (a draw's object is its rank).
        self.ws_hl.clear()
        self.ws_gl.clear()
        self.ws_gv.clear()
        no = 0
        for j in range(<int>self.ws_mev.size()):
            ev = &self.ws_mev[j]
            e = self.ws_midx[j]
            k = ev.kind
            if k == EV_DRAW:
                push_change(&self.ws_hl, e, ev.actor, no, 1)
                no += 1
            elif k == EV_PLAY:
                push_change(&self.ws_hl, e, ev.actor, -1, -1)
                if ev.a == A_FAERIE:
                    push_change(&self.ws_gl, e, ev.actor, -1, -1)
            elif k == EV_GIVE:
                if ev.actor != p:
                    push_change(&self.ws_gv, e, ev.actor, -1, 0)
                push_change(&self.ws_hl, e, ev.actor, -1, -1)
                push_change(&self.ws_hl, e, ev.a, -1, 1)
            elif k == EV_DEAL_GOAL or k == EV_FAERIE_GOAL or k == EV_FLIP:
                push_change(&self.ws_gl, e, ev.actor, -1, 1 if k != EV_FLIP else -1)

    cdef bint propose(self, GoldThiefRules st, int player, Rng* rng, vector[int]* draw_t,
                      vector[int]* gdraw_g, vector[int]* faerie_g, vector[int]* give_t,
                      double* lrq) noexcept nogil:
        """One model proposal (``build_model`` on ``ws_mev``) into the four
        cleared vectors."""
        draw_t.clear()
        gdraw_g.clear()
        faerie_g.clear()
        give_t.clear()
        return self.build_model(st, player, rng, &self.ws_mev, draw_t, gdraw_g, faerie_g, give_t,
                                lrq)

    cdef int stage2_replayed(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                             vector[int]* T, vector[int]* meta, int last,
                             vector[int]* out) noexcept nogil:
        """Stage 2 with every proposal replayed: up to _MODEL_PROPOSALS
        accepted proposals, one kept (streaming) with probability proportional
        to its importance weight; 1 if one was kept (in `out`), else 0."""
        cdef vector[int] draw_t, gdraw_g, faerie_g, give_t, kept
        cdef int attempt, got = 0
        cdef double lw = 0.0, lrq = 0.0, ltot = 0.0
        for attempt in range(_MODEL_ATTEMPTS):
            if got >= _MODEL_PROPOSALS:
                break
            if not self.propose(st, player, rng, &draw_t, &gdraw_g, &faerie_g, &give_t, &lrq):
                continue
            if not self.build_world(st, player, want, T, meta, last, &draw_t, &gdraw_g,
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
                kept = st.hist
                self.s2_lw = lw
        if got > 0:
            out[0] = kept
            return 1
        return 0

    cdef int stage2_weighed(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                            vector[int]* T, vector[int]* meta, int last,
                            vector[int]* out) noexcept nogil:
        """Stage 2 with the weights computed from the model
        (``model_weight``): in the first draw of a kept view, the first
        accepted proposal is replayed, recording the window seats and where
        the replay stopped (and its weight checked against the replay's),
        which later draws of the view reuse (``ws_rec_kept``); the
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
        cdef bint kept = _KEEP_RECORD and self.ws_rec_ok
        cdef double lw = 0.0, lrq = 0.0, lwm, mx, tot, u
        if kept:
            # the window seats a replay of this view records (see ws_rec_kept)
            st.rec.assign(self.ws_rec_kept.begin(), self.ws_rec_kept.end())
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
            if not self.propose(st, player, rng, draw_t, gdraw_g, faerie_g, give_t, &lrq):
                continue
            if ref < 0 and not kept:
                if not self.build_world(st, player, want, T, meta, last, draw_t, gdraw_g,
                                        faerie_g, give_t, &lw, True):
                    continue
                lwm = self.model_weight(st, player, nwant, &verdict)
                if self.rec_bad or verdict != 1 or not weights_agree(lwm, lw):
                    _WSTATS[2] += 1
                    return -1
                ref = got
                self.s2_refh.assign(st.hist.begin(), st.hist.end())
                self.ws_rec_kept.assign(st.rec.begin(), st.rec.end())
                self.ws_rec_ok = True
            else:
                lwm = self.model_weight(st, player, nwant, &verdict)
                if self.replay_verdict(st, player, want, T, meta, last, verdict, True, lwm,
                                       &lw) == 0:
                    continue
            off.push_back(<int>sd.size())
            off.push_back(<int>sg.size())
            off.push_back(<int>sf.size())
            off.push_back(<int>sv.size())
            append_ints(sd, draw_t)
            append_ints(sg, gdraw_g)
            append_ints(sf, faerie_g)
            append_ints(sv, give_t)
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
            self.s2_lw = cw[0][j]
            if j == ref:
                out[0] = self.s2_refh
                return 1
            draw_t.assign(sd.begin() + off[0][4 * j], sd.begin() + off[0][4 * j + 4])
            gdraw_g.assign(sg.begin() + off[0][4 * j + 1], sg.begin() + off[0][4 * j + 5])
            faerie_g.assign(sf.begin() + off[0][4 * j + 2], sf.begin() + off[0][4 * j + 6])
            give_t.assign(sv.begin() + off[0][4 * j + 3], sv.begin() + off[0][4 * j + 7])
            if self.build_world(st, player, want, T, meta, last, draw_t, gdraw_g, faerie_g,
                                give_t, &lw, False, True):
                if not weights_agree(cwm[0][j], lw):
                    _WSTATS[2] += 1
                    return -1
                out[0] = st.hist
                self.world_built = True
                return 1
            # the model said it is in the information set: it is not
            _WSTATS[3] += 1
            return -1

    cdef int replay_verdict(self, GoldThiefRules st, int player, vector[Event]* want,
                            vector[int]* T, vector[int]* meta, int last, int verdict,
                            bint weighed, double lwm, double* lw) noexcept nogil:
        """Whether the last proposal (in ``s2_draw`` ...) is in the
        information set: the model's `verdict` (1 or 0), else (unknown, < 0,
        or checked: ``_CHECK_WEIGHTS``) its replay's, whose log weight goes
        to `lw`; a replay that disagrees with the model's verdict, or with
        its weight `lwm` (when `weighed`), is counted (``model_weight_stats``)."""
        cdef bint ok
        if verdict >= 0 and not _CHECK_WEIGHTS:
            return verdict
        ok = self.build_world(st, player, want, T, meta, last, &self.s2_draw, &self.s2_gdraw,
                              &self.s2_faerie, &self.s2_give, lw)
        if verdict >= 0 and ok != (verdict == 1):
            _WSTATS[3] += 1
        elif weighed and ok and not weights_agree(lwm, lw[0]):
            _WSTATS[2] += 1
        return 1 if ok else 0

    cdef void chain(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                    vector[int]* T, vector[int]* meta, int last, vector[int]* out) noexcept nogil:
        """The last world (``ch_h``, log weight ``ch_lw``) moved by
        ``_CHAIN_STEPS`` independence Metropolis-Hastings steps on the
        extended space of (model path u, history h): each proposes (u', h')
        by one model proposal, of weight 0 outside the information set, and
        moves there with probability min(1, W'/W) (rules doc, "Chaining").
        The world reached is replayed (``world_built``) and kept for the next
        chain; at the deadline the steps stop and the current world is
        returned."""
        cdef vector[int]* draw_t = &self.s2_draw
        cdef vector[int]* gdraw_g = &self.s2_gdraw
        cdef vector[int]* faerie_g = &self.s2_faerie
        cdef vector[int]* give_t = &self.s2_give
        cdef bint model = self.ws_rec_ok and not _FORCE_REPLAYED
        cdef bint moved = False
        cdef int s, verdict, nwant = <int>want.size()
        cdef double cur = self.ch_lw, cur_lwm = 0.0, lw = 0.0, lwm = 0.0, lrq = 0.0, lnew
        if model:
            # the window seats a replay of this view records (see ws_rec_kept)
            st.rec.assign(self.ws_rec_kept.begin(), self.ws_rec_kept.end())
        for s in range(_CHAIN_STEPS):
            if past(&st.resample_deadline):
                _CSTATS[4] += 1
                break
            _CSTATS[2] += 1
            if not self.propose(st, player, rng, draw_t, gdraw_g, faerie_g, give_t, &lrq):
                continue
            verdict = -1
            if model:
                lwm = self.model_weight(st, player, nwant, &verdict)
            if self.replay_verdict(st, player, want, T, meta, last, verdict, model, lwm,
                                   &lw) == 0:
                continue
            if not model:
                lwm = lw
            lnew = lwm + lrq
            if lnew < cur and not _CHAIN_ACCEPT_ALL and rng_double(rng) >= exp(lnew - cur):
                continue
            _CSTATS[3] += 1
            copy_ints(&self.ch_d, draw_t)
            copy_ints(&self.ch_g, gdraw_g)
            copy_ints(&self.ch_f, faerie_g)
            copy_ints(&self.ch_v, give_t)
            cur = lnew
            cur_lwm = lwm
            moved = True
        if moved:
            if self.build_world(st, player, want, T, meta, last, &self.ch_d, &self.ch_g,
                                &self.ch_f, &self.ch_v, &lw, False, True):
                if not weights_agree(cur_lwm, lw):
                    _WSTATS[2] += 1
                self.ch_h.assign(st.hist.begin(), st.hist.end())
                self.ch_lw = cur
                out[0] = st.hist
                self.world_built = True
                return
            # the model said it is in the information set: it is not
            _WSTATS[3] += 1
            _CSTATS[1] += 1
        out[0] = self.ch_h

    cdef void resample(self, GoldThiefRules st, int player, Rng* rng) noexcept nogil:
        """The base contract (the world is ``resample_history`` replayed),
        without replaying twice: the accepted world was built by that replay."""
        self.resample_from(st, player, rng, NULL)

    cdef void resample_from(self, GoldThiefRules st, int player, Rng* rng,
                            const vector[int]* prev) noexcept nogil:
        """As ``resample``, the history drawn by ``draw_from`` (chained from
        ``prev`` where it can be)."""
        self.world_built = False
        self.draw_from(st, player, rng, prev, &self.ws_h)
        if not self.world_built:
            st.replay(self.ws_h.data(), <int>self.ws_h.size())

    cdef bint check_events(self, GoldThiefRules st, int p, vector[Event]* want, size_t* logpos,
                           int* k) noexcept nogil:
        """Compare the events logged since `logpos` with `p`'s wanted view
        (from event `k` on); advances both; False at the first difference."""
        cdef Event ev, w
        while logpos[0] < st.log.size():
            ev = st.log[logpos[0]]
            logpos[0] += 1
            if not observed(&ev, p):
                continue
            if k[0] >= <int>want.size():
                return False
            w = want[0][k[0]]
            if not sees_secret(&ev, p):
                ev.secret = -1
            if ev.kind != w.kind or ev.actor != w.actor or ev.secret != w.secret or ev.a != w.a:
                return False
            k[0] += 1
        return True

    cdef int node_options(self, GoldThiefRules st, int p, vector[int]* T, vector[int]* meta, int i,
                          int* nexti, vector[Event]* want, int k, int* odr, int* outs,
                          double* probs, double* acc) noexcept nogil:
        """The actions of the skeleton walk at the current node, with their
        proposal probabilities (0 = dead end).  Forced: public actions, `p`'s
        own, window answers (a player asked whose answer is not in the
        public record passes, accepted with probability 1 / their legal
        answers), the chance outcomes `p` observed (accepted with
        probability `acc`, see the rules doc).  Free: hidden chance
        outcomes (by their odds), another player's Give and Faerie goal
        (uniform).  `nexti`: the skeleton index after this step."""
        cdef int cp = to_move(st), ph = st.s.phase, N = <int>T.size()
        cdef int n, j, t, g, act, found
        cdef Event w
        acc[0] = 1.0
        nexti[0] = i
        probs[0] = 1.0
        if cp == CHANCE_PLAYER:
            while i < N and skippable(p, T, meta, i):
                i += 1
            if i >= N or (meta[0][i] & 15) != 0:
                return 0
            nexti[0] = i + 1
            if ph == PH_FIRST:
                outs[0] = T[0][i]
                return 1
            if st.chance_target() != p:
                return st.chance_outcomes(outs, probs)
            if k >= <int>want.size():
                return 0
            w = want[0][k]
            if w.actor != p or w.secret < 0:
                return 0
            if ph == PH_SETUP_CARDS or ph == PH_DRAW:
                t = w.secret
                if w.kind != EV_DRAW or st.s.deck[t] <= 0:
                    return 0
                # P(t) / (an upper bound that depends only on p's information)
                acc[0] = st.s.deck[t] / <double>(st.s.deck[t] + odr[t])
                outs[0] = C_CARD + t
                return 1
            if (w.kind != EV_DEAL_GOAL and w.kind != EV_FAERIE_GOAL) \
                    or st.s.goal_loc[w.secret] != G_PILE:
                return 0
            outs[0] = C_GOAL + w.secret
            return 1
        if cp != p and (ph == PH_RESPOND or ph == PH_NINJA):
            found = window_answer(p, T, meta, i, N, (st.s.npub << 4) | (cp + 1))
            if found >= 0:
                act = T[0][found]
                nexti[0] = found + 1
            else:
                act = A_PASS
            if act == A_PASS:
                # a pass only the passer sees: a hidden choice, uniform among
                # their legal answers, so accepted with probability 1 / (legal)
                acc[0] = 1.0 / st.legal_actions(outs)
            outs[0] = act
            return 1
        if cp != p and ph == PH_GIVE:
            n = st.legal_actions(outs)
            for j in range(n):
                probs[j] = 1.0 / n
            return n
        while i < N and skippable(p, T, meta, i):
            i += 1
        if i >= N or (meta[0][i] & 15) != cp + 1:
            return 0
        act = T[0][i]
        nexti[0] = i + 1
        if cp != p and ph == PH_PLAY and A_FAERIE <= act < A_FAERIE + MAX_GOALS:
            if holds(st, cp, FAERIE) == 0:
                return 0
            n = 0
            for g in range(st.num_goals):
                if st.s.goal_loc[g] == G_DOWN and st.s.goal_owner[g] == cp:
                    outs[n] = A_FAERIE + g
                    n += 1
            for j in range(n):
                probs[j] = 1.0 / n
            return n
        outs[0] = act
        return 1

    cdef bint walk_world(self, GoldThiefRules st, int p, Rng* rng, vector[int]* T,
                         vector[int]* meta, int last, vector[Event]* want,
                         bint search) noexcept nogil:
        """Build a world on `st` along the true history's public skeleton.

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
        st.to_initial()
        cur_gen = 0
        if not self.check_events(st, p, want, &logpos, &k):
            return False
        while True:
            if i > last and k == <int>want.size():
                return True
            ok = not game_over(st)
            n = 0
            if ok:
                n = self.node_options(st, p, T, meta, i, &nexti, want, k, odr, outs, probs, &acc)
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
                if not self.walk_step(st, p, a, &cur_gen, odr) \
                        or not self.check_events(st, p, want, &logpos, &k):
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
                if <int>st.hist.size() != fdepth[j]:
                    path.resize(fdepth[j])
                    st.replay(path.data(), fdepth[j])
                    cur_gen = st.s.gen
                    self.recount_odr(st, p, odr)
                logpos = st.log.size()
                k = fk[j]
                if self.walk_step(st, p, a, &cur_gen, odr) \
                        and self.check_events(st, p, want, &logpos, &k):
                    path.push_back(a)
                    i = fnexti[j]
                    break

    cdef bint walk_step(self, GoldThiefRules st, int p, int a, int* cur_gen,
                        int* odr) noexcept nogil:
        """Apply `a` if legal, keeping `odr` (per type: cards other players
        drew from the current deck generation) up to date."""
        cdef int t, ph = st.s.phase
        cdef bint other_draw = False
        if not legal(st, a):
            return False
        if (ph == PH_SETUP_CARDS or ph == PH_DRAW) and st.chance_target() != p:
            other_draw = True
        step(st, a)
        if other_draw:
            odr[a - C_CARD] += 1
        if st.s.gen != cur_gen[0]:
            cur_gen[0] = st.s.gen
            for t in range(NT):
                odr[t] = 0
        return True

    cdef void recount_odr(self, GoldThiefRules st, int p, int* odr) noexcept nogil:
        """`odr` recomputed from the event log (after a replay)."""
        cdef size_t e
        cdef int t
        for t in range(NT):
            odr[t] = 0
        for e in range(st.log.size()):
            if st.log[e].kind == EV_RESHUFFLE:
                for t in range(NT):
                    odr[t] = 0
            elif st.log[e].kind == EV_DRAW and st.log[e].actor != p:
                odr[st.log[e].secret] += 1

    cdef bint build_model(self, GoldThiefRules st, int p, Rng* rng, vector[Event]* evs,
                          vector[int]* draw_t, vector[int]* gdraw_g, vector[int]* faerie_g,
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
        cdef ObjList* hand = self.ws_hand
        cdef ObjList* down = self.ws_down
        cdef int n = st.s.n, ng = self.ws_ng
        cdef int disc[NT]
        cdef uint64_t used = 0          # goal ids given to goal objects (bit set)
        cdef int g = 0, t, q, v, i, j, o, x, tmp, tries, ok, prc = st.num_goals
        cdef int mask_q = -1, mask_x = 0, a, k, m, left
        cdef size_t e
        cdef Event* ev
        cdef double logq = 0.0, logr = 0.0, qp = 1.0, rp = 1.0, wfl = 0.0, wfp = 1.0
        cdef int cnt[NT]
        cdef uint64_t free, fits, cand_bits
        cdef int no = 0, nrc = 0, npick = 0, nrem, ncand, nhl = 0, ngl = 0
        cdef size_t e0 = 0
        cdef bint recording = False
        cdef ModelPrefix* pre
        cdef HChange* hl = self.ws_hl.data()
        cdef HChange* gl = self.ws_gl.data()
        cdef int* ot
        cdef int* og
        cdef int* pl
        cdef int* pf
        cdef int* rc
        cdef int* re
        cdef int* rk
        cdef int* rm
        cdef int* gs
        # one card object per draw, its id the draw's rank (sized once)
        # (resized only when the size changes: the same for a kept view)
        if <int>otype.size() != self.ws_nd:
            otype.resize(self.ws_nd)
            ogen.resize(self.ws_nd)
        # backward-kernel records: candidates rc[re[i-1]:re[i]], picked rk[i]
        # (at most one record per play or give, of at most a hand each)
        if <int>rcand.size() < self.ws_ntake * MAX_HAND:
            rcand.resize(self.ws_ntake * MAX_HAND)
        if <int>rend.size() < self.ws_ntake:
            rend.resize(self.ws_ntake)
            rpick.resize(self.ws_ntake)
        # each generation's first card object (they are in draw order)
        if <int>self.ws_gstart.size() != ng + 1:
            self.ws_gstart.resize(ng + 1)
        gs = self.ws_gstart.data()
        gs[0] = 0
        ot = otype.data()
        og = ogen.data()
        rc = rcand.data()
        re = rend.data()
        rk = rpick.data()
        if _KEEP_PREFIX and self.ws_pre_ok:
            # the walk up to the view's first random choice, the same for
            # every proposal (``ws_pre``, kept by the first one)
            pre = &self.ws_pre
            e0 = pre.e
            g = pre.g
            no = pre.no
            nhl = pre.nhl
            ngl = pre.ngl
            prc = pre.prc
            mask_q = pre.mask_q
            mask_x = pre.mask_x
            wfl = pre.wfl
            wfp = pre.wfp
            memcpy(disc, pre.disc, sizeof(disc))
            used = pre.used
            for q in range(n):
                copy_objs(&hand[q], &pre.hand[q])
                copy_objs(&down[q], &pre.down[q])
            if no > 0:
                memcpy(ot, self.pre_ot.data(), no * sizeof(int))
                memcpy(og, self.pre_og.data(), no * sizeof(int))
            memcpy(gs, self.pre_gs.data(), (ng + 1) * sizeof(int))
            copy_ints(pool, &self.pre_pool)
            copy_ints(pleft, &self.pre_pleft)
            copy_ints(&self.ws_pool0, &self.pre_pool0)
            copy_ints(gives, &self.pre_gives)
            copy_ints(faeries, &self.pre_faeries)
            copy_ints(gdraws, &self.pre_gdraws)
            copy_ints(gid, &self.pre_gid)
            copy_ints(bottom, &self.pre_bottom)
            gmask.resize(self.pre_gmask.size())
            for i in range(<int>self.pre_gmask.size()):
                gmask[0][i] = self.pre_gmask[i]
            pl = pool.data()
            pf = pleft.data()
        else:
            recording = _KEEP_PREFIX
            gives.clear()
            faeries.clear()
            gdraws.clear()
            gid.clear()
            bottom.clear()
            pool.clear()
            pleft.clear()
            gmask.clear()
            self.ws_pool0.clear()
            self.ws_pool0.resize(ng * NT)
            for q in range(n):
                hand[q].n = 0
                down[q].n = 0
            pool.resize(ng * NT)
            pleft.resize(ng)
            pl = pool.data()
            pf = pleft.data()
            for t in range(NT):
                pool[0][t] = st.counts[t]
                self.ws_pool0[t] = st.counts[t]
                pleft[0][0] += st.counts[t]
                disc[t] = 0
            if st.first_fixed < 0:
                mul_prob(&wfl, &wfp, 1.0 / n)
        # (``model_events`` left out passes and windows; a detail `p` did not
        # see is already -1 in the view)
        for e in range(e0, evs.size()):
            ev = &evs[0][e]
            if recording and not fixed_step(ev, p, ot, hand, down, gid.data()):
                # the first step that may draw at random: keep the walk so far
                recording = False
                if nrc == 0 and npick == 0:
                    self.keep_prefix(e, g, no, nhl, ngl, prc, mask_q, mask_x, wfl, wfp,
                                     disc, used, n)
            k = ev.kind
            a = ev.secret
            if mask_q >= 0 and not (k == EV_FLIP and ev.actor == mask_q
                                    and goal_matches(st, ev.a, mask_x)):
                # compulsory scoring: the goals left face down do not show mask_x
                if mask_x <= MAX_GOLD:
                    for i in range(down[mask_q].n):
                        o = down[mask_q].v[i]
                        if gid[0][o] >= 0 and goal_matches(st, gid[0][o], mask_x):
                            return False
                        gmask[0][o] |= (<uint64_t>1) << mask_x
                mask_q = -1
            if k == EV_DRAW:
                # (one card object per draw of the view: `no` < ws_nd; g < ng)
                ot[no] = a
                og[no] = g
                if a >= 0:
                    pl[g * NT + a] -= 1
                    pf[g] -= 1
                    if pl[g * NT + a] < 0:
                        return False
                if not obj_push(&hand[ev.actor], no, MAX_HAND):
                    return False
                # (its change, object `no`, is in ws_hl from ``model_events``)
                nhl += 1
                no += 1
            elif k == EV_RESHUFFLE:
                g += 1
                if g >= ng:
                    return False
                gs[g] = no
                for t in range(NT):
                    pool[0][g * NT + t] = disc[t]
                    self.ws_pool0[g * NT + t] = disc[t]
                    pleft[0][g] += disc[t]
                    disc[t] = 0
            elif k == EV_PLAY:
                t = card_of_action(ev.a)
                disc[t] += 1
                o = take_card(ev.actor, t, rng, ot, og, hand, pl, pf, &logq, &qp, rc, &nrc, re,
                              rk, &npick)
                if o < 0:
                    return False
                hl[nhl].o = o
                nhl += 1
                if ev.a == A_FAERIE:
                    q = ev.actor
                    o = -1
                    if q == p:
                        for i in range(down[q].n):
                            if gid[0][down[q].v[i]] == a:
                                o = i
                    elif down[q].n > 0:
                        o = rng_int(rng, down[q].n)
                        mul_prob(&logq, &qp, 1.0 / down[q].n)
                        mul_prob(&wfl, &wfp, 1.0 / down[q].n)
                    if o < 0:
                        return False
                    x = down[q].v[o]
                    gl[ngl].o = x
                    ngl += 1
                    obj_erase(&down[q], o)
                    bottom.push_back(x)
                    faeries.push_back(x)
            elif k == EV_GIVE:
                v = ev.actor
                if a >= 0:
                    o = take_card(v, a, rng, ot, og, hand, pl, pf, &logq, &qp, rc, &nrc, re, rk,
                                  &npick)
                    if o < 0:
                        return False
                else:
                    if hand[v].n == 0:
                        return False
                    i = rng_int(rng, hand[v].n)
                    o = hand[v].v[i]
                    mul_prob(&logq, &qp, 1.0 / hand[v].n)
                    for j in range(hand[v].n):
                        rc[nrc] = hand[v].v[j]
                        nrc += 1
                    re[npick] = nrc
                    rk[npick] = o
                    npick += 1
                    obj_erase(&hand[v], i)
                if not obj_push(&hand[ev.a], o, MAX_HAND):
                    return False
                gives.push_back(o)
                hl[nhl].o = o
                hl[nhl + 1].o = o
                nhl += 2
            elif k == EV_DEAL_GOAL or k == EV_FAERIE_GOAL:
                q = ev.actor
                if prc > 0:
                    mul_prob(&wfl, &wfp, 1.0 / prc)
                    prc -= 1
                    if a >= 0:
                        if used >> a & 1:
                            return False
                        used |= (<uint64_t>1) << a
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
                            if used >> a & 1 or mask_hits(st, gmask[0][o], a):
                                return False
                            gid[0][o] = a
                            used |= (<uint64_t>1) << a
                        elif gid[0][o] != a:
                            return False
                if not obj_push(&down[q], o, MAX_GOALS):
                    return False
                gl[ngl].o = o
                ngl += 1
            elif k == EV_FLIP:
                q = ev.actor
                x = ev.a
                o = -1
                for i in range(down[q].n):
                    if gid[0][down[q].v[i]] == x:
                        o = i
                if o < 0:
                    if used >> x & 1:
                        return False
                    cand.clear()
                    for i in range(down[q].n):
                        if gid[0][down[q].v[i]] < 0 \
                                and not mask_hits(st, gmask[0][down[q].v[i]], x):
                            cand.push_back(i)
                    if cand.size() == 0:
                        return False
                    o = cand[0][rng_int(rng, <int>cand.size())]
                    mul_prob(&logq, &qp, 1.0 / cand.size())
                    gid[0][down[q].v[o]] = x
                    used |= (<uint64_t>1) << x
                gl[ngl].o = down[q].v[o]
                ngl += 1
                obj_erase(&down[q], o)
            elif k == EV_SCORE:
                mask_q = ev.actor
                mask_x = ev.a
        if recording and nrc == 0 and npick == 0:
            self.keep_prefix(<int>evs.size(), g, no, nhl, ngl, prc, mask_q, mask_x, wfl, wfp,
                             disc, used, n)
        # Cards still unknown: a uniform arrangement of what is left of
        # their deck generation (the rest of the last one is the deck).
        # (each generation's objects are gs[g]:gs[g + 1]; the types left,
        # in type order, are shuffled in full)
        gs[ng] = no
        nrem = 0
        for t in range(NT):
            nrem += st.counts[t]
        if <int>rem.size() < nrem:
            rem.resize(nrem)
        rm = rem.data()
        for g in range(ng):
            nrem = 0
            for t in range(NT):
                for i in range(pl[g * NT + t]):
                    rm[nrem] = t
                    nrem += 1
            ncand = 0
            for o in range(gs[g], gs[g + 1]):
                if ot[o] < 0:
                    ncand += 1
            if ncand > nrem or (g < ng - 1 and ncand != nrem):
                return False
            for i in range(nrem - 1, 0, -1):
                j = rng_int(rng, i + 1)
                tmp = rm[i]
                rm[i] = rm[j]
                rm[j] = tmp
            # q of the type sequence given to the unknown cards: sequential
            # draws without replacement from what is left
            for t in range(NT):
                cnt[t] = pl[g * NT + t]
            left = nrem
            i = 0
            for o in range(gs[g], gs[g + 1]):
                if ot[o] >= 0:
                    continue
                ot[o] = rm[i]
                mul_prob(&logq, &qp, cnt[rm[i]] / <double>left)
                cnt[rm[i]] -= 1
                left -= 1
                i += 1
        # Goals still unknown: each in turn gets an unused id uniformly among
        # those its "does not show x" facts allow (a dead end fails).
        # (as bit sets of goal ids; the candidates in ascending order)
        free = (((<uint64_t>1) << st.num_goals) - 1) & ~used
        for o in range(<int>gid.size()):
            if gid[0][o] >= 0:
                continue
            fits = free
            if gmask[0][o]:
                # (over the free ids only)
                cand_bits = free
                while cand_bits:
                    i = __builtin_ctzll(cand_bits)
                    cand_bits &= cand_bits - 1
                    if mask_hits(st, gmask[0][o], i):
                        fits &= ~((<uint64_t>1) << i)
            m = popcount64(fits)
            if m == 0:
                return False
            x = nth_bit(fits, rng_int(rng, m))
            mul_prob(&logq, &qp, 1.0 / m)
            gid[0][o] = x
            free &= ~((<uint64_t>1) << x)
        # r(u | h): uniform among the recorded candidates of the picked type
        j = 0
        for i in range(npick):
            m = 0
            x = ot[rk[i]]
            while j < re[i]:
                if ot[rc[j]] == x:
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
            for i in range(down[mask_q].n):
                if goal_matches(st, gid[0][down[mask_q].v[i]], mask_x):
                    self.ws_flip_pending = True
        # (card object i is draw i, goal object i the i-th goal from the pile)
        draw_t.resize(no)
        if no > 0:
            memcpy(draw_t.data(), ot, no * sizeof(int))
        # (the output vectors are empty: sized once, then written)
        m = <int>gdraws.size()
        gdraw_g.resize(m)
        for i in range(m):
            gdraw_g[0][i] = gid[0][i]
        m = <int>faeries.size()
        faerie_g.resize(m)
        for i in range(m):
            faerie_g[0][i] = gid[0][faeries[0][i]]
        m = <int>gives.size()
        give_t.resize(m)
        for i in range(m):
            give_t[0][i] = ot[gives[0][i]]
        return True

    cdef void keep_prefix(self, size_t e, int g, int no, int nhl, int ngl, int prc, int mask_q,
                          int mask_x, double wfl, double wfp, int* disc, uint64_t used,
                          int n) noexcept nogil:
        """Keep ``build_model``'s walk before view event `e` (``ws_pre``):
        no random choice was made before it, so it is the same for every
        proposal of the kept view, which starts from it."""
        cdef ModelPrefix* pre = &self.ws_pre
        pre.e = <int>e
        pre.g = g
        pre.no = no
        pre.nhl = nhl
        pre.ngl = ngl
        pre.prc = prc
        pre.mask_q = mask_q
        pre.mask_x = mask_x
        pre.wfl = wfl
        pre.wfp = wfp
        memcpy(pre.disc, disc, NT * sizeof(int))
        pre.used = used
        memcpy(pre.hand, self.ws_hand, n * sizeof(ObjList))
        memcpy(pre.down, self.ws_down, n * sizeof(ObjList))
        self.pre_ot.assign(self.ws_otype.begin(), self.ws_otype.begin() + no)
        self.pre_og.assign(self.ws_ogen.begin(), self.ws_ogen.begin() + no)
        self.pre_gs = self.ws_gstart
        self.pre_pool = self.ws_pool
        self.pre_pleft = self.ws_pleft
        self.pre_pool0 = self.ws_pool0
        self.pre_gives = self.ws_gives
        self.pre_faeries = self.ws_faeries
        self.pre_gdraws = self.ws_gdraws
        self.pre_gid = self.ws_gid
        self.pre_bottom = self.ws_bottom
        self.pre_gmask = self.ws_gmask
        self.ws_pre_ok = True

    cdef double model_weight(self, GoldThiefRules st, int p, int nwant,
                             int* verdict) noexcept nogil:
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
        cdef int tot, g, t, o, i, j, q, m, opts, ih = 0, ng
        cdef int nh = <int>self.ws_hl.size(), nl = <int>self.ws_gl.size()
        cdef int nv = <int>self.ws_gv.size(), nr = <int>st.rec.size()
        cdef double lw = self.ws_wfix, wp = 1.0
        cdef Consid* c
        cdef HChange* h
        cdef Consid* rec = st.rec.data()
        cdef HChange* hl = self.ws_hl.data()
        cdef HChange* gl = self.ws_gl.data()
        cdef HChange* gv = self.ws_gv.data()
        cdef int* ot = otype.data()
        cdef int* og = ogen.data()
        cdef int* gi = gid.data()
        cdef int* dk
        cdef int* tt
        cdef int* sc
        cdef int si, op, kind
        verdict[0] = -1
        ng = <int>self.ws_pool0.size() // NT
        if not self.ws_tt0_ok:
            # each generation's first pool is the same for every proposal of
            # the kept view: its sizes are summed once
            self.ws_tt0.assign(ng, 0)
            for g in range(ng):
                for t in range(NT):
                    self.ws_tt0[g] += self.ws_pool0[g * NT + t]
            self.ws_tt0_ok = True
        deck.assign(self.ws_pool0.begin(), self.ws_pool0.end())
        ttot.assign(self.ws_tt0.begin(), self.ws_tt0.end())
        dk = deck.data()
        tt = ttot.data()
        for o in range(self.ws_nd):
            # (card object o is draw o)
            t = ot[o]
            g = og[o]
            if dk[g * NT + t] <= 0:
                return -INFINITY
            mul_prob(&lw, &wp, dk[g * NT + t] / <double>tt[g])
            dk[g * NT + t] -= 1
            tt[g] -= 1
        memset(cnt, 0, sizeof(cnt))
        memset(held, 0, sizeof(held))
        memset(dn, 0, sizeof(dn))
        if not self.ws_sched_ok or self.ws_sched_n[0] != nh or self.ws_sched_n[1] != nl \
                or self.ws_sched_n[2] != nr or self.ws_sched_n[3] != nv:
            self.schedule(st, p)
        sc = self.ws_sched.data()
        for si in range(<int>self.ws_sched.size()):
            op = sc[si]
            i = op >> 2
            kind = op & 3
            if kind == SCH_HAND:
                h = &hl[i]
                t = ot[h.o]
                cnt[h.q][t] += h.d
                if cnt[h.q][t] > 0:
                    held[h.q] |= 1 << t
                else:
                    held[h.q] &= ~(1 << t)
                ih = i + 1
            elif kind == SCH_GOAL:
                h = &gl[i]
                if h.d > 0:
                    dg[h.q][dn[h.q]] = gi[h.o]
                    dn[h.q] += 1
                else:
                    for j in range(dn[h.q]):
                        if dg[h.q][j] == gi[h.o]:
                            dg[h.q][j] = dg[h.q][dn[h.q] - 1]
                            dn[h.q] -= 1
                            break
            elif kind == SCH_SEAT:
                c = &rec[i]
                q = c.q
                opts = 0
                if c.gold < 0:
                    opts = TYPE_BITS[c.mask & held[q]]
                elif cnt[q][NINJA] > 0:
                    for j in range(dn[q]):
                        if goal_matches(st, dg[q][j], c.gold):
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
                q = gv[i].q
                m = TYPE_BITS[held[q]]
                if m > 1:
                    mul_prob(&lw, &wp, 1.0 / m)
        if self.ws_flip_pending:
            # the view ends with a scoring that this world's goals would add to
            verdict[0] = 0
        elif verdict[0] < 0:
            if self.tail_kind == TAIL_FIXED:
                verdict[0] = 1
            elif self.tail_kind == TAIL_GIVE:
                while ih < nh and hl[ih].e < nwant:
                    h = &hl[ih]
                    cnt[h.q][ot[h.o]] += h.d
                    ih += 1
                m = 0
                for t in range(NT):
                    if cnt[self.tail_q][t] > 0:
                        m += 1
                verdict[0] = 1 if m > 1 else 0
        return lw + log(wp)

    cdef void schedule(self, GoldThiefRules st, int p) noexcept nogil:
        """The order in which ``model_weight`` meets the model's hand and
        goal changes (``ws_hl``, ``ws_gl``), the window seats of the recorded
        replay (``st.rec``; those answered publicly left out) and the unseen
        Give decisions (``ws_gv``), in event order: a change at an event
        comes after a seat or Give at that event.  The positions are those
        of the view and the recorded replay, the same for every proposal of
        one resample, so it is built once (``ws_sched``, op = index << 2 |
        SCH_*).  `p`'s own hand and goal changes are left out: no seat or
        Give of ``model_weight`` is `p`'s."""
        cdef int nh = <int>self.ws_hl.size(), nl = <int>self.ws_gl.size()
        cdef int nv = <int>self.ws_gv.size(), nr = <int>st.rec.size()
        cdef int ih = 0, ig = 0, iv = 0, ir = 0, pos, ns = 0
        cdef Consid* rec = st.rec.data()
        cdef HChange* hl = self.ws_hl.data()
        cdef HChange* gl = self.ws_gl.data()
        cdef HChange* gv = self.ws_gv.data()
        cdef int* sc
        # (written in place: at most one op per entry of the four lists)
        self.ws_sched.resize(nh + nl + nr + nv)
        sc = self.ws_sched.data()
        while ir < nr or iv < nv:
            if ir < nr and (iv >= nv or rec[ir].k <= gv[iv].e):
                pos = rec[ir].k
            else:
                pos = gv[iv].e
            while ih < nh and hl[ih].e < pos:
                if hl[ih].q != p:
                    sc[ns] = ih << 2 | SCH_HAND
                    ns += 1
                ih += 1
            while ig < nl and gl[ig].e < pos:
                if gl[ig].q != p:
                    sc[ns] = ig << 2 | SCH_GOAL
                    ns += 1
                ig += 1
            if ir < nr and rec[ir].k == pos:
                if not rec[ir].pub:
                    sc[ns] = ir << 2 | SCH_SEAT
                    ns += 1
                ir += 1
            else:
                sc[ns] = iv << 2 | SCH_GIVE
                ns += 1
                iv += 1
        self.ws_sched.resize(ns)
        self.ws_sched_rec = st.rec
        self.ws_sched_n[0] = nh
        self.ws_sched_n[1] = nl
        self.ws_sched_n[2] = nr
        self.ws_sched_n[3] = nv
        self.ws_sched_ok = True

    cdef bint build_world(self, GoldThiefRules st, int p, vector[Event]* want, vector[int]* T,
                          vector[int]* meta, int last, vector[int]* draw_t, vector[int]* gdraw_g,
                          vector[int]* faerie_g, vector[int]* give_t, double* logw, bint rec=False,
                          bint loud=False) noexcept nogil:
        """Replay the true history's skeleton on `st` with the model's hidden
        outcomes, silently (the rules' ``silent_match``); True if the result is in `p`'s
        information set (its view of the events is `want`, all of it, and the
        skeleton is used up to `last`).  `st.hist` is then the world's
        history, but the log, the hashes and ``hmeta`` are not built (replay
        the history to get the state).  `logw`: log of the target weight w(h)
        of the world (chance probabilities, 1 / legal Gives at another
        player's Give, 1 / face-down goals at another player's Faerie play,
        1 / legal answers at another player's unrecorded window pass).
        `rec`: record the seats the windows reach in ``st.rec``
        (``record_seat``; ``rec_bad`` if a public answer does not match).
        `loud`: build the log, hashes and ``hmeta`` too (`st` is then the
        world, if accepted)."""
        cdef bint ok
        st.sil_rec = rec
        st.sil_loud = loud
        self.rec_bad = False
        if rec:
            st.rec.clear()
        st.sil_p = p
        st.sil_want = want
        st.sil_k = 0
        st.sil_gives = 0
        st.sil_bad = False
        ok = self.silent_world(st, p, T, meta, last, draw_t, gdraw_g, faerie_g, give_t, logw)
        if rec and self.ws_sched_ok and (
                st.rec.size() != self.ws_sched_rec.size()
                or (st.rec.size() > 0 and memcmp(st.rec.data(), self.ws_sched_rec.data(),
                                                 st.rec.size() * sizeof(Consid)) != 0)):
            # the schedule was built for other window seats
            self.ws_sched_ok = False
        if rec and ok:
            self.tail_kind = TAIL_FIXED
            self.tail_q = -1
            if not game_over(st) and to_move(st) != p \
                    and to_move(st) != CHANCE_PLAYER:
                if st.s.phase == PH_GIVE:
                    self.tail_kind = TAIL_GIVE
                    self.tail_q = st.s.decider
                elif st.s.phase == PH_RESPOND or st.s.phase == PH_NINJA:
                    self.tail_kind = TAIL_WINDOW
                    self.tail_q = st.s.decider
        st.sil_rec = False
        st.sil_loud = False
        st.sil_p = -1
        st.sil_want = NULL
        return ok

    cdef bint silent_world(self, GoldThiefRules st, int p, vector[int]* T, vector[int]* meta,
                           int last, vector[int]* draw_t, vector[int]* gdraw_g,
                           vector[int]* faerie_g, vector[int]* give_t,
                           double* logw) noexcept nogil:
        """The replay of ``build_world`` (silent mode already set)."""
        cdef int N = <int>T.size(), i = 0, j, found, cp, ph, act, n, g, t, tot
        cdef int di = 0, gi = 0, fi = 0, vi, nwant = <int>st.sil_want.size()
        cdef int outs[MAX_BRANCHING]
        cdef double lw = 0.0, wp = 1.0
        logw[0] = 0.0
        st.to_initial()
        while not game_over(st):
            if st.sil_bad:
                return False
            if i > last and st.sil_k == nwant:
                break
            cp = to_move(st)
            ph = st.s.phase
            if cp == CHANCE_PLAYER:
                while i < N and skippable(p, T, meta, i):
                    i += 1
                if i >= N or (meta[0][i] & 15) != 0:
                    return False
                if ph == PH_FIRST:
                    act = T[0][i]
                    if not C_FIRST <= act < C_FIRST + st.s.n:
                        return False
                    mul_prob(&lw, &wp, 1.0 / st.s.n)
                elif ph == PH_SETUP_CARDS or ph == PH_DRAW:
                    if di >= <int>draw_t.size():
                        return False
                    t = draw_t[0][di]
                    di += 1
                    if st.s.deck[t] <= 0:
                        return False
                    mul_prob(&lw, &wp, st.s.deck[t] / <double>deck_total(st))
                    act = C_CARD + t
                else:
                    if gi >= <int>gdraw_g.size():
                        return False
                    g = gdraw_g[0][gi]
                    gi += 1
                    if st.s.goal_loc[g] != G_PILE:
                        return False
                    mul_prob(&lw, &wp, 1.0 / pile_random(st))
                    act = C_GOAL + g
                i += 1
                step(st, act)
                continue
            if cp != p and (ph == PH_RESPOND or ph == PH_NINJA):
                found = window_answer(p, T, meta, i, N, (st.s.npub << 4) | (cp + 1))
                if found >= 0:
                    act = T[0][found]
                    i = found + 1
                else:
                    act = A_PASS
                if act != A_PASS and st.sil_rec:
                    if st.rec.size() > 0 and st.rec.back().q == cp:
                        st.rec.back().pub = 1
                    else:
                        self.rec_bad = True
                if act == A_PASS:
                    # A_PASS is always legal here
                    mul_prob(&lw, &wp, 1.0 / st.legal_actions(outs))
                    step(st, act)
                    continue
            elif cp != p and ph == PH_GIVE:
                vi = st.sil_gives
                if vi >= <int>give_t.size():
                    return False
                act = A_GIVE + give_t[0][vi]
                n = st.legal_actions(outs)
                if n <= 0:
                    return False
                mul_prob(&lw, &wp, 1.0 / n)
            else:
                while i < N and skippable(p, T, meta, i):
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
                        for g in range(st.num_goals):
                            if st.s.goal_loc[g] == G_DOWN and st.s.goal_owner[g] == cp:
                                n += 1
                        if n <= 0:
                            return False
                        mul_prob(&lw, &wp, 1.0 / n)
                    fi += 1
            if not legal(st, act):
                return False
            step(st, act)
        logw[0] = lw + log(wp)
        return not st.sil_bad and i > last and st.sil_k == nwant
