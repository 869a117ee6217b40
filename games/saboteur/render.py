"""Saboteur in a terminal: what one seat sees (``GameSpec.renderer``).

The screen is written from the seat's :class:`~src_cy.saboteur.view.SaboteurView`
(``spec.player_view``): the maze as a grid with coordinates (x, y), drawn
from the view's cards, frontier and goals (a goal shows only what the seat
has seen of it), the seat's role, hand and known goals, every player's
broken tools, hand sizes and the gold.  Each maze row takes two lines: the
row, then the passages between it and the next.  Events and moves are the
engine's lines with players named ``P2``/``P0 (you)``, a turned card named
by the openings it shows and plain gold wording
(:meth:`SaboteurRenderer.event_text`).  The end summary shows every
player's gold and last role.
"""
from __future__ import annotations

import re

import pyspiel

from games._adapter import view_of
from games.interfaces import Renderer, name_players, screen_title, seat_label, seat_name
from src_cy.saboteur.engine import GOAL_NAMES, KIND_NAMES, ROLE_NAMES, TOOL_NAMES
from src_cy.saboteur.view import SaboteurView

LEGEND = ("maze: (x,y) = column x, row y; S start; + path; x dead end; "
          "',' free cell next to the maze",
          "goals: [?] not seen; seen by your map: [T] treasure, [N] stone N-E, "
          "[W] stone N-W; turned up: T treasure, o stone")

_DIRS = "NESW"
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
# Edge bits of a card (``board`` values' third field): N 1, E 2, S 4, W 8.
_N, _E, _S, _W = 1, 2, 4, 8


def _turned(m: re.Match) -> str:
    """``path N-E-W rotated`` -> ``path E-S-W (N-E-W turned)``: a card turned
    half round, named by the openings it then has."""
    kind, dirs = m.group(1), m.group(2)
    opens = sorted((_OPPOSITE[d] for d in dirs.split("-")), key=_DIRS.index)
    return f"{kind} {'-'.join(opens)} ({dirs} turned)"


def saboteur_text(text: str, seat: int) -> str:
    """A Saboteur engine line (event or move) for a person: turned cards by
    the openings they show, ``P2``/``P0 (you)``, the saboteurs of a round."""
    text = re.sub(r"\b(path|dead end|stone) ([NESW](?:-[NESW])*) rotated\b", _turned, text)
    m = re.match(r"(round \d+ won by \w+); saboteurs \[([\d, ]*)\]$", text)
    if m:
        sabs = [seat_name(int(q), seat) for q in m.group(2).split(",") if q.strip()]
        return f"{m.group(1)}; the saboteurs were: {', '.join(sabs) or 'nobody'}"
    return name_players(text, seat)


def _cell(v: SaboteurView, x: int, y: int, goals: dict) -> tuple[str, str, str]:
    """The three text rows (openings up, the card, openings down) of cell (x, y)."""
    g = goals.get((x, y))
    if g is not None and not v.goals_up[g]:
        return "   ", f"[{'?TNW'[v.known_goals[g] + 1]}]", "   "
    card = v.board.get((x, y))
    if card is None:
        return "   ", f" {',' if (x, y) in v.frontier else '.'} ", "   "
    edges = card[2]
    if (x, y) == (0, 0):
        c = "S"
    elif g is not None:
        c = "T" if v.known_goals[g] == 0 else "o"
    else:
        c = "+" if card[4] else "x"
    return (" " + ("|" if edges & _N else " ") + " ",
            ("-" if edges & _W else " ") + c + ("-" if edges & _E else " "),
            " " + ("|" if edges & _S else " ") + " ")


def _overlay(lower: str, upper: str) -> str:
    """The passages below one maze row and above the next, on one line."""
    return "".join(a if a != " " else b for a, b in zip(lower, upper))


def maze_lines(v: SaboteurView) -> list[str]:
    """The maze as the seat knows it: a coordinate header, then per row the
    row and the passages to the next (the first row's upward openings too)."""
    goals = {(v.goal_distance, 2 * g - 2): g for g in range(3)}
    cells = list(v.board) + list(goals)
    r = v.grid_radius
    x0, x1 = max(min(x for x, _ in cells) - 1, -r), min(max(x for x, _ in cells) + 1, r)
    y0, y1 = max(min(y for _, y in cells) - 1, -r), min(max(y for _, y in cells) + 1, r)
    out = ["     " + "".join(f"{x:^3d}" for x in range(x0, x1 + 1))]
    below = None
    for y in range(y0, y1 + 1):
        up, row, down = ("".join(part) for part in
                         zip(*(_cell(v, x, y, goals) for x in range(x0, x1 + 1))))
        out.append("     " + (up if below is None else _overlay(below, up)))
        out.append(f"{y:>4d} " + row)
        below = down
    out.append("     " + below)
    return out


def _gold_drawn(v: SaboteurView) -> str:
    seat = v.player
    holder = seat_name(v.gold_holder, seat)
    out = f"gold cards drawn: {holder} {'hold' if holder == 'you' else 'holds'} " \
          f"{v.gold_drawn_count}"
    worth = [str(k + 1) for k in range(3) for _ in range((v.held_gold or (0, 0, 0))[k])]
    if worth:
        out += f" (worth {' '.join(worth)} nugget(s))"
    if v.gold_next >= 0:
        out += f"; next to take one: {seat_name(v.gold_next, seat)}"
    return out


def screen_of(v: SaboteurView) -> str:
    """The seat's screen from its view."""
    seat, n = v.player, v.num_players
    if v.phase == "over":
        head = f"game over after round {v.round + 1} of {v.rounds}"
    else:
        mover = seat_name(v.to_move, seat) if v.to_move >= 0 else "chance"
        head = f"round {v.round + 1} of {v.rounds}, phase {v.phase}, to move: {mover}"
    out = [screen_title(f"Saboteur: you are P{seat}"), head] + maze_lines(v)
    out.append("your role: " + (ROLE_NAMES[v.role] if v.role >= 0 else "no role yet"))
    if v.roles is not None:
        out.append("roles: " + ", ".join(f"{seat_label(q, seat)} {ROLE_NAMES[r]}"
                                         for q, r in enumerate(v.roles)))
    out.append("your hand: " + (", ".join(f"{KIND_NAMES[k]} x{c}"
                                          for k, c in enumerate(v.hand) if c) or "-"))
    out.append("goal cards (top to bottom; ? = not seen): "
               + " ".join(GOAL_NAMES[g] if g >= 0 else "?" for g in v.known_goals))
    out.append("broken tools: " + "; ".join(
        f"{seat_label(q, seat)}: "
        + (", ".join(TOOL_NAMES[t] for t in range(3) if v.broken[q][t]) or "nothing")
        for q in range(n)))
    out.append("cards in hand: " + ", ".join(f"P{q} {k}" for q, k in enumerate(v.hand_sizes))
               + f"; deck {v.deck_size}")
    out.append(f"your gold so far: {v.nuggets} nugget{'' if v.nuggets == 1 else 's'}")
    if v.gold_holder >= 0:
        out.append(_gold_drawn(v))
    if v.known_gold:
        out.append("gold handed out: " + " ".join(f"{seat_label(q, seat)}:{val + 1}"
                                                  for q, val in v.known_gold))
    out.extend(LEGEND)
    return "\n".join(out)


class SaboteurRenderer(Renderer):
    """Saboteur's screens (see the module docstring)."""

    legend = frozenset(LEGEND)

    def screen(self, state: pyspiel.State, seat: int) -> str:
        return screen_of(view_of(state, seat))

    def event_text(self, line: str, seat: int) -> str:
        return saboteur_text(line, seat)

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        """Roles of the last round, who won each round, every player's gold."""
        views = [view_of(state, q) for q in range(state.num_players())]
        out = ["Rounds won: " + ", ".join(f"{r + 1} {w}"
                                          for r, w in enumerate(views[0].round_winners))]
        out.append("Gold of every player (nuggets from gold cards + as a saboteur), "
                   "now shown; roles of the last round:")
        for q, v in enumerate(views):
            cards = v.gold
            worth = cards[0] + 2 * cards[1] + 3 * cards[2]
            role = ROLE_NAMES[v.role] if v.role >= 0 else "-"
            out.append(f"  {seat_name(q, seat):<4} {role:<12} {v.nuggets:>2} nuggets "
                       f"({worth} from cards {cards[0]}x1 {cards[1]}x2 {cards[2]}x3, "
                       f"{v.saboteur_gold[q]} as a saboteur)")
        top = max(v.nuggets for v in views)
        out.append("Most nuggets wins: " + ", ".join(seat_name(q, seat)
                                                    for q, v in enumerate(views)
                                                    if v.nuggets == top) + f" ({top}).")
        return out
