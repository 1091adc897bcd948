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

import codecs
import functools
import json
import os
import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

import numpy as np

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
MARKS = ("CONFIRMED", "DERIVED", "INVENTED")

FORMAT_VERSION = 1
BUILTIN_FILE = Path(__file__).with_name("data") / "components.json"
MAX_FILE_BYTES = 1 << 20  # 1 MiB; the built-in file has under 40 KB
MAX_INT_DIGITS = 18  # longer integer literals are refused while parsing (every field's range is far smaller)
N_REGIONS = 12
N_JEWELRY = 24
HUTS_PER_PLAYER = 12
PERSONS_PER_SEX = 36
MAX_REQUIREMENT_COUNT = 60

_PROVENANCE_KEYS = ("mark", "marks", "source", "sources")
_LIST_SECTIONS = (
    "islands", "regions", "paths", "fish_types", "fish_tiles", "person_tiles",
    "jewelry_kinds", "jewelry_tiles", "tasks",
)


class ComponentError(ValueError):
    """Invalid component data or an unusable source.

    The message is ``source: field: problem; allowed: ...``, where source is the file path, ``"<dict>"``,
    ``"builtin"`` or a description of an unusable argument; the four parts are also attributes.
    """

    def __init__(self, source: str, field: str, problem: str, allowed: str) -> None:
        super().__init__(source, field, problem, allowed)
        self.source, self.field, self.problem, self.allowed = source, field, problem, allowed

    def __str__(self) -> str:
        return f"{self.source}: {self.field}: {self.problem}; allowed: {self.allowed}"


class _Invalid(Exception):
    """A problem at a field path; load_components adds the source and raises it as a ComponentError."""


# A check validates one JSON value at a field path and returns it converted (names become indices).
Check = Callable[[Any, str], Any]


class _ShortRepr(reprlib.Repr):
    """Values quoted in messages: bounded in length and nesting, and safe for integers too long to print."""

    def repr_int(self, x: int, level: int) -> str:
        return super().repr_int(x, level) if x.bit_length() <= 64 else f"<an integer of {x.bit_length()} bits>"


_short_repr = _ShortRepr()
_short_repr.maxstring = _short_repr.maxother = 60
_show = _short_repr.repr


def _listing(names: Sequence[str], most: int = 12, width: int = 40) -> str:
    """Names for a message: the first `most`, each cut to `width` characters."""
    shown = ", ".join(name if len(name) <= width else f"{name[: width - 3]}..." for name in names[:most])
    return shown if len(names) <= most else f"{shown}, ... ({len(names)} in all)"


def _fail(path: str, problem: str, allowed: str) -> NoReturn:
    raise _Invalid(path, problem, allowed)


def _require(ok: bool, path: str, problem: str, allowed: str) -> None:
    if not ok:
        _fail(path, problem, allowed)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _get(obj: Mapping[str, Any], key: str, path: str, allowed: str) -> Any:
    _require(key in obj, _join(path, key), "missing", allowed)
    return obj[key]


def _known_keys(obj: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
    for key in obj:
        _require(key in allowed, _join(path, key), "unknown key", ", ".join(allowed))


def _object(value: Any, path: str) -> dict[str, Any]:
    _require(isinstance(value, dict), path, f"{type(value).__name__} instead of an object", "a JSON object")
    return value


def _int(lo: int, hi: int) -> Check:
    def check(value: Any, path: str) -> int:
        # bool is an int subclass in Python; JSON true/false is never a count.
        if not (type(value) is int and lo <= value <= hi):
            _fail(path, _show(value), f"an integer {lo}..{hi}")
        return value

    return check


def _ints(lo: int, hi: int, length: int | None = None) -> Check:
    """A list of integers in lo..hi, of exactly ``length`` items, or of at least one item."""
    item = _int(lo, hi)

    def check(value: Any, path: str) -> list[int]:
        size = f"exactly {length}" if length else "at least 1"
        _require(isinstance(value, list), path, f"{type(value).__name__} instead of a list", f"{size} integers")
        _require(len(value) == length if length else len(value) >= 1, path, f"{len(value)} values", size)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return check


def _name(names: Sequence[str]) -> Check:
    """A name from ``names`` (unique), converted to its index."""
    index = {name: i for i, name in enumerate(names)}

    def check(value: Any, path: str) -> int:
        i = index.get(value) if isinstance(value, str) else None
        if i is None:
            _fail(path, f"{_show(value)} is not a known name", _listing(names))
        return i

    return check


def _text(value: Any, path: str) -> str:
    if not (isinstance(value, str) and value.strip()):
        _fail(path, _show(value), "a non-empty string")
    return value


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        _fail(path, _show(value), "true or false")
    return value


def _mark(value: Any, path: str) -> str:
    if not (isinstance(value, str) and value in MARKS):
        _fail(path, f"{_show(value)} is not a provenance mark", ", ".join(MARKS))
    return value


def _unique(names: Sequence[str], section: str, key: str) -> None:
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        j = first.setdefault(name, i)
        if j != i:
            _fail(f"{section}[{i}].{key}", f"{_show(name)} repeats {section}[{j}]", "unique names")


def _each_used(names: Sequence[str], used: set[int], path: str, what: str) -> None:
    for i, name in enumerate(names):
        if i not in used:
            _fail(path, f"no {what} has {_show(name)}", f"data using each of {_listing(names)} at least once")


def _count(items: Sequence[Any], path: str, expected: int, what: str) -> None:
    _require(len(items) == expected, path, f"{len(items)} {what}", f"exactly {expected}")


class _Reader:
    """Reads records and collects the provenance of every field path on the way."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.marks: dict[str, str] = {}
        self.sources: dict[str, str] = {}

    def record(self, raw: Any, path: str, fields: Mapping[str, Check]) -> dict[str, Any]:
        raw = _object(raw, path)
        _known_keys(raw, path, (*fields, *_PROVENANCE_KEYS))
        provenance = (("mark", _mark, self.marks, ", ".join(MARKS)), ("source", _text, self.sources, "text"))
        for key, read, store, kind in provenance:
            default = read(raw[key], f"{path}.{key}") if key in raw else None
            per_field = _object(raw.get(key + "s", {}), f"{path}.{key}s")
            _known_keys(per_field, f"{path}.{key}s", tuple(fields))
            for name in fields:
                if name in per_field:
                    store[f"{path}.{name}"] = read(per_field[name], f"{path}.{key}s.{name}")
                else:
                    _require(default is not None, f"{path}.{name}", f"no provenance {key}",
                             f"a '{key}' on the record or an entry in '{key}s' ({kind})")
                    store[f"{path}.{name}"] = default
        return {name: check(_get(raw, name, path, f"a {name} value"), f"{path}.{name}")
                for name, check in fields.items()}

    def records(self, section: str, fields: Mapping[str, Check], count: int | None = None,
                most: tuple[int, str] | None = None) -> list[dict[str, Any]]:
        """The section's records: exactly ``count`` of them, or at most ``most`` = (limit, reason), or any number."""
        items = self.doc[section]
        _require(isinstance(items, list), section, f"{type(items).__name__} instead of a list", "a list of records")
        if count is not None:
            _count(items, section, count, "records")
        if most is not None:
            _require(len(items) <= most[0], section, f"{len(items)} records", f"at most {most[0]}, {most[1]}")
        return [self.record(item, f"{section}[{i}]", fields) for i, item in enumerate(items)]

    def table(self, section: str, fields: Mapping[str, Check]) -> dict[str, Any]:
        return self.record(self.doc[section], section, fields)


def _requirements(params: Mapping[str, Sequence[str]]) -> Check:
    """A task's 1 or 2 requirements as (kind, count, param) index triples; param is -1 for plain kinds."""
    kind_check = _name(TASK_REQUIREMENT_KINDS)

    def check(value: Any, path: str) -> list[tuple[int, int, int]]:
        if not (isinstance(value, list) and 1 <= len(value) <= 2):
            _fail(path, _show(value), "a list of 1 or 2 requirements")
        result = []
        for i, raw in enumerate(value):
            where = f"{path}[{i}]"
            raw = _object(raw, where)
            _known_keys(raw, where, ("kind", "count", "param"))
            kind = kind_check(_get(raw, "kind", where, ", ".join(TASK_REQUIREMENT_KINDS)), f"{where}.kind")
            name = TASK_REQUIREMENT_KINDS[kind]
            top = 1 if name == "first_player" else MAX_REQUIREMENT_COUNT
            count = _int(1, top)(_get(raw, "count", where, f"an integer 1..{top}"), f"{where}.count")
            if name in params:
                param = _name(params[name])(_get(raw, "param", where, ", ".join(params[name])), f"{where}.param")
            else:
                _require("param" not in raw, f"{where}.param", f"given for kind {name!r}",
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


def _plain_copy(doc: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a validated document (plain JSON values only), faster than copy.deepcopy."""
    return json.loads(json.dumps(doc))


def _frozen(values: Any, dtype: type = np.int8) -> np.ndarray:
    array = np.array(values, dtype=dtype)
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False, repr=False)
class Components:
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

    def invented(self) -> list[str]:
        """Field paths whose value is an INVENTED stand-in, in file order."""
        return [path for path, mark in self.marks.items() if mark == "INVENTED"]

    def to_json_dict(self) -> dict[str, Any]:
        """A deep copy of the document these tables were built from, to edit and pass to load_components."""
        return _plain_copy(self._document)

    def __repr__(self) -> str:
        return f"Components(source_path={self.source_path!r}, invented_fields={len(self.invented())})"


_SOURCES = "None (the built-in file), a file path (str or os.PathLike) or a dict"


def load_components(source: str | os.PathLike[str] | Mapping[str, Any] | None = None) -> Components:
    """Load and validate component data: None for the built-in file, a path to a JSON file, or a parsed dict.

    Raises ComponentError naming the source, the offending field path and what is allowed, e.g.
    ``mine.json: regions[3].terrain: 'swamp' is not a known name; allowed: mountain, beach, forest, plains``.
    """
    if source is None:
        return _builtin()
    if isinstance(source, Mapping):
        return _load("<dict>", lambda: dict(source))
    try:
        path = os.fspath(source)
    except TypeError:
        path = None
    if not isinstance(path, str):
        raise ComponentError(f"<{type(source).__name__}>", "source", "neither a file path nor a dict", _SOURCES)
    if not path:
        raise ComponentError("''", "source", "an empty path", _SOURCES)
    return _load(path, lambda: _read_json(path))


@functools.cache
def _builtin() -> Components:
    # Safe to share: every table of a Components is immutable.
    return _load("builtin", lambda: _read_json(os.fspath(BUILTIN_FILE)))


def _load(source: str, read: Callable[[], Any]) -> Components:
    try:
        return _build(read(), source)
    except _Invalid as error:
        raise ComponentError(source, *error.args) from None


_TEXT = "UTF-8 text (a leading UTF-8 byte-order mark is ignored)"


def _read_json(path: str) -> Any:
    """The parsed file, refused before parsing if it is too large or not UTF-8 text."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        _fail("<file>", f"cannot be read ({error.strerror or error})", "a readable JSON file")
    except ValueError as error:  # e.g. a NUL character in the path
        _fail("<file>", f"cannot be opened ({error})", "a readable JSON file")
    if len(data) > MAX_FILE_BYTES:
        _fail("<file>", f"larger than {MAX_FILE_BYTES} bytes", f"files of at most {MAX_FILE_BYTES} bytes (1 MiB)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        _fail("<file>", "UTF-16 or UTF-32 text (it starts with a byte-order mark of those)", _TEXT)
    if b"\0" in data:
        _fail("<file>", f"a NUL byte at offset {data.index(0)} (binary data, or UTF-16 or UTF-32 text)", _TEXT)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _fail("<file>", f"not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})", _TEXT)
    if not text.strip():
        _fail("<file>", "empty", "a JSON object")
    try:
        return json.loads(text, object_pairs_hook=_object_once, parse_constant=_no_constant, parse_int=_short_int)
    except json.JSONDecodeError as error:
        _fail("<document>", f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
              "a JSON object")
    except RecursionError:
        _fail("<document>", "nested too deeply to parse", "the nesting of the format (docs/components.md)")


def _object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: json would keep the last of two silently."""
    result = dict(pairs)
    if len(result) < len(pairs):
        repeated = next(key for i, (key, _) in enumerate(pairs) if any(key == k for k, _ in pairs[:i]))
        _fail("<document>", f"the key {_show(repeated)} appears twice in one object", "each key once per object")
    return result


def _no_constant(name: str) -> NoReturn:
    _fail("<document>", f"{name} is not a JSON number", "integers and strings, as the format asks")


def _short_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        _fail("<document>", f"an integer literal of {len(digits.lstrip('-'))} digits",
              f"integers of at most {MAX_INT_DIGITS} digits")
    return int(digits)


def _build(doc: Any, source_path: str) -> Components:
    doc = _object(doc, "<document>")
    tables = {
        "status_vp": {"values": _ints(0, 15, 16)},
        "temple": {"values": _ints(1, 6, 6)},
        "ceremony": {"rows": _int(1, 12), "cols": _int(1, 12), "materials": _material_grid},
        "building_values": {"values": _ints(1, 6, 6)},
        "building_vp_by_round": {"values": _ints(0, 30, 6)},
        "temple_vp_by_round": {"values": _ints(0, 9, 6)},
        "start_vp": {"values": _ints(0, 9, 4)},
        "helper_cost": dict.fromkeys(HELPER_ACTIONS, _int(1, 9)),
        "fishing_vp": {"value": _int(0, 9)},
        "start_huts_on_12th_space": {"value": _int(0, HUTS_PER_PLAYER)},
        "regular_person_spaces": {"value": _int(1, HUTS_PER_PLAYER - 1)},
    }
    top_level = ("format_version", *_LIST_SECTIONS, *tables)
    _known_keys(doc, "", top_level)
    for key in top_level:
        _get(doc, key, "", "every section of the format (see docs/components.md)")
    version = doc["format_version"]
    if not (type(version) is int and version == FORMAT_VERSION):
        _fail("format_version", _show(version), f"{FORMAT_VERSION}")

    reader = _Reader(doc)
    built = {**_read_map(reader), **_read_tiles(reader)}
    values = {key: reader.table(key, fields) for key, fields in tables.items()}

    status = values["status_vp"]["values"]
    _require(status == sorted(status), "status_vp.values", "the values decrease", "non-decreasing values")
    temple = values["temple"]["values"]
    _require(sorted(temple) == [1, 2, 3, 4, 5, 6], "temple.values", f"{temple}", "each of 1..6 once")
    ceremony = values["ceremony"]
    rows, cols, grid = ceremony["rows"], ceremony["cols"], ceremony["materials"]
    _require(rows * cols == 12, "ceremony.rows", f"{rows} x {cols} spaces", "rows * cols == 12")
    _count(grid, "ceremony.materials", rows, "rows")
    for r, row in enumerate(grid):
        _count(row, f"ceremony.materials[{r}]", cols, "spaces")
    flat = [m for row in grid for m in row]
    for m, material in enumerate(MATERIALS):
        _require(flat.count(m) >= 2, "ceremony.materials", f"{flat.count(m)} {material} spaces", "at least 2 of each")
    huts_12th = values["start_huts_on_12th_space"]["value"]
    regular = values["regular_person_spaces"]["value"]
    _require(regular + huts_12th >= HUTS_PER_PLAYER, "regular_person_spaces.value", f"{regular}",
             f"enough spaces for the {HUTS_PER_PLAYER - huts_12th} starting huts not on the 12th space")

    return Components(
        **built,
        status_vp=_frozen(status),
        temple_values=_frozen(temple),
        ceremony_rows=rows,
        ceremony_cols=cols,
        ceremony_material=_frozen(flat),
        building_values=_frozen(values["building_values"]["values"]),
        building_vp_by_round=_frozen(values["building_vp_by_round"]["values"]),
        temple_vp_by_round=_frozen(values["temple_vp_by_round"]["values"]),
        start_vp=_frozen(values["start_vp"]["values"]),
        helper_cost=_frozen([values["helper_cost"][name] for name in HELPER_ACTIONS]),
        fishing_vp=values["fishing_vp"]["value"],
        start_huts_on_12th_space=huts_12th,
        regular_person_spaces=regular,
        marks=MappingProxyType(reader.marks),
        sources=MappingProxyType(reader.sources),
        source_path=source_path,
        _document=_plain_copy(doc),
    )


def _material_grid(value: Any, path: str) -> list[list[int]]:
    if not (isinstance(value, list) and all(isinstance(row, list) for row in value)):
        _fail(path, _show(value), "a list of rows, each a list of material names")
    material = _name(MATERIALS)
    return [[material(m, f"{path}[{r}][{c}]") for c, m in enumerate(row)] for r, row in enumerate(value)]


def _read_map(reader: _Reader) -> dict[str, Any]:
    islands = [x["name"] for x in reader.records("islands", {"name": _text}, 5)]
    _unique(islands, "islands", "name")
    regions = reader.records(
        "regions", {"id": _text, "island": _name(islands), "terrain": _name(TERRAINS), "resource": _name(RESOURCES)},
        N_REGIONS,
    )
    ids = [x["id"] for x in regions]
    _unique(ids, "regions", "id")
    _each_used(islands, {x["island"] for x in regions}, "regions", "region")

    pairs = N_REGIONS * (N_REGIONS - 1) // 2
    paths = reader.records("paths", {"a": _name(ids), "b": _name(ids), "kind": _name(PATH_KINDS), "value": _int(1, 6)},
                           most=(len(PATH_KINDS) * pairs, "one land and one water path per pair of regions"))
    matrices = np.zeros((len(PATH_KINDS), len(ids), len(ids)), dtype=np.int8)
    for i, path in enumerate(paths):
        a, b, kind = path["a"], path["b"], path["kind"]
        _require(a != b, f"paths[{i}].b", f"{ids[b]!r} is the path's own start", "a region other than 'a'")
        _require(matrices[kind, a, b] == 0, f"paths[{i}]", f"a second {PATH_KINDS[kind]} path {ids[a]}-{ids[b]}",
                 "one path of each kind per pair of regions")
        matrices[kind, a, b] = matrices[kind, b, a] = path["value"]
    cut_off = [ids[i] for i in _unreached(matrices.any(axis=0))]
    _require(not cut_off, "paths", f"{', '.join(cut_off)} cannot be reached from {ids[0]}",
             "land and water paths joining all regions into one map")

    return {
        "region_ids": tuple(ids),
        "island_names": tuple(islands),
        "region_island": _frozen([x["island"] for x in regions]),
        "region_terrain": _frozen([x["terrain"] for x in regions]),
        "region_resource": _frozen([x["resource"] for x in regions]),
        "land_path": _frozen(matrices[0]),
        "water_path": _frozen(matrices[1]),
    }


def _read_tiles(reader: _Reader) -> dict[str, Any]:
    fish_types = [x["name"] for x in reader.records("fish_types", {"name": _text}, 4)]
    _unique(fish_types, "fish_types", "name")
    fish = reader.records("fish_tiles", {"value": _int(1, 6), "type": _name(fish_types)}, 12)
    ones = sum(x["value"] == 1 for x in fish)
    _require(ones >= 4, "fish_tiles", f"{ones} tiles of value 1", "at least 4 (each player's first hut needs one)")
    _each_used(fish_types, {x["type"] for x in fish}, "fish_tiles", "fish tile")

    groups = reader.records("person_tiles", {"sex": _name(SEXES), "type": _name(PERSON_TYPES), "symbols": _ints(1, 9)},
                            most=(len(SEXES) * len(PERSON_TYPES), "one per (sex, type)"))
    # One tile per entry of "symbols"; a stable sort puts the men first and keeps the file order within a sex.
    persons = sorted(((g["sex"], g["type"], s) for g in groups for s in g["symbols"]), key=lambda tile: tile[0])
    for sex, name in enumerate(SEXES):
        own = [tile for tile in persons if tile[0] == sex]
        _count(own, "person_tiles", PERSONS_PER_SEX, f"{name} tiles")
        _each_used(PERSON_TYPES, {tile[1] for tile in own}, "person_tiles", f"{name} tile")

    kinds = [x["name"] for x in reader.records("jewelry_kinds", {"name": _text},
                                                  most=(N_JEWELRY, "each used by one of the jewelry tiles"))]
    _unique(kinds, "jewelry_kinds", "name")
    _require("necklace" in kinds, "jewelry_kinds", "no kind named 'necklace'", "a list of kinds including 'necklace'")
    jewels = reader.records("jewelry_tiles", {"kind": _name(kinds), "cost": _int(0, 9), "vp": _int(1, 9)}, N_JEWELRY)
    _each_used(kinds, {x["kind"] for x in jewels}, "jewelry_tiles", "jewelry tile")

    params = {
        "god_cards_of_colour": GOD_COLOURS, "jewelry_of_kind": kinds, "material": MATERIALS,
        "terrain_regions": TERRAINS, "fish_type_regions": fish_types, "persons_of_type": PERSON_TYPES,
    }
    tasks = reader.records("tasks", {"id": _text, "crane": _flag, "requirements": _requirements(params)}, 60)
    task_ids = [x["id"] for x in tasks]
    _unique(task_ids, "tasks", "id")
    cranes = sum(x["crane"] for x in tasks)
    _require(cranes == 7, "tasks", f"{cranes} crane tasks", "exactly 7 with \"crane\": true")
    reqs = np.full((len(tasks), 2, 3), (-1, 0, -1), dtype=np.int8)
    for i, task in enumerate(tasks):
        reqs[i, : len(task["requirements"])] = task["requirements"]

    return {
        "fish_type_names": tuple(fish_types),
        "fish_value": _frozen([x["value"] for x in fish]),
        "fish_type": _frozen([x["type"] for x in fish]),
        "person_sex": _frozen([tile[0] for tile in persons]),
        "person_type": _frozen([tile[1] for tile in persons]),
        "person_symbols": _frozen([tile[2] for tile in persons]),
        "task_ids": tuple(task_ids),
        "task_crane": _frozen([x["crane"] for x in tasks], dtype=np.bool_),
        "task_req_kind": _frozen(reqs[:, :, 0]),
        "task_req_count": _frozen(reqs[:, :, 1]),
        "task_req_param": _frozen(reqs[:, :, 2]),
        "jewelry_kind_names": tuple(kinds),
        "jewelry_kind": _frozen([x["kind"] for x in jewels]),
        "jewelry_cost": _frozen([x["cost"] for x in jewels]),
        "jewelry_vp": _frozen([x["vp"] for x in jewels]),
        "necklace_kind": kinds.index("necklace"),
    }
