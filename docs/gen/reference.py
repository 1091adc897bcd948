"""Writes one API reference page per public module of borabora_sim (every module whose dotted name has no part
starting with an underscore) and the navigation of the reference (reference/SUMMARY.md). Run by the gen-files
plugin at build time: a module added to the package gets its page without any change here.

A page shows the module's public surface first: its docstring, a summary table of the names of its `__all__` and
each of them in the order of the source, with its signature and a table of its parameters and return value. The
module's other names (no leading underscore, not in `__all__`, defined in the module itself) follow under
"Internals", each in full: what the library uses between its modules, which may change without notice.

The package's own page is the reference's home, read first: its names come in the order a game uses them
(`HOME_FIRST`), `State` with the members a program plays with (`STATE_SURFACE`, its compiled base class's
included), and the long component tables last (`HOME_LAST`)."""

from __future__ import annotations

from pathlib import Path

import griffe
import mkdocs_gen_files

import borabora_sim

PACKAGE = Path(__file__).resolve().parents[2] / "borabora_sim"
INTERNALS_NOTE = ("Not in the module's `__all__`: what the library uses between its modules, documented for its "
                  "contributors. These names may change without notice.")

# The home page's order: a game is started, played and judged, then the data it is played with. A name of the
# package's `__all__` in neither tuple comes between them, in the order of `__all__`.
HOME_FIRST = ("new_game", "State", "IllegalActionError", "StateFormatError", "random_playouts", "rules_for",
              "NUM_ACTIONS", "BoraBora", "load_components", "ComponentError")
HOME_LAST = ("Components",)
# State's members on the home page, in the order a game uses them, and those it leaves out: what the compiled
# search, the adapters and the tests use (its C tables, capsules, compiled playouts and law checks). Every public
# member of State is in one of the two: a new one stops the build until it is placed.
STATE_SURFACE = ("current_player", "num_players", "round", "phase", "decision", "is_terminal", "legal_actions",
                 "legal_action_mask", "apply", "clone", "scores", "score_breakdown", "winner", "ranks",
                 "action_to_string", "action_from_string", "observation", "determinize", "to_dict",
                 "from_dict", "turn_order", "first_turn_order", "move_count", "counters", "components")
STATE_INTERNALS = ("rules", "search_handles", "step_random", "check_invariants")

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


def home_order(exported: list[str]) -> list[str]:
    """The package's public names in the home page's order."""
    unknown = [name for name in (*HOME_FIRST, *HOME_LAST) if name not in exported]
    if unknown:
        raise RuntimeError(f"docs/gen/reference.py orders {unknown}, which borabora_sim.__all__ does not name")
    middle = [name for name in exported if name not in HOME_FIRST and name not in HOME_LAST]
    return [*HOME_FIRST, *middle, *HOME_LAST]


def state_members() -> list[str]:
    """The members of State shown on the home page, after checking that every public one is placed."""
    public = {name for name in dir(borabora_sim.State) if not name.startswith("_")}
    unplaced = sorted(public - set(STATE_SURFACE) - set(STATE_INTERNALS))
    if unplaced:
        raise RuntimeError(f"State has members {unplaced} that docs/gen/reference.py neither shows on the home page "
                           "(STATE_SURFACE) nor leaves out (STATE_INTERNALS)")
    return list(STATE_SURFACE)


def home_text(package: griffe.Module) -> str:
    """The Markdown of the package's page: its docstring, then each public name in the home page's order."""
    text = f"::: {package.path}\n    options:\n      members: false\n"
    for name in home_order([str(name) for name in package.exports or ()]):
        text += f"\n::: {package.path}.{name}\n    options:\n      heading_level: 2\n      filters: [\"!^_\"]\n"
        if name == "State":             # its members in the list's order; its base class is the engine's own
            text += (f"      inherited_members: true\n      members: [{', '.join(state_members())}]\n"
                     "      group_by_category: false\n      show_bases: false\n")
    return text


def page_text(module: griffe.Module) -> str:
    """The Markdown of a module's page: the module with its public names, then each internal name."""
    # the module's heading is the page's title
    text = home_text(module) if module.path == PACKAGE.name else f"::: {module.path}\n"
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
