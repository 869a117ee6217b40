"""Ardillas del Bosque in a terminal: what one seat sees (``GameSpec.renderer``).

The screen is written from the seat's :class:`~src_cy.ardillas_del_bosque.view.ArdillasView`
(``spec.player_view``): each wood's piles top first, every token with its
owner and its kind where the seat knows it, every nest, the seat's hand and
the token it is hiding.  Events and moves are the engine's lines with
players named ``P2``/``P0 (you)`` and tokens rather than cards
(:meth:`ArdillasRenderer.event_text`); a pile move names the wood's animal.
The end summary shows every nest and the groups the score compares.
"""
from __future__ import annotations

import re
from typing import Sequence

import pyspiel

from games._adapter import view_of
from games.interfaces import Renderer, name_players, screen_title, seat_label, seat_name
from src_cy.ardillas_del_bosque.view import ArdillasView, Token

_NUTS = ("walnut", "almond", "hazelnut", "peanut", "chestnut")


def token_text(t: Token, num_players: int, where: str = "") -> str:
    """``P1#3:walnut``: owner (``z0`` a sleepyhead), the owner's ordinal, the
    kind (``??`` unknown to the seat); ``where="pile"`` marks a face-up token
    ``^``, ``where="nest"`` a face-down one ``(down)``."""
    owner = f"P{t.owner}" if t.owner < num_players else f"z{t.owner - num_players}"
    text = f"{owner}#{t.ordinal}:{t.kind if t.kind is not None else '??'}"
    if where == "pile" and t.face_up:
        text += "^"
    if where == "nest" and not t.face_up:
        text += "(down)"
    return text


def _board_of(v: ArdillasView, h: int) -> str | None:
    """The animal of the board hiding place ``h`` lies on (None: not drawn yet)."""
    per_board = max(1, len(v.piles) // max(1, len(v.board_animals)))
    return v.board_animals[h // per_board] if h // per_board < len(v.board_animals) else None


def screen_of(v: ArdillasView) -> str:
    """The seat's screen from its view."""
    seat, n = v.player, len(v.nests)
    out = [screen_title(f"Ardillas del Bosque: you are P{seat}")]
    if v.phase == "end":
        out.append("game over")
    else:
        who = "you" if v.turn == seat else ("chance" if v.turn < 0 else f"P{v.turn}")
        out.append(f"phase {v.phase}, to move: {who}")
    if v.night:
        out.append("your hand: " + (", ".join(v.hand) or "-"))
    else:
        out.append(f"your hand: {len(v.hand)} token(s) still to draw")
    if v.holding is not None:
        out.append("holding: " + token_text(v.holding, n))
    out.append("woods (each pile top token first; owner#n:kind, ?? unknown to you, "
               "^ face up):")
    for h, pile in enumerate(v.piles):
        out.append(f"  h{h} {_board_of(v, h) or '?':<13} "
                   + (" ".join(token_text(t, n, "pile") for t in pile) or "(empty)"))
    out.append("nests:")
    for q, nest in enumerate(v.nests):
        name = seat_label(q, seat) + ("" if v.active[q] else " [out]")
        out.append(f"  {name:<9} " + (" ".join(token_text(t, n, "nest") for t in nest)
                                      or "(empty)"))
    return "\n".join(out)


def ardillas_text(text: str, seat: int) -> str:
    """An Ardillas engine line (event or move) for a person: ``P2``/``P0
    (you)``, tokens rather than cards."""
    m = re.match(r"index (\d+)$", text)
    if m:
        return f"the token at depth {m.group(1)} (0 = top)"
    m = re.match(r"chance: draw (\w+)$", text)
    if m:              # only the drawer sees the kind: the seat's own draw
        return f"you draw a token from your hand: {m.group(1)}"
    return name_players(text, seat).replace("card(s)", "token(s)")


class ArdillasRenderer(Renderer):
    """Ardillas del Bosque's screens (see the module docstring)."""

    def screen(self, state: pyspiel.State, seat: int) -> str:
        return screen_of(view_of(state, seat))

    def event_text(self, line: str, seat: int) -> str:
        return ardillas_text(line, seat)

    def move_labels(self, state: pyspiel.State, seat: int, legal: Sequence[int]) -> list[str]:
        """A pile move says what it does now and names the wood's animal
        (``hide it on h3 (Lynx)``)."""
        names = super().move_labels(state, seat, legal)
        v = view_of(state, seat)
        verb = ("hide it on" if v.phase.startswith("autumn") else
                "take the top of" if v.phase == "winter-draw" else "pile")
        for k, name in enumerate(names):
            m = re.match(r"pile h(\d+)$", name)
            if m:
                h = int(m.group(1))
                names[k] = f"{verb} h{h} ({_board_of(v, h) or '?'})"
        return names

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        """Every nest with its tokens shown, what the poos cancelled, the
        groups compared."""
        v = view_of(state, seat)
        groups = state.engine.final_groups()
        out = ["Every nest, face-down tokens now shown; each poo cancels one nut of the "
               "smallest group:"]
        for q in range(state.num_players()):
            kinds = [t.kind for t in v.nests[q]]
            counts = {k: kinds.count(k) for k in _NUTS if k in kinds}
            poo = kinds.count("poo")
            have = ", ".join(f"{k} x{c}" for k, c in counts.items()) or "no nuts"
            kept = "-".join(str(c) for c in groups[q][0] if c) or "none"
            text = f"  {seat_name(q, seat):<4} {have}"
            if poo:
                text += f"; {poo} poo cancel{'s' if poo == 1 else ''} {poo} nut(s)"
            text += f" -> groups {kept}"
            if not v.active[q]:
                text += " (left the game: loses)"
            out.append(text)
        out.append("Groups are compared largest first, then the next...; a full tie goes to "
                   "the tied player who moved last.")
        return out
