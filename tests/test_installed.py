"""What the installed wheel holds (``./run.sh test`` runs the suite against it).

In place (``./run.sh pytest``) the packages come from the checkout and the
wheel checks are skipped; under ``./run.sh test`` (``GOLDSPIEL_WHEEL_TEST=1``)
every package must come from site-packages, never from the checkout.
"""
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import experiments
import games
import solvers
import src_cy
from repo import REPO_ROOT, WHEEL_TEST

pytestmark = pytest.mark.integration

PACKAGES = (games, solvers, src_cy, experiments)


def _installed() -> bool:
    return all("site-packages" in Path(p.__file__).resolve().parts for p in PACKAGES)


def test_packages_come_from_the_wheel_under_run_sh_test() -> None:
    if not WHEEL_TEST:
        pytest.skip("in-place run: the packages come from the checkout")
    for pkg in PACKAGES:
        path = Path(pkg.__file__).resolve()
        assert "site-packages" in path.parts, f"{pkg.__name__} imported from {path}"
        # the checkout's own package directory, not merely a path under the
        # checkout (the default venv, .venv/, lives inside it)
        source_dir = REPO_ROOT.resolve() / pkg.__name__
        assert source_dir not in path.parents, f"{pkg.__name__} from the checkout"


def test_wheel_contents() -> None:
    if not _installed():
        pytest.skip("packages not installed from a wheel")
    src = Path(src_cy.__file__).resolve().parent
    names = {p.relative_to(src).as_posix() for p in src.rglob("*")}
    assert not [n for n in names if n.endswith((".cpp", ".c"))], "generated C++ in the wheel"
    assert not [n for n in names if n.startswith("ismcts_testgame")], "test engine in the wheel"
    per_game = [f"{g}/{m}" for g in ("gold_thief", "saboteur", "ardillas_del_bosque",
                                      "gold_nugget", "poker")
                for m in ("rules", "resample", "render", "persist", "engine")]
    for stem in ["engine", "gold_thief/rollout", "saboteur/rollout", "ismcts", "mccfr",
                 "cfr_core", "tree_compile"] + per_game:
        assert any(n.startswith(stem + ".") and n.endswith(".so") for n in names), stem
        assert f"{stem}.pyx" in names, f"{stem}.pyx source missing"
    assert {"engine.pxd", "rng.pxd", "rng.py", "gold_thief/actions.pxd",
            "gold_thief/__init__.py"} <= names
    assert (Path(games.__file__).resolve().parent / "gold_thief" / "rules_summary.txt").is_file()
    exp = Path(experiments.__file__).resolve().parent
    assert (exp / "bench" / "bench_engines.py").is_file(), "benchmarks missing"
    assert not (exp / "research").exists(), "research scripts in the wheel"
    script = Path(sys.executable).parent / "goldspiel"      # the console entry point
    assert script.is_file(), "no goldspiel command in the environment"
    out = subprocess.run([str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "tables" in out.stdout


def test_wheel_packages_are_every_package_but_research() -> None:
    """pyproject.toml's package search finds every package of the checkout
    (each game's folders included) except ``experiments.research``."""
    from setuptools import find_packages
    find = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]
    listed = find_packages(str(REPO_ROOT), include=find["include"], exclude=find["exclude"])
    found = {".".join(p.parent.relative_to(REPO_ROOT).parts)
             for top in ("games", "solvers", "experiments", "src_cy")
             for p in (REPO_ROOT / top).rglob("__init__.py")}
    assert "experiments.research" in found
    assert sorted(listed) == sorted(found - {"experiments.research"})
