"""The library's own files, written so that a crash never leaves half of one, and read so that a file never runs
code.

Writing: every write, rename and delete of a result directory goes through this module.

A file is written under a hidden temporary name, flushed to disk, and renamed into place; the rename and every
delete are flushed too (the directory's entry). After a crash or a kill at any moment, a file is either whole
under its final name or absent, and what is left over is a hidden temporary that a resume removes. The three
changing operations (`write_temporary`, `rename`, `remove`) are module functions so that a test can interrupt a
run at each of them in turn.

Checking: a directory whose finished files are read back (a simulation run, a training or tuning work directory)
records the sha256 of each as it is written (`Digests`), before it is renamed into place, and checks it on every
read: a file changed since, by a flipped bit on a disk or a hand, is named in one line instead of being used.

Reading: .npz and JSON files are read without pickle, only from regular files (a FIFO or a device could block or
never end), an .npz file only once the sizes of its arrays are known to fit `MAX_ARRAY_BYTES`; an empty, truncated,
foreign or hostile file is one ValueError line naming the file and what to do.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

TEMPORARY_SUFFIX = ".tmp"
ZIP_MAGIC = b"PK\x03\x04"      # an .npz file is a zip archive
# What reading a damaged .npz file raises, besides ValueError: a truncated archive, a member cut short or not
# deflated as announced, a compression or encryption zipfile does not read, a header announcing a huge array
NPZ_ERRORS = (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
              MemoryError)
# The most an .npz file's arrays may take once unpacked: the largest file the library writes (a chunk of ten
# self-play games of Bora Bora, every decision kept) takes about 100 MB, and a small compressed file can announce
# gigabytes.
MAX_ARRAY_BYTES = 512 * 2**20
# The bounds of a model file's numbers (a network's, learned weights'): weights, biases and means at most MAX_WEIGHT in
# size, scales at least MIN_SCALE (`network.fit` keeps a feature's scale above it). Trained networks stay below 100;
# at these bounds every evaluation stays finite, and a file beyond them (weights of 1e300) would make the search's
# values infinite.
MAX_WEIGHT = 1e6
MIN_SCALE = 1e-6


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


def sha256(path: Path) -> str:
    """The sha256 of the bytes of the file `path`, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_sha256(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


class Digests:
    """The sha256 of every finished file of a directory (`root`), by its path relative to it, as the directory's
    record of them holds it; `save` writes that record (whole or not at all). A file's digest is recorded before the
    file is renamed into place, so that every file in place has one: a kill in between leaves a digest of a file
    that is absent, which is harmless. A file replaced as a run goes on (a state rewritten after every step) has its
    new digest recorded over the old one the same way: a kill before the rename leaves the new bytes in the hidden
    temporary, which `recover` renames into place. `forget` drops the digests of files deleted."""

    def __init__(self, root: Path, recorded: dict[str, str], save: Callable[[dict[str, str]], None],
                 remedy: str) -> None:
        self.root = root
        self.recorded = dict(recorded)
        self._save = save
        self.remedy = remedy            # what to do with a damaged file, for the refusal

    def name(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def write_file(self, final: Path, write: Callable[[Path], None]) -> None:
        """Writes `final` whole or not at all (as `write_file`), its digest recorded before it is in place."""
        temporary = temporary_name(final)
        write_temporary(temporary, write)
        self.recorded[self.name(final)] = sha256(temporary)
        self.save()
        rename(temporary, final)

    def write_bytes(self, final: Path, data: bytes) -> None:
        def write(path: Path) -> None:
            path.write_bytes(data)

        self.write_file(final, write)

    def forget(self, paths: Sequence[Path]) -> None:
        """Drops the digests of files that were deleted."""
        dropped = [self.recorded.pop(self.name(path), None) for path in paths]
        if any(dropped):
            self.save()

    def save(self) -> None:
        self._save(dict(sorted(self.recorded.items())))

    def record_unrecorded(self, paths: Sequence[Path]) -> None:
        """Records the digests of files a directory held before it recorded them (one written by an earlier
        version of the library), taken as they are now."""
        missing = {self.name(path): sha256(path) for path in paths if self.name(path) not in self.recorded}
        if missing:
            self.recorded.update(missing)
            self.save()

    def recover(self) -> None:
        """Finishes the writes in `root` that a kill interrupted between recording a digest and renaming the file
        into place: a hidden temporary holding the bytes recorded for its final name is renamed to it, and every
        other temporary (of a write interrupted before its digest was recorded) is deleted."""
        for path in sorted(self.root.iterdir()):
            if is_temporary(path) and path.is_file():
                final = path.with_name(path.name[1:-len(TEMPORARY_SUFFIX)])
                if self.recorded.get(self.name(final)) == sha256(path):
                    rename(path, final)
                else:
                    remove(path)

    def check(self, path: Path, remedy: str | None = None) -> None:
        """A ValueError naming `path` unless its bytes are those whose digest was recorded; it ends with `remedy`
        where what to do differs from file to file, with the directory's otherwise."""
        remedy = self.remedy if remedy is None else remedy
        recorded = self.recorded.get(self.name(path))
        if recorded is None:
            raise ValueError(f"{path} is not one of the finished files recorded in {self.root}, so it was not "
                             f"written there; {remedy}")
        if sha256(path) != recorded:
            raise ValueError(f"{path} is damaged (its bytes differ from those recorded when it was written: its "
                             f"sha256 has changed); {remedy}")


def read_digests(path: Path, what: str, remedy: str) -> dict[str, str]:
    """The record of a directory's finished files in the JSON file `path` (none: {}), or a ValueError naming it."""
    if not path.exists():
        return {}
    found = read_json(path, what, remedy)
    if not isinstance(found, dict) or not all(is_sha256(value) for value in found.values()):
        raise ValueError(f"{path} is not {what}: it must hold a JSON object of file names and their sha256 (64 hex "
                         f"digits); {remedy}")
    return found


def json_bytes(value: object) -> bytes:
    return (json.dumps(value, indent=1) + "\n").encode()


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


def magnitude_problem(arrays: dict[str, np.ndarray]) -> str | None:
    """What puts a model file's numbers out of bounds (not finite, larger than MAX_WEIGHT, a `scale` below
    MIN_SCALE), or None."""
    for name, value in arrays.items():
        if not np.isfinite(value).all():
            return f"{name} holds a number that is not finite"
        if value.size and np.abs(value).max() > MAX_WEIGHT:
            return f"{name} holds a number of size {np.abs(value).max():.3g}, beyond the {MAX_WEIGHT:g} allowed"
    if "scale" in arrays and arrays["scale"].size and arrays["scale"].min() < MIN_SCALE:
        return f"scale holds {arrays['scale'].min():.3g}, below the {MIN_SCALE:g} allowed"
    return None


def read_arrays(path: str | os.PathLike[str], names: Sequence[str], what: str, remedy: str,
                optional: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """The arrays `names` of the .npz file `path`, exactly those (and those of `optional` it holds) and each of real
    numbers, read without pickle.
    An empty, truncated or foreign file, one with other arrays or an object array, one whose arrays would take more
    than MAX_ARRAY_BYTES once unpacked, or a path that is not a regular file, is a ValueError
    `{path} is not {what}: {problem}; {remedy}`; a missing or unreadable file is the OSError of opening it."""
    check_regular(path, what, remedy)
    with open(path, "rb") as file:
        head = file.read(len(ZIP_MAGIC))
    if head != ZIP_MAGIC:
        raise ValueError(f"{path} is not {what}: {'the file is empty' if not head else 'not an .npz file'}; {remedy}")
    arrays: dict[str, np.ndarray] = {}
    try:
        unpacked = _unpacked_bytes(path)
        if unpacked > MAX_ARRAY_BYTES:
            raise ValueError(f"{path} is not {what}: its arrays would take {unpacked / 2**20:,.0f} MiB once "
                             f"unpacked, more than the {MAX_ARRAY_BYTES // 2**20} MiB allowed; {remedy}")
        with np.load(path, allow_pickle=False) as data:
            files = list(data.files)
            if set(names) <= set(files) <= set(names) | set(optional):
                arrays = {name: data[name] for name in files}
    except NPZ_ERRORS as exc:
        if str(exc).startswith(f"{path} is not {what}"):
            raise
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


def check_regular(path: str | os.PathLike[str], what: str, remedy: str) -> None:
    """A ValueError unless `path` is a regular file (or a link to one), checked without opening it: opening a FIFO
    waits for a writer, and a device or /proc file can be endless; a missing or unreadable path is the OSError of
    looking it up."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else \
            "not a regular file"
        raise ValueError(f"{path} is not {what}: it is {kind}, not a file; {remedy}")


def _unpacked_bytes(path: str | os.PathLike[str]) -> int:
    """What the arrays of the .npz file `path` take once unpacked, from its zip directory and each array's header,
    read without unpacking any: the larger of the sizes the two announce, member by member."""
    total = 0
    with zipfile.ZipFile(path) as archive:
        for member in archive.infolist():
            with archive.open(member) as stream:
                total += max(member.file_size, _npy_bytes(stream))
    return total


def _npy_bytes(stream: IO[bytes]) -> int:
    """The bytes of the array whose .npy header starts `stream` (0 for a member that is not an .npy array)."""
    try:
        version = np.lib.format.read_magic(stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
            np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
    except ValueError:
        return 0
    count = 1
    for length in shape:
        count *= length
    return count * dtype.itemsize


def read_json(path: str | os.PathLike[str], what: str, remedy: str) -> Any:
    """The JSON value in the file `path`. An empty file, one that is not UTF-8 JSON or one with NaN or Infinity
    is a ValueError `{path} is not {what}: {problem}; {remedy}`, and so is a path that is not a regular file; a
    missing or unreadable file is the OSError of reading it."""
    check_regular(path, what, remedy)
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


__all__ = ["Digests", "check_regular", "make_directory", "read_arrays", "read_digests", "read_json", "remove",
           "rename", "sha256", "write_bytes", "write_file"]
