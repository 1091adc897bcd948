"""A flipped byte in a finished file is named, not used: a run's manifest records the sha256 of each of its chunk
files, and `borabora report`, a resume and the training and tuning work directories check them on every read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from borabora_sim.cli import main
from borabora_sim.expert_iteration import ExpertConfig, train_network
from borabora_sim.runs import MANIFEST, RunDirectory
from borabora_sim.simulate import simulate
from borabora_sim.train import TrainConfig, train

GAMES, CHUNK, PLAYERS = 12, 3, ["random", "random", "random"]


def play(out: Path, resume: bool = False) -> None:
    simulate(GAMES, PLAYERS, seed=5, chunk_size=CHUNK, out=out, resume=resume, n_jobs=1, progress=False, load=False)


def flip_byte(path: Path, where: float = 0.5) -> None:
    """Flips one bit of the byte at `where` (a share of the file's length)."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * where)] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.fixture
def finished_run(tmp_path: Path) -> Path:
    out = tmp_path / "run"
    play(out)
    return out


def chunk_files(out: Path) -> list[Path]:
    return [path for table in ("players", "games") for _, _, path in RunDirectory(out).files(table)]


def test_the_manifest_records_the_sha256_of_every_finished_file(finished_run: Path) -> None:
    recorded = json.loads((finished_run / MANIFEST).read_text())["files"]
    assert sorted(recorded) == sorted(path.relative_to(finished_run).as_posix() for path in chunk_files(finished_run))
    assert all(len(digest) == 64 for digest in recorded.values())


@pytest.mark.parametrize("where", [0.1, 0.3, 0.5, 0.7, 0.9])
def test_report_names_a_file_with_one_flipped_byte(where: float, finished_run: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    damaged = RunDirectory(finished_run).files("players")[0][2]
    flip_byte(damaged, where)
    assert main(["report", str(finished_run)]) == 2
    stderr = capsys.readouterr().err
    assert stderr.count("\n") == 1
    assert stderr.startswith(f"borabora report: error: {damaged} is damaged (")
    assert f"delete it and resume the run (simulate --resume --out {finished_run})" in stderr


@pytest.mark.parametrize("table", ["players", "games"])
def test_a_resume_names_a_file_with_one_flipped_byte_and_deletes_nothing(table: str, finished_run: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    damaged = RunDirectory(finished_run).files(table)[0][2]
    flip_byte(damaged)
    before = sorted(finished_run.rglob("*"))
    with pytest.raises(ValueError, match=rf"^{damaged} is damaged \(.*sha256.*\); delete it and resume the run"):
        play(finished_run, resume=True)
    assert main(["simulate", "--out", str(finished_run), "--resume", "--jobs", "1", "--quiet"]) == 2
    assert f"error: {damaged} is damaged (" in capsys.readouterr().err
    assert sorted(finished_run.rglob("*")) == before


def test_deleting_the_damaged_file_and_resuming_gives_the_uninterrupted_tables(finished_run: Path,
                                                                               tmp_path: Path) -> None:
    damaged = RunDirectory(finished_run).files("players")[0][2]
    flip_byte(damaged)
    damaged.unlink()                                        # what the message says to do
    play(finished_run, resume=True)
    play(tmp_path / "whole")
    again, whole = RunDirectory(finished_run).read(), RunDirectory(tmp_path / "whole").read()
    assert again.drop(columns="wall_time").equals(whole.drop(columns="wall_time"))
    recorded = json.loads((finished_run / MANIFEST).read_text())["files"]
    assert sorted(recorded) == sorted(p.relative_to(finished_run).as_posix() for p in chunk_files(finished_run))


def test_a_run_written_before_manifests_recorded_digests_is_read_and_resumed(
        finished_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Accepted as it is (its files cannot be checked); a resume records their digests, and from then on they are
    checked."""
    manifest = finished_run / MANIFEST
    old = json.loads(manifest.read_text())
    del old["files"]
    manifest.write_text(json.dumps(old, indent=2))
    assert main(["report", str(finished_run)]) == 0
    capsys.readouterr()
    play(finished_run, resume=True)
    recorded = json.loads(manifest.read_text())["files"]
    assert len(recorded) == len(chunk_files(finished_run))
    damaged = chunk_files(finished_run)[0]
    flip_byte(damaged)
    assert main(["report", str(finished_run)]) == 2
    assert f"{damaged} is damaged (" in capsys.readouterr().err


def test_a_chunk_file_the_manifest_does_not_record_is_refused(finished_run: Path) -> None:
    directory = RunDirectory(finished_run)
    last = directory.files("players")[-1][2]
    stray = last.with_name("chunk-0000009.parquet")
    stray.write_bytes(last.read_bytes())
    with pytest.raises(ValueError, match=rf"^{stray} is not one of the finished files recorded in {finished_run}"):
        play(finished_run, resume=True)


# =============================================================================
# The work directories of training
# =============================================================================
LEARNED = TrainConfig(games=10, rounds=0, epochs=1, hidden=4, players=(2,))
EXPERT = ExpertConfig(game="pig", imitation_games=12, generations=0, epochs=1, hidden=(4,), gate_games=4)


def train_learned(tmp_path: Path) -> None:
    train(LEARNED, out=tmp_path / "w.npz", work=tmp_path / "work", progress=False)


def train_expert(tmp_path: Path) -> None:
    train_network(EXPERT, work=tmp_path / "work", log=lambda line: None)


def flip_digit(path: Path) -> None:
    """Turns the last digit of a JSON file into another: the file still reads, with another number."""
    text = path.read_text()
    at = max(text.rfind(digit) for digit in "0123456789")
    path.write_text(text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1:])


@pytest.mark.parametrize(("run", "damaged", "damage"), [(train_learned, "round0_0000000.npz", flip_byte),
                                                        (train_expert, "gen00/chunk-0000010.npz", flip_byte),
                                                        (train_expert, "gen00/network.npz", flip_byte),
                                                        (train_expert, "gen00/manifest.json", flip_digit)])
def test_a_training_run_names_a_damaged_finished_file(run: Callable[[Path], None], damaged: str,
                                                      damage: Callable[[Path], None], tmp_path: Path) -> None:
    """A chunk's arrays are checked as they are read (an .npz file's members carry a CRC-32); the digest names a
    change that still reads, such as another number in a generation's manifest."""
    run(tmp_path)
    path = tmp_path / "work" / damaged
    recorded = json.loads((tmp_path / "work" / "digests.json").read_text())
    assert damaged in recorded
    damage(path)
    with pytest.raises(ValueError, match=rf"^{path} (is damaged \(its bytes differ from those recorded when it was "
                                         r"written: its sha256 has changed\)|is not a chunk of [a-z-]+ games: "
                                         r"truncated, damaged or unsafe \(Bad CRC-32 .*\)); delete it"):
        run(tmp_path)


@pytest.mark.parametrize("run", [train_learned, train_expert])
def test_a_training_work_directory_written_before_digests_is_continued_and_recorded(run: Callable[[Path], None],
                                                                                    tmp_path: Path) -> None:
    run(tmp_path)
    record = tmp_path / "work" / "digests.json"
    written = json.loads(record.read_text())
    record.unlink()
    run(tmp_path)
    assert json.loads(record.read_text()) == written
