"""High Card in a terminal: what one seat sees (``GameSpec.renderer``).

The screen is written from the seat's typed view (its card and the public
moves); nothing else of the state is read before the end.
"""
from __future__ import annotations

import pyspiel

from games._adapter import view_of
from games.interfaces import Renderer, screen_title
from src_cy.high_card.view import HighCardView


def screen_of(view: HighCardView) -> str:
    """The seat's screen: its card and the moves so far."""
    card = "not dealt" if view.card is None else str(view.card)
    moves = " ".join(("pass", "bet")[m] for m in view.moves) or "none yet"
    return "\n".join([screen_title("High Card"), f"your card: {card}", f"moves: {moves}"])


class HighCardRenderer(Renderer):
    """The seat's card and the moves; at the end, both cards."""

    def screen(self, state: pyspiel.State, seat: int) -> str:
        return screen_of(view_of(state, seat))

    def end_summary(self, state: pyspiel.State, seat: int) -> list[str]:
        cards = [view_of(state, q).card for q in range(2)]
        return [f"cards: P0 {cards[0]}, P1 {cards[1]}; returns {state.returns()}"]
