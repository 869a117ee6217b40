"""Tier helpers for parametrized tests (markers: tests/conftest.py)."""
from __future__ import annotations

from typing import Any, Iterable

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)


def players_of(game: str, case: Any) -> int:
    """The player count of one parametrize case of ``game``: an int, a game
    string, a parameter dict, or a tuple whose first item is one of these."""
    if isinstance(case, tuple):
        case = case[0]
    if isinstance(case, int):
        return case
    if isinstance(case, str):
        return pyspiel.load_game(case).num_players()
    if isinstance(case, dict):
        return pyspiel.load_game(game, dict(case)).num_players()
    raise TypeError(f"cannot tell the player count of {case!r}")


def slow_above_min_players(game: str, cases: Iterable[Any]) -> list:
    """``cases`` as ``pytest.param``s, those with more players than the
    fewest among them marked ``slow``: the fast tier checks a game at its
    smallest player count (and the presets at that count), the full suite at
    every count."""
    cases = list(cases)
    fewest = min(players_of(game, c) for c in cases)
    return [pytest.param(*(c if isinstance(c, tuple) else (c,)),
                         marks=[pytest.mark.slow] if players_of(game, c) > fewest else [])
            for c in cases]
