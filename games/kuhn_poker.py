"""OpenSpiel's Kuhn poker as a goldspiel game spec (the game itself is OpenSpiel's).

The engine fast path is ``src_cy.poker.engine.KuhnEngine``, which reproduces
OpenSpiel's ``kuhn_poker`` exactly (information strings, chance outcomes,
returns), so every solver can be cross-checked against OpenSpiel on it.
Policy-table features: your card and the betting so far.
"""
from __future__ import annotations

import functools

import pyspiel

from games.spec import GameSpec, TableSpec, register_spec

# The action ids: Python mirror of ``src_cy/poker/actions.pxd`` (the one
# definition; tests/test_poker_engines.py checks it against the engine's
# ``ACTION_LAYOUT``).
KUHN_PASS = 0
KUHN_BET = 1
KUHN_NUM_ACTIONS = 2

_CARDS = "JQK"


@functools.lru_cache(maxsize=None)
def _params(players: int):
    """One shared ``PokerParams`` per player count (immutable)."""
    from src_cy.poker.engine import PokerParams
    return PokerParams({"players": players})


def kuhn_engine(game: pyspiel.Game):
    """``KuhnEngine`` at the initial state of ``game`` (any number of players)."""
    from src_cy.poker.engine import KuhnEngine
    return KuhnEngine(_params(int(game.get_parameters().get("players", 2))))


def kuhn_features(state: pyspiel.State, player: int) -> dict:
    """Your card and the betting so far (read from your information string)."""
    info = state.information_state_string(player)
    return {"card": _CARDS[int(info[0])], "betting": info[1:] or "-"}


def _table() -> TableSpec:
    return TableSpec(
        name="kuhn_poker",
        load=SPEC.load,
        features=kuhn_features,
        feature_doc={"card": "your card (J < Q < K)",
                     "betting": "actions so far this hand (p = pass/check, b = bet/call)"},
        cfr_iterations=2000,
        notes="OpenSpiel demo entry; game value -1/18 for the first player.")


SPEC = register_spec(GameSpec(
    name="kuhn_poker",
    presets={"default": {}, "mini": {}, "3p": {"players": 3}},
    engine=kuhn_engine,
    table=_table,
    rules_doc="https://github.com/google-deepmind/open_spiel (kuhn_poker)",
))
