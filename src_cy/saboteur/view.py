"""The Saboteur player view type (pure Python, shared by the engine and the adapters)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from src_cy.views import ItemAccess


@dataclass(frozen=True, eq=True)
class SaboteurView(ItemAccess):
    """What one player knows now (``SaboteurEngine.player_view(player)``; rules
    doc, "Player view").  Every field is public or this player's own.

    Seat-indexed lists have one entry per player; kind-indexed lists one per
    card kind (``src_cy.saboteur.render.KIND_NAMES``); tool lists are (pickaxe,
    lamp, cart); goals are (north, middle, south).  ``board`` maps a cell
    ``(x, y)`` to ``(code, turned, edges, reached)``; ``known_goals`` holds a
    goal id where this player knows it, else -1.  Gold lists are by card
    value (1, 2, 3 nuggets).
    """

    player: int
    num_players: int
    round: int
    rounds: int
    phase: str
    to_move: int
    gold_handout: str
    grid_radius: int
    goal_distance: int
    role: int
    roles: list[int] | None
    hand: list[int]
    discards: list[int]
    hand_sizes: list[int]
    deck_size: int
    broken: list[list[int]]
    board: dict[tuple[int, int], tuple[Any, ...]]
    reached: list[tuple[int, int]]
    frontier: list[tuple[int, int]]
    goals_up: list[bool]
    known_goals: list[int]
    starter: int
    last_placer: int
    played: list[list[int]]
    passes: list[int]
    maps: list[list[int]]
    breaks: list[list[int]]
    repairs: list[list[int]]
    public_discards: list[int]
    round_winners: list[str]
    completer: int
    gold: list[int]
    nuggets: int
    gold_card_counts: list[int]
    saboteur_gold: list[int]
    gold_recipients: list[int]
    gold_next: int
    gold_holder: int
    gold_drawn_count: int
    held_gold: list[int] | None
    known_gold: list[tuple[int, int]]
