"""Alternatives to Bamboo's INVENTED component values, for robustness checks of a study.

Each variant changes one family of INVENTED stand-ins (docs/bamboo_components.md) to another plausible value
set and touches no value marked CONFIRMED or DERIVED; the changed values keep their INVENTED mark. A study that
holds up on every variant does not hinge on those numbers. The temple tiles are used only with 2 players (the
ghost's incense), so their variant cannot move a 3- or 4-player study.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from borabora_sim.component_files import Doc, write_document
from borabora_sim.games.bamboo.components import BambooComponents, load_components


def _invented(components: BambooComponents, path: str) -> bool:
    return components.marks[path] == "INVENTED"


def _scale_balance_hp(factor: float) -> Callable[[Doc, BambooComponents], None]:
    def edit(doc: Doc, components: BambooComponents) -> None:
        for i, tile in enumerate(doc["balance_tiles"]):
            if _invented(components, f"balance_tiles[{i}].hp"):
                tile["hp"] = min(20, max(1, round(tile["hp"] * factor)))
    return edit


def _mirror_patterns(doc: Doc, components: BambooComponents) -> None:
    """Every INVENTED shape read right to left (same size, so it still fits its region); type totals stay."""
    for i, tile in enumerate(doc["balance_tiles"]):
        if _invented(components, f"balance_tiles[{i}].pattern") and isinstance(tile["pattern"], list):
            tile["pattern"] = [row[::-1] for row in tile["pattern"]]


def _home_shift(field: str, step: int) -> Callable[[Doc, BambooComponents], None]:
    def edit(doc: Doc, components: BambooComponents) -> None:
        for i, tile in enumerate(doc["home_tiles"]):
            if _invented(components, f"home_tiles[{i}].{field}"):
                tile[field] = min(9, max(0, tile[field] + step))
    return edit


def _wildcards_on_board(doc: Doc, components: BambooComponents) -> None:
    """The Wildcards start on the reed field instead of in the draft pool: each swaps its action with a board
    piece of its colour (colours and each set's actions stay as the rules ask)."""
    shoots = doc["shoots"]
    for i, piece in enumerate(shoots):
        if piece["setup"] != "none" or piece["action"] != "wildcard" or not _invented(components,
                                                                                       f"shoots[{i}].action"):
            continue
        j = next(j for j, other in enumerate(shoots) if other["setup"] == "board" and other["colour"] == piece["colour"]
                 and other["action"] != "wildcard" and _invented(components, f"shoots[{j}].action"))
        piece["action"], shoots[j]["action"] = shoots[j]["action"], piece["action"]


def _temple_tiles(values: list[int]) -> Callable[[Doc, BambooComponents], None]:
    def edit(doc: Doc, components: BambooComponents) -> None:
        for i, (tile, value) in enumerate(zip(doc["temple_tiles"], values, strict=True)):
            if _invented(components, f"temple_tiles[{i}].incense"):
                tile["incense"] = value
    return edit


@dataclass(frozen=True)
class Variant:
    """One family of INVENTED values changed: `family` names it, `change` says how, `edit` does it."""

    family: str
    change: str
    edit: Callable[[Doc, BambooComponents], None]


VARIANTS: dict[str, Variant] = {
    "balance_hp_high": Variant("balance tiles' HP", "every INVENTED HP x1.5 (rounded, at most 20)",
                               _scale_balance_hp(1.5)),
    "balance_hp_low": Variant("balance tiles' HP", "every INVENTED HP x2/3 (rounded, at least 1)",
                              _scale_balance_hp(2 / 3)),
    "balance_mirrored": Variant("balance tiles' patterns", "every INVENTED shape mirrored left to right",
                                _mirror_patterns),
    "home_costly": Variant("home tiles", "every INVENTED cost +1 coin (at most 9)", _home_shift("cost", 1)),
    "home_generous": Variant("home tiles", "every INVENTED HP on placement +1 (at most 9)", _home_shift("hp", 1)),
    "wildcards_on_board": Variant("shoot pieces", "the 4 Wildcards start on the reed field, not in the draft pool",
                                  _wildcards_on_board),
    "temple_high": Variant("temple tiles", "the ghost's tiles show 0, 2, 3, 3 instead of 0, 2, 2, 3 (2 players only)",
                           _temple_tiles([0, 2, 3, 3])),
}


def variant_document(name: str) -> Doc:
    """The built-in Bamboo component data with one variant applied (validated by loading it)."""
    if name not in VARIANTS:
        raise ValueError(f"unknown Bamboo variant {name!r}; variants: {', '.join(VARIANTS)}")
    components = load_components()
    doc = copy.deepcopy(components.to_json_dict())
    VARIANTS[name].edit(doc, components)
    load_components(doc)
    return doc


def write_variant(name: str, folder: str | Path) -> Path:
    """Writes the variant as a component file (`get_game("bamboo", components=path)` takes the path)."""
    return write_document(variant_document(name), Path(folder) / f"bamboo_components_{name}.json")


__all__ = ["VARIANTS", "Variant", "variant_document", "write_variant"]
