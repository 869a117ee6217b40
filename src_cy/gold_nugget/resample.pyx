# cython: language_level=3
"""Gold Nugget resampling (docs/rules/gold_nugget.md, "Resampling").

``rs_resample_history`` writes a whole history drawn from a player's
information set, using a ``GoldNuggetRules`` state (``rules.pyx``) as
scratch: the exact stage (enumeration, small games), else walks with
backjumping followed by the MCMC corrector, within the caller's deadline.
The module's knobs and counters (``set_resample_corrector``,
``resample_stats``, ...) are process-wide; ``src_cy.gold_nugget.engine``
re-exports them.  ``draw_history`` is the Python entry over any rules
state (tests).
"""
from libc.stdint cimport uint64_t, uint32_t
from libcpp.vector cimport vector
from libc.string cimport memcpy, memcmp, memset
from libc.stdlib cimport malloc, free
from src_cy.engine cimport (Rng, rng_int, rng_double, CHANCE_PLAYER, ENGINE_MAX_PLAYERS,
                            TERMINAL_PLAYER, MAX_BRANCHING, RESAMPLE_OK, RESAMPLE_OUT_OF_TIME)
from src_cy.clock cimport past
from src_cy.engine import check_chain_settings
from src_cy.events cimport Event, EVENT_NONE
from src_cy.gold_nugget.actions cimport *
from src_cy.gold_nugget.catalog cimport *
from src_cy.gold_nugget.rules cimport *

cdef enum:
    RESAMPLE_SAFETY_CAP = 200000000   # backtracks of one resample before RuntimeError (a bug)
    EXACT_BUDGET_DEFAULT = -1         # the exact stage: in small games only (set_resample_exact_budget)
    EXACT_BUDGET_SMALL = 20000        # nodes of the exact stage in a small game before the walks
    MCMC_STEPS = 32           # corrector steps after each walk (set_resample_corrector)
    MCMC_LOG_WINDOW = 3       # corrector blocks of 2 .. 2^3 history positions
    MCMC_BUDGET = 128         # worst-case nodes of an exact corrector step (else an MH step)
    WALK_BACKTRACKS = 32      # backtracks to an earlier node before a walk jumps back (rules doc)
    WALK_JUMP = 8             # nodes of the first jump back after too many backtracks
    CHAIN_STEPS = 4           # corrector steps from the last world (set_resample_chain)
    REPLAY_CHECKPOINT = 8     # positions between the realizing replay's checkpoints

# the corrector's default setting (set_resample_corrector; rules doc, "Resampling")
RESAMPLE_CORRECTOR_DEFAULT = {"steps": MCMC_STEPS, "log_window": MCMC_LOG_WINDOW,
                              "budget": MCMC_BUDGET}
# chaining's default setting (set_resample_chain; rules doc, "Resampling")
RESAMPLE_CHAIN_DEFAULT = {"steps": CHAIN_STEPS, "refresh": 1.0 / 64}


cdef size_t _GN_BYTES = sizeof(GN)


cdef inline void gn_copy(GN* dst, const GN* src) noexcept nogil:
    """Copy a state. The size is a variable so that the C library's memcpy
    does it: measured 1.5x faster here than the inlined ``rep movsq`` a
    constant size gives (2,428 bytes)."""
    memcpy(dst, src, _GN_BYTES)


cdef inline void keep_state(GoldNuggetRules self, int d) noexcept nogil:
    """The state becomes the search's record of depth d (``wsnap[d]``),
    copied into kept storage (a new record is copied in, not zero-filled
    first)."""
    while <int>self.wsnap.size() < d:
        self.wsnap.push_back(self.g)
    if <int>self.wsnap.size() == d:
        self.wsnap.push_back(self.g)
    else:
        gn_copy(&self.wsnap[d], &self.g)


cdef struct Facts:
    # what the walking player saw revealed of other players' hidden decisions
    int chosen[MAXP]
    int vcp[MAXP]
    int fd[MAXP]
    int gr[MAXP]
    int gface[MAXP]      # the face each grab got (-1: none seen)
    uint32_t chosen_any
    uint32_t p_offers
    uint32_t vcp_any


# resampling statistics of this process (docs/rules/gold_nugget.md, "Resampling")
cdef long _RS_CALLS = 0       # resample_history calls
cdef long _RS_WALKS = 0       # walks started
cdef long _RS_BACKTRACKS = 0  # backtracks over all walks
cdef long _RS_FIRST = 0       # worlds found by the first walk of a call
cdef long _RS_RESTART = 0     # worlds found by a later walk
cdef long _RS_EXHAUSTED = 0   # walks that ran out of choice points (a new walk follows)
cdef long _RS_ERRORS = 0      # resamples that hit the safety cap: no world (a bug)
cdef long _RS_BACKTRACK_CAP = RESAMPLE_SAFETY_CAP
cdef int _RS_ERROR = 0        # the last resample hit the safety cap
cdef long _RS_JUMPS = 0       # backjumps to the culprit of a face conflict
cdef long _RS_EXACT = 0       # worlds drawn by the exact enumeration stage
cdef long _RS_EXACT_BUDGET = EXACT_BUDGET_DEFAULT
cdef long _RS_EXACT_NODES = 0 # nodes the exact stage visited (all calls)
cdef int _RS_MCMC_STEPS = MCMC_STEPS       # corrector steps after a walk's world
cdef int _RS_MCMC_LOG_WINDOW = MCMC_LOG_WINDOW  # blocks of 2, 4, ... 2^this positions
cdef long _RS_MCMC_BUDGET = MCMC_BUDGET    # worst-case nodes of an exact corrector step
cdef long _RS_MCMC_MOVES = 0  # corrector steps that changed the world
cdef long _RS_MCMC_SKIPS = 0  # corrector steps whose exact draw may pass the budget (MH steps)
cdef long _RS_MCMC_REJECTS = 0  # of those, proposals rejected (world unchanged)
cdef long _RS_MCMC_FAILS = 0  # corrector runs that found no world in a step (not expected)
cdef long _RS_MCMC_NODES = 0  # nodes the corrector's steps visited
cdef long _RS_OUT_OF_TIME = 0 # resamples stopped at their deadline (no world)
cdef long _RS_MCMC_CUT = 0    # corrector runs cut short by the deadline (world kept)
cdef int _RS_CHAIN_STEPS = CHAIN_STEPS   # corrector steps of a chained world (0: no chaining)
cdef double _RS_CHAIN_REFRESH = 1.0 / 64  # chance of a fresh world instead of a chained one
cdef long _RS_CHAINED = 0     # worlds chained from the last one
cdef long _RS_CHAIN_FRESH = 0 # fresh worlds drawn instead by the refresh
cdef long _RS_CHAIN_FAILS = 0 # chains that failed (a fresh world instead; not expected)


def set_resample_exact_budget(long nodes) -> int:
    """Nodes the exact stage may visit before the walks take over, in every
    game (0: no exact stage; -1, the default: ``EXACT_BUDGET_SMALL`` nodes
    in small games -- 2 players, at most 8 forest cards, at most 6 stones,
    such as the mini preset -- and no exact stage in the others, where it
    cannot finish); returns the previous setting (rules doc, "Resampling")."""
    global _RS_EXACT_BUDGET
    if nodes < -1:
        raise ValueError(f"nodes must be >= -1, got {nodes}")
    old = _RS_EXACT_BUDGET
    _RS_EXACT_BUDGET = nodes
    return old
cdef bint _RS_BACKJUMP = True
cdef long _RS_WALK_BACKS = WALK_BACKTRACKS
cdef int _RS_JUMP0 = WALK_JUMP


def set_resample_corrector(int steps=-1, int log_window=-1, long budget=-1) -> tuple:
    """Set the corrector that follows every walk (rules doc, "Resampling"):
    ``steps`` steps over blocks of 2 to 2^``log_window`` history positions,
    each an exact (Gibbs) draw of the block where its worst case fits
    ``budget`` nodes, else a Metropolis-Hastings step (-1 keeps a setting; defaults
    ``MCMC_STEPS``, ``MCMC_LOG_WINDOW``, ``MCMC_BUDGET``; steps=0 turns it
    off). Returns the previous (steps, log_window, budget)."""
    global _RS_MCMC_STEPS, _RS_MCMC_LOG_WINDOW, _RS_MCMC_BUDGET
    if steps < -1:
        raise ValueError(f"steps must be >= 0 (or -1: keep), got {steps}")
    if log_window < -1 or log_window == 0 or log_window > 12:
        raise ValueError(f"log_window must be in 1..12 (or -1: keep), got {log_window}")
    if budget < -1 or budget == 0:
        raise ValueError(f"budget must be >= 1 (or -1: keep), got {budget}")
    old = (_RS_MCMC_STEPS, _RS_MCMC_LOG_WINDOW, _RS_MCMC_BUDGET)
    if steps >= 0:
        _RS_MCMC_STEPS = steps
    if log_window > 0:
        _RS_MCMC_LOG_WINDOW = log_window
    if budget > 0:
        _RS_MCMC_BUDGET = budget
    return old


def set_resample_chain(steps: int | None = None, refresh: float | None = None) -> tuple:
    """Set chaining (rules doc, "Resampling"): a world drawn with the last
    world of the same information set at hand (``resample_next``: ISMCTS,
    the pyspiel adapter) is that world moved by ``steps`` corrector steps,
    except that with probability ``refresh`` it is drawn afresh (walk and
    full corrector); ``steps`` 0 turns chaining off.  None keeps a setting
    (defaults ``RESAMPLE_CHAIN_DEFAULT``).  Returns the previous (steps,
    refresh)."""
    global _RS_CHAIN_STEPS, _RS_CHAIN_REFRESH
    check_chain_settings(steps, refresh, 1 << 20)
    old = (_RS_CHAIN_STEPS, _RS_CHAIN_REFRESH)
    if steps is not None:
        _RS_CHAIN_STEPS = steps
    if refresh is not None:
        _RS_CHAIN_REFRESH = refresh
    return old


cdef bint _RS_MCMC_AFTER_EXACT = False


def _set_corrector_after_exact(bint on) -> bool:
    """Tests only: run the corrector after the exact stage's worlds too (to
    check that its steps leave exact draws exact); returns the old value."""
    global _RS_MCMC_AFTER_EXACT
    old = _RS_MCMC_AFTER_EXACT
    _RS_MCMC_AFTER_EXACT = on
    return old


def _set_walk_tuning(long backtracks, int jump) -> None:
    """Tuning experiments only: backtracks before a jump, first jump."""
    global _RS_WALK_BACKS, _RS_JUMP0
    _RS_WALK_BACKS = backtracks
    _RS_JUMP0 = jump


def set_resample_backjumping(bint on) -> bool:
    """Diagnostics: conflict-directed backjumping on face conflicts on/off
    (on by default); returns the previous setting."""
    global _RS_BACKJUMP
    old = _RS_BACKJUMP
    _RS_BACKJUMP = on
    return old


def resample_stats() -> dict:
    """Counters of Gold Nugget resampling in this process: ``calls``,
    ``walks``, ``backtracks``, the stage that produced each world (``first``:
    the first walk, ``restart``: a later walk, ``exact``: the exact stage;
    ``exact_nodes``: nodes that stage visited), ``exhausted`` (walks that ran
    out of choice points; another walk follows), ``errors`` (resamples
    that reached the safety cap of backtracks and raised RuntimeError; never
    expected) and the corrector's steps (``mcmc_moves``: changed the world,
    ``mcmc_skips``: steps whose exact draw could pass the budget, taken as
    Metropolis-Hastings steps instead, ``mcmc_rejects``: their proposals
    rejected, ``mcmc_nodes``: nodes visited;
    ``mcmc_fails``: a step found no world, never expected), and the
    deadline's effects (``out_of_time``: walks stopped at the caller's
    deadline, no world returned; ``mcmc_cut``: corrector runs cut short by
    it, the chain's world returned) and chaining (``chained``: worlds moved
    on from the last one, ``chain_fresh``: fresh ones its refresh drew
    instead, ``chain_fails``: chains that failed, a fresh world drawn
    instead, never expected). There is no fallback to the true
    history: every call either returns a world drawn from the player's
    information or returns none (deadline) or raises (safety cap)."""
    return {"calls": _RS_CALLS, "walks": _RS_WALKS, "backtracks": _RS_BACKTRACKS,
            "first": _RS_FIRST, "restart": _RS_RESTART, "exhausted": _RS_EXHAUSTED,
            "errors": _RS_ERRORS, "backjumps": _RS_JUMPS, "exact": _RS_EXACT,
            "exact_nodes": _RS_EXACT_NODES, "mcmc_moves": _RS_MCMC_MOVES,
            "mcmc_skips": _RS_MCMC_SKIPS, "mcmc_fails": _RS_MCMC_FAILS,
            "mcmc_nodes": _RS_MCMC_NODES, "mcmc_rejects": _RS_MCMC_REJECTS,
            "out_of_time": _RS_OUT_OF_TIME,
            "mcmc_cut": _RS_MCMC_CUT, "chained": _RS_CHAINED,
            "chain_fresh": _RS_CHAIN_FRESH, "chain_fails": _RS_CHAIN_FAILS}


def set_resample_safety_cap(long backtracks) -> int:
    """Set the backtracks one resample may make before it gives up and raises
    RuntimeError (default ``RESAMPLE_SAFETY_CAP``: minutes of search, far
    beyond any measured call); returns the previous cap. For tests and
    diagnostics."""
    global _RS_BACKTRACK_CAP
    if backtracks < 1:
        raise ValueError(f"backtracks must be >= 1, got {backtracks}")
    old = _RS_BACKTRACK_CAP
    _RS_BACKTRACK_CAP = backtracks
    return old


def _raise_if_resample_failed(int player) -> None:
    """RuntimeError if the last resample hit the safety cap."""
    if _RS_ERROR:
        raise RuntimeError(
            f"gold_nugget resample for player {player} found no world within "
            f"{_RS_BACKTRACK_CAP} backtracks (the safety cap; see "
            f"docs/rules/gold_nugget.md, Resampling): the true history is never "
            f"returned instead")


# ================================================================ resample
# A resampling walk (docs/rules/gold_nugget.md, "Resampling") replays the
# game from the initial state in *lazy* mode: stone faces and the other
# players' unseen cards are left open and drawn when they first matter,
# and every event the walking player P observes is checked on the fly
# against P's true event log (``log``).  Every random decision of a walk
# (a chance outcome, another player's action, an open face) is a choice
# point (``wchoose``) taken in a seeded random order by weight; a dead end
# backtracks to the latest choice point with an option left, and after
# WALK_BACKTRACKS backtracks to earlier nodes the walk jumps back (further
# each time) and draws afresh, or restarts.  Walks read nothing but P's
# information (and who is to move); a world is realized as a real history
# (``realize``) and verified by replay.  Walks go on until one finds a
# world; the true history is never returned (a safety cap raises).

cdef int rs_walk_candidates(GoldNuggetRules self, Facts* fx, int* outs, double* wts) noexcept nogil:
    """Actions at the walk's current node other than P's, with weights:
    chance outcomes by their odds (unknown cards as BLANK), other players'
    decisions uniformly, minus those P's observations already exclude."""
    cdef int P = self.wP, ph = self.g.phase, n = 0, x, k, i, j, a, have, pool_tot = 0
    cdef Event e0, e1
    if self.current_player() == CHANCE_PLAYER:
        if ph == PH_DEAL or ph == PH_DRAW:
            x = self.g.deal_i // self.g.hand_size if ph == PH_DEAL else self.g.cp
            if x == P:
                e0 = rs_expect(self, 0)
                e1 = rs_expect(self, 1)
                k = -1
                if ph == PH_DEAL and e1.kind == EV_DEALT:
                    k = e1.b
                elif ph == PH_DRAW and e0.kind == EV_WIND:
                    k = e0.b
                elif ph == PH_DRAW and e0.kind == EV_DRAW and e1.kind == EV_DRAWCARD:
                    k = e1.b
                if k < 0 or k >= NCARD:
                    return 0
                if self.g.deck[k] > 0:
                    outs[n] = k
                    wts[n] = self.g.deck[k]
                    n += 1
                if k < NLEAF and self.g.pool[k] > 0 and self.g.deck_unk > 0:
                    for j in range(NLEAF):
                        pool_tot += self.g.pool[j]
                    outs[n] = UNK + k
                    wts[n] = self.g.deck_unk * self.g.pool[k] / <double>pool_tot
                    n += 1
                return n
            # a wind card is shown to everyone, a leaf card is a public "draws"
            e0 = rs_expect(self, 0)
            for k in range(NCARD):
                if self.g.deck[k] > 0 and (ph == PH_DEAL or (
                        (k >= NLEAF) == (e0.kind == EV_WIND) and
                        (k < NLEAF or k == e0.b))):
                    outs[n] = k
                    wts[n] = self.g.deck[k]
                    n += 1
            if self.g.deck_unk > 0 and (ph == PH_DEAL or e0.kind != EV_WIND):
                outs[n] = BLANK
                wts[n] = self.g.deck_unk
                n += 1
            return n
        if ph == PH_DEAL_ANIMAL:
            x = self.g.deal_i // self.g.deal_animals
            j = self.g.deal_i % self.g.deal_animals
            have = 0
            for i in range(j):
                if self.g.offer[x][i] == fx.chosen[x]:
                    have = 1
            for a in range(NANIMAL):
                if not (self.g.animals_left >> a) & 1:
                    continue
                if x != P and fx.chosen[x] >= 0:
                    if a == fx.chosen[x]:
                        if have:
                            continue
                    elif (fx.chosen_any >> a) & 1 or \
                            (j == self.g.deal_animals - 1 and not have):
                        continue
                if x != P and (fx.p_offers >> a) & 1:
                    continue
                outs[n] = a
                wts[n] = 1.0
                n += 1
            return n
        if ph == PH_DEAL_TOD:
            e0 = rs_expect(self, 0)          # time cards are dealt face up
            for k in range(4):
                if self.g.tod_left[k] > 0 and k == e0.b:
                    outs[n] = k
                    wts[n] = self.g.tod_left[k]
                    n += 1
            return n
        if ph == PH_DEAL_VC:
            x = self.g.deal_i
            for a in range(NVC):
                if not (self.g.vc_left >> a) & 1:
                    continue
                if x != P and ((fx.vcp[x] >= 0 and a != fx.vcp[x]) or
                               (fx.vcp[x] < 0 and (fx.vcp_any >> a) & 1)):
                    continue
                outs[n] = a
                wts[n] = 1.0
                n += 1
            return n
        for i in range(self.g.nestn):
            if not (self.g.grabbed >> self.g.nest[i]) & 1:
                if ph == PH_GRAB_CHANCE and not rs_face_possible(self, self.g.nest[i],
                                                                 fx.gface[self.g.cp]):
                    continue          # P sees this grab's face when the grabs are revealed
                outs[n] = i
                wts[n] = 1.0
                n += 1
        return n
    x = self.g.cp
    e0 = rs_expect(self, 0)
    j = rs_public_action(self, x, ph, e0)
    if j != -2:
        # the decision's first event is public: P's next event names it
        if j >= 0 and self.is_legal(j):
            outs[0] = j
            wts[0] = 1.0
            return 1
        return 0
    k = self.legal_actions(outs)
    have = 0      # Beg between two other animals: card kinds only an unknown card gives
    for i in range(k):
        a = outs[i]
        if ph == PH_EFFECT and self.g.eff.dk == DK_BEG and self.g.eff.actor != P and \
                A_DISCARD <= a < A_DISCARD + NLEAF and self.g.hand[x][a - A_DISCARD] == 0:
            have += 1
            continue
        if ph == PH_CHOOSE_ANIMAL and fx.chosen[x] >= 0 and \
                self.g.offer[x][a - A_OPT0] != fx.chosen[x]:
            continue
        if ph == PH_FINAL_PLAY and fx.fd[x] >= 0 and a != fx.fd[x]:
            continue
        if ph == PH_GRAB and fx.gr[x] >= 0 and a != fx.gr[x]:
            continue
        if ph == PH_REACT and (a == A_PASS) == (e0.kind == EV_PLAY and e0.actor == x):
            continue              # an instant played here is P's next event
        outs[n] = a
        wts[n] = 1.0
        n += 1
    if have:
        # the card given stays unknown (P sees neither side of it): one option
        # with the weight of the card kinds it stands for
        outs[n] = A_GIVE_UNKNOWN
        wts[n] = have
        n += 1
    return n


cdef int rs_public_action(GoldNuggetRules self, int x, int ph, Event e) noexcept nogil:
    """The action of x (not P) whose first event, public, is P's next event
    e: -1 when none is, -2 when the decision's first event is not public."""
    cdef int kind = e.kind, a = e.actor, k = e.b, d = e.c
    if ph != PH_MEDDLE and ph != PH_HELLO_DISCARD and ph != PH_LIMIT and \
            ph != PH_REACT and ph != PH_SLEEP_CHOICE:
        return -2
    if a != x or kind == EVENT_NONE:
        return -1
    if ph == PH_SLEEP_CHOICE:
        return A_SLEEP if kind == EV_SLEEP else (A_MEDDLE if kind == EV_MEDDLE else -1)
    if ph == PH_HELLO_DISCARD or ph == PH_LIMIT:
        if kind == EV_HELLODONE and ph == PH_HELLO_DISCARD:
            return A_PASS
        if kind == EV_DISCARD and k < NLEAF and d == (1 if ph == PH_LIMIT else 0):
            return A_DISCARD + k
        return -1
    if kind == EV_PLAY and k < NLEAF and d <= 1:
        return (A_RECYCLE if d == 1 else A_PLAY) + k
    if ph == PH_REACT:
        return A_PASS if kind == EV_REACTPASS else -1
    if kind == EV_END:
        return A_PASS
    if kind == EV_ABILITY:
        return A_ABILITY
    if kind == EV_VCPLAY:
        return A_VICTORY
    return -1

cdef void rs_walk_start(GoldNuggetRules self, vector[int]* rph, vector[int]* rcp,
                     vector[int]* raux) noexcept nogil:
    cdef int s, k
    self.to_initial()
    self.g.lazy = 1
    for s in range(self.g.nstones):
        self.g.face[s] = -1
    for s in range(MAXS):
        self.g.tcp[s] = -1
    self.g.fcp[0] = -1
    self.g.fcp[1] = -1
    self.g.fcp[2] = -1
    self.g.xcp = -1
    for k in range(MAXP + 1):
        self.g.lcp[k] = -1
    self.g.wconf = -1
    self.g.frem[F_NORMAL] = self.g.nnormal
    self.g.frem[F_TRAP] = self.g.ntrap
    self.g.frem[F_NUGGET] = 1
    for k in range(NLEAF):
        self.g.pool[k] = self.g.leaf_init[k]
        self.g.deck_unk += self.g.deck[k]
        self.g.deck[k] = 0
    rph.clear()
    rcp.clear()
    raux.clear()
    if self.wsnap.capacity() == 0:
        self.wsnap.reserve(self.g.max_moves // 4 + 64)
    self.wch.clear()
    self.wsn = 0
    self.wsres.clear()
    self.wspi.clear()
    self.wscp.clear()
    self.wrep = 0

cdef inline void rs_walk_restore(GoldNuggetRules self, int j, vector[int]* rph,
                                 vector[int]* rcp, vector[int]* raux, int* pi) noexcept nogil:
    """The walk back at node j, as saved there: state, history, pending
    records and the replay positions; node j's own record stays (it is the
    state just restored), the later ones go."""
    gn_copy(&self.g, &self.wsnap[j])
    self.hist.resize(j)
    self.hact.resize(j)
    self.resr.resize(self.wsres[j])
    self.resk.resize(self.wsres[j])
    rph.resize(j)
    rcp.resize(j)
    raux.resize(j)
    pi[0] = self.wspi[j]
    self.wrep = self.wscp[j]
    self.wsn = j + 1
    self.wsres.resize(j + 1)
    self.wspi.resize(j + 1)
    self.wscp.resize(j + 1)


cdef bint rs_walk_back(GoldNuggetRules self, vector[int]* rph, vector[int]* rcp, vector[int]* raux,
                    int* pi) noexcept nogil:
    """Backtrack: the latest choice point with an option left takes it and
    the walk returns to the node of that choice point.  False when every
    choice point is exhausted."""
    cdef WChoice* c
    cdef int j
    while self.wch.size() > 0:
        c = &self.wch[self.wch.size() - 1]
        if c.pos + 1 < c.nvalid:
            c.pos += 1
            rs_walk_restore(self, c.node, rph, rcp, raux, pi)
            return True
        self.wch.pop_back()
    return False

cdef void rs_walk_jump(GoldNuggetRules self, int j, vector[int]* rph, vector[int]* rcp, vector[int]* raux,
                    int* pi) noexcept nogil:
    """Back to node j with every choice point from there on forgotten (the
    walk goes on from j with fresh random draws)."""
    while self.wch.size() > 0 and self.wch[self.wch.size() - 1].node >= j:
        self.wch.pop_back()
    rs_walk_restore(self, j, rph, rcp, raux, pi)

cdef int rs_walk(GoldNuggetRules self, Facts* fx, const vector[int]* pact, const vector[int]* ppos,
              int truth_cp, bint truth_terminal, uint64_t key, vector[int]* rph,
              vector[int]* rcp, vector[int]* raux, long budget) noexcept nogil:
    """One walk: a depth-first search over the choice points, each taken
    in a random order by weight, from the initial state to P's
    information set.  1 when it got there (the world, real and verified,
    is then ``self``), 0 when it needed more than ``budget`` backtracks to
    an earlier node or used up ``wleft``, -1 when it exhausted every
    choice (no world)."""
    global _RS_BACKTRACKS, _RS_JUMPS
    cdef int outs[MAX_BRANCHING]
    cdef double wts[MAX_BRANCHING]
    cdef GN saved
    cdef vector[int] sh, sa, sr, sk
    cdef int P = self.wP, pi = 0, npact = <int>pact.size(), cp, n, idx, a, aux, ph, j
    cdef long backs = 0
    cdef int far = 0, jumps = 0
    cdef bint dead, goal
    rs_walk_start(self, rph, rcp, raux)
    while True:
        dead = False
        goal = False
        j = <int>self.hist.size()
        if self.g.pcount == self.wT and pi == npact:
            if self.is_terminal():
                goal = truth_terminal
                dead = not goal
            elif self.current_player() == truth_cp and not truth_terminal:
                goal = True
            elif self.current_player() == P:
                dead = True
        if goal:
            gn_copy(&saved, &self.g)
            sh = self.hist
            sa = self.hact
            sr = self.resr
            sk = self.resk
            if rs_realize(self, rph, rcp, raux) and self.info_key(P) == key \
                    and self.current_player() == truth_cp:
                return 1
            gn_copy(&self.g, &saved)
            self.hist = sh
            self.hact = sa
            self.resr = sr
            self.resk = sk
            dead = True
        elif not dead and (self.is_terminal() or j > 4 * self.g.max_moves + 100):
            dead = True
        if not dead:
            if self.wsn == j:
                # (after a backtrack or a jump to node j its record is kept)
                if <int>self.wsnap.size() > j:
                    gn_copy(&self.wsnap[j], &self.g)
                else:
                    self.wsnap.push_back(self.g)
                self.wsn = j + 1
                self.wsres.push_back(<int>self.resr.size())
                self.wspi.push_back(pi)
                self.wscp.push_back(self.wrep)
            self.wnode = j
            cp = self.current_player()
            ph = self.g.phase
            aux = -1
            if cp == P:
                self.wlast = -1
                self.wact = -1
                if pi >= npact or ppos[0][pi] != self.g.pcount or \
                        not self.is_legal(pact[0][pi]):
                    dead = True
                else:
                    a = pact[0][pi]
                    pi += 1
            else:
                n = rs_walk_candidates(self, fx, outs, wts)
                idx = rs_wchoose(self, n, wts)
                self.wact = self.wlast
                if idx < 0:
                    dead = True
                else:
                    a = outs[idx]
                    if a == A_GIVE_UNKNOWN and ph == PH_EFFECT and self.g.eff.dk == DK_BEG:
                        aux = self.g.bq[self.g.cp][0]
                    if cp == CHANCE_PLAYER and (ph == PH_SETUP_STONE or ph == PH_EFF_CHANCE
                                                or ph == PH_GRAB_CHANCE):
                        aux = self.g.nest[a]
                        rs_touch(self, aux)
                    elif cp >= 0 and A_STONE <= a < A_STONE + MAXP * MAXS and \
                            (a - A_STONE) // MAXS < self.g.n and \
                            (a - A_STONE) % MAXS < self.g.lairn[(a - A_STONE) // MAXS]:
                        rs_touch(self, self.g.lair[(a - A_STONE) // MAXS][(a - A_STONE) % MAXS])
            if not dead:
                self.g.wconf = -1
                self.apply(a)
                if not self.g.wdead:
                    rph.push_back(ph)
                    rcp.push_back(cp)
                    raux.push_back(aux)
                    continue
        # a dead end: back to the latest choice point with an option left;
        # only backtracks to an earlier node count against the budget
        _RS_BACKTRACKS += 1
        self.wleft -= 1
        if (_RS_BACKTRACKS & 255) == 0 and past(&self.resample_deadline):
            self.resample_status = RESAMPLE_OUT_OF_TIME
            self.wleft = 0
            return 0
        if _RS_BACKJUMP and self.g.wdead and 0 <= self.g.wconf < <int>self.wch.size() - 1:
            # a face conflict: straight back to its culprit, skipping the
            # choice points after it (they cannot change that stone's face)
            self.wch.resize(self.g.wconf + 1)
            _RS_JUMPS += 1
        if j > far:
            far = j
            jumps = 0
        if self.wch.size() == 0 or self.wch[self.wch.size() - 1].node < j \
                or self.wch[self.wch.size() - 1].pos + 1 >= self.wch[self.wch.size() - 1].nvalid:
            backs += 1
            if backs > budget:
                # too many: jump back (further each time without progress)
                # and draw everything after that node afresh
                j -= _RS_JUMP0 << (jumps if jumps < 20 else 20)
                jumps += 1
                if j <= 0:
                    return 0
                rs_walk_jump(self, j, rph, rcp, raux, &pi)
                backs = 0
                if self.wleft <= 0:
                    return 0
                continue
        if not rs_walk_back(self, rph, rcp, raux, &pi):
            return -1
        if self.wleft <= 0:
            return 0

cdef bint rs_realize(GoldNuggetRules self, vector[int]* rph, vector[int]* rcp,
                  vector[int]* raux) noexcept nogil:
    """Close the walk (open faces drawn by their exact odds given the
    exclusions, unknown cards uniformly from the cards left) and rebuild
    it as a real history in ``self``."""
    cdef int perm[MAXS]
    cdef int ids[MAXS]
    cdef double w[MAXS]
    cdef int pool[256]
    cdef int s, t, j, f, q, b, a, nopen = 0, npool = 0, nrec, r, ph
    cdef double tot = 0.0, u
    cdef vector[int] wh = self.hist
    cdef vector[int] bcard
    # faces: the nugget by its odds, then the traps uniformly among the
    # open stones allowed to be traps (every such choice is equally likely)
    if self.g.frem[F_NUGGET] > 0:
        for s in range(self.g.nstones):
            if self.g.face[s] < 0 and not ((self.g.notnug >> s) & 1):
                ids[nopen] = s
                w[nopen] = rs_face_weight(self, s, F_NUGGET)
                tot += w[nopen]
                nopen += 1
        if tot <= 0.0:
            return False
        u = rng_double(self.wrng) * tot
        j = 0
        while j < nopen - 1 and u >= w[j]:
            u -= w[j]
            j += 1
        rs_set_face(self, ids[j], F_NUGGET)
        if self.g.wdead:
            return False
    nopen = 0
    for s in range(self.g.nstones):
        if self.g.face[s] < 0 and not ((self.g.nottrap >> s) & 1):
            ids[nopen] = s
            nopen += 1
    if nopen < self.g.frem[F_TRAP]:
        return False
    for j in range(nopen - 1, 0, -1):
        t = rng_int(self.wrng, j + 1)
        s = ids[j]
        ids[j] = ids[t]
        ids[t] = s
    for j in range(self.g.frem[F_TRAP]):
        self.g.face[ids[j]] = F_TRAP
    for s in range(self.g.nstones):
        if self.g.face[s] < 0:
            self.g.face[s] = F_NORMAL
    # tokens -> real stone ids, a random bijection within each face
    for s in range(self.g.nstones):
        ids[s] = s
    for j in range(self.g.nstones - 1, 0, -1):
        t = rng_int(self.wrng, j + 1)
        s = ids[j]
        ids[j] = ids[t]
        ids[t] = s
    for s in range(self.g.nstones):
        perm[s] = -1
    for j in range(self.g.nstones):
        t = ids[j]                       # real id t, face of real id t:
        f = F_NUGGET if t == 0 else (F_TRAP if t <= self.g.ntrap else F_NORMAL)
        for s in range(self.g.nstones):
            if perm[s] < 0 and self.g.face[s] == f:
                perm[s] = t
                break
    for s in range(self.g.nstones):
        if perm[s] < 0:
            return False
    # unknown cards still open: uniformly from the cards left unaccounted
    for a in range(NLEAF):
        for j in range(self.g.pool[a]):
            if npool < 256:
                pool[npool] = a
                npool += 1
    for j in range(npool - 1, 0, -1):
        t = rng_int(self.wrng, j + 1)
        s = pool[j]
        pool[j] = pool[t]
        pool[t] = s
    nrec = <int>wh.size()
    bcard.resize(nrec, -1)
    for r in range(<int>self.resr.size()):
        bcard[self.resr[r]] = self.resk[r]
    t = 0
    for q in range(self.g.n):
        for b in range(self.g.nblank[q]):
            if t >= npool:
                return False
            bcard[self.g.bq[q][b]] = pool[t]
            t += 1
    # the real history
    self.to_initial()
    for r in range(nrec):
        a = wh[r]
        ph = rph[0][r]
        if ph == PH_REACT and a == A_PASS and not (self.g.phase == PH_REACT
                                                   and self.g.cp == rcp[0][r]):
            continue                    # that animal turned out to hold no instant
        if ph == PH_DEAL or ph == PH_DRAW:
            if a == BLANK:
                a = bcard[r]
            elif a >= UNK:
                a -= UNK
        elif ph == PH_EFFECT and a == A_GIVE_UNKNOWN and raux[0][r] >= 0:
            a = A_DISCARD + bcard[raux[0][r]]
        elif ph == PH_SETUP_STONE or ph == PH_EFF_CHANCE or ph == PH_GRAB_CHANCE:
            t = perm[raux[0][r]]
            a = -1
            for j in range(self.g.nestn):
                if self.g.nest[j] == t:
                    a = j
                    break
        if a < 0 or not self.is_legal(a):
            return False
        self.apply(a)
    return True

cdef bint rs_small_game(GoldNuggetRules self) noexcept nogil:
    """Small enough for the exact stage by default (a property of the game's
    parameters only): 2 players, at most 8 forest cards, at most 6 stones."""
    cdef int k, cards = 0
    for k in range(NLEAF):
        cards += self.g.leaf_init[k]
    for k in range(NWIND):
        cards += self.g.wind_init[k]
    return self.g.n == 2 and cards <= 8 and self.g.nstones <= 6

cdef inline bint rs_is_goal(GoldNuggetRules self, int pi, int npact, int truth_cp,
                            bint truth_terminal) noexcept nogil:
    """The node is where P's information set stops: all of P's events and
    actions seen, and the true player to move (or the end of the game)."""
    if self.g.pcount != self.wT or pi != npact:
        return False
    if self.is_terminal():
        return truth_terminal
    return self.current_player() == truth_cp and not truth_terminal


cdef bint rs_replay_verified(GoldNuggetRules self, const vector[int]* h, uint64_t key,
                             int truth_cp, bint truth_terminal,
                             bint check_legal=True) noexcept nogil:
    """Replay history ``h`` from the initial state on the real rules (full
    logs); True when every action is legal and it ends in P's information
    set (P's key, the true player to move or the end).  ``check_legal``
    False: the caller drew every action from the real rules' options at its
    node (the exact stage), so legality is not checked again."""
    cdef int i
    self.to_initial()
    for i in range(<int>h.size()):
        if check_legal and not self.is_legal(h[0][i]):
            return False
        self.apply(h[0][i])
    return self.info_key(self.wP) == key and (self.current_player() == truth_cp or truth_terminal)


cdef inline void rs_checkpoint(GoldNuggetRules self) noexcept nogil:
    """The realizing replay's checkpoint at the current position: the full
    state and its information hashes (rs_replay_world)."""
    cdef int p
    self.rcs.push_back(self.g)
    self.rpos.push_back(<int>self.hist.size())
    self.rpub.push_back(self.pubhash)
    for p in range(ENGINE_MAX_PLAYERS):
        self.rih.push_back(self.ihash[p])


cdef bint rs_replay_world(GoldNuggetRules self, const vector[int]* h, int same, uint64_t key,
                          int truth_cp, bint truth_terminal) noexcept nogil:
    """``rs_replay_verified`` without the legality checks (the corrector's
    world: every action came from the rules' options at its node), from the
    last checkpoint of the replay that realized the last world (``rcs``)
    within the first ``same`` actions of ``h`` (those equal to that
    world's; 0: from the initial state).  The state the replay reaches is
    the same: a checkpoint holds every field an action reads or writes
    (the state, the history, the event log, the players of the actions,
    the information hashes).  Records this replay's checkpoints, its log
    and its players of the actions for the next world."""
    cdef int i = -1, c = 0, t, p, nb = <int>h.size(), nlog
    if same > 0:
        i = <int>self.rpos.size() - 1
        while i >= 0 and self.rpos[i] > same:
            i -= 1
        if i >= 0 and self.logcap < self.rcs[i].nlog:
            self.grow_log(self.rcs[i].nlog)
            if self.logcap < self.rcs[i].nlog:
                i = -1
    if i < 0:
        self.to_initial()
        self.rcs.clear()
        self.rpos.clear()
        self.rpub.clear()
        self.rih.clear()
        self.rev.clear()
        self.rlogh.clear()
        self.rhact.clear()
    else:
        c = self.rpos[i]
        self.rcs.resize(i + 1)
        self.rpos.resize(i + 1)
        self.rpub.resize(i + 1)
        self.rih.resize((i + 1) * ENGINE_MAX_PLAYERS)
        gn_copy(&self.g, &self.rcs[i])
        self.quiet = False
        self.hist.resize(c)
        memcpy(self.hist.data(), h.data(), c * sizeof(int))
        self.rhact.resize(c)
        self.hact = self.rhact
        self.resr.clear()
        self.resk.clear()
        self.pubhash = self.rpub[i]
        for p in range(ENGINE_MAX_PLAYERS):
            self.ihash[p] = self.rih[i * ENGINE_MAX_PLAYERS + p]
        nlog = self.g.nlog
        memcpy(self.events, self.rev.data(), nlog * sizeof(Event))
        memcpy(self.logh, self.rlogh.data(), nlog * sizeof(int))
        self.rev.resize(nlog)
        self.rlogh.resize(nlog)
    for t in range(c, nb):
        self.apply(h[0][t])
        if (t + 1) % REPLAY_CHECKPOINT == 0 and t + 1 < nb:
            rs_checkpoint(self)
    if c < nb:
        rs_checkpoint(self)
        t = <int>self.rev.size()
        nlog = self.g.nlog
        self.rev.resize(nlog)
        self.rlogh.resize(nlog)
        memcpy(self.rev.data() + t, self.events + t, (nlog - t) * sizeof(Event))
        memcpy(self.rlogh.data() + t, self.logh + t, (nlog - t) * sizeof(int))
        self.rhact.resize(nb)
        memcpy(self.rhact.data() + c, self.hact.data() + c, (nb - c) * sizeof(int))
    return self.info_key(self.wP) == key and (self.current_player() == truth_cp or
                                              truth_terminal)


cdef int rs_enumerate(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                      int truth_cp, bint truth_terminal, uint64_t key, long budget) noexcept nogil:
    """The exact stage: a depth-first enumeration of every history of P's
    information set on the real rules (concrete cards and faces; every
    event P would observe checked as it happens, P's actions replayed),
    each weighted by its chance probabilities times 1/(legal actions) at
    every other player's decision, with one of them drawn in proportion to
    its weight by reservoir sampling.  1 when it finished within ``budget``
    nodes (the draw, verified by replay, is then ``self``), 0 otherwise."""
    global _RS_EXACT_NODES
    cdef vector[int] eo          # options of every open frame, flat
    cdef vector[double] ep       # their probabilities
    cdef vector[int] fstart, fn, fi, fpi
    cdef vector[double] fw
    cdef vector[int] pick
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int P = self.wP, npact = <int>pact.size(), d, n, i, cp, a, pi = 0
    cdef int kept_d = -1         # the depth whose record the state still equals
    cdef long nodes = 0
    cdef double w = 1.0, tot = 0.0
    cdef bint goal, found = False, expand = True
    if self.wsnap.capacity() == 0:
        self.wsnap.reserve(32)   # grows by doubling past that (small games: under 30)
    # the frames' vectors keep their capacity between calls (swapped back on return)
    rs_keep_frames(self, &eo, &ep, &fstart, &fn, &fi, &fw, &fpi, &pick)
    eo.clear()
    ep.clear()
    fstart.clear()
    fn.clear()
    fi.clear()
    fw.clear()
    fpi.clear()
    pick.clear()
    eo.reserve(256)
    ep.reserve(256)
    self.to_initial()
    self.g.lazy = 1              # check P's events; the rules stay the real ones
    self.wlast = -1
    self.wact = -1
    while True:
        if expand:
            # a new node: the state is the child just applied (weight w, pi)
            nodes += 1
            if nodes > budget:
                _RS_EXACT_NODES += nodes
                self.g.lazy = 0
                rs_keep_frames(self, &eo, &ep, &fstart, &fn, &fi, &fw, &fpi, &pick)
                return 0
            d = <int>self.hist.size()
            n = 0
            goal = rs_is_goal(self, pi, npact, truth_cp, truth_terminal)
            if goal:
                tot += w
                if rng_double(self.wrng) * tot < w:
                    pick = self.hist
                    found = True
            elif not self.is_terminal() and d <= 4 * self.g.max_moves + 100 and \
                    not (self.g.pcount == self.wT and pi == npact and self.current_player() == P):
                cp = self.current_player()
                if cp == P:
                    if pi < npact and ppos[0][pi] == self.g.pcount and self.is_legal(pact[0][pi]):
                        outs[0] = pact[0][pi]
                        probs[0] = 1.0
                        n = 1
                elif cp == CHANCE_PLAYER:
                    n = self.chance_outcomes(outs, probs)
                else:
                    n = self.legal_actions(outs)
                    for i in range(n):
                        probs[i] = 1.0 / n
            if n > 0:
                if n > 1:
                    # (a single option is applied from the state as it is: no record)
                    keep_state(self, d)
                kept_d = d
                fstart.push_back(<int>eo.size())
                fn.push_back(n)
                fi.push_back(0)
                fw.push_back(w)
                fpi.push_back(pi)
                for i in range(n):
                    eo.push_back(outs[i])
                    ep.push_back(probs[i])
        expand = False
        if fn.size() == 0:
            break
        d = <int>fn.size() - 1           # the open frame's node is at depth d
        if fi[d] == fn[d]:
            eo.resize(fstart[d])
            ep.resize(fstart[d])
            fstart.pop_back()
            fn.pop_back()
            fi.pop_back()
            fw.pop_back()
            fpi.pop_back()
            continue
        if kept_d != d:
            gn_copy(&self.g, &self.wsnap[d])
        kept_d = -1
        self.hist.resize(d)
        self.hact.resize(d)
        i = fstart[d] + fi[d]
        fi[d] += 1
        a = eo[i]
        w = fw[d] * ep[i]
        pi = fpi[d]
        cp = self.current_player()
        self.apply(a)
        if self.g.wdead:
            continue
        if cp == P:
            pi += 1
        expand = True
    _RS_EXACT_NODES += nodes
    self.g.lazy = 0
    if found:
        found = rs_replay_verified(self, &pick, key, truth_cp, truth_terminal, False)
    rs_keep_frames(self, &eo, &ep, &fstart, &fn, &fi, &fw, &fpi, &pick)
    return 1 if found else 0


cdef void rs_keep_frames(GoldNuggetRules self, vector[int]* eo, vector[double]* ep,
                         vector[int]* fstart, vector[int]* fn, vector[int]* fi,
                         vector[double]* fw, vector[int]* fpi, vector[int]* pick) noexcept nogil:
    """Swap ``rs_enumerate``'s frame vectors with ``self``'s kept ones: taken
    at the start of a call and given back at its end, so their capacity is
    reused by the next call."""
    eo.swap(self.xeo)
    ep.swap(self.xep)
    fstart.swap(self.xfstart)
    fn.swap(self.xfn)
    fi.swap(self.xfi)
    fw.swap(self.xfw)
    fpi.swap(self.xfpi)
    pick.swap(self.xpick)


cdef double rs_target_prob(GoldNuggetRules self, int cp, int a) noexcept nogil:
    """The target weight of action ``a`` at this node (legal or not; ``cp``
    the player to move): its chance probability, 1/(legal actions) at
    another player's decision, 1 at P's; 0 when ``a`` is not an option here."""
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int n, i, tot = 0
    if cp == CHANCE_PLAYER:
        if self.g.phase == PH_DEAL or self.g.phase == PH_DRAW:
            # counts_outcomes without the list: the same quotient
            if a < 0 or a >= NCARD or self.g.deck[a] <= 0:
                return 0.0
            for i in range(NCARD):
                tot += self.g.deck[i]
            return self.g.deck[a] / <double>tot
        n = self.chance_outcomes(outs, probs)
        for i in range(n):
            if outs[i] == a:
                return probs[i]
        return 0.0
    n = self.legal_actions(outs)
    for i in range(n):
        if outs[i] == a:
            return 1.0 if cp == self.wP else 1.0 / n
    return 0.0


cdef int rs_window_options(GoldNuggetRules self, int cp, const vector[int]* pact,
                           const vector[int]* ppos, int pi, const vector[int]* base, int t1,
                           int* outs, double* probs) noexcept nogil:
    """The children of a node of the window kernel: every option of the node
    inside the window (P's own action forced to P's next one), only the
    current world's action after it, with its probability under the target
    (chance probability, or 1/(legal actions) at another player's decision);
    ``cp``: the player to move."""
    cdef int d = <int>self.hist.size(), n, i
    cdef int npact = <int>pact.size()
    if cp == self.wP:
        if pi < npact and ppos[0][pi] == self.g.pcount and \
                (d < t1 or base[0][d] == pact[0][pi]) and self.is_legal(pact[0][pi]):
            outs[0] = pact[0][pi]
            probs[0] = 1.0
            return 1
        return 0
    if d < t1:
        if cp == CHANCE_PLAYER:
            return self.chance_outcomes(outs, probs)
        n = self.legal_actions(outs)
        for i in range(n):
            probs[i] = 1.0 / n
        return n
    outs[0] = base[0][d]
    probs[0] = rs_target_prob(self, cp, outs[0])
    return 1 if probs[0] > 0.0 else 0


cdef struct Chain:
    # the corrector's current world (rs_correct): its lazy states after each
    # prefix, valid up to ``valid``, P's actions before each position and each
    # action's target weight (valid below ``valid``); ``clean``: from this
    # position on every node of the world is an ordinary one (no goal, no end,
    # no P to move with P's log used up, P's actions where P took them) and
    # its end is a goal (nb + 1: none)
    int valid
    int nb
    int clean


cdef inline bint rs_window_stop(GoldNuggetRules self, int pi, int npact, int truth_cp,
                                bint truth_terminal) noexcept nogil:
    """A node the window kernel does not expand (a goal, the end, or P to
    move with P's log used up)."""
    return rs_is_goal(self, pi, npact, truth_cp, truth_terminal) or self.is_terminal() or \
        (self.g.pcount == self.wT and pi == npact and self.current_player() == self.wP)


cdef inline int rs_chain_at(GoldNuggetRules self, const vector[int]* base, int t,
                            const GN* cs, const vector[int]* cpi) noexcept nogil:
    """The state becomes the world ``base``'s recorded state after its first
    t actions (history included); returns P's actions among them."""
    gn_copy(&self.g, &cs[t])
    self.hist.resize(t)
    if t > 0:
        memcpy(self.hist.data(), base.data(), t * sizeof(int))
    self.hact.resize(t)
    return cpi[0][t]


cdef bint rs_chain_extend(GoldNuggetRules self, const vector[int]* pact,
                          const vector[int]* ppos, const vector[int]* base, Chain* ch,
                          GN* cs, vector[int]* cpi, vector[double]* cq,
                          vector[char]* cstop, int truth_cp, bint truth_terminal) noexcept nogil:
    """Replay the world ``base`` (lazy, P's events checked) from its last
    valid snapshot to its end, recording the state after every prefix, P's
    actions before it and each action's target weight.  False if ``base``
    breaks P's log (not expected: it is a verified world)."""
    cdef int t = ch.valid, pi, a, cp, npact = <int>pact.size()
    pi = rs_chain_at(self, base, t, cs, cpi)
    while t < ch.nb:
        a = base[0][t]
        cstop[0][t] = rs_window_stop(self, pi, npact, truth_cp, truth_terminal)
        cp = self.current_player()
        if cp == self.wP:
            # the kernel forces P's next action only where P took it
            if not (pi < npact and ppos[0][pi] == self.g.pcount and pact[0][pi] == a):
                cstop[0][t] = True
            pi += 1
        cq[0][t] = rs_target_prob(self, cp, a)
        if cq[0][t] <= 0.0:
            return False
        self.apply(a)
        if self.g.wdead:
            return False
        t += 1
        gn_copy(&cs[t], &self.g)
        cpi[0][t] = pi
        self.ccnt[t] = -1
        ch.valid = t
    ch.clean = ch.nb + 1
    if rs_is_goal(self, pi, npact, truth_cp, truth_terminal):
        ch.clean = ch.nb
        while ch.clean > 0 and not cstop[0][ch.clean - 1]:
            ch.clean -= 1
    return True


cdef struct Frames:
    # the open nodes of a corrector step's depth-first search: per node its
    # options (flat in ``eo``/``ep`` from ``fstart``), how many (``fn``), the
    # next one to take (``fi``), the weight, P's action count and the depth
    vector[int] eo
    vector[double] ep
    vector[int] fstart
    vector[int] fn
    vector[int] fi
    vector[double] fw
    vector[int] fpi
    vector[int] fd


cdef inline void frames_push(GoldNuggetRules self, Frames* f, int d, int n, int pi, double w,
                             const int* outs, const double* probs) noexcept nogil:
    """Open the node at depth d (its state kept in ``wsnap[d]``)."""
    cdef int i
    keep_state(self, d)
    f.fstart.push_back(<int>f.eo.size())
    f.fn.push_back(n)
    f.fi.push_back(0)
    f.fw.push_back(w)
    f.fpi.push_back(pi)
    f.fd.push_back(d)
    for i in range(n):
        f.eo.push_back(outs[i])
        f.ep.push_back(probs[i])


cdef inline void frames_pop(Frames* f) noexcept nogil:
    """Close the latest open node (its options are used up)."""
    f.eo.resize(f.fstart.back())
    f.ep.resize(f.fstart.back())
    f.fstart.pop_back()
    f.fn.pop_back()
    f.fi.pop_back()
    f.fw.pop_back()
    f.fpi.pop_back()
    f.fd.pop_back()


cdef inline void frames_clear(Frames* f) noexcept nogil:
    """No open node (the vectors keep their storage for the next search)."""
    f.eo.clear()
    f.ep.clear()
    f.fstart.clear()
    f.fn.clear()
    f.fi.clear()
    f.fw.clear()
    f.fpi.clear()
    f.fd.clear()


cdef inline bint frames_next(GoldNuggetRules self, Frames* f, bint at_node, int* pi,
                             double* w) noexcept nogil:
    """Take the latest open node's next option: back to its state (unless
    the state is still that node's), apply it; ``pi`` and ``w`` become the
    child's.  False when the child breaks P's log."""
    cdef int i = <int>f.fn.size() - 1, d = f.fd[i], j = f.fstart[i] + f.fi[i], cp
    if not at_node:
        gn_copy(&self.g, &self.wsnap[d])
        self.hist.resize(d)
        self.hact.resize(d)
    w[0] = f.fw[i] * f.ep[j]
    f.fi[i] += 1
    pi[0] = f.fpi[i]
    cp = self.current_player()
    self.apply(f.eo[j])
    if self.g.wdead:
        return False
    if cp == self.wP:
        pi[0] += 1
    return True


cdef struct Comps:
    # the completions of a block that the exact-step test found alive at the
    # block's end, in the order of its depth-first search: each one's state,
    # weight inside the block, P's action count and actions in the block (flat)
    vector[GN] st
    vector[double] w
    vector[int] pi
    vector[int] path


cdef int rs_gibbs_window(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                         int truth_cp, bint truth_terminal,
                         const vector[int]* base, int t0, int t1, int te,
                         const GN* cs, const vector[int]* cpi, const vector[double]* cq,
                         int clean, const Comps* cm, vector[int]* pick) noexcept nogil:
    """One exact step of the corrector (rules doc, "Resampling"): a Gibbs
    update of the world ``base`` on the block of history positions [t0, t1)
    (``te``: t1 or base's end).  Every history of P's information set with
    base's length, base's actions before t0 and base's actions from t1 on is
    weighed by its target weight, and one is drawn in proportion to it
    (reservoir sampling, in depth-first order) into ``pick``.  The block's
    tree is the one ``rs_block_fits`` searched (on the real rules, P's events
    checked as they happen, from base's recorded state at t0): each of its
    completions alive at te (``cm``) is continued with base's actions to the
    end, and one whose state at t1 is base's own continues as base does (its
    weight multiplied by base's recorded weights without replaying them).
    The block depends only on the class of histories the step ranges over,
    so the step leaves the target distribution invariant.  1: a world was
    drawn (maybe base itself); -1: no world (not expected)."""
    global _RS_MCMC_NODES
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int P = self.wP, npact = <int>pact.size(), nb = <int>base.size(), L = te - t0
    cdef int d, n, k, i, cp, pi
    cdef long nodes = 0
    cdef double w, tot = 0.0
    cdef bint found = False
    for k in range(<int>cm.w.size()):
        gn_copy(&self.g, &cm.st[k])
        self.hist.resize(te)
        self.hact.resize(te)
        if t0 > 0:
            memcpy(self.hist.data(), base.data(), t0 * sizeof(int))
        if L > 0:
            memcpy(self.hist.data() + t0, cm.path.data() + k * L, L * sizeof(int))
        pi = cm.pi[k]
        w = cm.w[k]
        d = te
        if d == t1 and clean <= d < nb and pi == cpi[0][d] and \
                memcmp(&self.g, &cs[d], sizeof(GN)) == 0:
            # base's own state after the block: the rest is base's forced
            # chain, a goal at base's end
            nodes += nb - d
            for i in range(d, nb):
                w *= cq[0][i]
            tot += w
            if rng_double(self.wrng) * tot < w:
                pick[0] = self.hist
                pick.insert(pick.end(), base.begin() + d, base.end())
                found = True
            continue
        while True:
            nodes += 1
            cp = self.current_player()
            if self.g.pcount == self.wT and pi == npact and (
                    (cp == TERMINAL_PLAYER and truth_terminal) or
                    (cp == truth_cp and not truth_terminal)):
                # a goal (rs_is_goal)
                if d == nb:
                    tot += w
                    if rng_double(self.wrng) * tot < w:
                        pick[0] = self.hist
                        found = True
                break
            if d >= nb or cp == TERMINAL_PLAYER or (
                    self.g.pcount == self.wT and pi == npact and cp == P):
                break
            n = rs_window_options(self, cp, pact, ppos, pi, base, t1, outs, probs)
            if n != 1:
                break
            if cp == P:
                pi += 1
            w *= probs[0]
            self.apply(outs[0])
            if self.g.wdead:
                break
            d += 1
    _RS_MCMC_NODES += nodes
    return 1 if found else -1


cdef int rs_block_options(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                          int truth_cp, bint truth_terminal, const vector[int]* base, int t1,
                          int pi, int* outs, double* probs) noexcept nogil:
    """The children of a node inside a corrector step's block
    (``rs_window_options``); none at a node the kernel does not expand."""
    if rs_window_stop(self, pi, <int>pact.size(), truth_cp, truth_terminal):
        return 0
    return rs_window_options(self, self.current_player(), pact, ppos, pi, base, t1, outs, probs)


cdef bint rs_block_fits(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                        int truth_cp, bint truth_terminal, const vector[int]* base, int t0,
                        int te, long budget, const GN* cs, const vector[int]* cpi,
                        long* nodes, Frames* f, Comps* cm) noexcept nogil:
    """Whether the exact (Gibbs) draw of the block [t0, te) surely fits
    ``budget`` nodes (rules doc, "Resampling"): the block's tree from the
    world's state at t0 is searched depth first, every child tried counting
    (dead or alive), and the answer is True when that count stays within
    budget / 2 and the count plus (completions alive at te) x (positions
    after te) stays within ``budget`` (every completion replayed to the end:
    the worst case of the exact step).  It stops at the first excess.  The
    answer depends only on the world's actions before t0, so it is a
    property of the step's class.  ``nodes``: the children tried; ``cm``:
    the completions alive at te with their weights inside the block (the
    exact step continues them, ``rs_gibbs_window``)."""
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int P = self.wP, npact = <int>pact.size(), nb = <int>base.size(), d, n, i, cp, a, pi
    cdef long ncomp = 0, tail = nb - te, half = budget // 2
    cdef double w = 1.0
    cdef bint expand = True, at_node = False, ok
    nodes[0] = 1
    if nb - t0 + 1 > budget:
        # the search would reach the world's own completion (no world passes
        # a node the kernel stops at before its end, so it is alive at te)
        # after at least te - t0 more nodes, and 1 + (te - t0) + tail > budget
        return False
    # every child of every node of the world's own path is tried (each
    # counts one node) before the search can answer True: from the world's
    # recorded states, without applying anything, that count alone may
    # already pass a bound (the answer is the same, found sooner); a
    # position's count (all its options: d < te) depends only on its
    # recorded state, so it is kept with it (``ccnt``) for later tests
    for d in range(t0, te):
        n = self.ccnt[d]
        if n < 0:
            # the options need the state and the depth only (not the history's contents)
            gn_copy(&self.g, &cs[d])
            self.hist.resize(d)
            n = rs_block_options(self, pact, ppos, truth_cp, truth_terminal, base, te,
                                 cpi[0][d], outs, probs)
            self.ccnt[d] = n
        nodes[0] += n
        if nodes[0] > half or nodes[0] + tail > budget:
            return False
    # the world's own completion is alive at te: counted from the start (the
    # search does not count it again), so an excess shows as soon as it can
    ncomp = 1
    nodes[0] = 1
    frames_clear(f)
    cm.st.clear()
    cm.w.clear()
    cm.pi.clear()
    cm.path.clear()
    pi = rs_chain_at(self, base, t0, cs, cpi)
    while True:
        if expand:
            d = <int>self.hist.size()
            n = 0
            if d == te:
                if te == nb:
                    ok = rs_is_goal(self, pi, npact, truth_cp, truth_terminal)
                else:
                    ok = not rs_window_stop(self, pi, npact, truth_cp, truth_terminal)
                if ok:
                    if memcmp(self.hist.data() + t0, base.data() + t0,
                              (te - t0) * sizeof(int)) != 0:
                        ncomp += 1       # not the world's own (counted already)
                    if nodes[0] + ncomp * tail > budget:
                        return False
                    cm.st.push_back(self.g)
                    cm.w.push_back(w)
                    cm.pi.push_back(pi)
                    cm.path.insert(cm.path.end(), self.hist.begin() + t0, self.hist.end())
            else:
                cp = self.current_player()
                n = rs_block_options(self, pact, ppos, truth_cp, truth_terminal, base, te,
                                     pi, outs, probs)
            if n == 1:
                if cp == P:
                    pi += 1
                nodes[0] += 1
                if nodes[0] > half or nodes[0] + ncomp * tail > budget:
                    return False
                w *= probs[0]
                self.apply(outs[0])
                if not self.g.wdead:
                    continue
            elif n > 1:
                frames_push(self, f, d, n, pi, w, outs, probs)
                at_node = True       # the first child needs no restore
        expand = False
        if f.fn.size() == 0:
            return True
        i = <int>f.fn.size() - 1
        if f.fi[i] == f.fn[i]:
            frames_pop(f)
            continue
        nodes[0] += 1
        if nodes[0] > half or nodes[0] + ncomp * tail > budget:
            return False
        expand = frames_next(self, f, at_node, &pi, &w)
        at_node = False


cdef int rs_mh_window(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                      int truth_cp, bint truth_terminal, const vector[int]* base, int t0,
                      int t1, const GN* cs, const vector[int]* cpi,
                      const vector[double]* cq, vector[int]* pick, long* nodes) noexcept nogil:
    """A Metropolis-Hastings step of the corrector on the block [t0, t1)
    (rules doc, "Resampling"): the block is drawn forward from the world's
    state at t0 by the target's own odds (chance probabilities, 1/(legal
    actions) at another player's decision, P's actions forced), so the
    proposal's odds are its weight inside the block and the acceptance
    ratio is the weight of the world's later actions under the proposal
    over their weight under the world; the proposal is replayed with them
    to the end (P's events checked), and a dead end rejects it.  1:
    accepted (``pick``: the new world, maybe the same), 2: rejected;
    ``nodes``: the nodes applied."""
    cdef int outs[MAX_BRANCHING]
    cdef double probs[MAX_BRANCHING]
    cdef int P = self.wP, npact = <int>pact.size(), nb = <int>base.size(), d, n, i, cp, pi
    cdef int te = t1 if t1 < nb else nb
    cdef double ratio = 1.0, u
    pi = rs_chain_at(self, base, t0, cs, cpi)
    for d in range(t0, te):
        nodes[0] += 1
        n = rs_block_options(self, pact, ppos, truth_cp, truth_terminal, base, t1, pi,
                             outs, probs)
        if n == 0:
            return 2
        u = rng_double(self.wrng)
        i = 0
        while i < n - 1 and u >= probs[i]:
            u -= probs[i]
            i += 1
        if self.current_player() == P:
            pi += 1
        self.apply(outs[i])
        if self.g.wdead:
            return 2
    if te == nb:
        if not rs_is_goal(self, pi, npact, truth_cp, truth_terminal):
            return 2
        pick[0] = self.hist
        return 1
    if rs_window_stop(self, pi, npact, truth_cp, truth_terminal):
        return 2
    if pi == cpi[0][te] and memcmp(&self.g, &cs[te], sizeof(GN)) == 0:
        # the world's own state after the block: its rest, with its weights
        pick[0] = self.hist
        pick.insert(pick.end(), base.begin() + te, base.end())
        return 1
    for d in range(te, nb):
        nodes[0] += 1
        if rs_window_stop(self, pi, npact, truth_cp, truth_terminal):
            return 2
        cp = self.current_player()
        n = rs_window_options(self, cp, pact, ppos, pi, base, t1, outs, probs)
        if n == 0:
            return 2
        ratio *= probs[0] / cq[0][d]
        if cp == P:
            pi += 1
        self.apply(outs[0])
        if self.g.wdead:
            return 2
    if not rs_is_goal(self, pi, npact, truth_cp, truth_terminal):
        return 2
    if ratio < 1.0 and rng_double(self.wrng) >= ratio:
        return 2
    pick[0] = self.hist
    return 1


cdef inline void rs_keep_steps(GoldNuggetRules self, Frames* f, Comps* cm) noexcept nogil:
    """Swap ``rs_correct``'s step storage with ``self``'s kept vectors (taken
    at the start of a call, given back at its end: their capacity is reused)."""
    f.eo.swap(self.keo)
    f.ep.swap(self.kep)
    f.fstart.swap(self.kfstart)
    f.fn.swap(self.kfn)
    f.fi.swap(self.kfi)
    f.fw.swap(self.kfw)
    f.fpi.swap(self.kfpi)
    f.fd.swap(self.kfd)
    cm.st.swap(self.kst)
    cm.w.swap(self.kw)
    cm.pi.swap(self.kpi)
    cm.path.swap(self.kpath)


cdef inline int rs_first_change(const vector[int]* a, const vector[int]* b, int t) noexcept nogil:
    """The first position at which histories ``a`` and ``b``, equal before
    ``t``, differ (one of them ended there included); -1: they are equal."""
    cdef int n = <int>a.size(), m = <int>b.size()
    while t < n and t < m and a[0][t] == b[0][t]:
        t += 1
    return -1 if t == n and t == m else t


cdef bint rs_correct(GoldNuggetRules self, const vector[int]* pact, const vector[int]* ppos,
                     int truth_cp, bint truth_terminal, uint64_t key, int steps,
                     const vector[int]* init) noexcept nogil:
    """The corrector: ``steps`` window steps from the walk's world (the
    state; ``init`` not NULL: from that world, a chain's last one), each
    over a block [t0, t0 + 2^j) with t0 uniform over the world's positions
    and j uniform in 1..``_RS_MCMC_LOG_WINDOW``: an exact draw of the block
    (``rs_gibbs_window``) where ``rs_block_fits`` finds its worst case
    within ``_RS_MCMC_BUDGET`` nodes, else a Metropolis-Hastings step
    (``rs_mh_window``).  The steps run on the lazy rules (P's events
    checked) from the recorded states of the current world (kept in
    ``self`` with the world returned: a chain from that world in the same
    information set starts from them, the same steps without the replay);
    the last world is then replayed on the full rules and verified (P's
    key, the player to move; every action is legal by construction: each
    came from the rules' options at its node, those of ``init`` checked by
    the replay that records its states).  The state ends as the last world;
    False if a step found no world or the verification failed (neither
    expected; the state is then the walk's world, or scratch when ``init``
    was given)."""
    global _RS_MCMC_MOVES, _RS_MCMC_SKIPS, _RS_MCMC_CUT, _RS_MCMC_REJECTS, _RS_MCMC_NODES
    cdef vector[int] cur, start, pick
    cdef GN* cs
    cdef Chain ch
    cdef Frames fr             # the steps' search frames (storage kept between calls)
    cdef Comps cm              # an exact step's completions (likewise)
    cdef int s, t0, t1, r, nb, j, f, same = 0, lw = _RS_MCMC_LOG_WINDOW
    cdef int tcp = TERMINAL_PLAYER if truth_terminal else truth_cp
    cdef long bnodes
    cdef bint ok = True, fits, kept = False
    if init != NULL:
        nb = <int>init.size()
        if self.cP == self.wP and self.ckey == key and self.ccp == tcp and \
                self.ccur.size() == init.size() and nb > 0 and \
                memcmp(self.ccur.data(), init.data(), nb * sizeof(int)) == 0:
            # the last world returned: its recorded states are still valid
            cur.swap(self.ccur)
            same = nb
            ch.valid = self.cvalid
            ch.clean = self.cclean
            kept = self.cfail_lw == lw and self.cfail_budget == _RS_MCMC_BUDGET
        else:
            cur = init[0]
            ch.valid = 0
            ch.clean = nb + 1
    else:
        cur = self.hist
        start = self.hist
        ch.valid = 0
        ch.clean = <int>cur.size() + 1
    self.cP = -1
    nb = <int>cur.size()
    if nb == 0:
        return init == NULL
    ch.nb = nb
    self.ccs.resize(nb + 1)
    self.ccpi.resize(nb + 1)
    self.ccq.resize(nb)
    self.ccstop.resize(nb)
    self.ccnt.resize(nb + 1)
    cs = self.ccs.data()
    if not kept:
        self.cfail.assign(nb * lw, 0)
        self.cfail_lw = lw
        self.cfail_budget = _RS_MCMC_BUDGET
    rs_keep_steps(self, &fr, &cm)
    self.to_initial()
    self.g.lazy = 1
    self.wlast = -1
    self.wact = -1
    if ch.valid == 0:
        gn_copy(&cs[0], &self.g)
        self.ccpi[0] = 0
        self.ccnt[0] = -1
    for s in range(steps):
        if past(&self.resample_deadline):
            # out of time: keep the chain's current world (every step so far
            # left the posterior invariant; fewer steps, same support)
            _RS_MCMC_CUT += 1
            break
        t0 = rng_int(self.wrng, nb)
        j = rng_int(self.wrng, lw)
        t1 = t0 + (2 << j)
        if ch.valid < nb and not rs_chain_extend(self, pact, ppos, &cur, &ch, cs, &self.ccpi,
                                                 &self.ccq, &self.ccstop, truth_cp,
                                                 truth_terminal):
            ok = False
            break
        bnodes = 0
        fits = False
        if not self.cfail[t0 * lw + j]:
            fits = rs_block_fits(self, pact, ppos, truth_cp, truth_terminal, &cur, t0,
                                 t1 if t1 < nb else nb, _RS_MCMC_BUDGET, cs, &self.ccpi,
                                 &bnodes, &fr, &cm)
            self.cfail[t0 * lw + j] = not fits
        if fits:
            _RS_MCMC_NODES += bnodes
            # the exact draw (its nodes stay within the bound just checked)
            r = rs_gibbs_window(self, pact, ppos, truth_cp, truth_terminal, &cur, t0,
                                t1, t1 if t1 < nb else nb, cs, &self.ccpi, &self.ccq, ch.clean,
                                &cm, &pick)
        else:
            _RS_MCMC_SKIPS += 1
            r = rs_mh_window(self, pact, ppos, truth_cp, truth_terminal, &cur, t0, t1,
                             cs, &self.ccpi, &self.ccq, &pick, &bnodes)
            _RS_MCMC_NODES += bnodes
            if r == 2:
                _RS_MCMC_REJECTS += 1
        if r == 1:
            f = rs_first_change(&cur, &pick, t0)
            if f >= 0:
                if same > f:
                    same = f
                _RS_MCMC_MOVES += 1
                cur.swap(pick)
                if ch.valid > f:
                    ch.valid = f
                # the tests of blocks starting after f saw the old actions
                memset(self.cfail.data() + (f + 1) * lw, 0, (nb - f - 1) * lw)
        elif r == -1:
            ok = False
            break
    rs_keep_steps(self, &fr, &cm)
    self.g.lazy = 0
    if ok and rs_replay_world(self, &cur, same, key, truth_cp, truth_terminal):
        cur.swap(self.ccur)
        self.cvalid = ch.valid
        self.cclean = ch.clean
        self.cP = self.wP
        self.ckey = key
        self.ccp = tcp
        return True
    if init == NULL:
        self.to_initial()
        for s in range(nb):
            self.apply(start[s])
    return False

cdef void rs_player_info(GoldNuggetRules self, int player) noexcept nogil:
    """What ``player`` saw in this state: its events and their codes
    (``iexpv``, ``iexpc``), its own actions and the number of its events
    before each (``ipact``, ``ippos``).  Kept with the state they come from,
    and not derived again for the same state (a search's root, copied into
    its scratch engine for every world it draws)."""
    cdef int h, i, j = 0, npe = 0, nlog = self.g.nlog, nh = <int>self.hist.size()
    cdef int na = <int>self.hact.size()
    if self.iP == player and <int>self.iev.size() == nlog and <int>self.ihist.size() == nh and \
            <int>self.ihact.size() == na and \
            memcmp(self.iev.data(), self.events, nlog * sizeof(Event)) == 0 and \
            memcmp(self.ilogh.data(), self.logh, nlog * sizeof(int)) == 0 and \
            memcmp(self.ihist.data(), self.hist.data(), nh * sizeof(int)) == 0 and \
            memcmp(self.ihact.data(), self.hact.data(), na * sizeof(int)) == 0:
        return
    self.iP = player
    self.iev.resize(nlog)
    self.ilogh.resize(nlog)
    memcpy(self.iev.data(), self.events, nlog * sizeof(Event))
    memcpy(self.ilogh.data(), self.logh, nlog * sizeof(int))
    self.ihist = self.hist
    self.ihact = self.hact
    self.iexpv.clear()
    self.iexpc.clear()
    self.ipact.clear()
    self.ippos.clear()
    for i in range(nlog):
        if (self.events[i].seers >> player) & 1:
            self.iexpv.push_back(self.events[i])
            self.iexpc.push_back(ev_code(&self.events[i]))
    for h in range(nh):
        if self.hact[h] == player:
            while j < nlog and self.logh[j] < h:
                if (self.events[j].seers >> player) & 1:
                    npe += 1
                j += 1
            self.ipact.push_back(self.hist[h])
            self.ippos.push_back(npe)


cdef void rs_resample_history(GoldNuggetRules self, int player, Rng* rng, vector[int]* out) noexcept nogil:
    rs_resample_history_from(self, player, rng, NULL, out)


cdef void rs_resample_history_from(GoldNuggetRules self, int player, Rng* rng,
                                   const vector[int]* prev, vector[int]* out) noexcept nogil:
    """A history drawn from `player`'s information set into ``out``: the
    exact stage, else a chained world when ``prev`` (NULL or empty: none) is
    the last world drawn for this information set (``set_resample_chain``),
    else walks and the corrector (rules doc, "Resampling")."""
    global _RS_CALLS, _RS_WALKS, _RS_FIRST, _RS_RESTART, _RS_EXHAUSTED, _RS_ERRORS, _RS_ERROR, _RS_EXACT
    global _RS_MCMC_FAILS, _RS_OUT_OF_TIME, _RS_CHAINED, _RS_CHAIN_FRESH, _RS_CHAIN_FAILS
    cdef vector[Event]* expv = &self.iexpv
    cdef vector[int]* pact = &self.ipact
    cdef vector[int]* ppos = &self.ippos
    cdef vector[int] rph, rcp, raux
    cdef Facts fx
    cdef int i, kind, a, d, r
    cdef long tries, budget
    cdef Event e
    cdef uint64_t key = self.info_key(player)
    cdef int cp_truth = self.current_player()
    cdef bint term = self.is_terminal()
    rs_player_info(self, player)
    # decisions P saw revealed later: chosen animals, victory cards
    # played, final face-down cards, grabs
    fx.chosen_any = 0
    fx.p_offers = 0
    fx.vcp_any = 0
    for i in range(MAXP):
        fx.chosen[i] = -1
        fx.vcp[i] = -1
        fx.fd[i] = -1
        fx.gr[i] = -1
        fx.gface[i] = -1
    for i in range(<int>expv.size()):
        e = expv[0][i]
        kind = e.kind
        a = e.actor
        d = e.c
        if kind == EV_OFFER:
            fx.p_offers |= 1u << e.b
        elif kind == EV_ANIMAL:
            fx.chosen[a] = e.b
            fx.chosen_any |= 1u << fx.chosen[a]
        elif kind == EV_VCPLAY:
            fx.vcp[a] = e.b
            fx.vcp_any |= 1u << fx.vcp[a]
        elif kind == EV_PLAY and d >= 2:
            fx.fd[a] = (A_RECYCLE if d == 3 else A_PLAY) + e.b
        elif kind == EV_GRABRES:
            if e.secret:
                fx.gface[a] = d
            if a != player:
                fx.gr[a] = A_NEST if e.a == NEST else A_STONE + e.a * MAXS + e.b
    self.wreal = False
    self.wexp = expv.data()
    self.wcode = self.iexpc.data()
    self.wT = <int>expv.size()
    self.wP = player
    self.wrng = rng
    _RS_CALLS += 1
    _RS_ERROR = 0
    if past(&self.resample_deadline):
        # called after its deadline: no world (the caller discards this engine)
        self.resample_status = RESAMPLE_OUT_OF_TIME
        _RS_OUT_OF_TIME += 1
        out.clear()
        return
    budget = _RS_EXACT_BUDGET
    if budget < 0:
        budget = EXACT_BUDGET_SMALL if rs_small_game(self) else 0
    if budget > 0 and rs_enumerate(self, pact, ppos, cp_truth, term, key, budget):
        _RS_EXACT += 1
        if _RS_MCMC_AFTER_EXACT and _RS_MCMC_STEPS > 0 and \
                not rs_correct(self, pact, ppos, cp_truth, term, key, _RS_MCMC_STEPS, NULL):
            _RS_MCMC_FAILS += 1
        out[0] = self.hist
        self.wreal = not self.g.lazy
        return
    if prev != NULL and prev.size() > 0 and _RS_CHAIN_STEPS > 0:
        # chaining: corrector steps leave the posterior invariant, so the
        # last world moved by a few of them is again a draw from it
        if _RS_CHAIN_REFRESH > 0.0 and rng_double(rng) < _RS_CHAIN_REFRESH:
            _RS_CHAIN_FRESH += 1
        elif rs_correct(self, pact, ppos, cp_truth, term, key, _RS_CHAIN_STEPS, prev):
            _RS_CHAINED += 1
            out[0] = self.hist
            self.wreal = True
            return
        else:
            _RS_CHAIN_FAILS += 1
    self.wleft = _RS_BACKTRACK_CAP
    tries = 0
    while self.wleft > 0:
        _RS_WALKS += 1
        r = rs_walk(self, &fx, pact, ppos, cp_truth, term, key, &rph, &rcp, &raux,
                    _RS_WALK_BACKS)
        if r == 1:
            if tries == 0:
                _RS_FIRST += 1
            else:
                _RS_RESTART += 1
            if _RS_MCMC_STEPS > 0 and not rs_correct(self, pact, ppos, cp_truth, term, key,
                                                     _RS_MCMC_STEPS, NULL):
                _RS_MCMC_FAILS += 1
            out[0] = self.hist
            self.wreal = not self.g.lazy
            return
        if r < 0:
            _RS_EXHAUSTED += 1
        tries += 1
    if self.resample_status == RESAMPLE_OUT_OF_TIME:
        # the deadline: no world (the caller discards this engine)
        _RS_OUT_OF_TIME += 1
        self.g.lazy = 0
        out.clear()
        return
    # The safety cap: no world after minutes of search (never measured; the
    # rules doc gives the tail).  Counted; Python entry points raise.
    _RS_ERRORS += 1
    _RS_ERROR = 1
    self.g.lazy = 0
    out.clear()


def draw_history(GoldNuggetRules state, int player, seed) -> list:
    """A history drawn from `player`'s information set in ``state`` (a
    rules state or an engine, left unchanged: the draw runs on a clone),
    seeded by ``seed``; it replays to the world.  RuntimeError if the search
    hit its safety cap (``set_resample_safety_cap``)."""
    cdef Rng rng
    cdef vector[int] h
    cdef GoldNuggetRules scratch
    if not 0 <= player < state.num_players:
        raise ValueError(f"player must be in [0, {state.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    scratch = <GoldNuggetRules>state.py_clone()
    scratch.resample_status = RESAMPLE_OK
    rs_resample_history(scratch, player, &rng, &h)
    _raise_if_resample_failed(player)
    return [a for a in h]
