"""Printed component data of Bora Bora: loading, validation and provenance.

The data lives in a JSON file (the built-in one is ``data/components.json``; the format is described in
``docs/components.md``). Every value carries a provenance mark, CONFIRMED, DERIVED or INVENTED, because most tile
faces of the real game are not known. :func:`load_components` validates a file or an already-parsed dict and
returns read-only int8 tables for the engine, which relies on the index order of the name tables below.

Example::

    >>> c = load_components()
    >>> int(c.land_path[c.region_ids.index("C_SE"), c.region_ids.index("C_NE")])
    4
    >>> c.marks["jewelry_tiles[0].vp"]
    'INVENTED'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from borabora_sim.component_files import (
    MARKS,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    Check,
    ComponentError,
    ComponentTables,
    Reader,
    fail,
    flag,
    frozen,
    get_key,
    int_in,
    ints_in,
    json_object,
    known_keys,
    load_with,
    name_in,
    open_document,
    plain_copy,
    require,
    require_count,
    require_each_used,
    require_unique,
    show,
    text,
)

__all__ = [
    "BUILTIN_FILE", "FORMAT_VERSION", "GOD_COLOURS", "HELPER_ACTIONS", "HUTS_PER_PLAYER", "MARKS", "MATERIALS",
    "MAX_FILE_BYTES", "MAX_INT_DIGITS", "MAX_REQUIREMENT_COUNT", "N_JEWELRY", "N_REGIONS", "PATH_KINDS",
    "PERSONS_PER_SEX", "PERSON_TYPES", "RESOURCES", "SEXES", "TASK_REQUIREMENT_KINDS", "TERRAINS", "Check",
    "ComponentError", "Components", "load_components",
]

# Name tables: the engine uses the indices, so the order is part of the contract.
TERRAINS = ("mountain", "beach", "forest", "plains")
RESOURCES = ("sand", "stone", "wood", "offering")
MATERIALS = ("sand", "stone", "wood")
GOD_COLOURS = ("blue", "white", "red", "green", "yellow")
PERSON_TYPES = (
    "land_path", "water_path", "woman", "man", "build", "material",
    "move_hut", "victory_points", "god_card", "offering", "status", "shell",
)
SEXES = ("man", "woman")
TASK_REQUIREMENT_KINDS = (
    "men", "women", "priests", "jewelry", "first_player", "regions", "islands",
    "god_cards_of_colour", "god_cards_one_colour", "god_colours", "man_types", "woman_types",
    "jewelry_kinds", "buildings", "jewelry_of_kind", "god_tiles", "offerings", "shells",
    "material", "materials", "terrain_regions", "fish_type_regions", "huts_on_12th_space",
    "men_shifted", "women_shifted", "persons_shifted", "persons_of_type",
)
HELPER_ACTIONS = ("tattoo", "shells", "victory_point", "offering", "god_card", "material", "move_hut")
PATH_KINDS = ("land", "water")

FORMAT_VERSION = 1
BUILTIN_FILE = Path(__file__).with_name("data") / "components.json"
N_REGIONS = 12
N_JEWELRY = 24
HUTS_PER_PLAYER = 12
PERSONS_PER_SEX = 36
MAX_REQUIREMENT_COUNT = 60

_FORMAT_DOC = "docs/components.md"
_LIST_SECTIONS = (
    "islands", "regions", "paths", "fish_types", "fish_tiles", "person_tiles",
    "jewelry_kinds", "jewelry_tiles", "tasks",
)


def _requirements(params: Mapping[str, Sequence[str]]) -> Check:
    """A task's 1 or 2 requirements as (kind, count, param) index triples; param is -1 for plain kinds."""
    kind_check = name_in(TASK_REQUIREMENT_KINDS)

    def check(value: Any, path: str) -> list[tuple[int, int, int]]:
        if not (isinstance(value, list) and 1 <= len(value) <= 2):
            fail(path, show(value), "a list of 1 or 2 requirements")
        result = []
        for i, raw in enumerate(value):
            where = f"{path}[{i}]"
            raw = json_object(raw, where)
            known_keys(raw, where, ("kind", "count", "param"))
            kind = kind_check(get_key(raw, "kind", where, ", ".join(TASK_REQUIREMENT_KINDS)), f"{where}.kind")
            name = TASK_REQUIREMENT_KINDS[kind]
            top = 1 if name == "first_player" else MAX_REQUIREMENT_COUNT
            count = int_in(1, top)(get_key(raw, "count", where, f"an integer 1..{top}"), f"{where}.count")
            if name in params:
                param = name_in(params[name])(get_key(raw, "param", where, ", ".join(params[name])), f"{where}.param")
            else:
                require("param" not in raw, f"{where}.param", f"given for kind {name!r}",
                        f"a param only for {', '.join(params)}")
                param = -1
            result.append((kind, count, param))
        return result

    return check


def _unreached(adjacent: np.ndarray) -> list[int]:
    """Regions not reachable from region 0 over the given adjacency matrix."""
    seen, todo = {0}, [0]
    while todo:
        for j in np.flatnonzero(adjacent[todo.pop()]).tolist():
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return [i for i in range(len(adjacent)) if i not in seen]


@dataclass(frozen=True, eq=False, repr=False)
class Components(ComponentTables):
    """Validated component tables. Arrays are read-only and int8 unless noted; names are tuples.

    Tile indices follow the file order (men first, then women, for person tiles). ``marks`` and ``sources`` map
    every field path of the file (e.g. ``"regions[3].terrain"``) to its provenance mark and source text.
    """

    region_ids: tuple[str, ...]
    island_names: tuple[str, ...]
    region_island: np.ndarray  # [12] index into island_names
    region_terrain: np.ndarray  # [12] index into TERRAINS
    region_resource: np.ndarray  # [12] index into RESOURCES
    land_path: np.ndarray  # [12, 12] symmetric; 0 = no path, else the path value 1..6
    water_path: np.ndarray  # [12, 12] likewise
    fish_type_names: tuple[str, ...]
    fish_value: np.ndarray  # [12] by fish tile
    fish_type: np.ndarray  # [12] index into fish_type_names
    person_sex: np.ndarray  # [72] index into SEXES: tiles 0..35 men, 36..71 women
    person_type: np.ndarray  # [72] index into PERSON_TYPES
    person_symbols: np.ndarray  # [72] status symbols (men) or shells (women)
    task_ids: tuple[str, ...]
    task_crane: np.ndarray  # [60] bool: light green start task
    task_req_kind: np.ndarray  # [60, 2] index into TASK_REQUIREMENT_KINDS, -1 unused
    task_req_count: np.ndarray  # [60, 2] minimum amount, 0 unused
    task_req_param: np.ndarray  # [60, 2] index into the kind's name table, -1 unused or none
    jewelry_kind_names: tuple[str, ...]
    jewelry_kind: np.ndarray  # [24] index into jewelry_kind_names
    jewelry_cost: np.ndarray  # [24] shells
    jewelry_vp: np.ndarray  # [24]
    necklace_kind: int
    status_vp: np.ndarray  # [16] VP for status steps 0..15; steps beyond 15 score as 15
    temple_values: np.ndarray  # [6] left to right
    ceremony_rows: int
    ceremony_cols: int
    ceremony_material: np.ndarray  # [rows * cols] row-major, index into MATERIALS
    building_values: np.ndarray  # [6]
    building_vp_by_round: np.ndarray  # [6]
    temple_vp_by_round: np.ndarray  # [6] per priest
    start_vp: np.ndarray  # [4] by turn order
    helper_cost: np.ndarray  # [7] die points, in HELPER_ACTIONS order
    fishing_vp: int
    start_huts_on_12th_space: int
    regular_person_spaces: int
    marks: Mapping[str, str]
    sources: Mapping[str, str]
    source_path: str  # "builtin", the file path, or "<dict>"
    _document: dict[str, Any]  # the validated JSON; to_json_dict() hands out copies


def load_components(source: str | os.PathLike[str] | Mapping[str, Any] | None = None) -> Components:
    """Load and validate component data: None for the built-in file, a path to a JSON file, or a parsed dict.

    Raises ComponentError naming the source, the offending field path and what is allowed, e.g.
    ``mine.json: regions[3].terrain: 'swamp' is not a known name; allowed: mountain, beach, forest, plains``.
    """
    return load_with(_build, source, BUILTIN_FILE, _FORMAT_DOC)


def _build(doc: Any, source_path: str) -> Components:
    tables = {
        "status_vp": {"values": ints_in(0, 15, 16)},
        "temple": {"values": ints_in(1, 6, 6)},
        "ceremony": {"rows": int_in(1, 12), "cols": int_in(1, 12), "materials": _material_grid},
        "building_values": {"values": ints_in(1, 6, 6)},
        "building_vp_by_round": {"values": ints_in(0, 30, 6)},
        "temple_vp_by_round": {"values": ints_in(0, 9, 6)},
        "start_vp": {"values": ints_in(0, 9, 4)},
        "helper_cost": dict.fromkeys(HELPER_ACTIONS, int_in(1, 9)),
        "fishing_vp": {"value": int_in(0, 9)},
        "start_huts_on_12th_space": {"value": int_in(0, HUTS_PER_PLAYER)},
        "regular_person_spaces": {"value": int_in(1, HUTS_PER_PLAYER - 1)},
    }
    reader = open_document(doc, (*_LIST_SECTIONS, *tables), FORMAT_VERSION, _FORMAT_DOC)
    built = {**_read_map(reader), **_read_tiles(reader)}
    values = {key: reader.table(key, fields) for key, fields in tables.items()}

    status = values["status_vp"]["values"]
    require(status == sorted(status), "status_vp.values", "the values decrease", "non-decreasing values")
    temple = values["temple"]["values"]
    require(sorted(temple) == [1, 2, 3, 4, 5, 6], "temple.values", f"{temple}", "each of 1..6 once")
    ceremony = values["ceremony"]
    rows, cols, grid = ceremony["rows"], ceremony["cols"], ceremony["materials"]
    require(rows * cols == 12, "ceremony.rows", f"{rows} x {cols} spaces", "rows * cols == 12")
    require_count(grid, "ceremony.materials", rows, "rows")
    for r, row in enumerate(grid):
        require_count(row, f"ceremony.materials[{r}]", cols, "spaces")
    flat = [m for row in grid for m in row]
    for m, material in enumerate(MATERIALS):
        require(flat.count(m) >= 2, "ceremony.materials", f"{flat.count(m)} {material} spaces", "at least 2 of each")
    huts_12th = values["start_huts_on_12th_space"]["value"]
    regular = values["regular_person_spaces"]["value"]
    require(regular + huts_12th >= HUTS_PER_PLAYER, "regular_person_spaces.value", f"{regular}",
            f"enough spaces for the {HUTS_PER_PLAYER - huts_12th} starting huts not on the 12th space")

    return Components(
        **built,
        status_vp=frozen(status),
        temple_values=frozen(temple),
        ceremony_rows=rows,
        ceremony_cols=cols,
        ceremony_material=frozen(flat),
        building_values=frozen(values["building_values"]["values"]),
        building_vp_by_round=frozen(values["building_vp_by_round"]["values"]),
        temple_vp_by_round=frozen(values["temple_vp_by_round"]["values"]),
        start_vp=frozen(values["start_vp"]["values"]),
        helper_cost=frozen([values["helper_cost"][name] for name in HELPER_ACTIONS]),
        fishing_vp=values["fishing_vp"]["value"],
        start_huts_on_12th_space=huts_12th,
        regular_person_spaces=regular,
        marks=MappingProxyType(reader.marks),
        sources=MappingProxyType(reader.sources),
        source_path=source_path,
        _document=plain_copy(reader.doc),
    )


def _material_grid(value: Any, path: str) -> list[list[int]]:
    require(isinstance(value, list), path, show(value), "a list of rows, each a list of material names")
    for r, row in enumerate(value):
        require(isinstance(row, list), f"{path}[{r}]", show(row), "a list of material names")
    material = name_in(MATERIALS)
    return [[material(m, f"{path}[{r}][{c}]") for c, m in enumerate(row)] for r, row in enumerate(value)]


def _read_map(reader: Reader) -> dict[str, Any]:
    islands = [x["name"] for x in reader.records("islands", {"name": text}, 5)]
    require_unique(islands, "islands", "name")
    regions = reader.records(
        "regions",
        {"id": text, "island": name_in(islands), "terrain": name_in(TERRAINS), "resource": name_in(RESOURCES)},
        N_REGIONS,
    )
    ids = [x["id"] for x in regions]
    require_unique(ids, "regions", "id")
    require_each_used(islands, {x["island"] for x in regions}, "regions", "region")

    pairs = N_REGIONS * (N_REGIONS - 1) // 2
    path_fields = {"a": name_in(ids), "b": name_in(ids), "kind": name_in(PATH_KINDS), "value": int_in(1, 6)}
    paths = reader.records("paths", path_fields,
                           most=(len(PATH_KINDS) * pairs, "one land and one water path per pair of regions"))
    matrices = np.zeros((len(PATH_KINDS), len(ids), len(ids)), dtype=np.int8)
    for i, path in enumerate(paths):
        a, b, kind = path["a"], path["b"], path["kind"]
        require(a != b, f"paths[{i}].b", f"{ids[b]!r} is the path's own start", "a region other than 'a'")
        require(matrices[kind, a, b] == 0, f"paths[{i}]", f"a second {PATH_KINDS[kind]} path {ids[a]}-{ids[b]}",
                "one path of each kind per pair of regions")
        matrices[kind, a, b] = matrices[kind, b, a] = path["value"]
    cut_off = [ids[i] for i in _unreached(np.asarray(matrices.any(axis=0)))]
    require(not cut_off, "paths", f"{', '.join(cut_off)} cannot be reached from {ids[0]}",
            "land and water paths joining all regions into one map")

    return {
        "region_ids": tuple(ids),
        "island_names": tuple(islands),
        "region_island": frozen([x["island"] for x in regions]),
        "region_terrain": frozen([x["terrain"] for x in regions]),
        "region_resource": frozen([x["resource"] for x in regions]),
        "land_path": frozen(matrices[0]),
        "water_path": frozen(matrices[1]),
    }


def _read_tiles(reader: Reader) -> dict[str, Any]:
    fish_types = [x["name"] for x in reader.records("fish_types", {"name": text}, 4)]
    require_unique(fish_types, "fish_types", "name")
    fish = reader.records("fish_tiles", {"value": int_in(1, 6), "type": name_in(fish_types)}, 12)
    ones = sum(x["value"] == 1 for x in fish)
    require(ones >= 4, "fish_tiles", f"{ones} tiles of value 1", "at least 4 (each player's first hut needs one)")
    require_each_used(fish_types, {x["type"] for x in fish}, "fish_tiles", "fish tile")

    person_fields = {"sex": name_in(SEXES), "type": name_in(PERSON_TYPES), "symbols": ints_in(1, 9)}
    groups = reader.records("person_tiles", person_fields, most=(len(SEXES) * len(PERSON_TYPES), "one per (sex, type)"))
    # One tile per entry of "symbols"; a stable sort puts the men first and keeps the file order within a sex.
    persons = sorted(((g["sex"], g["type"], s) for g in groups for s in g["symbols"]), key=lambda tile: tile[0])
    for sex, name in enumerate(SEXES):
        own = [tile for tile in persons if tile[0] == sex]
        require_count(own, "person_tiles", PERSONS_PER_SEX, f"{name} tiles")
        require_each_used(PERSON_TYPES, {tile[1] for tile in own}, "person_tiles", f"{name} tile")

    kinds = [x["name"] for x in reader.records("jewelry_kinds", {"name": text},
                                                  most=(N_JEWELRY, "each used by one of the jewelry tiles"))]
    require_unique(kinds, "jewelry_kinds", "name")
    require("necklace" in kinds, "jewelry_kinds", "no kind named 'necklace'", "a list of kinds including 'necklace'")
    jewels = reader.records("jewelry_tiles", {"kind": name_in(kinds), "cost": int_in(0, 9), "vp": int_in(1, 9)},
                            N_JEWELRY)
    require_each_used(kinds, {x["kind"] for x in jewels}, "jewelry_tiles", "jewelry tile")

    params = {
        "god_cards_of_colour": GOD_COLOURS, "jewelry_of_kind": kinds, "material": MATERIALS,
        "terrain_regions": TERRAINS, "fish_type_regions": fish_types, "persons_of_type": PERSON_TYPES,
    }
    tasks = reader.records("tasks", {"id": text, "crane": flag, "requirements": _requirements(params)}, 60)
    task_ids = [x["id"] for x in tasks]
    require_unique(task_ids, "tasks", "id")
    cranes = sum(x["crane"] for x in tasks)
    require(cranes == 7, "tasks", f"{cranes} crane tasks", "exactly 7 with \"crane\": true")
    reqs = np.full((len(tasks), 2, 3), (-1, 0, -1), dtype=np.int8)
    for i, task in enumerate(tasks):
        reqs[i, : len(task["requirements"])] = task["requirements"]

    return {
        "fish_type_names": tuple(fish_types),
        "fish_value": frozen([x["value"] for x in fish]),
        "fish_type": frozen([x["type"] for x in fish]),
        "person_sex": frozen([tile[0] for tile in persons]),
        "person_type": frozen([tile[1] for tile in persons]),
        "person_symbols": frozen([tile[2] for tile in persons]),
        "task_ids": tuple(task_ids),
        "task_crane": frozen([x["crane"] for x in tasks], dtype=np.bool_),
        "task_req_kind": frozen(reqs[:, :, 0]),
        "task_req_count": frozen(reqs[:, :, 1]),
        "task_req_param": frozen(reqs[:, :, 2]),
        "jewelry_kind_names": tuple(kinds),
        "jewelry_kind": frozen([x["kind"] for x in jewels]),
        "jewelry_cost": frozen([x["cost"] for x in jewels]),
        "jewelry_vp": frozen([x["vp"] for x in jewels]),
        "necklace_kind": kinds.index("necklace"),
    }
