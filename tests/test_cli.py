"""The `borabora` command line: simulate (with --out, --resume, --plot), report, replay, play against the AI
with scripted input, bench, --help of every command, --version, splitting --players into specs, the summary
(added up chunk by chunk), and its promise: every bad invocation is refused before any work with one line on
stderr and exit status 2; Ctrl-C names the command that finishes the run; a closed pipe ends it quietly; no
worker outlives a killed run.

Commands run in-process through `borabora_sim.cli.main`; the installed console script and
`python -m borabora_sim` are started as subprocesses where the process itself is under test.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from functools import reduce
from operator import add
from pathlib import Path

import pandas as pd
import psutil
import pytest

import borabora_sim
import borabora_sim.runs as runs
import borabora_sim.simulate as sim
from borabora_sim import NUM_ACTIONS, BoraBora
from borabora_sim.cli import EXAMPLES, build_parser, main
from borabora_sim.cli.common import split_specs
from borabora_sim.cli.play import run as cmd_play
from borabora_sim.report import Summary, format_summary, run_summary
from borabora_sim.runs import RunDirectory

ROOT = Path(borabora_sim.__file__).resolve().parent.parent        # where the package is installed
REPOSITORY = Path(__file__).resolve().parent.parent              # the source tree of these tests
COMMANDS = tuple(EXAMPLES)                 # every command; build_parser() takes its --help examples here
PLAYERS = "heuristic,random,random"
GAMES = 12


def borabora(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Runs `borabora argv...` in-process: (exit status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def simulate_args(out: Path, *extra: str) -> list[str]:
    return ["simulate", "--games", str(GAMES), "--players", PLAYERS, "--jobs", "1", "--seed", "4",
            "--chunk-size", "5", "--quiet", "--out", str(out), *extra]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished `borabora simulate --out` run."""
    out = tmp_path_factory.mktemp("cli") / "run"
    assert main(simulate_args(out)) == 0
    return out


@pytest.fixture
def unmerged_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished run like run_dir, but with one file per chunk (so that single chunks can be taken away)."""
    monkeypatch.setattr(runs, "FILE_GAMES", 1)
    out = tmp_path / "unmerged"
    assert main(simulate_args(out)) == 0
    return out


def plots_written(stdout: str, asked: Path) -> list[Path]:
    """The PNG files a --plot option reported; the first is the path asked for, and each is a real PNG."""
    line = next(line for line in stdout.splitlines() if line.startswith(("plot written to ", "plots written to ")))
    paths = [Path(p) for p in line.split(" to ", 1)[1].split(", ")]
    assert paths[0] == asked
    for path in paths:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000, path
    return paths


def final_scores_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("final scores"))


# =============================================================================
# split_specs
# =============================================================================
@pytest.mark.parametrize(("text", "specs"), [
    ("heuristic,random", ["heuristic", "random"]),
    ("mcts:iterations=5,rollout=heuristic,random", ["mcts:iterations=5,rollout=heuristic", "random"]),
    ("heuristic:style=builder,fishing=never,heuristic,random",
     ["heuristic:style=builder,fishing=never", "heuristic", "random"]),
    ("mcts:iterations=5;heuristic:fishing=never", ["mcts:iterations=5", "heuristic:fishing=never"]),
    (" random , random ,", ["random", "random"]),
])
def test_split_specs_keeps_commas_inside_a_spec(text: str, specs: list[str]) -> None:
    assert split_specs(text) == specs


# =============================================================================
# simulate, report
# =============================================================================
def test_simulate_prints_the_summary_and_writes_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    status, stdout, stderr = borabora(capsys, *simulate_args(out, "--plot", tmp_path / "sim.png"))
    assert status == 0, stderr
    assert f"results in {out}" in stdout
    assert re.search(rf"^{GAMES} games in [\d.]+ s \([\d,]+ games/s\)$", stdout, re.M)
    assert "win rate by player" in stdout and "win rate by start position" in stdout
    assert "mean VP by source" in stdout and "decisions per game: mean" in stdout
    assert re.search(r"^heuristic\s+12\s", stdout, re.M) and re.search(r"^random\s+24\s", stdout, re.M)
    assert plots_written(stdout, tmp_path / "sim.png")
    frame = RunDirectory(out).read()
    assert len(frame) == GAMES * 3
    assert sorted(p.name for p in (out / "players").iterdir()) == ["chunk-0000000-0000002.parquet"]
    assert (out / "manifest.json").is_file()


def test_simulate_without_out_prints_the_summary_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, stdout, _ = borabora(capsys, "simulate", "--games", "6", "--players", "random,random", "--jobs", "1",
                                 "--quiet")
    assert status == 0
    assert stdout.startswith("6 games in ") and "results in" not in stdout
    assert list(tmp_path.iterdir()) == []


def test_simulate_resume_finishes_an_interrupted_run(unmerged_run: Path, run_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = unmerged_run
    RunDirectory(out).chunk_file("players", 1).unlink()       # as if killed before chunk 1 was in place
    status, stdout, stderr = borabora(capsys, *simulate_args(out, "--resume"))
    assert status == 0, stderr
    assert re.search(rf"^{GAMES} games$", stdout, re.M)
    assert RunDirectory(out).done_chunks() == {0, 1, 2}
    resumed, whole = RunDirectory(out).read(), RunDirectory(run_dir).read()
    assert resumed.drop(columns="wall_time").equals(whole.drop(columns="wall_time"))


@pytest.mark.parametrize("given", [[], ["--games", str(GAMES)], ["--players", PLAYERS, "--seed", "4"]])
def test_simulate_resume_takes_the_options_not_given_from_the_run(given: list[str], unmerged_run: Path,
                                                                  run_dir: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = unmerged_run
    RunDirectory(out).chunk_file("players", 2).unlink()
    status, stdout, stderr = borabora(capsys, "simulate", "--out", str(out), "--resume", "--jobs", "1", "--quiet",
                                      *given)
    assert status == 0, stderr
    assert re.search(rf"^{GAMES} games$", stdout, re.M)
    resumed, whole = RunDirectory(out).read(), RunDirectory(run_dir).read()
    assert resumed.drop(columns="wall_time").equals(whole.drop(columns="wall_time"))


def test_simulate_into_a_used_directory_without_resume_is_an_error(run_dir: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    status, _, stderr = borabora(capsys, *simulate_args(run_dir))
    assert status != 0
    assert stderr.count("\n") == 1 and stderr.startswith("borabora simulate: error: ")
    assert "--resume" in stderr


def test_report_summarises_a_run_directory_and_plots(tmp_path: Path, run_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "summary.png"
    status, stdout, stderr = borabora(capsys, "report", run_dir, "--plot", plot)
    assert status == 0, stderr
    assert stdout.splitlines()[0] == f"run: {GAMES} of {GAMES} games, players {PLAYERS.replace(',', ', ')}, seed 4"
    assert "win rate by player" in stdout and re.search(r"^heuristic\s+12\s", stdout, re.M)
    assert plots_written(stdout, plot)


def test_report_of_an_unfinished_run_counts_the_games_done(unmerged_run: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = unmerged_run
    RunDirectory(out).chunk_file("players", 2).unlink()       # games 10 and 11
    status, stdout, _ = borabora(capsys, "report", out)
    assert status == 0
    assert stdout.startswith(f"run: 10 of {GAMES} games")


def test_simulate_without_out_adds_up_the_same_summary_as_report(run_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    argv = simulate_args(run_dir)
    status, stdout, stderr = borabora(capsys, *argv[:argv.index("--out")])
    assert status == 0, stderr
    status, report, _ = borabora(capsys, "report", run_dir)
    assert status == 0
    assert stdout.split("\n", 1)[1] == report.split("\n", 2)[2]      # all but the first line(s)


def test_summary_added_up_by_chunk_is_the_summary_of_all_rows(run_dir: Path) -> None:
    from borabora_sim import stats

    frame = RunDirectory(run_dir).read()
    whole = Summary.of(frame)
    by_chunk = reduce(add, (Summary.of(rows) for _, rows in frame.groupby(frame["game_id"] // 5)))
    assert format_summary(by_chunk) == format_summary(whole) == format_summary(run_summary(RunDirectory(run_dir)))
    assert whole.games == GAMES
    shown = ["rows", "wins", "win_rate", "ci_low", "ci_high", "baseline", "tied_first", "mean_vp"]
    same = {"check_dtype": False, "check_index_type": False}      # the values of the per-frame statistics
    pd.testing.assert_frame_equal(whole.win_rates(), stats.win_rate(frame)[shown], **same)
    pd.testing.assert_frame_equal(whole.win_rates("start_position"), stats.win_rate(frame, "start_position")[shown],
                                  **same)
    pd.testing.assert_frame_equal(whole.vp_by_source(), stats.vp_by_source(frame), **same)
    lengths = frame.loc[frame["seat"] == 0, "decisions"]
    for q in (0.0, 0.05, 0.5, 0.95, 1.0):
        assert whole.decisions_quantile(q) == pytest.approx(lengths.quantile(q))


@pytest.mark.parametrize(("seconds", "speed"), [(0.5, "24 games/s"), (30.0, "2.5 s/game")])
def test_summary_gives_games_per_second_or_seconds_per_game(seconds: float, speed: str, run_dir: Path) -> None:
    first = format_summary(RunDirectory(run_dir).read(), seconds=seconds).splitlines()[0]
    assert first == f"{GAMES} games in {seconds:.2f} s ({speed})"


def test_ctrl_c_says_what_is_saved_and_the_command_that_finishes_the_run(
        tmp_path: Path, run_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    write = RunDirectory.write_chunk

    def write_then_interrupt(self: RunDirectory, index: int, *tables: object) -> None:
        write(self, index, *tables)
        if len(self.done_chunks()) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(RunDirectory, "write_chunk", write_then_interrupt)
    out = tmp_path / "run"
    argv = simulate_args(out)
    status, stdout, stderr = borabora(capsys, *argv)
    assert status == 130 and stdout == ""
    saved, command = re.fullmatch(r"borabora simulate: interrupted; (\d+) of 12 games are saved in \S+; "
                                  r"to finish the run: (.+)\n", stderr).groups()
    assert int(saved) == 10
    assert command == shlex.join(["borabora", *argv, "--resume"])

    monkeypatch.setattr(RunDirectory, "write_chunk", write)
    status, stdout, stderr = borabora(capsys, *shlex.split(command)[1:])
    assert status == 0, stderr
    finished, whole = RunDirectory(out).read(), RunDirectory(run_dir).read()
    pd.testing.assert_frame_equal(finished.drop(columns="wall_time"), whole.drop(columns="wall_time"))


def test_ctrl_c_without_out_says_nothing_was_saved(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "simulate", interrupt)
    status, _, stderr = borabora(capsys, "simulate", "--games", "3", "--players", "random,random", "--quiet")
    assert status == 130
    assert stderr == ("borabora simulate: interrupted; nothing was saved (with --out DIR an interrupted run can be "
                      "finished with --resume)\n")


# =============================================================================
# replay
# =============================================================================
def test_replay_by_run_and_game_ends_with_that_games_final_scores(run_dir: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    frame = RunDirectory(run_dir).read()
    for game in (0, 7):
        rows = frame[frame["game_id"] == game]
        status, stdout, _ = borabora(capsys, "replay", "--run", run_dir, "--game-id", game)
        assert status == 0
        lines = stdout.splitlines()
        words = {"heuristic": "the balanced heuristic", "random": "the random player"}
        assert lines[0] == f"game seed {rows['game_seed'].iloc[0]}, " + ", ".join(
            f"seat {s}: {words[spec]}" for s, spec in enumerate(rows["spec"].astype(str)))
        winner = int(rows["seat"][rows["win"]].iloc[0])
        assert lines[-4] == f"final scores {rows['vp'].tolist()}, winner seat {winner}"
        assert [line.split(":")[0] for line in lines[-3:]] == ["  seat 0", "  seat 1", "  seat 2"]


def test_replay_by_seed_and_players_matches_the_run(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = RunDirectory(run_dir).read()
    rows = frame[frame["game_id"] == 4]
    specs = ",".join(rows["spec"].astype(str))
    status, stdout, _ = borabora(capsys, "replay", "--seed", rows["game_seed"].iloc[0], "--players", specs)
    assert status == 0
    assert final_scores_line(stdout).startswith(f"final scores {rows['vp'].tolist()}, winner seat ")
    assert "-- Round 1, phase A: dice and actions" in stdout and "-- Round 6, phase" in stdout


def test_replay_by_run_uses_the_runs_component_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import borabora_sim.simulate as sim

    data = json.loads((ROOT / "borabora_sim" / "games" / "bora_bora" / "data" / "components.json").read_text())
    data["start_vp"]["values"] = [v + 5 for v in data["start_vp"]["values"]]
    variant = tmp_path / "variant.json"
    variant.write_text(json.dumps(data))
    frame = sim.simulate(3, ["heuristic", "random"], seed=2, n_jobs=1, progress=False, out=tmp_path / "run",
                         components=variant)
    rows = frame[frame["game_id"] == 1]
    assert rows["vp_start"].min() >= 5
    status, stdout, _ = borabora(capsys, "replay", "--run", tmp_path / "run", "--game-id", 1)
    assert status == 0
    assert final_scores_line(stdout).startswith(f"final scores {rows['vp'].tolist()}")


def test_replay_of_random_players_uses_the_compiled_game(capsys: pytest.CaptureFixture[str]) -> None:
    import borabora_sim.simulate as sim

    frame = sim.simulate(3, ["random", "random"], seed=9, n_jobs=1, progress=False)
    rows = frame[frame["game_id"] == 2]
    status, stdout, _ = borabora(capsys, "replay", "--seed", rows["game_seed"].iloc[0], "--players", "random,random")
    assert status == 0
    assert final_scores_line(stdout).startswith(f"final scores {rows['vp'].tolist()}")


# =============================================================================
# play
# =============================================================================
def play_args(players: str = "human,heuristic", seed: int = 3):
    return build_parser().parse_args(["play", "--players", players, "--seed", str(seed)])


class Script:
    """Scripted terminal input: answers in turn (callables see everything written so far), then 'q'."""

    def __init__(self, answers: Iterable) -> None:
        self.answers = iter(answers)
        self.written: list[str] = []
        self.prompts = 0

    def read(self, prompt: str) -> str:
        self.prompts += 1
        answer = next(self.answers, "q")
        return answer(self.written) if callable(answer) else answer

    def write(self, text: str) -> None:
        self.written.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.written)


def choices_shown(written: list[str]) -> list[str]:
    """The legal moves of the last decision listed to the human, in the game's words."""
    start = max(i for i, line in enumerate(written) if line.startswith("\nYour decision, seat "))
    return [line.split(": ", 1)[1].removesuffix("   <- hint") for line in written[start + 1:]
            if re.match(r"^\s+\d+: ", line)]


def an_illegal_action_name(written: list[str]) -> str:
    """An engine name of a move that is not legal at the set-up decision shown."""
    assert "Place a first hut on a region next to a 1-fish tile" in "\n".join(written)
    name = "done"
    assert name in map(BoraBora().action_name, range(NUM_ACTIONS))
    return name


def test_play_answers_bad_input_with_the_legal_choices_and_never_crashes() -> None:
    script = Script(["garbage", "99", "-1", "", "²", "٣٣", an_illegal_action_name, "q"])
    cmd_play(play_args(), read=script.read, write=script.write)
    text = script.text
    for bad in ("garbage", "99", "-1", "", "²", "٣٣"):
        assert f"'{bad}' is not one of the legal choices below; help lists the commands." in text
    illegal = [line for line in script.written if line.endswith("is not one of the legal choices below; help lists "
                                                                "the commands.")]
    assert len(illegal) == 7
    # after each refusal the same choices are listed again
    listings = [i for i, line in enumerate(script.written) if line.startswith("\nYour decision, seat ")]
    assert len(listings) == 8
    assert script.written[-1] == "\ngame abandoned"
    assert script.prompts == 8


def test_play_accepts_a_number_or_an_action_name() -> None:
    chosen: list[str] = []

    def by_name(written: list[str]) -> str:
        chosen.append(choices_shown(written)[-1])
        return chosen[-1]

    def by_number(written: list[str]) -> str:
        chosen.append(choices_shown(written)[0])
        return "1"

    script = Script([by_name, by_number, by_name])
    cmd_play(play_args(seed=5), read=script.read, write=script.write)
    assert script.prompts == 4 and len(chosen) == 3
    assert "is not one of the legal choices" not in script.text
    assert script.written[-1] == "\ngame abandoned"


def test_play_a_whole_game_against_the_heuristic_to_the_final_scores() -> None:
    script = Script(iter(lambda: "1", None))
    cmd_play(play_args("heuristic,human", seed=8), read=script.read, write=script.write)
    assert script.written[0] == "game seed 8; seats: 0: heuristic, 1: human"
    assert any(line.startswith("seat 0 (the balanced heuristic): ") for line in script.written)
    assert re.match(r"^\nfinal scores \[\d+, \d+\]; winner seat [01]$", script.written[-3])
    assert script.prompts > 20                      # a human decision in every round and phase
    assert "game abandoned" not in script.text


def test_play_through_main_reads_standard_input_and_q_abandons(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n1\nq\n"))
    status, stdout, stderr = borabora(capsys, "play", "--players", "human,heuristic,random", "--seed", "2")
    assert status == 0, stderr
    assert "'nonsense' is not one of the legal choices below; help lists the commands." in stdout
    assert stdout.rstrip().endswith("game abandoned")


def test_play_at_end_of_input_abandons_the_game(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, stdout, _ = borabora(capsys, "play", "--players", "human,random", "--seed", "1")
    assert status == 0
    assert stdout.rstrip().endswith("game abandoned")


# =============================================================================
# bench, --help
# =============================================================================
def test_bench_prints_its_rows_and_warns_that_a_tiny_run_says_nothing_of_speed_up(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, stdout, stderr = borabora(capsys, "bench", "--games", "1")
    assert status == 0, stderr
    for row in ("compiled random playouts, 4 players, 1 core", "Python-driven stepping",
                "simulate() to a DataFrame, 2 worker(s)", "speed-up of 2 workers over 1"):
        assert row in stdout
    assert re.search(r"^borabora bench: warning: the speed-up figure means little: 1 worker took [\d.]+ s, too "
                     r"short to time; use --games \d+ or more$", stderr, re.M)


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    status, stdout, _ = borabora(capsys, "--version")
    assert status == 0
    assert stdout == f"borabora {borabora_sim.__version__}\n"
    assert borabora_sim.__version__ == version("borabora_sim")
    declared = re.search(r'^version = "(.+)"$', (REPOSITORY / "pyproject.toml").read_text(), re.M)
    assert declared is not None and declared.group(1) == borabora_sim.__version__


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, stdout, _ = borabora(capsys, command, "--help")
    assert status == 0
    assert stdout.startswith(f"usage: borabora {command}")
    examples = stdout.split("examples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith(f"  borabora {command}") for line in examples)


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, stdout, _ = borabora(capsys, "--help")
    assert status == 0
    listed = re.findall(r"^    ([\w-]+)\s+\S", stdout, re.M)
    assert sorted(listed) == sorted(COMMANDS)
    assert {"simulate", "report", "play", "replay", "bench"} <= set(listed)


def test_python_dash_m_runs_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "borabora_sim", "replay", "--help"], capture_output=True,
                          text=True, env=env, timeout=60, cwd=tmp_path)   # outside any source tree
    assert done.returncode == 0 and "borabora replay --run runs/m --game-id 17" in done.stdout


def test_installed_console_script_shows_help() -> None:
    script = shutil.which("borabora")
    if script is None:
        pytest.skip("the borabora console script is not installed (pip install -e .)")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: borabora")


# =============================================================================
# The promise: one line, exit 2, nothing lost
# =============================================================================
@pytest.fixture(scope="module")
def bad_places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Places a command may be pointed at wrongly: a plain file, an empty folder, a run without chunks, runs with
    a manifest that is a JSON list, has an unknown key or lacks players, and a run holding another run's file."""
    root = tmp_path_factory.mktemp("bad")
    places = {"file": root / "file.txt", "empty": root / "empty"}
    places["file"].write_text("not a directory")
    places["empty"].mkdir()
    for name, seed in (("run", 1), ("other", 2)):
        places[name] = root / name
        assert main(["simulate", "--games", "2", "--players", "random,random", "--jobs", "1", "--quiet",
                     "--seed", str(seed), "--out", str(places[name])]) == 0
    manifest = json.loads((places["run"] / "manifest.json").read_text())
    changes = {"chunkless": manifest, "list_manifest": [manifest], "unknown_key": {**manifest, "colour": "red"},
               "no_players": {k: v for k, v in manifest.items() if k != "players"}}
    for name, content in changes.items():
        places[name] = root / name
        places[name].mkdir()
        (places[name] / "manifest.json").write_text(json.dumps(content))
    places["empty_but_notes"] = root / "notes"
    places["empty_but_notes"].mkdir()
    (places["empty_but_notes"] / "notes.txt").write_text("a folder of the user's")
    places["foreign"] = root / "foreign"
    shutil.copytree(places["run"], places["foreign"])
    for _, _, path in RunDirectory(places["other"]).files("players"):
        shutil.copy(path, places["foreign"] / "players" / path.name)
    return places


@pytest.fixture(scope="module")
def not_dask() -> Iterator[str]:
    """The address of a server that answers every connection with bytes of another protocol (HTTP)."""
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                with connection:
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 10)

    threading.Thread(target=answer, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def tree(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file under the folders, with its size and modification time."""
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for folder in folders for p in folder.rglob("*")}


SIMULATE = ["simulate", "--games", "3", "--players", "random,random", "--jobs", "1", "--quiet"]

# Every bad invocation: (arguments, what the one line on stderr must say). {name} is a place of bad_places,
# {tmp} a fresh empty folder.
BAD_INVOCATIONS = [
    (["report", "{file}"], r"file.txt is a file, not a run directory \(one holds manifest.json, players/ and games/\)"),
    (["report", "{run}/players"], r"holds no simulation run \(no manifest.json\)"),
    (["report", "{empty}"], "holds no simulation run"),
    (["report", "{chunkless}"], "no players chunks"),
    (["report", "{list_manifest}"], r"manifest.json must hold a JSON object with the keys games, players, seed, "),
    (["report", "{unknown_key}"], r"manifest.json: unknown key 'colour'; a manifest holds exactly games, players, "),
    (["report", "{no_players}"], r"manifest.json: missing key 'players'; a manifest holds exactly games, "),
    (["report", "{foreign}"], r"players/chunk-0000000.parquet belongs to another run \(its run fingerprint is "),
    (["report", "{run}", "--plot", "{tmp}/summary.gif"], r"--plot must be a file name ending in .png, .svg or .pdf"),
    (["report"], "the following arguments are required: directory"),
    ([*SIMULATE, "--out", "{file}/run"], r"--out must be a directory, but \S+/file.txt/run cannot be created: "
                                         r"\S+/file.txt is a file"),
    ([*SIMULATE, "--out", "{file}"], r"--out must be a directory, but \S+/file.txt is a file"),
    ([*SIMULATE, "--out", ""], "--out must name a directory, got ''"),
    ([*SIMULATE, "--out", "{run}"], "already holds a run; pass resume=True \\(--resume\\) to finish it"),
    ([*SIMULATE, "--out", "{foreign}", "--games", "2", "--seed", "1", "--resume"], "belongs to another run"),
    ([*SIMULATE, "--resume"], "--resume needs --out, the directory of the run to finish"),
    (["simulate", "--out", "{run}", "--resume", "--seed", "9", "--quiet"],
     r"holds a different run \(seed 1 there, 9 asked\); resume it with the same settings"),
    ([*SIMULATE, "--out", "{empty_but_notes}"], r"is not empty and holds no run \(no manifest.json; found "
                                                 r"notes.txt\); choose a new or empty directory"),
    ([*SIMULATE, "--backend", "dask", "--scheduler", "{not_dask}", "--connect-timeout", "5", "--out", "{tmp}/run"],
     r"tcp://127.0.0.1:\d+ answered, but not as a Dask scheduler \(.*\); check the address"),
    (["train-learned", "--out", "{file}/w.npz", "--games", "4"],
     r"out \S+/file.txt/w.npz cannot be written: \S+/file.txt is a file, not a directory"),
    (["train-learned", "--out", "{empty}", "--games", "4"], r"out must be a file name ending in .npz \(its manifest is "
                                                    r"written beside it, ending in .json\)"),
    (["train-learned", "--out", "{tmp}/w.weights", "--games", "4"], r"out must be a file name ending in .npz"),
    (["analyze", "priest", "--size", "quick", "--rungs", "heuristic,heuristic", "--out", "{tmp}/study"],
     r"--rungs: \['heuristic', 'heuristic'\] names a rung twice; name each once"),
    ([*SIMULATE, "--scheduler", "tcp://127.0.0.1:1"], "--scheduler is the address of a Dask scheduler: it needs "
                                                      "--backend dask"),
    ([*SIMULATE, "--connect-timeout", "1"], "--connect-timeout is the time allowed to reach --scheduler: give "
                                            "--scheduler too"),
    ([*SIMULATE, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "1", "--out",
      "{tmp}/run"], r"cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s \(.*\); check the address"),
    ([*SIMULATE, "--connect-timeout", "0"], "argument --connect-timeout: must be a positive number of seconds"),
    ([*SIMULATE, "--jobs", "-100"], r"--jobs must be a number of workers \(1, 2, ...\) or -1 for all \d+ cores"),
    ([*SIMULATE, "--jobs", "0"], r"--jobs must be a number of workers"),
    ([*SIMULATE, "--backend", "spark"], "--backend must be one of loky, multiprocessing, threading, sequential, "
                                        "dask, got 'spark'"),
    ([*SIMULATE, "--plot", "{tmp}/summary.txt", "--out", "{tmp}/run"],
     r"--plot must be a file name ending in .png, .svg or .pdf, got '\S+/summary.txt'"),
    ([*SIMULATE, "--plot", "{tmp}/missing/summary.png", "--out", "{tmp}/run"],
     r"--plot \S+/missing/summary.png: the folder \S+/missing does not exist"),
    ([*SIMULATE, "--plot", "{empty}", "--out", "{tmp}/run"], r"--plot must be a file name ending in"),
    ([*SIMULATE, "--players", "mcts:iterations=10,seconds=1,random", "--out", "{tmp}/run"],
     r"player spec 'mcts:iterations=10,seconds=1': .*both"),
    ([*SIMULATE, "--players", "wizard,random"], "unknown player 'wizard'"),
    ([*SIMULATE, "--players", "heuristic:colour=red,random"], "no option 'colour'"),
    ([*SIMULATE, "--players", "random"], "2, 3 or 4 player specs"),
    ([*SIMULATE, "--players", ","], "at least two player specs"),
    (["simulate", "--games", "0"], "argument --games: must be a positive integer, got '0'"),
    (["simulate", "--games", "many"], "argument --games: must be a positive integer"),
    (["simulate", "--seed", "-3"], r"argument --seed: must be an integer in \[0, 2\*\*64\)"),
    (["simulate", "--bogus"], "unrecognized arguments: --bogus"),
    (["replay"], "give --seed and --players, or --run and --game-id"),
    (["replay", "--seed", "1", "--players", "random,random", "--run", "{run}", "--game-id", "0"],
     "give --run and --game-id, or --seed and --players, not both"),
    (["replay", "--seed", "1", "--players", "random,random", "--game-id", "0"], "--game-id picks a game of --run: "
                                                                               "give --run too"),
    (["replay", "--seed", "1", "--players", "random,random", "--game", "0"], r"unknown game '0'; games: "),
    (["replay", "--run", "{run}", "--game", "1"], r"--game names the game of --seed; a game of --run is played in "
                                                  r"the run's game \(bora_bora\): pick it with --game-id N, N in 0..1"),
    (["replay", "--seed", "5", "--players", "random,human"], "unknown player 'human'"),
    (["replay", "--run", "{empty}", "--game-id", "0"], "holds no simulation run"),
    (["replay", "--run", "{file}", "--game-id", "0"], "is a file, not a run directory"),
    (["replay", "--run", "{run}", "--game-id", "2"], r"--game-id must be a game id in 0..1"),
    (["replay", "--run", "{run}", "--game-id", "-1"], r"argument --game-id: must be a game id \(0, 1, ...\)"),
    (["play", "--players", "human,wizard"], "unknown player 'wizard'"),
    (["play", "--players", "human", "--seed", "1"], "players must be 2, 3 or 4"),
    (["analyze", "fishing", "--size", "quick", "--jobs", "0", "--out", "{tmp}/study"], r"--jobs must be a number "
                                                                                       r"of workers"),
    (["analyze", "fishing", "--size", "quick", "--out", "{file}"], r"--out must be a directory, but \S+ is a file"),
    (["analyze", "priest", "--size", "quick", "--out", "{file}/study"], r"--out must be a directory"),
    (["analyze", "fishing", "--size", "quick", "--rungs", "heuristic,mcts", "--out", "{tmp}/study"],
     r"--rungs: 'mcts' is not a rung of the game's ladder; allowed: heuristic, tuned, expert, learned, mcts100, "
     r"mcts300"),
    (["analyze", "spirits", "--size", "quick", "--rungs", "heuristic,mcts100", "--out", "{tmp}/study"],
     r"--rungs: 'mcts100' is not a rung of the game's ladder; allowed: heuristic, mcts300, mcts1000, tuned, expert, "
     r"net300"),
    (["bench", "--games", "-1"], "argument --games: must be a positive integer"),
    ([*SIMULATE, "--game", "bamboo:mode=night"], r"argument --game: game spec 'bamboo:mode=night': option mode "
                                                 r"must be one of normal, advanced, got 'night'"),
    ([*SIMULATE, "--game", "bamboo:colour=red"], r"game 'bamboo' has no option 'colour'; options: mode"),
    ([*SIMULATE, "--game", "chess"], r"argument --game: unknown game 'chess'; games: bora_bora, bamboo"),
    (["play", "--game", "bora_bora:mode=advanced"], r"game 'bora_bora' has no option 'mode'; options: none"),
    (["bench", "--game", "bamboo:mode"], r"game spec 'bamboo:mode': option 'mode' must look like key=value"),
    (["replay", "--seed", "1", "--players", "random,random", "--game", "bamboo:mode=night"],
     r"option mode must be one of normal, advanced, got 'night'"),
    (["fly"], "invalid choice: 'fly'"),
    ([], "the following arguments are required: COMMAND"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_INVOCATIONS, ids=lambda v: " ".join(v)[:60] if isinstance(v, list)
                         else None)
def test_bad_invocation_is_refused_before_any_work_with_one_line_and_status_2(
        argv: list[str], message: str, bad_places: dict[str, Path], not_dask: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.format(tmp=tmp_path, not_dask=not_dask, **bad_places) for a in argv]
    before = tree(tmp_path, *bad_places.values())
    status, stdout, stderr = borabora(capsys, *argv)
    assert status == 2
    command = f"borabora {argv[0]}" if argv and argv[0] in COMMANDS else "borabora"
    assert stderr.count("\n") == 1 and stderr.endswith("\n"), stderr
    assert stderr.startswith(f"{command}: error: ")
    assert re.search(message, stderr), stderr
    assert "Traceback" not in stderr
    assert stdout == ""
    assert tree(tmp_path, *bad_places.values()) == before, "nothing is written or changed"


@pytest.mark.parametrize("argv", [["report", "{file}"], [*SIMULATE, "--resume"]])
def test_the_console_script_prints_one_line_and_no_traceback(argv: list[str], bad_places: dict[str, Path]) -> None:
    script = shutil.which("borabora")
    if script is None:
        pytest.skip("the borabora console script is not installed (pip install -e .)")
    done = subprocess.run([script, *(a.format(**bad_places) for a in argv)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"borabora {argv[0]}: error: "), done.stderr
    assert done.stdout == ""


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    script = shutil.which("borabora")
    if script is None:
        pytest.skip("the borabora console script is not installed (pip install -e .)")
    reader = subprocess.Popen([script, "replay", "--seed", "1", "--players", "heuristic,random,random"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()                           # as `| head` does once it has its lines
    _, stderr = reader.communicate(timeout=120)
    assert stderr == b""
    assert reader.returncode == 141


def running(process: psutil.Process) -> bool:
    """Alive and not a zombie (an ended process that no parent has reaped yet)."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_no_worker_outlives_a_run_killed_with_sigkill(tmp_path: Path) -> None:
    script = shutil.which("borabora")
    if script is None:
        pytest.skip("the borabora console script is not installed (pip install -e .)")
    out = tmp_path / "run"
    run = subprocess.Popen([script, "simulate", "--games", "2000", "--players", PLAYERS, "--jobs", "2",
                            "--chunk-size", "1", "--quiet", "--out", str(out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parent = psutil.Process(run.pid)
    children: list = []
    try:
        deadline = time.monotonic() + 60
        while len(RunDirectory(out).done_chunks()) < 2:          # the workers are up and playing
            assert run.poll() is None, run.stderr.read().decode()
            assert time.monotonic() < deadline, "no chunk written within 60 s"
            time.sleep(0.05)
        children = parent.children(recursive=True)
        assert len(children) >= 2
        run.send_signal(signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + 2
        while any(map(running, children)) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = [child.cmdline() for child in children if running(child)]
        assert not alive, f"still running 2 s after the run was killed: {alive}"
    finally:
        run.kill()
        run.wait()
        run.stderr.close()
        for child in children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()


@pytest.mark.parametrize(("flags", "progress"), [(["--quiet"], False), ([], None)])
def test_analyze_quiet_turns_the_progress_bars_off(flags, progress, tmp_path, monkeypatch, capsys) -> None:
    import borabora_sim.questions as questions

    calls = []
    monkeypatch.setattr(questions, "ask", lambda question, out, size, jobs, **options: calls.append(options))
    status, _, err = borabora(capsys, "analyze", "priest", "--size", "quick", "--out", tmp_path / "study", *flags)
    assert (status, err) == (0, "")
    assert [options["progress"] for options in calls] == [progress]


def test_analyze_passes_the_rungs_in_ladder_order_to_every_part_that_does_not_name_its_own(
        tmp_path, monkeypatch, capsys) -> None:
    import borabora_sim.questions as questions

    calls = []
    monkeypatch.setattr(questions, "ask", lambda question, *args, **options: calls.append(question))
    status, _, err = borabora(capsys, "analyze", "fishing", "--size", "quick", "--rungs", "mcts300,tuned", "--out",
                              tmp_path / "study")
    assert (status, err) == (0, "")
    parts = {part.name: part for part in calls[0].parts}
    assert parts["arms"].rungs == parts["frequency"].rungs == ("tuned", "mcts300")
    assert parts["arms"].size("quick").rungs is None
    assert parts["best_move"].rungs == ("heuristic", "expert")


def test_analyze_refuses_an_unknown_rung_in_one_line(tmp_path, capsys) -> None:
    status, _, err = borabora(capsys, "analyze", "priest", "--rungs", "alphago", "--out", tmp_path / "study")
    assert status == 2 and err.count("\n") == 1 and "'alphago' is not a rung of the game's ladder" in err
    assert not (tmp_path / "study").exists()


def test_simulate_and_replay_the_advanced_side_of_bamboo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "night"
    status, stdout, _ = borabora(capsys, "simulate", "--game", "bamboo:mode=advanced", "--games", "4", "--players",
                                 "heuristic,random", "--jobs", "1", "--quiet", "--out", out)
    assert status == 0 and re.search(r"^uncovered nighttime spaces +-\d", stdout, re.M)
    assert json.loads((out / "manifest.json").read_text())["game"] == "bamboo:mode=advanced"
    frame = RunDirectory(out).read()
    rows = frame[frame["game_id"] == 1]
    status, by_run, _ = borabora(capsys, "replay", "--run", out, "--game-id", 1)
    assert status == 0 and f"final scores {rows['hp'].tolist()}" in by_run
    specs = ",".join(rows["spec"].astype(str))
    status, by_seed, _ = borabora(capsys, "replay", "--seed", rows["game_seed"].iloc[0], "--players", specs,
                                  "--game", "bamboo:mode=advanced")
    assert status == 0 and by_seed == by_run
