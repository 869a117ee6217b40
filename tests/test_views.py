"""Every engine's player view is a typed, immutable record (a frozen dataclass or
a NamedTuple); the views that were dicts still read with the dict spelling."""
from __future__ import annotations

import dataclasses

import pyspiel
import pytest

import games  # noqa: F401
from games.spec import get_spec

GAMES = ("gold_thief", "saboteur", "ardillas_del_bosque", "gold_nugget")


def _mid_game(name: str) -> pyspiel.State:
    state = get_spec(name).load("default").new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(sorted(state.legal_actions())[0])
    return state


def _field_names(view) -> list[str]:
    if dataclasses.is_dataclass(view):
        return [f.name for f in dataclasses.fields(view)]
    return list(view._fields)                      # a NamedTuple


@pytest.mark.parametrize("name", GAMES)
def test_player_view_is_a_typed_immutable_record(name):
    state = _mid_game(name)
    view = state.engine.player_view(0)
    names = _field_names(view)
    assert names and all(name in type(view).__annotations__ for name in names)
    with pytest.raises(AttributeError):           # frozen (FrozenInstanceError) or a tuple
        setattr(view, names[0], None)
    assert view == state.engine.player_view(0)
    assert get_spec(name).player_view(state, 0) == view


@pytest.mark.parametrize("name", ("saboteur", "gold_nugget"))
def test_views_that_were_dicts_read_as_before(name):
    view = _mid_game(name).engine.player_view(1)
    for field in dataclasses.fields(view):
        assert view[field.name] is getattr(view, field.name)
        assert view.get(field.name) is getattr(view, field.name) and field.name in view
    assert view.keys() == [f.name for f in dataclasses.fields(view)]
    assert "no_such_field" not in view and view.get("no_such_field", 7) == 7
    with pytest.raises(KeyError):
        view["no_such_field"]
