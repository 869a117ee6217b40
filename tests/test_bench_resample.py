"""``experiments/bench/bench_resample.py``: its rows are made and its
arguments checked.  Timing itself is not tested; the script measures it."""
import pytest

from experiments.bench import bench_resample as bench


def test_per_call_draws_blocks_per_position() -> None:
    calls = []
    states = ["a", "b"]
    bench.per_call(lambda s, i: calls.append((s, i)), states, 1e-9, block=3)
    assert [s for s, _ in calls[:6]] == ["a", "a", "a", "b", "b", "b"]
    assert [i for _, i in calls[:6]] == list(range(6))


def test_row_has_every_way_and_the_table_renders() -> None:
    row = bench.bench("Gold Thief 2p", "gold_thief(players=2)", 2, 0.01, 0, repeats=2, block=2)
    assert row["positions"] == 2 and row["length"] > 0
    assert all(row[k] > 0 for k in ("engine", "chained", "clone", "api", "replay"))
    assert 1 <= row["distinct"] <= 64
    assert row["accepted"] is None or 0 <= row["accepted"] <= 1
    table = bench.table([row])
    assert table.count("\n") == 2 and "| Gold Thief 2p | 2 (" in table
    assert table.split("\n")[2].count("|") == table.split("\n")[0].count("|") == 14


def test_chain_mixing_counts_distinct_worlds_and_acceptance() -> None:
    """Gold Thief 4p positions past stage 1: the chained worlds are mostly
    distinct and some proposals are accepted, not all."""
    import pyspiel
    states = bench.positions(pyspiel.load_game("gold_thief(players=4)"), 6, 0)[3:5]
    distinct, accepted = bench.chain_mixing(states, 16)
    assert 1 < distinct <= 16 and 0 < accepted < 1


@pytest.mark.parametrize("flag", ["--repeats", "--block", "--positions"])
def test_bad_counts_are_refused(flag: str, capsys) -> None:
    with pytest.raises(SystemExit):
        bench.main([flag, "0", "--only", "Gold Thief 2p"])
    assert "--block >= 1" in capsys.readouterr().err


def test_engine_settings_are_checked_and_scoped(capsys) -> None:
    """--gold-nugget-steps refuses a negative count and --write (the docs'
    section holds default-setting runs), and the run leaves the engines'
    settings (Gold Nugget's corrector, Gold Thief's K) as it found them."""
    from src_cy.gold_nugget.engine import set_resample_corrector
    from src_cy.gold_thief.engine import set_model_proposals
    before = set_resample_corrector()
    k = set_model_proposals(8)
    set_model_proposals(k)
    with pytest.raises(SystemExit):
        bench.main(["--gold-thief-k", "3", "--gold-nugget-steps", "-1"])
    for argv in (["--gold-nugget-steps", "-1"], ["--gold-nugget-steps", "0", "--write"]):
        with pytest.raises(SystemExit):
            bench.main(argv + ["--only", "Gold Nugget 2p"])
    err = capsys.readouterr().err
    assert "must be >= 0, got -1" in err and "--write keeps the engines' default" in err
    bench.main(["--gold-nugget-steps", "0", "--only", "Gold Nugget 2p", "--positions", "1",
                "--seconds", "0.001", "--repeats", "1", "--block", "1"])
    assert "--gold-nugget-steps 0" in capsys.readouterr().out
    bench.main(["--gold-thief-k", "3", "--only", "Gold Thief 2p", "--positions", "1",
                "--seconds", "0.001", "--repeats", "1", "--block", "1"])
    assert set_resample_corrector() == before
    assert set_model_proposals(k) == k
