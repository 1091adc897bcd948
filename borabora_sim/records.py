"""Saved states as JSON-safe data: a compiled state's bytes, viewed through the numpy dtype of its C struct, to and
from plain dicts, lists and ints. Shared by every game's engine (their `to_dict` / `from_dict`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from borabora_sim.errors import StateFormatError


def record_to_python(value: Any, dtype: np.dtype) -> Any:
    """A numpy record of a state layout as plain dicts, lists and ints."""
    names, fields = dtype.names, dtype.fields
    if names and fields is not None:
        return {name: record_to_python(value[name], fields[name][0]) for name in names}
    if dtype.subdtype is not None and dtype.subdtype[0].names:
        return [record_to_python(item, dtype.subdtype[0]) for item in value]
    return value.tolist()


SAVED_KEYS = ("format", "version", "components", "state")        # a saved state's keys (to_dict)
SEED_MAX = 2**64 - 1


def record_from_saved(data: Any, fmt: str, version: int, fingerprint: str, dtype: np.dtype,
                      seed_fields: tuple[str, ...]) -> np.ndarray:
    """The state record (one of `dtype`) of a saved state (`to_dict()`): its format, version and component
    fingerprint checked, no key missing or unknown, seeds given as 64-bit hex strings and every field within its
    C type; the first that fails is named in a StateFormatError. The laws of the game are the engine's to check."""
    if not isinstance(data, dict):
        raise StateFormatError(f"state must be a dict, got {type(data).__name__}")
    for key, want in zip(SAVED_KEYS, (fmt, version, fingerprint), strict=False):
        if data.get(key) != want:
            raise StateFormatError(f"field '{key}' is {data.get(key)!r}; expected {want!r}")
    unknown = [key for key in data if key not in SAVED_KEYS]
    if unknown:
        raise StateFormatError(f"unknown field(s) {', '.join(map(repr, unknown))}; a saved state has "
                               f"{', '.join(SAVED_KEYS)}")
    body = data.get("state")
    if not isinstance(body, dict):
        raise StateFormatError("field 'state' must be an object")
    seeds = {}
    for name in seed_fields:
        try:
            seeds[name] = int(body[name], 16)
        except (KeyError, TypeError, ValueError):
            raise StateFormatError(f"field 'state.{name}' must be a hex string of a 64-bit seed") from None
        if not 0 <= seeds[name] <= SEED_MAX:
            raise StateFormatError(f"field 'state.{name}' must be a hex string of a 64-bit seed")
    record = np.zeros(1, dtype=dtype)
    record_from_python(record[0], dict(body, **seeds), dtype, "state")
    return record


def record_from_python(target: Any, value: Any, dtype: np.dtype, path: str) -> None:
    """Fills a numpy record from dicts / lists / ints, naming the first field that does not fit its C type."""
    if not isinstance(value, dict):
        raise StateFormatError(f"field '{path}' must be an object")
    names, fields = dtype.names, dtype.fields
    assert names is not None and fields is not None, "a state layout is a structured dtype"
    missing = [n for n in names if n not in value]
    unknown = [k for k in value if k not in fields]
    if missing or unknown:
        raise StateFormatError(f"field '{path}': missing {missing}, unknown {unknown}")
    for name in names:
        field = fields[name][0]
        where = f"{path}.{name}"
        item = value[name]
        if field.subdtype is not None and field.subdtype[0].names:
            base, (count,) = field.subdtype
            if not isinstance(item, list) or len(item) != count:
                raise StateFormatError(f"field '{where}' must be a list of {count} objects")
            for i in range(count):
                record_from_python(target[name][i], item[i], base, f"{where}[{i}]")
            continue
        base, shape = field.subdtype if field.subdtype is not None else (field, ())
        array = np.asarray(item, dtype=object)
        if array.shape != shape or not all(isinstance(v, int) and not isinstance(v, bool) for v in array.flat):
            raise StateFormatError(f"field '{where}' must be "
                                   f"{'an integer' if not shape else f'integers of shape {list(shape)}'}")
        info = np.iinfo(base)
        if any(not info.min <= v <= info.max for v in array.flat):
            raise StateFormatError(f"field '{where}' out of range {info.min}..{info.max}: {item}")
        target[name] = item


__all__ = ["record_from_python", "record_from_saved", "record_to_python"]
