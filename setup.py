"""Builds the compiled engine. A failed compile fails the install: there is no pure-Python fallback.

BORABORA_SANITIZE=1 builds it with AddressSanitizer and UndefinedBehaviorSanitizer instead (docs/fuzzing.md)."""

import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

SANITIZE = os.environ.get("BORABORA_SANITIZE") == "1"
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g"]

extensions = [
    Extension(
        f"borabora_sim.{name}",
        [source],
        include_dirs=["cext", np.get_include()],
        extra_compile_args=["-O1", *SANITIZER_FLAGS] if SANITIZE else ["-O3"],
        extra_link_args=SANITIZER_FLAGS if SANITIZE else [],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name, source in (("_engine", "cext/engine.pyx"), ("_search", "cext/search.pyx"), ("_bamboo", "cext/bamboo.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["cext"],
        compiler_directives={"language_level": "3"},
        build_dir="build/sanitized" if SANITIZE else None,
    )
)
