"""Build script: cythonizes every ``src_cy/**/*.pyx`` into its dotted module.

``src_cy/ismcts.pyx`` becomes ``src_cy.ismcts``; a game's engine modules live in
its own folder, ``src_cy/<game>/engine.pyx`` -> ``src_cy.<game>.engine``.
"""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
# Development aid: GOLDSPIEL_ONLY=engine,gold_thief builds just those modules
# (a game folder's name builds all of its modules; gold_thief.engine just one).
ONLY = {m for m in os.environ.get("GOLDSPIEL_ONLY", "").split(",") if m}

# Safe by default: bounds and wraparound checks are on for every module.
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": True,
    "wraparound": True,
    "cdivision": True,
    "initializedcheck": True,
}
# Hot kernels run their inner loops unchecked. Every module of a game's folder
# (``src_cy/<game>/``) is hot, so a new game needs no entry here; of the
# shared modules, these are. Their Python-facing parsers (load/set_state)
# therefore also run unchecked and must validate lengths explicitly.
UNCHECKED = {"boundscheck": False, "wraparound": False, "initializedcheck": False}
HOT_SHARED = {"cfr_core", "ismcts", "mccfr", "poker", "tree_compile"}


def is_hot(module: str) -> bool:
    """Whether ``src_cy.<module>`` (dotted, without the ``src_cy.`` prefix) builds unchecked."""
    return "." in module or module in HOT_SHARED


def directives_for(module: str) -> dict:
    """Cython compiler directives for ``src_cy.<module>``."""
    if is_hot(module):
        return {**DIRECTIVES, **UNCHECKED}
    return dict(DIRECTIVES)

def _selected(pyx: Path) -> bool:
    """Whether ``GOLDSPIEL_ONLY`` selects ``pyx`` (by dotted name or game folder)."""
    dotted = pyx.relative_to(HERE / "src_cy").with_suffix("").as_posix().replace("/", ".")
    return dotted in ONLY or dotted.split(".")[0] in ONLY


extensions = [
    Extension(
        ".".join(pyx.relative_to(HERE).with_suffix("").parts),
        [str(pyx.relative_to(HERE))],
        include_dirs=[np.get_include(), str(HERE / "src_cy")],
        language="c++",
        extra_compile_args=["-O3", "-g0", "-std=c++17", "-Wno-unused-function"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted((HERE / "src_cy").rglob("*.pyx"))
    if not ONLY or _selected(pyx)
]

ext_modules = []
for ext in extensions:
    ext_modules += cythonize(
        [ext],
        compiler_directives=directives_for(ext.name.split(".", 1)[1]),
        include_path=[str(HERE)],
    )

class ParallelBuildExt(build_ext):
    """build_ext compiling in parallel by default (``pip wheel`` passes no ``-j``)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = int(os.environ.get("GOLDSPIEL_JOBS", os.cpu_count() or 1))


setup(ext_modules=ext_modules, cmdclass={"build_ext": ParallelBuildExt})
