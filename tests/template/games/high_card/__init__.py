"""High Card: the template game (N-card Kuhn poker), one folder of its own.

Rules: ``docs/rules/high_card.md``. Importing this module registers the game
with pyspiel and its spec with goldspiel; ``games/__init__.py`` imports it
(the one line a new game adds outside its folders).

Actions (the engine's ``ACTION_LAYOUT``):

| id | action |
|---|---|
| 0 | pass (check, or fold after a bet) |
| 1 | bet (bet 1, or call a bet) |

Chance outcomes are card ranks 0..deck-1: seat 0's card, then seat 1's.
"""
from __future__ import annotations

import pyspiel

from games._adapter import EngineGame, engine_game_type, engine_of, view_of
from games.params import Param, ParamTable
from games.spec import BenchRow, GameSpec, lazy, register_spec
from src_cy.high_card.engine import HighCardEngine

A_PASS = 0
A_BET = 1

#: The parameters (the one table: GameType defaults, validation, rules doc).
PARAMS = ParamTable("high_card", [
    Param("players", 2, "players (two seats only)", 2, 2),
    Param("deck", 5, "cards in the deck, ranks 0..deck-1", 2, 13),
])

_GAME_TYPE = engine_game_type("High Card", PARAMS)


class HighCardGame(EngineGame):
    """pyspiel.Game for High Card; see the module docstring."""

    GAME_TYPE = _GAME_TYPE
    PARAMS = PARAMS

    def _build(self, params: dict):
        deck = params["deck"]
        info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=deck,
                                num_players=2, min_utility=-2.0, max_utility=2.0,
                                utility_sum=0.0, max_game_length=5)
        return info, lambda: HighCardEngine(deck)


pyspiel.register_game(_GAME_TYPE, HighCardGame)


SPEC = register_spec(GameSpec(
    name="high_card",
    presets={"default": {}, "mini": {"deck": 3}},
    engine=engine_of,
    player_view=view_of,
    heuristic=lazy("games.high_card.ai:HighCardHeuristicBot", call=True),
    best=lambda game: dict(max_simulations=500),
    table=lazy("games.high_card.features:HIGH_CARD_TABLE"),
    renderer=lazy("games.high_card.render:HighCardRenderer", call=True),
    rules_doc="docs/rules/high_card.md",
    bench={"engines": [BenchRow("High Card", "high_card()")],
           "search": [BenchRow("High Card", "high_card()")],
           "resample": [BenchRow("High Card", "high_card()")]},
    params=PARAMS,
))
