"""Batch simulation: many games in parallel, one row per player per game, streamed to Parquet.

A run is a pure function of its configuration: game i uses the seed `derive_seed(seed, i)` and, with seat
rotation, seat s plays `players[(s + i) % n]`. Chunks of games run on joblib workers (loky processes by
default, or a Dask cluster) and come back in any order; each is written as its own Parquet file, atomically,
so an interrupted run resumes without losing or repeating a chunk, and the tables are identical whatever the
number of workers or the backend.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from borabora_sim import _engine
from borabora_sim.game import PLAYER_COUNTS, BoraBora, check_players, check_seed, rules_for
from borabora_sim.match import play_game
from borabora_sim.players import make_player, split_spec

SCHEMA_VERSION = 1
SOURCES: tuple[str, ...] = tuple(_engine.SOURCES)
COUNTERS: tuple[str, ...] = tuple(name for name in _engine.COUNTER_NAMES if name != "start_position")
BACKENDS = ("loky", "multiprocessing", "threading", "sequential", "dask")
DEFAULT_PLAYERS = ("mcts:iterations=500", "heuristic", "heuristic:fishing=never", "random")
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines the tables of a run (workers and backend do not)."""

    games: int
    players: tuple[str, ...]
    seed: int
    rotate_seats: bool
    chunk_size: int
    components: str | None = None           # a component file (None: the built-in data)
    components_fingerprint: str = ""        # its content hash: a resumed run must use the same data
    schema_version: int = SCHEMA_VERSION

    @property
    def n_players(self) -> int:
        return len(self.players)

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first game, end game) for every chunk."""
        return [(k, start, min(start + self.chunk_size, self.games))
                for k, start in enumerate(range(0, self.games, self.chunk_size))]


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


def player_seed(game_seed: int, seat: int) -> int:
    return int(_engine.derive_seed(game_seed, seat + 1))


# =============================================================================
# Schema
# =============================================================================
def players_schema(specs: Sequence[str]) -> pa.Schema:
    fields = [
        ("game_id", pa.int64()), ("game_seed", pa.uint64()), ("n_players", pa.int8()), ("seat", pa.int8()),
        ("start_position", pa.int8()), ("spec", pa.dictionary(pa.int8(), pa.string())), ("vp", pa.int16()),
        ("rank", pa.int8()), ("win", pa.bool_()), ("tied_first", pa.bool_()),
    ]
    fields += [(f"vp_{name}", pa.int16()) for name in SOURCES]
    fields += [(name, pa.int16()) for name in COUNTERS]
    fields += [("decisions", pa.int32()), ("wall_time", pa.float32())]
    return pa.schema(fields, metadata={"specs": json.dumps(list(specs))})


def games_schema(specs: Sequence[str]) -> pa.Schema:
    return pa.schema([
        ("game_id", pa.int64()), ("game_seed", pa.uint64()), ("n_players", pa.int8()),
        ("decisions", pa.int32()), ("winner_seat", pa.int8()), ("winner_spec", pa.dictionary(pa.int8(), pa.string())),
        ("winner_vp", pa.int16()), ("margin", pa.int16()), ("tied_first", pa.bool_()), ("wall_time", pa.float32()),
    ], metadata={"specs": json.dumps(list(specs))})


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
def _chunk_arrays(config: RunConfig, start: int, end: int) -> dict[str, np.ndarray]:
    """Per-game arrays for games start..end-1 (shape games x players where per seat)."""
    n, players = end - start, config.n_players
    seeds = np.array([_engine.derive_seed(config.seed, g) for g in range(start, end)], dtype=np.uint64)
    specs = [seat_specs(config, g) for g in range(start, end)]
    if all(spec == "random" for spec in config.players):
        began = time.perf_counter()
        out = _engine.random_playouts(rules_for(config.components), n, players, config.seed, first_game=start)
        out["wall_time"] = np.full(n, (time.perf_counter() - began) / n, dtype=np.float32)
        counters = out.pop("counters")
        out["start_position"] = counters[:, :, _engine.COUNTER_NAMES.index("start_position")]
        out["counters"] = counters[:, :, [_engine.COUNTER_NAMES.index(c) for c in COUNTERS]]
    else:
        game = BoraBora(config.components)
        out = {key: [] for key in ("scores", "ranks", "breakdown", "counters", "winner", "decisions", "wall_time",
                                   "start_position")}
        for seed, seat_spec in zip(seeds, specs, strict=True):
            record = play_game([make_player(spec, player_seed(int(seed), s)) for s, spec in enumerate(seat_spec)],
                               int(seed), game)
            out["scores"].append(record.scores)
            out["ranks"].append(record.ranks)
            out["breakdown"].append([[row[name] for name in SOURCES] for row in record.breakdown])
            out["counters"].append([[row[name] for name in COUNTERS] for row in record.counters])
            out["start_position"].append([row["start_position"] for row in record.counters])
            out["winner"].append(record.winner)
            out["decisions"].append(record.decisions)
            out["wall_time"].append(record.seconds)
        out = {key: np.asarray(value) for key, value in out.items()}
        out["moves"] = out["decisions"]
    out["seeds"] = seeds
    out["specs"] = np.array(specs, dtype=object)
    return out


def run_chunk(config: RunConfig, start: int, end: int) -> tuple[pa.Table, pa.Table]:
    """Plays games start..end-1 and returns (player rows, game rows) as Arrow tables."""
    a = _chunk_arrays(config, start, end)
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
    columns = {
        "game_id": np.repeat(game_ids, players),
        "game_seed": np.repeat(a["seeds"], players),
        "n_players": np.full(n * players, players, dtype=np.int8),
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "start_position": a["start_position"].astype(np.int8).ravel(),
        "spec": _spec_array(flat_specs, config.players),
        "vp": scores.ravel(),
        "rank": a["ranks"].astype(np.int8).ravel(),
        "win": (np.arange(players)[None, :] == winner[:, None]).ravel(),
        "tied_first": ((scores == top[:, None]) & tied_first[:, None]).ravel(),
    }
    breakdown = a["breakdown"].astype(np.int16)
    for k, name in enumerate(SOURCES):
        columns[f"vp_{name}"] = breakdown[:, :, k].ravel()
    counters = a["counters"].astype(np.int16)
    for k, name in enumerate(COUNTERS):
        columns[name] = counters[:, :, k].ravel()
    columns["decisions"] = np.repeat(a["decisions"].astype(np.int32), players)
    columns["wall_time"] = np.repeat(a["wall_time"].astype(np.float32), players)
    player_rows = pa.table(columns, schema=players_schema(config.players))
    game_rows = pa.table({
        "game_id": game_ids, "game_seed": a["seeds"], "n_players": np.full(n, players, dtype=np.int8),
        "decisions": a["decisions"].astype(np.int32), "winner_seat": winner,
        "winner_spec": _spec_array([s[w] for s, w in zip(a["specs"], winner, strict=True)], config.players),
        "winner_vp": scores[rows, winner], "margin": margin, "tied_first": tied_first,
        "wall_time": a["wall_time"].astype(np.float32),
    }, schema=games_schema(config.players))
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
    """The Parquet dataset of a run: manifest.json, players/chunk-*.parquet, games/chunk-*.parquet."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def chunk_file(self, table: str, index: int) -> Path:
        return self.path / table / f"chunk-{index:07d}.parquet"

    def done_chunks(self) -> set[int]:
        """Chunks whose player file exists (it is renamed into place last)."""
        folder = self.path / "players"
        if not folder.is_dir():
            return set()
        return {int(p.stem.removeprefix("chunk-")) for p in folder.glob("chunk-*.parquet")}

    def read_manifest(self) -> RunConfig | None:
        try:
            data = json.loads((self.path / MANIFEST).read_text())
        except FileNotFoundError:
            return None
        data["players"] = tuple(data["players"])
        return RunConfig(**data)

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
            return self.done_chunks()
        (self.path / "players").mkdir(parents=True, exist_ok=True)
        (self.path / "games").mkdir(parents=True, exist_ok=True)
        temporary = self.path / f".{MANIFEST}.tmp"
        temporary.write_text(json.dumps(asdict(config), indent=2))
        os.replace(temporary, self.path / MANIFEST)
        return set()

    def write_chunk(self, index: int, players: pa.Table, games: pa.Table) -> None:
        """Writes both files of a chunk under hidden names, then renames them (players last)."""
        for name, table in (("games", games), ("players", players)):
            final = self.chunk_file(name, index)
            temporary = final.with_name(f".{final.name}.tmp")
            pq.write_table(table, temporary)
            os.replace(temporary, final)

    def read(self, table: str = "players", columns: Sequence[str] | None = None) -> pd.DataFrame:
        files = sorted((self.path / table).glob("chunk-*.parquet"))
        if not files:
            raise FileNotFoundError(f"no {table} chunks in {self.path}")
        keys = ["game_id", "seat"] if table == "players" else ["game_id"]
        wanted = None if columns is None else list(dict.fromkeys([*keys, *columns]))     # the sort keys too
        frame = pa.concat_tables([pq.read_table(f, columns=wanted) for f in files]).to_pandas()
        frame = frame.sort_values(keys, ignore_index=True)
        return frame if columns is None else frame[list(columns)]


def _parallel_chunks(config: RunConfig, todo: list[tuple[int, int, int]], n_jobs: int, backend: str,
                     scheduler: str | None) -> Iterator[tuple[int, int, pa.Table, pa.Table]]:
    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        for index, start, end in todo:
            yield _run_chunk_job(config, index, start, end)
        return
    from joblib import Parallel, delayed, effective_n_jobs, parallel_config

    if backend == "multiprocessing":        # joblib's multiprocessing backend cannot stream results as they finish
        import multiprocessing

        with multiprocessing.Pool(effective_n_jobs(n_jobs)) as pool:
            yield from pool.imap_unordered(_run_chunk_task, [(config, *chunk) for chunk in todo])
        return
    jobs = (delayed(_run_chunk_job)(config, index, start, end) for index, start, end in todo)
    if backend != "dask":
        yield from Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")(jobs)
        return
    client = _dask_client(scheduler, n_jobs)
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(jobs)
    finally:
        cluster = client.cluster if scheduler is None else None    # a cluster we started; never a user's
        client.close()
        if cluster is not None:
            cluster.close()


def _dask_client(scheduler: str | None, n_jobs: int):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ImportError("backend='dask' needs the dask extra: pip install 'borabora_sim[dask]'") from None
    if scheduler:
        return Client(scheduler)
    workers = n_jobs if n_jobs > 0 else os.cpu_count() or 1
    return Client(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))


def _progress(total: int, initial: int, enabled: bool | None):
    enabled = sys.stderr.isatty() if enabled is None else enabled
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", disable=not enabled, smoothing=0.1, dynamic_ncols=True)


def canonical_spec(spec: str) -> str:
    """The spec as written, without stray spaces or an empty option list ("random:" -> "random")."""
    name, options = split_spec(spec)
    return f"{name}:{','.join(f'{k}={v}' for k, v in options.items())}" if options else name


def check_config(games: int, players: Sequence[str], seed: int, n_jobs: int, backend: str,
                 chunk_size: int | None, rotate_seats: bool = True,
                 components: str | os.PathLike[str] | None = None) -> RunConfig:
    """The run configuration, or a ValueError that says which argument is wrong and what is allowed."""
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if isinstance(players, str):
        raise ValueError("players must be a list of player specs, e.g. ['heuristic', 'random', 'random']")
    specs = tuple(players)
    if len(specs) not in PLAYER_COUNTS:
        raise ValueError(f"players must list 2, 3 or 4 player specs (one per seat), got {len(specs)}: {list(specs)}")
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"each player must be a spec string such as 'heuristic' or 'random', got {spec!r}")
        make_player(spec, 0)            # raises a ValueError naming what is allowed
    specs = tuple(canonical_spec(spec) for spec in specs)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}")
    size = default_chunk_size(specs) if chunk_size is None else chunk_size
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    path = None if components is None else str(Path(components).resolve())
    return RunConfig(games=games, players=specs, seed=check_seed(seed), rotate_seats=bool(rotate_seats),
                     chunk_size=size, components=path, components_fingerprint=rules_for(path).fingerprint)


def simulate(games: int, players: Sequence[str] = DEFAULT_PLAYERS, seed: int = 0, n_jobs: int = -1,
             backend: str = "loky", rotate_seats: bool = True, out: str | os.PathLike[str] | None = None,
             resume: bool = False, chunk_size: int | None = None, scheduler: str | None = None,
             progress: bool | None = None, load: bool = True,
             components: str | os.PathLike[str] | None = None) -> pd.DataFrame | None:
    """Plays `games` games between `players` (player specs, one per seat) and returns one row per player per
    game (see docs/simulation.md for the columns); `games_table()` derives the per-game table.

    With `out`, chunks stream into a Parquet dataset in that directory as they finish (memory stays flat); an
    interrupted run continues with `resume=True`. `load=False` then skips reading the result back.
    `components` names a component file (a variant of the built-in data, see docs/components.md).

    >>> df = simulate(20, ["heuristic", "random"], seed=1, n_jobs=1, progress=False)
    >>> len(df), sorted(df["spec"].unique())
    (40, ['heuristic', 'random'])
    """
    config = check_config(games, players, seed, n_jobs, backend, chunk_size, rotate_seats, components)
    chunks = config.chunks()
    directory = RunDirectory(out) if out is not None else None
    done = directory.start(config, resume) if directory is not None else set()
    todo = [chunk for chunk in chunks if chunk[0] not in done]
    finished_games = sum(end - start for index, start, end in chunks if index in done)
    tables: list[tuple[int, pa.Table, pa.Table]] = []
    with _progress(games, finished_games, progress) as bar:
        for index, n, player_rows, game_rows in _parallel_chunks(config, todo, n_jobs, backend, scheduler):
            if directory is not None:
                directory.write_chunk(index, player_rows, game_rows)
            else:
                tables.append((index, player_rows, game_rows))
            bar.update(n)
    if directory is not None:
        return directory.read() if load else None
    tables.sort(key=lambda item: item[0])
    return pa.concat_tables([t for _, t, _ in tables]).to_pandas()


def games_table(players: pd.DataFrame) -> pd.DataFrame:
    """One row per game from the player rows: length, winner seat and spec, winning VP, margin, ties, time."""
    grouped = players.groupby("game_id", sort=True)
    winners = players[players["win"]].set_index("game_id")
    second = grouped["vp"].apply(lambda v: np.sort(v.to_numpy())[-2] if len(v) > 1 else 0)
    return pd.DataFrame({
        "game_seed": grouped["game_seed"].first(),
        "n_players": grouped["n_players"].first(),
        "decisions": grouped["decisions"].first(),
        "winner_seat": winners["seat"],
        "winner_spec": winners["spec"],
        "winner_vp": winners["vp"],
        "margin": winners["vp"] - second,
        "tied_first": grouped["tied_first"].any(),
        "wall_time": grouped["wall_time"].first(),
    }).reset_index()


def replay(game_seed: int, players: Sequence[str], components: str | os.PathLike[str] | None = None) -> list[str]:
    """A readable log of one game: the game with seed `game_seed` and these specs by seat, as the simulator
    plays it (each player seeded from the game seed)."""
    specs = list(players)
    check_players(len(specs))
    game = BoraBora(components)
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    if all(spec == "random" for spec in specs):
        actions = iter(_engine.random_game_actions(game.rules, len(specs), game_seed))
        choose = [lambda _state: next(actions)] * len(specs)
    else:
        choose = [make_player(spec, player_seed(game_seed, s)).choose for s, spec in enumerate(specs)]
    lines = [f"game seed {game_seed}, players {', '.join(f'{s}: {spec}' for s, spec in enumerate(specs))}",
             f"turn order: {state.first_turn_order}"]
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
