"""The High Card player view type (pure Python, shared by engine and adapter)."""
from __future__ import annotations

from typing import NamedTuple, Optional


class HighCardView(NamedTuple):
    """What one seat knows: its own card (None before the deal) and the public moves."""
    card: Optional[int]
    moves: tuple
