"""The Cython tree compiler against the Python walkers: identical arrays."""
import numpy as np
import pyspiel
import pytest

from games.gold_thief import MINI_PARAMS as GT_MINI
from games.spec import game_engine
from solvers.tree import TreeTooLargeError, compile_engine, compile_engine_py, compile_game

FIELDS = ("kind", "player", "infoset", "parent", "action", "child_start", "num_children",
          "chance_prob", "terminal_index", "terminal_returns", "infoset_player",
          "infoset_offset", "infoset_num_actions", "infoset_actions", "member_start",
          "member_nodes", "infoset_keys")


@pytest.mark.parametrize("name", ["kuhn_poker", "kuhn_poker(players=3)", "leduc_poker",
                                  "gold_thief_mini"])
def test_cython_compiler_matches_python(name):
    game = (pyspiel.load_game("gold_thief", dict(GT_MINI)) if name == "gold_thief_mini"
            else pyspiel.load_game(name))
    engine = game_engine(game)
    fast, slow = compile_engine(engine, str(game)), compile_engine_py(engine, str(game))
    assert fast.num_nodes == slow.num_nodes > 1000 or name.startswith("kuhn")
    for field in FIELDS:
        a, b = getattr(fast, field), getattr(slow, field)
        assert a.dtype == b.dtype and np.array_equal(a, b), field
    assert fast.infoset_strings == slow.infoset_strings
    assert fast.index == slow.index
    if name == "leduc_poker":  # and the pyspiel walk agrees too
        ref = compile_game(game, use_engine=False)
        assert ref.infoset_strings == fast.infoset_strings
        assert np.array_equal(ref.member_nodes, fast.member_nodes)


def test_cython_compiler_refuses_large_trees():
    # 2,000 passes the size estimate (about 11,000 nodes, under 10 x 2,000):
    # the compile-time limit stops the walk
    engine = game_engine(pyspiel.load_game("leduc_poker"))
    with pytest.raises(TreeTooLargeError, match=r"max_nodes=2000 .*information sets so far"):
        compile_engine(engine, max_nodes=2000)
    with pytest.raises(ValueError, match="max_nodes must be positive"):
        compile_engine(engine, max_nodes=0)
