"""A Griffe extension for the API reference: a table of parameters and of the return value for every function and
class, and linked cross references in the docstrings.

- **Tables.** The docstrings describe their parameters in prose (`games` games of `game` between `players`), so
  they have no Args or Returns section of their own. For each function, method and class (its `__init__`) whose
  docstring has none, a Parameters section is added with each parameter's type and default from the signature, and
  a Returns section with the return type; mkdocstrings shows them as tables (`docstring_section_style: table`). A
  docstring that has such a section keeps its own.
- **Cross references.** A name of the package written as inline code in a docstring (`` `RunConfig` ``,
  `` `borabora_sim.runs.RunDirectory` ``, `` `simulate()` ``) becomes a link to its entry in the reference when the
  name resolves from where the docstring stands (the object's members, then its module's names, imports included, or
  a full dotted path). The link is optional: a name whose entry is not rendered stays plain code, never a broken
  link. A function's own parameters are never linked."""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

FENCE = "```"
CODE = re.compile(r"(?<!`)`(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?P<call>\(\))?`(?!`)")
ROOT = "borabora_sim"


def _target(obj: griffe.Object | griffe.Alias) -> griffe.Object | None:
    """The object an alias leads to (None when it leaves the loaded package or cannot be resolved)."""
    try:
        return obj.final_target if isinstance(obj, griffe.Alias) else obj
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _lookup(scope: griffe.Object, dotted: str, package: griffe.Module) -> griffe.Object | None:
    """The object `dotted` names from `scope` (its members, its module's members), or as a path from the package."""
    first, *rest = dotted.split(".")
    start: griffe.Object | None = None
    if first == ROOT:
        start = package
    else:
        place: griffe.Object | None = scope
        while place is not None and start is None:
            if first in place.members:
                start = _target(place.members[first])
            place = place.parent if not place.is_module else None
    for part in rest:
        if start is None or part not in start.members:
            return None
        start = _target(start.members[part])
    return start


def link_names(text: str, scope: griffe.Object, package: griffe.Module, own: set[str]) -> str:
    """`text` with each inline code name that resolves to an object of the package (not one of `own`) linked."""

    def link(match: re.Match[str]) -> str:
        name = match["name"]
        if name in own:
            return match[0]
        found = _lookup(scope, name, package)
        if found is None or not (found.path == ROOT or found.path.startswith(f"{ROOT}.")):
            return match[0]
        shown = html.escape(name + (match["call"] or ""))
        return f'<autoref identifier="{found.path}" optional><code>{shown}</code></autoref>'

    lines, in_code = [], False
    for line in text.splitlines():
        if line.strip().startswith(FENCE):
            in_code = not in_code
        lines.append(line if in_code else CODE.sub(link, line))
    return "\n".join(lines)


def _parameters(function: griffe.Function) -> list[griffe.Parameter]:
    return [p for p in function.parameters if p.name not in ("self", "cls")]


def _signature_of(obj: griffe.Object) -> griffe.Function | None:
    """The function whose parameters the object's table lists: the object itself, or a class's `__init__`."""
    if isinstance(obj, griffe.Function):
        return obj
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        return init if isinstance(init, griffe.Function) else None
    return None


def add_tables(obj: griffe.Object) -> None:
    """Adds the Parameters and Returns sections the docstring of `obj` lacks (see the module's docstring)."""
    function = _signature_of(obj)
    if obj.docstring is None or function is None:
        return
    sections = obj.docstring.parsed
    kinds = {section.kind for section in sections}
    parameters = _parameters(function)
    if parameters and griffe.DocstringSectionKind.parameters not in kinds:
        rows = [griffe.DocstringParameter(name=_shown_name(p), description="", annotation=p.annotation,
                                          value=p.default) for p in parameters]
        sections.append(griffe.DocstringSectionParameters(rows))
    returns = function.returns
    if (isinstance(obj, griffe.Function) and returns is not None and str(returns) != "None"
            and griffe.DocstringSectionKind.returns not in kinds and "property" not in obj.labels):
        sections.append(griffe.DocstringSectionReturns([griffe.DocstringReturn(name="", description="",
                                                                                annotation=returns)]))


def _shown_name(parameter: griffe.Parameter) -> str:
    if parameter.kind is griffe.ParameterKind.var_positional:
        return f"*{parameter.name}"
    if parameter.kind is griffe.ParameterKind.var_keyword:
        return f"**{parameter.name}"
    return parameter.name


def _objects(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


class ApiTables(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != ROOT:
            return
        objects = list(_objects(pkg))
        for obj in objects:                 # first every docstring's text, then the parsed sections
            if obj.docstring is not None:
                function = _signature_of(obj)
                own = {p.name for p in _parameters(function)} if function is not None else set()
                obj.docstring.value = link_names(obj.docstring.value, obj, pkg, own)
        for obj in objects:
            add_tables(obj)
