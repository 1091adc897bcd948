"""A Griffe extension for the API reference: the doctest examples in the docstrings become Python code blocks.

The docstrings show examples as doctest lines (`>>> new_game(players=3, seed=7)` and the output under them)
without a section heading. Markdown would read the `>>>` as quote marks, so each run of such lines, up to the next
blank line, is fenced as a `pycon` block, with its doctest directives (`# doctest: +SKIP`) left out. Lines inside
existing code blocks are left as they are."""

from __future__ import annotations

import re
from typing import Any

import griffe

FENCE = "```"
DIRECTIVE = re.compile(r"\s*#\s*doctest:.*$")


def fence_doctests(text: str) -> str:
    """`text` with each run of doctest lines (from a `>>>` line to the next blank line) in a fenced code block."""
    lines: list[str] = []
    in_code = in_doctest = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_doctest and not stripped:
            lines.append(FENCE)
            in_doctest = False
        elif not in_doctest and stripped.startswith(FENCE):
            in_code = not in_code
        elif not in_code and not in_doctest and stripped.startswith(">>>"):
            lines += ["", f"{FENCE}pycon"]
            in_doctest = True
        lines.append(DIRECTIVE.sub("", line) if in_doctest else line)
    if in_doctest:
        lines.append(FENCE)
    return "\n".join(lines)


def _fence(obj: griffe.Object) -> None:
    if obj.docstring is not None:
        obj.docstring.value = fence_doctests(obj.docstring.value)


def _fence_all(obj: griffe.Object) -> None:
    _fence(obj)
    for member in obj.members.values():
        if not member.is_alias:
            _fence_all(member)


class DoctestBlocks(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        # Every docstring at once, before the extensions listed after this one read them (api_tables.py); Griffe
        # calls on_object later. Fencing is idempotent: lines already in a code block are left as they are.
        _fence_all(pkg)

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        _fence(obj)
