# cython: language_level=3
"""Saboteur snapshots and invariant checks over a rules-kernel state
(``SaboteurRules``, ``rules.pxd``); ``SaboteurEngine.dump``, ``load`` and
``check_invariants`` are one-line calls of these functions.

A snapshot is versioned and holds the game string and the action history;
``load`` replays it with every action checked.  Every check raises
ValueError naming what is wrong (never ``assert``: python -O).
"""
import struct as _struct

from src_cy.saboteur.rules cimport *

from src_cy.saboteur.render import KIND_NAMES

SNAPSHOT_MAGIC = b"SABOTEUR"
# Version 4: compact action ids (placements on a frontier position,
# rockfalls on a tunnel-card position); older snapshots hold cell-based ids.
SNAPSHOT_VERSION = 4


def _require(ok, str message) -> None:
    """Raise ValueError(message) unless ``ok`` (never ``assert``: python -O)."""
    if not ok:
        raise ValueError(message)


def dump(SaboteurRules rules) -> bytes:
    """Versioned snapshot: the game string and the action history."""
    gs = rules.game_string.encode()
    return (SNAPSHOT_MAGIC + _struct.pack("<III", SNAPSHOT_VERSION, len(gs), rules.hist.size())
            + gs + _struct.pack(f"<{rules.hist.size()}i", *rules.hist))


def load(SaboteurRules rules, data) -> None:
    """Restore a ``dump`` snapshot by replaying its history, every action
    checked; ValueError (state unchanged) on anything malformed."""
    cdef int nhead = len(SNAPSHOT_MAGIC) + 12
    if not isinstance(data, (bytes, bytearray)) or len(data) < nhead:
        raise ValueError("saboteur snapshot is too short")
    data = bytes(data)
    if data[:len(SNAPSHOT_MAGIC)] != SNAPSHOT_MAGIC:
        raise ValueError("not a saboteur snapshot (bad magic)")
    version, ngs, nh = _struct.unpack("<III", data[len(SNAPSHOT_MAGIC):nhead])
    if version != SNAPSHOT_VERSION:
        raise ValueError(f"unsupported saboteur snapshot version {version} (this engine reads "
                         f"version {SNAPSHOT_VERSION}, whose action ids differ)")
    if len(data) != nhead + ngs + 4 * nh:
        raise ValueError("saboteur snapshot length does not match its header")
    if data[nhead:nhead + ngs] != rules.game_string.encode():
        raise ValueError(f"saboteur snapshot is for {data[nhead:nhead + ngs]!r}, "
                         f"not {rules.game_string!r}")
    actions = _struct.unpack(f"<{nh}i", data[nhead + ngs:])
    rules.replay_checked(actions, "saboteur snapshot holds an illegal history")


def _check_gold(SaboteurRules rules) -> None:
    """Gold conservation: the 28 cards against the pile / drawn / held counts."""
    cdef SabState* s = &rules.s
    n = rules.p.n
    everyone = (1 << n) - 1
    pile, drawn, held = [0] * 3, [0] * 3, [[0] * 3 for _ in range(n)]
    for i in range(NGOLD):
        v, loc, seen = s.gval[i], s.gloc[i], s.gseen[i]
        _require(0 <= v < 3,
                 "gold: invalid card value")
        _require(seen & ~everyone == 0,
                 "gold: seen by a player not in the game")
        if loc == LOC_PILE:
            _require(seen == 0,
                     "gold: a card in the pile was seen")
            pile[v] += 1
        elif loc == LOC_DRAWN:
            holder = rules.gold_holder()
            _require(0 <= holder < n and (seen >> holder) & 1
                     and (rules.p.pick or seen == 1 << holder),
                     "gold: a drawn card not seen by its holder")
            drawn[v] += 1
        else:
            _require(0 <= loc < n,
                     "gold: card held by a player not in the game")
            _require((seen >> loc) & 1,
                     "gold: a holder does not know their own card")
            held[loc][v] += 1
    for k in range(3):
        _require([pile[k], drawn[k]] == [s.gold_pool[k], s.gdrawn[k]],
                 f"gold: {k + 1}-nugget pile or drawn count differs from the cards")
        _require(all(held[p][k] == s.gold[p][k] for p in range(n)),
                 f"gold: {k + 1}-nugget holdings differ from the cards")
        _require(pile[k] + drawn[k] + sum(held[p][k] for p in range(n)) == GOLD_COUNT[k],
                 f"gold: {k + 1}-nugget cards not conserved")
    left = sum(drawn)
    if s.phase == PH_GOLD or s.phase == PH_SHARE:
        _require(0 <= s.completer < n and s.cur == (
                     s.gq[s.gqi] if rules.p.pick and s.phase == PH_SHARE else s.completer),
                 "gold: bad player to move")
        _require(all(0 <= s.gq[i] < n and s.role[s.gq[i]] == 0 for i in range(s.gqn)),
                 "gold: a recipient is not a gold-digger")
    if s.phase == PH_GOLD:
        _require(s.gqi == 0 and left < s.gqn,
                 "gold: drawing past the recipients")
    elif s.phase == PH_SHARE:
        _require(left == s.gqn - s.gqi > 0,
                 "gold: drawn cards differ from recipients left")
        _require(sum(1 for k in range(3) if drawn[k]) >= 2,
                 "gold: a decision with only one value left")
    else:
        _require(left == 0,
                 "gold: drawn cards outside a distribution")


def check_invariants(SaboteurRules rules) -> None:
    """Raise ValueError naming the broken conservation law."""
    cdef SabState* s = &rules.s
    cdef SaboteurRules c
    cdef int scratch[MAXFRONT]
    cdef int nf
    n = rules.p.n
    on_board = [0] * NKINDS
    for i in range(s.nocc):
        v = s.cell[s.occ[i]]
        _require(v & CB_OCC and not v & CB_GOAL,
                 "maze: occupied-cell list names an empty cell")
        code = (v >> 8) & 31
        _require(code < NTUN,
                 "maze: occupied-cell list names a non-tunnel card")
        _require(rules.inside(s.occ[i]),
                 "maze: a card lies outside the grid")
        on_board[code] += 1
    _require(s.nocc + 4 == sum(1 for g in range(rules.p.W * rules.p.W) if s.cell[g] & CB_OCC),
             "maze: cards on the grid differ from the occupied-cell list")
    nf = sab_frontier(rules.p, s, scratch)
    _require([s.tun[i] for i in range(s.ntun)] == sorted(s.occ[i] for i in range(s.nocc)),
             "actions: the tunnel list differs from the tunnel cards on the table")
    _require([s.front[i] for i in range(s.nfront)] == [scratch[i] for i in range(nf)],
             "actions: the frontier list differs from the board's frontier")
    _require(s.nfront <= rules.p.F, "actions: the frontier exceeds its bound F")
    _require(set(s.fr[i] for i in range(s.nfr)) <= set(s.front[i] for i in range(s.nfront)),
             "actions: a cell where a card may join is not on the frontier")
    for k in range(NKINDS):
        tools = sum(s.broken[p][k - K_BREAK] for p in range(n)) if K_BREAK <= k < K_REPAIR else 0
        total = (s.deck[k] + sum(s.hand[p][k] + s.disc[p][k] for p in range(n))
                 + s.pub_disc[k] + on_board[k] + tools)
        _require(s.deck[k] >= 0 and all(s.hand[p][k] >= 0 for p in range(n)),
                 f"cards: negative count of {KIND_NAMES[k]}")
        _require(total == rules.p.init_deck[k],
                 f"cards: {KIND_NAMES[k]} not conserved ({total} != {rules.p.init_deck[k]})")
    _require(s.deck_n == sum(s.deck[k] for k in range(NKINDS)),
             "cards: deck size mismatch")
    for p in range(n):
        _require(s.hand_n[p] == sum(s.hand[p][k] for k in range(NKINDS)),
                 f"cards: hand size of p{p} mismatch")
        _require(s.held[p] == sum(1 << k for k in range(NKINDS) if s.hand[p][k]),
                 f"cards: held-kinds mask of p{p} mismatch")
        _require(s.hand_n[p] <= rules.p.hand_size,
                 f"cards: p{p} holds more than a full hand")
        for t in range(3):
            _require(s.broken[p][t] in (0, 1),
                     "tools: more than one broken tool of a kind")
    dealt = [s.role[p] for p in range(n) if s.role[p] >= 0]
    _require(all(r in (0, 1) for r in dealt),
             "roles: invalid role")
    _require(dealt.count(1) + s.role_left[1] == ROLE_SAB[n],
             "roles: saboteur cards not conserved")
    _require(dealt.count(0) + s.role_left[0] == ROLE_DIG[n],
             "roles: digger cards not conserved")
    if s.phase > PH_GOAL and s.phase != PH_OVER:
        _require(sorted(s.goal_id[g] for g in range(3)) == [0, 1, 2],
                 "goals: not one treasure and two stones")
    _require(not s.stale_keys or s.round == 0,
             "keys: a key left stale after the first round")
    _check_gold(rules)
    _require(sum(s.sab_gold[p] for p in range(n)) >= 0,
             "gold: negative saboteur gold")
    listed = {s.occ[i] for i in range(s.nocc)} | {s.goal_cell[g] for g in range(3)}
    listed.add(rules.xy(0, 0))
    _require(all(s.cell[g] == 0 for g in range(MAXCELLS) if g not in listed),
             "maze: a grid cell is set but is not a listed card, goal or the start")
    marked = {s.fr[i] for i in range(s.nfr)}
    _require(all(s.frm[g] == 0 for g in range(MAXCELLS) if g not in marked),
             "maze: a cell has a reach mark but is not in the reach list")
    _require(all(((s.broken_at[t] >> q) & 1) == (s.broken[q][t] != 0)
                 for t in range(3) for q in range(MAXP)),
             "tools: the broken-tool seat masks differ from the broken tools")
    _require(all(s.cons[g] == sab_cons(rules.p, s, g)
                 for g in range(rules.p.W, rules.p.W * (rules.p.W - 1))),
             "maze: a cell's neighbour constraints (cons) differ from its neighbours")
    _require(all(s.cons[g] == 0 for g in range(rules.p.W))
             and all(s.cons[g] == 0 for g in range(rules.p.W * (rules.p.W - 1), MAXCELLS)),
             "maze: a padding cell has neighbour constraints")
    if rules.fit_ok:
        c = rules.clone()
        c.fit_fill()
        _require(rules.fit_n == c.fit_n
                 and [rules.fit_j[i] for i in range(c.fit_n)] == [c.fit_j[i] for i in range(c.fit_n)]
                 and [rules.fit_fs[i] for i in range(c.fit_n)] == [c.fit_fs[i] for i in range(c.fit_n)]
                 and [rules.fit_cnt[e] for e in range(16)] == [c.fit_cnt[e] for e in range(16)]
                 and [rules.fit_kind[k] for k in range(NTUN)] == [c.fit_kind[k] for k in range(NTUN)],
                 "actions: the legal actions' fit cache differs from the maze")
    c = rules.clone()
    c.recompute()
    for g in range(rules.p.W * rules.p.W):
        if (c.s.cell[g] != s.cell[g]) or (c.s.frm[g] != s.frm[g]):
            raise ValueError("maze: incremental reachability differs from a full recompute")
