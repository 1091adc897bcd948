"""The batch simulator: the player and game tables (columns, dtypes, consistency), seat rotation,
reproducibility whatever the workers, chunking or backend (Dask included), replaying any game, streaming to a
Parquet run directory (small chunks merged into larger files, every file marked with its run), resuming an
interrupted run, refusing files of another run and malformed manifests, flat memory, and argument checking.

Game counts are small and the players cheap (random, heuristic), so the file runs in well under a minute.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import borabora_sim
import borabora_sim.runs as runs
import borabora_sim.simulate as sim
from borabora_sim import _engine
from borabora_sim.games import get_game
from borabora_sim.match import DEFAULT_PLAYERS
from borabora_sim.runs import COUNTERS, SOURCES, RunConfig, RunDirectory
from borabora_sim.simulate import check_config, games_table, replay, seat_specs, simulate

MIXED = ["heuristic", "random", "heuristic:fishing=never"]
MIXED_GAMES = 24
MIXED_SEED = 11
ROOT = Path(borabora_sim.__file__).resolve().parent.parent

# The documented columns of the player table (docs/simulation.md), in order, with their dtypes.
PLAYER_COLUMNS = {
    "game_id": "int64", "game_seed": "uint64", "n_players": "int8", "seat": "int8", "start_position": "int8",
    "spec": "category", "vp": "int16", "rank": "int8", "win": "bool", "tied_first": "bool",
    **{f"vp_{source}": "int16" for source in (
        "start", "fishing", "helper", "person", "temple", "status", "buildings", "tasks", "red_god", "jewelry",
        "fish_tiles", "god_tiles", "goal_tasks", "goal_jewelry", "goal_ceremony", "goal_buildings",
        "goal_regions", "goal_persons")},
    **{name: "int16" for name in (
        "dice_fishing", "dice_helper", "dice_temple", "dice_build", "dice_man", "dice_woman", "dice_land_path",
        "dice_water_path", "god_blue", "god_white", "god_red", "god_green_double", "god_green_extra",
        "god_yellow", "god_tiles_played", "priests", "buildings", "tasks_done", "jewelry", "huts_on_map",
        "persons")},
    "decisions": "int32", "wall_time": "float32",
}
GAME_COLUMNS = {
    "game_id": "int64", "game_seed": "uint64", "n_players": "int8", "decisions": "int32", "winner_seat": "int8",
    "winner_spec": "category", "winner_vp": "int16", "margin": "int16", "tied_first": "bool",
    "wall_time": "float32",
}


def run(games: int, players: list[str], seed: int, **kwargs) -> pd.DataFrame:
    kwargs.setdefault("n_jobs", 1)
    return simulate(games, players, seed=seed, progress=False, **kwargs)


def assert_same_games(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Identical tables in every column but wall_time (values, dtypes, categories, order)."""
    pd.testing.assert_frame_equal(a.drop(columns="wall_time"), b.drop(columns="wall_time"))


def chunk_names(out: Path, table: str = "players") -> list[str]:
    return sorted(p.name for p in (out / table).iterdir())


@pytest.fixture
def one_file_per_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunk files are never merged (as for chunks of FILE_GAMES games or more)."""
    monkeypatch.setattr(runs, "FILE_GAMES", 1)


def per_game(frame: pd.DataFrame, column: str) -> np.ndarray:
    """games x players array of a column (rows are sorted by game, then seat)."""
    n = int(frame["n_players"].iloc[0])
    return frame[column].to_numpy().reshape(-1, n)


@pytest.fixture(scope="module")
def mixed() -> pd.DataFrame:
    """The reference mixed run: three different specs, seats rotated, local and sequential."""
    return run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5)


@pytest.fixture(scope="module")
def randoms() -> pd.DataFrame:
    """A run of all-random 4-player games (the compiled fast path), with many games for ties."""
    return run(1500, ["random"] * 4, 3, chunk_size=400)


# =============================================================================
# The player table
# =============================================================================
@pytest.mark.parametrize("table", ["mixed", "randoms"])
def test_player_table_has_the_documented_columns_and_dtypes(table: str, request: pytest.FixtureRequest) -> None:
    frame = request.getfixturevalue(table)
    assert list(frame.columns) == list(PLAYER_COLUMNS)
    assert {c: str(t) for c, t in frame.dtypes.items()} == PLAYER_COLUMNS
    assert [c for c in frame.columns if c.startswith("vp_")] == [f"vp_{source}" for source in SOURCES]
    assert [c for c in frame.columns if c in COUNTERS] == list(COUNTERS)


def test_one_row_per_player_per_game_sorted_by_game_and_seat(mixed: pd.DataFrame) -> None:
    n = len(MIXED)
    assert len(mixed) == MIXED_GAMES * n
    assert mixed["game_id"].tolist() == [g for g in range(MIXED_GAMES) for _ in range(n)]
    assert mixed["seat"].tolist() == list(range(n)) * MIXED_GAMES
    assert (mixed["n_players"] == n).all()


def test_spec_is_categorical_with_the_runs_distinct_specs_in_seat_order() -> None:
    frame = run(6, ["random", "heuristic", "random"], 2)
    assert list(frame["spec"].cat.categories) == ["random", "heuristic"]
    assert frame["spec"].value_counts().to_dict() == {"random": 12, "heuristic": 6}


def test_game_seed_is_derived_from_master_seed_and_game_id(mixed: pd.DataFrame) -> None:
    expected = [_engine.derive_seed(MIXED_SEED, g) for g in mixed["game_id"]]
    assert mixed["game_seed"].tolist() == expected
    assert mixed["game_seed"].nunique() == MIXED_GAMES


@pytest.mark.parametrize("table", ["mixed", "randoms"])
def test_vp_by_source_sums_to_vp(table: str, request: pytest.FixtureRequest) -> None:
    frame = request.getfixturevalue(table)
    sources = frame[[f"vp_{s}" for s in SOURCES]].astype(np.int64).sum(axis=1)
    assert (sources == frame["vp"]).all()
    assert (frame["vp"] > 0).all()


@pytest.mark.parametrize("table", ["mixed", "randoms"])
def test_rank_is_1_to_n_and_exactly_one_win_per_game(table: str, request: pytest.FixtureRequest) -> None:
    frame = request.getfixturevalue(table)
    ranks, wins, vp = per_game(frame, "rank"), per_game(frame, "win"), per_game(frame, "vp")
    n = ranks.shape[1]
    assert (np.sort(ranks, axis=1) == np.arange(1, n + 1)).all()
    assert (wins.sum(axis=1) == 1).all()
    assert (ranks[wins] == 1).all()
    assert (vp[wins] == vp.max(axis=1)).all()
    # a better score never ranks below a worse one
    order = np.argsort(ranks, axis=1)
    assert (np.diff(np.take_along_axis(vp, order, axis=1), axis=1) <= 0).all()


@pytest.mark.parametrize("table", ["mixed", "randoms"])
def test_start_position_is_a_permutation_of_the_seats(table: str, request: pytest.FixtureRequest) -> None:
    frame = request.getfixturevalue(table)
    positions = per_game(frame, "start_position")
    assert (np.sort(positions, axis=1) == np.arange(positions.shape[1])).all()


def test_tied_first_marks_exactly_the_rows_sharing_the_top_score(randoms: pd.DataFrame) -> None:
    vp, tied = per_game(randoms, "vp"), per_game(randoms, "tied_first")
    top = vp == vp.max(axis=1, keepdims=True)
    shared = top.sum(axis=1, keepdims=True) > 1
    assert (tied == (top & shared)).all()
    assert tied.any(), "the fixture run should hold some shared first places"
    assert not tied[~shared[:, 0]].any()


def test_decisions_is_positive_and_the_same_for_every_row_of_a_game(mixed: pd.DataFrame) -> None:
    decisions = per_game(mixed, "decisions")
    assert (decisions == decisions[:, :1]).all()
    assert (decisions > 50).all()
    assert (mixed["wall_time"] > 0).all()


# =============================================================================
# Seat rotation
# =============================================================================
def test_seat_rotation_each_spec_plays_each_seat_equally_often(mixed: pd.DataFrame) -> None:
    counts = pd.crosstab(mixed["spec"], mixed["seat"])
    assert (counts.to_numpy() == MIXED_GAMES // len(MIXED)).all()
    assert counts.shape == (3, 3)


def test_seat_rotation_game_i_seat_s_plays_spec_s_plus_i(mixed: pd.DataFrame) -> None:
    n = len(MIXED)
    expected = [MIXED[(seat + game) % n] for game in range(MIXED_GAMES) for seat in range(n)]
    assert mixed["spec"].astype(str).tolist() == expected


def test_without_rotation_each_seat_keeps_its_spec() -> None:
    frame = run(6, MIXED, 4, rotate_seats=False)
    assert frame["spec"].astype(str).tolist() == MIXED * 6


# =============================================================================
# Reproducibility: the tables depend on the configuration only
# =============================================================================
def test_same_seed_same_table_and_other_seed_other_games(mixed: pd.DataFrame) -> None:
    assert_same_games(run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5), mixed)
    other = run(MIXED_GAMES, MIXED, MIXED_SEED + 1, chunk_size=5)
    assert not np.array_equal(other["vp"].to_numpy(), mixed["vp"].to_numpy())


def test_reproducible_for_one_or_two_workers(mixed: pd.DataFrame) -> None:
    assert_same_games(run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, n_jobs=2), mixed)


@pytest.mark.parametrize("players", [MIXED, ["random"] * 4], ids=["mixed", "random"])
def test_reproducible_for_chunk_sizes_1_and_7(players: list[str]) -> None:
    assert_same_games(run(15, players, 8, chunk_size=1), run(15, players, 8, chunk_size=7))


@pytest.mark.parametrize("backend", ["loky", "threading", "sequential", "multiprocessing"])
def test_reproducible_for_every_local_backend(backend: str, mixed: pd.DataFrame) -> None:
    assert_same_games(run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, n_jobs=2, backend=backend), mixed)


def test_reproducible_on_a_dask_cluster(mixed: pd.DataFrame) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, n_jobs=2, backend="dask",
                      scheduler=cluster.scheduler_address)
        assert len(cluster.scheduler_info["workers"]) == 2
        with pytest.raises(ValueError, match="No clients found"):
            distributed.default_client()                # simulate() closed the client it opened
        # ... and left the user's cluster up and usable
        with distributed.Client(cluster.scheduler_address) as client:
            assert client.submit(sum, [1, 2]).result() == 3
    assert_same_games(on_dask, mixed)


# =============================================================================
# Replaying any game
# =============================================================================
def final_scores(log: list[str]) -> list[int]:
    line = next(line for line in log if line.startswith("final scores "))
    return json.loads(line.removeprefix("final scores ").partition("]")[0] + "]")


def test_replay_of_an_all_random_game_matches_its_row(randoms: pd.DataFrame) -> None:
    for game in (0, 17, 1499):
        rows = randoms[randoms["game_id"] == game]
        log = replay(int(rows["game_seed"].iloc[0]), ["random"] * 4)
        assert final_scores(log) == rows["vp"].tolist()
        assert f"winner seat {int(rows['seat'][rows['win']].iloc[0])}" in log[-5]
        assert len(move_lines(log)) == rows["decisions"].iloc[0]


def move_lines(log: list[str]) -> list[str]:
    """The moves of a replay's log: the seats' lines before the final scores."""
    end = next(i for i, line in enumerate(log) if line.startswith("final scores "))
    return [line for line in log[:end] if line.startswith("  seat ")]


def test_replay_of_a_mixed_game_matches_its_row(mixed: pd.DataFrame) -> None:
    config = check_config(MIXED_GAMES, MIXED, MIXED_SEED, 1, "loky", 5)
    for game in (0, 1, 2, 23):
        rows = mixed[mixed["game_id"] == game]
        specs = seat_specs(config, game)
        assert rows["spec"].astype(str).tolist() == specs
        log = replay(int(rows["game_seed"].iloc[0]), specs)
        assert final_scores(log) == rows["vp"].tolist()
        assert len(move_lines(log)) == rows["decisions"].iloc[0]


def test_replay_log_breaks_down_each_seats_score(mixed: pd.DataFrame) -> None:
    rows = mixed[mixed["game_id"] == 5]
    log = replay(int(rows["game_seed"].iloc[0]), rows["spec"].astype(str).tolist())
    tail = log[-len(MIXED):]
    for seat, line in enumerate(tail):
        assert line.startswith(f"  seat {seat}: ")
        parts = dict(part.rsplit(" ", 1) for part in line.split(": ", 1)[1].split(", "))
        assert sum(map(int, parts.values())) == rows["vp"].iloc[seat]
        assert int(parts.get(get_game().describe_source("temple"), 0)) == rows["vp_temple"].iloc[seat]


@pytest.fixture(scope="module")
def variant_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A component file: the built-in data with 5 more start VP for every turn-order position."""
    data = json.loads((ROOT / "borabora_sim" / "games" / "bora_bora" / "data" / "components.json").read_text())
    data["start_vp"]["values"] = [v + 5 for v in data["start_vp"]["values"]]
    path = tmp_path_factory.mktemp("components") / "variant.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("players", [MIXED, ["random"] * 3], ids=["mixed", "random"])
def test_run_on_a_component_variant_scores_and_replays_with_that_data(players: list[str], variant_file: Path,
                                                                      tmp_path: Path) -> None:
    base = run(6, players, 2)
    variant = run(6, players, 2, components=variant_file, out=tmp_path / "run")
    assert (variant["vp_start"] == base["vp_start"] + 5).all()
    assert RunDirectory(tmp_path / "run").read_manifest().components == str(variant_file.resolve())
    rows = variant[variant["game_id"] == 4]
    log = replay(int(rows["game_seed"].iloc[0]), rows["spec"].astype(str).tolist(), components=variant_file)
    assert final_scores(log) == rows["vp"].tolist()


# =============================================================================
# Streaming to a run directory
# =============================================================================
def test_streamed_run_writes_manifest_and_chunk_files_and_reads_back_equal(tmp_path: Path,
                                                                           mixed: pd.DataFrame) -> None:
    out = tmp_path / "run"
    streamed = run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out)
    assert_same_games(streamed, mixed)
    assert_same_games(RunDirectory(out).read(), mixed)
    for table in ("players", "games"):                  # 24 games in 5 chunks of 5, merged into one file
        assert chunk_names(out, table) == ["chunk-0000000-0000004.parquet"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games"] == MIXED_GAMES and manifest["players"] == MIXED and manifest["seed"] == MIXED_SEED
    assert manifest["chunk_size"] == 5 and manifest["rotate_seats"] is True
    assert RunDirectory(out).read_manifest() == check_config(MIXED_GAMES, MIXED, MIXED_SEED, 1, "loky", 5)
    assert not [p for p in out.rglob(".*")], "no temporary file is left behind"


def test_reading_some_columns_keeps_the_row_order(tmp_path: Path, mixed: pd.DataFrame) -> None:
    run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=tmp_path / "run", n_jobs=2)
    directory = RunDirectory(tmp_path / "run")
    pd.testing.assert_frame_equal(directory.read(columns=["vp", "spec"]), mixed[["vp", "spec"]])
    games = directory.read("games", columns=["winner_vp"])
    assert list(games.columns) == ["winner_vp"]
    assert games["winner_vp"].tolist() == games_table(mixed)["winner_vp"].tolist()


def test_load_false_returns_nothing_but_writes_everything(tmp_path: Path) -> None:
    assert run(30, ["random"] * 3, 1, out=tmp_path / "r", chunk_size=8, load=False) is None
    assert len(RunDirectory(tmp_path / "r").read()) == 90


def test_on_chunk_sees_every_chunk_and_load_false_without_out_keeps_nothing(mixed: pd.DataFrame) -> None:
    seen: list[pa.Table] = []
    assert run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, n_jobs=2, load=False, on_chunk=seen.append) is None
    assert len(seen) == 5
    rows = pa.concat_tables(seen).to_pandas().sort_values(["game_id", "seat"], ignore_index=True)
    assert_same_games(rows, mixed)


def test_small_chunks_are_merged_into_files_of_about_file_games(tmp_path: Path, mixed: pd.DataFrame,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "FILE_GAMES", 10)          # chunks of 5 games: two chunks per file
    out = tmp_path / "run"
    run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out, n_jobs=2, load=False)
    for table in ("players", "games"):
        assert chunk_names(out, table) == ["chunk-0000000-0000001.parquet", "chunk-0000002-0000003.parquet",
                                           "chunk-0000004.parquet"]
    directory = RunDirectory(out)
    assert directory.done_chunks() == {0, 1, 2, 3, 4}
    assert_same_games(directory.read(), mixed)


def test_an_interrupted_merge_leaves_files_that_readers_skip_and_resume_removes(tmp_path: Path,
                                                                                  mixed: pd.DataFrame,
                                                                                  one_file_per_chunk: None) -> None:
    out = tmp_path / "run"
    run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out, load=False)
    directory = RunDirectory(out)
    kept = tmp_path / "kept"
    shutil.copytree(out, kept)
    directory.merge(range(0, 3))
    for table in ("players", "games"):                  # as if killed after the merged files were in place
        for k in range(3):
            shutil.copy(RunDirectory(kept).chunk_file(table, k), directory.chunk_file(table, k))
    assert len(chunk_names(out)) == 6
    assert directory.done_chunks() == {0, 1, 2, 3, 4}
    assert_same_games(directory.read(), mixed)
    assert len(directory.read("games")) == MIXED_GAMES

    assert_same_games(run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out, resume=True), mixed)
    for table in ("players", "games"):
        assert chunk_names(out, table) == ["chunk-0000000-0000002.parquet", "chunk-0000003.parquet",
                                           "chunk-0000004.parquet"]


def test_games_table_has_one_row_per_game_with_the_winners_spec(mixed: pd.DataFrame) -> None:
    games = games_table(mixed)
    assert {c: str(t) for c, t in games.dtypes.items()} == GAME_COLUMNS
    assert games["game_id"].tolist() == list(range(MIXED_GAMES))
    winners = mixed[mixed["win"]].set_index("game_id")
    assert games["winner_spec"].astype(str).tolist() == winners["spec"].astype(str).tolist()
    assert games["winner_seat"].tolist() == winners["seat"].tolist()
    vp = per_game(mixed, "vp")
    assert (games["winner_vp"].to_numpy() == vp.max(axis=1)).all()
    assert (games["margin"].to_numpy() == vp.max(axis=1) - np.sort(vp, axis=1)[:, -2]).all()
    assert (games["tied_first"].to_numpy() == (games["margin"].to_numpy() == 0)).all()
    assert games["winner_spec"].value_counts().sum() == MIXED_GAMES


def test_games_chunk_files_equal_games_table(tmp_path: Path, randoms: pd.DataFrame) -> None:
    players = run(1500, ["random"] * 4, 3, chunk_size=400, out=tmp_path / "r")
    assert_same_games(players, randoms)
    written = RunDirectory(tmp_path / "r").read("games")
    derived = games_table(players)
    pd.testing.assert_frame_equal(written.drop(columns="wall_time"), derived.drop(columns="wall_time"))
    assert written["tied_first"].any()


# =============================================================================
# Resuming
# =============================================================================
INTERRUPTED_RUN = """
import sys, time
from borabora_sim import runs, simulate as sim

write = runs.RunDirectory.write_chunk

def slow_write(self, index, players, games):     # slow enough to be killed between chunks
    write(self, index, players, games)
    time.sleep(0.25)

runs.RunDirectory.write_chunk = slow_write
sim.simulate({games}, {players!r}, seed={seed}, n_jobs=1, out=sys.argv[1], chunk_size={chunk_size},
             progress=False, load=False)
"""


def test_run_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path: Path,
                                                                    mixed: pd.DataFrame) -> None:
    out = tmp_path / "run"
    script = INTERRUPTED_RUN.format(games=MIXED_GAMES, players=MIXED, seed=MIXED_SEED, chunk_size=2)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-c", script, str(out)], env=env, stderr=subprocess.PIPE,
                            cwd=tmp_path)      # no source tree on the child's path: it imports the package under test
    directory = RunDirectory(out)
    deadline = time.monotonic() + 60
    try:
        while len(directory.done_chunks()) < 3:
            assert proc.poll() is None, f"the run ended early: {proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, "no chunk written within 60 s"
            time.sleep(0.02)
    finally:
        proc.kill()                                     # SIGKILL: no clean-up of any kind
        proc.wait()
        proc.stderr.close()
    assert proc.returncode == -9
    done = directory.done_chunks()
    total = len(range(0, MIXED_GAMES, 2))
    assert 3 <= len(done) < total
    before = directory.read()                           # the chunks finished before the kill

    with pytest.raises(FileExistsError, match="resume"):
        run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=2, out=out)
    resumed = run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=2, out=out, resume=True)

    assert_same_games(resumed, mixed)
    assert directory.done_chunks() == set(range(total))
    again = resumed[resumed["game_id"].isin(before["game_id"])].reset_index(drop=True)
    pd.testing.assert_series_equal(again["wall_time"], before["wall_time"],
                                   obj="wall_time of the chunks finished before the kill (not played again)")
    for table in ("players", "games"):                  # 12 chunks of 2 games, merged at the end
        assert chunk_names(out, table) == [f"chunk-0000000-{total - 1:07d}.parquet"]
    assert (resumed.groupby("game_id").size() == len(MIXED)).all()


def test_resume_ignores_half_written_hidden_chunk_files(tmp_path: Path, mixed: pd.DataFrame,
                                                       one_file_per_chunk: None) -> None:
    out = tmp_path / "run"
    run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out, load=False)
    directory = RunDirectory(out)
    # as if killed while writing chunk 4: its games file is in place, its players file only half written
    directory.chunk_file("players", 4).unlink()
    (out / "players" / ".chunk-0000004.parquet.tmp").write_bytes(b"PAR1\x00\x01 half a file")
    (out / "games" / ".chunk-0000009.parquet.tmp").write_bytes(b"PAR1")
    assert directory.done_chunks() == {0, 1, 2, 3}
    assert directory.read()["game_id"].max() == 19

    resumed = run(MIXED_GAMES, MIXED, MIXED_SEED, chunk_size=5, out=out, resume=True)
    assert_same_games(resumed, mixed)
    assert directory.done_chunks() == {0, 1, 2, 3, 4}
    assert len(directory.read("games")) == MIXED_GAMES


def test_resume_of_a_finished_run_plays_nothing_and_returns_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run(20, ["random", "random"], 6, out=out, chunk_size=4)
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    again = run(20, ["random", "random"], 6, out=out, chunk_size=4, resume=True)
    assert_same_games(again, first)
    pd.testing.assert_series_equal(again["wall_time"], first["wall_time"])
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == stamps


def test_second_run_into_the_same_directory_without_resume_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(4, ["random", "random"], 1, out=out)
    with pytest.raises(FileExistsError, match="resume"):
        run(4, ["random", "random"], 1, out=out)


@pytest.mark.parametrize(("change", "field"), [
    ({"seed": 2}, "seed"), ({"games": 8}, "games"), ({"players": ["random", "heuristic"]}, "players"),
    ({"chunk_size": 3}, "chunk_size"), ({"rotate_seats": False}, "rotate_seats"),
])
def test_resume_with_a_different_configuration_names_the_difference(tmp_path: Path, change: dict,
                                                                    field: str) -> None:
    out = tmp_path / "run"
    base = {"games": 4, "players": ["random", "random"], "seed": 1, "chunk_size": 2}
    run(**base, out=out)
    with pytest.raises(ValueError, match=rf"different run \({field} ") as err:
        run(**{**base, **change}, out=out, resume=True)
    others = {"seed", "games", "players", "chunk_size", "rotate_seats"} - {field}
    assert not any(f"{other} " in str(err.value).split("(")[1].split(")")[0] for other in others)


def test_resume_into_an_empty_directory_starts_the_run(tmp_path: Path) -> None:
    frame = run(6, ["random", "random"], 1, out=tmp_path / "new", resume=True)
    assert len(frame) == 12


# =============================================================================
# Memory
# =============================================================================
def test_streamed_run_without_loading_does_not_hold_all_rows(tmp_path: Path) -> None:
    games = 40_000
    out = tmp_path / "big"
    run(20, ["random"] * 4, 0)                         # warm up imports and the component tables
    tracemalloc.start()
    try:
        result = run(games, ["random"] * 4, 1, out=out, load=False, chunk_size=1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result is None
    table = RunDirectory(out).read()
    assert len(table) == games * 4
    full = int(table.memory_usage(deep=True).sum())
    print(f"peak {peak:,} bytes while streaming vs {full:,} bytes for the full table")
    assert peak < full / 4, f"peak {peak:,} bytes while streaming vs {full:,} bytes for the full table"


# =============================================================================
# Bad configurations
# =============================================================================
@pytest.mark.parametrize(("kwargs", "allowed"), [
    ({"games": 0}, "games must be a positive integer"),
    ({"games": -5}, "games must be a positive integer"),
    ({"games": 2.5}, "games must be a positive integer"),
    ({"players": ["random"]}, "2, 3 or 4 player specs"),
    ({"players": ["random"] * 5}, "2, 3 or 4 player specs"),
    ({"players": ["random", "wizard"]}, "unknown player 'wizard'.*players: .*heuristic"),
    ({"players": ["random", "heuristic:colour=red"]}, "no option 'colour'; options: "),
    ({"players": ["random", 7]}, "spec string"),
    ({"players": "random,random"}, "list of player specs"),
    ({"backend": "spark"}, "backend must be one of loky, multiprocessing, threading, sequential, dask"),
    ({"n_jobs": 0}, r"n_jobs must be a number of workers \(1, 2, ...\) or -1 for all \d+ cores"),
    ({"n_jobs": -100}, "n_jobs must be a number of workers"),
    ({"n_jobs": 1.5}, "n_jobs must be a number of workers"),
    ({"chunk_size": 0}, "chunk_size must be a positive integer"),
    ({"seed": -1}, r"seed must be an int in \[0, 2\*\*64\)"),
    ({"resume": True, "out": None}, "resume needs out"),
    ({"out": ""}, "out must name a directory, got ''"),
    ({"scheduler": "tcp://127.0.0.1:1"}, "scheduler .* needs backend='dask', got 'loky'"),
    ({"scheduler": "", "backend": "dask"}, "scheduler must be the address of a Dask scheduler"),
    ({"connect_timeout": 0}, "connect_timeout must be a positive number of seconds"),
    ({"connect_timeout": float("nan")}, "connect_timeout must be a positive number of seconds"),
])
def test_bad_configuration_is_refused_saying_what_is_allowed(kwargs: dict, allowed: str, tmp_path: Path) -> None:
    arguments = {"games": 4, "players": ["random", "random"], "seed": 0, "n_jobs": 1, "progress": False,
                 "out": tmp_path / "run", **kwargs}
    with pytest.raises(ValueError, match=allowed):
        simulate(**arguments)
    assert not (tmp_path / "run").exists(), "nothing is written for a refused configuration"


@pytest.mark.parametrize(("out", "allowed"), [
    ("file", "out must be a directory, but .*file is a file"),
    ("file/run", "out must be a directory, but .*file/run cannot be created: .*file is a file"),
])
def test_out_on_or_under_a_file_is_refused(out: str, allowed: str, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(ValueError, match=allowed):
        run(4, ["random", "random"], 0, out=tmp_path / out)
    assert (tmp_path / "file").read_text() == "not a directory"


def test_unreachable_dask_scheduler_fails_within_the_connect_timeout(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    began = time.monotonic()
    with pytest.raises(ConnectionError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s"):
        run(4, ["random", "random"], 0, backend="dask", scheduler="tcp://127.0.0.1:1", connect_timeout=1,
            out=tmp_path / "run")
    assert time.monotonic() - began < 15
    assert not (tmp_path / "run").exists(), "nothing is written before the scheduler answers"


def test_python_api_and_command_line_share_the_default_players(tmp_path: Path) -> None:
    from borabora_sim.cli import main

    assert inspect.signature(simulate).parameters["players"].default == DEFAULT_PLAYERS
    assert sim.DEFAULT_PLAYERS is DEFAULT_PLAYERS
    assert main(["simulate", "--games", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path / "cli")]) == 0
    simulate(2, n_jobs=1, progress=False, load=False, out=tmp_path / "api")
    played = [RunDirectory(tmp_path / name).read_manifest() for name in ("cli", "api")]
    assert played[0] == played[1] and played[0] is not None and len(played[0].players) == 4


# =============================================================================
# Files of another run, malformed manifests
# =============================================================================
@pytest.mark.parametrize("table", ["players", "games"])
def test_a_chunk_file_of_another_run_is_refused_when_reading_and_resuming(table: str, tmp_path: Path,
                                                                          one_file_per_chunk: None) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    run(8, ["random", "random"], 1, out=ours, chunk_size=4)
    run(8, ["random", "heuristic"], 1, out=theirs, chunk_size=4)
    directory = RunDirectory(ours)
    directory.chunk_file("players", 1).unlink()
    shutil.copy(RunDirectory(theirs).chunk_file(table, 1), directory.chunk_file(table, 1))
    foreign = rf"{directory.chunk_file(table, 1)} belongs to another run \(its run fingerprint is [0-9a-f]{{16}}, "
    if table == "players":
        with pytest.raises(ValueError, match=foreign):
            directory.read()
    with pytest.raises(ValueError, match=foreign):
        run(8, ["random", "random"], 1, out=ours, chunk_size=4, resume=True)


def test_every_file_carries_the_fingerprint_of_its_run(tmp_path: Path) -> None:
    run(8, ["random", "random"], 1, out=tmp_path / "run", chunk_size=4)
    directory = RunDirectory(tmp_path / "run")
    config = directory.read_manifest()
    files = [path for table in ("players", "games") for _, _, path in directory.files(table)]
    assert files
    assert {pq.read_schema(path).metadata[b"run"].decode() for path in files} == {config.fingerprint}
    assert config.fingerprint != check_config(8, ["random", "random"], 2, 1, "loky", 4).fingerprint


def manifest_of(tmp_path: Path) -> dict:
    run(4, ["random", "random"], 1, out=tmp_path / "run")
    return json.loads((tmp_path / "run" / "manifest.json").read_text())


@pytest.mark.parametrize(("change", "message"), [
    (lambda m: [m], r"manifest.json must hold a JSON object with the keys games, players, .*, got a list"),
    (lambda m: {**m, "colour": "red"}, r"manifest.json: unknown key 'colour'; a manifest holds exactly games, "),
    (lambda m: {k: v for k, v in m.items() if k != "players"}, r"manifest.json: missing key 'players'"),
    (lambda m: {**m, "games": "4"}, r"manifest.json: games must be a positive integer, got '4'"),
    (lambda m: {**m, "players": ["random"]}, r"players must be a list of 2, 3 or 4 player specs, got \['random'\]"),
    (lambda m: {**m, "rotate_seats": 1}, r"rotate_seats must be true or false, got 1"),
    (lambda m: {**m, "schema_version": 1}, r"schema_version must be 2 \(runs written by this version"),
    (lambda m: {**m, "game": "bamboo:mode=night"}, r"manifest.json: game must be a game spec: .*got "
                                                   r"'bamboo:mode=night' \(.*must be one of normal, advanced"),
    (lambda m: {**m, "game": "nosuch"}, r"manifest.json: game must be a game spec: one of the games bora_bora, "),
])
def test_a_malformed_manifest_is_refused_naming_what_is_wrong(change, message: str, tmp_path: Path) -> None:
    manifest = manifest_of(tmp_path)
    assert set(manifest) == set(inspect.signature(RunConfig).parameters) | {"files"}
    (tmp_path / "run" / "manifest.json").write_text(json.dumps(change(manifest)))
    with pytest.raises(ValueError, match=message):
        RunDirectory(tmp_path / "run").read_manifest()


def test_a_manifest_that_is_not_json_or_a_file_given_as_run_directory_is_refused(tmp_path: Path) -> None:
    manifest_of(tmp_path)
    directory = RunDirectory(tmp_path / "run")
    with pytest.raises(ValueError, match=r"is a file, not a run directory"):
        RunDirectory(tmp_path / "run" / "manifest.json").read_manifest()
    damaged = {"{games: 4": r"not JSON \(Expecting property name", "": "the file is empty",
               "[" * 100_000: r"not JSON \(nested too deeply\)",
               '{"games": NaN}': r"not JSON \(NaN is not a number JSON allows\)",
               "\udcff": "not UTF-8 text"}
    for text, problem in damaged.items():
        (tmp_path / "run" / "manifest.json").write_bytes(text.encode("utf-8", "surrogateescape"))
        with pytest.raises(ValueError, match=rf"manifest.json is not the manifest of a simulation run: {problem}.*; "
                                             r"it is damaged: move the run directory aside"):
            directory.read_manifest()


@pytest.mark.parametrize(("components", "error", "message"), [
    ("", "ComponentError", "an empty path"),
    (5, "ComponentError", "neither a file path nor a dict"),
    ({"regions": []}, "ComponentError", "unknown key|missing"),
    ("builtin-as-dict", "ArgumentTypeError", "must be a component file path"),
])
def test_simulate_refuses_a_bad_component_source_before_any_work(components, error, message, tmp_path):
    from borabora_sim import load_components

    if components == "builtin-as-dict":
        components = load_components().to_json_dict()
    with pytest.raises(ValueError, match=message) as raised:
        simulate(2, ["random", "random"], components=components, n_jobs=1, out=tmp_path / "run")
    assert type(raised.value).__name__ == error
    assert not (tmp_path / "run").exists()


def test_the_advanced_side_of_bamboo_is_simulated_recorded_by_its_spec_and_replayed(tmp_path: Path) -> None:
    specs = ["heuristic", "random"]
    frame = run(6, specs, 3, out=tmp_path / "night", game="bamboo:mode=advanced")
    manifest = json.loads((tmp_path / "night" / "manifest.json").read_text())
    assert manifest["game"] == "bamboo:mode=advanced"
    assert RunDirectory(tmp_path / "night").read_manifest().game == "bamboo:mode=advanced"
    assert (frame["hp_night_spaces"] != 0).any(), "the nighttime side's empty typed spaces cost HP"
    day = run(6, specs, 3, out=tmp_path / "day", game="bamboo:mode=normal")
    assert json.loads((tmp_path / "day" / "manifest.json").read_text())["game"] == "bamboo"
    assert (day["hp_night_spaces"] == 0).all()
    rows = frame[frame["game_id"] == 1]
    log = replay(int(rows["game_seed"].iloc[0]), rows["spec"].astype(str).tolist(), game=manifest["game"])
    assert log[-3].startswith(f"final scores {rows['hp'].tolist()}")
    assert_same_games(run(6, specs, 3, out=tmp_path / "night", resume=True, game="bamboo:mode=advanced"), frame)
    with pytest.raises(ValueError, match=r"holds a different run .*game 'bamboo:mode=advanced' there, 'bamboo' asked"):
        run(6, specs, 3, out=tmp_path / "night", resume=True, game="bamboo")


def test_the_default_options_are_left_out_of_the_spec_and_the_run_fingerprint() -> None:
    bamboo = check_config(4, ["random", "random"], 1, 1, "loky", None, game="bamboo")
    assert check_config(4, ["random", "random"], 1, 1, "loky", None, game="bamboo:mode=normal") == bamboo
    assert bamboo.game == "bamboo"
    bora_bora = check_config(4, ["random", "random"], 1, 1, "loky", None)
    assert check_config(4, ["random", "random"], 1, 1, "loky", None, game="bora_bora:").fingerprint == \
        bora_bora.fingerprint
    with pytest.raises(ValueError, match="option mode must be one of normal, advanced, got 'night'"):
        simulate(2, ["random", "random"], n_jobs=1, game="bamboo:mode=night")
