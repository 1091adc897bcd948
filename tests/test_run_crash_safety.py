"""A run directory survives a kill at any moment: the run is interrupted at every write, rename, delete and
folder creation in turn (borabora_sim.files is the only place a run's files change), resumed, and compared
with an uninterrupted run file by file; on both games and on the loky and Dask backends. A real SIGKILL at the
merge's steps, and damaged files named in one line by a resume and by `borabora report`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import borabora_sim
import borabora_sim.runs as runs
from borabora_sim import files
from borabora_sim.cli import main
from borabora_sim.runs import RunDirectory
from borabora_sim.simulate import simulate

ROOT = Path(borabora_sim.__file__).resolve().parent.parent
GAMES = 14
CHUNK = 3                   # five chunks: two merged pairs and a last chunk alone (FILE_GAMES = 6 below)
RUNS = {"bora_bora": ["random", "random", "random"], "bamboo": ["random", "random"]}
OPERATIONS = ("write_temporary", "rename", "remove", "make_directory")


class Killed(BaseException):
    """The run stops at one file operation, as under a kill: no `except Exception` of the run catches it."""


class Interrupter:
    """Counts the run's file operations and stops the run at operation number `at` (None: never), before it
    happens; an interrupted write leaves half a temporary file behind, as a kill during the write would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, at: int | None = None) -> None:
        self.at = at
        self.done: list[str] = []
        for name in OPERATIONS:
            monkeypatch.setattr(files, name, self._wrap(name, getattr(files, name)))

    def _wrap(self, name: str, operation: Callable[..., None]) -> Callable[..., None]:
        def interrupted(*args: object) -> None:
            if len(self.done) == self.at:
                if name == "write_temporary":
                    Path(args[0]).write_bytes(b"PAR1 half a file")     # type: ignore[arg-type]
                raise Killed(f"{name}{args}")
            self.done.append(f"{name} {args[0]}")
            operation(*args)
        return interrupted


def contents(out: Path) -> dict[str, pa.Table | bytes]:
    """Every file of a run directory by relative path: Parquet files as tables without the timing column (the
    only column that differs between two runs of the same games), the manifest as bytes, except the digests of the
    files it records (of their timing column too): the names of the files recorded."""
    found: dict[str, pa.Table | bytes] = {}
    for path in sorted(out.rglob("*")):
        if path.is_file():
            name = str(path.relative_to(out))
            found[name] = (pq.read_table(path).drop_columns(["wall_time"]) if path.suffix == ".parquet"
                           else path.read_bytes())
    if runs.MANIFEST in found:
        manifest = json.loads(found[runs.MANIFEST])       # type: ignore[arg-type]
        manifest[runs.FILES_KEY] = sorted(manifest[runs.FILES_KEY])
        found[runs.MANIFEST] = json.dumps(manifest).encode()
    return found


def assert_same_files(out: Path, reference: dict[str, pa.Table | bytes]) -> None:
    found = contents(out)
    assert sorted(found) == sorted(reference), "the same files, and nothing else, as an uninterrupted run"
    for name, expected in reference.items():
        if isinstance(expected, pa.Table):
            assert found[name].equals(expected, check_metadata=True), name      # type: ignore[union-attr]
        else:
            assert found[name] == expected, name


@pytest.fixture(autouse=True)
def two_chunks_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "FILE_GAMES", 2 * CHUNK)


@pytest.fixture
def dask_scheduler() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def backend_options(backend: str, request: pytest.FixtureRequest) -> dict[str, object]:
    if backend == "dask":
        return {"backend": "dask", "n_jobs": 2, "scheduler": request.getfixturevalue("dask_scheduler")}
    return {"backend": "loky", "n_jobs": 2}


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["loky", "dask"])
@pytest.mark.parametrize("game", sorted(RUNS))
def test_a_kill_at_every_file_operation_resumes_to_the_uninterrupted_files(
        game: str, backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    options = backend_options(backend, request)

    def play(out: Path, resume: bool = False) -> None:
        simulate(GAMES, RUNS[game], seed=5, game=game, chunk_size=CHUNK, out=out, resume=resume, load=False,
                 progress=False, **options)

    with monkeypatch.context() as counting:
        counter = Interrupter(counting)
        play(tmp_path / "whole")
    reference = contents(tmp_path / "whole")
    assert len(reference) == 1 + 2 * 3              # the manifest; per table two merged files and one single
    kinds = {line.split()[0] for line in counter.done}
    assert kinds == set(OPERATIONS), kinds
    for at in range(len(counter.done)):
        out = tmp_path / f"killed-at-{at}"
        with monkeypatch.context() as patched:
            Interrupter(patched, at)
            with pytest.raises(Killed):
                play(out)
        play(out, resume=True)
        assert_same_files(out, reference)


@pytest.mark.slow
def test_a_kill_during_a_resume_is_resumed_in_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed at the merge's first rename (the merged games file in place, the players one not), then killed
    again at every step of the resume that repairs it."""
    def play(out: Path, resume: bool = False) -> None:
        simulate(GAMES, RUNS["bamboo"], seed=2, game="bamboo", chunk_size=CHUNK, out=out, resume=resume,
                 load=False, progress=False, n_jobs=1)

    play(tmp_path / "whole")
    reference = contents(tmp_path / "whole")
    with monkeypatch.context() as counting:
        counter = Interrupter(counting)
        play(tmp_path / "count")
    merged = next(i for i, line in enumerate(counter.done) if line.startswith("rename") and "-0000001.parquet" in line)
    first_kill = merged + 3             # after the merged games file is renamed into place

    def killed_once(out: Path) -> None:
        with monkeypatch.context() as patched:
            Interrupter(patched, first_kill)
            with pytest.raises(Killed):
                play(out)

    killed_once(tmp_path / "count-resume")
    with monkeypatch.context() as counting:
        resume_counter = Interrupter(counting)
        play(tmp_path / "count-resume", resume=True)
    assert any(line.startswith("remove") for line in resume_counter.done), "the resume repairs something"
    for at in range(len(resume_counter.done)):
        out = tmp_path / f"killed-again-at-{at}"
        killed_once(out)
        with monkeypatch.context() as patched:
            Interrupter(patched, at)
            with pytest.raises(Killed):
                play(out, resume=True)
        play(out, resume=True)
        assert_same_files(out, reference)


KILLED_RUN = """
import os, signal, sys
from borabora_sim import files, runs, simulate as sim

runs.FILE_GAMES = {file_games}
count = 0
rename = files.rename

def rename_then_maybe_die(source, target):
    global count
    rename(source, target)
    count += 1
    if count == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)

files.rename = rename_then_maybe_die
sim.simulate({games}, {players!r}, seed=5, chunk_size={chunk}, n_jobs=1, out=sys.argv[1], progress=False,
             load=False)
"""


def test_a_real_sigkill_after_each_rename_of_a_merge_resumes_to_the_uninterrupted_files(tmp_path: Path) -> None:
    players = RUNS["bora_bora"]
    simulate(GAMES, players, seed=5, chunk_size=CHUNK, out=tmp_path / "whole", n_jobs=1, progress=False,
             load=False)
    reference = contents(tmp_path / "whole")
    script = KILLED_RUN.format(file_games=2 * CHUNK, games=GAMES, players=players, chunk=CHUNK)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    # renames: 1 the manifest, 2-9 chunks 0 and 1 (each file's digest recorded in the manifest before it), 10 and
    # 11 the merged games file of chunks 0-1, 12 and 13 its players file
    for renames in (11, 13):
        out = tmp_path / f"killed-after-rename-{renames}"
        done = subprocess.run([sys.executable, "-c", script, str(out), str(renames)], env=env, cwd=tmp_path,
                              capture_output=True, timeout=120)
        assert done.returncode == -signal.SIGKILL, done.stderr.decode()
        simulate(GAMES, players, seed=5, chunk_size=CHUNK, out=out, resume=True, n_jobs=1, progress=False,
                 load=False)
        assert_same_files(out, reference)


@pytest.fixture
def finished_run(tmp_path: Path) -> Path:
    out = tmp_path / "run"
    simulate(GAMES, RUNS["bora_bora"], seed=5, chunk_size=CHUNK, out=out, n_jobs=1, progress=False, load=False)
    return out


def damage(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


@pytest.mark.parametrize("table", ["players", "games"])
def test_resume_names_a_damaged_file_and_what_to_do(table: str, finished_run: Path) -> None:
    damaged = RunDirectory(finished_run).chunk_file(table, 0, 1)
    damage(damaged)
    with pytest.raises(ValueError, match=rf"^{damaged} is damaged \(.*\); delete it and resume the run "
                                         rf"\(simulate --resume --out {finished_run}\): its games are played again$"):
        simulate(GAMES, RUNS["bora_bora"], seed=5, chunk_size=CHUNK, out=finished_run, resume=True, n_jobs=1,
                 progress=False, load=False)
    assert damaged.exists(), "nothing is deleted on the way to the refusal"


def test_deleting_the_damaged_file_and_resuming_plays_its_games_again(finished_run: Path, tmp_path: Path) -> None:
    reference = contents(finished_run)
    directory = RunDirectory(finished_run)
    damage(directory.chunk_file("players", 2, 3))
    directory.chunk_file("players", 2, 3).unlink()       # what the message says to do
    assert directory.done_chunks() == {0, 1, 4}
    simulate(GAMES, RUNS["bora_bora"], seed=5, chunk_size=CHUNK, out=finished_run, resume=True, n_jobs=1,
             progress=False, load=False)
    assert_same_files(finished_run, reference)


def test_report_names_a_damaged_file_in_one_line(finished_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damaged = RunDirectory(finished_run).chunk_file("players", 4)
    damage(damaged)
    assert main(["report", str(finished_run)]) == 2
    stderr = capsys.readouterr().err
    assert stderr.count("\n") == 1
    assert stderr.startswith(f"borabora report: error: {damaged} is damaged (")
    assert f"delete it and resume the run (simulate --resume --out {finished_run})" in stderr


def test_a_players_file_without_its_games_file_is_named(finished_run: Path) -> None:
    directory = RunDirectory(finished_run)
    directory.chunk_file("games", 4).unlink()
    with pytest.raises(ValueError, match=r"chunk-0000004.parquet has no games file beside it \(games/chunk-0000004"
                                         r".parquet is missing\); delete it and resume again"):
        simulate(GAMES, RUNS["bora_bora"], seed=5, chunk_size=CHUNK, out=finished_run, resume=True, n_jobs=1,
                 progress=False, load=False)


def test_a_run_directory_is_never_written_into_a_folder_holding_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match=rf"{tmp_path} is not empty and holds no run \(no manifest.json; "
                                              r"found notes.txt\); choose a new or empty directory"):
        simulate(4, ["random", "random"], out=tmp_path, n_jobs=1, progress=False, load=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
