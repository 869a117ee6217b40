"""MCCFR on engines (Cython) and on pyspiel games (Python path)."""
import numpy as np
import pyspiel
import pytest

from solvers.exploitability import compiled_tree, exploitability_of_array
from solvers.mccfr import MCCFRSolver
from solvers.policy_io import PolicyFileError
from src_cy.poker.engine import KuhnEngine

KUHN = pyspiel.load_game("kuhn_poker")


def _expl(solver, game):
    tree = compiled_tree(game)
    return exploitability_of_array(tree, solver.policy_array(tree))


@pytest.mark.parametrize("scheme,iters,bound", [("external", 20000, 0.01),
                                                ("outcome", 100000, 0.02)])
def test_engine_mccfr_converges_on_kuhn(scheme, iters, bound):
    s = MCCFRSolver(KUHN, scheme=scheme, seed=3)
    assert s.backend == "engine"
    s.run(iters)
    assert s.num_infosets == 12
    assert _expl(s, KUHN) < bound


def test_engine_external_sampling_on_leduc():
    game = pyspiel.load_game("leduc_poker")
    s = MCCFRSolver(game, seed=0)
    s.run(100000)
    assert s.num_infosets == 936
    assert _expl(s, game) < 0.1


@pytest.mark.parametrize("scheme", ["external", "outcome"])
def test_python_path_converges_on_kuhn(scheme):
    s = MCCFRSolver(KUHN, scheme=scheme, seed=1, use_engine=False)
    assert s.backend == "pyspiel"
    s.run(3000)
    assert _expl(s, KUHN) < 0.06
    tab = s.average_policy().to_tabular()
    assert np.allclose(tab.action_probability_array.sum(axis=1), 1.0)


def test_engine_solver_accepts_engine_directly():
    s = MCCFRSolver(KuhnEngine({"players": 3}), seed=0)
    s.run(500)
    assert s.num_infosets == 48
    with pytest.raises(ValueError, match="needs a pyspiel game"):
        s.average_policy()


@pytest.mark.parametrize("use_engine", [True, False])
def test_deterministic_by_seed(use_engine):
    def table(seed):
        s = MCCFRSolver(KUHN, seed=seed, use_engine=use_engine)
        s.run(300)
        return s.average_policy_table()
    assert table(5) == table(5)
    assert table(5) != table(6)


@pytest.mark.parametrize("use_engine", [True, False])
@pytest.mark.parametrize("scheme", ["external", "outcome"])
def test_checkpoint_resume_is_exact(tmp_path, use_engine, scheme):
    straight = MCCFRSolver(KUHN, scheme=scheme, seed=2, use_engine=use_engine)
    straight.run(400)
    first = MCCFRSolver(KUHN, scheme=scheme, seed=2, use_engine=use_engine)
    first.run(200)
    path = tmp_path / "m.npz"
    first.save_checkpoint(path)
    resumed = MCCFRSolver(KUHN, scheme=scheme, seed=99, use_engine=use_engine)
    resumed.load_checkpoint(path)
    assert resumed.iteration == 200
    resumed.run(200)
    assert resumed.average_policy_table() == straight.average_policy_table()
    other = "outcome" if scheme == "external" else "external"
    with pytest.raises(ValueError, match="settings"):
        MCCFRSolver(KUHN, scheme=other, use_engine=use_engine).load_checkpoint(path)
    with pytest.raises(PolicyFileError, match="not leduc"):
        MCCFRSolver(pyspiel.load_game("leduc_poker"), scheme=scheme,
                    use_engine=use_engine).load_checkpoint(path)


def test_abstraction_shares_rows():
    def by_card(player, info):
        return info[0]          # Kuhn: the private card only
    s = MCCFRSolver(KUHN, seed=0, abstraction=by_card)
    s.run(2000)
    assert s.num_infosets == 6  # 3 cards x 2 players
    probs = s.policy_array(compiled_tree(KUHN))
    assert np.allclose(probs.reshape(-1, 2).sum(axis=1), 1.0)


def test_abstraction_mixing_action_counts_refused():
    s = MCCFRSolver(pyspiel.load_game("leduc_poker"), seed=0, abstraction=lambda p, i: 0)
    with pytest.raises(ValueError, match="mixes information states"):
        s.run(50)


def test_bad_arguments_refused():
    with pytest.raises(ValueError, match="scheme"):
        MCCFRSolver(KUHN, scheme="chance")
    with pytest.raises(ValueError, match="epsilon"):
        MCCFRSolver(KUHN, scheme="outcome", epsilon=0.0)
    with pytest.raises(TypeError, match="pyspiel.Game or an engine"):
        MCCFRSolver("kuhn_poker")


def test_array_policy_matches_table_and_openspiel():
    from open_spiel.python.algorithms import exploitability as os_expl
    game = pyspiel.load_game("leduc_poker")
    s = MCCFRSolver(game, seed=4)
    s.run(300)
    pol = s.average_policy()
    table = s.average_policy_table()
    tree = compiled_tree(game)
    expected = np.zeros(tree.num_slots)
    for i, info in enumerate(tree.infoset_strings):
        o, n = tree.infoset_offset[i], tree.infoset_num_actions[i]
        expected[o:o + n] = table[info][2] if info in table else 1.0 / n
    assert np.allclose(pol.policy_array(tree), expected, atol=1e-15)
    from solvers.exploitability import nash_conv_of_array
    assert os_expl.nash_conv(game, pol) == pytest.approx(
        nash_conv_of_array(tree, expected), abs=1e-9)


@pytest.mark.parametrize("scheme", ["external", "outcome"])
def test_keyless_strings_run_resumes_identically(tmp_path, scheme):
    game = pyspiel.load_game("leduc_poker")
    tree = compiled_tree(game)
    with_strings = MCCFRSolver(game, scheme=scheme, seed=7)
    with_strings.run(400)
    straight = MCCFRSolver(game, scheme=scheme, seed=7, keep_strings=False)
    straight.run(400)
    with pytest.raises(ValueError, match="keep_strings=False"):
        straight.average_policy_table()
    first = MCCFRSolver(game, scheme=scheme, seed=7, keep_strings=False)
    first.run(150)
    path = tmp_path / "c.npz"
    first.save_checkpoint(path)
    resumed = MCCFRSolver(game, scheme=scheme, seed=0, keep_strings=False)
    resumed.load_checkpoint(path)
    resumed.run(250)
    a = resumed.average_policy()
    assert np.array_equal(a.probs, straight.average_policy().probs)
    assert np.array_equal(a.policy_array(tree), with_strings.policy_array(tree))
    with pytest.raises(ValueError, match="settings"):
        MCCFRSolver(game, scheme=scheme).load_checkpoint(path)


def test_engine_abstraction_and_named_policy_file(tmp_path, monkeypatch):
    from solvers import abstractions, policy_io
    from solvers.bots import make_bot

    def by_card_and_actions(player, engine):
        return (engine.info_string(player)[0], tuple(engine.py_legal_actions()))
    by_card_and_actions.uses_engine = True
    monkeypatch.setitem(abstractions._REGISTRY, "kuhn_card", by_card_and_actions)
    s = MCCFRSolver(KUHN, seed=0, abstraction="kuhn_card")
    s.run(2000)
    assert s.num_infosets == 6
    pol = s.average_policy()
    state = KUHN.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    probs = pol.action_probabilities(state)
    assert pol.misses == 0 and probs[1] > 0.2  # the King bets often
    path = tmp_path / "abs.npz"
    policy_io.save_array_policy(path, pol, solver="ES-MCCFR", iterations=2000, seed=0,
                                meta={"abstraction": "kuhn_card"})
    bot = make_bot("cfr", KUHN, policy_file=str(path))
    assert dict(bot.step_with_policy(state)[0]) == probs
    assert bot.stats()["misses"] == 0
    with pytest.raises(ValueError, match="reads the engine"):
        MCCFRSolver(KUHN, abstraction="kuhn_card", use_engine=False)
    with pytest.raises(ValueError, match="unknown abstraction"):
        MCCFRSolver(KUHN, abstraction="nope")


@pytest.mark.parametrize("use_engine", [True, False])
@pytest.mark.parametrize("scheme,iters", [("external", 2000), ("outcome", 20000)])
def test_fixed_opponents_give_a_best_response(use_engine, scheme, iters):
    """Against an opponent who always bets/calls, the best response with the
    Jack checks and folds, and with the Queen calls a bet."""
    s = MCCFRSolver(KUHN, scheme=scheme, seed=0, use_engine=use_engine,
                    fixed_opponents=lambda player, x: 1)
    s.run(iters)
    table = s.average_policy_table()
    assert set(table) == {"0", "0b", "0pb", "1", "1b", "1pb", "2", "2b", "2pb"}
    assert table["0"][2][0] > 0.95 and table["0pb"][2][0] > 0.95   # J: check, fold
    assert table["0b"][2][0] > 0.95                                 # J facing a bet: fold
    assert table["1b"][2][1] > 0.95 and table["2b"][2][1] > 0.95   # Q, K facing a bet: call
    with pytest.raises(ValueError, match="unknown fixed opponent"):
        MCCFRSolver(KUHN, fixed_opponents="nobody")
    with pytest.raises(TypeError, match="fixed_opponents"):
        MCCFRSolver(KUHN, fixed_opponents=3)


@pytest.mark.parametrize("scheme", ["external", "outcome"])
@pytest.mark.parametrize("game_name,option", [
    ("kuhn_poker", "plain"), ("kuhn_poker", "fixed_opponents"),
    ("leduc_poker", "plain"), ("leduc_poker", "action_abstraction"),
    ("leduc_poker", "fixed_opponents")])  # kuhn has no action to abstract away
def test_engine_and_python_paths_agree(game_name, scheme, option):
    """Both paths draw from SplitMix64 in the same order: identical tables."""
    from solvers.abstractions import ActionAbstraction

    class CallOrRaise(ActionAbstraction):
        name = "test_call_or_raise"
        action_names = ("call", "raise")

        def candidates(self, player, info, legal):
            return [1 if 1 in legal else None, 2 if 2 in legal else None]

    game = pyspiel.load_game(game_name)
    kw = {}
    if option == "action_abstraction":
        kw["action_abstraction"] = CallOrRaise()
    if option == "fixed_opponents":
        kw["fixed_opponents"] = lambda player, x: 1
    tables = []
    for use_engine in (True, False):
        s = MCCFRSolver(game, scheme=scheme, seed=11, use_engine=use_engine, **kw)
        assert s.backend == ("engine" if use_engine else "pyspiel")
        s.run(300 if scheme == "external" else 3000)
        tables.append(s.average_policy_table())
    assert len(tables[0]) > 5
    assert tables[0] == tables[1]


@pytest.mark.parametrize("use_engine", [True, False])
def test_greedy_policy_is_the_regret_argmax_best_response(use_engine):
    """Against an opponent who always bets/calls, the greedy policy after a few
    external-sampling iterations is the pure best response, one-hot per row
    at the largest cumulative regret; both paths agree."""
    import numpy as np
    from solvers.mccfr import one_hot_rows
    s = MCCFRSolver(KUHN, scheme="external", seed=0, use_engine=use_engine,
                    fixed_opponents=lambda player, x: 1)
    s.run(200)
    greedy = s.average_policy_table(greedy=True)
    best = {"0": 0, "0b": 0, "0pb": 0, "1b": 1, "1pb": 1, "2b": 1, "2pb": 1}
    for label, action in best.items():
        assert greedy[label][2] == [1.0 if a == action else 0.0 for a in greedy[label][1]]
    assert all(sorted(p) == [0.0, 1.0] for _, _, p in greedy.values())
    pol = s.greedy_policy()
    state = KUHN.new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    assert pol.action_probabilities(state) == {0: 1.0, 1: 0.0}      # J: check
    assert list(one_hot_rows(np.array([1.0, 3.0, 3.0, -1.0, -2.0]), np.array([3, 2]))) == \
        [0.0, 1.0, 0.0, 1.0, 0.0]                                    # first of equals


def test_greedy_tables_agree_across_paths():
    tables = []
    for use_engine in (True, False):
        s = MCCFRSolver(pyspiel.load_game("leduc_poker"), scheme="external", seed=3, use_engine=use_engine,
                        fixed_opponents=lambda player, x: 1)
        s.run(100)
        tables.append(s.average_policy_table(greedy=True))
    assert len(tables[0]) > 5 and tables[0] == tables[1]


def test_purified_policy_plays_each_rows_most_probable_action():
    game = pyspiel.load_game("kuhn_poker")
    s = MCCFRSolver(game, seed=3)
    s.run(300)
    avg, pure = s.average_policy(), s.purified_policy()
    rows = 0
    for o, n in zip(avg.row_offset.tolist(), avg.row_num.tolist()):
        p, q = avg.probs[o:o + n], pure.probs[o:o + n]
        assert sorted(q.tolist()) == [0.0] * (n - 1) + [1.0]
        assert q.argmax() == p.argmax()
        rows += 1
    assert rows == 12


def test_checkpoint_refuses_another_exploration(tmp_path):
    game = pyspiel.load_game("kuhn_poker")
    s = MCCFRSolver(game, scheme="outcome", seed=1, epsilon=0.3)
    s.run(20)
    s.save_checkpoint(tmp_path / "c.npz")
    MCCFRSolver(game, scheme="outcome", seed=1, epsilon=0.3).load_checkpoint(tmp_path / "c.npz")
    with pytest.raises(ValueError, match="epsilon"):
        MCCFRSolver(game, scheme="outcome", seed=1).load_checkpoint(tmp_path / "c.npz")
