"""Gold Nugget engine shape: one action layout, one constructor, shared parameters."""
import pyspiel
import pytest

import games.gold_nugget as gn
import games.gold_nugget.ai as gn_ai
from src_cy.gold_nugget.engine import ACTION_LAYOUT, GoldNuggetEngine, GoldNuggetParams


def test_python_action_constants_mirror_the_pxd_layout():
    actions = {name: v for name, v in ACTION_LAYOUT.items() if name.startswith("A_")}
    assert len(actions) == 14
    for module in (gn, gn_ai):
        assert {name: getattr(module, name) for name in actions} == actions
        assert module.MAX_STONES == ACTION_LAYOUT["MAX_STONES"]
    assert gn.NUM_DISTINCT_ACTIONS == ACTION_LAYOUT["NUM_DISTINCT_ACTIONS"]
    assert gn.MAX_CHANCE_OUTCOMES == ACTION_LAYOUT["MAX_CHANCE_OUTCOMES"]
    cards = (gn_ai.BEG, gn_ai.CHANCE, gn_ai.NO_HARD_FEELINGS, gn_ai.SUSPICION,
             gn_ai.GOLD_NUGGET, gn_ai.LOYAL_FRIEND, gn_ai.TRIBUTE, gn_ai.DO_I_HAVE_IT,
             gn_ai.PEEK, gn_ai.GLANCE, gn_ai.SHOUT, gn_ai.PLUCK, gn_ai.SLEIGHT, gn_ai.PREEN,
             gn_ai.NEST_DIVE, gn_ai.ACCUSE)
    assert cards == ACTION_LAYOUT["LEAF_CARDS"]
    assert len(cards) == ACTION_LAYOUT["NUM_LEAF"] == len(gn.LEAF_CATALOG)


def test_action_layout_matches_the_engine_names():
    from src_cy.gold_nugget.engine import action_name
    leaf = [c[0] for c in gn.LEAF_CATALOG]
    assert action_name(gn.A_PLAY + gn_ai.PREEN) == "play " + leaf[gn_ai.PREEN]
    assert action_name(gn.A_RECYCLE + gn_ai.PEEK) == "recycle " + leaf[gn_ai.PEEK]
    assert action_name(gn.A_DISCARD) == "discard/give " + leaf[0]
    assert action_name(gn.A_PLAYER + 3) == "choose p3"
    assert action_name(gn.A_NEST) == "the nest"
    assert action_name(gn.stone_action(2, 5)) == "stone p2#5"
    assert action_name(gn.NUM_DISTINCT_ACTIONS) == f"action{gn.NUM_DISTINCT_ACTIONS}"


def test_engines_share_one_params_object_and_refuse_bad_ones():
    game = pyspiel.load_game("gold_nugget", {"players": 3})
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    shared = s1.engine.params
    assert s2.engine.params is shared and s1.clone().engine.params is shared
    values = shared.values
    values["players"] = 9                          # a copy: the parameters stay
    assert shared.values["players"] == 3 and shared.players == 3
    e = GoldNuggetEngine(shared.values, game_string="g")
    assert e.params is not shared and e.num_players == 3 and e.game_string == "g"
    assert e.info_string(0) == s1.engine.info_string(0)
    good = shared.values
    for name, value in [("players", 1), ("players", 6), ("trap_stones", 30),
                        ("animal_mask", 0), ("days", -1), ("leaf_counts", (1, 2)),
                        ("wind_counts", (1, 1, 1, 1, "x")),
                        ("leaf_counts", (128,) + good["leaf_counts"][1:])]:
        with pytest.raises(ValueError, match=name):
            GoldNuggetParams({**good, name: value})
    with pytest.raises(ValueError, match="missing"):
        GoldNuggetParams({k: v for k, v in good.items() if k != "days"})
    with pytest.raises(ValueError, match="unknown"):
        GoldNuggetParams({**good, "colour": 1})
