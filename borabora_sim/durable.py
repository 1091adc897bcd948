"""Crash-safe file changes: every write, rename and delete of a result directory goes through this module.

A file is written under a hidden temporary name, flushed to disk, and renamed into place; the rename and every
delete are flushed too (the directory's entry). After a crash or a kill at any moment, a file is either whole
under its final name or absent, and what is left over is a hidden temporary that a resume removes. The three
changing operations (`write_temporary`, `rename`, `remove`) are module functions so that a test can interrupt a
run at each of them in turn.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

TEMPORARY_SUFFIX = ".tmp"


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
