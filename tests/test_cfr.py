"""Compiled-tree CFR family and exploitability against OpenSpiel's Python code."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import discounted_cfr as os_dcfr
from open_spiel.python.algorithms import exploitability as os_expl

from solvers import cfr, exploitability
from solvers.policy_io import PolicyFileError
from solvers.tree import TreeTooLargeError, compile_game

GAMES = [("kuhn_poker", 40), ("kuhn_poker(players=3)", 15),
         pytest.param("leduc_poker", 4, marks=pytest.mark.slow)]


def _diff(a, b):
    return np.abs(a.action_probability_array - b.action_probability_array).max()


@pytest.mark.parametrize("name,iters", GAMES)
@pytest.mark.parametrize("ours,theirs", [(cfr.CFRSolver, os_cfr.CFRSolver),
                                         (cfr.CFRPlusSolver, os_cfr.CFRPlusSolver)])
def test_policies_match_openspiel(name, iters, ours, theirs):
    game = pyspiel.load_game(name)
    a, b = ours(game), theirs(game)
    for _ in range(iters):
        a.evaluate_and_update_policy()
        b.evaluate_and_update_policy()
    assert _diff(a.average_policy().to_tabular(), b.average_policy()) < 1e-9
    assert _diff(a.current_policy().to_tabular(), b.current_policy()) < 1e-9
    # A non-trivial policy: far from uniform somewhere.
    assert np.abs(a.average_policy().to_tabular().action_probability_array - 0.5).max() > 0.05


@pytest.mark.parametrize("ours,theirs", [
    (cfr.DCFRSolver, os_dcfr.DCFRSolver), (cfr.LinearCFRSolver, os_dcfr.LCFRSolver)])
def test_discounted_variants_match_openspiel(ours, theirs):
    game = pyspiel.load_game("kuhn_poker")
    a, b = ours(game), theirs(game)
    for _ in range(25):
        a.evaluate_and_update_policy()
        b.evaluate_and_update_policy()
    assert _diff(a.average_policy().to_tabular(), b.average_policy()) < 1e-9


def _random_policy(game, seed):
    pol = os_policy.TabularPolicy(game)
    rng = np.random.default_rng(seed)
    x = rng.random(pol.action_probability_array.shape) ** 3 * pol.legal_actions_mask
    pol.action_probability_array[:] = x / x.sum(axis=1, keepdims=True)
    return pol


@pytest.mark.parametrize("name", ["kuhn_poker", "kuhn_poker(players=3)",
                                  pytest.param("leduc_poker", marks=pytest.mark.slow)])
def test_nash_conv_matches_openspiel(name):
    game = pyspiel.load_game(name)
    for seed in range(3):
        pol = _random_policy(game, seed)
        ours = exploitability.nash_conv(game, pol)
        theirs = os_expl.nash_conv(game, pol)
        assert ours == pytest.approx(theirs, abs=1e-9)
        assert ours > 0.01
        if game.num_players() == 2:
            assert exploitability.exploitability(game, pol) == pytest.approx(
                os_expl.exploitability(game, pol), abs=1e-9)


def test_nash_conv_of_generic_policy_object():
    game = pyspiel.load_game("kuhn_poker")
    uniform = os_policy.UniformRandomPolicy(game)
    assert exploitability.nash_conv(game, uniform) == pytest.approx(
        os_expl.nash_conv(game, uniform), abs=1e-9)


def test_exploitability_refuses_three_players():
    with pytest.raises(ValueError, match="2-player"):
        exploitability.exploitability(pyspiel.load_game("kuhn_poker(players=3)"),
                                      os_policy.TabularPolicy(pyspiel.load_game("kuhn_poker")))


def test_kuhn_value_reached():
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    solver.run(2000)
    tree = solver.tree
    values = exploitability.on_policy_values(tree, solver.average_policy_array())
    assert values[0] == pytest.approx(-1 / 18, abs=2e-4)
    assert solver.exploitability() < 1e-3
    assert exploitability.exploitability(game, solver.average_policy()) == pytest.approx(
        solver.exploitability(), abs=1e-12)


def test_leduc_cfr_plus_converges():
    game = pyspiel.load_game("leduc_poker")
    solver = cfr.CFRPlusSolver(game)
    solver.run(300)
    assert solver.exploitability() < 1e-2


def test_engine_and_pyspiel_compile_identically():
    game = pyspiel.load_game("leduc_poker")
    a, b = compile_game(game), compile_game(game, use_engine=False)
    assert a.infoset_strings == b.infoset_strings
    for field in ("kind", "player", "infoset", "child_start", "num_children", "action",
                  "chance_prob", "terminal_returns", "infoset_actions", "member_nodes"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.num_nodes == 9457 and a.num_infosets == 936


def test_tree_too_large_is_refused_with_size():
    # leduc (9,457 nodes, estimated at about 11,000) passes the estimate at
    # max_nodes=2000 and stops at the compile-time limit
    with pytest.raises(TreeTooLargeError, match=r"max_nodes=2000 .*information sets so far"):
        compile_game(pyspiel.load_game("leduc_poker"), max_nodes=2000)


def test_checkpoint_resume_is_exact(tmp_path):
    game = pyspiel.load_game("kuhn_poker(players=3)")
    straight = cfr.CFRPlusSolver(game)
    straight.run(20)
    first = cfr.CFRPlusSolver(game)
    first.run(10)
    path = tmp_path / "ckpt.npz"
    first.save_checkpoint(path)
    resumed = cfr.CFRPlusSolver(game)
    resumed.load_checkpoint(path)
    assert resumed.iteration == 10
    resumed.run(10)
    assert np.array_equal(resumed.average_policy_array(), straight.average_policy_array())
    with pytest.raises(ValueError, match="CFRPlusSolver"):
        cfr.CFRSolver(game).load_checkpoint(path)
    with pytest.raises(PolicyFileError, match="not kuhn_poker"):
        cfr.CFRPlusSolver(pyspiel.load_game("kuhn_poker")).load_checkpoint(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    fresh = cfr.CFRPlusSolver(game)
    with pytest.raises(PolicyFileError):
        fresh.load_checkpoint(path)
    assert fresh.iteration == 0 and not np.asarray(fresh._core.cum_policy).any()
