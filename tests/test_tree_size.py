"""The size check before an exact solve (``solvers.tree.check_tree_size``):
too-large trees are refused from Knuth's estimate before any node is
compiled; trees that solve today are not refused."""
from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
import solvers.exploitability as exploitability
import solvers.tree as tree
from games.spec import find_spec, game_engine
from solvers.bots import make_bot
from solvers.tree import (DEFAULT_MAX_NODES, REFUSE_FACTOR,
                          TreeTooLargeError, check_tree_size, compile_game,
                          estimate_tree_size)
from src_cy import tree_compile

BIG = ["gold_thief", "gold_nugget", "ardillas_del_bosque"]


@pytest.fixture
def no_compile(monkeypatch):
    """Any compile attempt (Cython or Python walk) fails the test."""
    def fail(*args, **kwargs):
        raise AssertionError("the tree compiler was called")
    monkeypatch.setattr(tree_compile, "compile_arrays", fail)
    monkeypatch.setattr(tree, "_Builder", fail)
    exploitability._CACHE.clear()


@pytest.mark.parametrize("name", BIG)
def test_default_games_are_refused_without_compiling(name, no_compile):
    game = find_spec(name).load("default")
    with pytest.raises(TreeTooLargeError) as err:
        compile_game(game)
    msg = str(err.value)
    assert f"max_nodes={DEFAULT_MAX_NODES}" in msg
    assert "estimated at" in msg and "MCCFR" in msg and "smaller preset" in msg
    # one walk already puts the estimate far above the limit: the check
    # stopped after it (a root-to-leaf walk of these games is < 2,000 nodes)
    est = estimate_tree_size(game_engine(game), stop_above=REFUSE_FACTOR * DEFAULT_MAX_NODES)
    assert est.walks == 1 and est.steps < 2_000
    assert est.nodes > REFUSE_FACTOR * DEFAULT_MAX_NODES


def test_every_entry_point_refuses_without_compiling(no_compile):
    game = find_spec("gold_thief").load("default")
    with pytest.raises(TreeTooLargeError, match="estimated at"):
        make_bot("cfr", game)
    with pytest.raises(TreeTooLargeError, match="estimated at"):
        exploitability.bot_nash_conv(game, make_bot("random", game), progress=False)
    with pytest.raises(TreeTooLargeError, match="estimated at"):
        tree.compile_pyspiel(game)
    with pytest.raises(TreeTooLargeError, match="estimated at"):
        tree.compile_engine_py(game_engine(game))


@pytest.mark.parametrize("name,preset", [("kuhn_poker", "default"), ("leduc_poker", "default"),
                                         ("gold_thief", "mini"), ("gold_nugget", "mini")])
def test_trees_that_solve_are_not_refused(name, preset):
    # these compile within DEFAULT_MAX_NODES (kuhn 58 nodes, leduc 9,457,
    # Gold Thief mini 64,101, Gold Nugget mini 3,142,075)
    check_tree_size(find_spec(name).load(preset), DEFAULT_MAX_NODES)


def test_small_trees_compile_through_the_check():
    assert compile_game(pyspiel.load_game("kuhn_poker")).num_nodes == 58
    assert compile_game(pyspiel.load_game("leduc_poker"), use_engine=False).num_nodes == 9457


def test_estimator_is_seeded_and_unbiased():
    game = pyspiel.load_game("kuhn_poker")
    a, b = estimate_tree_size(game, seed=3), estimate_tree_size(game, seed=3)
    assert a == b
    assert estimate_tree_size(game, seed=4) != a
    # engine and pyspiel walks make the same choices from the same seed
    assert estimate_tree_size(game_engine(game), seed=3) == a
    # unbiased: the mean of many walks is close to the exact 58 nodes
    many = estimate_tree_size(game, walks=20_000, max_steps=10**6, seed=0)
    assert many.walks == 20_000
    assert abs(many.nodes - 58) < 1.5


def test_estimator_budget_and_bad_input():
    game = find_spec("gold_nugget").load("default")
    est = estimate_tree_size(game_engine(game), max_steps=5_000)
    # stops after the walk that crossed the node budget (a walk is < 2,000 nodes)
    assert est.walks < est.walks_planned and 5_000 <= est.steps < 7_000
    with pytest.raises(ValueError, match="walks and max_steps"):
        estimate_tree_size(game, walks=0)
    with pytest.raises(ValueError, match="max_nodes must be positive"):
        check_tree_size(game, 0)
    with pytest.raises(TypeError, match="pyspiel.Game or an engine"):
        estimate_tree_size("gold_nugget")
