"""Alternatives to the INVENTED component values, for robustness checks of a study.

Each variant changes one family of INVENTED stand-ins (see docs/components.md) to another plausible value set; the
changed values keep their INVENTED mark. A study that holds up on every variant does not hinge on those numbers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

from borabora_sim.component_files import Doc, write_document
from borabora_sim.games.bora_bora.components import load_components


def _status_linear(doc: Doc) -> None:
    doc["status_vp"]["values"] = list(range(16))


def _status_steep(doc: Doc) -> None:
    doc["status_vp"]["values"] = [0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15]


def _set_fish_values(doc: Doc, values: list[int]) -> None:
    """New values for the eight fish tiles that do not show 1 (the four 1s are DERIVED and stay)."""
    others = [tile for tile in doc["fish_tiles"] if tile["value"] != 1]
    for tile, value in zip(others, values, strict=True):
        tile["value"] = value


def _fish_rich(doc: Doc) -> None:
    _set_fish_values(doc, [3, 3, 4, 4, 5, 5, 6, 6])


def _fish_poor(doc: Doc) -> None:
    _set_fish_values(doc, [2, 2, 2, 2, 3, 3, 4, 5])


def _jewelry_generous(doc: Doc) -> None:
    for tile in doc["jewelry_tiles"]:
        tile["vp"] = min(9, tile["cost"] + 2)


def _paths_shifted(doc: Doc) -> None:
    """Every path value not confirmed by the rulebook example moves one step (1<->2, 3<->4, 5<->6)."""
    for path in doc["paths"]:
        if path["mark"] != "CONFIRMED":
            path["value"] = {1: 2, 2: 1, 3: 4, 4: 3, 5: 6, 6: 5}[path["value"]]


VARIANTS: dict[str, Callable[[Doc], None]] = {
    "status_linear": _status_linear,
    "status_steep": _status_steep,
    "fish_rich": _fish_rich,
    "fish_poor": _fish_poor,
    "jewelry_generous": _jewelry_generous,
    "paths_shifted": _paths_shifted,
}


def variant_document(name: str) -> Doc:
    """The built-in component data with one variant applied (validated by loading it)."""
    if name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; variants: {', '.join(VARIANTS)}")
    doc = copy.deepcopy(load_components().to_json_dict())
    VARIANTS[name](doc)
    load_components(doc)
    return doc


def write_variant(name: str, folder: str | Path) -> Path:
    """Writes the variant as a component file (simulate(components=...) takes the path)."""
    return write_document(variant_document(name), Path(folder) / f"components_{name}.json")


__all__ = ["VARIANTS", "variant_document", "write_variant"]
