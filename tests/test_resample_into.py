"""``Engine.py_resample_into``: a world drawn into the caller's scratch engine
is the world ``py_resample`` draws with the same seed, whatever the scratch
engine held before (its warm work space must not leak into the draw), and
bad arguments are refused before anything changes."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers every game)
from games import testing
from src_cy.engine import ResampleOutOfTime, clock

GAMES = ["gold_thief(players=3)", "saboteur(players=4,rounds=1)",
         "ardillas_del_bosque(players=3)", "gold_nugget(players=2)"]


def _states(game_string: str) -> list[pyspiel.State]:
    game = pyspiel.load_game(game_string)
    return testing.mid_game_states(game, 2, seed=5, min_depth=12)


@pytest.mark.parametrize("game_string", GAMES)
def test_into_draws_the_same_worlds_as_a_new_engine(game_string: str) -> None:
    a, b = _states(game_string)
    world = a.engine.py_clone()
    # alternate two positions and every player through one scratch engine
    for seed in range(6):
        for state in (a, b):
            src = state.engine
            before = src.dump()
            for p in range(src.num_players):
                got = src.py_resample_into(world, p, seed)
                assert got is world
                assert world.py_history() == src.py_resample(p, seed).py_history()
            assert src.dump() == before


@pytest.mark.parametrize("game_string", GAMES)
def test_into_refuses_bad_arguments_and_changes_nothing(game_string: str) -> None:
    state = _states(game_string)[0]
    src = state.engine
    world = src.py_clone()
    # Gold Thief at 5 players: another game for every entry (same class for Gold Thief)
    other = _states("gold_thief(players=5)")[0].engine
    before, world_before = src.dump(), world.dump()
    with pytest.raises(ValueError, match="another engine"):
        src.py_resample_into(src, 0, 1)
    with pytest.raises(ValueError, match="player must be in"):
        src.py_resample_into(world, src.num_players, 1)
    with pytest.raises(ValueError, match="same game"):
        src.py_resample_into(other, 0, 1)
    with pytest.raises(TypeError):
        src.py_resample_into(object(), 0, 1)
    assert src.dump() == before and world.dump() == world_before


def test_into_past_its_deadline_raises_and_keeps_the_source() -> None:
    game = pyspiel.load_game("gold_nugget", {"players": 4})
    src = testing.mid_game_states(game, 1, seed=11, min_depth=60)[0].engine
    world = src.py_clone()
    before = src.dump()
    with pytest.raises(ResampleOutOfTime, match="deadline"):
        src.py_resample_into(world, 1, 7, deadline=clock() - 1.0)
    assert src.dump() == before
    # the scratch engine is usable again after a refused draw
    assert src.py_resample_into(world, 1, 7).py_history() == src.py_resample(1, 7).py_history()
