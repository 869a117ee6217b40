# Gold Thief rendering: action names, information-state and observation
# strings, the player view and the tensors (rendered from the view and the
# player's event list).  Included by src_cy/gold_thief/engine.pyx, whose engine
# methods call these functions.


def _gt_action_to_string(GoldThiefEngine self, int player, int action) -> str:
    """Readable name of `action` (a chance outcome when player == -1)."""
    if player == CHANCE_PLAYER:
        if C_FIRST <= action < C_FIRST + MAXP:
            return f"First player: P{action - C_FIRST}"
        if C_CARD <= action < C_CARD + NT:
            return f"Draw {CARD_NAMES[action - C_CARD]}"
        if C_GOAL <= action < C_GOAL + self.num_goals:
            return f"Goal {self.goal_str(action - C_GOAL)}"
        return f"chance outcome {action}"
    return _action_name(action, self.goal_str)


def _gt_goal_str(GoldThiefEngine self, int g) -> str:
    """Goal card g as printed, e.g. '[4 or 10]' (with '#g' if two cards print alike)."""
    cdef int h
    for h in range(self.num_goals):
        if h != g and self.goal_a[h] == self.goal_a[g] and self.goal_b[h] == self.goal_b[g]:
            return f"[{self.goal_a[g]} or {self.goal_b[g]}]#{g}"
    return f"[{self.goal_a[g]} or {self.goal_b[g]}]"


def _gt_info_string(GoldThiefEngine self, int player) -> str:
    """Everything `player` has observed, in order (perfect recall)."""
    lines = [f"P{player}"]
    for ev in self.visible_events(player):
        lines.append(_gt_event_line(self, ev, player))
    return "\n".join(lines)


def _gt_player_view(GoldThiefEngine self, int player):
    """What `player` knows now, as typed fields (``src_cy.gold_thief.view.GoldThiefView``)."""
    from src_cy.gold_thief.view import GoldThiefView
    events = self.visible_events(player)
    cp = self.current_player()
    ph = self.s.phase
    decider = cp if (ph == PH_PLAY or ph == PH_BIG_FLIP or ph == PH_GIVE
                     or cp == player) and cp >= 0 else -1
    n = self.s.n
    return GoldThiefView(
        player=player,
        num_players=n,
        turn=self.s.turn,
        active=self.s.active,
        phase=_PHASE_NAMES[ph],
        to_move=cp == player,
        decider=decider,
        gold=tuple(self.s.gold[q] for q in range(n)),
        hand_sizes=tuple(self.s.hand_n[q] for q in range(n)),
        face_down_counts=tuple(self.down_count(q) for q in range(n)),
        face_up=tuple(tuple(self.goals_up(q)) for q in range(n)),
        deck_size=self.deck_total(),
        discard=tuple(self.s.disc[t] for t in range(NT)),
        pending=tuple((self.s.stack[i].kind, self.s.stack[i].player,
                       self.s.stack[i].victim, self.s.stack[i].beneficiary,
                       bool(self.s.stack[i].canceled)) for i in range(self.s.sp)),
        hand=tuple(self.holds(player, t) for t in range(NT)),
        goals_down=tuple(self.goals_down(player)),
        goal_numbers=tuple((self.goal_a[g], self.goal_b[g]) for g in range(self.num_goals)),
        known_cards=tuple(tuple(row) for row in _gt_known_counts(self, player, events)),
        winner=self.s.winner,
        events=len(events),
    )


def _gt_obs_string(GoldThiefEngine self, int player) -> str:
    """What `player` sees now (rendered from ``player_view``)."""
    v = self.player_view(player)
    mover = "you" if v.to_move else (f"P{v.decider}" if v.decider >= 0 else "-")
    lines = [f"P{player} | turn {v.turn} | phase {v.phase} | active P{v.active}"
             f" | to move {mover}"]
    for q in range(v.num_players):
        up = " ".join(self.goal_str(g) for g in v.face_up[q])
        lines.append(f"P{q}: gold {v.gold[q]}, cards {v.hand_sizes[q]}, "
                     f"goals down {v.face_down_counts[q]}, up [{up}]")
    lines.append("Hand: " + (", ".join(f"{CARD_NAMES[t]} {c}" for t, c in enumerate(v.hand)
                                       if c) or "-"))
    lines.append("Goals: " + (" ".join(self.goal_str(g) for g in v.goals_down) or "-"))
    for q in range(v.num_players):
        if any(v.known_cards[q]):
            lines.append(f"Known in P{q}'s hand: " + ", ".join(
                f"{CARD_NAMES[t]} {c}" for t, c in enumerate(v.known_cards[q]) if c))
    lines.append(f"Deck {v.deck_size}, discards " +
                 ", ".join(f"{CARD_NAMES[t]} {v.discard[t]}" for t in range(NT)))
    if v.pending:
        lines.append("Pending: " + _gt_stack_str(self, ))
    return "\n".join(lines)


def _gt_render(GoldThiefEngine self) -> str:
    """The whole table, hidden cards included (for people, not players)."""
    lines = [f"Gold Thief, {self.s.n} players | turn {self.s.turn}/{self.max_turns} "
             f"| phase {_PHASE_NAMES[self.s.phase]} | active P{self.s.active}"]
    for q in range(self.s.n):
        hand = ", ".join(CARD_NAMES[t] for t in sorted(self.hand(q))) or "-"
        down = " ".join(self.goal_str(g) for g in self.goals_down(q)) or "-"
        up = " ".join(self.goal_str(g) for g in self.goals_up(q)) or "-"
        lines.append(f"P{q}: gold {self.s.gold[q]:2d} | hand {hand} | down {down} | up {up}")
    lines.append("Deck: " + ", ".join(f"{CARD_NAMES[t]} {self.s.deck[t]}" for t in range(NT)))
    lines.append("Discard: " + ", ".join(f"{CARD_NAMES[t]} {self.s.disc[t]}" for t in range(NT)))
    lines.append(f"Goal pile: {self.pile_random()} + {self.s.bottom_n} at the bottom")
    if self.s.sp > 0:
        lines.append("Pending: " + _gt_stack_str(self, ))
    if self.s.phase == PH_OVER:
        lines.append("Winner: " + (f"P{self.s.winner}" if self.s.winner >= 0 else "none (draw)"))
    return "\n".join(lines)


# The information-state tensor's event slots: four floats per event.
EVENT_FLOATS = 4
NUM_EVENT_KINDS = 14      # EV_FIRST .. EV_SCORE
EVENT_PUBLIC_MAX = 127    # the public detail is in [-1, 126]


def _gt_obs_tensor_size(GoldThiefEngine self) -> int:
    n = self.num_players
    return 12 + n + 5 * n + NT + 2 * MAX_GOALS + NT + 1 + 7 + 2 * n + n * NT


def _gt_event_slots(GoldThiefEngine self) -> int:
    """Length of the event sequence in the information-state tensor: a
    bound on the events one player can observe (see the rules doc)."""
    return 2 * (self.pub_cap + PUB_EVENTS_SLACK) + 2 * self.max_turns


def _gt_info_tensor_size(GoldThiefEngine self) -> int:
    return self.obs_tensor_size() + EVENT_FLOATS * self.event_slots()


def _gt_card_total(GoldThiefEngine self) -> int:
    """Action cards in the game: the scale of every card count in the tensors."""
    cdef int t, c = 0
    for t in range(NT):
        c += self.counts[t]
    return max(c, 1)


def _gt_fill_obs_tensor(GoldThiefEngine self, int player, float[:] out) -> None:
    """Current view of `player`, rendered from ``player_view``."""
    _gt_fill_obs(self, self.player_view(player), out)


def _gt_fill_info_tensor(GoldThiefEngine self, int player, float[:] out) -> None:
    """The observation tensor, then per event `player` observed its four
    fields, each an exact integer scaled into (0, 1] or [0, 1]: (kind + 1) / 14,
    (actor + 1) / 5, (seen detail + 1) / 24, (public detail + 1) / 127."""
    cdef int i, base
    self.fill_obs_tensor(player, out)
    base = self.obs_tensor_size()
    events = self.visible_events(player)
    if len(events) > self.event_slots():
        raise ValueError(f"P{player} observed {len(events)} events, more than the "
                         f"{self.event_slots()} slots of the information-state tensor")
    out[base:] = 0.0
    for i, (k, actor, secret, b) in enumerate(events):
        out[base + EVENT_FLOATS * i] = (k + 1) / <float>NUM_EVENT_KINDS
        out[base + EVENT_FLOATS * i + 1] = (actor + 1) / <float>MAXP
        out[base + EVENT_FLOATS * i + 2] = (secret + 1) / <float>MAX_GOALS
        out[base + EVENT_FLOATS * i + 3] = (b + 1) / <float>EVENT_PUBLIC_MAX


def _gt_event_line(GoldThiefEngine self, ev: tuple, int viewer) -> str:
    k, actor, secret, b = ev
    who = "You" if actor == viewer else f"P{actor}"
    if k == EV_FIRST:
        return f"P{actor} plays first"
    if k == EV_DEAL_GOAL:
        return f"{who} receive goal {self.goal_str(secret)}" if secret >= 0 \
            else f"{who} receive a goal"
    if k == EV_FAERIE_GOAL:
        return f"{who} draw new goal {self.goal_str(secret)}" if secret >= 0 \
            else f"{who} draw a new goal"
    if k == EV_DRAW:
        return f"{who} draw {CARD_NAMES[secret]}" if secret >= 0 else f"{who} draw a card"
    if k == EV_RESHUFFLE:
        return "Discards reshuffled into the deck"
    if k == EV_PLAY:
        if b == A_FAERIE:
            return (f"{who} play Faerie: goal {self.goal_str(secret)} to the bottom"
                    if secret >= 0 else f"{who} play Faerie: a goal to the bottom")
        return f"{who}: {_action_name(b, self.goal_str)}"
    if k == EV_PASS:
        return f"{who} pass"
    if k == EV_ASKED:
        if b == 7:
            return f"{who} may score with a Ninja"
        return f"{who} may answer the {EFFECT_NAMES[b]}"
    if k == EV_RESOLVE:
        outcome = ("resolves", "waits for the theft it follows", "is cancelled")[b // 8]
        return f"{EFFECT_NAMES[b % 8]} by {who} {outcome}"
    if k == EV_SCORE:
        return f"{who} start the turn with {b} gold"
    if k == EV_FLIP:
        return f"{who} flip goal {self.goal_str(b)}"
    if k == EV_GIVE:
        card = CARD_NAMES[secret] if secret >= 0 else "a card"
        return f"{who} give {card} to P{b}"
    if k == EV_END_TURN:
        return f"{who} end the turn"
    if k == EV_GAME_END:
        return "Game over: draw" if actor < 0 else f"Game over: P{actor} wins"
    return f"event {k}"


def _gt_known_counts(GoldThiefEngine self, int player, list events) -> list:
    """Per seat and card type, how many such cards `player` knows are in
    that hand: cards `player` gave them with a Witch, less every card of
    that type they played or gave away since (unknown gives lower each)."""
    known = [[0] * NT for _ in range(self.s.n)]
    for k, actor, secret, b in events:
        if k == EV_PLAY and actor != player:
            t = _card_of_action(b)
            known[actor][t] = max(0, known[actor][t] - 1)
        elif k == EV_GIVE:
            if secret >= 0 and actor == player:
                known[b][secret] += 1
            elif secret >= 0 and b == player:
                known[actor][secret] = max(0, known[actor][secret] - 1)
            elif secret < 0:
                known[actor] = [max(0, c - 1) for c in known[actor]]
    known[player] = [0] * NT
    return known


def _gt_stack_str(GoldThiefEngine self) -> str:
    parts = []
    for i in range(self.s.sp):
        e = self.s.stack[i]
        parts.append(f"{EFFECT_NAMES[e.kind]} by P{e.player}" +
                     (" (cancelled)" if e.canceled else ""))
    return " <- ".join(parts)


def _gt_fill_obs(GoldThiefEngine self, v, float[:] out) -> None:
    cdef int n = v.num_players, k = 0, q, t, g
    # Counts are scaled by their documented maximum (rules doc, "Tensors"):
    # gold by all the gold in play, cards by the action cards in the game,
    # goals by the goal cards.
    cdef float gold_max = max(n * self.start_gold, 1)
    cdef float cards = _gt_card_total(self), goals = max(self.num_goals, 1)
    out[k + _PHASE_NAMES.index(v.phase)] = 1.0
    k += 12
    if v.decider >= 0:
        out[k + v.decider] = 1.0
    k += n
    for q in range(n):
        out[k + q] = v.gold[q] / gold_max
        out[k + n + q] = v.hand_sizes[q] / cards
        out[k + 2 * n + q] = v.face_down_counts[q] / goals
        out[k + 3 * n + q] = len(v.face_up[q]) / goals
        out[k + 4 * n + q] = 1.0 if q == v.active else 0.0
    k += 5 * n
    for t in range(NT):
        out[k + t] = v.hand[t] / cards
    k += NT
    for g in v.goals_down:
        out[k + g] = 1.0
    for q in range(n):
        for g in v.face_up[q]:
            out[k + MAX_GOALS + g] = 1.0
    k += 2 * MAX_GOALS
    for t in range(NT):
        out[k + t] = v.discard[t] / cards
    k += NT
    out[k] = v.deck_size / cards
    k += 1
    top = v.pending[len(v.pending) - 1] if v.pending else None
    if top is not None:
        out[k + top[0]] = 1.0
    k += 7
    if top is not None:
        out[k + top[1]] = 1.0
        if top[2] >= 0:
            out[k + n + top[2]] = 1.0
    k += 2 * n
    for q in range(n):
        for t in range(NT):
            out[k + q * NT + t] = v.known_cards[q][t] / cards
    k += n * NT


def _action_name(int action, goal_str) -> str:
    """Name of a player action (see the table in games/gold_thief/__init__.py)."""
    if action == A_END_TURN:
        return "End turn"
    if action == A_PASS:
        return "Pass"
    if A_THIEF <= action < A_THIEF + MAXP:
        return f"Thief on P{action - A_THIEF}"
    if A_GUARD <= action < A_GUARD + MAXP:
        return f"Guard: give 1 gold to P{action - A_GUARD}"
    if A_WITCH <= action < A_WITCH + MAXP:
        return f"Witch on P{action - A_WITCH}"
    if A_FAERIE <= action < A_FAERIE + MAX_GOALS:
        return f"Faerie: swap goal {goal_str(action - A_FAERIE)}"
    if action == A_NINJA:
        return "Ninja: draw 3"
    if action == A_GUARD_CANCEL:
        return "Guard: cancel"
    if action == A_THIEF_RAID:
        return "Thief: raid"
    if action == A_WITCH_EXTRA:
        return "Witch: extra Thief"
    if action == A_FAERIE_CANCEL:
        return "Faerie: cancel"
    if A_NINJA_SCORE <= action < A_NINJA_SCORE + MAX_GOALS:
        return f"Ninja: score goal {goal_str(action - A_NINJA_SCORE)}"
    if A_BIG_FLIP <= action < A_BIG_FLIP + MAX_GOALS:
        return f"Flip goal {goal_str(action - A_BIG_FLIP)}"
    if A_GIVE <= action < A_GIVE + NT:
        return f"Give {CARD_NAMES[action - A_GIVE]}"
    return f"action {action}"
