# cython: language_level=3
"""Gold Nugget rendering: action, card and event names, the player view
(``src_cy.gold_nugget.view.GoldNuggetView``), the information-state and
observation strings and tensors, each a function of a ``GoldNuggetRules``
state (``rules.pyx``); ``GoldNuggetEngine``'s methods call them.
"""
from libc.stdint cimport uint32_t
from src_cy.engine cimport CHANCE_PLAYER
from src_cy.events cimport Event
from src_cy.gold_nugget.actions cimport *
from src_cy.gold_nugget.catalog cimport *
from src_cy.gold_nugget.rules cimport GN, GoldNuggetRules, ev_code

from src_cy.gold_nugget.rules import (ANIMAL_CATALOG, FACES, LEAF_CATALOG, PHASE_NAMES, TIMES,
                                      VC_CATALOG, WIND_CATALOG)
from src_cy.gold_nugget.view import GoldNuggetView

OBS_SIZE = MAXP + 18 + 4 + 2 + MAXP + MAXP * 12 + 2 * NLEAF + MAXP * NANIMAL + NVC + MAXP * NVC \
    + MAXP * MAXS * 3 + 3 + 5 + 40 + 1
# Events one player can observe that the information-state tensor records
# (the longest random 5-player advanced game measured: see the rules doc).
MAX_EVENTS = 2500
# Floats per event in the information-state tensor: the six bit fields of the
# event's code (``rules.pxd``'s ``ev_code``), each scaled by its largest value.
EVENT_FIELDS = 6
DECISION_NAMES = ("", "examine", "beg", "choose an animal", "choose an animal with stones",
                  "choose its stone", "steal from anywhere", "choose a lair stone",
                  "choose your stone", "suspicion", "place")


def effect_name(int c) -> str:
    """Name of a running effect (a leaf card, or an ability/victory effect)."""
    if 0 <= c < NCARD:
        return card_name(c)
    return {E_RECYCLE: "recycle", E_VICTORY: "victory card",
            E_MOLE: "Mole", E_GUST: "Gust"}.get(c, f"effect{c}")


def card_name(int k) -> str:
    """Name of forest card id k (leaf 0-15, wind 16-20)."""
    if 0 <= k < NLEAF:
        return LEAF_CATALOG[k][0]
    if NLEAF <= k < NCARD:
        return WIND_CATALOG[k - NLEAF][0]
    return f"card{k}"


def action_name(int a) -> str:
    """Name of player action id a (see the action table in games/gold_nugget/__init__.py)."""
    if a == A_PASS:
        return "pass/end"
    if a == A_SLEEP:
        return "sleep"
    if a == A_MEDDLE:
        return "meddle"
    if a == A_OPT0:
        return "option 0 (first animal / examine / reveal all)"
    if a == A_OPT1:
        return "option 1 (second animal / don't examine / take 2 feathers)"
    if a == A_ABILITY:
        return "use ability"
    if a == A_VICTORY:
        return "play victory card"
    if a == A_FEATHER:
        return "give a feather"
    if A_PLAY <= a < A_RECYCLE:
        return "play " + LEAF_CATALOG[a - A_PLAY][0]
    if A_RECYCLE <= a < A_DISCARD:
        return "recycle " + LEAF_CATALOG[a - A_RECYCLE][0]
    if A_DISCARD <= a < A_PLAYER:
        return "discard/give " + LEAF_CATALOG[a - A_DISCARD][0]
    if A_PLAYER <= a < A_NEST:
        return f"choose p{a - A_PLAYER}"
    if a == A_NEST:
        return "the nest"
    if A_STONE <= a < NUM_ACTIONS:
        return f"stone p{(a - A_STONE) // MAXS}#{(a - A_STONE) % MAXS}"
    return f"action{a}"


def _owner(int o) -> str:
    return "nest" if o == NEST else f"p{o}"


def event_text(uint32_t code) -> str:
    """Readable, injective rendering of one event code (``rules.pxd``'s
    ``ev_code`` of an event record)."""
    k = code & 63
    a = (code >> 6) & 15
    b = (code >> 10) & 15
    c = (code >> 14) & 63
    d = (code >> 20) & 63
    e = (code >> 26) & 63
    if k == EV_DEALT:
        return f"dealt {card_name(c)}"
    if k == EV_OFFER:
        return f"offered {ANIMAL_CATALOG[c][0]}"
    if k == EV_CHOSE:
        return f"chose {ANIMAL_CATALOG[c][0]}"
    if k == EV_ANIMAL:
        return f"p{a} is the {ANIMAL_CATALOG[c][0]}"
    if k == EV_TOD:
        return f"p{a} sleeps at {TIMES[c]}"
    if k == EV_VCDEALT:
        return f"victory card {VC_CATALOG[c][0]}"
    if k == EV_NESTTAKE:
        return f"p{a} takes a stone from the nest"
    if k == EV_FACE:
        return f"p{a} sees {_owner(b)}#{c} is {FACES[d]}{' (raccoon)' if e else ''}"
    if k == EV_EXAMINE:
        return f"p{a} examines {_owner(b)}#{c}"
    if k == EV_TRAPSHOW:
        return f"p{a} shows trap {_owner(b)}#{c}"
    if k == EV_REVEAL:
        return f"reveal {_owner(b)}#{c} {FACES[d]}"
    if k == EV_MOVE:
        return f"stone {_owner(b)}#{c} -> {_owner(a)}"
    if k == EV_MOVE_HID:
        return f"(asleep) a stone {_owner(b)} -> {_owner(a)}"
    if k == EV_FEATHER:
        return f"p{a} takes a feather from {_owner(b)}"
    if k == EV_CAUGHT:
        return f"p{a} caught by the Raven"
    if k == EV_FRETURN:
        return f"p{a} returns {c} feathers"
    if k == EV_WAKE:
        return f"p{a} wakes"
    if k == EV_SNAP:
        return f"(awake) p{a}: {c} feathers, {d} stones, {e} cards"
    if k == EV_DISCARD:
        return f"p{a} discards {card_name(c)}{' (hand limit)' if d else ''}"
    if k == EV_DRAW:
        return f"p{a} draws"
    if k == EV_DRAWCARD:
        return f"drew {card_name(c)}"
    if k == EV_WIND:
        return f"p{a} draws wind {card_name(c)}"
    if k == EV_RESHUFFLE:
        return "discards reshuffled into the forest deck"
    if k == EV_SLEEP:
        return f"p{a} sleeps"
    if k == EV_MEDDLE:
        return f"p{a} stays awake to meddle"
    if k == EV_PASSFEATHER:
        return f"white feather p{a} -> p{b}"
    if k == EV_PLAY:
        return f"p{a} {('plays', 'recycles', 'reveals face-down', 'reveals face-down and recycles')[d]} {card_name(c)}"
    if k == EV_TARGET:
        return f"p{a} targets p{b} (step {c})"
    if k == EV_STONEPICK:
        return f"p{a} picks {_owner(b)}#{c}"
    if k == EV_GIVECARD:
        return f"p{a} gives a card to p{b}"
    if k == EV_GIVECARDID:
        return f"p{a} gives {card_name(c)} to p{b}"
    if k == EV_SUSP:
        return f"p{a} chooses {('reveal all', 'two feathers')[c]}"
    if k == EV_ANSWER:
        return f"{card_name(c)}: {'yes' if d else 'no'}"
    if k == EV_SWAP_HID:
        return f"a stone of {_owner(a)} swapped with one of {_owner(b)}"
    if k == EV_SWAP:
        return f"swapped {_owner(a)}#{c} with {_owner(b)}#{d}"
    if k == EV_END:
        return f"p{a} ends meddling"
    if k == EV_REACTPASS:
        return f"p{a} plays no instant (window)"
    if k == EV_FACEDOWN:
        return f"p{a} plays a card face down"
    if k == EV_FACEDOWNID:
        return f"face-down card {card_name(c)}{' (to recycle)' if d else ''}"
    if k == EV_FINALPASS:
        return f"p{a} plays no card"
    if k == EV_GRAB:
        return f"p{a} grabs"
    if k == EV_GRABPICK:
        return f"you grab at {_owner(b)}#{c}"
    if k == EV_GRABRES:
        return f"p{a} grabbed at {_owner(b)}#{c}: " + \
            (f"got {FACES[d]}" if e else "nothing")
    if k == EV_ABILITY:
        return f"p{a} uses the {ANIMAL_CATALOG[c][0]} ability"
    if k == EV_VCPLAY:
        return f"p{a} plays victory card {VC_CATALOG[c][0]}"
    if k == EV_VCWIN:
        if c == VC_CLEAN:
            return f"Clean slate: p{a} wins instead of p{b}"
        return f"{VC_CATALOG[c][0]}: p{a} wins"
    if k == EV_TIME:
        return f"leaf token: day {d + 1} {TIMES[c]}"
    if k == EV_NOEXAM:
        return f"p{a} does not examine"
    if k == EV_ELIM:
        return f"p{a} is out"
    if k == EV_WINNERS:
        return "winners: " + (",".join(f"p{p}" for p in range(5) if c >> p & 1) or "the Raven")
    if k == EV_HELLODONE:
        return f"p{a} done discarding"
    if k == EV_EXAMDONE:
        return f"(asleep) p{a} has dealt with its new stone"
    if k == EV_CHOSEPUB:
        return f"p{a} lays its chosen animal face down"
    if k == EV_DEALPUB:
        return f"p{a} is dealt {('a card', 'an animal', 'a victory card')[b]}"
    if k == EV_SWAP_RECV:
        return f"p{a} receives a swapped stone at {_owner(b)}#{c}"
    if k == EV_PLACE:
        return f"p{a} places its new stone from p{a}#{c} at p{a}#{d}"
    if k == EV_PLACE_HID:
        return f"p{a} places its new stone unseen"
    if k == EV_GIVEFEATHER:
        return f"p{a} gives a feather to p{b}"
    return f"event{code}"


def action_to_string(GoldNuggetRules self, int player, int action) -> str:
    """Human-readable name of `action` (or chance outcome) at this state."""
    ph = self.g.phase
    if player == CHANCE_PLAYER or self.current_player() == CHANCE_PLAYER:
        if ph in (PH_DEAL, PH_DRAW):
            return "card " + card_name(action)
        if ph == PH_DEAL_ANIMAL:
            return "animal " + ANIMAL_CATALOG[action][0]
        if ph == PH_DEAL_TOD:
            return "time card " + TIMES[action]
        if ph == PH_DEAL_VC:
            return "victory card " + VC_CATALOG[action][0]
        return f"nest stone #{action}"
    return action_name(action)


def info_string(GoldNuggetRules self, int player) -> str:
    """Everything `player` observed, in order (perfect recall)."""
    cdef int i
    lines = [f"p{player}"]
    for i in range(self.g.nlog):
        if (self.events[i].seers >> player) & 1:
            lines.append(event_text(ev_code(&self.events[i])))
    return "\n".join(lines)


cdef int _shown_phase(GoldNuggetRules self, int player) noexcept:
    """The phase as `player` sees it.  The steps of a card's resolution and
    the instant windows (private to the animal asked) show only to the
    animal deciding; everyone else sees the phase the card was played in."""
    cdef int ph = self.g.phase
    if self.current_player() != player and (ph == PH_EFFECT or ph == PH_EFF_CHANCE
                                            or ph == PH_REACT):
        if ph == PH_REACT or self.g.eff.ctx == CTX_MEDDLE or self.g.eff.ctx == CTX_REACT:
            return PH_MEDDLE
        if self.g.eff.ctx == CTX_FINAL:
            return PH_FINAL_PLAY
        return PH_DRAW
    if ph == PH_GRAB_CHANCE and self.current_player() != player:
        return PH_GRAB
    return ph if ph <= PH_END else PH_END


cdef bint _blind(GoldNuggetRules self, int player) noexcept:
    """`player` sleeps and is not the Bat: it sees no feathers move."""
    return not (self.seers() >> player) & 1


def player_view(GoldNuggetRules self, int player):
    """What `player` knows now, as plain typed fields (docs/rules, "Player view").

    Every field is a function of the player's information state; strings,
    the observation tensor and the heuristic bot are built from it.
    """
    cdef GN* g = &self.g
    if not 0 <= player < g.n:
        raise ValueError(f"player must be in [0, {g.n - 1}], got {player}")
    blind = _blind(self, player)
    lairs = []
    for q in range(g.n):
        lairs.append([FACES[g.face[g.lair[q][i]]] if g.lair[q][i] >= 0
                      and g.knows[player] & (1 << g.lair[q][i]) else None
                      for i in range(g.lairn[q])])
    nest_known = [0, 0, 0]
    for i in range(g.nestn):
        if g.knows[player] & (1 << g.nest[i]):
            nest_known[g.face[g.nest[i]]] += 1
    to_move = self.current_player() == player
    return GoldNuggetView(**{
        "seat": player,
        "phase": PHASE_NAMES[_shown_phase(self, player)],
        "day": g.day, "days": g.days, "time": TIMES[g.time], "holder": g.holder,
        "to_move": to_move,
        "decision": DECISION_NAMES[g.eff.dk] if to_move and g.phase == PH_EFFECT else "",
        "effect": effect_name(g.eff.card) if to_move and g.phase == PH_EFFECT else "",
        "hand": [g.hand[player][k] for k in range(NLEAF)],
        "victory_card": VC_CATALOG[g.vc[player]][0] if g.vc[player] >= 0 else None,
        "offered": [ANIMAL_CATALOG[g.offer[player][i]][0] for i in range(g.deal_animals)]
        if g.phase > PH_DEAL_ANIMAL else [],
        "animals": [ANIMAL_CATALOG[g.animal[q]][0] if g.animal[q] >= 0 and (
            q == player or g.phase > PH_CHOOSE_ANIMAL) else None for q in range(g.n)],
        "times": [TIMES[g.tod[q]] if g.tod[q] >= 0 else None for q in range(g.n)],
        "asleep": [bool(g.asleep[q]) for q in range(g.n)],
        "out": [bool(g.elim[q]) for q in range(g.n)],
        "feathers": None if blind else [g.feathers[q] for q in range(g.n)],
        "nest_feathers": None if blind else g.nest_feathers,
        "cards": [g.handn[q] for q in range(g.n)],
        "lairs": lairs,
        "nest_stones": g.nestn,
        "nest_known": nest_known,
        "deck": self.deck_total(),
        "discard": [g.discard[k] for k in range(NLEAF)],
        "victory_played": [VC_CATALOG[g.vc[q]][0] if g.vc_played[q] else None
                           for q in range(g.n)],
        "plays": g.plays,
        "special_used": bool(g.special_used),
    })


def obs_string(GoldNuggetRules self, int player) -> str:
    """What `player` sees now (rendered from ``player_view``)."""
    v = player_view(self, player)
    out = [f"p{player} day {v['day'] + 1}/{v['days']} {v['time']} "
           f"phase={v['phase']} holder=p{v['holder']}"]
    out.append("hand: " + ",".join(f"{LEAF_CATALOG[k][0]}x{c}"
                                  for k, c in enumerate(v["hand"]) if c))
    if v["victory_card"] is not None:
        out.append(f"victory card: {v['victory_card']}")
    for q in range(self.g.n):
        stones = "".join(f[0] if f is not None else "?" for f in v["lairs"][q])
        fe = "?" if v["feathers"] is None else v["feathers"][q]
        out.append(f"p{q} {v['animals'][q] or '?'} time={v['times'][q] or '?'} "
                   f"{'asleep ' if v['asleep'][q] else ''}{'out ' if v['out'][q] else ''}"
                   f"feathers={fe} cards={v['cards'][q]} lair=[{stones}]")
    played = [f"p{q} {c}" for q, c in enumerate(v["victory_played"]) if c is not None]
    if played:
        out.append("victory cards played: " + ", ".join(played))
    nf = "?" if v["nest_feathers"] is None else v["nest_feathers"]
    out.append(f"nest: {v['nest_stones']} stones, {nf} feathers; "
               f"deck {v['deck']}; discard {sum(v['discard'])}")
    return "\n".join(out)


def render(GoldNuggetRules self) -> str:
    """The full state, for humans and ``str(state)``."""
    cdef GN* g = &self.g
    out = [f"Gold Nugget: day {g.day + 1}/{g.days} {TIMES[g.time]}, "
           f"phase {PHASE_NAMES.get(g.phase, g.phase)}, white feather p{g.holder}, "
           f"to move {self.current_player()}"]
    for q in range(g.n):
        hand = ",".join(f"{LEAF_CATALOG[k][0]}x{g.hand[q][k]}"
                        for k in range(NLEAF) if g.hand[q][k])
        stones = "".join(FACES[g.face[g.lair[q][i]]][0] if g.lair[q][i] >= 0 else "_"
                         for i in range(g.lairn[q]))
        an = ANIMAL_CATALOG[g.animal[q]][0] if g.animal[q] >= 0 else "?"
        vc = (VC_CATALOG[g.vc[q]][0] + ("(played)" if g.vc_played[q] else "")) \
            if g.vc[q] >= 0 else "-"
        out.append(f"p{q} {an} time={TIMES[g.tod[q]] if g.tod[q] >= 0 else '?'} "
                   f"{'asleep ' if g.asleep[q] else ''}{'out ' if g.elim[q] else ''}"
                   f"feathers={g.feathers[q]} lair=[{stones}] hand=[{hand}] vc={vc}"
                   f"{' facedown=' + LEAF_CATALOG[g.facedown[q]][0] if g.facedown[q] >= 0 else ''}")
    nest = "".join(FACES[g.face[g.nest[i]]][0] for i in range(g.nestn))
    deck = ",".join(f"{card_name(k)}x{g.deck[k]}" for k in range(NCARD) if g.deck[k])
    out.append(f"nest=[{nest}] feathers={g.nest_feathers}")
    out.append(f"deck=[{deck}]")
    out.append("discard=[" + ",".join(f"{LEAF_CATALOG[k][0]}x{g.discard[k]}"
                                      for k in range(NLEAF) if g.discard[k]) + "]")
    if g.phase == PH_END:
        out.append("winners: " + (",".join(f"p{p}" for p in range(g.n) if g.winners >> p & 1)
                                  or "the Raven"))
    return "\n".join(out)


def fill_obs_tensor(GoldNuggetRules self, int player, float[:] out) -> None:
    """Current view of `player` (see the rules doc for the layout)."""
    cdef int o = 0, q, i, s, k, qq
    cdef GN* g = &self.g
    # Counts are scaled by their documented maximum (rules doc, "Tensors").
    cdef float cards = 0, stones = MAXS, feathers = max(g.nfeathers, 1)
    cdef float deal_max = g.n * max(g.hand_size, g.start_stones, 1)
    for k in range(NLEAF):
        cards += g.leaf_init[k]
    for k in range(NWIND):
        cards += g.wind_init[k]
    cards = max(cards, 1)
    for i in range(OBS_SIZE):
        out[i] = 0
    out[o + player] = 1
    o += MAXP
    out[o + _shown_phase(self, player)] = 1
    o += 18
    out[o + g.time] = 1
    o += 4
    out[o] = g.day / <float>g.days
    out[o + 1] = (g.days - g.day) / <float>g.days
    o += 2
    out[o + g.holder] = 1
    o += MAXP
    blind = g.asleep[player] and not (g.abilities and not g.final
                                      and g.animal[player] == A_BAT)
    for q in range(g.n):
        qq = (q - player + g.n) % g.n
        out[o + qq * 12 + 0] = g.asleep[q]
        out[o + qq * 12 + 1] = g.elim[q]
        if not blind:      # a sleeper sees the counts again when it wakes
            out[o + qq * 12 + 2 + min(g.feathers[q], 3)] = 1
            out[o + qq * 12 + 6] = g.handn[q] / cards
            out[o + qq * 12 + 7] = g.lairn[q] / stones
        out[o + qq * 12 + 8 + (g.tod[q] if g.tod[q] >= 0 else 0)] = 1 if g.tod[q] >= 0 else 0
    o += MAXP * 12
    for k in range(NLEAF):
        out[o + k] = g.hand[player][k] / cards
        out[o + NLEAF + k] = g.discard[k] / cards
    o += 2 * NLEAF
    for q in range(g.n):
        qq = (q - player + g.n) % g.n
        if g.animal[q] >= 0 and (q == player or g.phase > PH_CHOOSE_ANIMAL):
            out[o + qq * NANIMAL + g.animal[q]] = 1
    o += MAXP * NANIMAL
    if g.vc[player] >= 0:
        out[o + g.vc[player]] = 1
    o += NVC
    for q in range(g.n):
        qq = (q - player + g.n) % g.n
        if g.vc_played[q]:
            out[o + qq * NVC + g.vc[q]] = 1
    o += MAXP * NVC
    for q in range(g.n):
        qq = (q - player + g.n) % g.n
        for i in range(g.lairn[q]):
            s = g.lair[q][i]
            if s >= 0 and g.knows[player] & (1u << s):
                out[o + (qq * MAXS + i) * 3 + g.face[s]] = 1
    o += MAXP * MAXS * 3
    for i in range(g.nestn):
        s = g.nest[i]
        if g.knows[player] & (1u << s):
            out[o + g.face[s]] += 1 / stones
    o += 3
    out[o] = g.nestn / stones
    out[o + 1] = 0 if blind else g.nest_feathers / feathers
    out[o + 2] = self.deck_total() / cards
    out[o + 3] = g.plays / cards
    out[o + 4] = g.special_used
    o += 5
    if g.phase == PH_EFFECT and self.current_player() == player:
        out[o + g.eff.card] = 1
        out[o + 29 + g.eff.dk] = 1
    o += 40
    if g.phase == PH_SETUP_STONE or g.phase == PH_DEAL:
        out[o] = g.deal_i / deal_max


def fill_info_tensor(GoldNuggetRules self, int player, float[:] out) -> None:
    """The observation, then the events `player` saw (perfect recall): their
    number / MAX_EVENTS, and per event the six bit fields of its code, each
    scaled by its largest value (kind / 63, actor / 15, a / 15, b, c, secret / 63)."""
    cdef int i, m = 0, o = OBS_SIZE + 1, f
    cdef uint32_t c
    fill_obs_tensor(self, player, out[:OBS_SIZE])
    for i in range(OBS_SIZE, OBS_SIZE + 1 + EVENT_FIELDS * MAX_EVENTS):
        out[i] = 0
    for i in range(self.g.nlog):
        if (self.events[i].seers >> player) & 1:
            if m < MAX_EVENTS:
                c = ev_code(&self.events[i])
                f = o + EVENT_FIELDS * m
                out[f] = (c & 63) / 63.0
                out[f + 1] = ((c >> 6) & 15) / 15.0
                out[f + 2] = ((c >> 10) & 15) / 15.0
                out[f + 3] = ((c >> 14) & 63) / 63.0
                out[f + 4] = ((c >> 20) & 63) / 63.0
                out[f + 5] = ((c >> 26) & 63) / 63.0
            m += 1
    out[OBS_SIZE] = min(m, MAX_EVENTS) / <float>MAX_EVENTS


def events_seen(GoldNuggetRules self, int player) -> int:
    """Number of events `player` observed so far."""
    return sum(1 for i in range(self.g.nlog) if (self.events[i].seers >> player) & 1)


def event_records(GoldNuggetRules self, int player) -> list:
    """The event records `player` saw, in order, each as its fields
    ``(kind, actor, pub, a, b, c, secret, seers)`` (``src_cy/events.pxd``)."""
    cdef int i
    cdef Event* e
    out = []
    for i in range(self.g.nlog):
        e = &self.events[i]
        if (e.seers >> player) & 1:
            out.append((e.kind, e.actor, e.pub, e.a, e.b, e.c, e.secret, e.seers))
    return out
