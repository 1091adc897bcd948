"""A flipped byte in a finished file of a tuning run is named, not used: the run directory's digests.json records the
sha256 of each file as it is written (of the evaluations its state counts, for the log), and a resume checks them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("cma")

from borabora_sim import files
from borabora_sim import tune as tuning
from borabora_sim.cli import main

TUNE = {"budget": 16, "games_per_eval": 4, "popsize": 2, "validation_games": 4, "progress": False}
ARGS = ["--budget", "16", "--games-per-eval", "4", "--popsize", "2", "--validation-games", "4", "--quiet"]
FINISHED = (tuning.CONFIG, tuning.STATE, tuning.EVALUATIONS, tuning.RESULT, tuning.STYLE)
# What each refusal says to do, after the directory's path
REMEDIES = {tuning.CONFIG: "choose another directory",
            tuning.STATE: "delete it to start the run over in {out}, or choose another directory",
            tuning.EVALUATIONS: "delete it and state.json to start the run over in {out}, or choose another directory",
            tuning.RESULT: "delete it and resume the run: it is written again as the run ends",
            tuning.STYLE: "delete it and resume the run: it is written again as the run ends"}
# Where a changed digit still reads as a file of the run: a state's history is not replayed (its candidates are)
DIGIT_BEFORE = {tuning.STATE: '"told"'}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tune") / "run"
    tuning.tune(out=out, **TUNE)
    return out


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


def resume(out: Path) -> tuning.TuneResult:
    return tuning.tune(out=out, resume=True, **TUNE)


def contents(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def recorded(out: Path) -> dict[str, str]:
    record: dict[str, str] = json.loads((out / tuning.DIGESTS).read_text())
    return record


def flip_byte(path: Path, where: float) -> None:
    """Flips one bit of the byte at `where` (a share of the file's length)."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * where)] ^= 0x01
    path.write_bytes(bytes(data))


def flip_digit(path: Path) -> None:
    """Turns the last digit of a JSON file (before DIGIT_BEFORE's text, if any) into another: the file still reads,
    with another number."""
    text = path.read_text()
    end = text.find(DIGIT_BEFORE[path.name]) if path.name in DIGIT_BEFORE else len(text)
    at = max(text.rfind(digit, 0, end) for digit in "0123456789")
    path.write_text(text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1:])


def test_the_record_holds_the_sha256_of_every_finished_file(finished: Path) -> None:
    assert recorded(finished) == {name: files.sha256(finished / name) for name in FINISHED}


@pytest.mark.parametrize("name", FINISHED)
def test_a_resume_names_a_finished_file_with_a_changed_digit(name: str, run: Path) -> None:
    """A change that still reads as a file of the run (another number) is caught by its digest alone."""
    path = run / name
    flip_digit(path)
    before = contents(run)
    remedy = REMEDIES[name].format(out=run)
    with pytest.raises(ValueError, match=rf"^{re.escape(str(path))} is damaged \(its bytes differ from those "
                                         rf"recorded when it was written: its sha256 has changed\); "
                                         rf"{re.escape(remedy)}$"):
        resume(run)
    assert contents(run) == before                     # nothing played, nothing rewritten


@pytest.mark.parametrize("where", [0.2, 0.5, 0.8])
@pytest.mark.parametrize("name", [tuning.EVALUATIONS, tuning.RESULT, tuning.STYLE])
def test_a_resume_names_a_file_it_does_not_parse_with_a_flipped_bit(name: str, where: float, run: Path) -> None:
    """The files a resume does not read field by field (the configuration and the state are, and refuse most
    flipped bits as not what they must be) are caught by their digest alone."""
    path = run / name
    flip_byte(path, where)
    remedy = REMEDIES[name].format(out=run)
    with pytest.raises(ValueError, match=rf"^{re.escape(str(path))} is damaged \(.*\); {re.escape(remedy)}$"):
        resume(run)


def test_borabora_tune_names_a_damaged_file_in_one_line(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = run / tuning.EVALUATIONS
    flip_byte(path, 0.5)
    assert main(["tune", "--out", str(run), *ARGS, "--resume"]) == 2
    assert capsys.readouterr().err == (f"borabora tune: error: {path} is damaged (its bytes differ from those recorded "
                                       f"when it was written: its sha256 has changed); "
                                       f"{REMEDIES[tuning.EVALUATIONS].format(out=run)}\n")


def test_an_untouched_run_resumes_and_its_record_still_holds(finished: Path, run: Path) -> None:
    again = resume(run)
    assert again.weights == json.loads((finished / tuning.RESULT).read_text())["weights"]
    assert recorded(run) == {name: files.sha256(run / name) for name in FINISHED} == recorded(finished)


def test_a_deleted_state_and_log_start_the_run_over_with_a_new_record(finished: Path, run: Path) -> None:
    """What the refusal of a damaged log says to do."""
    flip_digit(run / tuning.EVALUATIONS)
    (run / tuning.EVALUATIONS).unlink()
    (run / tuning.STATE).unlink()
    resume(run)
    assert contents(run) == contents(finished)
    assert recorded(run) == {name: files.sha256(run / name) for name in FINISHED}


def test_a_run_written_before_the_record_is_resumed_and_recorded_as_it_is(finished: Path, run: Path) -> None:
    """Accepted as it is (its files cannot be checked); the resume records their digests, checked from then on."""
    (run / tuning.DIGESTS).unlink()
    resume(run)
    assert recorded(run) == recorded(finished)
    flip_digit(run / tuning.STATE)
    with pytest.raises(ValueError, match=rf"^{re.escape(str(run / tuning.STATE))} is damaged \("):
        resume(run)


def test_a_run_interrupted_after_a_state_was_recorded_keeps_that_state(finished: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped between recording the digest of the second generation's state and renaming it into place, the run
    resumes with that state (the hidden temporary holding it is renamed, no generation played again)."""
    out = tmp_path / "run"
    renames = files.rename

    def stopped_at_the_second_state(source: Path, target: Path) -> None:
        if target.name == tuning.STATE and target.exists():
            raise KeyboardInterrupt
        renames(source, target)

    monkeypatch.setattr(files, "rename", stopped_at_the_second_state)
    with pytest.raises(KeyboardInterrupt):
        tuning.tune(out=out, **TUNE)
    monkeypatch.setattr(files, "rename", renames)
    assert files.temporary_name(out / tuning.STATE).exists()
    assert recorded(out)[tuning.STATE] == files.sha256(files.temporary_name(out / tuning.STATE))
    calls = 0

    plays = tuning.play_deals

    def played(*args: Any) -> np.ndarray:
        nonlocal calls
        calls += 1
        return plays(*args)

    monkeypatch.setattr(tuning, "play_deals", played)
    resume(out)
    assert calls == 2                                   # the validation's, of the tuned and the start weights
    assert contents(out) == contents(finished)


def test_a_damaged_record_is_refused_in_one_line(run: Path) -> None:
    record = run / tuning.DIGESTS
    record.write_text(json.dumps({**recorded(run), tuning.STATE: "not a digest"}))
    with pytest.raises(ValueError, match=rf"^{re.escape(str(record))} is not the record of a tuning run's files: it "
                                         rf"must hold a JSON object of file names and their sha256 \(64 hex digits\); "
                                         rf"delete it to resume the run in {re.escape(str(run))} with its files as "
                                         rf"they are, or choose another directory$"):
        resume(run)
