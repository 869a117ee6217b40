"""High Card's rule-based bot: bet or call with a card in the top half."""
from __future__ import annotations

import pyspiel

from games.interfaces import RuleBot


class HighCardHeuristicBot(RuleBot):
    """Bets (or calls) holding a card in the deck's top half, else passes."""

    GAME = "high_card"

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        view = state.engine.player_view(me)
        deck = state.get_game().get_parameters()["deck"]
        return 1 if 2 * view.card >= deck else 0
