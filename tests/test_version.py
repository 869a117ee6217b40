"""The package version has one source of truth: pyproject.toml."""
import re
from pathlib import Path

import games
import solvers


def test_version_matches_pyproject() -> None:
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    match = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.MULTILINE)
    assert match is not None
    assert games.__version__ == match.group(1)
    assert solvers.__version__ == games.__version__
