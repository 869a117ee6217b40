"""MCCFR variants (solvers.mccfr): linear and discounted weighting, regret-based pruning."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from solvers.exploitability import measure_of_array
from solvers.mccfr import MCCFRSolver
from solvers.tree import compile_game

KUHN = pyspiel.load_game("kuhn_poker")
LEDUC = pyspiel.load_game("leduc_poker")


def _tables(s: MCCFRSolver) -> tuple[np.ndarray, np.ndarray]:
    st = s._core.get_state()
    return st["regret"], st["avg"]


@pytest.mark.parametrize("weighting,factors", [
    ("linear", (0.5, 0.5, 0.5)),            # after the 1st interval: n/(n+1) = 1/2
    ("discounted", (0.5, 0.5, 0.25))])      # 1^1.5/(1^1.5+1), 1/2, (1/2)^2
def test_the_first_interval_ends_with_its_discount(weighting, factors):
    plain = MCCFRSolver(LEDUC, seed=4)
    plain.run(40)
    r, a = _tables(plain)
    weighted = MCCFRSolver(LEDUC, seed=4, weighting=weighting, interval=40)
    weighted.run(40)
    rw, aw = _tables(weighted)
    assert np.array_equal(rw, r * np.where(r > 0, factors[0], factors[1]))
    assert np.array_equal(aw, a * factors[2])
    assert (r < 0).any() and (r > 0).any()


def test_discounted_weights_grow_with_the_interval_index():
    """The k-th interval's positive-regret factor is k^1.5 / (k^1.5 + 1)."""
    s = MCCFRSolver(KUHN, seed=1, weighting="discounted", interval=5)
    s.run(10)                                # two intervals: factors for k=1 then k=2
    ref = MCCFRSolver(KUHN, seed=1)
    ref.run(5)
    ref._core.scale(0.5, 0.5, 0.25)
    ref.run(5)
    k = 2 ** 1.5
    ref._core.scale(k / (k + 1), 0.5, (2 / 3) ** 2)
    assert all(np.allclose(x, y) for x, y in zip(_tables(s), _tables(ref)))


@pytest.mark.parametrize("weighting", ["linear", "discounted"])
def test_chunked_runs_and_resumes_equal_one_run(tmp_path, weighting):
    one = MCCFRSolver(LEDUC, seed=2, weighting=weighting, interval=30)
    one.run(100)
    chunked = MCCFRSolver(LEDUC, seed=2, weighting=weighting, interval=30)
    for n in (7, 40, 13):
        chunked.run(n)
    path = str(tmp_path / "w.npz")
    chunked.save_checkpoint(path)
    resumed = MCCFRSolver(LEDUC, seed=2, weighting=weighting, interval=30)
    resumed.load_checkpoint(path)
    resumed.run(40)
    assert one.average_policy_table() == resumed.average_policy_table()
    other = MCCFRSolver(LEDUC, seed=2, weighting=weighting, interval=31)
    with pytest.raises(ValueError, match="interval"):
        other.load_checkpoint(path)
    with pytest.raises(ValueError, match="weighting"):
        MCCFRSolver(LEDUC, seed=2).load_checkpoint(path)


@pytest.mark.parametrize("scheme", ["external", "outcome"])
def test_engine_and_python_paths_agree_with_linear_weighting(scheme):
    tables = []
    for use_engine in (True, False):
        s = MCCFRSolver(KUHN, scheme=scheme, seed=3, use_engine=use_engine,
                        weighting="linear", interval=50)
        s.run(220 if scheme == "external" else 2200)
        tables.append(s.average_policy_table())
    assert tables[0].keys() == tables[1].keys()
    for k in tables[0]:
        assert tables[0][k][:2] == tables[1][k][:2]
        assert np.allclose(tables[0][k][2], tables[1][k][2], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("options", [{"weighting": "linear"}, {"weighting": "discounted"},
                                     {"prune": (-50.0, 0.95, 200)}])
def test_every_variant_converges_on_kuhn(options):
    tree = compile_game(KUHN)
    s = MCCFRSolver(KUHN, seed=5, **options)
    s.run(20_000)
    assert measure_of_array(KUHN, tree, s.policy_array(tree))[1] < 0.02


def test_pruning_skips_the_traversal_of_hopeless_actions():
    """A pruning iteration leaves the regrets of the pruned actions as they
    were; with pruning off (probability 0 past `after`) nothing is skipped."""
    s = MCCFRSolver(LEDUC, seed=6, prune=(-5.0, 0.5, 100))
    s.run(100)                               # not pruning yet: same as plain
    plain = MCCFRSolver(LEDUC, seed=6)
    plain.run(100)
    assert all(np.array_equal(x, y) for x, y in zip(_tables(s), _tables(plain)))
    before, _ = _tables(s)
    s._core.prune_prob = 0.999999            # the next iteration prunes (almost surely)
    s.run(1)
    after = _tables(s)[0][:len(before)]      # rows the iteration created come after
    low = before < -5.0
    assert low.any() and np.array_equal(after[low], before[low])
    assert not np.array_equal(after[~low], before[~low])


def test_bad_variant_arguments_are_refused():
    with pytest.raises(ValueError, match="weighting"):
        MCCFRSolver(KUHN, weighting="quadratic")
    with pytest.raises(ValueError, match="interval"):
        MCCFRSolver(KUHN, weighting="linear", interval=0)
    with pytest.raises(ValueError, match="external"):
        MCCFRSolver(KUHN, scheme="outcome", prune=(-1.0, 0.9, 0))
    with pytest.raises(ValueError, match="prune"):
        MCCFRSolver(KUHN, prune=(1.0, 0.9, 0))
    with pytest.raises(ValueError, match="engine"):
        MCCFRSolver(KUHN, prune=(-1.0, 0.9, 0), use_engine=False)
    with pytest.raises(ValueError, match="probe"):
        MCCFRSolver(KUHN, scheme="probe", fixed_opponents=lambda p, x: 0, weighting="linear")
