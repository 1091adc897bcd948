"""Writes one API reference page per public module of borabora_sim (every module whose dotted name has no part
starting with an underscore) and the navigation of the reference (reference/SUMMARY.md). Run by the gen-files
plugin at build time: a module added to the package gets its page without any change here.

A page shows the module's public surface first: its docstring, a summary table of the names of its `__all__` and
each of them in the order of the source, with its signature and a table of its parameters and return value. The
module's other names (no leading underscore, not in `__all__`, defined in the module itself) follow under
"Internals", each in full: what the library uses between its modules, which may change without notice."""

from __future__ import annotations

from pathlib import Path

import griffe
import mkdocs_gen_files

import borabora_sim

PACKAGE = Path(__file__).resolve().parents[2] / "borabora_sim"
INTERNALS_NOTE = ("Not in the module's `__all__`: what the library uses between its modules, documented for its "
                  "contributors. These names may change without notice.")

# mkdocstrings reads the package in this tree and its compiled modules (the State class) beside it; another
# installed copy would leave the compiled classes out of the reference without a warning.
if Path(borabora_sim.__file__).resolve().parent != PACKAGE:
    raise RuntimeError(f"Python imports borabora_sim from {Path(borabora_sim.__file__).parent}, not from {PACKAGE}: "
                       "install this tree in editable mode (pip install -e '.[docs]') before building the site")


def public_modules() -> list[tuple[str, ...]]:
    """The dotted names of the package's public modules, as tuples of parts, packages before their modules."""
    modules = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        elif parts[-1] == "__main__":
            continue
        if any(part.startswith("_") for part in parts):
            continue
        modules.append(parts)
    return sorted(modules)


def internal_names(module: griffe.Module) -> list[str]:
    """The names a module defines (not imports) that are neither private nor in its `__all__`, in source order."""
    exported = {str(name) for name in module.exports or ()}
    names = [name for name, member in module.members.items()
             if not member.is_alias and not member.is_module and not name.startswith("_") and name not in exported]
    return sorted(names, key=lambda name: module.members[name].lineno or 0)


def page_text(module: griffe.Module) -> str:
    """The Markdown of a module's page: the module with its public names, then each internal name."""
    text = f"::: {module.path}\n"                   # the module's heading is the page's title
    internals = internal_names(module)
    if internals:
        text += f"\n## Internals\n\n{INTERNALS_NOTE}\n\n"
        text += "\n".join(f"::: {module.path}.{name}\n    options:\n      heading_level: 3\n"
                          "      show_root_full_path: false\n" for name in internals)
    return text


package = griffe.load(PACKAGE.name, search_paths=[str(PACKAGE.parent)], allow_inspection=False,
                      resolve_aliases=False)
nav = mkdocs_gen_files.Nav()
for parts in public_modules():
    is_package = (PACKAGE.parent.joinpath(*parts) / "__init__.py").exists()
    page = Path("reference", *parts, "index.md") if is_package else Path("reference", *parts).with_suffix(".md")
    module = package if len(parts) == 1 else package[".".join(parts[1:])]
    with mkdocs_gen_files.open(page, "w") as out:
        out.write(page_text(module))
    nav[parts] = page.relative_to("reference").as_posix()

with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as summary:
    summary.writelines(nav.build_literate_nav())
