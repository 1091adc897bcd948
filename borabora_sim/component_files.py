"""Reading and validating a game's component file: the part that is the same for every game.

A game's loader describes its format with the checks below and builds its tables in a function
``build(doc, source_path)``; :func:`load_with` turns the ``source`` argument (None, a path or a dict) into the
parsed document, reads files strictly (size, encoding, repeated keys, ``NaN``, deep nesting, long integers) and
turns every problem into a :class:`ComponentError` that names the source, the field path and what is allowed.

Example::

    >>> reader = open_document({"format_version": 1, "dice": {"sides": 6, "mark": "CONFIRMED", "source": "box"}},
    ...                        ("dice",), 1, "docs/dice.md")
    >>> reader.table("dice", {"sides": int_in(1, 20)}), reader.marks["dice.sides"]
    ({'sides': 6}, 'CONFIRMED')
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import json
import os
import reprlib
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, NoReturn, TypeVar

import numpy as np

from borabora_sim import files

__all__ = [
    "MARKS",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "Check",
    "ComponentError",
    "ComponentTables",
    "Doc",
    "Reader",
    "RulesCache",
    "fail",
    "fingerprint",
    "flag",
    "frozen",
    "get_key",
    "int_in",
    "ints_in",
    "json_object",
    "known_keys",
    "load_with",
    "name_in",
    "open_document",
    "plain_copy",
    "require",
    "require_count",
    "require_each_used",
    "require_unique",
    "show",
    "text",
    "write_document",
]

MARKS = ("CONFIRMED", "DERIVED", "INVENTED")
MAX_FILE_BYTES = 1 << 20  # 1 MiB; the built-in files have under 60 KB
MAX_INT_DIGITS = 18  # longer integer literals are refused while parsing (every field's range is far smaller)

_PROVENANCE_KEYS = ("mark", "marks", "source", "sources")
_SOURCES = "None (the built-in file), a file path (str or os.PathLike) or a dict"
_TEXT = "UTF-8 text (a leading UTF-8 byte-order mark is ignored)"
_REGULAR = "a regular file (not a directory, FIFO, device or socket)"
_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
# Opening a FIFO for reading waits for a writer unless O_NONBLOCK is given (POSIX; Windows has no such flag). The
# file is checked to be a regular file before it is opened; the flag keeps a FIFO put in its place meanwhile from
# blocking the open.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)

_T = TypeVar("_T")


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
    """A problem at a field path; load_with adds the source and raises it as a ComponentError."""


# A check validates one JSON value at a field path and returns it converted (names become indices).
Check = Callable[[Any, str], Any]


class _ShortRepr(reprlib.Repr):
    """Values quoted in messages: bounded in length and nesting, and safe for integers too long to print."""

    def repr_int(self, x: int, level: int) -> str:
        return super().repr_int(x, level) if x.bit_length() <= 64 else f"<an integer of {x.bit_length()} bits>"


_short_repr = _ShortRepr()
_short_repr.maxstring = _short_repr.maxother = 60
show = _short_repr.repr


def _listing(names: Sequence[str], most: int = 12, width: int = 40) -> str:
    """Names for a message: the first `most`, each cut to `width` characters."""
    shown = ", ".join(name if len(name) <= width else f"{name[: width - 3]}..." for name in names[:most])
    return shown if len(names) <= most else f"{shown}, ... ({len(names)} in all)"


def fail(path: str, problem: str, allowed: str) -> NoReturn:
    raise _Invalid(path, problem, allowed)


def require(ok: bool, path: str, problem: str, allowed: str) -> None:
    if not ok:
        fail(path, problem, allowed)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def get_key(obj: Mapping[str, Any], key: str, path: str, allowed: str) -> Any:
    require(key in obj, _join(path, key), "missing", allowed)
    return obj[key]


def known_keys(obj: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
    for key in obj:
        require(key in allowed, _join(path, key), "unknown key", ", ".join(allowed))


def _not_a(value: Any, kind: str) -> str:
    """The problem of a value of the wrong JSON type, e.g. ``int instead of a list: 5``."""
    return f"{type(value).__name__} instead of {kind}: {show(value)}"


def json_object(value: Any, path: str) -> dict[str, Any]:
    require(isinstance(value, dict), path, _not_a(value, "an object"), "a JSON object")
    obj: dict[str, Any] = value
    return obj


def int_in(lo: int, hi: int) -> Check:
    def check(value: Any, path: str) -> int:
        # bool is an int subclass in Python; JSON true/false is never a count.
        if not (type(value) is int and lo <= value <= hi):
            fail(path, show(value), f"an integer {lo}..{hi}")
        return value

    return check


def ints_in(lo: int, hi: int, length: int | None = None) -> Check:
    """A list of integers in lo..hi, of exactly ``length`` items, or of at least one item."""
    item = int_in(lo, hi)

    def check(value: Any, path: str) -> list[int]:
        allowed = f"a list of {f'exactly {length}' if length else 'one or more'} integers {lo}..{hi}"
        require(isinstance(value, list), path, _not_a(value, "a list"), allowed)
        require(len(value) == length if length else len(value) >= 1, path, f"{len(value)} values", allowed)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return check


def name_in(names: Sequence[str]) -> Check:
    """A name from ``names`` (unique), converted to its index."""
    index = {name: i for i, name in enumerate(names)}

    def check(value: Any, path: str) -> int:
        i = index.get(value) if isinstance(value, str) else None
        if i is None:
            fail(path, f"{show(value)} is not a known name", _listing(names))
        return i

    return check


def text(value: Any, path: str) -> str:
    if not (isinstance(value, str) and value.strip()):
        fail(path, show(value), "a non-empty string")
    return value


def flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        fail(path, show(value), "true or false")
    return value


def _mark(value: Any, path: str) -> str:
    if not (isinstance(value, str) and value in MARKS):
        fail(path, f"{show(value)} is not a provenance mark", ", ".join(MARKS))
    return value


def require_unique(names: Sequence[str], section: str, key: str) -> None:
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        j = first.setdefault(name, i)
        if j != i:
            fail(f"{section}[{i}].{key}", f"{show(name)} repeats {section}[{j}]", "unique names")


def require_each_used(names: Sequence[str], used: set[int], path: str, what: str) -> None:
    for i, name in enumerate(names):
        if i not in used:
            fail(path, f"no {what} has {show(name)}", f"data using each of {_listing(names)} at least once")


def require_count(items: Sequence[Any], path: str, expected: int, what: str) -> None:
    require(len(items) == expected, path, f"{len(items)} {what}", f"exactly {expected}")


class Reader:
    """Reads records and collects the provenance of every field path on the way."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.marks: dict[str, str] = {}
        self.sources: dict[str, str] = {}

    def record(self, raw: Any, path: str, fields: Mapping[str, Check]) -> dict[str, Any]:
        raw = json_object(raw, path)
        known_keys(raw, path, (*fields, *_PROVENANCE_KEYS))
        provenance = (("mark", _mark, self.marks, ", ".join(MARKS)), ("source", text, self.sources, "text"))
        for key, read, store, kind in provenance:
            default = read(raw[key], f"{path}.{key}") if key in raw else None
            per_field = json_object(raw.get(key + "s", {}), f"{path}.{key}s")
            known_keys(per_field, f"{path}.{key}s", tuple(fields))
            for name in fields:
                if name in per_field:
                    store[f"{path}.{name}"] = read(per_field[name], f"{path}.{key}s.{name}")
                elif default is None:
                    fail(f"{path}.{name}", f"no provenance {key}",
                         f"a '{key}' on the record or an entry in '{key}s' ({kind})")
                else:
                    store[f"{path}.{name}"] = default
        return {name: check(get_key(raw, name, path, f"a {name} value"), f"{path}.{name}")
                for name, check in fields.items()}

    def records(self, section: str, fields: Mapping[str, Check], count: int | None = None,
                most: tuple[int, str] | None = None) -> list[dict[str, Any]]:
        """The section's records: exactly ``count`` of them, or at most ``most`` = (limit, reason), or any number."""
        items = self.doc[section]
        require(isinstance(items, list), section, _not_a(items, "a list"), "a list of records")
        if count is not None:
            require_count(items, section, count, "records")
        if most is not None:
            require(len(items) <= most[0], section, f"{len(items)} records", f"at most {most[0]}, {most[1]}")
        return [self.record(item, f"{section}[{i}]", fields) for i, item in enumerate(items)]

    def table(self, section: str, fields: Mapping[str, Check]) -> dict[str, Any]:
        return self.record(self.doc[section], section, fields)


def open_document(doc: Any, sections: Sequence[str], version: int, format_doc: str) -> Reader:
    """A reader of ``doc``, an object holding exactly ``format_version`` (equal to ``version``) and ``sections``."""
    doc = json_object(doc, "<document>")
    top_level = ("format_version", *sections)
    known_keys(doc, "", top_level)
    for key in top_level:
        get_key(doc, key, "", f"every section of the format (see {format_doc})")
    found = doc["format_version"]
    if not (type(found) is int and found == version):
        fail("format_version", show(found), f"{version}")
    return Reader(doc)


def plain_copy(doc: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a validated document (plain JSON values only), faster than copy.deepcopy."""
    copy: dict[str, Any] = json.loads(json.dumps(doc))
    return copy


def frozen(values: Any, dtype: type = np.int8) -> np.ndarray:
    array: np.ndarray = np.array(values, dtype=dtype)
    array.flags.writeable = False
    return array


class ComponentTables:
    """The methods a game's frozen dataclass of component tables shares with the other games'.

    The dataclass has the fields ``marks`` (every field path's provenance mark), ``source_path`` and ``_document``
    (the validated JSON, of which :meth:`to_json_dict` hands out copies).
    """

    marks: Mapping[str, str]
    source_path: str
    _document: dict[str, Any]

    def invented(self) -> list[str]:
        """Field paths whose value is an INVENTED stand-in, in file order."""
        return [path for path, mark in self.marks.items() if mark == "INVENTED"]

    def to_json_dict(self) -> dict[str, Any]:
        """A deep copy of the document these tables were built from, to edit and pass to load_components."""
        return plain_copy(self._document)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(source_path={self.source_path!r}, invented_fields={len(self.invented())})"


Doc = dict[str, Any]            # a component document: the JSON of a component file, parsed
# Where a game's component data comes from: its tables, a file, a document, or None for the built-in data.
ComponentSource = ComponentTables | str | os.PathLike[str] | Mapping[str, Any] | None


def write_document(doc: Doc, path: str | Path) -> Path:
    """Writes a component document as a file, whole or not at all (`get_game(name, components=path)` and
    `simulate(components=path)` take the path)."""
    path = Path(path)
    files.make_directory(path.parent)
    files.write_bytes(path, json.dumps(doc, indent=1).encode())
    return path


_CACHE_SIZE = 32                # component data sets whose hash and compiled rules are kept
_fingerprints: dict[int, tuple[ComponentTables, str]] = {}


def fingerprint(components: ComponentTables) -> str:
    """A short hash of the component data: saved states and runs name the data they were played with."""
    known = _fingerprints.get(id(components))
    if known is not None and known[0] is components:
        return known[1]
    text = json.dumps(components.to_json_dict(), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if len(_fingerprints) >= _CACHE_SIZE:
        del _fingerprints[next(iter(_fingerprints))]
    _fingerprints[id(components)] = (components, digest)
    return digest


_C = TypeVar("_C", bound=ComponentTables)


class RulesCache(Generic[_C, _T]):
    """A game's `rules_for(components)`: the compiled tables of `components` (the game's tables, a file, a dict,
    or None for the built-in data), shared by content, so that loading the same data twice builds them once."""

    def __init__(self, tables: type[_C], load: Callable[[Any], _C], build: Callable[[_C, str], _T]) -> None:
        self._tables, self._load, self._build = tables, load, build
        self._built: dict[str, _T] = {}

    def __call__(self, components: Any = None) -> _T:
        if not isinstance(components, self._tables):
            components = self._load(components)
        key = fingerprint(components)
        rules = self._built.get(key)
        if rules is None:
            if len(self._built) >= _CACHE_SIZE:
                del self._built[next(iter(self._built))]
            rules = self._built[key] = self._build(components, key)
        return rules


def load_with(build: Callable[[Any, str], _T], source: str | os.PathLike[str] | Mapping[str, Any] | None,
              builtin_file: Path, format_doc: str) -> _T:
    """``build(document, source_path)`` for ``source``: None for ``builtin_file``, a path to a JSON file, or a dict.

    Problems found by the checks of this module, in the file or by ``build``, are raised as ComponentError.
    ``format_doc`` names the page describing the format. The built-in file is built once and the result shared,
    so ``build`` must return a value that cannot be changed.
    """
    if source is None:
        built: _T = _builtin(build, builtin_file, format_doc)       # functools.cache hides the type
        return built
    if isinstance(source, Mapping):
        return _load(build, "<dict>", lambda: dict(source))
    try:
        path = os.fspath(source)
    except TypeError:
        path = None
    if not isinstance(path, str):
        raise ComponentError(f"<{type(source).__name__}>", "source", "neither a file path nor a dict", _SOURCES)
    if not path:
        raise ComponentError("''", "source", "an empty path", _SOURCES)
    # A path with a line break or another control character is quoted, so that every message stays one line.
    return _load(build, path if path.isprintable() else repr(path), lambda: _read_json(path, format_doc))


@functools.cache
def _builtin(build: Callable[[Any, str], _T], builtin_file: Path, format_doc: str) -> _T:
    return _load(build, "builtin", lambda: _read_json(os.fspath(builtin_file), format_doc))


def _load(build: Callable[[Any, str], _T], source: str, read: Callable[[], Any]) -> _T:
    try:
        return build(read(), source)
    except _Invalid as error:
        raise ComponentError(source, *error.args) from None


def _read_json(path: str, format_doc: str) -> Any:
    """The parsed file, refused before it is opened if it is not a regular file, and before parsing if it is too
    large (at most MAX_FILE_BYTES + 1 bytes are read) or not UTF-8 text."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            fail("<file>", next((kind for is_kind, kind in _NOT_REGULAR if is_kind(mode)), "not a regular file"),
                 _REGULAR)
        with open(os.open(path, _OPEN_FLAGS), "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        fail("<file>", f"cannot be read ({error.strerror or error})", "a readable JSON file")
    except ValueError as error:  # e.g. a NUL character in the path
        fail("<file>", f"cannot be opened ({error})", "a readable JSON file")
    if len(data) > MAX_FILE_BYTES:
        fail("<file>", f"larger than {MAX_FILE_BYTES} bytes", f"files of at most {MAX_FILE_BYTES} bytes (1 MiB)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        fail("<file>", "UTF-16 or UTF-32 text (it starts with a byte-order mark of those)", _TEXT)
    if b"\0" in data:
        fail("<file>", f"a NUL byte at offset {data.index(0)} (binary data, or UTF-16 or UTF-32 text)", _TEXT)
    try:
        decoded = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        fail("<file>", f"not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})", _TEXT)
    if not decoded.strip():
        fail("<file>", "empty", "a JSON object")
    try:
        return json.loads(decoded, object_pairs_hook=_object_once, parse_constant=_no_constant, parse_int=_short_int)
    except json.JSONDecodeError as error:
        fail("<document>", f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
             "a JSON object")
    except RecursionError:
        fail("<document>", "nested too deeply to parse", f"the nesting of the format ({format_doc})")


def _object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: json would keep the last of two silently."""
    result = dict(pairs)
    if len(result) < len(pairs):
        repeated = next(key for i, (key, _) in enumerate(pairs) if any(key == k for k, _ in pairs[:i]))
        fail("<document>", f"the key {show(repeated)} appears twice in one object", "each key once per object")
    return result


def _no_constant(name: str) -> NoReturn:
    fail("<document>", f"{name} is not a JSON number", "integers and strings, as the format asks")


def _short_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        fail("<document>", f"an integer literal of {len(digits.lstrip('-'))} digits",
             f"integers of at most {MAX_INT_DIGITS} digits")
    return int(digits)
