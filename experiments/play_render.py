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
log of exactly what the seat observed) gained with the last action.
"""
from __future__ import annotations

import re
from typing import Callable

import pyspiel

_TOOLS = {"P": "pickaxe", "L": "lamp", "C": "cart"}
_FACES = {"n": "normal", "t": "trap", "N": "NUGGET", "?": "unknown"}


def _section(title: str) -> str:
    return f"== {title} " + "=" * max(3, 60 - len(title))


def render_gold_thief(obs: str, seat: int) -> str:
    """Gold Thief: every purse, hand size and goal count; own hand and goals;
    discards; the pending chain of answers (first play <- answers)."""
    lines = obs.splitlines()
    out = []
    head = re.match(r"P(\d+) \| turn (\d+) \| phase (\S+) \| to move (-?\d+)", lines[0])
    if head:
        mover = int(head.group(4))
        who = "chance" if mover < 0 else ("you" if mover == seat else f"P{mover}")
        out.append(_section(f"Gold Thief: you are P{seat}"))
        out.append(f"turn {head.group(2)}, phase {head.group(3)}, to move: {who}")
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
            out.append("pending chain (first play <- answers): " + line[9:])
        else:
            out.append(line)
    return "\n".join(out)


def render_saboteur(obs: str, seat: int) -> str:
    """Saboteur: the maze as a grid with coordinates (x, y), own role,
    hand and known goals, every player's broken tools, hand sizes and gold."""
    lines = obs.splitlines()
    out = [_section(f"Saboteur: you are p{seat}")]
    for line in lines:
        if line.startswith("broken: "):
            parts = []
            for item in line[8:].split():
                who, _, tools = item.partition(":")
                names = [_TOOLS.get(t, t) for t in tools if t != "-"]
                mark = " (you)" if who == f"p{seat}" else ""
                parts.append(f"{who}{mark}: {', '.join(names) if names else 'nothing'}")
            out.append("broken tools: " + "; ".join(parts))
        elif line.startswith("goals: "):
            out.append("goal cards (left to right, top to bottom; ? = not seen): " + line[7:])
        elif line.startswith("hand: "):
            out.append("your hand: " + (line[6:] or "-"))
        else:
            out.append(line)
    out.append("maze: a cell (x,y) is column x, row y; S start, [?] a goal card you have "
               "not seen, x a dead end, ',' a free cell next to the maze")
    return "\n".join(out)


def _ardillas_token(tok: str) -> str:
    """``p1#3:?^`` -> ``p1's #3 (hidden, face up)``-like short text."""
    up = tok.endswith("^")
    tok = tok.rstrip("^")
    down = tok.endswith("(down)")
    if down:
        tok = tok[: -len("(down)")]
    owner, _, kind = tok.partition(":")
    text = f"{owner}:{'??' if kind == '?' else kind}"
    if up:
        text += "(up)"
    if down:
        text += "(down)"
    return text


def render_ardillas_del_bosque(obs: str, seat: int) -> str:
    """Ardillas del Bosque: each wood's piles top first with each card's
    owner and kind when the seat knows it, every nest, the seat's hand."""
    lines = obs.splitlines()
    out = [_section(f"Ardillas del Bosque: you are p{seat}")]
    head = re.match(r"p(\d+) phase=(\S+) cur=(\S+) hand=(\S*)(.*)$", lines[0])
    if head:
        cur = head.group(3)
        who = "you" if cur == f"p{seat}" else ("chance" if cur.startswith("p-") else cur)
        out.append(f"phase {head.group(2)}, to move: {who}")
        hand = head.group(4)
        out.append("your hand: " + (f"{hand} card(s)" if hand.isdigit()
                                    else (hand.replace(",", ", ") or "-")))
        if head.group(5).strip():
            out.append(head.group(5).strip().replace("holding=", "holding: "))
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
            name = f"p{q}" + (" (you)" if q == seat else "") + (" [out]" if n.group(2) else "")
            nests.append(f"  {name:<9} " + (" ".join(cards) if cards else "(empty)"))
        else:
            out.append(line)
    if woods:
        out.append("woods (each pile top card first; owner#n:kind, ?? = unknown to you):")
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
    out = [_section(f"Gold Nugget: you are p{seat}")]
    head = re.match(r"p(\d+) day (\d+)/(\d+) (\S+) phase=(.*) holder=p(\d+)$", lines[0])
    if head:
        out.append(f"day {head.group(2)} of {head.group(3)}, time of day: {head.group(4)}; "
                   f"phase {head.group(5)}; white feather: p{head.group(6)}")
    else:
        out.append(lines[0])
    rows = []
    for line in lines[1:]:
        m = re.match(r"p(\d+) (.+?) time=(\S+) (asleep )?(out )?feathers=(\d+) cards=(\d+) "
                     r"lair=\[(.*)\]$", line)
        if m:
            q = int(m.group(1))
            name = f"p{q}" + (" (you)" if q == seat else "")
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
