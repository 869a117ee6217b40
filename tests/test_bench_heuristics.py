"""``experiments/bench/bench_heuristics.py``: its two paths agree, its rows are made.

Timing itself is not tested; the script is what measures it.
"""
import pytest

from experiments.bench import bench_heuristics as bench


def test_pyspiel_and_engine_paths_play_the_same_moves() -> None:
    n, step, engine = bench.decision_cpu("gold_thief(players=2)", 1, seed=3)
    assert n > 10 and step > 0 and engine > 0


def test_disagreeing_paths_are_refused(monkeypatch) -> None:
    class Wrong:
        def __init__(self, game):
            pass

        def __call__(self, player, engine):
            return -1

    monkeypatch.setattr(bench, "HeuristicOpponents", Wrong)
    with pytest.raises(AssertionError, match="disagree"):
        bench.decision_cpu("gold_thief(players=2)", 1, seed=3)


def test_probe_rows_only_for_probing_solves() -> None:
    assert bench.probe_cpu("gold_nugget", 1, seed=0) is None     # outcome sampling
    assert bench.probe_cpu("gold_thief", 2, seed=0) > 0
    table = bench.main(["--only", "gold_thief", "--games", "1", "--iterations", "2"])
    assert table.count("\n") == 2 and "| gold_thief(players=2) |" in table
