"""Where the repository's non-code files (docs, pyproject.toml) are.

``./run.sh test`` runs a copy of ``tests/`` outside the checkout against the
installed wheel and names the checkout in ``GOLDSPIEL_REPO``; in place, the
repository is this directory's parent.
"""
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(os.environ.get("GOLDSPIEL_REPO") or Path(__file__).resolve().parent.parent)
# Set by ``./run.sh test``: the packages must come from the installed wheel.
WHEEL_TEST = os.environ.get("GOLDSPIEL_WHEEL_TEST") == "1"


def research_module(name: str) -> ModuleType:
    """``experiments/research/<name>.py`` loaded from the checkout: research
    scripts are not in the wheel, so their tests read them from the
    repository in place and under ``./run.sh test`` alike."""
    path = REPO_ROOT / "experiments" / "research" / f"{name}.py"
    key = f"goldspiel_research_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]
