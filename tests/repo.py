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
    """``experiments.research.<name>`` from the checkout: research scripts are
    not in the wheel, so under ``./run.sh test`` the ``experiments.research``
    package is attached to the installed ``experiments`` from the repository
    (its modules keep their real names, so they import each other as usual)."""
    import experiments
    if "experiments.research" not in sys.modules:
        folder = REPO_ROOT / "experiments" / "research"
        try:
            importlib.import_module("experiments.research")
        except ImportError:
            spec = importlib.util.spec_from_file_location(
                "experiments.research", folder / "__init__.py",
                submodule_search_locations=[str(folder)])
            module = importlib.util.module_from_spec(spec)
            sys.modules["experiments.research"] = module
            spec.loader.exec_module(module)
            experiments.research = module
    return importlib.import_module(f"experiments.research.{name}")
