"""Saboteur engine shape: one action layout, one constructor, shared parameters."""
import pyspiel
import pytest

import games.saboteur as sab
from src_cy.saboteur import engine as engine_module
from src_cy.saboteur.engine import PARAM_NAMES, SabParams, SaboteurEngine

PARAMS = {"players": 4, "rounds": 2, "goal_distance": 3, "utility": "win",
          "deck_scale": 40, "hand_size": 0, "gold_handout": "finder"}


def test_python_action_constants_mirror_the_pxd_layout():
    mirror = {name: getattr(sab, name) for name in dir(sab) if name.startswith("A_")}
    assert mirror == engine_module.ACTION_LAYOUT
    assert len(mirror) == 9


def test_action_layout_matches_the_engine_ids():
    game = pyspiel.load_game("saboteur", {"players": 3, "goal_distance": 2})
    e = game.make_engine()
    F, T = e.frontier_bound, e.tunnel_bound
    tail = sab.A_ROCK_BLOCK * F + T
    assert game.num_distinct_actions() == tail + sab.A_TAIL_SIZE
    assert e.action_to_string(0, sab.A_ROCK_BLOCK * F) == "rockfall at tunnel card 0 (none now)"
    assert e.action_to_string(0, tail + sab.A_BREAK + sab.A_STRIDE * 1 + 2) == "break lamp of p2"
    assert (e.action_to_string(0, tail + sab.A_REPAIR + sab.A_STRIDE * (3 * 4 + 2) + 1)
            == "repair pickaxe/cart: fix cart of p1")
    assert e.action_to_string(0, tail + sab.A_MAP + 2) == "map goal 2"
    assert e.action_to_string(0, tail + sab.A_PASS + 16) == "pass discarding map"
    assert e.action_to_string(0, tail + sab.A_KEEP + 2) == "keep gold card 3"
    assert e.action_to_string(0, tail + sab.A_HAND_ON) == "hand on gold card 1"


def test_engine_takes_the_game_parameters_and_builds_the_game_string():
    e = SaboteurEngine(PARAMS)
    assert e.num_players == 4
    assert e.params.values == PARAMS
    e.params.values["players"] = 9                 # a copy: the parameters stay
    assert e.params.values == PARAMS and e.num_players == 4
    assert e.game_string == ("saboteur(deck_scale=40,goal_distance=3,gold_handout=finder,"
                             "hand_size=0,players=4,rounds=2,utility=win)")
    game = pyspiel.load_game(e.game_string)
    assert game.make_engine().dump() == e.dump()
    assert sorted(PARAM_NAMES) == list(PARAM_NAMES) == sorted(PARAMS)


@pytest.mark.parametrize("change,needle", [
    ({"players": 11}, "players=11 out of range 3..10"),
    ({"rounds": 0}, "rounds=0 out of range"),
    ({"deck_scale": 0}, "deck_scale=0 out of range"),
    ({"deck_scale": 200}, "deck_scale=200, goal_distance=3: the maze exceeds"),
    ({"goal_distance": 44}, "goal_distance=44 out of range 1..43"),
    ({"hand_size": 70}, "hand_size=70: more than the"),
    ({"goal_distance": 1.5}, "goal_distance=1.5 is not an integer"),
    ({"utility": "points"}, "utility='points'"),
    ({"gold_handout": "dealer"}, "gold_handout='dealer'"),
    ({"colour": 1}, "unknown ['colour']"),
])
def test_bad_parameters_raise_value_error_naming_them(change, needle):
    with pytest.raises(ValueError, match=needle.replace("[", r"\[").replace("(", r"\(")):
        SaboteurEngine(dict(PARAMS, **change))


def test_missing_parameter_is_named():
    params = dict(PARAMS)
    del params["hand_size"]
    with pytest.raises(ValueError, match=r"missing \['hand_size'\]"):
        SabParams(params)


def test_clones_and_engines_of_one_game_share_the_parameter_object():
    game = pyspiel.load_game("saboteur", {"players": 3})
    first = game.make_engine()
    assert game.make_engine().params is first.params
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.clone().engine.params is state.engine.params
    assert first.py_clone().params is first.params
    assert first.py_resample(0, 3).params is first.params
