# cython: language_level=3
"""Gold Thief rendering over a ``GoldThiefRules`` state: action names,
information-state and observation strings, the typed player view
(``src_cy.gold_thief.view.GoldThiefView``), the table for people and the
tensors (rendered from the view and the player's event list).  The engine's
Python methods (``src_cy.gold_thief.engine``) call these functions; they
take a bare rules state as well.
"""
from libc.string cimport memset

from src_cy.events cimport Event
from src_cy.gold_thief.rules cimport (
    GoldThiefRules, MAXP, NT, MAX_GOALS, CHANCE_PLAYER, PUB_EVENTS_SLACK,
    A_END_TURN, A_PASS, A_THIEF, A_GUARD, A_WITCH, A_FAERIE, A_NINJA, A_GUARD_CANCEL,
    A_THIEF_RAID, A_WITCH_EXTRA, A_FAERIE_CANCEL, A_NINJA_SCORE, A_BIG_FLIP, A_GIVE,
    C_CARD, C_GOAL, C_FIRST, PH_PLAY, PH_BIG_FLIP, PH_GIVE, PH_OVER, G_DOWN, G_UP,
    EV_FIRST, EV_DEAL_GOAL, EV_DRAW, EV_RESHUFFLE, EV_PLAY, EV_PASS, EV_FLIP, EV_GIVE,
    EV_END_TURN, EV_FAERIE_GOAL, EV_GAME_END, EV_ASKED, EV_RESOLVE, EV_SCORE,
    holds, pile_random, deck_total, card_of_action, sees_secret, observed)

from src_cy.gold_thief.rules import CARD_NAMES, EFFECT_NAMES, PHASE_NAMES


cpdef check_player(GoldThiefRules r, int player):
    """ValueError unless `player` is a seat of this game."""
    if not 0 <= player < r.s.n:
        raise ValueError(f"player must be in [0, {r.s.n - 1}], got {player}")


cpdef str action_to_string(GoldThiefRules r, int player, int action):
    """Readable name of `action` (a chance outcome when player == -1)."""
    if player == CHANCE_PLAYER:
        if C_FIRST <= action < C_FIRST + MAXP:
            return f"First player: P{action - C_FIRST}"
        if C_CARD <= action < C_CARD + NT:
            return f"Draw {CARD_NAMES[action - C_CARD]}"
        if C_GOAL <= action < C_GOAL + r.num_goals:
            return f"Goal {goal_str(r, action - C_GOAL)}"
        return f"chance outcome {action}"
    return _action_name(action, r)


cpdef str goal_str(GoldThiefRules r, int g):
    """Goal card g as printed, e.g. '[4 or 10]' (with '#g' if two cards print alike)."""
    cdef int h
    for h in range(r.num_goals):
        if h != g and r.goal_a[h] == r.goal_a[g] and r.goal_b[h] == r.goal_b[g]:
            return f"[{r.goal_a[g]} or {r.goal_b[g]}]#{g}"
    return f"[{r.goal_a[g]} or {r.goal_b[g]}]"


cpdef list visible_events(GoldThiefRules r, int player):
    """The events `player` observed, in order, as (kind, actor, detail, public
    detail) with detail -1 where `player` did not see it.  Strings, tensors
    and the player view are rendered from this list (and keys hash it)."""
    cdef size_t i
    cdef const Event* ev
    check_player(r, player)
    out = []
    for i in range(r.log.size()):
        ev = &r.log[i]
        if not observed(ev, player):
            continue
        out.append((ev.kind, ev.actor, ev.secret if sees_secret(ev, player) else -1, ev.a))
    return out


cpdef list hand(GoldThiefRules r, int player):
    """Card types in `player`'s hand (order not meaningful)."""
    check_player(r, player)
    return [r.s.hand_type[player][i] for i in range(r.s.hand_n[player])]


cpdef list goals_down(GoldThiefRules r, int player):
    """`player`'s face-down goals, by id."""
    check_player(r, player)
    return [g for g in range(r.num_goals)
            if r.s.goal_loc[g] == G_DOWN and r.s.goal_owner[g] == player]


cpdef list goals_up(GoldThiefRules r, int player):
    """`player`'s face-up (scored) goals, by id."""
    check_player(r, player)
    return [g for g in range(r.num_goals)
            if r.s.goal_loc[g] == G_UP and r.s.goal_owner[g] == player]


cpdef dict public_view(GoldThiefRules r):
    """Everything public: gold, counts, face-up goals, discards, deck size."""
    return {
        "gold": [r.s.gold[q] for q in range(r.s.n)],
        "hand_sizes": [r.s.hand_n[q] for q in range(r.s.n)],
        "face_down_counts": [r.down_count(q) for q in range(r.s.n)],
        "face_up": [goals_up(r, q) for q in range(r.s.n)],
        "deck": [r.s.deck[t] for t in range(NT)],
        "discard": [r.s.disc[t] for t in range(NT)],
        "turn": r.s.turn,
        "active": r.s.active,
        "phase": PHASE_NAMES[r.s.phase],
        "winner": r.s.winner,
        "pending": [(r.s.stack[i].kind, r.s.stack[i].player,
                     r.s.stack[i].victim, r.s.stack[i].beneficiary,
                     bool(r.s.stack[i].canceled)) for i in range(r.s.sp)],
    }


cpdef str info_string(GoldThiefRules r, int player):
    """Everything `player` has observed, in order (perfect recall)."""
    lines = [f"P{player}"]
    for ev in visible_events(r, player):
        lines.append(_event_line(r, ev, player))
    return "\n".join(lines)


cpdef object player_view(GoldThiefRules r, int player):
    """What `player` knows now, as typed fields (``src_cy.gold_thief.view.GoldThiefView``)."""
    from src_cy.gold_thief.view import GoldThiefView
    cdef int known[MAXP][NT]
    cdef int events = _known_counts(r, player, known)
    cp = r.current_player()
    ph = r.s.phase
    decider = cp if (ph == PH_PLAY or ph == PH_BIG_FLIP or ph == PH_GIVE
                     or cp == player) and cp >= 0 else -1
    n = r.s.n
    return GoldThiefView(
        player=player,
        num_players=n,
        turn=r.s.turn,
        active=r.s.active,
        phase=PHASE_NAMES[ph],
        to_move=cp == player,
        decider=decider,
        gold=tuple([r.s.gold[q] for q in range(n)]),
        hand_sizes=tuple([r.s.hand_n[q] for q in range(n)]),
        face_down_counts=tuple([r.down_count(q) for q in range(n)]),
        face_up=tuple([tuple(goals_up(r, q)) for q in range(n)]),
        deck_size=deck_total(r),
        discard=tuple([r.s.disc[t] for t in range(NT)]),
        pending=tuple([(r.s.stack[i].kind, r.s.stack[i].player,
                       r.s.stack[i].victim, r.s.stack[i].beneficiary,
                       bool(r.s.stack[i].canceled)) for i in range(r.s.sp)]),
        hand=tuple([holds(r, player, t) for t in range(NT)]),
        goals_down=tuple(goals_down(r, player)),
        goal_numbers=tuple([(r.goal_a[g], r.goal_b[g]) for g in range(r.num_goals)]),
        known_cards=tuple([tuple([known[q][t] for t in range(NT)]) for q in range(n)]),
        winner=r.s.winner,
        events=events,
    )


cpdef str obs_string(GoldThiefRules r, int player):
    """What `player` sees now (rendered from ``player_view``)."""
    v = player_view(r, player)
    mover = "you" if v.to_move else (f"P{v.decider}" if v.decider >= 0 else "-")
    lines = [f"P{player} | turn {v.turn} | phase {v.phase} | active P{v.active}"
             f" | to move {mover}"]
    for q in range(v.num_players):
        up = " ".join([goal_str(r, g) for g in v.face_up[q]])
        lines.append(f"P{q}: gold {v.gold[q]}, cards {v.hand_sizes[q]}, "
                     f"goals down {v.face_down_counts[q]}, up [{up}]")
    lines.append("Hand: " + (", ".join([f"{CARD_NAMES[t]} {c}" for t, c in enumerate(v.hand)
                                        if c]) or "-"))
    lines.append("Goals: " + (" ".join([goal_str(r, g) for g in v.goals_down]) or "-"))
    for q in range(v.num_players):
        if any(v.known_cards[q]):
            lines.append(f"Known in P{q}'s hand: " + ", ".join(
                [f"{CARD_NAMES[t]} {c}" for t, c in enumerate(v.known_cards[q]) if c]))
    lines.append(f"Deck {v.deck_size}, discards " +
                 ", ".join([f"{CARD_NAMES[t]} {v.discard[t]}" for t in range(NT)]))
    if v.pending:
        lines.append("Pending: " + _stack_str(r))
    return "\n".join(lines)


cpdef str render_table(GoldThiefRules r):
    """The whole table, hidden cards included (for people, not players)."""
    lines = [f"Gold Thief, {r.s.n} players | turn {r.s.turn}/{r.max_turns} "
             f"| phase {PHASE_NAMES[r.s.phase]} | active P{r.s.active}"]
    for q in range(r.s.n):
        cards = ", ".join([CARD_NAMES[t] for t in sorted(hand(r, q))]) or "-"
        down = " ".join([goal_str(r, g) for g in goals_down(r, q)]) or "-"
        up = " ".join([goal_str(r, g) for g in goals_up(r, q)]) or "-"
        lines.append(f"P{q}: gold {r.s.gold[q]:2d} | hand {cards} | down {down} | up {up}")
    lines.append("Deck: " + ", ".join([f"{CARD_NAMES[t]} {r.s.deck[t]}" for t in range(NT)]))
    lines.append("Discard: " + ", ".join([f"{CARD_NAMES[t]} {r.s.disc[t]}" for t in range(NT)]))
    lines.append(f"Goal pile: {pile_random(r)} + {r.s.bottom_n} at the bottom")
    if r.s.sp > 0:
        lines.append("Pending: " + _stack_str(r))
    if r.s.phase == PH_OVER:
        lines.append("Winner: " + (f"P{r.s.winner}" if r.s.winner >= 0 else "none (draw)"))
    return "\n".join(lines)


# The information-state tensor's event slots: four floats per event.
EVENT_FLOATS = 4
NUM_EVENT_KINDS = 14      # EV_FIRST .. EV_SCORE
EVENT_PUBLIC_MAX = 127    # the public detail is in [-1, 126]


cpdef int obs_tensor_size(GoldThiefRules r):
    n = r.num_players
    return 12 + n + 5 * n + NT + 2 * MAX_GOALS + NT + 1 + 7 + 2 * n + n * NT


cpdef int event_slots(GoldThiefRules r):
    """Length of the event sequence in the information-state tensor: a
    bound on the events one player can observe (see the rules doc)."""
    return 2 * (r.pub_cap + PUB_EVENTS_SLACK) + 2 * r.max_turns


cpdef int info_tensor_size(GoldThiefRules r):
    return obs_tensor_size(r) + EVENT_FLOATS * event_slots(r)


cdef int _card_total(GoldThiefRules r):
    """Action cards in the game: the scale of every card count in the tensors."""
    cdef int t, c = 0
    for t in range(NT):
        c += r.counts[t]
    return max(c, 1)


cpdef fill_obs_tensor(GoldThiefRules r, int player, float[:] out):
    """Current view of `player`, rendered from ``player_view``."""
    _fill_obs(r, player_view(r, player), out)


cpdef fill_info_tensor(GoldThiefRules r, int player, float[:] out):
    """The observation tensor, then per event `player` observed its four
    fields, each an exact integer scaled into (0, 1] or [0, 1]: (kind + 1) / 14,
    (actor + 1) / 5, (seen detail + 1) / 24, (public detail + 1) / 127."""
    cdef int i, base
    fill_obs_tensor(r, player, out)
    base = obs_tensor_size(r)
    events = visible_events(r, player)
    if len(events) > event_slots(r):
        raise ValueError(f"P{player} observed {len(events)} events, more than the "
                         f"{event_slots(r)} slots of the information-state tensor")
    out[base:] = 0.0
    for i, (k, actor, secret, b) in enumerate(events):
        out[base + EVENT_FLOATS * i] = (k + 1) / <float>NUM_EVENT_KINDS
        out[base + EVENT_FLOATS * i + 1] = (actor + 1) / <float>MAXP
        out[base + EVENT_FLOATS * i + 2] = (secret + 1) / <float>MAX_GOALS
        out[base + EVENT_FLOATS * i + 3] = (b + 1) / <float>EVENT_PUBLIC_MAX


cdef str _event_line(GoldThiefRules r, tuple ev, int viewer):
    k, actor, secret, b = ev
    who = "You" if actor == viewer else f"P{actor}"
    if k == EV_FIRST:
        return f"P{actor} plays first"
    if k == EV_DEAL_GOAL:
        return f"{who} receive goal {goal_str(r, secret)}" if secret >= 0 \
            else f"{who} receive a goal"
    if k == EV_FAERIE_GOAL:
        return f"{who} draw new goal {goal_str(r, secret)}" if secret >= 0 \
            else f"{who} draw a new goal"
    if k == EV_DRAW:
        return f"{who} draw {CARD_NAMES[secret]}" if secret >= 0 else f"{who} draw a card"
    if k == EV_RESHUFFLE:
        return "Discards reshuffled into the deck"
    if k == EV_PLAY:
        if b == A_FAERIE:
            return (f"{who} play Faerie: goal {goal_str(r, secret)} to the bottom"
                    if secret >= 0 else f"{who} play Faerie: a goal to the bottom")
        return f"{who}: {_action_name(b, r)}"
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
        return f"{who} flip goal {goal_str(r, b)}"
    if k == EV_GIVE:
        card = CARD_NAMES[secret] if secret >= 0 else "a card"
        return f"{who} give {card} to P{b}"
    if k == EV_END_TURN:
        return f"{who} end the turn"
    if k == EV_GAME_END:
        return "Game over: draw" if actor < 0 else f"Game over: P{actor} wins"
    return f"event {k}"


cdef int _known_counts(GoldThiefRules r, int player, int known[MAXP][NT]) noexcept:
    """Fill `known`: per seat and card type, how many such cards `player`
    knows are in that hand: cards `player` gave them with a Witch, less every
    card of that type they played or gave away since (unknown gives lower
    each).  Returns how many events `player` observed (``visible_events``)."""
    cdef size_t i
    cdef int q, t, secret, seen = 0
    cdef const Event* ev
    memset(known, 0, sizeof(int) * MAXP * NT)
    for i in range(r.log.size()):
        ev = &r.log[i]
        if not observed(ev, player):
            continue
        seen += 1
        secret = ev.secret if sees_secret(ev, player) else -1
        if ev.kind == EV_PLAY and ev.actor != player:
            t = card_of_action(ev.a)
            if known[ev.actor][t] > 0:
                known[ev.actor][t] -= 1
        elif ev.kind == EV_GIVE:
            if secret >= 0 and ev.actor == player:
                known[ev.a][secret] += 1
            elif secret >= 0 and ev.a == player:
                if known[ev.actor][secret] > 0:
                    known[ev.actor][secret] -= 1
            elif secret < 0:
                for t in range(NT):
                    if known[ev.actor][t] > 0:
                        known[ev.actor][t] -= 1
    for t in range(NT):
        known[player][t] = 0
    return seen


cdef str _stack_str(GoldThiefRules r):
    parts = []
    for i in range(r.s.sp):
        e = r.s.stack[i]
        parts.append(f"{EFFECT_NAMES[e.kind]} by P{e.player}" +
                     (" (cancelled)" if e.canceled else ""))
    return " <- ".join(parts)


cdef _fill_obs(GoldThiefRules r, v, float[:] out):
    cdef int n = v.num_players, k = 0, q, t, g
    # Counts are scaled by their documented maximum (rules doc, "Tensors"):
    # gold by all the gold in play, cards by the action cards in the game,
    # goals by the goal cards.
    cdef float gold_max = max(n * r.start_gold, 1)
    cdef float cards = _card_total(r), goals = max(r.num_goals, 1)
    out[k + PHASE_NAMES.index(v.phase)] = 1.0
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


cdef str _action_name(int action, GoldThiefRules r):
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
        return f"Faerie: swap goal {goal_str(r, action - A_FAERIE)}"
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
        return f"Ninja: score goal {goal_str(r, action - A_NINJA_SCORE)}"
    if A_BIG_FLIP <= action < A_BIG_FLIP + MAX_GOALS:
        return f"Flip goal {goal_str(r, action - A_BIG_FLIP)}"
    if A_GIVE <= action < A_GIVE + NT:
        return f"Give {CARD_NAMES[action - A_GIVE]}"
    return f"action {action}"
