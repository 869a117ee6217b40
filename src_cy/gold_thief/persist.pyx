# cython: language_level=3
"""Gold Thief persistence over a ``GoldThiefRules`` state: the versioned
snapshot (``dump``/``load``, every check a ValueError naming what is wrong)
and the invariant check.  The engine's Python methods
(``src_cy.gold_thief.engine``) call these functions; they take a bare rules
state as well.
"""
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, NT, MAX_HAND, MAX_STACK, PH_OVER, G_PILE, G_DOWN, G_UP, G_BOTTOM,
    E_FAERIE_CANCEL, NUM_EV, holds)

from src_cy.gold_thief.rules import CARD_NAMES


cpdef bytes dump(GoldThiefRules r):
    """Snapshot: format tag, game string, player count and the history."""
    gs = str(r.game_string or "").encode()
    hist = [a for a in r.hist]
    return (b"GT2" + len(gs).to_bytes(2, "little") + gs + bytes([r.num_players])
            + len(hist).to_bytes(4, "little") + bytes(hist))


cpdef load(GoldThiefRules r, data):
    """Restore a ``dump()`` by replaying its history (each action checked);
    anything malformed raises ValueError and leaves the engine as it was."""
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"Gold Thief snapshot must be bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < 5 or data[:3] != b"GT2":
        raise ValueError("not a Gold Thief snapshot (bad magic)")
    glen = int.from_bytes(data[3:5], "little")
    if len(data) < 5 + glen + 5:
        raise ValueError("Gold Thief snapshot is truncated (bytes missing)")
    gs = data[5:5 + glen].decode(errors="replace")
    if gs and r.game_string and gs != str(r.game_string):
        raise ValueError(f"Gold Thief snapshot is for {gs!r}, not {r.game_string!r}")
    players = data[5 + glen]
    if players != r.num_players:
        raise ValueError(f"invalid Gold Thief snapshot: {players} players, "
                         f"the engine has {r.num_players}")
    hlen = int.from_bytes(data[6 + glen:10 + glen], "little")
    hist = list(data[10 + glen:])
    if len(hist) != hlen:
        raise ValueError(f"Gold Thief snapshot has {len(hist)} history bytes, expected {hlen}")
    r.replay_checked(hist, "invalid Gold Thief snapshot")


cpdef check_invariants(GoldThiefRules r):
    """Ranges, and conservation of cards, goals and gold; ValueError names
    the broken invariant."""
    cdef int n = r.num_players, q, t, g, i
    _require(r.s.n == n, f"player count {r.s.n} != {n}")
    _require(0 <= r.s.phase <= PH_OVER, f"phase {r.s.phase} out of range")
    _require(0 <= r.s.sp <= MAX_STACK, f"stack depth {r.s.sp} out of range")
    _require(0 <= r.s.ndfr <= MAX_STACK, f"waiting add-ons {r.s.ndfr} out of range")
    _require(0 <= r.s.bottom_n <= r.num_goals, "goal-bottom size out of range")
    _require(0 <= r.s.active < n and 0 <= r.s.first < n, "active/first seat out of range")
    for q in range(n):
        _require(0 <= r.s.hand_n[q] <= MAX_HAND, f"P{q} hand size out of range")
        for i in range(r.s.hand_n[q]):
            _require(0 <= r.s.hand_type[q][i] < NT, f"P{q} holds an unknown card type")
            _require(0 <= r.s.hand_gen[q][i] <= r.s.gen,
                     f"P{q} card generation out of range")
        for t in range(NT):
            _require(r.s.hcnt[q][t] == sum([1 for i in range(r.s.hand_n[q])
                                               if r.s.hand_type[q][i] == t]),
                     f"P{q}'s count of {CARD_NAMES[t]} cards differs from the hand")
        _require(r.s.gold[q] >= 0, f"P{q} has negative gold")
    total = sum([r.s.gold[q] for q in range(n)])
    _require(total == r.start_gold * n,
             f"gold not conserved: {total} != {r.start_gold * n}")
    for t in range(NT):
        held = sum([holds(r, q, t) for q in range(n)])
        _require(r.s.deck[t] >= 0 and r.s.disc[t] >= 0,
                 f"negative {CARD_NAMES[t]} pile count")
        _require(held + r.s.deck[t] + r.s.disc[t] == r.counts[t],
                 f"{CARD_NAMES[t]} cards not conserved")
    for g in range(r.num_goals):
        _require(0 <= r.s.goal_loc[g] <= G_UP, f"goal {g} location out of range")
        if r.s.goal_loc[g] >= G_DOWN:
            _require(0 <= r.s.goal_owner[g] < n, f"goal {g} owner out of range")
    _require(r.s.pile_m == sum([1 << g for g in range(r.num_goals)
                                if r.s.goal_loc[g] == G_PILE]),
             "goal pile bit set differs from the goal locations")
    for q in range(n):
        _require(r.s.down_m[q] == sum([1 << g for g in range(r.num_goals)
                                       if r.s.goal_loc[g] == G_DOWN
                                       and r.s.goal_owner[g] == q]),
                 f"P{q}'s face-down goal bit set differs from the goal locations")
    bottoms = [r.s.bottom[i] for i in range(r.s.bottom_n)]
    _require(all([0 <= g < r.num_goals for g in bottoms]), "goal-bottom id out of range")
    _require(sorted(bottoms) == sorted([g for g in range(r.num_goals)
                                       if r.s.goal_loc[g] == G_BOTTOM]),
             "goal pile corrupted")
    for i in range(r.s.sp):
        e = r.s.stack[i]
        _require(0 <= e.kind <= E_FAERIE_CANCEL and 0 <= e.player < n, "stack entry corrupted")
        _require(-1 <= e.victim < n and -1 <= e.beneficiary < n and -1 <= e.target < i,
                 "stack entry corrupted")
    for i in range(r.log.size()):
        _require(0 <= r.log[i].kind < NUM_EV, "event log corrupted")
    _require(<int>r.hist.size() == r.s.moves, "history length != moves applied")


cdef _require(bint ok, str what):
    if not ok:
        raise ValueError(f"Gold Thief invariant broken: {what}")
