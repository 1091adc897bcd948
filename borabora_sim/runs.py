"""A simulation run on disk: its configuration (`RunConfig`, written as the run's `manifest.json` and read back
by `config_from_manifest`), the Parquet schemas of its player and game tables, and its directory (`RunDirectory`):
one file per chunk of games, small chunks merged into files of about `FILE_GAMES` games, every file marked with
the run's fingerprint and its sha256 recorded in the manifest (checked on every read), every change crash-safe
(borabora_sim.files). `borabora_sim.simulate` plays the games that
fill it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeGuard, TypeVar

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from borabora_sim import files
from borabora_sim.files import Digests
from borabora_sim.games import DEFAULT_GAME, canonical_game_spec, game_names, get_game
from borabora_sim.protocol import Game

SCHEMA_VERSION = 2
T = TypeVar("T")


def counter_columns(game: Game) -> tuple[str, ...]:
    """The behaviour-counter columns of `game`'s player rows (start_position has a column of its own)."""
    return tuple(name for name in game.counters if name != "start_position")


# The default game's score sources and counter columns, as before games were named.
SOURCES: tuple[str, ...] = get_game().sources
COUNTERS: tuple[str, ...] = counter_columns(get_game())
MANIFEST = "manifest.json"
FILES_KEY = "files"             # in the manifest, besides the configuration: the sha256 of every finished file
TABLES = ("players", "games")      # the folders of a run directory, one Parquet table each
FILE_GAMES = 5000               # chunks smaller than this are merged into files of about this many games
# What the files a run's players read are, as a refused resume words them (borabora_sim.players.player_files).
FILES_WORDS = "network, weights or style files"


# =============================================================================
# The configuration and its manifest
# =============================================================================
@dataclass(frozen=True)
class RunConfig:
    """Everything that determines the tables of a run (workers and backend do not)."""

    games: int
    players: tuple[str, ...]
    seed: int
    rotate_seats: bool
    chunk_size: int
    game: str = DEFAULT_GAME                # a canonical game spec of borabora_sim.games (default options left out)
    components: str | None = None           # a component file (None: the built-in data)
    components_fingerprint: str = ""        # its content hash: a resumed run must use the same data
    player_files_fingerprint: str = ""      # the content hash of the files its players read (borabora_sim.players:
    #                                         a network, learned weights, a heuristic style's data file); "" when
    #                                         they read none
    schema_version: int = SCHEMA_VERSION

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def fingerprint(self) -> str:
        """A hash of the configuration, written into every file of the run: a file of another run is refused.
        The default game, and the files of players that read none, are left out of it, so that runs written before
        games were named, or before the files players read were recorded, keep their hash."""
        fields = asdict(self)
        if fields["game"] == DEFAULT_GAME:
            del fields["game"]
        if not fields["player_files_fingerprint"]:
            del fields["player_files_fingerprint"]
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first game, end game) for every chunk."""
        return [(k, start, min(start + self.chunk_size, self.games))
                for k, start in enumerate(range(0, self.games, self.chunk_size))]

    def merge_group(self, index: int) -> range:
        """The chunks whose files are merged into one file together with chunk `index` (see FILE_GAMES)."""
        per_file = max(1, FILE_GAMES // self.chunk_size)
        first = index - index % per_file
        return range(first, min(first + per_file, -(-self.games // self.chunk_size)))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def player_counts_text(game: Game) -> str:
    """'2, 3 or 4': the numbers of players `game` allows, for messages."""
    *most, last = map(str, game.player_counts)
    return f"{', '.join(most)} or {last}" if most else last


def _is_game_spec(value: object) -> bool:
    try:
        canonical_game_spec(value)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def _game_field() -> tuple[str, Callable[[object], bool]]:
    return (f"a game spec: one of the games {', '.join(game_names())}, with its options (bamboo:mode=advanced)",
            _is_game_spec)


def _manifest_fields(game: Game) -> dict[str, tuple[str, Callable[[object], bool]]]:
    """What each manifest key holds in a run of `game`: (description for messages, check). The keys are
    RunConfig's fields."""
    return {
        "games": ("a positive integer", lambda v: _is_int(v) and v > 0),
        "players": (f"a list of {player_counts_text(game)} player specs",
                    lambda v: isinstance(v, list) and len(v) in game.player_counts
                    and all(isinstance(s, str) for s in v)),
        "seed": ("an integer in [0, 2**64)", lambda v: _is_int(v) and 0 <= v < 2**64),
        "rotate_seats": ("true or false", lambda v: isinstance(v, bool)),
        "chunk_size": ("a positive integer", lambda v: _is_int(v) and v > 0),
        "game": _game_field(),
        "components": ("a component file path or null", lambda v: v is None or isinstance(v, str)),
        "components_fingerprint": ("a string", lambda v: isinstance(v, str)),
        "player_files_fingerprint": ("a string", lambda v: isinstance(v, str)),
        "schema_version": (f"{SCHEMA_VERSION} (runs written by this version of borabora_sim)",
                           lambda v: v == SCHEMA_VERSION),
    }


MANIFEST_KEYS: tuple[str, ...] = tuple(_manifest_fields(get_game()))


def config_from_manifest(data: object, source: str) -> RunConfig:
    """The RunConfig in a manifest's JSON, or a ValueError naming what is wrong and what a manifest holds. A
    manifest without `game` is a run of the default game, written before runs named their game; `game` is read
    as its canonical spec. One without `player_files_fingerprint` was written before runs recorded the files their
    players read: it records none (a resume whose players read one is refused, RunDirectory.start)."""
    keys = ", ".join(MANIFEST_KEYS)
    if not isinstance(data, dict):
        raise ValueError(f"{source} must hold a JSON object with the keys {keys}, got a {type(data).__name__}")
    data = {"game": DEFAULT_GAME, "player_files_fingerprint": "", **data}
    unknown = [key for key in data if key not in MANIFEST_KEYS]
    missing = [key for key in MANIFEST_KEYS if key not in data]
    if unknown or missing:
        problem = "; ".join(filter(None, [f"unknown key {', '.join(map(repr, unknown))}" if unknown else None,
                                          f"missing key {', '.join(map(repr, missing))}" if missing else None]))
        raise ValueError(f"{source}: {problem}; a manifest holds exactly {keys} (and {FILES_KEY}, the sha256 of "
                         "its finished files)")
    allowed, _ = _game_field()
    try:                                        # first: the other fields are checked for this game
        data["game"] = canonical_game_spec(data["game"])
    except ValueError as exc:
        raise ValueError(f"{source}: game must be {allowed}, got {data['game']!r} ({exc})") from None
    for key, (allowed, check) in _manifest_fields(get_game(data["game"])).items():
        if not check(data[key]):
            raise ValueError(f"{source}: {key} must be {allowed}, got {data[key]!r}")
    return RunConfig(**{**data, "players": tuple(data["players"])})


# =============================================================================
# Schema
# =============================================================================
def _metadata(specs: Sequence[str], run: str) -> dict[str, str]:
    return {"specs": json.dumps(list(specs)), "run": run}


def players_schema(specs: Sequence[str], run: str = "", game: Game | None = None) -> pa.Schema:
    """The player table's schema (the score columns in the unit of `game`, default: the default game, and its
    counters); its metadata holds the run's specs and fingerprint (`run`)."""
    game = get_game() if game is None else game
    score = game.score_unit.lower()
    fields = [
        ("game_id", pa.int64()), ("game_seed", pa.uint64()), ("n_players", pa.int8()), ("seat", pa.int8()),
        ("start_position", pa.int8()), ("spec", pa.dictionary(pa.int8(), pa.string())), (score, pa.int16()),
        ("rank", pa.int8()), ("win", pa.bool_()), ("tied_first", pa.bool_()),
    ]
    fields += [(f"{score}_{name}", pa.int16()) for name in game.sources]
    fields += [(name, pa.int16()) for name in counter_columns(game)]
    fields += [("decisions", pa.int32()), ("wall_time", pa.float32())]
    return pa.schema(fields, metadata=_metadata(specs, run))


def games_schema(specs: Sequence[str], run: str = "", game: Game | None = None) -> pa.Schema:
    """The game table's schema (the winner's score in the unit of `game`, default: the default game)."""
    score = (get_game() if game is None else game).score_unit.lower()
    return pa.schema([
        ("game_id", pa.int64()), ("game_seed", pa.uint64()), ("n_players", pa.int8()),
        ("decisions", pa.int32()), ("winner_seat", pa.int8()), ("winner_spec", pa.dictionary(pa.int8(), pa.string())),
        (f"winner_{score}", pa.int16()), ("margin", pa.int16()), ("tied_first", pa.bool_()),
        ("wall_time", pa.float32()),
    ], metadata=_metadata(specs, run))


def spec_categories(specs: Sequence[str]) -> list[str]:
    """The distinct specs of a run in seat order: the fixed categories of the `spec` columns."""
    return list(dict.fromkeys(specs))


# =============================================================================
# The run directory
# =============================================================================
class RunDirectory:
    """The Parquet dataset of a run: `manifest.json`, `players/chunk-*.parquet`, `games/chunk-*.parquet`.

    `chunk-0000003.parquet` holds chunk 3; `chunk-0000000-0001249.parquet` chunks 0 to 1249, merged.

    Every change is crash-safe (borabora_sim.files) and ordered so that the directory always tells what is
    done: a chunk is done once its players file is in place (its games file is written first), and a merge is
    done once its merged players file is in place (the merged games file is written first, the one-chunk files
    are deleted after). `recover` (run by a resume) finishes or undoes whatever a kill interrupted."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._digests: Digests | None = None     # set as the manifest is read: None, a run written before
        #                                                 manifests recorded the digests of its files (not checked)
        self._fingerprint = ""

    def chunk_file(self, table: str, first: int, last: int | None = None) -> Path:
        name = f"chunk-{first:07d}" if last is None or last == first else f"chunk-{first:07d}-{last:07d}"
        return self.path / table / f"{name}.parquet"

    def _all_files(self, table: str) -> list[tuple[int, int, Path]]:
        """Every chunk file of a table as (first chunk, last chunk, path), merged files before the files they
        hold."""
        folder = self.path / table
        found = []
        for path in folder.glob("chunk-*.parquet") if folder.is_dir() else ():
            parts = path.stem.removeprefix("chunk-").split("-")
            if len(parts) > 2 or not all(part.isdecimal() for part in parts):
                raise ValueError(f"{path} is not a chunk file (they are named chunk-<first>[-<last>].parquet); "
                                 f"move it out of {self.path}")
            found.append((int(parts[0]), int(parts[-1]), path))
        return sorted(found, key=lambda item: (item[0], -item[1]))

    def files(self, table: str = "players") -> list[tuple[int, int, Path]]:
        """The files of a table as (first chunk, last chunk, path) in game order. A one-chunk file that is
        already part of a merged file (left by an interrupted merge) is skipped."""
        kept: list[tuple[int, int, Path]] = []
        for first, last, path in self._all_files(table):
            if not kept or last > kept[-1][1]:
                kept.append((first, last, path))
        return kept

    def done_chunks(self) -> set[int]:
        """Chunks whose player rows are in place (a chunk's players file is renamed into place last)."""
        return {k for first, last, _ in self.files("players") for k in range(first, last + 1)}

    def read_manifest(self) -> RunConfig | None:
        """The run's configuration, or None where no run was started; a ValueError for a path that is a file
        or a manifest that is not one. The digests of its finished files are kept for the reads that follow."""
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"{self.path} is a file, not a run directory (one holds {MANIFEST}, players/ and "
                             "games/)")
        manifest = self.path / MANIFEST
        remedy = "it is damaged: move the run directory aside and start the run again in a new one"
        try:
            data = files.read_json(manifest, "the manifest of a simulation run", remedy)
        except FileNotFoundError:
            return None
        digests = data.pop(FILES_KEY, None) if isinstance(data, dict) else None
        config = config_from_manifest(data, str(manifest))
        if digests is not None and not (isinstance(digests, dict)
                                        and all(files.is_sha256(value) for value in digests.values())):
            raise ValueError(f"{manifest}: {FILES_KEY} must be an object of file names and their sha256 (64 hex "
                             f"digits); {remedy}")
        self._digests = None if digests is None else self._new_digests(config, digests)
        self._fingerprint = config.fingerprint
        return config

    def _new_digests(self, config: RunConfig, recorded: dict[str, str]) -> Digests:
        def save(digests: dict[str, str]) -> None:
            self._write_manifest(config, digests)

        return Digests(self.path, recorded, save, f"delete it and resume the run (simulate --resume --out "
                                                         f"{self.path}): its games are played again")

    def _write_manifest(self, config: RunConfig, digests: dict[str, str]) -> None:
        files.write_bytes(self.path / MANIFEST, json.dumps({**asdict(config), FILES_KEY: digests}, indent=2).encode())

    def start(self, config: RunConfig, resume: bool) -> set[int]:
        """Prepares the directory; returns the chunks already done (resume) or refuses to overwrite."""
        existing = self.read_manifest()
        if existing is not None:
            if not resume:
                raise FileExistsError(f"{self.path} already holds a run; pass resume=True (--resume) to finish it, "
                                      "or choose a new directory")
            if existing != config:
                old, new = asdict(existing), asdict(config)
                files_key = "player_files_fingerprint"          # worded on its own: a hash says nothing
                differences = "; ".join(f"{key} {old[key]!r} there, {new[key]!r} asked"
                                        for key in old if old[key] != new[key] and key != files_key)
                if not differences:
                    raise ValueError(self._files_changed(existing, config))
                if old[files_key] != new[files_key] and old["players"] == new["players"]:
                    differences += (f"; the {FILES_WORDS} its players read have changed" if old[files_key]
                                    else f"; it did not record the {FILES_WORDS} its players read")
                raise ValueError(f"{self.path} holds a different run ({differences}); resume it with the same "
                                 "settings, or choose a new directory")
            self.recover(config.fingerprint)
            self._digests = self._new_digests(config, {} if self._digests is None else self._digests.recorded)
            in_place = [path for table in TABLES for _, _, path in self._all_files(table)]
            self._digests.forget([self.path / name for name in self._digests.recorded
                                  if not (self.path / name).exists()])     # deleted by a kill or by hand
            self._digests.record_unrecorded(in_place)      # a run written before manifests recorded them
        else:
            others = sorted(path.name for path in self.path.iterdir() if not files.is_temporary(path)) \
                if self.path.is_dir() else []
            if others:
                raise FileExistsError(f"{self.path} is not empty and holds no run (no {MANIFEST}; found "
                                      f"{', '.join(others[:3])}{', ...' if len(others) > 3 else ''}); choose a new "
                                      "or empty directory")
            files.make_directory(self.path)
            files.remove_temporaries(self.path)
            self._digests = self._new_digests(config, {})
            self._fingerprint = config.fingerprint
            self._digests.save()
        for table in TABLES:
            files.make_directory(self.path / table)
        return self.done_chunks()

    def _files_changed(self, existing: RunConfig, config: RunConfig) -> str:
        """Why a run whose settings are the same but whose players' files are not cannot be resumed, in one line
        naming the files its players read: its games and new ones would be played by different versions of those
        files (a network, learned weights, a heuristic style's data file) under the same player specs."""
        from borabora_sim.players import files_named

        game = get_game(config.game, config.components)
        read = files_named(config.players, game)
        named = f" ({', '.join(read)})" if read else ""
        remedy = "start the run afresh in a new output folder"
        if not existing.player_files_fingerprint:
            return (f"{self.path} holds games played before runs recorded the {FILES_WORDS} their players read"
                    f"{named}, so it cannot be known which version of those files played them; {remedy}")
        if not config.player_files_fingerprint:
            return (f"{self.path} holds games whose players read a network, weights or style file, and the same "
                    f"players read none now, so new games would not match them; {remedy}")
        changed, old = ("the file has changed", "the old file") if len(read) == 1 else \
            ("one or more of these files have changed", "the old files")
        return (f"{self.path} holds games played with another version of the {FILES_WORDS} its players read"
                f"{named}: {changed} since those games were played, so new games would not match them; {remedy}, "
                f"or put {old} back to finish this run")

    def recover(self, fingerprint: str) -> None:
        """Repairs what an interrupted write left: removes hidden temporaries, undoes a merge whose players file
        is not in place, finishes the deletions of a merge that is, and removes a games file whose chunk is not
        done. Before any of it, every file is checked to be whole and of this run (a ValueError names the first
        that is not), so that nothing of another run or of a damaged disk is deleted; those that are kept are checked
        against their digests too."""
        for table in TABLES:
            kept = {path for _, _, path in self.files(table)}
            for _, _, path in self._all_files(table):
                read = self._read if path in kept else self._read_unchecked       # one held by a merged file
                self._check_file(path, read(path, pq.read_schema).metadata, fingerprint)
        for folder in (self.path, *(self.path / table for table in TABLES)):
            files.remove_temporaries(folder)
        merged = {(first, last) for first, last, _ in self._all_files("players") if last > first}
        for first, last, path in self._all_files("games"):
            if last > first and (first, last) not in merged:
                files.remove(path)                        # an unfinished merge: its one-chunk files remain
        for table in TABLES:
            kept = {path for _, _, path in self.files(table)}
            for _, _, path in self._all_files(table):
                if path not in kept:
                    files.remove(path)                    # held by a merged file
        done = self.done_chunks()
        for first, last, path in self.files("games"):
            if first == last and first not in done:
                files.remove(path)                        # its players file was never written: played again
        games = {k for first, last, _ in self.files("games") for k in range(first, last + 1)}
        for first, last, path in self.files("players"):
            if not games.issuperset(range(first, last + 1)):
                raise ValueError(f"{path} has no games file beside it (games/{path.name} is missing); delete it "
                                 "and resume again: its games are played again")

    def _read(self, path: Path, read: Callable[[Path], T]) -> T:
        """`read(path)`, its bytes first checked against the digest the manifest records, or a ValueError naming a
        damaged file and what to do."""
        self._check_digest(path)
        return self._read_unchecked(path, read)

    def _read_unchecked(self, path: Path, read: Callable[[Path], T]) -> T:
        """`read(path)`, or a ValueError naming a damaged file and what to do."""
        try:
            return read(path)
        except (OSError, pa.ArrowException) as exc:
            reason = " ".join(str(exc).splitlines()) or type(exc).__name__
            raise ValueError(f"{path} is damaged ({reason}); delete it and resume the run (simulate --resume "
                             f"--out {self.path}): its games are played again") from None

    def _writable_digests(self) -> Digests:
        """The record of the run's finished files, read from the manifest if `start` has not (a run written before
        manifests recorded them is written into by a resume only, which records them first)."""
        if self._digests is None:
            self.read_manifest()
        if self._digests is None:
            raise ValueError(f"{self.path} holds a run written before runs recorded the digests of their files; "
                             f"resume it first (simulate --resume --out {self.path})")
        return self._digests

    def _check_digest(self, path: Path) -> None:
        """A ValueError unless the bytes of `path` are those the manifest recorded (a run written before manifests
        recorded them is not checked); a file of another run is named as such rather than as damaged."""
        if self._digests is None:
            return
        try:
            self._digests.check(path)
        except ValueError:
            with contextlib.suppress(OSError, pa.ArrowException):
                self._check_file(path, pq.read_schema(path).metadata, self._fingerprint)
            raise

    def _check_file(self, path: Path, metadata: dict[bytes, bytes] | None, fingerprint: str) -> None:
        found = (metadata or {}).get(b"run", b"").decode()
        if found != fingerprint:
            raise ValueError(f"{path} belongs to another run (its run fingerprint is {found or 'missing'}, this "
                             f"run's {fingerprint}); move it out of {self.path}")

    def _write(self, table: pa.Table, final: Path) -> None:
        self._writable_digests().write_file(final, lambda path: pq.write_table(table, path))

    def write_chunk(self, index: int, players: pa.Table, games: pa.Table) -> None:
        """Writes both files of a chunk (players last: the chunk is done once that file is in place)."""
        self._write(games, self.chunk_file("games", index))
        self._write(players, self.chunk_file("players", index))

    def merge(self, chunks: range) -> None:
        """Merges the one-chunk files of `chunks` into one file per table (players last: the merge is done once
        that file is in place), then deletes them."""
        for table in ("games", "players"):
            parts = [self._read(self.chunk_file(table, k), pq.read_table) for k in chunks]
            self._write(pa.concat_tables(parts), self.chunk_file(table, chunks[0], chunks[-1]))
        merged = [self.chunk_file(table, k) for table in ("games", "players") for k in chunks]
        for path in merged:
            files.remove(path)
        self._writable_digests().forget(merged)

    def merge_if_complete(self, config: RunConfig, done: set[int], index: int) -> None:
        """Merges the group of small chunks holding chunk `index` (`config.merge_group`) once every chunk of it is
        done (in `done`) and its players file is in place."""
        group = config.merge_group(index)
        if len(group) > 1 and all(k in done and self.chunk_file("players", k).exists() for k in group):
            self.merge(group)

    def tables(self, table: str = "players", columns: Sequence[str] | None = None) -> Iterator[pa.Table]:
        """The files of `table` one at a time, in game order, each checked to belong to this run: memory for
        one file whatever the size of the run."""
        config = self.read_manifest()
        if config is None:
            raise FileNotFoundError(f"{self.path} holds no simulation run (no {MANIFEST})")
        files = self.files(table)
        if not files:
            raise FileNotFoundError(f"no {table} chunks in {self.path}")
        wanted = None if columns is None else list(columns)
        for _, _, path in files:
            data = self._read(path, lambda p: pq.read_table(p, columns=wanted))
            self._check_file(path, data.schema.metadata, config.fingerprint)
            yield data

    def read(self, table: str = "players", columns: Sequence[str] | None = None) -> pd.DataFrame:
        keys = ["game_id", "seat"] if table == "players" else ["game_id"]
        wanted = None if columns is None else list(dict.fromkeys([*keys, *columns]))     # the sort keys too
        frame: pd.DataFrame = pa.concat_tables(list(self.tables(table, wanted))).to_pandas()
        frame = frame.sort_values(keys, ignore_index=True)
        return frame if columns is None else frame[list(columns)]


__all__ = ["FILE_GAMES", "RunConfig", "RunDirectory", "config_from_manifest", "games_schema", "players_schema"]
