"""Batch simulation: many games in parallel, one row per player per game, streamed to Parquet.

A run is a pure function of its configuration (`borabora_sim.runs.RunConfig`): the game (a spec of
borabora_sim.games, its name and options, with its component data), game i uses the seed
`game.derive_seed(seed, i)` and, with seat rotation, seat s plays `players[(s + i) % n]`. Chunks of games run on
joblib workers (loky processes by default, or a Dask cluster) and come back in any order; with an output
directory each is written into the run's directory (`borabora_sim.runs.RunDirectory`) as it finishes, so an
interrupted run resumes without losing or repeating a chunk, and the tables are identical whatever the number of
workers or the backend.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypedDict

import numpy as np
import pandas as pd
import pyarrow as pa

from borabora_sim import stats
from borabora_sim._worker_start import PARENT_VARIABLE, exit_with_parent
from borabora_sim.errors import ArgumentTypeError
from borabora_sim.games import DEFAULT_GAME, game_spec, get_game
from borabora_sim.match import DEFAULT_PLAYERS, play_game
from borabora_sim.players import files_fingerprint, make_player, resolve_preset, split_spec
from borabora_sim.players.base import SeededPlayer
from borabora_sim.protocol import Game, check_seed
from borabora_sim.runs import (
    RunConfig,
    RunDirectory,
    counter_columns,
    games_schema,
    player_counts_text,
    players_schema,
    spec_categories,
)

if TYPE_CHECKING:
    from dask.distributed import Client
    from tqdm import tqdm

BACKENDS = ("loky", "multiprocessing", "threading", "sequential", "dask")
DASK_CONNECT_TIMEOUT = 10.0     # seconds to reach a Dask scheduler before giving up


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
class _WorkerStart(TypedDict, total=False):
    """How each worker process starts (the keywords of a process pool)."""

    initializer: Callable[[int], None]
    initargs: tuple[int]


@contextlib.contextmanager
def _workers_tied_to_this_process() -> Iterator[None]:
    """Names this process, while workers are started, as the one they end with (borabora_sim._worker_start): a
    loky worker reads it as it imports the package, before the slow imports a worker initializer waits for."""
    saved = os.environ.get(PARENT_VARIABLE)
    os.environ[PARENT_VARIABLE] = str(os.getpid())
    try:
        yield
    finally:
        if saved is None:
            del os.environ[PARENT_VARIABLE]
        else:
            os.environ[PARENT_VARIABLE] = saved


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
    watch: _WorkerStart = {"initializer": exit_with_parent, "initargs": (os.getpid(),)}
    if backend == "multiprocessing":        # joblib's multiprocessing backend cannot stream results as they finish
        import multiprocessing

        with multiprocessing.Pool(workers, **watch) as pool:
            yield from pool.imap_unordered(_run_chunk_task, [(config, *chunk) for chunk in todo])
        return
    jobs = (delayed(_run_chunk_job)(config, index, start, end) for index, start, end in todo)
    if backend != "dask":
        with parallel_config(backend=backend, **(watch if backend == "loky" else {})):
            parallel = Parallel(n_jobs=workers, return_as="generator_unordered")
        with _quiet_cancellation(), _workers_tied_to_this_process():
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
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -cores:
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
    default players, and a preset ("strong") is recorded as the player spec it stands for in the game. The contents
    of the files the players read (a network, learned weights, a heuristic style's data file) are recorded as a
    hash, so that a resume after such a file changed is refused."""
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if isinstance(players, str):
        raise ValueError("players must be a list of player specs, e.g. ['heuristic', 'random', 'random']")
    played = get_game(game, components)     # an unknown game or option or bad component data fails here, saying why
    specs = played.default_players if players is DEFAULT_PLAYERS else tuple(players)
    if len(specs) not in played.player_counts:
        raise ValueError(f"players must list {player_counts_text(played)} player specs (one per seat), got "
                         f"{len(specs)}: {list(specs)}")
    files_read = []                     # by seat: the network, weights or style files the player reads
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"each player must be a spec string such as 'heuristic' or 'random', got {spec!r}")
        player = make_player(spec, 0, played)       # raises a ValueError naming what is allowed
        files_read.append(player.files_read())
    # A preset is recorded as the spec it stands for in this game: the run says exactly who played, and a resumed
    # run is refused if the preset has changed since.
    specs = tuple(canonical_spec(resolve_preset(spec, played)) for spec in specs)
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
                     components_fingerprint=played.fingerprint,
                     player_files_fingerprint=files_fingerprint(files_read))


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

    Args:
        games: How many games to play.
        players: One player spec per seat ("heuristic", "mcts:iterations=500", ...); its length is the number of
            players. Not given: the game's default players.
        seed: The master seed: game i is dealt from `game.derive_seed(seed, i)`.
        n_jobs: Worker processes (-1: one per core).
        backend: "loky", "multiprocessing", "threading", "sequential" or "dask" (`BACKENDS`).
        rotate_seats: Whether seat s plays `players[(s + i) % n]` in game i, so that no spec keeps one seat.
        out: A directory to stream the run into, as Parquet files with a manifest.
        resume: Finish the interrupted run in `out` instead of starting one.
        chunk_size: Games per task (None: chosen from the players' cost).
        scheduler: The address of a Dask scheduler (with backend "dask"; None: a local cluster).
        progress: Show a progress bar (None: when the output is a terminal).
        load: Return the rows (False: return None and keep nothing in memory).
        components: A component file to play with instead of the built-in data.
        connect_timeout: Seconds to reach `scheduler`.
        on_chunk: Called in this process with the player rows (an Arrow table) of each chunk as it finishes.
        game: The game spec ("bora_bora", "bamboo:mode=advanced", "pig").

    Returns:
        One row per player per game (see docs/simulation.md for the columns), or None with `load=False`.
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
    if isinstance(connect_timeout, bool) or not isinstance(connect_timeout, int | float) \
            or not 0 < connect_timeout < math.inf:
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
            directory.merge_if_complete(config, done, first)     # groups done before an interruption
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
                directory.merge_if_complete(config, done, index)
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
    """A readable log of one game of `game` (a game spec), in the game's words: the game with seed `game_seed` and
    these specs by seat, as the simulator plays it (each player seeded from the game seed)."""
    specs = list(players)
    played = get_game(game, components)
    state = played.new_initial_state(players=len(specs), seed=game_seed)
    seated = seated_players(specs, game_seed, played)
    if all(spec == "random" for spec in specs):
        actions = iter(played.random_game_actions(len(specs), game_seed))
        choose = [lambda _state: next(actions)] * len(specs)
    else:
        choose = [player.choose for player in seated]
    start = [row["start_position"] for row in state.counters()]
    names = ", ".join(f"seat {s}: {player.in_words()}" for s, player in enumerate(seated))
    lines = [f"game seed {game_seed}, {names}",
             f"turn order: {sorted(range(len(specs)), key=start.__getitem__)}"]
    last = None
    while not state.is_terminal():
        seat = state.current_player
        action = choose[seat](state)
        heading = played.describe_phase(state)
        if heading != last:
            lines.append(f"-- {heading}")
            last = heading
        lines.append(f"  seat {seat}: {played.describe_action(state, action)}")
        state.apply(action)
    lines.append(f"final scores {state.scores()}, winner seat {state.winner()}")
    for seat, row in enumerate(state.score_breakdown()):
        parts = ", ".join(f"{played.describe_source(k)} {v}" for k, v in row.items() if v)
        lines.append(f"  seat {seat}: {parts}")
    return lines


__all__ = ["BACKENDS", "games_table", "replay", "simulate"]
