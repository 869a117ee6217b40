"""Build script: cythonizes every ``src_cy/*.pyx`` into ``src_cy.<name>``."""
import os
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
# Development aid: GOLDSPIEL_ONLY=engine,gold_thief builds just those modules.
ONLY = {m for m in os.environ.get("GOLDSPIEL_ONLY", "").split(",") if m}
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

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=[str(HERE)],
    ),
)
