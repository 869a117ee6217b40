"""The package version has one source of truth: pyproject.toml."""
import re

import games
import solvers
from repo import REPO_ROOT


def test_version_matches_pyproject() -> None:
    pyproject = REPO_ROOT / "pyproject.toml"
    match = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.MULTILINE)
    assert match is not None
    assert games.__version__ == match.group(1)
    assert solvers.__version__ == games.__version__


def test_changelog_has_unreleased_and_current_version() -> None:
    text = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    assert f"## [{games.__version__}]" in text
