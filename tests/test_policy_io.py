"""Policy table files: round trip, refusal of corrupted/mismatched files, atomic writes."""
import json
import os

import numpy as np
import pyspiel
import pytest

from solvers import cfr, policy_io
from solvers.policy_io import PolicyFileError


@pytest.fixture(scope="module")
def solved():
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    solver.run(50)
    return game, solver


def _write(tmp_path, solved):
    game, solver = solved
    table = policy_io.policy_from_tree(solver.tree, solver.average_policy_array())
    path = tmp_path / "kuhn.policy.json"
    policy_io.save_policy(path, game, table, meta={"iterations": 50})
    return path, table


def test_roundtrip_and_tabular(tmp_path, solved):
    game, solver = solved
    path, table = _write(tmp_path, solved)
    loaded = policy_io.load_policy(path, game)
    assert loaded == table
    tab = policy_io.to_tabular_policy(game, loaded)
    assert np.allclose(tab.action_probability_array,
                       solver.average_policy().to_tabular().action_probability_array, atol=1e-15)
    assert [p for p in os.listdir(tmp_path) if p.startswith(".tmp")] == []


def test_corrupted_file_refused(tmp_path, solved):
    game, _ = solved
    path, _ = _write(tmp_path, solved)
    text = path.read_text()
    i = text.index('"probs"') + len('"probs"')
    j = next(k for k in range(i, len(text)) if text[k].isdigit() and text[k] != "0")
    corrupted = text[:j] + ("2" if text[j] != "2" else "3") + text[j + 1:]
    path.write_text(corrupted)
    with pytest.raises(PolicyFileError, match="checksum"):
        policy_io.load_policy(path, game)
    path.write_text(text[: len(text) // 2])
    with pytest.raises(PolicyFileError, match="cannot read"):
        policy_io.load_policy(path, game)


def test_other_game_and_version_refused(tmp_path, solved):
    path, _ = _write(tmp_path, solved)
    with pytest.raises(PolicyFileError, match="not leduc_poker"):
        policy_io.load_policy(path, pyspiel.load_game("leduc_poker"))
    body = json.loads(path.read_text())
    body["version"] = 99
    path.write_text(json.dumps(body))
    with pytest.raises(PolicyFileError, match="version 99"):
        policy_io.load_policy(path, solved[0])


def test_invalid_distribution_refused_on_save(tmp_path):
    with pytest.raises(PolicyFileError, match="not a distribution"):
        policy_io.save_policy(tmp_path / "x.json", "kuhn_poker()", {"0": (0, [0, 1], [0.7, 0.7])})
    assert not (tmp_path / "x.json").exists()


def test_failed_write_keeps_old_file(tmp_path, solved, monkeypatch):
    game, _ = solved
    path, table = _write(tmp_path, solved)
    before = path.read_bytes()

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        policy_io.save_policy(path, game, table, meta={"other": 1})
    assert path.read_bytes() == before
    assert [p for p in os.listdir(tmp_path) if p.startswith(".tmp")] == []


def test_incomplete_table_refused_for_tabular(solved):
    game, solver = solved
    table = policy_io.policy_from_tree(solver.tree, solver.average_policy_array())
    table.pop(next(iter(table)))
    with pytest.raises(PolicyFileError, match="lacks 1 information states"):
        policy_io.to_tabular_policy(game, table)
