"""Game strings as typed on command lines.

Bot specs (``name[:key=value[:key=value...]]``, e.g.
``ismcts:max_simulations=200:rollout=heuristic``) are parsed by
:mod:`solvers.botspec`, the one parser; this module adds only what is
specific to the command lines: :func:`game_string`.
"""
from __future__ import annotations


def game_string(game: str, players: int | None) -> str:
    """``--game`` (a name or a full game string) plus ``--players``."""
    if players is None:
        return game
    if "(" in game:
        raise ValueError("--players cannot be combined with a full game string; "
                         "put players=N inside it")
    return f"{game}(players={players})"
