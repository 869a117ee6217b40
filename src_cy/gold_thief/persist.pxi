# Gold Thief persistence: the versioned snapshot (dump/load, every check a
# ValueError naming what is wrong) and the invariant check.  Included by
# src_cy/gold_thief/engine.pyx, whose engine methods call these functions.


def _gt_dump(GoldThiefEngine self) -> bytes:
    """Snapshot: format tag, game string, player count and the history."""
    gs = str(self.game_string or "").encode()
    hist = [a for a in self.hist]
    return (b"GT2" + len(gs).to_bytes(2, "little") + gs + bytes([self.num_players])
            + len(hist).to_bytes(4, "little") + bytes(hist))


def _gt_load(GoldThiefEngine self, data) -> None:
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
    if gs and self.game_string and gs != str(self.game_string):
        raise ValueError(f"Gold Thief snapshot is for {gs!r}, not {self.game_string!r}")
    players = data[5 + glen]
    if players != self.num_players:
        raise ValueError(f"invalid Gold Thief snapshot: {players} players, "
                         f"the engine has {self.num_players}")
    hlen = int.from_bytes(data[6 + glen:10 + glen], "little")
    hist = list(data[10 + glen:])
    if len(hist) != hlen:
        raise ValueError(f"Gold Thief snapshot has {len(hist)} history bytes, expected {hlen}")
    old = [a for a in self.hist]
    self.to_initial()
    try:
        for a in hist:
            self.py_apply(a)
    except ValueError as exc:
        self.to_initial()
        for a in old:
            self.apply(a)
        raise ValueError(f"invalid Gold Thief snapshot: {exc}") from None


def _gt_check_invariants(GoldThiefEngine self) -> None:
    """Ranges, and conservation of cards, goals and gold; ValueError names
    the broken invariant."""
    cdef int n = self.num_players, q, t, g, i
    _require(self.s.n == n, f"player count {self.s.n} != {n}")
    _require(0 <= self.s.phase <= PH_OVER, f"phase {self.s.phase} out of range")
    _require(0 <= self.s.sp <= MAX_STACK, f"stack depth {self.s.sp} out of range")
    _require(0 <= self.s.ndfr <= MAX_STACK, f"waiting add-ons {self.s.ndfr} out of range")
    _require(0 <= self.s.bottom_n <= self.num_goals, "goal-bottom size out of range")
    _require(0 <= self.s.active < n and 0 <= self.s.first < n, "active/first seat out of range")
    for q in range(n):
        _require(0 <= self.s.hand_n[q] <= MAX_HAND, f"P{q} hand size out of range")
        for i in range(self.s.hand_n[q]):
            _require(0 <= self.s.hand_type[q][i] < NT, f"P{q} holds an unknown card type")
            _require(0 <= self.s.hand_gen[q][i] <= self.s.gen,
                     f"P{q} card generation out of range")
        for t in range(NT):
            _require(self.s.hcnt[q][t] == sum(1 for i in range(self.s.hand_n[q])
                                               if self.s.hand_type[q][i] == t),
                     f"P{q}'s count of {CARD_NAMES[t]} cards differs from the hand")
        _require(self.s.gold[q] >= 0, f"P{q} has negative gold")
    total = sum(self.s.gold[q] for q in range(n))
    _require(total == self.start_gold * n,
             f"gold not conserved: {total} != {self.start_gold * n}")
    for t in range(NT):
        held = sum(self.holds(q, t) for q in range(n))
        _require(self.s.deck[t] >= 0 and self.s.disc[t] >= 0,
                 f"negative {CARD_NAMES[t]} pile count")
        _require(held + self.s.deck[t] + self.s.disc[t] == self.counts[t],
                 f"{CARD_NAMES[t]} cards not conserved")
    for g in range(self.num_goals):
        _require(0 <= self.s.goal_loc[g] <= G_UP, f"goal {g} location out of range")
        if self.s.goal_loc[g] >= G_DOWN:
            _require(0 <= self.s.goal_owner[g] < n, f"goal {g} owner out of range")
    bottoms = [self.s.bottom[i] for i in range(self.s.bottom_n)]
    _require(all(0 <= g < self.num_goals for g in bottoms), "goal-bottom id out of range")
    _require(sorted(bottoms) == sorted(g for g in range(self.num_goals)
                                       if self.s.goal_loc[g] == G_BOTTOM),
             "goal pile corrupted")
    for i in range(self.s.sp):
        e = self.s.stack[i]
        _require(0 <= e.kind <= E_FAERIE_CANCEL and 0 <= e.player < n, "stack entry corrupted")
        _require(-1 <= e.victim < n and -1 <= e.beneficiary < n and -1 <= e.target < i,
                 "stack entry corrupted")
    for i in range(self.log.size()):
        _require(0 <= self.log[i].kind < NUM_EV, "event log corrupted")
    _require(<int>self.hist.size() == self.s.moves, "history length != moves applied")


def _require(bint ok, str what) -> None:
    if not ok:
        raise ValueError(f"Gold Thief invariant broken: {what}")
