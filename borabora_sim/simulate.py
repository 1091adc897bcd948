"""Batch simulation: many games in parallel, one row per player per game, streamed to Parquet.

A run is a pure function of its configuration: the game (a spec of borabora_sim.games, its name and options,
with its component data), game i uses the seed `game.derive_seed(seed, i)` and, with seat rotation, seat s plays
`players[(s + i) % n]`. Chunks of games run on joblib workers (loky processes by
default, or a Dask cluster) and come back in any order; each is written as its own Parquet file, atomically,
so an interrupted run resumes without losing or repeating a chunk, and the tables are identical whatever the
number of workers or the backend. Small chunks (slow players) are merged into files of about `FILE_GAMES`
games once all of them are written, and every file carries its run's fingerprint, so that a file from another
run is refused.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypedDict, TypeGuard, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from borabora_sim import files, stats
from borabora_sim.errors import ArgumentTypeError
from borabora_sim.games import DEFAULT_GAME, canonical_game_spec, game_names, game_spec, get_game
from borabora_sim.match import DEFAULT_PLAYERS, play_game
from borabora_sim.players import make_player, split_spec
from borabora_sim.players.base import SeededPlayer
from borabora_sim.protocol import Game, check_seed

if TYPE_CHECKING:
    from dask.distributed import Client
    from tqdm import tqdm

SCHEMA_VERSION = 2
T = TypeVar("T")


def counter_columns(game: Game) -> tuple[str, ...]:
    """The behaviour-counter columns of `game`'s player rows (start_position has a column of its own)."""
    return tuple(name for name in game.counters if name != "start_position")


# The default game's score sources and counter columns, as before games were named.
SOURCES: tuple[str, ...] = get_game().sources
COUNTERS: tuple[str, ...] = counter_columns(get_game())
BACKENDS = ("loky", "multiprocessing", "threading", "sequential", "dask")
MANIFEST = "manifest.json"
TABLES = ("players", "games")      # the folders of a run directory, one Parquet table each
FILE_GAMES = 5000               # chunks smaller than this are merged into files of about this many games
DASK_CONNECT_TIMEOUT = 10.0     # seconds to reach a Dask scheduler before giving up


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
    schema_version: int = SCHEMA_VERSION

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def fingerprint(self) -> str:
        """A hash of the configuration, written into every file of the run: a file of another run is refused.
        The default game is left out of it, so that runs written before games were named keep their hash."""
        fields = asdict(self)
        if fields["game"] == DEFAULT_GAME:
            del fields["game"]
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
        "schema_version": (f"{SCHEMA_VERSION} (runs written by this version of borabora_sim)",
                           lambda v: v == SCHEMA_VERSION),
    }


MANIFEST_KEYS: tuple[str, ...] = tuple(_manifest_fields(get_game()))


def config_from_manifest(data: object, source: str) -> RunConfig:
    """The RunConfig in a manifest's JSON, or a ValueError naming what is wrong and what a manifest holds. A
    manifest without `game` is a run of the default game, written before runs named their game; `game` is read
    as its canonical spec."""
    keys = ", ".join(MANIFEST_KEYS)
    if not isinstance(data, dict):
        raise ValueError(f"{source} must hold a JSON object with the keys {keys}, got a {type(data).__name__}")
    data = {"game": DEFAULT_GAME, **data}
    unknown = [key for key in data if key not in MANIFEST_KEYS]
    missing = [key for key in MANIFEST_KEYS if key not in data]
    if unknown or missing:
        problem = "; ".join(filter(None, [f"unknown key {', '.join(map(repr, unknown))}" if unknown else None,
                                          f"missing key {', '.join(map(repr, missing))}" if missing else None]))
        raise ValueError(f"{source}: {problem}; a manifest holds exactly {keys}")
    allowed, _ = _game_field()
    try:                                        # first: the other fields are checked for this game
        data["game"] = canonical_game_spec(data["game"])
    except ValueError as exc:
        raise ValueError(f"{source}: game must be {allowed}, got {data['game']!r} ({exc})") from None
    for key, (allowed, check) in _manifest_fields(get_game(data["game"])).items():
        if not check(data[key]):
            raise ValueError(f"{source}: {key} must be {allowed}, got {data[key]!r}")
    return RunConfig(**{**data, "players": tuple(data["players"])})


def default_chunk_size(players: Sequence[str]) -> int:
    """Games per chunk, from how slow the slowest player is (never from the number of workers)."""
    names = {spec.partition(":")[0] for spec in players}
    if names <= {"random"}:
        return 5000
    if names & {"mcts", "flatmc"}:
        return 4
    return 200


def seat_specs(config: RunConfig, game: int) -> list[str]:
    shift = game % config.n_players if config.rotate_seats else 0
    return [config.players[(seat + shift) % config.n_players] for seat in range(config.n_players)]


def player_seed(game_seed: int, seat: int, game: Game | None = None) -> int:
    """The seed of the player in `seat` of the game with seed `game_seed` (`game`: the default game when None)."""
    return (get_game() if game is None else game).derive_seed(game_seed, seat + 1)


def seated_players(specs: Sequence[str], game_seed: int, game: Game | None = None) -> list[SeededPlayer]:
    """The players of these specs by seat as the simulator seats them for the game with seed `game_seed`, each
    seeded by player_seed (`game`: the default game when None)."""
    game = get_game() if game is None else game
    return [make_player(spec, player_seed(game_seed, seat, game), game) for seat, spec in enumerate(specs)]


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


def _spec_array(values: Sequence[str], specs: Sequence[str]) -> pa.DictionaryArray:
    categories = spec_categories(specs)
    index = {spec: i for i, spec in enumerate(categories)}
    return pa.DictionaryArray.from_arrays(pa.array([index[v] for v in values], pa.int8()), pa.array(categories))


# =============================================================================
# One chunk of games (runs on a worker)
# =============================================================================
def _chunk_arrays(config: RunConfig, game: Game, start: int, end: int) -> dict[str, np.ndarray]:
    """Per-game arrays for games start..end-1 (shape games x players where per seat)."""
    n, players = end - start, config.n_players
    seeds = np.array([game.derive_seed(config.seed, g) for g in range(start, end)], dtype=np.uint64)
    specs = [seat_specs(config, g) for g in range(start, end)]
    columns = counter_columns(game)
    if all(spec == "random" for spec in config.players):
        began = time.perf_counter()
        out = game.random_playouts(n, players, config.seed, first_game=start)
        out["wall_time"] = np.full(n, (time.perf_counter() - began) / n, dtype=np.float32)
        counters = out.pop("counters")
        out["start_position"] = counters[:, :, game.counters.index("start_position")]
        out["counters"] = counters[:, :, [game.counters.index(c) for c in columns]]
    else:
        played: dict[str, list[object]] = {key: [] for key in (
            "scores", "ranks", "breakdown", "counters", "winner", "decisions", "wall_time", "start_position")}
        for seed, seat_spec in zip(seeds, specs, strict=True):
            record = play_game(seated_players(seat_spec, int(seed), game), int(seed), game)
            played["scores"].append(record.scores)
            played["ranks"].append(record.ranks)
            played["breakdown"].append([[row[name] for name in game.sources] for row in record.breakdown])
            played["counters"].append([[row[name] for name in columns] for row in record.counters])
            played["start_position"].append([row["start_position"] for row in record.counters])
            played["winner"].append(record.winner)
            played["decisions"].append(record.decisions)
            played["wall_time"].append(record.seconds)
        out = {key: np.asarray(value) for key, value in played.items()}
        out["moves"] = out["decisions"]
    out["seeds"] = seeds
    out["specs"] = np.array(specs, dtype=object)
    return out


def run_chunk(config: RunConfig, start: int, end: int) -> tuple[pa.Table, pa.Table]:
    """Plays games start..end-1 and returns (player rows, game rows) as Arrow tables."""
    game = get_game(config.game, config.components)
    a = _chunk_arrays(config, game, start, end)
    n, players = end - start, config.n_players
    scores = a["scores"].astype(np.int16)
    winner = a["winner"].astype(np.int8)
    rows = np.arange(n)
    top = scores.max(axis=1)
    tied_first = (scores == top[:, None]).sum(axis=1) > 1
    sorted_scores = np.sort(scores, axis=1)
    margin = (sorted_scores[:, -1] - sorted_scores[:, -2]).astype(np.int16)
    game_ids = np.arange(start, end, dtype=np.int64)
    flat_specs = [spec for game_specs in a["specs"] for spec in game_specs]
    score = game.score_unit.lower()
    columns = {
        "game_id": np.repeat(game_ids, players),
        "game_seed": np.repeat(a["seeds"], players),
        "n_players": np.full(n * players, players, dtype=np.int8),
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "start_position": a["start_position"].astype(np.int8).ravel(),
        "spec": _spec_array(flat_specs, config.players),
        score: scores.ravel(),
        "rank": a["ranks"].astype(np.int8).ravel(),
        "win": (np.arange(players)[None, :] == winner[:, None]).ravel(),
        "tied_first": ((scores == top[:, None]) & tied_first[:, None]).ravel(),
    }
    breakdown = a["breakdown"].astype(np.int16)
    for k, name in enumerate(game.sources):
        columns[f"{score}_{name}"] = breakdown[:, :, k].ravel()
    counters = a["counters"].astype(np.int16)
    for k, name in enumerate(counter_columns(game)):
        columns[name] = counters[:, :, k].ravel()
    columns["decisions"] = np.repeat(a["decisions"].astype(np.int32), players)
    columns["wall_time"] = np.repeat(a["wall_time"].astype(np.float32), players)
    player_rows = pa.table(columns, schema=players_schema(config.players, config.fingerprint, game))
    game_rows = pa.table({
        "game_id": game_ids, "game_seed": a["seeds"], "n_players": np.full(n, players, dtype=np.int8),
        "decisions": a["decisions"].astype(np.int32), "winner_seat": winner,
        "winner_spec": _spec_array([s[w] for s, w in zip(a["specs"], winner, strict=True)], config.players),
        f"winner_{score}": scores[rows, winner], "margin": margin, "tied_first": tied_first,
        "wall_time": a["wall_time"].astype(np.float32),
    }, schema=games_schema(config.players, config.fingerprint, game))
    return player_rows, game_rows


def _run_chunk_job(config: RunConfig, index: int, start: int, end: int) -> tuple[int, int, pa.Table, pa.Table]:
    players, games = run_chunk(config, start, end)
    return index, end - start, players, games


def _run_chunk_task(task: tuple[RunConfig, int, int, int]) -> tuple[int, int, pa.Table, pa.Table]:
    return _run_chunk_job(*task)


# =============================================================================
# The run: scheduling, streaming, resuming
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
        or a manifest that is not one."""
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"{self.path} is a file, not a run directory (one holds {MANIFEST}, players/ and "
                             "games/)")
        manifest = self.path / MANIFEST
        try:
            data = files.read_json(manifest, "the manifest of a simulation run", "it is damaged: move the run "
                                   "directory aside and start the run again in a new one")
        except FileNotFoundError:
            return None
        return config_from_manifest(data, str(manifest))

    def start(self, config: RunConfig, resume: bool) -> set[int]:
        """Prepares the directory; returns the chunks already done (resume) or refuses to overwrite."""
        existing = self.read_manifest()
        if existing is not None:
            if not resume:
                raise FileExistsError(f"{self.path} already holds a run; pass resume=True (--resume) to finish it, "
                                      "or choose a new directory")
            if existing != config:
                old, new = asdict(existing), asdict(config)
                differences = "; ".join(f"{key} {old[key]!r} there, {new[key]!r} asked"
                                        for key in old if old[key] != new[key])
                raise ValueError(f"{self.path} holds a different run ({differences}); resume it with the same "
                                 "settings, or choose a new directory")
            self.recover(config.fingerprint)
        else:
            others = sorted(path.name for path in self.path.iterdir() if not files.is_temporary(path)) \
                if self.path.is_dir() else []
            if others:
                raise FileExistsError(f"{self.path} is not empty and holds no run (no {MANIFEST}; found "
                                      f"{', '.join(others[:3])}{', ...' if len(others) > 3 else ''}); choose a new "
                                      "or empty directory")
            files.make_directory(self.path)
            files.remove_temporaries(self.path)
            files.write_bytes(self.path / MANIFEST, json.dumps(asdict(config), indent=2).encode())
        for table in TABLES:
            files.make_directory(self.path / table)
        return self.done_chunks()

    def recover(self, fingerprint: str) -> None:
        """Repairs what an interrupted write left: removes hidden temporaries, undoes a merge whose players file
        is not in place, finishes the deletions of a merge that is, and removes a games file whose chunk is not
        done. Before any of it, every file is checked to be whole and of this run (a ValueError names the first
        that is not), so that nothing of another run or of a damaged disk is deleted."""
        for table in TABLES:
            for _, _, path in self._all_files(table):
                self._check_file(path, self._read(path, pq.read_schema).metadata, fingerprint)
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
        """`read(path)`, or a ValueError naming a damaged file and what to do."""
        try:
            return read(path)
        except (OSError, pa.ArrowException) as exc:
            reason = " ".join(str(exc).splitlines()) or type(exc).__name__
            raise ValueError(f"{path} is damaged ({reason}); delete it and resume the run (simulate --resume "
                             f"--out {self.path}): its games are played again") from None

    def _check_file(self, path: Path, metadata: dict[bytes, bytes] | None, fingerprint: str) -> None:
        found = (metadata or {}).get(b"run", b"").decode()
        if found != fingerprint:
            raise ValueError(f"{path} belongs to another run (its run fingerprint is {found or 'missing'}, this "
                             f"run's {fingerprint}); move it out of {self.path}")

    @staticmethod
    def _write(table: pa.Table, final: Path) -> None:
        files.write_file(final, lambda path: pq.write_table(table, path))

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
        for table in ("games", "players"):
            for k in chunks:
                files.remove(self.chunk_file(table, k))

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


class _WorkerStart(TypedDict, total=False):
    """How each worker process starts (the keywords of a process pool)."""

    initializer: Callable[[int], None]
    initargs: tuple[int]


PR_SET_PDEATHSIG = 1        # Linux prctl(2): the signal a process receives when the thread that made it ends


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: ends the worker as soon as the process that started it is gone, even when that
    process was killed with SIGKILL (idle workers would otherwise wait minutes for work). On Linux the kernel
    kills it at once (a watching thread could wait for the GIL as long as a compiled search holds it); elsewhere
    a thread checks the parent twice a second."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0:
            if os.getppid() != parent:      # the parent ended before the request: nobody will send the signal
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


@contextlib.contextmanager
def _quiet_cancellation() -> Iterator[None]:
    """Silences joblib's warning about the chunks an interrupted run cancels: a resume plays them again."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "[0-9]+ tasks (which were still being processed|have been successfully)",
                                UserWarning)
        yield


def _parallel_chunks(config: RunConfig, todo: list[tuple[int, int, int]], n_jobs: int, backend: str,
                     client: Client | None) -> Iterator[tuple[int, int, pa.Table, pa.Table]]:
    """Plays the chunks `todo` and yields them as they finish; `client`: a Dask client (backend dask), or None
    to start a local cluster."""
    from joblib import Parallel, delayed, effective_n_jobs, parallel_config

    if not todo:
        return
    workers = min(effective_n_jobs(n_jobs), len(todo))      # never more workers than chunks
    if backend == "sequential" or (workers <= 1 and backend != "dask"):
        for index, start, end in todo:
            yield _run_chunk_job(config, index, start, end)
        return
    watch: _WorkerStart = {"initializer": _exit_with_parent, "initargs": (os.getpid(),)}
    if backend == "multiprocessing":        # joblib's multiprocessing backend cannot stream results as they finish
        import multiprocessing

        with multiprocessing.Pool(workers, **watch) as pool:
            yield from pool.imap_unordered(_run_chunk_task, [(config, *chunk) for chunk in todo])
        return
    jobs = (delayed(_run_chunk_job)(config, index, start, end) for index, start, end in todo)
    if backend != "dask":
        with parallel_config(backend=backend, **(watch if backend == "loky" else {})):
            parallel = Parallel(n_jobs=workers, return_as="generator_unordered")
        with _quiet_cancellation():
            yield from parallel(jobs)
        return
    cluster = None
    if client is None:                      # a local cluster, closed at the end; a user's scheduler stays up
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        with parallel_config(backend="dask"):
            parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        with _quiet_cancellation():
            yield from parallel(jobs)
    finally:
        if cluster is not None:
            client.close()
            cluster.close()


def _require_dask() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ImportError("backend='dask' needs the dask extra: pip install 'borabora_sim[dask]'") from None


def _connect(scheduler: str, timeout: float) -> Client:
    """A Dask client of the scheduler at `scheduler`, or a ConnectionError after `timeout` seconds."""
    from dask.distributed import Client

    try:
        return Client(scheduler, timeout=timeout)
    except OSError as exc:
        raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s ({exc}); "
                              "check the address, or allow longer with connect_timeout (--connect-timeout)") from None
    except Exception as exc:    # a server of another kind: its bytes, read as Dask's messages, can raise anything
        raise ConnectionError(f"{scheduler} answered, but not as a Dask scheduler ({type(exc).__name__}: "
                              f"{' '.join(str(exc).splitlines())[:200]}); check the address") from None


def _progress(total: int, initial: int, enabled: bool | None) -> tqdm[NoReturn]:
    enabled = sys.stderr.isatty() if enabled is None else enabled
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", disable=not enabled, smoothing=0.1, dynamic_ncols=True)


def canonical_spec(spec: str) -> str:
    """The spec as written, without stray spaces or an empty option list ("random:" -> "random")."""
    name, options = split_spec(spec)
    return f"{name}:{','.join(f'{k}={v}' for k, v in options.items())}" if options else name


def check_n_jobs(n_jobs: object, name: str = "n_jobs") -> int:
    """A number of workers in joblib's convention: positive, or -1 (all cores) down to -cores (one worker)."""
    cores = os.cpu_count() or 1
    if not _is_int(n_jobs) or n_jobs == 0 or n_jobs < -cores:
        raise ValueError(f"{name} must be a number of workers (1, 2, ...) or -1 for all {cores} cores (-2 all but "
                         f"one, down to -{cores}), got {n_jobs!r}")
    return n_jobs


def check_out_directory(path: str | os.PathLike[str], name: str = "out") -> Path:
    """`path` as a directory to write a run into, or a ValueError: empty, a file, under a file, read-only."""
    if not os.fspath(path).strip():
        raise ValueError(f"{name} must name a directory, got {os.fspath(path)!r}")
    target = Path(path)
    existing = next(folder for folder in (target, *target.parents) if folder.exists() or folder == Path("."))
    if not existing.is_dir():
        where = "is a file" if existing == target else f"cannot be created: {existing} is a file"
        raise ValueError(f"{name} must be a directory, but {target} {where}")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{name} {target}: no permission to write in {existing}")
    return target


def check_config(games: int, players: Sequence[str], seed: int, n_jobs: int, backend: str,
                 chunk_size: int | None, rotate_seats: bool = True,
                 components: str | os.PathLike[str] | None = None, game: str = DEFAULT_GAME) -> RunConfig:
    """The run configuration, or a ValueError that says which argument is wrong and what is allowed. `game` is
    a game spec ("bamboo:mode=advanced"); `players` given as DEFAULT_PLAYERS (not named) means the game's own
    default players."""
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if isinstance(players, str):
        raise ValueError("players must be a list of player specs, e.g. ['heuristic', 'random', 'random']")
    played = get_game(game, components)     # an unknown game or option or bad component data fails here, saying why
    specs = played.default_players if players is DEFAULT_PLAYERS else tuple(players)
    if len(specs) not in played.player_counts:
        raise ValueError(f"players must list {player_counts_text(played)} player specs (one per seat), got "
                         f"{len(specs)}: {list(specs)}")
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"each player must be a spec string such as 'heuristic' or 'random', got {spec!r}")
        make_player(spec, 0, played)    # raises a ValueError naming what is allowed
    specs = tuple(canonical_spec(spec) for spec in specs)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    check_n_jobs(n_jobs)
    size = default_chunk_size(specs) if chunk_size is None else chunk_size
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    if components is not None and not isinstance(components, str | os.PathLike):
        raise ArgumentTypeError(f"components must be a component file path (every worker loads it), got "
                                f"{type(components).__name__}; save the data with json.dump first")
    path = None if components is None else str(Path(components).resolve())
    return RunConfig(games=games, players=specs, seed=check_seed(seed), rotate_seats=bool(rotate_seats),
                     chunk_size=size, game=game_spec(played), components=path,
                     components_fingerprint=played.fingerprint)


def simulate(games: int, players: Sequence[str] = DEFAULT_PLAYERS, seed: int = 0, n_jobs: int = -1,
             backend: str = "loky", rotate_seats: bool = True, out: str | os.PathLike[str] | None = None,
             resume: bool = False, chunk_size: int | None = None, scheduler: str | None = None,
             progress: bool | None = None, load: bool = True,
             components: str | os.PathLike[str] | None = None, connect_timeout: float = DASK_CONNECT_TIMEOUT,
             on_chunk: Callable[[pa.Table], None] | None = None, game: str = DEFAULT_GAME) -> pd.DataFrame | None:
    """Plays `games` games of `game` (a game spec of borabora_sim.games: "bamboo", "bamboo:mode=advanced")
    between `players` (player specs, one per seat; not given: the game's default players) and returns one row
    per player per game (see docs/simulation.md for the columns); `games_table()` derives the per-game table.

    With `out`, chunks stream into a Parquet dataset in that directory as they finish (memory stays flat); an
    interrupted run continues with `resume=True`. `load=False` returns None instead of the rows (with `out`:
    nothing is read back; without: nothing is kept). `on_chunk` is called in this process with the player rows
    (an Arrow table) of each chunk as it finishes. `components` names a component file (a variant of the
    built-in data, see docs/components.md). `connect_timeout`: seconds to reach `scheduler`.

    >>> df = simulate(20, ["heuristic", "random"], seed=1, n_jobs=1, progress=False)
    >>> len(df), sorted(df["spec"].unique())
    (40, ['heuristic', 'random'])
    """
    config = check_config(games, players, seed, n_jobs, backend, chunk_size, rotate_seats, components, game)
    directory = None if out is None else RunDirectory(check_out_directory(out))
    if resume and directory is None:
        raise ValueError("resume needs out, the directory of the run to finish")
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.strip():
            raise ValueError(f"scheduler must be the address of a Dask scheduler (tcp://host:port), got {scheduler!r}")
        if backend != "dask":
            raise ValueError(f"scheduler is the address of a Dask scheduler: it needs backend='dask', got {backend!r}")
    if not (_is_int(connect_timeout) or isinstance(connect_timeout, float)) or not 0 < connect_timeout < math.inf:
        raise ValueError(f"connect_timeout must be a positive number of seconds, got {connect_timeout!r}")
    if backend == "dask":
        _require_dask()
    client = _connect(scheduler, connect_timeout) if scheduler is not None else None    # before anything is written
    try:
        return _run(config, directory, resume, n_jobs, backend, client, progress, load, on_chunk)
    finally:
        if client is not None:
            client.close()                  # only the client: the user's cluster stays up


def _run(config: RunConfig, directory: RunDirectory | None, resume: bool, n_jobs: int, backend: str,
         client: Client | None,
         progress: bool | None, load: bool, on_chunk: Callable[[pa.Table], None] | None) -> pd.DataFrame | None:
    chunks = config.chunks()
    done: set[int] = set()
    if directory is not None:
        done = directory.start(config, resume)
        for first in {config.merge_group(index)[0] for index in done}:
            _merge_if_complete(directory, config, done, first)     # groups done before an interruption
    todo = [chunk for chunk in chunks if chunk[0] not in done]
    finished_games = sum(end - start for index, start, end in chunks if index in done)
    tables: list[tuple[int, pa.Table]] = []
    with _progress(config.games, finished_games, progress) as bar:
        for index, n, player_rows, game_rows in _parallel_chunks(config, todo, n_jobs, backend, client):
            if on_chunk is not None:
                on_chunk(player_rows)
            if directory is not None:
                directory.write_chunk(index, player_rows, game_rows)
                done.add(index)
                _merge_if_complete(directory, config, done, index)
            elif load:
                tables.append((index, player_rows))
            bar.update(n)
    if not load:
        return None
    if directory is not None:
        return directory.read()
    tables.sort(key=lambda item: item[0])
    frame: pd.DataFrame = pa.concat_tables([t for _, t in tables]).to_pandas()
    return frame


def _merge_if_complete(directory: RunDirectory, config: RunConfig, done: set[int], index: int) -> None:
    """Merges the group of small chunks holding `index` once every chunk of it is written."""
    group = config.merge_group(index)
    if len(group) > 1 and all(k in done and directory.chunk_file("players", k).exists() for k in group):
        directory.merge(group)


def games_table(players: pd.DataFrame) -> pd.DataFrame:
    """One row per game from the player rows: length, winner seat and spec, winning score (winner_vp or
    winner_hp, in the game's unit), margin, ties, time."""
    score = stats.score_column(players)
    grouped = players.groupby("game_id", sort=True)
    winners = players[players["win"]].set_index("game_id")
    second = grouped[score].apply(lambda v: np.sort(v.to_numpy())[-2] if len(v) > 1 else 0)
    return pd.DataFrame({
        "game_seed": grouped["game_seed"].first(),
        "n_players": grouped["n_players"].first(),
        "decisions": grouped["decisions"].first(),
        "winner_seat": winners["seat"],
        "winner_spec": winners["spec"],
        f"winner_{score}": winners[score],
        "margin": winners[score] - second,
        "tied_first": grouped["tied_first"].any(),
        "wall_time": grouped["wall_time"].first(),
    }).reset_index()


def replay(game_seed: int, players: Sequence[str], components: str | os.PathLike[str] | None = None,
           game: str = DEFAULT_GAME) -> list[str]:
    """A readable log of one game of `game` (a game spec): the game with seed `game_seed` and these specs by
    seat, as the simulator plays it (each player seeded from the game seed)."""
    specs = list(players)
    played = get_game(game, components)
    state = played.new_initial_state(players=len(specs), seed=game_seed)
    if all(spec == "random" for spec in specs):
        actions = iter(played.random_game_actions(len(specs), game_seed))
        choose = [lambda _state: next(actions)] * len(specs)
    else:
        choose = [player.choose for player in seated_players(specs, game_seed, played)]
    start = [row["start_position"] for row in state.counters()]
    lines = [f"game seed {game_seed}, players {', '.join(f'{s}: {spec}' for s, spec in enumerate(specs))}",
             f"turn order: {sorted(range(len(specs)), key=start.__getitem__)}"]
    last = None
    while not state.is_terminal():
        seat = state.current_player
        action = choose[seat](state)
        heading = (state.round, state.phase)
        if heading != last:
            lines.append(f"-- round {state.round}, phase {state.phase}")
            last = heading
        lines.append(f"  seat {seat} [{state.decision}] {state.action_to_string(action)}")
        state.apply(action)
    lines.append(f"final scores {state.scores()}, winner seat {state.winner()}")
    for seat, row in enumerate(state.score_breakdown()):
        parts = ", ".join(f"{k} {v}" for k, v in row.items() if v)
        lines.append(f"  seat {seat}: {parts}")
    return lines
