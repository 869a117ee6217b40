"""OpenSpiel's Leduc poker as a goldspiel game spec (the game itself is OpenSpiel's).

The engine fast path is ``src_cy.poker.engine.LeducEngine``, which reproduces
OpenSpiel's ``leduc_poker`` with its default rules options (no action
mapping, no suit isomorphism, player 0 starts); other options have no engine
and run on the pyspiel API.  Policy-table features: round, your card, the
public card, whether they pair, this round's betting.
"""
from __future__ import annotations

import functools

import pyspiel

from games.spec import GameSpec, TableSpec, register_spec

# The action ids: Python mirror of ``src_cy/poker/actions.pxd`` (the one
# definition; tests/test_poker_engines.py checks it against the engine's
# ``ACTION_LAYOUT``).
LEDUC_FOLD = 0
LEDUC_CALL = 1
LEDUC_RAISE = 2
LEDUC_NUM_ACTIONS = 3

_RANKS = "JQK"


@functools.lru_cache(maxsize=None)
def _params(players: int):
    """One shared ``PokerParams`` per player count (immutable)."""
    from src_cy.poker.engine import PokerParams
    return PokerParams({"players": players})


def leduc_engine(game: pyspiel.Game):
    """``LeducEngine`` at the initial state of ``game``, or None for rules
    options the engine does not implement."""
    params = game.get_parameters()
    if params.get("action_mapping", False) or params.get("suit_isomorphism", False) \
            or int(params.get("starting_player", 0)) != 0:
        return None
    from src_cy.poker.engine import LeducEngine
    return LeducEngine(_params(int(params.get("players", 2))))


def leduc_features(state: pyspiel.State, player: int) -> dict:
    """Round, private and public rank, pair, this round's betting (from the information string)."""
    info = state.information_state_string(player)
    fields = dict(part.split(": ", 1) if ": " in part else part.split(" ", 1)
                  for part in info.strip("[]").split("]["))
    private = _RANKS[int(fields["Private"]) // 2]
    public = _RANKS[int(fields["Public"]) // 2] if "Public" in fields else "-"
    rnd = int(fields["Round"])
    bets = fields["Round1" if rnd == 1 else "Round2"].split()
    names = {str(LEDUC_FOLD): "f", str(LEDUC_CALL): "c", str(LEDUC_RAISE): "r"}
    return {"round": rnd, "private": private, "public": public,
            "pair": private == public, "betting": "".join(names[b] for b in bets) or "-"}


def _table() -> TableSpec:
    return TableSpec(
        name="leduc_poker",
        load=SPEC.load,
        features=leduc_features,
        feature_doc={"round": "betting round (1 before the public card, 2 after)",
                     "private": "your card's rank", "public": "public card's rank (- before it)",
                     "pair": "your card pairs the public card",
                     "betting": "this round's actions (f fold, c check/call, r raise)"},
        cfr_iterations=1500,
        notes="OpenSpiel demo entry.")


SPEC = register_spec(GameSpec(
    name="leduc_poker",
    presets={"default": {}, "mini": {}},
    engine=leduc_engine,
    table=_table,
    rules_doc="https://github.com/google-deepmind/open_spiel (leduc_poker)",
))
