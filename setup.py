"""Builds the compiled engine. A failed compile fails the install: there is no pure-Python fallback."""

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        f"borabora_sim.{name}",
        [source],
        include_dirs=["cext", np.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name, source in (("_engine", "cext/engine.pyx"), ("_search", "cext/search.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["cext"],
        compiler_directives={"language_level": "3"},
    )
)
