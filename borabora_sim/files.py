"""The library's own files, written so that a crash never leaves half of one, and read so that a file never runs
code.

Writing: every write, rename and delete of a result directory goes through this module.

A file is written under a hidden temporary name, flushed to disk, and renamed into place; the rename and every
delete are flushed too (the directory's entry). After a crash or a kill at any moment, a file is either whole
under its final name or absent, and what is left over is a hidden temporary that a resume removes. The three
changing operations (`write_temporary`, `rename`, `remove`) are module functions so that a test can interrupt a
run at each of them in turn.

Reading: .npz and JSON files are read without pickle, and an empty, truncated, foreign or hostile file is one
ValueError line naming the file and what to do.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

TEMPORARY_SUFFIX = ".tmp"
ZIP_MAGIC = b"PK\x03\x04"      # an .npz file is a zip archive
# What reading a damaged .npz file raises, besides ValueError: a truncated archive, a member cut short or not
# deflated as announced, a compression or encryption zipfile does not read, a header announcing a huge array
NPZ_ERRORS = (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
              MemoryError)


def temporary_name(final: Path) -> Path:
    """The hidden name a file is written under before it is renamed to `final`."""
    return final.with_name(f".{final.name}{TEMPORARY_SUFFIX}")


def is_temporary(path: Path) -> bool:
    """A file left over by a write that was interrupted before its rename."""
    return path.name.startswith(".") and path.name.endswith(TEMPORARY_SUFFIX)


def _sync(path: Path) -> None:
    """Flushes a file's contents, or a directory's entries, to disk."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_temporary(temporary: Path, write: Callable[[Path], None]) -> None:
    """Writes a file with `write(temporary)` and flushes it to disk."""
    write(temporary)
    _sync(temporary)


def rename(source: Path, target: Path) -> None:
    """Renames `source` to `target` in one step (replacing it) and flushes the directory."""
    os.replace(source, target)
    _sync(target.parent)


def remove(path: Path) -> None:
    """Deletes a file and flushes its directory."""
    path.unlink()
    _sync(path.parent)


def write_file(final: Path, write: Callable[[Path], None]) -> None:
    """Writes `final` whole or not at all: `write(path)` writes the contents to the path it is given."""
    temporary = temporary_name(final)
    write_temporary(temporary, write)
    rename(temporary, final)


def write_bytes(final: Path, data: bytes) -> None:
    """Writes `data` to `final` whole or not at all."""
    def write(path: Path) -> None:
        path.write_bytes(data)

    write_file(final, write)


def make_directory(path: Path) -> None:
    """Creates `path` (and its parents) if missing, and flushes the entry in its parent."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        _sync(path.parent)


def remove_temporaries(folder: Path) -> None:
    """Deletes the hidden temporaries of interrupted writes in `folder`."""
    for path in folder.iterdir() if folder.is_dir() else ():
        if is_temporary(path) and path.is_file():
            remove(path)


# =============================================================================
# Reading without running code
# =============================================================================
def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """The .npz file of `arrays`, as np.savez writes it but refusing an object array (which would be pickled)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    return buffer.getvalue()


def read_arrays(path: str | os.PathLike[str], names: Sequence[str], what: str, remedy: str,
                optional: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """The arrays `names` of the .npz file `path`, exactly those (and those of `optional` it holds) and each of real
    numbers, read without pickle.
    An empty, truncated or foreign file, or one with other arrays or an object array, is a ValueError
    `{path} is not {what}: {problem}; {remedy}`; a missing or unreadable file is the OSError of opening it."""
    with open(path, "rb") as file:
        head = file.read(len(ZIP_MAGIC))
    if head != ZIP_MAGIC:
        raise ValueError(f"{path} is not {what}: {'the file is empty' if not head else 'not an .npz file'}; {remedy}")
    arrays: dict[str, np.ndarray] = {}
    try:
        with np.load(path, allow_pickle=False) as data:
            files = list(data.files)
            if set(names) <= set(files) <= set(names) | set(optional):
                arrays = {name: data[name] for name in files}
    except NPZ_ERRORS as exc:
        problem = " ".join(str(exc).splitlines()) or type(exc).__name__
        raise ValueError(f"{path} is not {what}: truncated, damaged or unsafe ({problem}); {remedy}") from None
    if not arrays:
        raise ValueError(f"{path} is not {what}: it holds the arrays {', '.join(files) or 'none'}, not "
                         f"{', '.join(names)}" + (f" (and optionally {', '.join(optional)})" if optional else "") +
                         f"; {remedy}")
    for name, value in arrays.items():
        if not isinstance(value, np.ndarray):
            raise ValueError(f"{path} is not {what}: its member {name} is not an array; {remedy}")
        if value.dtype.kind not in "iuf":
            raise ValueError(f"{path} is not {what}: {name} holds {value.dtype}, not numbers; {remedy}")
    return arrays


def read_json(path: str | os.PathLike[str], what: str, remedy: str) -> Any:
    """The JSON value in the file `path`. An empty file, one that is not UTF-8 JSON or one with NaN or Infinity
    is a ValueError `{path} is not {what}: {problem}; {remedy}`; a missing or unreadable file is the OSError of
    reading it."""
    data = Path(path).read_bytes()
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        problem = "not UTF-8 text"
    except RecursionError:
        problem = "not JSON (nested too deeply)"
    except ValueError as exc:
        problem = f"not JSON ({exc})" if data else "the file is empty"
    raise ValueError(f"{path} is not {what}: {problem}; {remedy}")


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


__all__ = ["make_directory", "read_arrays", "read_json", "remove", "rename", "write_bytes", "write_file"]
