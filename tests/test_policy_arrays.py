"""Array-backed policies: agreement with OpenSpiel's own NashConv and lookups."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as os_expl

from games.gold_thief import MINI_PARAMS as GT_MINI
from solvers import cfr, exploitability
from solvers.policy_arrays import ArrayPolicy, PolicyMissError


def _gold_thief_mini():
    return pyspiel.load_game("gold_thief", dict(GT_MINI))


@pytest.mark.parametrize("name,iters", [("kuhn_poker", 30), ("leduc_poker", 5),
                                        ("kuhn_poker(players=3)", 10),
                                        pytest.param("gold_thief_mini", 3, marks=pytest.mark.slow)])
def test_openspiel_nash_conv_agrees(name, iters):
    game = _gold_thief_mini() if name == "gold_thief_mini" else pyspiel.load_game(name)
    solver = cfr.CFRPlusSolver(game)
    solver.run(iters)
    pol = solver.average_policy()
    assert isinstance(pol, ArrayPolicy)
    ours = solver.nash_conv()
    theirs = os_expl.nash_conv(game, pol)
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours > 1e-4  # not trivially zero after few iterations
    assert exploitability.nash_conv(game, pol) == pytest.approx(ours, abs=1e-12)
    assert pol.misses == 0


def test_policy_object_is_shared_and_refreshed():
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    solver.run(1)
    pol = solver.average_policy()
    before = pol.probs.copy()
    solver.run(20)
    assert solver.average_policy() is pol
    assert not np.array_equal(before, pol.probs)
    assert np.array_equal(pol.probs, solver.average_policy_array())


def test_engine_states_use_keys_and_agree_with_strings():
    game = _gold_thief_mini()
    solver = cfr.CFRPlusSolver(game)
    solver.run(5)
    pol = solver.average_policy()
    tab_index = {s: i for i, s in enumerate(solver.tree.infoset_strings)}
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(acts, p=probs)))
                continue
            p = state.current_player()
            row = tab_index[state.information_state_string(p)]
            assert pol.row_of(state) == row
            o, n = solver.tree.infoset_offset[row], solver.tree.infoset_num_actions[row]
            got = pol.action_probabilities(state)
            assert list(got) == solver.tree.infoset_actions[o:o + n].tolist()
            assert np.allclose(list(got.values()), pol.probs[o:o + n])
            checked += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 40 and pol.misses == 0


def test_misses_fall_back_or_raise():
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    solver.run(5)
    t = solver.tree
    keep = t.infoset_player == 0  # a table that only knows player 0's sets
    rows = np.flatnonzero(keep)
    kw = dict(row_player=t.infoset_player[rows], row_offset=t.infoset_offset[rows],
              row_num=t.infoset_num_actions[rows], actions=t.infoset_actions,
              probs=solver.average_policy_array(),
              strings=[t.infoset_strings[i] for i in rows])
    pol = ArrayPolicy(game, **kw)
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    assert pol.row_of(state) >= 0 and pol.misses == 0
    state.apply_action(0)  # player 1 to move: missing
    assert pol.action_probabilities(state) == {0: 0.5, 1: 0.5}
    assert pol.misses == 1 and pol.lookups == 1
    strict = ArrayPolicy(game, fallback="error", **kw)
    with pytest.raises(PolicyMissError, match="no entry for player 1"):
        strict.action_probabilities(state)
    with pytest.raises(ValueError, match="fallback"):
        ArrayPolicy(game, fallback="guess", **kw)


def test_solver_exploitability_only_where_defined():
    game = pyspiel.load_game("kuhn_poker(players=3)")
    solver = cfr.CFRPlusSolver(game)
    solver.run(5)
    with pytest.raises(ValueError, match="2-player"):
        solver.exploitability()
    name, value = solver.measure()
    assert name == "nash_conv" and value == pytest.approx(solver.nash_conv(), abs=0)
    two = cfr.CFRPlusSolver(pyspiel.load_game("kuhn_poker"))
    two.run(5)
    assert two.measure() == ("exploitability", pytest.approx(two.nash_conv() / 2, abs=1e-12))
