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


def test_old_version_and_other_action_layout_refused(tmp_path, solved):
    """Version 2 records ``num_distinct_actions``; a version-1 file (written
    before Saboteur's ids changed) or a file for another layout is refused."""
    import hashlib
    path, _ = _write(tmp_path, solved)
    body = json.loads(path.read_text())
    assert body["version"] == 2 and body["num_distinct_actions"] == 2
    for key, value, match in (("version", 1, "version 1"),
                              ("num_distinct_actions", 3, "3 distinct actions")):
        changed = {k: v for k, v in body.items() if k != "sha256"}
        changed[key] = value
        changed["sha256"] = hashlib.sha256(policy_io._canonical(changed)).hexdigest()
        path.write_text(json.dumps(changed))
        with pytest.raises(PolicyFileError, match=match):
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


# ----------------------------------------------------------------------
# Array policy files (.npz)
# ----------------------------------------------------------------------
def _npz(tmp_path, solved, name="kuhn.npz"):
    game, solver = solved
    path = tmp_path / name
    policy_io.save_array_policy(path, solver.average_policy(), solver="CFR+", iterations=50,
                                seed=0, strings_file=True)
    return path


def _rewrite(path, mutate):
    """Rewrite an npz after ``mutate(header, arrays)``; the digest is recomputed
    only when ``mutate`` returns True (to test checks beyond the digest)."""
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    header = json.loads(bytes(data.pop("__header__")).decode())
    if mutate(header, data):
        header["digest"] = policy_io._digest_arrays(data)
    np.savez(path, __header__=np.frombuffer(json.dumps(header).encode(), np.uint8), **data)


def test_array_policy_roundtrip(tmp_path, solved):
    game, solver = solved
    path = _npz(tmp_path, solved)
    old = os.umask(0o022)
    try:
        path2 = _npz(tmp_path, solved, "perm.npz")
    finally:
        os.umask(old)
    assert os.stat(path2).st_mode & 0o777 == 0o644
    pol = policy_io.load_array_policy(path, game)
    assert pol.header["solver"] == "CFR+" and pol.header["iterations"] == 50
    assert pol.header["key_kind"] == "engine" and pol.header["seed"] == 0
    assert np.array_equal(pol.policy_array(solver.tree), solver.average_policy_array())
    from open_spiel.python.algorithms import exploitability as os_expl
    assert os_expl.nash_conv(game, pol) == pytest.approx(solver.nash_conv(), abs=1e-12)
    side = json.loads((tmp_path / "kuhn.npz.strings.json").read_text())
    assert side["strings"] == solver.tree.infoset_strings
    assert side["policy_digest"] == pol.header["digest"]
    assert policy_io.load_policy_file(path, game).num_rows == solver.tree.num_infosets
    assert [p for p in os.listdir(tmp_path) if p.startswith(".tmp")] == []


def test_json_table_loads_as_array_policy(tmp_path, solved):
    game, solver = solved
    path, _ = _write(tmp_path, solved)
    pol = policy_io.load_policy_file(path, game)
    assert np.allclose(pol.policy_array(solver.tree), solver.average_policy_array(), atol=1e-15)


@pytest.mark.parametrize("mutate,match", [
    (lambda h, d: d.__setitem__("probs", d["probs"] * 0.5) or False, "digest mismatch"),
    (lambda h, d: d.__setitem__("probs", d["probs"] * 0.5) or True, "not a distribution"),
    (lambda h, d: h.__setitem__("engine_fingerprint", "0" * 64) or True, "another version"),
    (lambda h, d: h.__setitem__("version", 99) or True, "unsupported array policy version"),
    (lambda h, d: h.__setitem__("version", 1) or True, "unsupported array policy version 1"),
    (lambda h, d: h.__setitem__("num_distinct_actions", 3) or True, "another action-id layout"),
    (lambda h, d: d.__setitem__("key_player", d["key_player"] * 0 + 1) or True,
     "key players disagree"),
    (lambda h, d: d.__setitem__("row_num", d["row_num"][:-1]) or True, "row arrays disagree"),
    (lambda h, d: d.pop("keys") is None or True, "missing arrays"),
])
def test_array_policy_refused(tmp_path, solved, mutate, match):
    path = _npz(tmp_path, solved)
    _rewrite(path, mutate)
    with pytest.raises(PolicyFileError, match=match):
        policy_io.load_array_policy(path, solved[0])


def test_array_policy_wrong_game_or_garbage(tmp_path, solved):
    path = _npz(tmp_path, solved)
    with pytest.raises(PolicyFileError, match="not leduc_poker"):
        policy_io.load_array_policy(path, pyspiel.load_game("leduc_poker"))
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(PolicyFileError, match="cannot read"):
        policy_io.load_array_policy(path, solved[0])
    with pytest.raises(PolicyFileError, match="cannot read"):
        policy_io.load_policy_file(tmp_path / "missing.npz", solved[0])


def test_checkpoint_of_another_action_layout_refused(tmp_path):
    path = tmp_path / "ckpt.npz"
    arrays = {"acts": np.arange(3, dtype=np.int64)}
    policy_io.save_arrays(path, kind="mccfr-checkpoint", game="kuhn_poker()", meta={},
                          arrays=arrays)
    meta, data = policy_io.load_arrays(path, kind="mccfr-checkpoint", game="kuhn_poker()")
    assert np.array_equal(data["acts"], arrays["acts"])
    for key, value, match in (("num_distinct_actions", 3, "3 distinct actions"),
                              ("version", 1, "checkpoint of version 2")):
        policy_io.save_arrays(path, kind="mccfr-checkpoint", game="kuhn_poker()", meta={},
                              arrays=arrays)
        _rewrite(path, lambda h, d: h.__setitem__(key, value))
        with pytest.raises(PolicyFileError, match=match):
            policy_io.load_arrays(path, kind="mccfr-checkpoint", game="kuhn_poker()")
