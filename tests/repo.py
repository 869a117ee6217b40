"""Where the repository's non-code files (docs, pyproject.toml) are.

``./run.sh test`` runs a copy of ``tests/`` outside the checkout against the
installed wheel and names the checkout in ``GOLDSPIEL_REPO``; in place, the
repository is this directory's parent.
"""
import os
from pathlib import Path

REPO_ROOT = Path(os.environ.get("GOLDSPIEL_REPO") or Path(__file__).resolve().parent.parent)
# Set by ``./run.sh test``: the packages must come from the installed wheel.
WHEEL_TEST = os.environ.get("GOLDSPIEL_WHEEL_TEST") == "1"
