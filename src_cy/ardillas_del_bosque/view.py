"""The Ardillas del Bosque player view types (pure Python, so the engine and
the adapter share them without the engine importing ``games``)."""
from __future__ import annotations

from typing import NamedTuple, Optional


class Token(NamedTuple):
    """A token as one player knows it (``kind`` None: face unknown to them)."""
    owner: int          # board: seat 0..N-1, then sleepyheads N..
    ordinal: int        # the owner's j-th token to leave the hand
    kind: Optional[str]
    face_up: bool


class ArdillasView(NamedTuple):
    """What one player knows now (``ArdillasEngine.player_view``)."""
    player: int
    phase: str
    current_player: int                 # pyspiel id: seat, -1 chance, -4 terminal
    turn: int                           # seat whose turn it is
    night: bool
    king: Optional[str]
    board_animals: tuple                # per board: its animal, None until drawn
    hand: tuple                         # own kinds not yet out of the hand
    holding: Optional[Token]            # by day: the token being hidden
    piles: tuple                        # per hiding place: Tokens, top first
    nests: tuple                        # per seat: Tokens, arrival order
    active: tuple                       # per seat: still in the woods
    focus_pile: Optional[int]           # Lynx/Boar/Ant/Lizard-split pile
    lizard_piles: tuple                 # Lizard: split target, or the two flipped piles
    boar_remaining: tuple               # Wild Boar: Tokens still to order, top first
    boar_placed: tuple                  # Wild Boar: Tokens ordered so far, top first
