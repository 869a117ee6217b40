"""Probing MCCFR (``scheme="probe"``) and the confident extraction."""
import numpy as np
import pyspiel
import pytest

from solvers.exploitability import best_response_values, compiled_tree, on_policy_values
from solvers.mccfr import MCCFRSolver, confident_rows

KUHN = pyspiel.load_game("kuhn_poker")
LEDUC = pyspiel.load_game("leduc_poker")


def _call(player, x):
    """Fixed opponent: always action 1 (Kuhn: bet/call; Leduc: check/call)."""
    return 1


def _with_fixed(tree, probs, fixed_action):
    """``probs`` with every row of the seats' opponents replaced by the fixed policy;
    returns one array per learning seat."""
    out = []
    for p in range(tree.num_players):
        arr = probs.copy()
        for i in range(tree.num_infosets):
            if int(tree.infoset_player[i]) != p:
                o, n = int(tree.infoset_offset[i]), int(tree.infoset_num_actions[i])
                acts = tree.infoset_actions[o:o + n]
                arr[o:o + n] = (acts == fixed_action).astype(float)
        out.append(arr)
    return out


@pytest.mark.parametrize("game,iters", [(KUHN, 300), (LEDUC, 600)])
def test_probe_greedy_reaches_the_exact_best_response_value(game, iters):
    """Against a fixed always-call opponent, the greedy policy of a probe solve
    earns (in each seat) the exact best-response value from solvers.exploitability."""
    s = MCCFRSolver(game, scheme="probe", seed=3, fixed_opponents=_call, probe_epsilon=0.2)
    s.run(iters)
    tree = compiled_tree(game)
    mine = s.greedy_policy().policy_array(tree)
    for p, probs in enumerate(_with_fixed(tree, mine, 1)):
        br = best_response_values(tree, probs)[p]
        got = on_policy_values(tree, probs)[p]
        assert got == pytest.approx(br, abs=1e-9), (p, got, br)
    # and it is not trivially so: the uniform policy falls short of it
    uniform = _with_fixed(tree, np.asarray(mine) * 0 + _uniform(tree), 1)[0]
    assert on_policy_values(tree, uniform)[0] < best_response_values(tree, uniform)[0] - 0.05


def test_probe_fixed_continuation_improves_on_the_fixed_policy():
    """With ``probe_continuation="fixed"`` the probes finish with the fixed
    policy, so the greedy policy is a one-step (rollout) improvement of it: in
    Leduc against always-call it earns more than always-call itself in each
    seat, though less than the exact best response."""
    s = MCCFRSolver(LEDUC, scheme="probe", seed=3, fixed_opponents=_call,
                    probe_continuation="fixed", probe_epsilon=0.2)
    s.run(600)
    tree = compiled_tree(LEDUC)
    mine = _with_fixed(tree, s.greedy_policy().policy_array(tree), 1)
    base = _with_fixed(tree, _uniform(tree), 1)
    base = [_with_fixed(tree, b, 1)[1 - p] for p, b in enumerate(base)]  # both seats call
    for p in range(2):
        got = on_policy_values(tree, mine[p])[p]
        assert got > on_policy_values(tree, base[p])[p] + 0.1
        assert got <= best_response_values(tree, mine[p])[p] + 1e-9


def _uniform(tree):
    return np.repeat(1.0 / tree.infoset_num_actions, tree.infoset_num_actions)


def test_probe_is_deterministic_by_seed():
    runs = []
    for seed in (5, 5, 6):
        s = MCCFRSolver(LEDUC, scheme="probe", seed=seed, fixed_opponents=_call,
                        probe_baseline=1, probe_prob=0.5)
        s.run(100)
        runs.append({**s._core.table_arrays(), **s._core.probe_stats()})
    assert runs[0].keys() == runs[1].keys()
    assert all(np.array_equal(runs[0][k], runs[1][k]) for k in runs[0])
    assert not np.array_equal(runs[0]["regret"], runs[2]["regret"])
    assert runs[0]["visits"].sum() > 0 and runs[0]["sqdiff"].sum() > 0


def test_probe_checkpoint_resume_equals_uninterrupted(tmp_path):
    kw = dict(scheme="probe", seed=2, fixed_opponents=_call, probe_baseline=1)
    whole = MCCFRSolver(LEDUC, **kw)
    whole.run(120)
    first = MCCFRSolver(LEDUC, **kw)
    first.run(70)
    first.save_checkpoint(tmp_path / "c.npz")
    resumed = MCCFRSolver(LEDUC, **kw)
    resumed.load_checkpoint(tmp_path / "c.npz")
    resumed.run(50)
    a = {**whole._core.get_state()}
    b = {**resumed._core.get_state()}
    assert a.keys() == b.keys() and "visits" in a and "sqdiff" in a
    assert all(np.array_equal(a[k], b[k]) for k in a)
    other = MCCFRSolver(LEDUC, **{**kw, "probe_continuation": "fixed"})
    with pytest.raises(ValueError, match="settings"):
        other.load_checkpoint(tmp_path / "c.npz")


def test_confident_rows_falls_back_without_a_significant_lead():
    """Row 0: action 2 leads the baseline (action 0) by 0.1 on average but with a
    large spread -> baseline; row 1: a small, steady lead -> that action; row 2:
    a clear lead but fewer visits than required -> baseline; row 3 has no
    baseline action -> its greedy (highest regret) action."""
    nact = np.array([3, 2, 2, 2])
    acts = np.array([0, 1, 2, 0, 1, 0, 2, 3, 4])
    n = np.array([100.0, 100.0, 10.0, 50.0])
    # R[a] - R[h] = sum of differences; sqdiff = sum of squared differences
    regret = np.array([0.0, -5.0, 10.0, 0.0, 5.0, 0.0, 9.0, 1.0, 2.0])
    sq = np.array([0.0, 30.0, 400.0, 0.0, 0.26, 0.0, 8.2, 0.0, 0.0])
    out = confident_rows(regret, nact, acts, {"visits": n, "sqdiff": sq}, 0, 2.33, 30)
    assert out.tolist() == [1, 0, 0, 0, 1, 1, 0, 0, 1]
    # with no minimum and z = 0 row 0 and row 2 follow their mean leads
    out = confident_rows(regret, nact, acts, {"visits": n, "sqdiff": sq}, 0, 0.0, 2)
    assert out.tolist() == [0, 0, 1, 0, 1, 0, 1, 0, 1]


def test_confident_policy_of_a_probe_solve():
    """Kuhn against always-bet/call, baseline pass (0), probes finished by the
    fixed policy (always bet/call): with the King facing a bet, calling wins 2
    rather than losing 1 on every visit (zero spread) -> call; with the Queen
    first, passing and betting lead to the same showdown on every deal -> the
    baseline; a huge visit minimum -> the baseline everywhere."""
    s = MCCFRSolver(KUHN, scheme="probe", seed=0, fixed_opponents=_call, probe_baseline=0,
                    probe_continuation="fixed", probe_epsilon=0.5)
    s.run(1000)
    table = s.average_policy_table(greedy="confident")
    assert table["2b"][2] == [0.0, 1.0] and table["1b"][2] == [0.0, 1.0]
    assert table["1"][2] == [1.0, 0.0]
    state = KUHN.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    state.apply_action(0)
    state.apply_action(1)         # player 0 holds the King, passed, and faces a bet
    assert table["2pb"][2] == [0.0, 1.0]
    assert s.confident_policy().action_probabilities(state) == {0: 0.0, 1: 1.0}
    assert s.confident_policy(min_visits=10**9).action_probabilities(state) == {0: 1.0, 1: 0.0}
    with pytest.raises(ValueError, match="baseline"):
        MCCFRSolver(KUHN, scheme="probe", fixed_opponents=_call).confident_policy()


def test_probe_refusals():
    with pytest.raises(ValueError, match="fixed_opponents"):
        MCCFRSolver(KUHN, scheme="probe")
    with pytest.raises(ValueError, match="engine"):
        MCCFRSolver(KUHN, scheme="probe", fixed_opponents=_call, use_engine=False)
    with pytest.raises(ValueError, match="probe_continuation"):
        MCCFRSolver(KUHN, scheme="probe", fixed_opponents=_call, probe_continuation="x")
    with pytest.raises(ValueError, match="probe_prob"):
        MCCFRSolver(KUHN, scheme="probe", fixed_opponents=_call, probe_prob=0.0)
    from solvers.mccfr_parallel import ParallelMCCFR
    with pytest.raises(ValueError, match="probe"):
        ParallelMCCFR(KUHN, scheme="probe", fixed_opponents="heuristic")


def test_gold_thief_default_entry_probes_and_its_fresh_table_plays_the_heuristic():
    """The Gold Thief default entry solves by probing with the confident
    extraction; after two iterations no row has 30 visits, so the confident
    policy plays the heuristic's move at every decision of a game."""
    from games.gold_thief.features import GOLD_THIEF_TABLE
    from solvers.bots import make_bot
    from solvers.policy_tables import decisions, for_preset, table_game
    from src_cy.rng import SplitMix64
    entry = for_preset(GOLD_THIEF_TABLE, "default")
    assert (entry.extra["response_scheme"], entry.extra["extraction"]) == ("probe", "confident")
    game = table_game(GOLD_THIEF_TABLE, "default")
    s = MCCFRSolver(game, scheme="probe", seed=0, abstraction=entry.extra["abstraction"],
                    action_abstraction=entry.extra["action_abstraction"],
                    fixed_opponents="heuristic",
                    probe_continuation=entry.extra["probe_continuation"])
    s.run(2)
    stats = s._core.probe_stats()
    assert 0 < stats["visits"].max() < 30 and s.probe["baseline"] == 0
    confident = s.confident_policy("default")
    bot = make_bot("heuristic", game)
    seen = 0
    for state, p in decisions(game, SplitMix64(4)):
        move = bot.step(state)
        assert confident.action_probabilities(state)[move] == 1.0
        seen += 1
        state.apply_action(move)
        if seen == 40:
            break
    assert seen == 40
    # without the rule's guards (z = 0, 2 visits) some rows would leave it
    t = s._core.table_arrays()
    loose = confident_rows(t["regret"], t["nact"], t["acts"], stats, 0, 0.0, 2)
    assert ((loose > 0) & (t["acts"] != 0)).any()
