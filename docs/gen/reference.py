"""Writes one API reference page per public module of borabora_sim (every module whose dotted name has no part
starting with an underscore) and the navigation of the reference (reference/SUMMARY.md). Run by the gen-files
plugin at build time: a module added to the package gets its page without any change here."""

from __future__ import annotations

from pathlib import Path

import mkdocs_gen_files

import borabora_sim

PACKAGE = Path(__file__).resolve().parents[2] / "borabora_sim"

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


nav = mkdocs_gen_files.Nav()
for parts in public_modules():
    is_package = (PACKAGE.parent.joinpath(*parts) / "__init__.py").exists()
    page = Path("reference", *parts, "index.md") if is_package else Path("reference", *parts).with_suffix(".md")
    name = ".".join(parts)
    with mkdocs_gen_files.open(page, "w") as out:
        out.write(f"::: {name}\n")                 # the module's heading is the page's title
    nav[parts] = page.relative_to("reference").as_posix()

with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as summary:
    summary.writelines(nav.build_literate_nav())
