"""The package version: single source of truth is ``version`` in pyproject.toml."""
from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path


def _read_version() -> str:
    """Return the installed distribution's version, or the checkout's pyproject version."""
    try:
        return metadata.version("goldspiel")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            text = pyproject.read_text(encoding="utf-8")
        except OSError:
            return "0+unknown"
        match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
        return match.group(1) if match else "0+unknown"


__version__ = _read_version()
