"""Saboteur layering: the rules engine loads without the search."""
import subprocess
import sys
from pathlib import Path

import src_cy

ROOT = Path(__file__).resolve().parents[3]
# the engine sources as shipped (the checkout in place, site-packages under ./run.sh test)
SRC = Path(src_cy.__file__).resolve().parent


def test_import_games_loads_no_search_or_solver_module() -> None:
    code = ("import sys, games\n"
            "bad = sorted(m for m in sys.modules\n"
            "             if m == 'src_cy.ismcts' or m == 'solvers' or m.startswith('solvers.'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""


def test_saboteur_engine_source_does_not_cimport_the_search() -> None:
    for name in ("engine.pyx", "rules.pyx", "rules.pxd", "resample.pyx", "resample.pxd",
                 "render.pyx", "persist.pyx", "catalog.pxi"):
        text = (SRC / "saboteur" / name).read_text()
        assert "ismcts" not in text, name
