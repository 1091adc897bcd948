"""`borabora simulate --out DIR --resume` where DIR holds no run (missing, empty, or left by a run stopped before it
wrote its manifest) is refused in one line, exit status 2, and writes nothing: it does not play a run of the
default options in place of the one meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from borabora_sim.cli import main
from borabora_sim.files import temporary_name
from borabora_sim.runs import MANIFEST


def killed_before_its_manifest(folder: Path) -> None:
    """What a run killed in its first second leaves: the folder and half of its manifest's temporary."""
    folder.mkdir()
    temporary_name(folder / MANIFEST).write_bytes(b'{"games": 10')


@pytest.mark.parametrize("place", ["missing", "empty", "killed before its manifest"])
@pytest.mark.parametrize("options", [[], ["--game", "bamboo", "--games", "6", "--players", "random,random"]])
def test_a_resume_of_a_folder_holding_no_run_is_refused_and_writes_nothing(
        place: str, options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    if place == "empty":
        out.mkdir()
    elif place == "killed before its manifest":
        killed_before_its_manifest(out)
    before = sorted(tmp_path.rglob("*"))
    assert main(["simulate", "--out", str(out), "--resume", "--jobs", "1", "--quiet", *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"borabora simulate: error: {out} holds no run to resume (no manifest.json: the run was "
                            f"never started there, or was stopped before it began); start it again with borabora "
                            f"simulate --out {out} and its options (--game, --games, --players, --seed), without "
                            "--resume\n")
    assert sorted(tmp_path.rglob("*")) == before
