"""experiments.policy_tables end to end on the built-in demo games."""
import csv

import pyspiel
import pytest

from experiments import policy_tables as script
from solvers import policy_io
from solvers.policy_tables import GameEntry, register


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def _policy(row) -> dict:
    """Parse the CSV policy cell 'a=0.6; b=0.4' into {action: probability}."""
    return {a.strip(): float(p) for a, p in (item.rsplit("=", 1) for item in row["policy"].split("; "))}


def test_cfr_tables_written_and_consistent(tmp_path):
    (summary,) = script.main(["--games", "kuhn_poker", "--out", str(tmp_path)])
    assert summary["solver"] == "CFR+" and summary["exploitability"] < 1e-3
    folder = tmp_path / "kuhn_poker"
    for name in ("policy_table.csv", "policy_table.md", "policy.json", "convergence.png"):
        assert (folder / name).stat().st_size > 0, name
    rows = _rows(folder / "policy_table.csv")
    openers = [r for r in rows if r["player"] == "0" and r["betting"] == "-"]
    assert sum(float(r["reach"]) for r in openers) == pytest.approx(1.0, abs=1e-5)
    k_call = next(r for r in rows if r["player"] == "1" and r["card"] == "K" and r["betting"] == "b")
    assert _policy(k_call)["Bet"] > 0.99          # never fold the best card
    for r in rows:
        assert sum(_policy(r).values()) == pytest.approx(1.0, abs=2e-3)
    table = policy_io.load_policy(folder / "policy.json", pyspiel.load_game("kuhn_poker"))
    assert len(table) == 12


def test_mccfr_path(tmp_path):
    (summary,) = script.main(["--games", "leduc_poker", "--solver", "mccfr",
                              "--iterations", "4000", "--out", str(tmp_path)])
    assert summary["solver"] == "ES-MCCFR" and summary["exploitability"] < 1.0
    assert len(_rows(tmp_path / "leduc_poker" / "policy_table.csv")) > 20


def test_bad_flags_refused(tmp_path):
    with pytest.raises(SystemExit):
        script.main(["--games", "no_such_game", "--out", str(tmp_path)])
    with pytest.raises(ValueError, match="needs a name"):
        register(GameEntry(name="", load=lambda p: None, features=lambda s, p: {},
                           feature_doc={}))


def test_resume_continues_from_the_checkpoint(tmp_path):
    args = ["--games", "kuhn_poker", "--iterations", "400", "--out", str(tmp_path), "--resume"]
    (first,) = script.main(args)
    assert (tmp_path / "kuhn_poker" / "checkpoint-auto.npz").exists()
    table_first = (tmp_path / "kuhn_poker" / "policy_table.csv").read_text()
    # a finished run resumes at its end: nothing left to do, same table
    (again,) = script.main(args)
    assert again["seconds"] == 0.0
    assert (tmp_path / "kuhn_poker" / "policy_table.csv").read_text() == table_first
    # asking for more iterations continues from 400 and changes the policy
    (more,) = script.main(["--games", "kuhn_poker", "--iterations", "800", "--out",
                           str(tmp_path), "--resume"])
    assert (tmp_path / "kuhn_poker" / "policy_table.csv").read_text() != table_first
    fresh_dir = tmp_path / "fresh"
    script.main(["--games", "kuhn_poker", "--iterations", "800", "--out", str(fresh_dir)])
    assert (fresh_dir / "kuhn_poker" / "policy_table.csv").read_text() == \
        (tmp_path / "kuhn_poker" / "policy_table.csv").read_text()
