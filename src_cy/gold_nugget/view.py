"""The Gold Nugget player view type (pure Python, shared by the engine and the adapters)."""
from __future__ import annotations

from dataclasses import dataclass

from src_cy.views import ItemAccess


@dataclass(frozen=True, eq=True)
class GoldNuggetView(ItemAccess):
    """What one player knows now (``GoldNuggetEngine.player_view(player)``;
    rules doc, "Player view").  Every field is a function of the player's
    information state; strings, the observation tensor and the heuristic bot
    are built from it.

    Seat-indexed lists have one entry per player; ``hand`` and ``discard``
    one per leaf card (catalog order).  ``lairs[q]`` lists lair ``q``'s
    stones in placement order, each a face name where this player knows it,
    else None.  ``feathers`` and ``nest_feathers`` are None when the player
    cannot see the feathers; ``decision`` and ``effect`` are set only when
    this player is to decide inside a card's effect.
    """

    seat: int
    phase: str
    day: int
    days: int
    time: str
    holder: int
    to_move: bool
    decision: str
    effect: str
    hand: list[int]
    victory_card: str | None
    offered: list[str]
    animals: list[str | None]
    times: list[str | None]
    asleep: list[bool]
    out: list[bool]
    feathers: list[int] | None
    nest_feathers: int | None
    cards: list[int]
    lairs: list[list[str | None]]
    nest_stones: int
    nest_known: list[int]
    deck: int
    discard: list[int]
    victory_played: list[str | None]
    plays: int
    special_used: bool
