"""A sixth game needs only its own folders, its rules doc and one import line.

``tests/template/`` holds a complete small game, High Card (N-card Kuhn
poker), laid out as a new game would be: ``games/high_card/`` (adapter,
parameters, spec, heuristic, table features, renderer), ``src_cy/high_card/`` (the
Cython engine and its view), ``tests/games/high_card/`` and
``docs/rules/high_card.md``.  The test copies the library's packages (as
imported: the checkout or the installed wheel, built modules included),
``setup.py`` and ``pyproject.toml`` into a scratch tree, adds the template's
files and the one line ``from games import high_card`` to
``games/__init__.py``, builds only the new engine with the project's own
``setup.py``, and checks in a fresh interpreter that every registry of the
library (pyspiel, specs, bots, ISMCTS, MCCFR and CFR+, the policy tables,
the terminal renderer, the benchmarks' rows, the parameter docs, the
build's hot-module rule) finds
the game; then it checks that no file outside the new folders changed but
that one line.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import experiments
import games
import solvers
import src_cy
from repo import REPO_ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TEMPLATE = Path(__file__).resolve().parent / "template"
IMPORT_LINE = "from games import high_card  # noqa: F401\n"
NEW = ("games/high_card/", "src_cy/high_card/", "tests/games/high_card/",
       "docs/rules/high_card.md")
# Files the build writes (not sources anyone edits).
BUILT = (".so", ".cpp", ".pyc")

CHECK = r'''
import sys
from pathlib import Path
import pyspiel
import games
from games import testing
from games.spec import bench_rows, get_spec, specs

root = Path.cwd()
assert Path(games.__file__).resolve().parent == root / "games", games.__file__
spec = get_spec("high_card")
assert spec.name in [s.name for s in specs()]
game = pyspiel.load_game("high_card")
pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
testing.check_game(game)
for benchmark in ("engines", "search", "resample"):
    assert any(r.game == "high_card()" for r in bench_rows(benchmark)), benchmark

from solvers import bots
from solvers.ismcts import ISMCTSBot
from solvers.mccfr import MCCFRSolver
from solvers.cfr import CFRPlusSolver
state = game.new_initial_state()
state.apply_action(4)
state.apply_action(0)
assert bots.make_bot("heuristic", game).step(state) == 1      # top card: bet
assert ISMCTSBot(game, max_simulations=300, seed=1).step(state) in (0, 1)
assert bots.make_bot("best", game, seed=1).step(state) in (0, 1)
mini = spec.load("mini")
mc = MCCFRSolver(mini, seed=1)
assert mc.backend == "engine", mc.backend
mc.run(2000)
cfr = CFRPlusSolver(mini)
cfr.run(300)
assert cfr.tree.num_infosets == 12                              # Kuhn poker
from solvers.exploitability import exploitability
assert exploitability(mini, cfr.average_policy()) < 0.01

from experiments import policy_tables
(summary,) = policy_tables.main(["--games", "high_card", "--out", str(root / "results")])
assert (root / "results" / "high_card" / "policy_table.csv").is_file()

from experiments.play_render import renderer
assert type(renderer(game)).__name__ == "HighCardRenderer"
screen = renderer(game).screen(state, 1)
assert "your card: 0" in screen and "4" not in screen, screen
from src_cy.build_rules import is_hot
assert is_hot("high_card.engine")
print("template game OK")
'''


def _tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative path -> content hash), build output aside."""
    out = {}
    for path in root.rglob("*"):
        rel = path.relative_to(root).as_posix()
        if (path.is_file() and not rel.endswith(BUILT) and "__pycache__" not in rel
                and not rel.startswith(("build/", "results/"))):
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_a_sixth_game_lives_in_its_own_folders(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for pkg in (games, solvers, src_cy, experiments):
        shutil.copytree(Path(pkg.__file__).resolve().parent, root / pkg.__name__,
                        ignore=shutil.ignore_patterns("__pycache__", "*.cpp"))
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(REPO_ROOT / name, root / name)
    shutil.copytree(REPO_ROOT / "docs" / "rules", root / "docs" / "rules")
    before = _tree(root)

    shutil.copytree(TEMPLATE, root, dirs_exist_ok=True)
    init = root / "games" / "__init__.py"
    text = init.read_text()
    last = text.rindex("from games import ")
    end = text.index("\n", last) + 1
    init.write_text(text[:end] + IMPORT_LINE + text[end:])
    env = dict(os.environ, GOLDSPIEL_ONLY="high_card", PYTHONPATH=str(root))
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace", "-j", "1"],
                   cwd=root, env=env, check=True, capture_output=True, timeout=600)
    subprocess.run([sys.executable, "-m", "games.params_doc", "--write"], cwd=root, env=env,
                   check=True, capture_output=True, timeout=120)
    assert "| `deck` |" in (root / "docs" / "rules" / "high_card.md").read_text()
    out = subprocess.run([sys.executable, "-c", CHECK], cwd=root, env=env, text=True,
                         capture_output=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    assert "template game OK" in out.stdout
    own = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests/games/high_card"], cwd=root, env=env, text=True,
                         capture_output=True, timeout=600)
    assert own.returncode == 0, own.stdout[-3000:]

    after = _tree(root)
    changed = sorted(p for p in before if after.get(p) != before[p])
    added = sorted(p for p in after if p not in before)
    assert changed == ["games/__init__.py"], changed
    assert all(p.startswith(NEW) for p in added), [p for p in added if not p.startswith(NEW)]
    assert init.read_text().count("high_card") == 1
