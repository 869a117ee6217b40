# cython: language_level=3
"""Saboteur text and tensor rendering over a rules-kernel state
(``SaboteurRules``, ``rules.pxd``): action names, information-state and
observation strings, the typed player view (``view.SaboteurView``), tensors.

``src_cy.saboteur.engine.SaboteurEngine``'s methods of the same names are
one-line calls of these functions.  Strings, tensors and keys are all built
from the same visible tuples (``_visible``: an event as a player saw it); the
observation string is rendered from ``player_view``.
"""
from src_cy.engine cimport CHANCE_PLAYER
from src_cy.events cimport Event
from src_cy.saboteur.actions cimport (A_STRIDE, A_BREAK, A_REPAIR, A_MAP, A_PASS, A_KEEP,
                                      A_HAND_ON, A_TAIL_SIZE)
from src_cy.saboteur.rules cimport *

from src_cy.saboteur.view import SaboteurView

KIND_NAMES = (
    ["path E-W", "path N-S", "path N-W", "path N-E", "path N-E-W", "path N-E-S",
     "path cross", "dead end N", "dead end E", "dead end N-E", "dead end N-S",
     "dead end N-W", "dead end E-W", "dead end N-E-S", "dead end N-E-W",
     "dead end cross", "map", "rockfall", "break pickaxe", "break lamp",
     "break cart", "repair pickaxe", "repair lamp", "repair cart",
     "repair pickaxe/lamp", "repair pickaxe/cart", "repair lamp/cart"])
TOOL_NAMES = ("pickaxe", "lamp", "cart")
GOAL_NAMES = ("treasure", "stone N-E", "stone N-W")
ROLE_NAMES = ("gold-digger", "saboteur")
PHASE_NAMES = ("roles", "goals", "deal", "play", "draw", "gold", "share", "over")


def _gold_counts(int code) -> tuple:
    """Counts of 1-, 2- and 3-nugget cards in a passed-on gold set code."""
    return (code % 11, (code // 11) % 11, code // 121)


def state_view(SaboteurRules rules) -> dict:
    """Full (god's-eye) state as plain Python data, for tests and tools
    only; bots and features read ``player_view``."""
    cdef SabState* s = &rules.s
    board = {}
    for i in range(s.nocc):
        g = s.occ[i]
        board[rules.cell_xy(rules.acell_of(g))] = _cell_tuple(rules, g)
    return {
        "phase": PHASE_NAMES[s.phase],
        "completer": s.completer,
        "round": s.round, "current": s.cur, "starter": s.starter,
        "last_placer": s.last_placer,
        "roles": [s.role[p] for p in range(rules.p.n)],
        "role_pool": [s.role_left[0], s.role_left[1]],
        "goals": [s.goal_id[g] for g in range(3)],
        "goals_up": [bool(s.goal_up[g]) for g in range(3)],
        "goal_edges": [s.cell[s.goal_cell[g]] & 15 if s.goal_up[g] else None
                       for g in range(3)],
        "hands": [[s.hand[p][k] for k in range(NKINDS)] for p in range(rules.p.n)],
        "deck": [s.deck[k] for k in range(NKINDS)],
        "discards": [[s.disc[p][k] for k in range(NKINDS)] for p in range(rules.p.n)],
        "public_discards": [s.pub_disc[k] for k in range(NKINDS)],
        "broken": [[s.broken[p][t] for t in range(3)] for p in range(rules.p.n)],
        "board": board,
        "reached": sorted(xy for xy, c in board.items() if c[3]),
        "frontier": sorted(rules.cell_xy(rules.acell_of(s.fr[i])) for i in range(s.nfr)),
        "gold_cards": [[s.gold[p][k] for k in range(3)] for p in range(rules.p.n)],
        "gold_pool": [s.gold_pool[k] for k in range(3)],
        "gold_drawn": [s.gdrawn[k] for k in range(3)],
        "gold_recipients": [s.gq[i] for i in range(s.gqn)],
        "gold_detail": [(s.gloc[i], s.gval[i], [p for p in range(rules.p.n) if (s.gseen[i] >> p) & 1])
                        for i in range(NGOLD)],
        "saboteur_gold": [s.sab_gold[p] for p in range(rules.p.n)],
        "nuggets": [s.gold[p][0] + 2 * s.gold[p][1] + 3 * s.gold[p][2] + s.sab_gold[p]
                    for p in range(rules.p.n)],
        "round_winners": [("none", "diggers", "saboteurs")[s.round_winner[r]]
                          for r in range(rules.p.rounds)],
    }


def _cell_tuple(SaboteurRules rules, int g):
    cdef int v = rules.s.cell[g]
    return ((v >> 8) & 31, (v >> 13) & 1, v & 15, bool(v & CB_REACH), bool(v & CB_PASS))


def action_to_string(SaboteurRules rules, int player, int action) -> str:
    """Human-readable action (chance outcomes read in the current phase)."""
    cdef int F = rules.p.F, tail = rules.p.tail0, k, o, idx, g
    if player == CHANCE_PLAYER:
        ph = rules.s.phase
        if ph == PH_ROLE:
            return f"deal role {ROLE_NAMES[action] if 0 <= action < 2 else action} to p{rules.s.deal_i}"
        if ph == PH_GOAL:
            if 0 <= action < 6:
                return "goals " + "/".join(GOAL_NAMES[PERMS[action][g]] for g in range(3))
            return f"goals {action}"
        if ph == PH_DEAL or ph == PH_DRAW:
            return f"draw {KIND_NAMES[action] if 0 <= action < NKINDS else action}"
        if ph == PH_GOLD:
            return f"draw gold card {action + 1}"
        return f"chance {action}"
    if action < 0 or action >= tail + A_TAIL_SIZE:
        return f"invalid action {action}"
    if action < tail:
        # Placements and rockfalls name their target in the current state.
        g = sab_target(rules.p, &rules.s, action)
        if action < rules.p.rock0:
            k = (action // F) >> 1
            o = (action // F) & 1
            name = f"place {KIND_NAMES[k]}{' rotated' if o else ''} at "
            if g < 0:
                return name + f"frontier cell {action % F} (none now)"
            x, y = rules.cell_xy(rules.acell_of(g))
            return name + f"({x},{y})"
        if g < 0:
            return f"rockfall at tunnel card {action - rules.p.rock0} (none now)"
        x, y = rules.cell_xy(rules.acell_of(g))
        return f"rockfall at ({x},{y})"
    idx = action - tail
    if idx < A_REPAIR:
        idx -= A_BREAK
        return f"break {TOOL_NAMES[idx // A_STRIDE]} of p{idx % A_STRIDE}"
    if idx < A_MAP:
        idx -= A_REPAIR
        return (f"{KIND_NAMES[K_REPAIR + idx // (3 * A_STRIDE)]}: fix "
                f"{TOOL_NAMES[(idx % (3 * A_STRIDE)) // A_STRIDE]} of p{idx % A_STRIDE}")
    if idx < A_PASS:
        return f"map goal {idx - A_MAP}"
    if idx < A_KEEP:
        return f"pass discarding {KIND_NAMES[idx - A_PASS]}"
    if idx < A_HAND_ON:
        return f"keep gold card {idx - A_KEEP + 1}"
    return f"hand on gold card {idx - A_HAND_ON + 1}"


def _visible(SaboteurRules rules, int i, int player) -> tuple:
    """Event ``i`` as ``player`` saw it: ``(ev, actor, a, b, c, private)``
    with ``private = -1`` unless ``player`` saw the private part."""
    cdef const Event* e = &rules.s.log[i]
    seen = (e.seers >> player) & 1
    return (e.kind, e.actor, e.a, e.b, e.c, e.secret if seen else -1)


#: Name of each event code in ``SaboteurEngine.event_log`` (index = code).
EVENT_NAMES = ("", "role", "goals", "draw", "place", "rockfall", "break", "repair", "map",
               "pass", "reveal", "round_end", "gold", "saboteur_gold", "gold_draw",
               "gold_take", "gold_pass")


def event_log(SaboteurRules rules, int player) -> list:
    """``player``'s record as typed tuples ``(kind, actor, a, b, c, private)``
    (kind from ``EVENT_NAMES``; ``private`` -1 unless ``player`` saw it): the
    same events, in the same order, as the information-state string."""
    if not 0 <= player < rules.p.n:
        raise ValueError(f"player must be in [0, {rules.p.n - 1}], got {player}")
    out = []
    for i in range(rules.s.nlog):
        ev, actor, a, b, c, priv = _visible(rules, i, player)
        out.append((EVENT_NAMES[ev], actor, a, b, c, priv))
    return out


def _event_string(SaboteurRules rules, int i, int player) -> str:
    ev, actor, a, b, c, priv = _visible(rules, i, player)
    mine = priv >= 0
    if ev == EV_ROLE:
        return f"p{actor} role" + (f"={ROLE_NAMES[priv]}" if mine else "")
    if ev == EV_GOALS:
        return "goals laid"
    if ev == EV_DRAW:
        return f"p{actor} draws" + (f" {KIND_NAMES[priv]}" if mine else "")
    if ev == EV_PLACE:
        x, y = rules.cell_xy(a)
        return f"p{actor} places {KIND_NAMES[b]}{' rotated' if c else ''} at ({x},{y})"
    if ev == EV_ROCK:
        x, y = rules.cell_xy(a)
        return f"p{actor} rockfall ({x},{y}) removes {KIND_NAMES[b]}"
    if ev == EV_BREAK:
        return f"p{actor} breaks {TOOL_NAMES[b]} of p{c}"
    if ev == EV_REPAIR:
        return f"p{actor} {KIND_NAMES[K_REPAIR + b]} fixes {TOOL_NAMES[a]} of p{c}"
    if ev == EV_MAP:
        return f"p{actor} maps goal {a}" + (f" = {GOAL_NAMES[priv]}" if mine else "")
    if ev == EV_PASS:
        return f"p{actor} passes" + (f" discarding {KIND_NAMES[priv]}" if mine else "")
    if ev == EV_REVEAL:
        return f"goal {a} turned up: {GOAL_NAMES[b]}{' rotated' if c else ''}"
    if ev == EV_ROUNDEND:
        sabs = [p for p in range(rules.p.n) if (a >> p) & 1]
        return (f"round {c + 1} won by {'diggers' if b == 0 else 'saboteurs'}; "
                f"saboteurs {sabs}")
    if ev == EV_GOLDDRAW:
        return (f"p{actor} draws a gold card" + (f" for p{a}" if a != actor else "")
                + (f" of {priv + 1}" if mine else ""))
    if ev == EV_GOLD:
        value = f" of {priv + 1}" if mine else ""
        if actor == a:
            return f"p{actor} keeps a gold card{value}"
        return f"p{actor} receives a gold card{value} from p{a}"
    if ev == EV_GOLDTAKE:
        return f"p{actor} takes a gold card" + (f" of {priv + 1}" if mine else "")
    if ev == EV_GOLDPASS:
        text = f"p{a} passes {b} gold card(s) to p{actor}"
        if mine:
            text += ": " + " ".join(str(v + 1) for v, cnt in enumerate(_gold_counts(priv))
                                    for _ in range(cnt))
        return text
    if ev == EV_SABGOLD:
        return f"p{actor} gets {a} nuggets"
    return f"event {ev}"


def info_string(SaboteurRules rules, int player) -> str:
    """Everything ``player`` has observed, in order (perfect recall)."""
    lines = [f"p{player} {rules.game_string}"]
    for i in range(rules.s.nlog):
        lines.append(_event_string(rules, i, player))
    return "\n".join(lines)


def player_view(SaboteurRules rules, int player):
    """What ``player`` knows now, a ``SaboteurView`` (see the rules doc,
    "Player view").  Every field is public or ``player``'s own."""
    cdef SabState* s = &rules.s
    cdef int n = rules.p.n, p, q, k, t, g, i
    if not 0 <= player < n:
        raise ValueError(f"player must be in [0, {n - 1}], got {player}")
    board = {}
    for i in range(s.nocc):
        board[rules.cell_xy(rules.acell_of(s.occ[i]))] = _cell_tuple(rules, s.occ[i])
    board[(0, 0)] = _cell_tuple(rules, rules.xy(0, 0))
    for g in range(3):
        if s.goal_up[g]:
            board[(rules.p.gd, 2 * g - 2)] = _cell_tuple(rules, s.goal_cell[g])
    drawn_public = s.phase == PH_GOLD or s.phase == PH_SHARE
    holder = rules.gold_holder() if drawn_public else -1
    if s.phase == PH_GOLD and rules.p.pick:
        holder = s.gq[0]
    known_gold = []
    if not rules.p.pick:
        known_gold = sorted((s.gloc[i], s.gval[i]) for i in range(NGOLD)
                            if s.gloc[i] >= 0 and s.gloc[i] != player
                            and (s.gseen[i] >> player) & 1)
    return SaboteurView(**{
        "player": player,
        "num_players": n,
        "round": min(s.round, rules.p.rounds - 1),
        "rounds": rules.p.rounds,
        "phase": PHASE_NAMES[s.phase],
        "to_move": rules.current_player(),
        "gold_handout": "pick" if rules.p.pick else "finder",
        "grid_radius": rules.p.R,
        "goal_distance": rules.p.gd,
        "role": s.role[player],
        "roles": [s.role[q] for q in range(n)] if s.roles_public else None,
        "hand": [s.hand[player][k] for k in range(NKINDS)],
        "discards": [s.disc[player][k] for k in range(NKINDS)],
        "hand_sizes": [s.hand_n[q] for q in range(n)],
        "deck_size": s.deck_n,
        "broken": [[s.broken[q][t] for t in range(3)] for q in range(n)],
        "board": board,
        "reached": sorted(xy for xy, c in board.items() if c[3]),
        "frontier": sorted(rules.cell_xy(rules.acell_of(s.fr[i])) for i in range(s.nfr)),
        "goals_up": [bool(s.goal_up[g]) for g in range(3)],
        "known_goals": [rules.kgoal(player, g) for g in range(3)],
        "starter": s.starter,
        "last_placer": s.last_placer,
        "played": [[s.played[q][k] for k in range(NKINDS)] for q in range(n)],
        "passes": [s.passes[q] for q in range(n)],
        "maps": [[s.mapped[q][g] for g in range(3)] for q in range(n)],
        "breaks": [[s.brk_on[q][p] for p in range(n)] for q in range(n)],
        "repairs": [[s.rep_on[q][p] for p in range(n)] for q in range(n)],
        "public_discards": [s.pub_disc[k] for k in range(NKINDS)],
        "round_winners": [("diggers", "saboteurs")[s.round_winner[r] - 1]
                          for r in range(rules.p.rounds) if s.round_winner[r]],
        "completer": s.completer,
        "gold": [s.gold[player][k] for k in range(3)],
        "nuggets": (s.gold[player][0] + 2 * s.gold[player][1] + 3 * s.gold[player][2]
                    + s.sab_gold[player]),
        "gold_card_counts": [s.gold[q][0] + s.gold[q][1] + s.gold[q][2] for q in range(n)],
        "saboteur_gold": [s.sab_gold[q] for q in range(n)],
        "gold_recipients": [s.gq[i] for i in range(s.gqn)] if drawn_public else [],
        "gold_next": s.gq[s.gqi] if s.phase == PH_SHARE else -1,
        "gold_holder": holder,
        "gold_drawn_count": (s.gdrawn[0] + s.gdrawn[1] + s.gdrawn[2]) if drawn_public else 0,
        "held_gold": [s.gdrawn[k] for k in range(3)] if holder == player else None,
        "known_gold": known_gold,
    })


def obs_string(SaboteurRules rules, int player) -> str:
    """The current view of ``player`` (rendered from ``player_view``)."""
    v = player_view(rules, player)
    n = v["num_players"]
    lines = [f"round {v['round'] + 1}/{v['rounds']} phase {v['phase']}"
             f" to move p{rules.s.cur}",
             _maze_ascii(rules, player)]
    role = v["role"]
    lines.append(f"you p{player}: {ROLE_NAMES[role] if role >= 0 else 'no role yet'}")
    if v["roles"] is not None:
        lines.append("roles: " + " ".join(ROLE_NAMES[r][0] for r in v["roles"]))
    lines.append("hand: " + ", ".join(f"{KIND_NAMES[k]} x{c}"
                                     for k, c in enumerate(v["hand"]) if c))
    lines.append("goals: " + " ".join(GOAL_NAMES[g] if g >= 0 else "?"
                                      for g in v["known_goals"]))
    lines.append("broken: " + " ".join(
        f"p{q}:" + ("".join("PLC"[t] for t in range(3) if v["broken"][q][t]) or "-")
        for q in range(n)))
    lines.append("hand sizes: " + " ".join(str(h) for h in v["hand_sizes"])
                 + f" deck {v['deck_size']}")
    lines.append(f"gold: {v['nuggets']} nuggets")
    if v["gold_holder"] >= 0:
        text = f"gold drawn for p{v['gold_holder']}: {v['gold_drawn_count']} card(s)"
        if v["held_gold"] is not None:
            text += " " + " ".join(str(k + 1) for k in range(3)
                                   for _ in range(v["held_gold"][k]))
        if v["gold_next"] >= 0:
            text += f", next to p{v['gold_next']}"
        lines.append(text)
    if v["known_gold"]:
        lines.append("gold handed out: " + " ".join(f"p{q}:{val + 1}"
                                                    for q, val in v["known_gold"]))
    return "\n".join(lines)


def _maze_ascii(SaboteurRules rules, int viewer) -> str:
    """ASCII maze; ``viewer`` < 0 shows every goal, else what ``viewer`` knows."""
    cdef SabState* s = &rules.s
    cells = [s.occ[i] for i in range(s.nocc)] + [s.goal_cell[g] for g in range(3)]
    cells.append(rules.xy(0, 0))
    xs = [rules.cell_xy(rules.acell_of(g))[0] for g in cells]
    ys = [rules.cell_xy(rules.acell_of(g))[1] for g in cells]
    x0, x1 = max(min(xs) - 1, -rules.p.R), min(max(xs) + 1, rules.p.R)
    y0, y1 = max(min(ys) - 1, -rules.p.R), min(max(ys) + 1, rules.p.R)
    out = ["     " + "".join(f"{x:^3d}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        rows = ["", "", ""]
        for x in range(x0, x1 + 1):
            v = s.cell[rules.xy(x, y)]
            if not v & CB_OCC:
                mark = "," if s.frm[rules.xy(x, y)] else "."
                rows[0] += "   "
                rows[1] += f" {mark} "
                rows[2] += "   "
                continue
            code = (v >> 8) & 31
            if v & CB_GOAL:
                slot = code - CODE_GOAL
                known = s.goal_id[slot] if viewer < 0 else rules.kgoal(viewer, slot)
                ch = "?TNW"[known + 1]
                rows[0] += "   "
                rows[1] += f"[{ch}]"
                rows[2] += "   "
                continue
            e = v & 15
            if code == CODE_START:
                c = "S"
            elif code >= CODE_GOAL:
                c = "T" if s.goal_id[code - CODE_GOAL] == 0 else "o"
            else:
                c = "+" if v & CB_PASS else "x"
            rows[0] += " " + ("|" if e & 1 else " ") + " "
            rows[1] += ("-" if e & 8 else " ") + c + ("-" if e & 2 else " ")
            rows[2] += " " + ("|" if e & 4 else " ") + " "
        out.append("     " + rows[0])
        out.append(f"{y:>4d} " + rows[1])
        out.append("     " + rows[2])
    return "\n".join(out)


def render(SaboteurRules rules) -> str:
    """The maze in ASCII plus the whole hidden state (for people and tests)."""
    cdef SabState* s = &rules.s
    lines = [f"round {min(s.round + 1, rules.p.rounds)}/{rules.p.rounds} phase "
             f"{PHASE_NAMES[s.phase]}"
             f" current p{s.cur} deck {s.deck_n}",
             _maze_ascii(rules, -1),
             "goals: " + " ".join(GOAL_NAMES[s.goal_id[g]] if s.goal_id[g] >= 0 else "-"
                                  for g in range(3))]
    for p in range(rules.p.n):
        role = ROLE_NAMES[s.role[p]] if s.role[p] >= 0 else "-"
        hand = ",".join(f"{k}x{s.hand[p][k]}" for k in range(NKINDS) if s.hand[p][k])
        disc = ",".join(f"{k}x{s.disc[p][k]}" for k in range(NKINDS) if s.disc[p][k])
        tools = "".join("PLC"[t] for t in range(3) if s.broken[p][t]) or "-"
        g = s.gold[p]
        lines.append(f"p{p} {role} broken:{tools} hand:[{hand}] discarded:[{disc}] "
                     f"gold:{g[0]}/{g[1]}/{g[2]}+{s.sab_gold[p]}")
    lines.append(f"gold pile: {s.gold_pool[0]}/{s.gold_pool[1]}/{s.gold_pool[2]} "
                 f"drawn: {s.gdrawn[0]}/{s.gdrawn[1]}/{s.gdrawn[2]}")
    return "\n".join(lines)


cdef enum:
    # Floats per tunnel slot of the observation (present, x, y, kind one-hot,
    # turned, reached) and per event record of the information state.
    TUNNEL_SLOT = 5 + NTUN
    EVENT_RECORD = 8


def obs_tensor_size(SaboteurRules rules) -> int:
    """Tunnel-card slots, goal places and knowledge, tools, hand, roles,
    turn, counts, gold (rules doc, "Information")."""
    n = rules.p.n
    return (TUNNEL_SLOT * rules.p.T + 9 + 12 + 3 * n + NKINDS + 3 + 2 * n + n + NPHASES
            + n + 1 + MAXROUNDS + 4 + 2 * n + 3 + 3 * n)


def max_events(SaboteurRules rules) -> int:
    """Bound on logged events: per round ``n`` roles, the goals, every card
    drawn and played once, 3 reveals, the round end and at most ``3n``
    gold events (draws, hand-outs, passes; or saboteur payments)."""
    return rules.p.rounds * (4 * rules.p.n + 2 * rules.p.K + 5)


def event_size(SaboteurRules rules) -> int:
    """Floats per event record in the information-state tensor (8)."""
    return EVENT_RECORD


def info_tensor_size(SaboteurRules rules) -> int:
    """Observation, this round's public summary, then the event sequence."""
    n = rules.p.n
    return (obs_tensor_size(rules) + n * NKINDS + n + NKINDS + 3 * n + 3 * MAXROUNDS
            + max_events(rules) * EVENT_RECORD)


cdef float _sab_nugget_max(SaboteurRules rules):
    """Most saboteur nuggets one player can hold: 4 per round (``SAB_PAY``)."""
    return 4.0 * max(rules.p.rounds, 1)


def fill_obs_tensor(SaboteurRules rules, int player, float[:] out) -> None:
    """Write the observation tensor of ``player`` into ``out``."""
    _fill_obs(rules, player, out)


cdef int _fill_obs(SaboteurRules rules, int player, float[:] out):
    cdef int n = rules.p.n, i, v, g, k, t, p, o = 0, known, acell
    cdef float side = 2 * rules.p.R
    # Counts are scaled by their documented maximum (rules doc, "Strings and
    # tensors"): cards by the deck size K, gold cards by their number, saboteur
    # nuggets by the most a saboteur can earn.
    cdef float cards = max(rules.p.K, 1), golds = NGOLD, nuggets = _sab_nugget_max(rules)
    out[:] = 0.0
    # The tunnel cards on the table in cell order, one slot each (rules doc,
    # "Information"): coordinates scaled from [-R, R] to [0, 1].
    for i in range(rules.s.ntun):
        v = rules.s.cell[rules.s.tun[i]]
        acell = rules.acell_of(rules.s.tun[i])
        o = TUNNEL_SLOT * i
        out[o] = 1.0
        out[o + 1] = (acell % rules.p.S) / side
        out[o + 2] = (acell // rules.p.S) / side
        out[o + 3 + ((v >> 8) & 31)] = 1.0
        out[o + 3 + NTUN] = (v >> 13) & 1
        out[o + 4 + NTUN] = 1.0 if v & CB_REACH else 0.0
    o = TUNNEL_SLOT * rules.p.T
    for g in range(3):
        v = rules.s.cell[rules.s.goal_cell[g]]
        out[o + 3 * g] = rules.s.goal_up[g]
        out[o + 3 * g + 1] = (v >> 13) & 1
        out[o + 3 * g + 2] = 1.0 if v & CB_REACH else 0.0
    o += 9
    for g in range(3):
        known = rules.kgoal(player, g)
        out[o + 4 * g + known + 1] = 1.0
    o += 12
    for p in range(n):
        for t in range(3):
            out[o + 3 * p + t] = rules.s.broken[p][t]
    o += 3 * n
    for k in range(NKINDS):
        out[o + k] = rules.s.hand[player][k] / cards
    o += NKINDS
    out[o + rules.s.role[player] + 1] = 1.0
    o += 3
    if rules.s.roles_public:
        for p in range(n):
            out[o + 2 * p + rules.s.role[p]] = 1.0
    o += 2 * n
    if rules.s.phase == PH_PLAY or rules.s.phase == PH_SHARE:
        out[o + rules.s.cur] = 1.0
    o += n
    out[o + rules.s.phase] = 1.0
    o += NPHASES
    for p in range(n):
        out[o + p] = rules.s.hand_n[p] / cards
    o += n
    out[o] = rules.s.deck_n / cards
    o += 1
    out[o + min(rules.s.round, MAXROUNDS - 1)] = 1.0
    o += MAXROUNDS
    for k in range(3):
        out[o + k] = rules.s.gold[player][k] / golds
    out[o + 3] = rules.s.sab_gold[player] / nuggets
    o += 4
    for p in range(n):
        out[o + p] = (rules.s.gold[p][0] + rules.s.gold[p][1] + rules.s.gold[p][2]) / golds
        out[o + n + p] = rules.s.sab_gold[p] / nuggets
    o += 2 * n
    if (rules.s.phase == PH_GOLD or rules.s.phase == PH_SHARE) and player == rules.gold_holder():
        for k in range(3):
            out[o + k] = rules.s.gdrawn[k] / golds
    o += 3
    for i in range(NGOLD):
        p = rules.s.gloc[i]
        if not rules.p.pick and p >= 0 and p != player and (rules.s.gseen[i] >> player) & 1:
            out[o + 3 * p + rules.s.gval[i]] += 1.0 / golds
    o += 3 * n
    return o


def fill_info_tensor(SaboteurRules rules, int player, float[:] out) -> None:
    """Write the information-state tensor of ``player`` into ``out``."""
    cdef int o = _fill_obs(rules, player, out), n = rules.p.n, p, k, g, r
    cdef float cards = max(rules.p.K, 1)
    for p in range(n):
        for k in range(NKINDS):
            out[o + p * NKINDS + k] = rules.s.played[p][k] / cards
    o += n * NKINDS
    for p in range(n):
        out[o + p] = rules.s.passes[p] / cards
    o += n
    for k in range(NKINDS):
        out[o + k] = rules.s.disc[player][k] / cards
    o += NKINDS
    for p in range(n):
        for g in range(3):
            out[o + 3 * p + g] = rules.s.mapped[p][g] / cards
    o += 3 * n
    for r in range(MAXROUNDS):
        if rules.s.round_winner[r]:
            out[o + 3 * r + rules.s.round_winner[r]] = 1.0
        else:
            out[o + 3 * r] = 1.0
    o += 3 * MAXROUNDS
    cdef int size = EVENT_RECORD, i, f
    for i in range(rules.s.nlog):
        ev, actor, a, b, c, priv = _visible(rules, i, player)
        f = o + i * size
        # present, event code, actor, then each field + 1 scaled by the
        # range of the game's values (``a`` and the secret below 32768;
        # ``b`` and ``c``, kinds, tools, seats, rounds and counts, below
        # 128), so every value is in [0, 1]
        out[f] = 1.0
        out[f + 1] = ev / <float>NEV
        out[f + 2] = (actor + 1) / <float>n
        out[f + 3] = (a + 1) / 32768.0
        out[f + 4] = (b + 1) / 128.0
        out[f + 5] = (c + 1) / 128.0
        if priv >= 0:
            out[f + 6] = 1.0
            out[f + 7] = (priv + 1) / 32768.0
