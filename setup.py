"""Build script: cythonizes every ``src_cy/**/*.pyx`` into its dotted module.

``src_cy/ismcts.pyx`` becomes ``src_cy.ismcts``; a game's engine modules live in
its own folder, ``src_cy/<game>/engine.pyx`` -> ``src_cy.<game>.engine``.
"""
import importlib.util
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

# Which modules build unchecked: src_cy/build_rules.py (every module of a game
# folder, and the shared kernels it lists), loaded by path: the build imports
# no package.
_spec = importlib.util.spec_from_file_location("build_rules", HERE / "src_cy" / "build_rules.py")
build_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_rules)


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
        compiler_directives=build_rules.directives_for(ext.name.split(".", 1)[1]),
        include_path=[str(HERE)],
    )

class ParallelBuildExt(build_ext):
    """build_ext compiling in parallel by default (``pip wheel`` passes no ``-j``)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = int(os.environ.get("GOLDSPIEL_JOBS", os.cpu_count() or 1))


setup(ext_modules=ext_modules, cmdclass={"build_ext": ParallelBuildExt})
