"""experiments.policy_tables end to end on the built-in demo games."""
import csv

import pyspiel
import pytest

from experiments import policy_tables as script
from solvers import policy_io
from solvers.policy_tables import GameEntry

pytestmark = pytest.mark.integration


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def _policy(row) -> dict:
    """Parse the CSV policy cell 'a=0.6; b=0.4' into {action: probability}."""
    return {a.strip(): float(p) for a, p in (item.rsplit("=", 1) for item in row["policy"].split("; "))}


def test_cfr_tables_written_and_consistent(tmp_path):
    (summary,) = script.main(["--games", "kuhn_poker", "--out", str(tmp_path)])
    assert summary["solver"] == "CFR+" and summary["measure"] == "exploitability"
    assert summary["value"] < 1e-3
    folder = tmp_path / "kuhn_poker"
    for name in ("policy_table.csv", "policy_table.md", "policy.npz", "convergence.png",
                 "convergence.csv"):
        assert (folder / name).stat().st_size > 0, name
    rows = _rows(folder / "policy_table.csv")
    openers = [r for r in rows if r["player"] == "0" and r["betting"] == "-"]
    assert sum(float(r["reach"]) for r in openers) == pytest.approx(1.0, abs=1e-5)
    k_call = next(r for r in rows if r["player"] == "1" and r["card"] == "K" and r["betting"] == "b")
    assert _policy(k_call)["Bet"] > 0.99          # never fold the best card
    for r in rows:
        assert sum(_policy(r).values()) == pytest.approx(1.0, abs=2e-3)
    policy = policy_io.load_array_policy(folder / "policy.npz", pyspiel.load_game("kuhn_poker"))
    assert policy.num_rows == 12 and policy.header["solver"] == "CFR+"


def test_mccfr_path(tmp_path):
    (summary,) = script.main(["--games", "leduc_poker", "--solver", "mccfr",
                              "--iterations", "4000", "--out", str(tmp_path)])
    assert summary["solver"] == "ES-MCCFR" and summary["measure"] == "exploitability"
    assert summary["value"] < 1.0
    assert len(_rows(tmp_path / "leduc_poker" / "policy_table.csv")) > 20


def test_bad_flags_refused(tmp_path):
    with pytest.raises(SystemExit):
        script.main(["--games", "no_such_game", "--out", str(tmp_path)])
    with pytest.raises(ValueError, match="needs a name"):
        GameEntry(name="", load=lambda p: None, features=lambda s, p: {}, feature_doc={})


@pytest.mark.slow
def test_resume_continues_from_the_checkpoint(tmp_path):
    args = ["--games", "kuhn_poker", "--iterations", "400", "--out", str(tmp_path), "--resume"]
    (first,) = script.main(args)
    assert (tmp_path / "kuhn_poker" / "checkpoint-auto-seed0.npz").exists()
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


def _files(folder):
    return {n: (folder / n).read_bytes() for n in ("policy.npz", "policy_table.csv",
                                                     "policy_table.md")}


@pytest.mark.slow
def test_same_seed_gives_identical_files(tmp_path):
    runs = {}
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        script.main(["--games", "leduc_poker", "--solver", "mccfr", "--iterations", "600",
                     "--seed", str(seed), "--out", str(tmp_path / name)])
        runs[name] = _files(tmp_path / name / "leduc_poker")
    assert runs["a"] == runs["b"]
    assert runs["a"]["policy.npz"] != runs["c"]["policy.npz"]


def test_general_sum_game_reports_nash_conv(tmp_path, monkeypatch):
    (summary,) = script.main(["--games", "kuhn_poker", "--iterations", "50",
                              "--out", str(tmp_path)])
    assert summary["measure"] == "exploitability"
    # 3-player kuhn is not 2-player constant-sum: NashConv, under its own name
    kuhn3 = GameEntry(name="kuhn3", load=lambda p: pyspiel.load_game("kuhn_poker(players=3)"),
                      features=lambda s, p: {"card": s.information_state_string(p)[0]},
                      feature_doc={"card": "own card"}, cfr_iterations=30)
    monkeypatch.setattr(script, "load_registry", lambda: {"kuhn3": kuhn3})
    (summary,) = script.main(["--games", "kuhn3", "--out", str(tmp_path)])
    assert summary["measure"] == "nash_conv" and summary["value"] > 0
    header = (tmp_path / "kuhn3" / "convergence.csv").read_text().splitlines()[0]
    assert header == "iterations,seconds,nash_conv,ci95"


@pytest.mark.slow
def test_killed_run_resumes_to_the_identical_table(tmp_path, monkeypatch):
    from solvers.mccfr import MCCFRSolver
    args = ["--games", "leduc_poker", "--solver", "mccfr", "--iterations", "1000",
            "--seed", "3", "--resume"]
    script.main(args + ["--out", str(tmp_path / "straight")])
    real_run, calls = MCCFRSolver.run, []

    def dying_run(self, n):
        calls.append(n)
        if len(calls) == 65:
            raise KeyboardInterrupt  # killed in the middle of the 7th chunk (10 runs each)
        real_run(self, n)

    monkeypatch.setattr(MCCFRSolver, "run", dying_run)
    monkeypatch.setattr(script, "CHECKPOINT_MIN_SECONDS", 0.0)
    with pytest.raises(KeyboardInterrupt):
        script.main(args + ["--out", str(tmp_path / "killed")])
    monkeypatch.setattr(MCCFRSolver, "run", real_run)
    ckpt = tmp_path / "killed" / "leduc_poker" / "checkpoint-mccfr-seed3.npz"
    meta, _ = policy_io.load_arrays(ckpt, kind="mccfr-checkpoint", game="leduc_poker()")
    assert ckpt.exists() and not (tmp_path / "killed" / "leduc_poker" / "policy.npz").exists()
    (resumed,) = script.main(args + ["--out", str(tmp_path / "killed")])
    assert resumed["iterations"] == 1000
    assert _files(tmp_path / "killed" / "leduc_poker") == \
        _files(tmp_path / "straight" / "leduc_poker")


def test_a_long_chunk_is_checkpointed_inside(tmp_path, monkeypatch):
    """With CHECKPOINT_MAX_SECONDS passed, a checkpoint comes before the chunk ends."""
    from solvers.mccfr import MCCFRSolver
    saved = []
    real_save = MCCFRSolver.save_checkpoint

    def counting_save(self, path):
        saved.append(self.iteration)
        real_save(self, path)

    monkeypatch.setattr(MCCFRSolver, "save_checkpoint", counting_save)
    monkeypatch.setattr(script, "CHECKPOINT_MAX_SECONDS", 0.0)
    monkeypatch.setattr(script, "CHECKPOINTS", 2)
    script.main(["--games", "kuhn_poker", "--solver", "mccfr", "--iterations", "200",
                 "--resume", "--save-policy", "no", "--out", str(tmp_path)])
    assert saved[0] == 10 and saved[-1] == 200     # chunks of 100, sub-chunks of 10
    assert len(saved) == 20
