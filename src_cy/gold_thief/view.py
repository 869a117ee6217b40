"""The Gold Thief player view type (pure Python, so the engine and the
adapter share it without the engine importing ``games``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GoldThiefView:
    """What one player knows now (``engine.player_view(player)``).

    Seat-indexed tuples have one entry per player; card-type tuples one per
    type (Thief, Guard, Witch, Faerie, Ninja). ``decider`` is the player to
    move when that is public (play, big-pile flip, Witch give) or when it is
    this player; -1 while a window is open for someone else. ``pending`` is
    the effect stack, bottom first: (kind, player, victim, beneficiary,
    cancelled) with kinds 0 Thief, 1 raid, 2 Witch as extra Thief, 3 Guard
    gift, 4 Guard cancel, 5 Witch steal, 6 Faerie cancel. ``known_cards``:
    per seat and type, how many such cards this player knows are in that
    hand (cards they gave there with a Witch, less any since played or given
    away). ``events`` is how many events this player has observed.
    """

    player: int
    num_players: int
    turn: int
    active: int
    phase: str
    to_move: bool
    decider: int
    gold: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    face_down_counts: tuple[int, ...]
    face_up: tuple[tuple[int, ...], ...]
    deck_size: int
    discard: tuple[int, ...]
    pending: tuple[tuple[int, int, int, int, bool], ...]
    hand: tuple[int, ...]
    goals_down: tuple[int, ...]
    goal_numbers: tuple[tuple[int, int], ...]
    known_cards: tuple[tuple[int, ...], ...]
    winner: int
    events: int
