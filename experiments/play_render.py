"""What one seat may see, rendered for a person (``experiments.play``).

Every renderer reads only the seat's own view: the pyspiel
``observation_string(seat)`` (and, for the event log, the
``information_state_string(seat)``) of the state, never the state itself, so
nothing hidden from the seat can leak into the screen.  One function per
game, ``render_<game>(obs, seat)``; :func:`render_view` dispatches on the
game's short name and falls back to the plain observation string for other
games.  Lines a renderer does not recognise are shown as they are, so a
change in an engine's string format degrades the layout, never the content.

Opponents' moves and chance events are announced by :func:`new_events`: the
lines the seat's information-state string (each goldspiel game's is an event
log of exactly what the seat observed) gained with the last action, worded
for the screen by :func:`event_text` (``P2``, ``you``, a turned Saboteur card
by the openings it shows).  :func:`move_labels` names the seat's legal moves
(from the action strings and, for choices the string leaves open, the seat's
own ``player_view``) and :func:`format_moves` lists them, moves differing
only in their target on one line.  Only :func:`end_summary`, once the game
is over, reads every player's view: it shows what the end made public and
how the score was made.
"""
from __future__ import annotations

import re
from typing import Callable

import pyspiel

_TOOLS = {"P": "pickaxe", "L": "lamp", "C": "cart"}
_FACES = {"n": "normal", "t": "trap", "N": "NUGGET", "?": "unknown"}


def _section(title: str) -> str:
    return f"== {title} " + "=" * max(3, 60 - len(title))


def _who(q: int, seat: int) -> str:
    """``P2``, or ``you`` for the seat."""
    return "you" if q == seat else f"P{q}"


def _players(text: str, seat: int) -> str:
    """Engine player names ``p2`` as ``P2``, the seat's as ``P0 (you)``."""
    def name(m: re.Match) -> str:
        q = int(m.group(1))
        if m.group(2):
            return f"P{q}#"
        return f"P{q} (you)" if q == seat else f"P{q}"
    return re.sub(r"\bp(\d+)\b(#)?", name, text)


_DIRS = "NESW"
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}


def _turned(m: re.Match) -> str:
    """``path N-E-W rotated`` -> ``path E-S-W (N-E-W turned)``: a card turned
    half round, named by the openings it then has."""
    kind, dirs = m.group(1), m.group(2)
    opens = sorted((_OPPOSITE[d] for d in dirs.split("-")), key=_DIRS.index)
    return f"{kind} {'-'.join(opens)} ({dirs} turned)"


def saboteur_text(text: str, seat: int) -> str:
    """A Saboteur engine line (event, move or view) for a person: turned cards
    by the openings they show, ``P2``/``P0 (you)``, plain gold wording."""
    text = re.sub(r"\b(path|dead end|stone) ([NESW](?:-[NESW])*) rotated\b", _turned, text)
    m = re.match(r"gold drawn for p(\d+): (\d+) card\(s\)((?: \d)*)(?:, next to p(\d+))?$",
                 text)
    if m:
        holder = _who(int(m.group(1)), seat)
        out = f"gold cards drawn: {holder} {'hold' if holder == 'you' else 'holds'} {m.group(2)}"
        if m.group(3):
            out += f" (worth{m.group(3)} nugget(s))"
        if m.group(4):
            out += f"; next to take one: {_who(int(m.group(4)), seat)}"
        return out
    m = re.match(r"(round \d+ won by \w+); saboteurs \[([\d, ]*)\]$", text)
    if m:
        sabs = [_who(int(q), seat) for q in m.group(2).split(",") if q.strip()]
        return f"{m.group(1)}; the saboteurs were: {', '.join(sabs) or 'nobody'}"
    m = re.match(r"gold: (\d+) nuggets$", text)
    if m:
        k = int(m.group(1))
        return f"your gold so far: {k} nugget{'' if k == 1 else 's'}"
    return _players(text, seat)


def render_gold_thief(obs: str, seat: int) -> str:
    """Gold Thief: every purse, hand size and goal count; own hand and goals;
    discards; the pending chain of answers (first play <- answers)."""
    lines = obs.splitlines()
    out = []
    head = re.match(r"P(\d+) \| turn (\d+) \| phase (\S+) \| active P(\d+) \| "
                    r"to move (\S+)", lines[0])
    if head:
        out.append(_section(f"Gold Thief: you are P{seat}"))
        if head.group(3) == "over":
            out.append(f"game over after turn {head.group(2)}")
        else:
            mover = head.group(5)
            who = "chance" if mover in ("-", "chance") else mover
            active = _who(int(head.group(4)), seat)
            whose = "your" if active == "you" else f"{active}'s"
            out.append(f"turn {head.group(2)}: {whose} turn; "
                       f"phase {head.group(3)}, to move: {who}")
    else:
        out.append(lines[0])
    rows = []
    rest = []
    for line in lines[1:]:
        m = re.match(r"P(\d+): gold (\d+), cards (\d+), goals down (\d+), up \[(.*)\]$", line)
        if m:
            q = int(m.group(1))
            name = f"P{q}" + (" (you)" if q == seat else "")
            rows.append(f"  {name:<9} {m.group(2):>4}  {m.group(3):>5}  {m.group(4):>10}  "
                        f"{m.group(5) or '-'}")
        else:
            rest.append(line)
    if rows:
        out.append(f"  {'player':<9} {'gold':>4}  {'cards':>5}  {'goals down':>10}  goals up")
        out.extend(rows)
    for line in rest:
        if line.startswith("Hand: "):
            out.append("your hand:  " + line[6:])
        elif line.startswith("Goals: "):
            out.append("your goals: " + line[7:] + "  (face down; reach one of the numbers)")
        elif line.startswith("Pending: "):
            out.append("pending chain (first play <- answers): "
                       + re.sub(rf"\bby P{seat}\b", "by you", line[9:]))
        else:
            out.append(line)
    return "\n".join(out)


SABOTEUR_LEGEND = ("maze: (x,y) = column x, row y; S start; + path; x dead end; "
                   "',' free cell next to the maze\n"
                   "goals: [?] not seen; seen by your map: [T] treasure, [N] stone N-E, "
                   "[W] stone N-W; turned up: T treasure, o stone")


LEGEND_LINES = frozenset(SABOTEUR_LEGEND.splitlines())


def _merge_maze_rows(lines: list[str]) -> list[str]:
    """The engine draws each maze row as three lines (openings up, the row,
    openings down); the lower line of a row and the upper line of the next
    show the same passages, so they are overlaid into one line (a maze of
    h rows takes 2h + 1 lines instead of 3h)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        is_gap = line.startswith("     ") and not line.strip(" |")
        if (is_gap and nxt is not None and nxt.startswith("     ")
                and not nxt.strip(" |") and out and re.match(r"^\s+-?\d+ ", out[-1])):
            width = max(len(line), len(nxt))
            out.append("".join(a if a != " " else b
                               for a, b in zip(line.ljust(width), nxt.ljust(width))))
            i += 2
            continue
        out.append(line)
        i += 1
    return out


def render_saboteur(obs: str, seat: int) -> str:
    """Saboteur: the maze as a grid with coordinates (x, y), own role,
    hand and known goals, every player's broken tools, hand sizes and gold."""
    lines = _merge_maze_rows(obs.splitlines())
    out = [_section(f"Saboteur: you are P{seat}")]
    for line in lines:
        head = re.match(r"round (\d+)/(\d+) phase (\S+) to move p(\d+)$", line)
        if head:
            if head.group(3) == "over":
                out.append(f"game over after round {head.group(1)} of {head.group(2)}")
            else:
                out.append(f"round {head.group(1)} of {head.group(2)}, phase {head.group(3)},"
                           f" to move: {_who(int(head.group(4)), seat)}")
        elif line.startswith("broken: "):
            parts = []
            for item in line[8:].split():
                who, _, tools = item.partition(":")
                names = [_TOOLS.get(t, t) for t in tools if t != "-"]
                parts.append(f"{_players(who, seat)}: {', '.join(names) if names else 'nothing'}")
            out.append("broken tools: " + "; ".join(parts))
        elif line.startswith("goals: "):
            out.append("goal cards (top to bottom; ? = not seen): " + line[7:])
        elif line.startswith("hand: "):
            out.append("your hand: " + (line[6:] or "-"))
        elif line.startswith("roles: "):
            names = {"s": "saboteur", "g": "gold-digger"}
            out.append("roles: " + ", ".join(f"{_players(f'p{q}', seat)} {names.get(r, r)}"
                                             for q, r in enumerate(line[7:].split())))
        elif line.startswith("hand sizes: "):
            m = re.match(r"hand sizes: ([\d ]+) deck (\d+)$", line)
            if m:
                sizes = m.group(1).split()
                out.append("cards in hand: " + ", ".join(f"P{q} {k}" for q, k in
                                                         enumerate(sizes))
                           + f"; deck {m.group(2)}")
            else:
                out.append(line)
        elif line.startswith("you p"):
            out.append(_players(line, seat).replace(f"you P{seat} (you):", "your role:"))
        else:
            out.append(saboteur_text(line, seat))
    out.append(SABOTEUR_LEGEND)
    return "\n".join(out)


def _ardillas_token(tok: str) -> str:
    """``p1#3:?^`` -> ``p1#3:??^``: ``??`` a kind unknown to the seat, ``^``
    face up in a pile, ``(down)`` face down in a nest (as in the rules doc)."""
    up = tok.endswith("^")
    tok = tok.rstrip("^")
    down = tok.endswith("(down)")
    if down:
        tok = tok[: -len("(down)")]
    owner, _, kind = tok.partition(":")
    if owner.startswith("p"):
        owner = "P" + owner[1:]
    text = f"{owner}:{'??' if kind == '?' else kind}"
    if up:
        text += "^"
    if down:
        text += "(down)"
    return text


def render_ardillas_del_bosque(obs: str, seat: int) -> str:
    """Ardillas del Bosque: each wood's piles top first with each token's
    owner and kind when the seat knows it, every nest, the seat's hand."""
    lines = obs.splitlines()
    out = [_section(f"Ardillas del Bosque: you are P{seat}")]
    head = re.match(r"p(\d+) phase=(\S+) cur=(\S+) hand=(\S*)(.*)$", lines[0])
    if head:
        cur = head.group(3)
        who = ("you" if cur == f"p{seat}" else
               ("chance" if cur.startswith("p-") else _players(cur, seat)))
        out.append("game over" if head.group(2) == "end"
                   else f"phase {head.group(2)}, to move: {who}")
        hand = head.group(4)
        out.append("your hand: " + (f"{hand} token(s) still to draw" if hand.isdigit()
                                    else (hand.replace(",", ", ") or "-")))
        if head.group(5).strip():
            out.append(_players(head.group(5).strip().replace("holding=", "holding: "), seat))
    else:
        out.append(lines[0])
    woods, nests = [], []
    for line in lines[1:]:
        m = re.match(r"h(\d+)\(([^)]*)\): ?(.*)$", line)
        n = re.match(r"nest p(\d+)( \[out\])?: ?(.*)$", line)
        if m:
            cards = [_ardillas_token(t) for t in m.group(3).split()]
            woods.append(f"  h{m.group(1)} {m.group(2):<13} "
                         + (" ".join(cards) if cards else "(empty)"))
        elif n:
            q = int(n.group(1))
            cards = [_ardillas_token(t) for t in n.group(3).split()]
            name = f"P{q}" + (" (you)" if q == seat else "") + (" [out]" if n.group(2) else "")
            nests.append(f"  {name:<9} " + (" ".join(cards) if cards else "(empty)"))
        else:
            out.append(line)
    if woods:
        out.append("woods (each pile top token first; owner#n:kind, ?? unknown to you, "
                   "^ face up):")
        out.extend(woods)
    if nests:
        out.append("nests:")
        out.extend(nests)
    return "\n".join(out)


def render_gold_nugget(obs: str, seat: int) -> str:
    """Gold Nugget: day and time of day, the white-feather holder, every
    animal's lair (stones as the seat knows them), feathers, own time card
    and sleep state, the seat's hand and victory card, the nest."""
    lines = obs.splitlines()
    out = [_section(f"Gold Nugget: you are P{seat}")]
    head = re.match(r"p(\d+) day (\d+)/(\d+) (\S+) phase=(.*) holder=p(\d+)$", lines[0])
    if head:
        day, days, phase = int(head.group(2)), int(head.group(3)), head.group(5)
        holder = _who(int(head.group(6)), seat)
        if phase == "game over":
            out.append("game over")
        elif day > days:
            out.append(f"the Raven has arrived (after day {days}): abilities are off; "
                       f"phase {phase}; white feather: {holder}")
        else:
            out.append(f"day {day} of {days}, time of day: {head.group(4)}; "
                       f"phase {phase}; white feather: {holder}")
    else:
        out.append(lines[0])
    rows = []
    for line in lines[1:]:
        m = re.match(r"p(\d+) (.+?) time=(\S+) (asleep )?(out )?feathers=(\d+) cards=(\d+) "
                     r"lair=\[(.*)\]$", line)
        if m:
            q = int(m.group(1))
            name = f"P{q}" + (" (you)" if q == seat else "")
            state = "asleep" if m.group(4) else "awake"
            if m.group(5):
                state += ", out"
            stones = " ".join(_FACES.get(c, c) for c in m.group(8)) or "(none)"
            rows.append(f"  {name:<9} {m.group(2):<10} sleeps at {m.group(3):<9} {state:<11} "
                        f"{m.group(6):>8}  {m.group(7):>5}  {stones}")
        elif line.startswith("hand: "):
            hand = ", ".join(re.sub(r"x(\d+)$", r" x\1", part)
                             for part in line[6:].split(",") if part)
            out.append("your hand: " + (hand or "-"))
        elif line.startswith("nest: "):
            rows.append(("nest", line))
        else:
            out.append(line)
    table = [r for r in rows if isinstance(r, str)]
    if table:
        out.append(f"  {'player':<9} {'animal':<10} {'time card':<19} {'state':<11} "
                   f"{'feathers':>8}  {'cards':>5}  lair stones")
        out.extend(table)
    out.extend(r[1] for r in rows if not isinstance(r, str))
    return "\n".join(out)


def gold_thief_text(text: str, seat: int) -> str:
    """A Gold Thief engine line for a person: third-person verbs for the
    other players (``P1 receives a goal``), ``You play first`` for the seat."""
    m = re.match(rf"P{seat} plays first$", text)
    if m:
        return "You play first"
    text = re.sub(r"\bby You\b", "by you", text)
    return re.sub(r"^(P\d+) (receive|draw|start|end|flip|play|give)\b", r"\1 \2s", text)


def ardillas_text(text: str, seat: int) -> str:
    """An Ardillas engine line for a person: ``P2``/``P0 (you)``, tokens
    rather than cards."""
    m = re.match(r"index (\d+)$", text)
    if m:
        return f"the token at depth {m.group(1)} (0 = top)"
    m = re.match(r"chance: draw (\w+)$", text)
    if m:              # only the drawer sees the kind: the seat's own draw
        return f"you draw a token from your hand: {m.group(1)}"
    return _players(text, seat).replace("card(s)", "token(s)")


def gold_nugget_text(text: str, seat: int) -> str:
    """A Gold Nugget engine line for a person: ``P2``/``P0 (you)``."""
    return _players(text, seat)


TEXTS: dict[str, Callable[[str, int], str]] = {
    "gold_thief": gold_thief_text,
    "saboteur": saboteur_text,
    "ardillas_del_bosque": ardillas_text,
    "gold_nugget": gold_nugget_text,
}


def event_text(game: str, line: str, seat: int) -> str:
    """One announced event line (from the seat's information-state log) in
    the words of the play screens; unchanged for other games."""
    rewrite = TEXTS.get(game)
    return rewrite(line, seat) if rewrite else line


_GN_OPTIONS = {
    "examine": ("examine the stone", "don't examine the stone"),
    "suspicion": ("reveal all your stones", "take 2 black feathers"),
}


# The active abilities (docs/rules/gold_nugget.md, the animal catalog).
_GN_ABILITY = {
    "Fox": "swap one of your stones with another animal's; only you see",
    "Owl": "examine one stone in any lair",
    "Magpie": "steal 1 stone from the nest",
    "Mole": "give one of your stones to the nest, then steal 1 from it",
    "Badger": "give one of your black feathers to an animal",
}

_GN_PASS = {
    "Meddling": "end your meddling",
    "instant reactions": "pass (play no instant)",
    "Hello! discard": "done discarding",
    "Raven: face-down cards": "pass (play no card)",
}


_GN_DECISIONS = {
    "examine": "examine the stone you received?",
    "beg": "give a card, a stone or a black feather",
    "choose its stone": "choose one of its stones",
    "steal from anywhere": "choose a stone of a lair or the nest",
    "choose your stone": "choose one of your stones",
    "suspicion": "reveal all your stones or take 2 black feathers",
    "place": "choose where the new stone goes (the stones from there on move one place right)",
}


def decision_title(state: pyspiel.State, seat: int) -> str:
    """What the seat's pending decision is about, when the moves alone do
    not say (Gold Nugget's effects: ``Peek: choose a lair stone``); else ""."""
    if state.get_game().get_type().short_name != "gold_nugget":
        return ""
    view = state.engine.player_view(seat)
    if not view["decision"] or (view["phase"] != "effect" and view["decision"] != "place"):
        return ""
    phrase = _GN_DECISIONS.get(view["decision"], view["decision"])
    return f"{view['effect']}: {phrase}" if view["effect"] else phrase[0].upper() + phrase[1:]


def move_labels(state: pyspiel.State, seat: int, legal: list[int]) -> list[str]:
    """The seat's legal moves named for a person: the engine's action text
    through :func:`event_text`; Gold Nugget's two-way choices named by the
    decision they answer (from the seat's ``player_view``)."""
    game = state.get_game().get_type().short_name
    names = [event_text(game, state.action_to_string(seat, a), seat) for a in legal]
    if game == "ardillas_del_bosque":
        view = state.engine.player_view(seat)
        per_board = max(1, len(view.piles) // max(1, len(view.board_animals)))
        verb = ("hide it on" if view.phase.startswith("autumn") else
                "take the top of" if view.phase == "winter-draw" else "pile")
        for k, name in enumerate(names):
            m = re.match(r"pile h(\d+)$", name)
            if m:
                h = int(m.group(1))
                animal = (view.board_animals[h // per_board]
                          if h // per_board < len(view.board_animals) else "?")
                names[k] = f"{verb} h{h} ({animal})"
    if game == "gold_nugget":
        view = state.engine.player_view(seat)
        for k, name in enumerate(names):
            if name == "pass/end" and view["phase"] in _GN_PASS:
                names[k] = _GN_PASS[view["phase"]]
            elif name == "sleep" and view["holder"] == seat:
                names[k] = "go to sleep (the white feather passes on)"
            elif name == "use ability" and view["animals"][seat] in _GN_ABILITY:
                animal = view["animals"][seat]
                names[k] = f"use the {animal}'s ability: {_GN_ABILITY[animal]}"
            elif name == "meddle":
                names[k] = "stay awake and meddle"
            elif name.startswith("discard/give "):
                card = name[len("discard/give "):]
                names[k] = (f"give {card}" if view["decision"] == "beg"
                            else f"discard {card}")
            m = re.match(r"stone [pP](\d+)#(\d+)$", name)
            if view["decision"] == "place" and m:
                names[k] = f"put it in slot #{m.group(2)}"
                continue
            m = re.match(r"option ([01]) \(", name)
            if not m:
                continue
            i = int(m.group(1))
            if view["phase"] == "choose animal" and i < len(view.get("offered") or ()):
                names[k] = f"be the {view['offered'][i]}"
            elif view["decision"] in _GN_OPTIONS:
                names[k] = _GN_OPTIONS[view["decision"]][i]
    return names


# The word after which a move names its target: moves that differ only in
# what follows it are listed on one line ("Thief on: 2 P1  3 P2  4 P3").
_TARGET = re.compile(r"^(.*\b(?:at|of|on|to|discarding|goal|stone|play|recycle|pile|"
                     r"discard|give|choose|hides?))\s(\S.*)$")


def format_moves(names: list[str], width: int = 100) -> list[str]:
    """The numbered move list; two or more consecutive moves sharing all
    but their target share a line, so long lists (Saboteur's placements)
    fit a screen.  Numbers stay those of the single moves."""
    lines: list[str] = []
    k = 0
    while k < len(names):
        m = _TARGET.match(names[k])
        j = k + 1
        if m:
            while j < len(names):
                mj = _TARGET.match(names[j])
                if not mj or mj.group(1) != m.group(1):
                    break
                j += 1
        if j - k < 2:
            lines.append(f"  {k + 1:>7}. {names[k]}")
            k += 1
            continue
        head = f"  {f'{k + 1}-{j}':>7}. {m.group(1)}:"
        line = head
        for i in range(k, j):
            item = f"  {i + 1}) {_TARGET.match(names[i]).group(2)}"
            if len(line) + len(item) > width and line != head:
                lines.append(line)
                line = " " * len(head)
            line += item
        lines.append(line)
        k = j
    return lines


def _goal(goal_numbers: tuple, g: int) -> str:
    a, b = goal_numbers[g]
    return f"[{a} or {b}]"


def end_gold_thief(state: pyspiel.State, seat: int) -> list[str]:
    """Every purse and goal card, face down ones included, and the winner."""
    n = state.num_players()
    views = [state.engine.player_view(q) for q in range(n)]
    nums = views[0].goal_numbers
    out = ["Every goal card, now shown (flipped = scored):"]
    for q, v in enumerate(views):
        up = " ".join(_goal(nums, g) for g in v.face_up[q]) or "-"
        down = " ".join(_goal(nums, g) for g in v.goals_down) or "-"
        out.append(f"  {_who(q, seat):<4} {v.gold[q]:>3} gold; flipped {up}; "
                   f"face down {down}")
    w = views[0].winner
    goal = state.get_game().get_parameters().get("goals_to_win", 3)
    if w >= 0:
        out.append(f"{_who(w, seat)} flipped goal {goal} of {goal} first and "
                   f"{'win' if w == seat else 'wins'}: +1, the others share -1.")
    else:
        out.append("Nobody flipped enough goals before the turn limit: every return is 0.")
    return out


def end_saboteur(state: pyspiel.State, seat: int) -> list[str]:
    """Roles of the last round, who won each round, every player's gold."""
    n = state.num_players()
    views = [state.engine.player_view(q) for q in range(n)]
    names = ("gold-digger", "saboteur")
    out = ["Rounds won: " + ", ".join(f"{r + 1} {w}"
                                      for r, w in enumerate(views[0]["round_winners"]))]
    out.append("Gold of every player (nuggets from gold cards + as a saboteur), "
               "now shown; roles of the last round:")
    for q, v in enumerate(views):
        cards = v["gold"]
        worth = cards[0] + 2 * cards[1] + 3 * cards[2]
        role = names[v["role"]] if v["role"] >= 0 else "-"
        out.append(f"  {_who(q, seat):<4} {role:<12} {v['nuggets']:>2} nuggets "
                   f"({worth} from cards {cards[0]}x1 {cards[1]}x2 {cards[2]}x3, "
                   f"{v['saboteur_gold'][q]} as a saboteur)")
    top = max(v["nuggets"] for v in views)
    out.append("Most nuggets wins: " + ", ".join(_who(q, seat) for q, v in enumerate(views)
                                                if v["nuggets"] == top) + f" ({top}).")
    return out


def end_ardillas(state: pyspiel.State, seat: int) -> list[str]:
    """Every nest with its tokens shown, what the poos cancelled, the groups
    compared."""
    e = state.engine
    n = state.num_players()
    nests = e.player_view(seat).nests
    groups = e.final_groups()
    active = e.player_view(seat).active
    nuts = ("walnut", "almond", "hazelnut", "peanut", "chestnut")
    out = ["Every nest, face-down tokens now shown; each poo cancels one nut of the "
           "smallest group:"]
    for q in range(n):
        kinds = [t.kind for t in nests[q]]
        counts = {k: kinds.count(k) for k in nuts if k in kinds}
        poo = kinds.count("poo")
        have = ", ".join(f"{k} x{c}" for k, c in counts.items()) or "no nuts"
        kept = "-".join(str(c) for c in groups[q][0] if c) or "none"
        text = f"  {_who(q, seat):<4} {have}"
        if poo:
            text += f"; {poo} poo cancel{'s' if poo == 1 else ''} {poo} nut(s)"
        text += f" -> groups {kept}"
        if not active[q]:
            text += " (left the game: loses)"
        out.append(text)
    out.append("Groups are compared largest first, then the next...; a full tie goes to "
               "the tied player who moved last.")
    return out


def end_gold_nugget(state: pyspiel.State, seat: int) -> list[str]:
    """The stone each animal grabbed, where the Gold Nugget was, the victory
    cards played, the winners."""
    e = state.engine
    n = state.num_players()
    v = e.player_view(seat)
    out = ["What every animal grabbed when the Raven came:"]
    for q in range(n):
        stones = " ".join(v["lairs"][q]) or "nothing"
        animal = v["animals"][q] or "?"
        card = v["victory_played"][q]
        out.append(f"  {_who(q, seat):<4} {animal:<10} {stones}"
                   + (f"; victory card {card}" if card else ""))
    faces = e.stone_faces()
    nugget = [s for s, f in enumerate(faces) if f == 2]
    holder = [q for q, lair in enumerate(e.lairs()) if nugget and nugget[0] in lair]
    mask = e.info()["winners"]
    winners = [q for q in range(n) if mask >> q & 1]
    if holder:
        out.append(f"The Gold Nugget was grabbed by {_who(holder[0], seat)}.")
    else:
        out.append("Nobody grabbed the Gold Nugget.")
    out.append("Winners: " + ", ".join(_who(q, seat) for q in winners) if winners
               else "The Raven wins: every return is 0.")
    return out


ENDINGS: dict[str, Callable[[pyspiel.State, int], list[str]]] = {
    "gold_thief": end_gold_thief,
    "saboteur": end_saboteur,
    "ardillas_del_bosque": end_ardillas,
    "gold_nugget": end_gold_nugget,
}


def end_summary(state: pyspiel.State, seat: int) -> list[str]:
    """How a finished game was scored, showing what became public at its
    end (the game is over, so the full state may be read); empty for other
    games."""
    if not state.is_terminal():
        raise ValueError("end_summary needs a finished game")
    ending = ENDINGS.get(state.get_game().get_type().short_name)
    return ending(state, seat) if ending else []


RENDERERS: dict[str, Callable[[str, int], str]] = {
    "gold_thief": render_gold_thief,
    "saboteur": render_saboteur,
    "ardillas_del_bosque": render_ardillas_del_bosque,
    "gold_nugget": render_gold_nugget,
}


def render_view(state: pyspiel.State, seat: int) -> str:
    """The seat's view of ``state`` for a person (from its observation string)."""
    obs = state.observation_string(seat)
    render = RENDERERS.get(state.get_game().get_type().short_name)
    return render(obs, seat) if render else obs


def new_events(before: str, after: str) -> list[str] | None:
    """Lines the information-state log gained from ``before`` to ``after``.

    ``None`` when ``after`` does not extend ``before`` line by line (not an
    event log); an empty list when the seat observed nothing.
    """
    if after == before:
        return []
    if not after.startswith(before + "\n"):
        return None
    return after[len(before) + 1:].splitlines()
