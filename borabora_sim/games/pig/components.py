"""Pig's component data: the goal and the die, with their provenance (the format: docs/pig.md).

The built-in file is ``data/components.json``: a goal of 100 points and a six-sided die, the standard values of
Scarne (1945) and of Neller & Presser (2004). :func:`load_components` validates a file or a dict and returns a
frozen :class:`PigComponents`.

Example::

    >>> c = load_components()
    >>> c.goal, c.faces, c.marks["goal.points"]
    (100, 6, 'CONFIRMED')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from borabora_sim.component_files import (
    ComponentError,
    ComponentTables,
    frozen,
    int_in,
    load_with,
    open_document,
    plain_copy,
)

__all__ = ["BUILTIN_FILE", "MAX_FACES", "MAX_GOAL", "ComponentError", "PigComponents", "load_components"]

FORMAT_VERSION = 1
BUILTIN_FILE = Path(__file__).with_name("data") / "components.json"
MAX_GOAL = 200              # the compiled engine's bounds (cext/pig_state.pxd)
MAX_FACES = 20
_FORMAT_DOC = "docs/pig.md"


@dataclass(frozen=True, eq=False, repr=False)
class PigComponents(ComponentTables):
    """The goal and the die. ``marks`` and ``sources`` map each field path (``"goal.points"``) to its provenance."""

    goal: int                   # points that win when banked
    faces: int                  # faces of the die: a 1 ends the turn, 2..faces add to the turn total
    die: np.ndarray             # the die's faces, 1..faces (read-only)
    marks: Mapping[str, str]
    sources: Mapping[str, str]
    source_path: str            # "builtin", the file path, or "<dict>"
    _document: dict[str, Any]


def load_components(source: str | os.PathLike[str] | Mapping[str, Any] | None = None) -> PigComponents:
    """Load and validate Pig's component data: None for the built-in file, a path to a JSON file, or a dict.

    A problem raises a one-line ComponentError naming the source, the field and what is allowed, e.g.
    ``mine.json: die.faces: 1; allowed: an integer 2..20``.
    """
    return load_with(_build, source, BUILTIN_FILE, _FORMAT_DOC)


def _build(doc: Any, source_path: str) -> PigComponents:
    reader = open_document(doc, ("goal", "die"), FORMAT_VERSION, _FORMAT_DOC)
    goal = reader.table("goal", {"points": int_in(1, MAX_GOAL)})["points"]
    faces = reader.table("die", {"faces": int_in(2, MAX_FACES)})["faces"]
    return PigComponents(goal=goal, faces=faces, die=frozen(range(1, faces + 1)),
                         marks=MappingProxyType(reader.marks), sources=MappingProxyType(reader.sources),
                         source_path=source_path, _document=plain_copy(reader.doc))
