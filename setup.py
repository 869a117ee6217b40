"""Build script: cythonizes every ``src_cy/*.pyx`` into ``src_cy.<name>``."""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
# Development aid: GOLDSPIEL_ONLY=engine,gold_thief builds just those modules.
ONLY = {m for m in os.environ.get("GOLDSPIEL_ONLY", "").split(",") if m}

# Safe by default: bounds and wraparound checks are on for every module.
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": True,
    "wraparound": True,
    "cdivision": True,
    "initializedcheck": True,
}
# Hot kernels whose inner loops run unchecked (per-module table, so the sources
# need no directive comments). Their Python-facing parsers (load/set_state)
# therefore also run unchecked and must validate lengths explicitly.
UNCHECKED = {"boundscheck": False, "wraparound": False, "initializedcheck": False}
HOT_MODULES = {
    "ardillas_del_bosque",
    "cfr_core",
    "gold_nugget",
    "gold_thief",
    "gold_thief_rollout",
    "ismcts",
    "mccfr",
    "poker",
    "saboteur",
    "saboteur_rollout",
    "tree_compile",
}


def directives_for(module: str) -> dict:
    """Cython compiler directives for ``src_cy.<module>``."""
    if module in HOT_MODULES:
        return {**DIRECTIVES, **UNCHECKED}
    return dict(DIRECTIVES)

extensions = [
    Extension(
        f"src_cy.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        include_dirs=[np.get_include(), str(HERE / "src_cy")],
        language="c++",
        extra_compile_args=["-O3", "-g0", "-std=c++17", "-Wno-unused-function"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted((HERE / "src_cy").glob("*.pyx"))
    if not ONLY or pyx.stem in ONLY
]

ext_modules = []
for ext in extensions:
    ext_modules += cythonize(
        [ext],
        compiler_directives=directives_for(ext.name.rsplit(".", 1)[1]),
        include_path=[str(HERE)],
    )

class ParallelBuildExt(build_ext):
    """build_ext compiling in parallel by default (``pip wheel`` passes no ``-j``)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = int(os.environ.get("GOLDSPIEL_JOBS", os.cpu_count() or 1))


setup(ext_modules=ext_modules, cmdclass={"build_ext": ParallelBuildExt})
