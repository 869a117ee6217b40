# cython: language_level=3
"""Saboteur resampler: a whole history drawn from a player's information set.

``sab_resample_history`` works on any ``SaboteurRules`` state (the rules
kernel of ``rules.pxd``; ``src_cy.saboteur.engine.SaboteurEngine`` calls it
from its ``resample_history``): it reads only that player's events
(``make_plan`` draws every hidden part consistent with them), replays the
plan on the state (``drive``) and weighs K proposals (sampling-importance-
resampling, ``plan_logweight``); see the rules doc, "Resampling".  The
module's knobs (``set_resample_proposals``) and failure counters are
process-wide.  ``draw_history`` is the Python entry on a kernel state.
"""
from libc.string cimport memcmp, memcpy, memset
from libc.stdlib cimport malloc
from libc.math cimport exp, log, INFINITY
from libcpp.vector cimport vector
from libc.stdint cimport uint64_t

from src_cy.saboteur.actions cimport (A_STRIDE, A_BREAK, A_REPAIR, A_MAP, A_PASS, A_KEEP,
                                      A_HAND_ON)
from src_cy.engine cimport Rng, rng_int, rng_double, MAX_BRANCHING
from src_cy.events cimport Event
from src_cy.saboteur.rules cimport *


cdef enum:
    # Cap on redraws of the gold plan (``make_plan``); the acceptance rate
    # is at least about 1/10, so the cap is never reached in practice.
    MAX_GOLD_DRAWS = 100000


cdef enum:
    # Room for a round's pool of cards not accounted for (``SabSkel.pool``).
    MAXPOOL = 256
    # The skeleton's operations (``SabSkel.op`` and ``wdec``): the kind in
    # bits 0-2, the player in bits 3-6, the argument above.  ``op``:
    # another player's draw opens slot ``arg``; a public play of kind
    # ``arg`` or pass number ``arg`` takes a held slot; a round's cards end
    # (its ``arg``-th pool).  ``wdec``: the same plays and passes for the
    # hands the weights follow, and a round's end (hands empty); the draws
    # between them are kept apart (``SabSkel.wd_slot``).
    OP_DRAW = 0
    OP_PLAY = 1
    OP_PASS = 2
    OP_FINISH = 3
    W_PLAY = 5
    W_PASS = 6
    W_RESET = 7


cdef struct SabSkel:
    # What every plan for one player at one position shares (``build_skel``).
    int nrounds
    int nroles[MAXROUNDS]
    int own_role[MAXROUNDS]
    int ended[MAXROUNDS]
    int mask[MAXROUNDS]
    int known[MAXROUNDS][3]
    int gfirst[MAXROUNDS]
    int glast[MAXROUNDS]
    # The goal layouts (``PERMS`` indices) that agree with ``known``.
    int nperm[MAXROUNDS]
    int perms[MAXROUNDS][6]
    int nplayers, ndraw, npass, nop, nwdec, nwd, nfin
    # The open slots after the leading draw operations (``op[:op0]``,
    # before any play), where every plan starts.
    int op0
    int open0[MAXP][8]
    int nopen0[MAXP]
    int draw_kind[MAXLOG]
    int pass_kind[MAXLOG]
    int pass_player[MAXLOG]
    int op[MAXLOG + MAXROUNDS]
    # The weights' operations (``plan_logweight``): the others' draws in
    # log order (slot ``wd_slot``, player ``wd_q``) and the decisions and
    # round ends (``wdec``), each after the first ``wdec_draws`` draws.
    int wd_slot[MAXLOG]
    int wd_q[MAXLOG]
    int wdec[MAXLOG]
    int wdec_draws[MAXLOG]
    # Per round: its draws ``fj0 <= j < fj1``, passes ``fq0 <= i < fq1``
    # and pool.
    int fj0[MAXROUNDS]
    int fj1[MAXROUNDS]
    int fq0[MAXROUNDS]
    int fq1[MAXROUNDS]
    int npool[MAXROUNDS]
    int pool[MAXROUNDS][MAXPOOL]


cdef struct SabScratch:
    # Working memory of ``sab_resample_history``: the kept and the current
    # plan, and what is recorded per position: the plans' skeleton and the
    # public counts at the other players' card decisions.
    SabPlan plans[2]
    SabSkel skel
    SabPub pub[MAXLOG]
    # The position they were recorded for (``same_position``): the player,
    # the game's configuration and the event log; ``pos_ok`` 0 while
    # nothing is recorded, ``skel_ok`` whether a skeleton was built (else
    # no plan is consistent), ``pub_ok`` whether ``pub`` is recorded.
    int pos_ok, skel_ok, pub_ok, pub_player, pub_nl
    SabConf pub_conf
    Event pub_log[MAXLOG]


# One buffer for the process, allocated at the first resample (resampling
# runs in one thread at a time, like everything else on an engine).
cdef SabScratch* _scratch = NULL


cdef SabScratch* _resample_scratch() noexcept nogil:
    global _scratch
    if _scratch == NULL:
        _scratch = <SabScratch*>malloc(sizeof(SabScratch))
    return _scratch


cdef inline int played_kind(const Event* e) noexcept nogil:
    """The card kind a public play event shows; -1 for a pass (kind
    hidden), -2 for an event that is no card decision."""
    if e.kind == EV_PLACE:
        return e.b
    if e.kind == EV_ROCK:
        return K_ROCK
    if e.kind == EV_BREAK:
        return K_BREAK + e.b
    if e.kind == EV_REPAIR:
        return K_REPAIR + e.b
    if e.kind == EV_MAP:
        return K_MAP
    if e.kind == EV_PASS:
        return -1
    return -2


cdef inline int next_pass_kind(const SabPlan* pl, int* jp) noexcept nogil:
    """The kind of the plan's next pass (index ``jp[0]``, then advanced);
    -1 if the plan has none."""
    if jp[0] >= pl.npass:
        return -1
    jp[0] += 1
    return pl.pass_kind[jp[0] - 1]


cdef inline bint sees(const Event* e, int p) noexcept nogil:
    """Whether seat ``p`` saw the secret of event ``e``."""
    return (e.seers >> p) & 1


cdef inline int pub_legal(const SabPub* u, unsigned int held) noexcept nogil:
    """Legal actions of a mover holding the kinds of the bit set ``held``
    where the public counts are ``u``: ``legal_actions``' length, capped
    likewise."""
    cdef int n = 0, k
    while held:
        k = __builtin_ctz(held)
        n += 1 + u.a[k]
        held &= held - 1
    return n if n < MAX_BRANCHING else MAX_BRANCHING


cdef enum:
    LOG_TABLE = 1024

# log(i) for 0 < i < LOG_TABLE (the weights' factors are small integers).
cdef double _LOG_INT[LOG_TABLE]


cdef void _fill_log_table() noexcept nogil:
    cdef int i
    _LOG_INT[0] = -INFINITY
    for i in range(1, LOG_TABLE):
        _LOG_INT[i] = log(<double>i)


_fill_log_table()


cdef inline double log_int(int x) noexcept nogil:
    """log(x) for an integer x > 0 (the same value as ``log(<double>x)``)."""
    return _LOG_INT[x] if x < LOG_TABLE else log(<double>x)


# Worlds ``sab_resample_history`` could not draw consistently (see
# ``resample_failures``); stays 0 unless the procedure has a bug.
cdef long long _resample_failures = 0
# Why the last ``sab_resample_history`` failed (0: it did not); see ``_FAILURES``.
cdef int _resample_error = 0

# Proposals per world of the importance-corrected card draw (sampling-
# importance-resampling; rules doc, "Resampling"; ``set_resample_proposals``).
DEFAULT_RESAMPLE_PROPOSALS = 4
cdef int _proposals = DEFAULT_RESAMPLE_PROPOSALS


def set_resample_proposals(int k) -> int:
    """Proposals K per resampled world (K = 1: the uncorrected card
    proposal); returns the previous K. K >= 1."""
    global _proposals
    if k < 1:
        raise ValueError(f"proposals must be >= 1, got {k}")
    old = _proposals
    _proposals = k
    return old


_FAILURES = {
    1: "the event log is full",
    2: "out of memory for the plan",
    3: "no plan consistent with the player's events was drawn",
    4: "the drawn plan did not replay",
    5: "the replayed world has another information key than the player's",
}


def resample_failures() -> int:
    """How many resamples (process-wide, since import) failed to draw a world
    that replays to the player's information state.  The procedure draws
    consistent worlds by construction, so this stays 0; the tests assert it."""
    return _resample_failures


def _raise_if_resample_failed(int player) -> None:
    """RuntimeError naming the failure of the last ``sab_resample_history``."""
    if _resample_error:
        raise RuntimeError(f"saboteur resample for player {player} failed: "
                           f"{_FAILURES[_resample_error]} (a bug in the resampler; "
                           f"the true history is never returned instead)")


def _public_legal_count(SaboteurRules engine) -> int:
    """The number of legal actions of the player to move in a play phase,
    counted the way the resampler's weights count it: from the public counts
    (``pub_counts``) and the kinds the mover holds.  For the tests, which
    compare it with ``py_legal_actions``."""
    cdef SabPub u
    cdef unsigned int held = 0
    cdef int k
    if engine.s.phase != PH_PLAY:
        raise ValueError("not a play phase")
    engine.pub_counts(&u)
    for k in range(NKINDS):
        if engine.s.hand[engine.s.cur][k]:
            held |= 1u << k
    return pub_legal(&u, held)


cdef int take_slot(SabPlan* pl, int q, Rng* rng) noexcept nogil:
    """Remove and return a uniformly drawn card slot held by ``q``."""
    cdef int i, j
    if pl.nopen[q] == 0:
        return -1
    i = rng_int(rng, pl.nopen[q])
    j = pl.open[q][i]
    pl.nopen[q] -= 1
    pl.open[q][i] = pl.open[q][pl.nopen[q]]
    return j


cdef int finish_cards(SabPlan* pl, const SabSkel* sk, int p, int f, Rng* rng) noexcept nogil:
    """Give the card slots of a round (``sk``'s ``f``-th) that no public
    play fixed (others' discards and hands; the deck is never drawn in the
    history) kinds drawn uniformly from the cards not accounted for (the
    skeleton's pool of that round); 0 if inconsistent."""
    cdef int pool[MAXPOOL]
    cdef int todo[MAXLOG]
    cdef int m = sk.npool[f], j, i, nt = 0, own
    memcpy(pool, sk.pool[f], m * sizeof(int))
    # The open slots, listed first without branching on which they are
    # (the plays fixed them at random), then filled in order.
    for j in range(sk.fj0[f], sk.fj1[f]):
        todo[nt] = j
        nt += pl.draw_kind[j] < 0
    if nt > m:
        return 0
    for j in range(nt):
        i = rng_int(rng, m)
        pl.draw_kind[todo[j]] = pool[i]
        m -= 1
        pool[i] = pool[m]
    for i in range(sk.fq0[f], sk.fq1[f]):
        # ``p``'s own passes keep their kinds (their slot is not set).
        own = pl.pass_player[i] == p
        j = pl.draw_kind[pl.pass_slot[i] & (own - 1)]
        pl.pass_kind[i] = pl.pass_kind[i] if own else j
    memset(pl.nopen, 0, sizeof(pl.nopen))
    return 1


cdef void shuffle_ints(int* a, int n, Rng* rng) noexcept nogil:
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = rng_int(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef int sample_gold(int* gpool, int* out, int u, Rng* rng) noexcept nogil:
    """Draw ``u`` gold values without replacement from the unseen counts."""
    cdef int i, x, v, tot
    for i in range(u):
        tot = gpool[0] + gpool[1] + gpool[2]
        if tot <= 0:
            return 0
        x = rng_int(rng, tot)
        v = 0 if x < gpool[0] else (1 if x < gpool[0] + gpool[1] else 2)
        gpool[v] -= 1
        out[i] = v
    return 1


cdef int plan_gold(SaboteurRules rules, SabPlan* pl, int p, Rng* rng) noexcept nogil:
    """Gold draws and hand-outs of every distribution in the log."""
    cdef int gpool[3]
    cdef int known[MAXROUNDS][3]
    cdef int vals[MAXP]
    cdef int S0[MAXP]
    cdef int i, r, v, k, D, T, nk, u, pos, mine, sawdraws, passpos, ntake
    cdef const Event* e
    for v in range(3):
        gpool[v] = GOLD_COUNT[v]
    memset(known, 0, sizeof(known))
    # What p has seen of each distribution: the whole drawn set, a set
    # passed on to p, or p's own card.
    for r in range(pl.nrounds):
        sawdraws = 0
        for i in range(pl.gfirst[r], pl.glast[r]):
            e = &pl.log[i]
            if e.kind == EV_GOLDDRAW and sees(e, p):
                known[r][e.secret] += 1
                sawdraws = 1
        if not sawdraws:
            for i in range(pl.gfirst[r], pl.glast[r]):
                e = &pl.log[i]
                if e.kind == EV_GOLDPASS and sees(e, p):
                    known[r][0] = e.secret % 11
                    known[r][1] = (e.secret // 11) % 11
                    known[r][2] = e.secret // 121
                    sawdraws = 2
            if not sawdraws:
                for i in range(pl.gfirst[r], pl.glast[r]):
                    e = &pl.log[i]
                    if (e.kind == EV_GOLD or e.kind == EV_GOLDTAKE) and e.actor == p:
                        known[r][e.secret] += 1
        for v in range(3):
            gpool[v] -= known[r][v]
            if gpool[v] < 0:
                return 0
    for r in range(pl.nrounds):
        D = 0
        T = 0
        sawdraws = 0
        passpos = -1
        pos = -1
        mine = -1
        for i in range(pl.gfirst[r], pl.glast[r]):
            e = &pl.log[i]
            if e.kind == EV_GOLDDRAW:
                if sees(e, p):
                    pl.gdraw[r][D] = e.secret
                    sawdraws = 1
                D += 1
            elif e.kind == EV_GOLD or e.kind == EV_GOLDTAKE:
                if e.actor == p:     # the recipient
                    pos = T
                    mine = e.secret
                if e.kind == EV_GOLD and e.a == p:
                    pl.gtake[r][T] = e.secret
                T += 1
            elif e.kind == EV_GOLDPASS and sees(e, p):
                passpos = T
        if D == 0:
            continue
        nk = 0          # the finder (sawdraws) is never passed to: no pick reads nk then
        if sawdraws:
            for k in range(D):
                S0[k] = pl.gdraw[r][k]
        else:
            for v in range(3):
                for k in range(known[r][v]):
                    S0[nk] = v
                    nk += 1
            u = D - nk
            if u < 0 or not sample_gold(gpool, S0 + nk, u, rng):
                return 0
            for k in range(D):
                pl.gdraw[r][k] = S0[k]
            shuffle_ints(pl.gdraw[r], D, rng)
        if not rules.p.pick and sawdraws:
            continue            # the finder saw every hand-out
        # vals: the drawn values not yet placed, to spread over positions.
        for k in range(D):
            pl.gtake[r][k] = -1
        if rules.p.pick and passpos >= 0:
            # Earlier pickers took the cards p never saw, in any order.
            for k in range(passpos):
                pl.gtake[r][k] = S0[nk + k]
            shuffle_ints(pl.gtake[r], passpos, rng)
        if mine >= 0:
            pl.gtake[r][pos] = mine
        ntake = 0
        for k in range(D):
            vals[k] = S0[k]
        u = D
        for k in range(D):
            if pl.gtake[r][k] >= 0:
                for i in range(u):
                    if vals[i] == pl.gtake[r][k]:
                        u -= 1
                        vals[i] = vals[u]
                        break
        shuffle_ints(vals, u, rng)
        for k in range(D):
            if pl.gtake[r][k] < 0:
                pl.gtake[r][k] = vals[ntake]
                ntake += 1
    return 1


cdef inline void add_op(int* ops, int* n, int kind, int q, int arg) noexcept nogil:
    ops[n[0]] = kind | (q << 3) | (arg << 7)
    n[0] += 1


cdef inline void add_wdec(SabSkel* sk, int kind, int q, int arg) noexcept nogil:
    """Append a weight decision (or round end) after the draws so far."""
    sk.wdec_draws[sk.nwdec] = sk.nwd
    add_op(sk.wdec, &sk.nwdec, kind, q, arg)


cdef int skel_finish(SabSkel* sk, SaboteurRules rules, int* used, int j0, int q0) noexcept nogil:
    """Close a round of the skeleton's cards: the pool of the cards not
    accounted for (the deck minus the player's draws and others' public
    plays, in kind order) and the slots to fill from it; 0 if inconsistent."""
    cdef int f = sk.nfin, k, c, m = 0
    for k in range(NKINDS):
        c = rules.p.init_deck[k] - used[k]
        if c < 0 or m + c > MAXPOOL:
            return 0
        while c > 0:
            sk.pool[f][m] = k
            m += 1
            c -= 1
        used[k] = 0
    sk.npool[f] = m
    sk.fj0[f] = j0
    sk.fj1[f] = sk.ndraw
    sk.fq0[f] = q0
    sk.fq1[f] = sk.npass
    add_op(sk.op, &sk.nop, OP_FINISH, 0, f)
    sk.nfin += 1
    return 1


cdef int build_skel(SaboteurRules rules, SabSkel* sk, int p) noexcept nogil:
    """What every plan for ``p`` at this position shares, from ``p``'s log
    (``rules.s.log``): the rounds, roles dealt and goals known, the goal
    layouts that agree with them, ``p``'s own draws and passes, the card
    operations left to draw (``op``: others' draws, public plays and passes,
    each round's end with its pool) and those that weigh a plan (``wdec``,
    ``plan_logweight``).  ``make_plan`` then only draws; 0 if no plan is
    consistent with the log."""
    cdef int i, r, q, k, g, j, ok, cnt, nl = rules.s.nlog, j0 = 0, q0 = 0, newround = 0
    cdef int used[NKINDS]
    cdef int nopen[MAXP]
    cdef const Event* e
    cdef const Event* log = rules.s.log
    memset(sk.nroles, 0, sizeof(sk.nroles))
    memset(sk.ended, 0, sizeof(sk.ended))
    for r in range(MAXROUNDS):
        sk.own_role[r] = -1
        sk.gfirst[r] = 0
        sk.glast[r] = 0
        for g in range(3):
            sk.known[r][g] = -1
    r = 0
    for i in range(nl):
        e = &log[i]
        if e.kind == EV_ROLE:
            if sk.ended[r]:
                r += 1
            sk.nroles[r] += 1
            if e.actor == p:
                sk.own_role[r] = e.secret
        elif e.kind == EV_REVEAL:
            sk.known[r][e.a] = e.b
        elif e.kind == EV_MAP and e.actor == p:
            sk.known[r][e.a] = e.secret
        elif e.kind == EV_ROUNDEND:
            sk.ended[r] = 1
            sk.mask[r] = e.a
            sk.gfirst[r] = i + 1
            sk.glast[r] = nl
        if e.kind == EV_ROLE and r > 0 and sk.glast[r - 1] == nl:
            sk.glast[r - 1] = i
    sk.nrounds = r + 1
    for r in range(sk.nrounds):
        cnt = 0
        for k in range(6):
            ok = 1
            for g in range(3):
                if sk.known[r][g] >= 0 and PERMS[k][g] != sk.known[r][g]:
                    ok = 0
            if ok:
                sk.perms[r][cnt] = k
                cnt += 1
        if cnt == 0:
            return 0
        sk.nperm[r] = cnt
    sk.ndraw = 0
    sk.npass = 0
    sk.nop = 0
    sk.nwdec = 0
    sk.nwd = 0
    sk.nfin = 0
    memset(used, 0, sizeof(used))
    memset(nopen, 0, sizeof(nopen))
    for i in range(nl):
        e = &log[i]
        if e.kind == EV_ROUNDEND:
            newround = 1
            add_wdec(sk, W_RESET, 0, 0)
        if e.kind == EV_ROLE and newround:
            if not skel_finish(sk, rules, used, j0, q0):
                return 0
            memset(nopen, 0, sizeof(nopen))
            j0 = sk.ndraw
            q0 = sk.npass
            newround = 0
        if e.kind == EV_DRAW:
            j = sk.ndraw
            sk.ndraw += 1
            if e.actor == p:
                sk.draw_kind[j] = e.secret
                used[e.secret] += 1
            else:
                sk.draw_kind[j] = -1
                if nopen[e.actor] >= 8:
                    return 0
                nopen[e.actor] += 1
                add_op(sk.op, &sk.nop, OP_DRAW, e.actor, j)
                sk.wd_slot[sk.nwd] = j
                sk.wd_q[sk.nwd] = e.actor
                sk.nwd += 1
            continue
        k = played_kind(e)
        if k == -2:
            continue
        q = e.actor
        if q == p:
            if k == -1:
                sk.pass_player[sk.npass] = p
                sk.pass_kind[sk.npass] = e.secret
                sk.npass += 1
            continue
        if nopen[q] == 0:
            return 0
        nopen[q] -= 1
        if k >= 0:
            used[k] += 1
            add_op(sk.op, &sk.nop, OP_PLAY, q, k)
            add_wdec(sk, W_PLAY, q, k)
        else:
            sk.pass_player[sk.npass] = q
            sk.pass_kind[sk.npass] = -1
            add_op(sk.op, &sk.nop, OP_PASS, q, sk.npass)
            add_wdec(sk, W_PASS, q, sk.npass)
            sk.npass += 1
    if not skel_finish(sk, rules, used, j0, q0):
        return 0
    sk.nplayers = rules.p.n
    memset(sk.nopen0, 0, sizeof(sk.nopen0))
    sk.op0 = 0
    while sk.op0 < sk.nop and (sk.op[sk.op0] & 7) == OP_DRAW:
        q = (sk.op[sk.op0] >> 3) & 15
        sk.open0[q][sk.nopen0[q]] = sk.op[sk.op0] >> 7
        sk.nopen0[q] += 1
        sk.op0 += 1
    return 1


cdef int make_plan(SaboteurRules rules, const SabSkel* sk, SabPlan* pl, int p, Rng* rng) noexcept nogil:
    """Draw every hidden part of a history consistent with ``p``'s log,
    whose shared parts are the skeleton ``sk`` (``build_skel``)."""
    cdef int i, r, q, k, j, slot, op
    cdef int pool[MAXP + 1]
    cdef int m
    cdef int n = rules.p.n
    pl.nrounds = sk.nrounds
    memcpy(pl.ended, sk.ended, sizeof(pl.ended))
    memcpy(pl.gfirst, sk.gfirst, sizeof(pl.gfirst))
    memcpy(pl.glast, sk.glast, sizeof(pl.glast))
    # Roles dealt and goal layouts, round by round.
    for r in range(sk.nrounds):
        if sk.ended[r]:
            for q in range(n):
                pl.role[r][q] = (sk.mask[r] >> q) & 1
        else:
            m = 0
            for k in range(ROLE_DIG[n]):
                pool[m] = 0
                m += 1
            for k in range(ROLE_SAB[n]):
                pool[m] = 1
                m += 1
            if sk.own_role[r] >= 0:
                for k in range(m):
                    if pool[k] == sk.own_role[r]:
                        m -= 1
                        pool[k] = pool[m]
                        break
                pl.role[r][p] = sk.own_role[r]
            shuffle_ints(pool, m, rng)
            j = 0
            for q in range(sk.nroles[r]):
                if q != p:
                    pl.role[r][q] = pool[j]
                    j += 1
        pl.perm[r] = sk.perms[r][rng_int(rng, sk.nperm[r])]
    # Cards: others' public plays come from uniformly drawn held slots.
    pl.ndraw = sk.ndraw
    pl.npass = sk.npass
    memcpy(pl.draw_kind, sk.draw_kind, sk.ndraw * sizeof(int))
    memcpy(pl.pass_kind, sk.pass_kind, sk.npass * sizeof(int))
    memcpy(pl.pass_player, sk.pass_player, sk.npass * sizeof(int))
    memcpy(pl.nopen, sk.nopen0, sizeof(pl.nopen))
    memcpy(pl.open, sk.open0, sizeof(pl.open))
    for i in range(sk.op0, sk.nop):
        op = sk.op[i]
        q = (op >> 3) & 15
        k = op >> 7
        if (op & 7) == OP_DRAW:
            pl.open[q][pl.nopen[q]] = k
            pl.nopen[q] += 1
        elif (op & 7) == OP_FINISH:
            if not finish_cards(pl, sk, p, k, rng):
                return 0
        else:
            slot = take_slot(pl, q, rng)
            if slot < 0:
                return 0
            if (op & 7) == OP_PLAY:
                pl.draw_kind[slot] = k
            else:
                pl.pass_slot[k] = slot
    for tries in range(MAX_GOLD_DRAWS):
        if not plan_gold(rules, pl, p, rng):
            return 0
        if not pl.open_share or open_set_has_choice(pl):
            return 1
    return 0


cdef int open_set_has_choice(SabPlan* pl) noexcept nogil:
    """Whether the gold cards not yet taken in the plan's open hand-out
    (the last round's) hold two values or more, as they must while a
    recipient is deciding (else the hand-out would have been automatic)."""
    cdef int left[3]
    cdef int r = pl.nrounds - 1, i, D = 0, T = 0, v, nv = 0
    cdef const Event* e
    for i in range(pl.gfirst[r], pl.glast[r]):
        e = &pl.log[i]
        if e.kind == EV_GOLDDRAW:
            D += 1
        elif e.kind == EV_GOLD or e.kind == EV_GOLDTAKE:
            T += 1
    left[0] = left[1] = left[2] = 0
    for i in range(D):
        left[pl.gdraw[r][i]] += 1
    for i in range(T):
        left[pl.gtake[r][i]] -= 1
    for v in range(3):
        if left[v] > 0:
            nv += 1
    return nv >= 2


cdef int plan_logweight(const SabSkel* sk, SabPlan* pl, const SabPub* pub, double* lw) noexcept nogil:
    """The log importance weight of a plan (rules doc, "Resampling"): at
    every card decision of a player other than the resampling one, -log(held
    cards of the kind used x legal actions) -- the uniform-opponent
    target (1 / legal actions) over the proposal, which takes a public
    play or a pass from a uniformly chosen held card; the other factors
    are equal for every history of the information set.  The hands
    follow from the plan's draws (the skeleton's weight operations,
    ``build_skel``: the others' draws, plays and passes in log order; the
    draws after the last decision weigh nothing and are skipped); the
    legal actions from the hand and ``pub``, the public counts at those
    decisions in log order (the same for every history of the information
    set, ``drive`` records them).  Adds to ``lw``; 0 if a play uses a card
    its player does not hold."""
    cdef int hand[MAXP][NKINDS]
    cdef unsigned int held[MAXP]
    cdef int t = 0, d = 0, i, k, q, op, end
    memset(hand, 0, sk.nplayers * sizeof(hand[0]))
    memset(held, 0, sizeof(held))
    for i in range(sk.nwdec):
        end = sk.wdec_draws[i]
        while d < end:
            k = pl.draw_kind[sk.wd_slot[d]]
            if k < 0:
                return 0
            q = sk.wd_q[d]
            hand[q][k] += 1
            held[q] |= 1u << k
            d += 1
        op = sk.wdec[i]
        q = (op >> 3) & 15
        if (op & 7) == W_RESET:
            memset(hand, 0, sk.nplayers * sizeof(hand[0]))
            memset(held, 0, sizeof(held))
            continue
        k = op >> 7 if (op & 7) == W_PLAY else pl.pass_kind[op >> 7]
        if k < 0 or hand[q][k] <= 0:
            return 0
        lw[0] -= log_int(hand[q][k] * pub_legal(&pub[t], held[q]))
        t += 1
        hand[q][k] -= 1
        held[q] &= ~(<unsigned int>(hand[q][k] == 0) << k)
    return 1


cdef int drive(SaboteurRules rules, SabPlan* pl, int player, SabPub* pub) noexcept nogil:
    """From the initial state, apply the planned history until as many
    events as in the log are out; 0 on any inconsistency.  With ``pub``
    given, also records the public counts (``pub_counts``) at every card
    decision of a player other than ``player``, in order."""
    cdef int jd = 0, jp = 0, ip = 0, a, k, v, ph, steps = 0, t = 0
    cdef int tail = rules.p.tail0
    cdef const Event* e
    rules.to_initial()
    while rules.s.nlog < pl.nl:
        steps += 1
        if steps > 4 * MAXLOG:
            return 0
        ph = rules.s.phase
        if ph == PH_ROLE:
            a = pl.role[rules.s.round][rules.s.deal_i]
            if rules.s.role_left[a] <= 0:
                return 0
        elif ph == PH_GOAL:
            a = pl.perm[rules.s.round]
        elif ph == PH_DEAL or ph == PH_DRAW:
            if jd >= pl.ndraw:
                return 0
            a = pl.draw_kind[jd]
            jd += 1
            if a < 0 or rules.s.deck[a] <= 0:
                return 0
        elif ph == PH_GOLD:
            v = rules.s.gdrawn[0] + rules.s.gdrawn[1] + rules.s.gdrawn[2]
            a = pl.gdraw[rules.s.round][v]
            if not 0 <= a < 3 or rules.s.gold_pool[a] <= 0:
                return 0
        elif ph == PH_SHARE:
            v = pl.gtake[rules.s.round][rules.s.gqi]
            if not 0 <= v < 3 or rules.s.gdrawn[v] <= 0:
                return 0
            a = tail + (A_KEEP if rules.p.pick or rules.s.gq[rules.s.gqi] == rules.s.completer
                                    else A_HAND_ON) + v
        elif ph == PH_PLAY:
            while ip < pl.nl and not (EV_PLACE <= pl.log[ip].kind <= EV_PASS):
                ip += 1
            if ip >= pl.nl:
                return 0
            e = &pl.log[ip]
            ip += 1
            if e.actor != rules.s.cur:
                return 0
            if e.kind == EV_PLACE:
                a = rules.place_id(e.b, e.c, rules.grid_of(e.a))
                k = e.b
            elif e.kind == EV_ROCK:
                a = rules.rock_id(rules.grid_of(e.a))
                k = K_ROCK
            elif e.kind == EV_BREAK:
                a = tail + A_BREAK + A_STRIDE * e.b + e.c
                k = K_BREAK + e.b
            elif e.kind == EV_REPAIR:
                a = tail + A_REPAIR + A_STRIDE * (3 * e.b + e.a) + e.c
                k = K_REPAIR + e.b
            elif e.kind == EV_MAP:
                a = tail + A_MAP + e.a
                k = K_MAP
            else:
                k = next_pass_kind(pl, &jp)
                if k < 0:
                    return 0
                a = tail + A_PASS + k
            if a < 0 or rules.s.hand[rules.s.cur][k] <= 0:
                return 0
            if pub != NULL and rules.s.cur != player:
                rules.pub_counts(&pub[t])
                t += 1
        else:
            return 0
        rules.apply(a)
    return rules.s.nlog == pl.nl


cdef int redeal(SaboteurRules rules, SabPlan* pl, int player) noexcept nogil:
    """Turn ``rules``, a world of the plan's information set during its
    first round, into the plan's world in place, as ``drive`` would replay
    it but without the replay: every public fact (the maze, its lists,
    tools, counts, the events but their secrets) is the same in all worlds
    of the set, so only the hidden parts are rebuilt by walking the log
    (roles, goals, deck, hands, discards, the events' secrets, the
    history's chance outcomes and passes).  ``player``'s events keep their
    secrets (checked), so the public hash and ``player``'s key stay; the
    other players' keys are left stale (``stale_keys``: each is hashed from
    the log when first read, and a search reads few).
    1 when done; 0 when the position is not one it handles (a round
    ended, or ``rules`` is quiet), ``rules`` then unspecified for
    ``drive`` to restart; -1 if the plan does not fit (as ``drive``'s 0)."""
    cdef SabState* s = &rules.s
    cdef int n = rules.p.n, tail = rules.p.tail0
    cdef int i, g, q, k, a, old, h = 0, jd = 0, jp = 0, nh = <int>rules.hist.size()
    cdef int* hist = rules.hist.data()
    cdef Event* e
    if rules.quiet or s.round != 0 or pl.nrounds != 1 or pl.ended[0] or s.nlog != pl.nl:
        return 0
    memset(s.hand, 0, sizeof(s.hand))
    memset(s.held, 0, sizeof(s.held))
    memset(s.disc, 0, sizeof(s.disc))
    for k in range(NKINDS):
        s.deck[k] = rules.p.init_deck[k]
    for q in range(MAXP):
        s.role[q] = -1
    s.role_left[0] = ROLE_DIG[n]
    s.role_left[1] = ROLE_SAB[n]
    for g in range(3):
        s.goal_id[g] = -1
    for i in range(pl.nl):
        e = &s.log[i]
        q = e.actor
        k = -1
        old = e.secret
        if e.kind == EV_REVEAL:
            pass
        elif h >= nh:
            return 0
        elif e.kind == EV_ROLE:
            a = pl.role[0][q]
            if not 0 <= a <= 1 or s.role_left[a] <= 0:
                return -1
            s.role[q] = a
            s.role_left[a] -= 1
            e.secret = a
            hist[h] = a
        elif e.kind == EV_GOALS:
            a = pl.perm[0]
            for g in range(3):
                s.goal_id[g] = PERMS[a][g]
            hist[h] = a
        elif e.kind == EV_DRAW:
            if jd >= pl.ndraw:
                return -1
            a = pl.draw_kind[jd]
            jd += 1
            if a < 0 or s.deck[a] <= 0:
                return -1
            s.deck[a] -= 1
            s.hand[q][a] += 1
            s.held[q] |= 1u << a
            e.secret = a
            hist[h] = a
        elif e.kind == EV_PASS:
            k = next_pass_kind(pl, &jp)
            if k < 0:
                return -1
            s.disc[q][k] += 1
            e.secret = k
            hist[h] = tail + A_PASS + k
        elif e.kind == EV_MAP:
            k = K_MAP
            e.secret = s.goal_id[e.a]
        else:
            k = played_kind(e)
            if k < 0:
                return 0
        if k >= 0:
            if s.hand[q][k] <= 0:
                return -1
            s.hand[q][k] -= 1
            if s.hand[q][k] == 0:
                s.held[q] &= ~(1u << k)
        if (e.seers >> player) & 1 and e.secret != old:
            return -1
        if e.kind != EV_REVEAL:
            h += 1
    if h != nh:
        return 0
    s.stale_keys = ((1u << n) - 1) & ~(1u << player) | (s.stale_keys & (1u << player))
    s.stale_nlog = s.nlog
    s.stale_pub = rules.pubhash
    return 1


# Worlds ``set_world`` set in place (``redeal``) and by a replay (``drive``),
# process-wide since import (``_world_paths``, for the tests).
cdef long long _set_in_place = 0
cdef long long _set_by_replay = 0


def _world_paths() -> tuple:
    """(worlds set in place, worlds replayed) by the resampler's last step,
    process-wide since import; the tests check that both paths are taken."""
    return (_set_in_place, _set_by_replay)


cdef bint set_world(SaboteurRules rules, SabPlan* pl, int player) noexcept nogil:
    """``rules`` at the plan's world: ``redeal`` where it applies, else the
    replay (``drive``); False if the plan does not fit."""
    global _set_in_place, _set_by_replay
    cdef int r = redeal(rules, pl, player)
    if r == 0:
        _set_by_replay += 1
        return drive(rules, pl, player, NULL)
    _set_in_place += 1
    return r > 0


cdef bint same_position(SabScratch* sc, SaboteurRules rules, int player, int nl) noexcept nogil:
    """Whether ``sc``'s records are for ``player`` in a game whose
    configuration and event log are those of ``rules`` now: the skeleton
    and the public counts are functions of the player's log and the public
    history, so a search drawing many worlds from one position records
    them once."""
    return (sc.pos_ok and sc.pub_player == player and sc.pub_nl == nl
            and memcmp(&sc.pub_conf, rules.p, sizeof(SabConf)) == 0
            and memcmp(sc.pub_log, rules.s.log, nl * sizeof(Event)) == 0)


cdef void sab_resample_history(SaboteurRules rules, int player, Rng* rng, vector[int]* out) noexcept nogil:
    """A history drawn from ``player``'s information set by the procedure
    of the rules doc (section Information, "Resampling": K proposals,
    one kept with probability proportional to its importance weight);
    it reads only ``player``'s events and the public phase.  Uses ``rules`` as scratch
    space and leaves it at the drawn history.  What every plan at this
    position shares (``build_skel``) and the public counts the weights need
    (``plan_logweight``) are recorded once per position
    (``same_position``); recording the counts replays the first proposal
    (``drive``).  The others are weighed from their plans alone and only
    the one kept is set as the world (``set_world``).  Every draw replays
    to ``player``'s information state; one that does not is a bug:
    ``out`` is left empty (never the true history), the failure is
    counted in ``resample_failures`` and the Python entry points raise
    RuntimeError naming it."""
    global _resample_failures, _resample_error
    cdef SabScratch* sc
    cdef SabPlan* best
    cdef SabPlan* cur
    cdef SabPlan* tmp
    cdef SabPub* rec = NULL
    cdef uint64_t key0 = rules.info_key(player)
    cdef int err = 0, i, nl = rules.s.nlog
    cdef double lw, logtot = -INFINITY, m
    cdef bint driven = True     # rules is at ``best``'s history
    cdef bint fresh
    _resample_error = 0
    out.clear()
    sc = _resample_scratch()
    if nl >= MAXLOG:
        err = 1
    elif sc == NULL:
        err = 2
    else:
        best = &sc.plans[0]
        cur = &sc.plans[1]
        fresh = not same_position(sc, rules, player, nl)
        if fresh:
            sc.pos_ok = 1
            sc.pub_ok = 0
            sc.pub_player = player
            sc.pub_nl = nl
            memcpy(&sc.pub_conf, rules.p, sizeof(SabConf))
            memcpy(sc.pub_log, rules.s.log, nl * sizeof(Event))
            sc.skel_ok = build_skel(rules, &sc.skel, player)
        if _proposals > 1 and not sc.pub_ok:
            rec = &sc.pub[0]
        for i in range(2):
            # At a recorded position the plans already hold this log.
            if fresh:
                memcpy(sc.plans[i].log, rules.s.log, nl * sizeof(Event))
            sc.plans[i].nl = nl
            sc.plans[i].open_share = rules.s.phase == PH_SHARE
        # K proposals, one kept with probability proportional to its
        # importance weight (streaming: the i-th replaces the pick with
        # probability w_i / (w_1 + ... + w_i)).
        if not sc.skel_ok or not make_plan(rules, &sc.skel, best, player, rng):
            err = 3
        elif rec == NULL:
            # Nothing to record: the world is set once the pick is made (below).
            driven = False
        elif not drive(rules, best, player, rec):
            err = 4
        else:
            sc.pub_ok = 1
        if not err and _proposals > 1:
            lw = 0.0
            if not plan_logweight(&sc.skel, best, sc.pub, &lw):
                err = 4
            else:
                logtot = lw
                rng_double(rng)     # the first proposal is kept for sure
                for i in range(1, _proposals):
                    lw = 0.0
                    if not make_plan(rules, &sc.skel, cur, player, rng):
                        err = 3
                    elif not plan_logweight(&sc.skel, cur, sc.pub, &lw):
                        err = 4
                    if err:
                        break
                    m = lw if lw > logtot else logtot
                    logtot = m + log(exp(lw - m) + exp(logtot - m))
                    if rng_double(rng) < exp(lw - logtot):
                        tmp = best
                        best = cur
                        cur = tmp
                        driven = False
        if not err and not driven and not set_world(rules, best, player):
            err = 4
        if not err and rules.info_key(player) != key0:
            err = 5
    if err:
        _resample_failures += 1
        _resample_error = err
        return
    out[0] = rules.hist


def draw_history(SaboteurRules rules, int player, seed) -> list:
    """A history drawn from ``player``'s information set in ``rules``'
    game, from a clone (``rules`` is unchanged), with ``seed`` as
    ``Engine.py_resample_history`` seeds it; RuntimeError if the draw failed
    (a bug)."""
    cdef Rng rng
    cdef vector[int] h
    cdef SaboteurRules scratch
    if not 0 <= player < rules.num_players:
        raise ValueError(f"player must be in [0, {rules.num_players - 1}], got {player}")
    rng.s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    scratch = rules.clone()
    sab_resample_history(scratch, player, &rng, &h)
    _raise_if_resample_failed(player)
    return [a for a in h]
