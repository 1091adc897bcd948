"""The type stubs of the compiled modules (borabora_sim/_engine.pyi, _bamboo.pyi, _pig.pyi, _search.pyi) name exactly
what the modules define: every public name of a module is in its stub and every name of a stub is in its module. What
the game modules define alike is typed once, in the stub-only _compiled_game.pyi: their stubs re-export its names
(`import X as X`) and derive their EngineRules and EngineState from its generic classes. mypy's stubtest, where mypy
is installed, also compares each function's and method's parameters with the compiled ones."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "borabora_sim"
SHARED_STUBS = ("_compiled_game",)         # stubs only: the names each compiled game module has a copy of
# Every compiled module: a stub of the package without a module of Python source (a game's engine is found here by
# its stub, with no line in this file)
COMPILED = tuple(sorted(path.stem for path in PACKAGE.glob("_*.pyi")
                        if path.stem not in SHARED_STUBS and not path.with_suffix(".py").exists()))
# Module attributes that Cython adds to every extension module
CYTHON_ATTRIBUTES = {"__reduce_cython__", "__setstate_cython__", "__test__"}


def _defined_here(module: ModuleType, name: str) -> bool:
    """Whether `name` is the module's own (not a module or a class or function imported from elsewhere)."""
    value = getattr(module, name)
    if isinstance(value, ModuleType):
        return False
    owner = getattr(value, "__module__", None)
    return owner is None or not (inspect.isclass(value) or callable(value)) or owner == module.__name__


def _public(names: set[str]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


def _stub_tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.pyi").read_text())


def _stub_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.ImportFrom):          # an explicit re-export: `from module import X as X`
            names.update(alias.name for alias in node.names if alias.asname == alias.name)
    return names


def _shared_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    """The classes a stub imports from the shared stubs, by the name it gives them."""
    classes: dict[str, ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in {f"borabora_sim.{name}" for name in SHARED_STUBS}:
            shared = _stub_tree(node.module.rpartition(".")[2])
            defined = {cls.name: cls for cls in shared.body if isinstance(cls, ast.ClassDef)}
            classes.update({alias.asname or alias.name: defined[alias.name] for alias in node.names
                            if alias.name in defined})
    return classes


def _stub_members(tree: ast.Module, cls: str) -> set[str]:
    """The members the stub gives class `cls`: those of its body, and those of its bases from a shared stub (a
    module's EngineState has at run time what the stub declares in _compiled_game.CompiledState)."""
    node = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls)
    shared = _shared_classes(tree)
    members = _stub_names(ast.Module(body=node.body, type_ignores=[]))
    for base in node.bases:
        name = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(name, ast.Name) and name.id in shared:
            members |= _stub_names(ast.Module(body=shared[name.id].body, type_ignores=[]))
    return members


@pytest.mark.parametrize("name", COMPILED)
def test_stub_names_match_the_module(name: str) -> None:
    module = importlib.import_module(f"borabora_sim.{name}")
    tree = _stub_tree(name)
    runtime = _public({attr for attr in dir(module) if _defined_here(module, attr)})
    stub = _public(_stub_names(tree))
    assert runtime - stub == set(), f"public names of borabora_sim.{name} missing from {name}.pyi"
    assert stub - runtime == set(), f"names in {name}.pyi that borabora_sim.{name} does not define"
    for cls in sorted(attr for attr in runtime if inspect.isclass(getattr(module, attr))):
        members = _public(set(vars(getattr(module, cls))))
        assert members == _public(_stub_members(tree, cls)), f"{name}.{cls}: stub and module differ"


def _package_root(elsewhere: Path) -> Path:
    """Where stubtest must run to see the package the tests import, stubs and compiled modules together: the
    source tree when that is what is imported (built in place), else a folder outside it (an installed copy,
    which a source tree first on the path would shadow)."""
    imported = Path(importlib.import_module("borabora_sim").__file__).resolve().parent
    return PACKAGE.parent if imported == PACKAGE.resolve() else elsewhere


@pytest.mark.slow
def test_stubtest_finds_the_stubs_faithful(tmp_path: Path) -> None:
    """Names, kinds (property, static or class method) and parameters, checked by mypy's stubtest."""
    pytest.importorskip("mypy.stubtest")
    config = tmp_path / "mypy.ini"
    # stubtest refuses to compare while any imported module has a type error: the package's own errors are
    # mypy's job (.ci/typecheck); here only the stubs are checked
    config.write_text(f"[mypy]\ncache_dir = {tmp_path / 'cache'}\n[mypy-borabora_sim.*]\nignore_errors = True\n"
                      f"[mypy-{','.join(f'borabora_sim.{name}' for name in COMPILED + SHARED_STUBS)}]\n"
                      "ignore_errors = False\n")
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("\n".join(rf"borabora_sim\.{name}\.{attr}" for name in COMPILED
                                   for attr in sorted(CYTHON_ATTRIBUTES)) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", str(config), "--allowlist", str(allowlist),
         "--ignore-unused-allowlist", *(f"borabora_sim.{name}" for name in COMPILED)],
        cwd=_package_root(tmp_path), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
