"""Every loader of the files tuning and training write, and of the learned weights, refuses a damaged or foreign
file in one line that names it and says what to do, and never runs code from a file: each is fed an empty, a
truncated, a foreign (PNG, text, another format) and a hostile file (a pickle, an .npz with an object array, JSON
nested to exhaust the parser)."""

from __future__ import annotations

import io
import json
import pickle
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cma")

from borabora_sim import tune as tuning
from borabora_sim.cli import main
from borabora_sim.learned import load_weights, manifest
from borabora_sim.train import TrainConfig, train

TUNE = {"budget": 16, "games_per_eval": 4, "popsize": 2, "validation_games": 4, "progress": False}
TRAIN = TrainConfig(games=8, rounds=0, epochs=1, hidden=2)       # the settings of the command below
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489")


class Hostile:
    """Unpickled, writes a marker file: what a crafted file does to a loader that unpickles it."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        return Path.write_text, (self.marker, "code from a file ran")


def array_names(good: bytes) -> list[str]:
    """The names of the arrays of a good .npz file (of a JSON file: one name)."""
    if not zipfile.is_zipfile(io.BytesIO(good)):
        return ["w1"]
    with np.load(io.BytesIO(good)) as data:
        return list(data.files)


def object_npz(good: bytes, marker: Path) -> bytes:
    """The arrays a loader expects, the first an object array holding a Hostile."""
    names = array_names(good)
    buffer = io.BytesIO()
    np.savez(buffer, **{names[0]: np.array([Hostile(marker)], dtype=object)}, **{n: np.zeros(1) for n in names[1:]})
    return buffer.getvalue()


def zip_of_junk(good: bytes) -> bytes:
    """A zip archive with the members a loader expects, none of them an array."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in array_names(good):
            archive.writestr(f"{name}.npy", b"not an array")
    return buffer.getvalue()


def huge_npz(good: bytes) -> bytes:
    """The arrays a loader expects, each announcing a trillion numbers and holding a few."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in array_names(good):
            with archive.open(f"{name}.npy", "w") as member:
                np.lib.format.write_array_header_1_0(member, {"descr": "<f8", "fortran_order": False,
                                                              "shape": (10**12,)})
                member.write(bytes(64))
    return buffer.getvalue()


def plain_npy() -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.arange(3.0))
    return buffer.getvalue()


# Bad contents from the good file's bytes and the marker a hostile one would write
BAD: dict[str, Callable[[bytes, Path], bytes]] = {
    "empty": lambda good, marker: b"",
    "truncated": lambda good, marker: good[:len(good) // 2],
    "cut at the end": lambda good, marker: good[:-7],
    "png": lambda good, marker: PNG,
    "text": lambda good, marker: b"weights: see the other file\n",
    "json of something else": lambda good, marker: b'{"weights": [1, 2, 3]}\n',
    "npy, not npz": lambda good, marker: plain_npy(),
    "zip without arrays": lambda good, marker: zip_of_junk(good),
    "pickle that writes a file": lambda good, marker: pickle.dumps(Hostile(marker)),
    "npz with an object array": lambda good, marker: object_npz(good, marker),
    "npz announcing a huge array": lambda good, marker: huge_npz(good),
    "json nested too deeply": lambda good, marker: b"[" * 200_000 + b"]" * 200_000,
    "json with NaN": lambda good, marker: b'{"weights": NaN}',
}


def test_the_hostile_files_do_run_code_when_unpickled(tmp_path: Path) -> None:
    pickle.loads(BAD["pickle that writes a file"](b"", tmp_path / "a"))
    with np.load(io.BytesIO(BAD["npz with an object array"](b"", tmp_path / "b")), allow_pickle=True) as data:
        data["w1"]
    assert (tmp_path / "a").exists() and (tmp_path / "b").exists()


@pytest.fixture(scope="module")
def tuning_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tune") / "run"
    tuning.tune(out=out, **TUNE)
    return out


@pytest.fixture(scope="module")
def training_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("train")
    train(TRAIN, out=folder / "w.npz", work=folder / "work", progress=False)
    return folder


def resume_tuning(folder: Path) -> object:
    return tuning.tune(out=folder, resume=True, **TUNE)


def train_again(folder: Path) -> object:
    return train(TRAIN, out=folder / "again.npz", work=folder / "work", progress=False)


# loader: (the run it needs, the file fed to it, what loads it, the start of what the refusal says, what to do)
LOADERS: dict[str, tuple[str, str, Callable[[Path], object], str, str]] = {
    "tuning state": ("tuning_run", tuning.STATE, resume_tuning, "is not a tuning state",
                     "delete it to start the run over in"),
    "tuning configuration": ("tuning_run", tuning.CONFIG, resume_tuning, "is not the configuration of a tuning run",
                             "choose another directory"),
    "training configuration": ("training_run", "work/config.json", train_again,
                               "is not the configuration of a training run", "use another --work directory"),
    "chunk of games": ("training_run", "work/round0_0000000.npz", train_again, "is not a chunk of training games",
                       "delete it and run the same command again"),
    "learned weights": ("training_run", "w.npz", lambda folder: load_weights(folder / "w.npz"),
                        "is not a learned-evaluation file", "give a .npz file written by borabora train-learned"),
    "manifest of weights": ("training_run", "w.json", lambda folder: manifest(folder / "w.json"),
                            "is not the manifest of learned weights",
                            "give the .json file borabora train-learned wrote"),
}


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("loader", LOADERS)
def test_a_loader_refuses_a_bad_file_in_one_line_without_running_it(loader: str, bad: str, tmp_path: Path,
                                                                     request: pytest.FixtureRequest) -> None:
    run, name, load, refusal, remedy = LOADERS[loader]
    folder = tmp_path / "copy"
    shutil.copytree(request.getfixturevalue(run), folder)
    target, marker = folder / name, tmp_path / "marker"
    contents = BAD[bad](target.read_bytes(), marker)
    target.write_bytes(contents)
    others = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    with pytest.raises(ValueError) as error:
        load(folder)
    message = str(error.value)
    assert message.startswith(f"{target} {refusal}") and remedy in message and "\n" not in message
    assert not marker.exists()
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == others     # nothing changed


def test_the_cli_refuses_a_hostile_tuning_state_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, marker = tmp_path / "run", tmp_path / "marker"
    args = ["tune", "--out", str(out), "--budget", "16", "--games-per-eval", "4", "--popsize", "2",
            "--validation-games", "4", "--quiet"]
    assert main(args) == 0
    (out / tuning.STATE).write_bytes(pickle.dumps(Hostile(marker)))
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    assert capsys.readouterr().err == (f"borabora tune: error: {out / tuning.STATE} is not a tuning state: not UTF-8 "
                                       f"text; delete it to start the run over in {out}, or choose another "
                                       "directory\n")
    assert not marker.exists()


def test_the_cli_refuses_a_truncated_chunk_in_one_line(training_run: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    shutil.copytree(training_run / "work", work)
    chunk = work / "round0_0000000.npz"
    chunk.write_bytes(chunk.read_bytes()[:100])
    assert main(["train-learned", "--games", "8", "--rounds", "0", "--epochs", "1", "--hidden", "2", "--out",
                 str(tmp_path / "w.npz"), "--work", str(work), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"borabora train-learned: error: {chunk} is not a chunk of training games: truncated, "
                          "damaged or unsafe (File is not a zip file)")
    assert err.endswith("; delete it and run the same command again: its games are played again\n")
    assert err.count("\n") == 1 and not (tmp_path / "w.npz").exists()


def test_a_deleted_chunk_is_played_again_to_the_same_weights(training_run: Path, tmp_path: Path) -> None:
    shutil.copytree(training_run / "work", tmp_path / "work")
    (tmp_path / "work" / "round0_0000000.npz").unlink()
    again = train_again(tmp_path)
    assert np.allclose(again.w1, load_weights(training_run / "w.npz").w1, atol=1e-5)


def state_record(folder: Path) -> dict:
    record: dict = json.loads((folder / tuning.STATE).read_text())
    return record


def nudge_a_candidate(record: dict) -> None:
    record["asked"][0][0][0] += 1e-9


def rank_the_last_candidates_the_other_way(record: dict) -> None:
    first, second = record["told"][-1]
    record["told"][-1] = [1.0, 0.0] if first <= second else [0.0, 1.0]


def saved_by_another_cma(record: dict) -> None:
    record["cma"] = "0.0"
    nudge_a_candidate(record)


@pytest.mark.parametrize(("edit", "problem"), [
    (nudge_a_candidate, "is not a state of this run: replayed, generation 0 draws other candidates than it saved"),
    (saved_by_another_cma, "was saved with cma 0.0, and cma"),
    (rank_the_last_candidates_the_other_way, "is not a state of this run: its challenger is not the optimiser's mean"),
    (lambda r: r.update(log_size=r["log_size"] + 1), "log_size is"),
    (lambda r: r.update(told=r["told"][:-1]), "asked must be a list of 1 items"),
    (lambda r: r["asked"][0].append(r["asked"][0][0]), "asked[0] must be a list of 2 items"),
    (lambda r: r["incumbent"].__setitem__(0, "1.0"), "incumbent must be a list of"),
    (lambda r: r["history"][1].update(sigma=True), "history[1] must be a list of 3 finite numbers"),
    (lambda r: r.update(games=-1), "games must be a count"),
    (lambda r: r["history"][1].update(generation=0), "history[1] must be an object"),
    (lambda r: r.update(challenger=None), "challenger must be null before the first generation"),
    (lambda r: r.update(version=2), "its format is 'borabora_sim tuning state' version 2"),
    (lambda r: r.update(extra=1), "it holds the keys"),
])
def test_a_tuning_state_that_does_not_fit_its_run_is_refused(tuning_run: Path, tmp_path: Path,
                                                             edit: Callable[[dict], None], problem: str) -> None:
    folder = tmp_path / "run"
    shutil.copytree(tuning_run, folder)
    record = state_record(folder)
    edit(record)
    (folder / tuning.STATE).write_text(json.dumps(record))
    with pytest.raises(ValueError, match=re.escape(problem)) as error:
        resume_tuning(folder)
    assert str(error.value).startswith(str(folder / tuning.STATE)) and "\n" not in str(error.value)


def test_the_state_of_an_earlier_version_is_not_unpickled(tuning_run: Path, tmp_path: Path) -> None:
    folder, marker = tmp_path / "run", tmp_path / "marker"
    shutil.copytree(tuning_run, folder)
    (folder / tuning.OLD_STATE).write_bytes(pickle.dumps(Hostile(marker)))
    with pytest.raises(ValueError, match=r"state\.pkl is the state of a run of an earlier version, which is not read"):
        resume_tuning(folder)
    assert not marker.exists()


def test_ctrl_c_with_a_damaged_state_says_so_in_one_line(tuning_run: Path, tmp_path: Path) -> None:
    folder, marker = tmp_path / "run", tmp_path / "marker"
    shutil.copytree(tuning_run, folder)
    assert tuning.interrupted_message(folder, ["tune"]).startswith("interrupted; 2 finished generation(s) are saved")
    (folder / tuning.STATE).write_bytes(pickle.dumps(Hostile(marker)))
    assert tuning.interrupted_message(folder, ["tune"]) == (
        f"interrupted; {folder / tuning.STATE} is not a tuning state: not UTF-8 text; delete it to start the run over "
        f"in {folder}, or choose another directory")
    assert not marker.exists()


def test_a_deleted_state_starts_the_run_over_as_a_new_one(tuning_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(tuning_run, folder)
    (folder / tuning.STATE).unlink()
    again = resume_tuning(folder)
    assert isinstance(again, tuning.TuneResult)
    assert (folder / tuning.EVALUATIONS).read_bytes() == (tuning_run / tuning.EVALUATIONS).read_bytes()
    assert (folder / tuning.STATE).read_bytes() == (tuning_run / tuning.STATE).read_bytes()
