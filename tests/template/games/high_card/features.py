"""High Card's policy-table entry: a row is the seat's card and the moves so far."""
from __future__ import annotations

import pyspiel

from games.features import load_preset, mini_description
from games.spec import TableSpec


def high_card_features(state: pyspiel.State, player: int) -> dict:
    """The deciding seat's card and the public moves (its whole information)."""
    view = state.engine.player_view(player)
    return {"card": view.card, "moves": "".join("pb"[m] for m in view.moves) or "-"}


HIGH_CARD_TABLE = TableSpec(
    name="high_card",
    load=lambda preset: load_preset("high_card", preset),
    features=high_card_features,
    feature_doc={"card": "your card (0 = lowest)", "moves": "moves so far: p pass, b bet"},
    presets=("mini", "default"),
    cfr_iterations=300,
    notes=mini_description("high_card") + ": Kuhn poker.",
)
