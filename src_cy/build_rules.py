"""How each ``src_cy`` module is compiled: which run with bounds checks off.

Read by ``setup.py`` (loaded by file path, so the build imports no package)
and by the tests. Safe by default: bounds, wraparound and initialisation
checks are on. Hot kernels run their inner loops unchecked: every module of a
game's folder (``src_cy/<game>/``), so a new game needs no entry anywhere,
and the shared kernels in :data:`HOT_SHARED`. Their Python-facing parsers
(``load``/``set_state``) therefore also run unchecked and validate lengths
explicitly.
"""
from __future__ import annotations

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": True,
    "wraparound": True,
    "cdivision": True,
    "initializedcheck": True,
}
UNCHECKED = {"boundscheck": False, "wraparound": False, "initializedcheck": False}
HOT_SHARED = frozenset({"cfr_core", "ismcts", "mccfr", "tree_compile"})


def is_hot(module: str) -> bool:
    """Whether ``src_cy.<module>`` (dotted, without ``src_cy.``) builds unchecked."""
    return "." in module or module in HOT_SHARED


def directives_for(module: str) -> dict:
    """Cython compiler directives for ``src_cy.<module>``."""
    if is_hot(module):
        return {**DIRECTIVES, **UNCHECKED}
    return dict(DIRECTIVES)
