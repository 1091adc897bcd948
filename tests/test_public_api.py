"""Each public module of borabora_sim (no part of its dotted name starts with an underscore) says what its public
surface is, in `__all__`, and names only what it defines or imports there. The API reference shows those names
first and the module's other names under "Internals" (docs/gen/reference.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "borabora_sim"
MODULES = sorted(path for path in PACKAGE.rglob("*.py")
                 if not any(part.startswith("_") and part != "__init__.py"
                            for part in path.relative_to(PACKAGE.parent).parts))


def bound_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level: definitions, assignments and imports."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node in tree.body:
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def exported(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
            try:
                return list(ast.literal_eval(node.value))
            except ValueError:              # computed (envs: one name per adapter): checked where it is made
                return []
    return None


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_a_public_module_names_its_public_surface(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = exported(tree)
    assert names is not None, f"{path.relative_to(PACKAGE.parent)} has no __all__ (its public names, shown first in "\
                              "the API reference)"
    unknown = sorted(set(names) - bound_names(tree))
    assert not unknown, f"{path.relative_to(PACKAGE.parent)}: __all__ names {unknown}, which it does not define"
