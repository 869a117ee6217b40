"""Gold Thief in a terminal: what one seat sees (``GameSpec.renderer``).

The screen is written from the seat's :class:`~src_cy.gold_thief.view.GoldThiefView`
(``spec.player_view``): every purse, hand size and goal count, the seat's own
hand and face-down goals, what it knows of other hands, the discards and the
chain of plays waiting to resolve.  Events come from the seat's
information-state log, whose lines the engine words in the second person
for the seat (``You draw Thief``); :meth:`GoldThiefRenderer.event_text` gives
the other players third-person verbs.  The end summary shows every goal card,
face down ones included, once the game is over.
"""
from __future__ import annotations

import re

import pyspiel

from games._adapter import view_of
from games.interfaces import Renderer, screen_title, seat_label, seat_name
from src_cy.gold_thief.engine import CARD_NAMES, EFFECT_NAMES
from src_cy.gold_thief.view import GoldThiefView


def goal_text(numbers: tuple[tuple[int, int], ...], g: int, mark_twins: bool = True) -> str:
    """Goal card ``g`` as the engine prints it, ``[4 or 10]``, with ``#g``
    added when another card prints alike (unless ``mark_twins`` is False)."""
    a, b = numbers[g]
    twin = mark_twins and any(h != g and numbers[h] == numbers[g]
                              for h in range(len(numbers)))
    return f"[{a} or {b}]" + (f"#{g}" if twin else "")


def goals_text(numbers: tuple[tuple[int, int], ...], goals: tuple[int, ...],
               mark_twins: bool = True) -> str:
    """Goal cards ``goals`` (see :func:`goal_text`), or ``-`` for none."""
    return " ".join(goal_text(numbers, g, mark_twins) for g in goals) or "-"


def _cards(counts: tuple[int, ...]) -> str:
    return ", ".join(f"{CARD_NAMES[t]} {c}" for t, c in enumerate(counts) if c)


def _head(v: GoldThiefView) -> str:
    if v.phase == "over":
        return f"game over after turn {v.turn}"
    mover = "you" if v.to_move else (f"P{v.decider}" if v.decider >= 0 else "chance")
    active = seat_name(v.active, v.player)
    whose = "your" if active == "you" else f"{active}'s"
    return f"turn {v.turn}: {whose} turn; phase {v.phase}, to move: {mover}"


def _pending(v: GoldThiefView) -> str:
    """The chain of plays waiting to resolve, first play first."""
    return " <- ".join(f"{EFFECT_NAMES[kind]} by {seat_name(q, v.player)}"
                       + (" (cancelled)" if cancelled else "")
                       for kind, q, _victim, _beneficiary, cancelled in v.pending)


def screen_of(v: GoldThiefView) -> str:
    """The seat's screen from its view."""
    nums = v.goal_numbers
    out = [screen_title(f"Gold Thief: you are P{v.player}"), _head(v),
           f"  {'player':<9} {'gold':>4}  {'cards':>5}  {'goals down':>10}  goals up"]
    for q in range(v.num_players):
        name = seat_label(q, v.player)
        up = goals_text(nums, v.face_up[q])
        out.append(f"  {name:<9} {v.gold[q]:>4}  {v.hand_sizes[q]:>5}  "
                   f"{v.face_down_counts[q]:>10}  {up}")
    out.append("your hand:  " + (_cards(v.hand) or "-"))
    out.append("your goals: " + goals_text(nums, v.goals_down)
               + "  (face down; reach one of the numbers)")
    for q in range(v.num_players):
        if any(v.known_cards[q]):
            out.append(f"Known in P{q}'s hand: " + _cards(v.known_cards[q]))
    out.append(f"Deck {v.deck_size}, discards "
               + ", ".join(f"{name} {v.discard[t]}" for t, name in enumerate(CARD_NAMES)))
    if v.pending:
        out.append("pending chain (first play <- answers): " + _pending(v))
    return "\n".join(out)


class GoldThiefRenderer(Renderer):
    """Gold Thief's screens (see the module docstring)."""

    def screen(self, state: pyspiel.State, seat: int) -> str:
        return screen_of(view_of(state, seat))

    def event_text(self, line: str, seat: int) -> str:
        """Third-person verbs for the other players (``P1 receives a goal``),
        ``You play first`` for the seat."""
        if line == f"P{seat} plays first":
            return "You play first"
        line = re.sub(r"\bby You\b", "by you", line)
        return re.sub(r"^(P\d+) (receive|draw|start|end|flip|play|give)\b", r"\1 \2s", line)

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        """Every purse and goal card, face down ones included, and the winner."""
        views = [view_of(state, q) for q in range(state.num_players())]
        nums = views[0].goal_numbers
        out = ["Every goal card, now shown (flipped = scored):"]
        for q, v in enumerate(views):
            up = goals_text(nums, v.face_up[q], mark_twins=False)
            down = goals_text(nums, v.goals_down, mark_twins=False)
            out.append(f"  {seat_name(q, seat):<4} {v.gold[q]:>3} gold; flipped {up}; "
                       f"face down {down}")
        w = views[0].winner
        goal = state.get_game().get_parameters().get("goals_to_win", 3)
        if w >= 0:
            out.append(f"{seat_name(w, seat)} flipped goal {goal} of {goal} first and "
                       f"{'win' if w == seat else 'wins'}: +1, the others share -1.")
        else:
            out.append("Nobody flipped enough goals before the turn limit: every return is 0.")
        return out
