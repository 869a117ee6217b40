"""The test tiers of tests/conftest.py: ``--fast`` leaves out slow tests and
fails a test over the CPU limit; ``stat_seed`` keeps defaults unless rotated;
the test engine is found once built."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import conftest

HERE = Path(__file__).resolve().parent

INNER = '''
import time
import pytest

def _burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_quick():
    pass

def test_burns_cpu():
    _burn(0.4)

@pytest.mark.slow
def test_marked_slow():
    _burn(0.4)

def test_seed(stat_seed):
    print("SEED", stat_seed(17))
'''


def _run_inner(tmp_path: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_inner.py").write_text(INNER)
    full_env = {k: v for k, v in os.environ.items()
                if k not in (conftest.STAT_SEED_ENV, conftest.FAST_LIMIT_ENV)}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-s", "-rA", *args, str(tmp_path)],
        cwd=tmp_path, env=full_env, capture_output=True, text=True, timeout=120)


def test_fast_tier_deselects_slow_and_fails_a_test_over_the_limit(tmp_path: Path) -> None:
    out = _run_inner(tmp_path, "--fast", env={conftest.FAST_LIMIT_ENV: "0.2"})
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "FAILED test_inner.py::test_burns_cpu" in text
    assert "over the fast tier's 0.2 s: make it faster or mark it slow" in text
    assert "PASSED test_inner.py::test_quick" in text
    assert "test_marked_slow" not in text.replace("1 deselected", "")
    assert "1 deselected" in text
    assert "SEED 17" in text


def test_full_tier_runs_everything_without_a_limit(tmp_path: Path) -> None:
    out = _run_inner(tmp_path, env={conftest.FAST_LIMIT_ENV: "0.2",
                                    conftest.STAT_SEED_ENV: "20261202"})
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "4 passed" in text
    rotated = conftest.derived_seed("20261202", "test_inner.py::test_seed", 17)
    assert f"SEED {rotated}" in text and rotated != 17
    assert "statistical seed: 20261202" in text


def test_bad_fast_limit_is_a_usage_error(tmp_path: Path) -> None:
    out = _run_inner(tmp_path, "--fast", env={conftest.FAST_LIMIT_ENV: "soon"})
    assert out.returncode == 4, out.stdout + out.stderr
    assert "GOLDSPIEL_FAST_LIMIT='soon' is not a number" in out.stdout + out.stderr


def test_derived_seeds_differ_by_rotation_test_and_default() -> None:
    seeds = {conftest.derived_seed(base, node, default)
             for base in ("1", "2") for node in ("a::t", "b::t") for default in (0, 1)}
    assert len(seeds) == 8
    assert all(0 <= s < 2 ** 31 for s in seeds)
    assert conftest.derived_seed("1", "a::t", 0) == conftest.derived_seed("1", "a::t", 0)


def test_stat_seed_marks_the_test_statistical(request: pytest.FixtureRequest,
                                             stat_seed) -> None:
    assert request.node.get_closest_marker("statistical") is not None
    expected = 5 if not os.environ.get(conftest.STAT_SEED_ENV) else conftest.derived_seed(
        os.environ[conftest.STAT_SEED_ENV], request.node.nodeid, 5)
    assert stat_seed(5) == expected


def test_test_engine_is_found_by_its_built_name() -> None:
    """After a build the extension sits at tests/cy/<module><EXT_SUFFIX>, the
    path ``testgames.build`` checks, and a second build does not recompile."""
    import testgames
    testgames.build()
    built = testgames.CY_DIR / f"{testgames.MODULE}{sysconfig.get_config_var('EXT_SUFFIX')}"
    assert built.exists()
    mtime = built.stat().st_mtime_ns
    testgames.build()
    assert built.stat().st_mtime_ns == mtime


def test_slow_above_min_players_marks_larger_counts_only() -> None:
    from tiers import players_of, slow_above_min_players
    cases = [{"players": 3}, "gold_thief(players=2)", ({"players": 5}, 1), 2, {}]
    assert [players_of("gold_thief", c) for c in cases] == [3, 2, 5, 2, 4]  # {} is the default, 4 players
    params = slow_above_min_players("gold_thief", cases)
    slow = [any(m.name == "slow" for m in p.marks) for p in params]
    assert slow == [True, False, True, False, True]
    assert params[2].values == ({"players": 5}, 1) and params[0].values == ({"players": 3},)
    kept = slow_above_min_players("gold_thief", [
        pytest.param(2, marks=pytest.mark.integration, id="two"), 3])
    assert [m.name for m in kept[0].marks] == ["integration"] and kept[0].id == "two"
    assert [m.name for m in kept[1].marks] == ["slow"]
    with pytest.raises(TypeError, match="player count"):
        players_of("gold_thief", 2.5)
