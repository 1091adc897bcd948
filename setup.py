"""Builds the compiled engine. A failed compile fails the install: there is no pure-Python fallback.

BORABORA_SANITIZE=1 builds it with AddressSanitizer and UndefinedBehaviorSanitizer instead (docs/fuzzing.md).

Each compiled module is kept in a build cache (build/ext-cache/, in this tree) under a key made of everything the
compile reads: the sources of cext/, this file, the Python, Cython and numpy versions, the platform, the compiler and
its flags. A later install of the same tree (`pip install .`, then `pip install -e ".[test]"`, then the docs' editable
install) copies the cached module instead of compiling it again; a change to any of them compiles afresh.
BORABORA_BUILD_CACHE=0 turns the cache off."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import Cython
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SANITIZE = os.environ.get("BORABORA_SANITIZE") == "1"
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g"]

# Each game's structs are declared once, in its .pxd; their numpy layouts (to_dict / from_dict, and the component
# tables filled by name) are written from it into LAYOUTS, an include the game's .pyx names.
LAYOUTS = Path("build/layouts")
DTYPE_NAMES = {"Comp": "COMP_DTYPE", "Frame": "FRAME_DTYPE", "Player": "PLAYER_DTYPE", "GameState": "GAME_DTYPE"}
C_FORMATS = {"int8_t": "i1", "uint8_t": "u1", "int16_t": "<i2", "uint16_t": "<u2", "uint32_t": "<u4", "uint64_t": "<u8"}
DECLARATOR = re.compile(r"(\w+)((?:\[[^\]]+\])*)")
LAYOUT_HEAD = '''# Written by setup.py from {pxd}: the memory layout of each of its structs as a numpy dtype,
# one field a line, every offset measured on the compiled struct.

cdef inline Py_ssize_t _offset(const void* field, const void* struct) noexcept:
    return <const char*>field - <const char*>struct

def _dtype(fields, itemsize):
    return np.dtype({{"names": [f[0] for f in fields], "formats": [(f[2], f[3]) if f[3] else f[2] for f in fields],
                     "offsets": [f[1] for f in fields], "itemsize": itemsize}})
'''


def struct_fields(pxd: Path) -> dict[str, list[tuple[str, str, str]]]:
    """The fields (name, C type, array dimensions such as "[N_TEMPLES][AREA_CAP]") of each struct of `pxd`."""
    structs: dict[str, list[tuple[str, str, str]]] = {}
    fields: list[tuple[str, str, str]] | None = None
    for line in pxd.read_text().splitlines():
        code = line.split("#", 1)[0].rstrip()
        if not line.startswith((" ", "\t")) and code:
            match = re.fullmatch(r"cdef struct (\w+):", code)
            fields = structs.setdefault(match.group(1), []) if match else None
        elif fields is not None and code:
            ctype, declarators = code.split(None, 1)
            for declarator in declarators.split(","):
                name, dims = DECLARATOR.fullmatch(declarator.strip()).groups()
                fields.append((name, ctype, dims))
    return structs


def layout_source(pxd: Path) -> str:
    """Cython that defines the numpy dtype of every struct of `pxd` (DTYPE_NAMES), fields in declaration order."""
    parts = [LAYOUT_HEAD.format(pxd=pxd)]
    for struct, fields in struct_fields(pxd).items():
        sample = f"_{struct}_sample"
        parts.append(f"cdef {struct} {sample}\n{DTYPE_NAMES[struct]} = _dtype([")
        for name, ctype, dims in fields:
            form = DTYPE_NAMES[ctype] if ctype in DTYPE_NAMES else f'"{C_FORMATS[ctype]}"'
            shape = dims[1:-1].split("][") if dims else []
            parts.append(f'    ("{name}", _offset(&{sample}.{name}, &{sample}), {form}, '
                         f'({", ".join(shape)}{"," if len(shape) == 1 else ""})),')
        parts.append(f"], sizeof({struct}))\n")
    return "\n".join(parts)


def state_declarations() -> dict[str, str]:
    """Each layout include a module of cext/ names (`include "<name>_layout.pxi"`) and the .pxd it is written from:
    the one that module takes whole (`from <pxd> cimport *`). A game's engine gets its layout with no line here."""
    found = {}
    for source in sorted(Path("cext").glob("*.pyx")):
        text = source.read_text()
        include = re.search(r'^include "(\w+_layout\.pxi)"', text, re.MULTILINE)
        declared = re.search(r"^from (\w+) cimport \*", text, re.MULTILINE)
        if include and declared:
            found[include.group(1)] = f"cext/{declared.group(1)}.pxd"
    return found


def write_layouts() -> None:
    """Writes each game's layout include, leaving an unchanged one untouched (so that it does not force a rebuild)."""
    LAYOUTS.mkdir(parents=True, exist_ok=True)
    for include, pxd in state_declarations().items():
        target, source = LAYOUTS / include, layout_source(Path(pxd))
        if not target.exists() or target.read_text() != source:
            target.write_text(source)


# Every Cython module of cext/ is compiled, as borabora_sim._<name> (engine.pyx: borabora_sim._engine): a game's
# engine added there is built with no line here. The .pxi and .pxd files are included by them.
COMPILED_MODULES = [(f"_{source.stem}", str(source)) for source in sorted(Path("cext").glob("*.pyx"))]

# -fno-trapping-math: no code here reads floating-point exceptions, and without it GCC keeps a loop with a comparison
# in it (the network's tanh clamps its input) from being vectorised. It changes no result.
OPTIMIZE_FLAGS = ["-O3", "-fno-trapping-math"]

write_layouts()
extensions = [
    Extension(
        f"borabora_sim.{name}",
        [source],
        include_dirs=["cext", np.get_include()],
        extra_compile_args=["-O1", *SANITIZER_FLAGS] if SANITIZE else OPTIMIZE_FLAGS,
        extra_link_args=SANITIZER_FLAGS if SANITIZE else [],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name, source in COMPILED_MODULES
]

# ---- the build cache ------------------------------------------------------------------------------------------
BUILD_CACHE = Path("build/ext-cache")
CACHE_KEPT = 3                  # keys kept in the cache (the newest), so that it does not grow without end
USE_CACHE = os.environ.get("BORABORA_BUILD_CACHE", "1") != "0"


def compiler_identity() -> str:
    """The compiler the build uses and its version (the first line of `CC --version`), and the flags it is given."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    try:
        version = subprocess.run([*compiler.split(), "--version"], capture_output=True, text=True, timeout=30,
                                 check=False).stdout.partition("\n")[0]
    except OSError:
        version = "unknown"
    flags = " ".join(os.environ.get(name, "") for name in ("CFLAGS", "CPPFLAGS", "LDFLAGS"))
    return f"{compiler}\n{version}\n{flags}"


def cache_key() -> str:
    """A digest of everything the compiled modules are made from (see the module's docstring)."""
    digest = hashlib.sha256()
    sources = [*Path("cext").glob("*.p*"), *Path("cext").glob("*.h"), *LAYOUTS.glob("*.pxi"), Path("setup.py")]
    for path in sorted(sources):
        digest.update(f"{path}\n".encode() + path.read_bytes())
    for part in (sys.version, sysconfig.get_platform(), sysconfig.get_config_var("EXT_SUFFIX"), Cython.__version__,
                 np.__version__, str(SANITIZE), compiler_identity()):
        digest.update(f"{part}\n".encode())
    return digest.hexdigest()[:20]


class CachedBuildExt(build_ext):
    """build_ext that copies a module from the build cache when its key is there, and stores what it compiles."""

    def run(self) -> None:
        self._key = cache_key() if USE_CACHE else None
        super().run()

    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name))
        if self._key is None:
            super().build_extension(ext)
            return
        cached = BUILD_CACHE / self._key / target.name
        if cached.is_file():
            os.utime(cached.parent)                 # the newest key: kept when older ones are dropped
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(cached, target)
            print(f"{ext.name}: the compiled module of the same sources, from {cached} (BORABORA_BUILD_CACHE=0 "
                  "compiles it again)", flush=True)
            return
        super().build_extension(ext)
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
        shutil.copy2(target, partial)
        partial.replace(cached)                     # whole or not at all, even when two builds run at once
        keys = sorted(BUILD_CACHE.iterdir(), key=lambda path: path.stat().st_mtime, reverse=True)
        for old in keys[CACHE_KEPT:]:
            shutil.rmtree(old, ignore_errors=True)


setup(
    cmdclass={"build_ext": CachedBuildExt},
    ext_modules=cythonize(
        extensions,
        include_path=["cext", str(LAYOUTS)],
        compiler_directives={"language_level": "3"},
        build_dir="build/sanitized" if SANITIZE else None,
    )
)
