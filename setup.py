"""Builds the compiled engine. A failed compile fails the install: there is no pure-Python fallback."""

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "borabora_sim._engine",
        ["cext/engine.pyx"],
        include_dirs=["cext", np.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["cext"],
        compiler_directives={"language_level": "3"},
    )
)
