"""Tier helpers for parametrized tests (markers: tests/conftest.py)."""
from __future__ import annotations

from typing import Any, Iterable

import pyspiel
import pytest
from _pytest.mark import ParameterSet

import games  # noqa: F401  (registers the games)


def _values(case: Any) -> tuple:
    if isinstance(case, ParameterSet):
        return tuple(case.values)
    return case if isinstance(case, tuple) else (case,)


def players_of(game: str, case: Any) -> int:
    """The player count of one parametrize case of ``game``: an int, a game
    string, a parameter dict, a tuple whose first item is one of these, or a
    ``pytest.param`` of these."""
    first = _values(case)[0]
    if isinstance(first, int):
        return first
    if isinstance(first, str):
        return pyspiel.load_game(first).num_players()
    if isinstance(first, dict):
        return pyspiel.load_game(game, dict(first)).num_players()
    raise TypeError(f"cannot tell the player count of {case!r}")


def slow_above_min_players(game: str, cases: Iterable[Any]) -> list:
    """``cases`` as ``pytest.param``s, those with more players than the
    fewest among them marked ``slow`` (a ``pytest.param`` case keeps its own
    marks and id): the fast tier checks a game at its smallest player count
    (and the presets at that count), the full suite at every count."""
    cases = list(cases)
    fewest = min(players_of(game, c) for c in cases)
    out = []
    for c in cases:
        marks = list(c.marks) if isinstance(c, ParameterSet) else []
        if players_of(game, c) > fewest:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(*_values(c), marks=marks,
                                id=c.id if isinstance(c, ParameterSet) else None))
    return out
