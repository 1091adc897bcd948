"""Saved states as JSON-safe data: a compiled state's bytes, viewed through the numpy dtype of its C struct, to and
from plain dicts, lists and ints. Shared by every game's engine (their `to_dict` / `from_dict`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from borabora_sim.errors import StateFormatError


def record_to_python(value: Any, dtype: np.dtype) -> Any:
    """A numpy record of a state layout as plain dicts, lists and ints."""
    if dtype.names:
        return {name: record_to_python(value[name], dtype.fields[name][0]) for name in dtype.names}
    if dtype.subdtype is not None and dtype.subdtype[0].names:
        return [record_to_python(item, dtype.subdtype[0]) for item in value]
    return value.tolist()


def record_from_python(target: Any, value: Any, dtype: np.dtype, path: str) -> None:
    """Fills a numpy record from dicts / lists / ints, naming the first field that does not fit its C type."""
    if not isinstance(value, dict):
        raise StateFormatError(f"field '{path}' must be an object")
    missing = [n for n in dtype.names if n not in value]
    unknown = [k for k in value if k not in dtype.fields]
    if missing or unknown:
        raise StateFormatError(f"field '{path}': missing {missing}, unknown {unknown}")
    for name in dtype.names:
        field = dtype.fields[name][0]
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
