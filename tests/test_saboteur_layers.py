"""Saboteur layering: the rules engine loads without the search."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_games_loads_no_search_or_solver_module() -> None:
    code = ("import sys, games\n"
            "bad = sorted(m for m in sys.modules\n"
            "             if m == 'src_cy.ismcts' or m == 'solvers' or m.startswith('solvers.'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""


def test_saboteur_engine_source_does_not_cimport_the_search() -> None:
    for name in ("saboteur.pyx", "saboteur.pxd", "saboteur_catalog.pxi"):
        text = (ROOT / "src_cy" / name).read_text()
        assert "ismcts" not in text, name
