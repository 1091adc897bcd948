"""The `borabora` command line: simulate (with --out, --resume, --plot), report, replay, play against the AI
with scripted input, bench, --help of every command, one-line errors with a non-zero status, and splitting
--players into specs.

Commands run in-process through `borabora_sim.cli.main`; only the installed console script and
`python -m borabora_sim` are started as subprocesses.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

import borabora_sim
from borabora_sim import NUM_ACTIONS, BoraBora
from borabora_sim.cli import EXAMPLES, build_parser, cmd_play, main, split_specs
from borabora_sim.simulate import RunDirectory

ROOT = Path(borabora_sim.__file__).resolve().parent.parent
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
    assert sorted(p.name for p in (out / "players").iterdir()) == [f"chunk-{k:07d}.parquet" for k in range(3)]
    assert (out / "manifest.json").is_file()


def test_simulate_without_out_prints_the_summary_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, stdout, _ = borabora(capsys, "simulate", "--games", "6", "--players", "random,random", "--jobs", "1",
                                 "--quiet")
    assert status == 0
    assert stdout.startswith("6 games in ") and "results in" not in stdout
    assert list(tmp_path.iterdir()) == []


def test_simulate_resume_finishes_an_interrupted_run(tmp_path: Path, run_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    shutil.copytree(run_dir, out)
    RunDirectory(out).chunk_file("players", 1).unlink()       # as if killed before chunk 1 was in place
    status, stdout, stderr = borabora(capsys, *simulate_args(out, "--resume"))
    assert status == 0, stderr
    assert re.search(rf"^{GAMES} games$", stdout, re.M)
    assert RunDirectory(out).done_chunks() == {0, 1, 2}
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


def test_report_of_an_unfinished_run_counts_the_games_done(tmp_path: Path, run_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    shutil.copytree(run_dir, out)
    RunDirectory(out).chunk_file("players", 2).unlink()       # games 10 and 11
    status, stdout, _ = borabora(capsys, "report", out)
    assert status == 0
    assert stdout.startswith(f"run: 10 of {GAMES} games")


# =============================================================================
# replay
# =============================================================================
def test_replay_by_run_and_game_ends_with_that_games_final_scores(run_dir: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    frame = RunDirectory(run_dir).read()
    for game in (0, 7):
        rows = frame[frame["game_id"] == game]
        status, stdout, _ = borabora(capsys, "replay", "--run", run_dir, "--game", game)
        assert status == 0
        lines = stdout.splitlines()
        assert lines[0] == f"game seed {rows['game_seed'].iloc[0]}, players " + ", ".join(
            f"{s}: {spec}" for s, spec in enumerate(rows["spec"].astype(str)))
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
    assert "-- round 1, phase A" in stdout and "-- round 6, phase" in stdout


def test_replay_by_run_uses_the_runs_component_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import borabora_sim.simulate as sim

    data = json.loads((ROOT / "borabora_sim" / "data" / "components.json").read_text())
    data["start_vp"]["values"] = [v + 5 for v in data["start_vp"]["values"]]
    variant = tmp_path / "variant.json"
    variant.write_text(json.dumps(data))
    frame = sim.simulate(3, ["heuristic", "random"], seed=2, n_jobs=1, progress=False, out=tmp_path / "run",
                         components=variant)
    rows = frame[frame["game_id"] == 1]
    assert rows["vp_start"].min() >= 5
    status, stdout, _ = borabora(capsys, "replay", "--run", tmp_path / "run", "--game", 1)
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
    """The legal action names of the last decision listed to the human."""
    start = max(i for i, line in enumerate(written) if line.startswith("\nYour decision ("))
    return [line.split(": ", 1)[1] for line in written[start + 1:] if re.match(r"^\s+\d+: ", line)]


def an_illegal_action_name(written: list[str]) -> str:
    legal = set(choices_shown(written))
    game = BoraBora()
    return next(name for name in map(game.action_name, range(NUM_ACTIONS)) if name not in legal)


def test_play_answers_bad_input_with_the_legal_choices_and_never_crashes() -> None:
    script = Script(["garbage", "99", "-1", "", "²", "٣٣", an_illegal_action_name, "q"])
    cmd_play(play_args(), read=script.read, write=script.write)
    text = script.text
    for bad in ("garbage", "99", "-1", "", "²", "٣٣"):
        assert f"'{bad}' is not one of the legal choices below." in text
    illegal = [line for line in script.written if line.endswith("is not one of the legal choices below.")]
    assert len(illegal) == 7
    # after each refusal the same choices are listed again
    listings = [i for i, line in enumerate(script.written) if line.startswith("\nYour decision (")]
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
        return "0"

    script = Script([by_name, by_number, by_name])
    cmd_play(play_args(seed=5), read=script.read, write=script.write)
    assert script.prompts == 4 and len(chosen) == 3
    assert "is not one of the legal choices" not in script.text
    assert script.written[-1] == "\ngame abandoned"


def test_play_a_whole_game_against_the_heuristic_to_the_final_scores() -> None:
    script = Script(iter(lambda: "0", None))
    cmd_play(play_args("heuristic,human", seed=8), read=script.read, write=script.write)
    assert script.written[0] == "game seed 8; seats: 0: heuristic, 1: human"
    assert any(line.startswith("seat 0 (heuristic): ") for line in script.written)
    assert re.match(r"^\nfinal scores \[\d+, \d+\]; winner seat [01]$", script.written[-3])
    assert script.prompts > 20                      # a human decision in every round and phase
    assert "game abandoned" not in script.text


def test_play_through_main_reads_standard_input_and_q_abandons(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n0\nq\n"))
    status, stdout, stderr = borabora(capsys, "play", "--players", "human,heuristic,random", "--seed", "2")
    assert status == 0, stderr
    assert "'nonsense' is not one of the legal choices below." in stdout
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
def test_bench_prints_its_rows(capsys: pytest.CaptureFixture[str]) -> None:
    status, stdout, stderr = borabora(capsys, "bench", "--games", "1")
    assert status == 0, stderr
    for row in ("compiled random playouts, 4 players, 1 core", "Python-driven stepping",
                "simulate() to a DataFrame, 2 worker(s)", "speed-up of 2 workers over 1"):
        assert row in stdout


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
    listed = re.findall(r"^    (\w+)\s+\S", stdout, re.M)
    assert sorted(listed) == sorted(COMMANDS)
    assert {"simulate", "report", "play", "replay", "bench"} <= set(listed)


def test_python_dash_m_runs_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "borabora_sim", "replay", "--help"], capture_output=True,
                          text=True, env=env, timeout=60, cwd=tmp_path)   # outside any source tree
    assert done.returncode == 0 and "borabora replay --run runs/m --game 17" in done.stdout


def test_installed_console_script_shows_help() -> None:
    script = shutil.which("borabora")
    if script is None:
        pytest.skip("the borabora console script is not installed (pip install -e .)")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: borabora")


# =============================================================================
# errors: one line on stderr, non-zero status
# =============================================================================
@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--players", "wizard,random", "--games", "3", "--jobs", "1"], "unknown player 'wizard'"),
    (["simulate", "--players", "heuristic:colour=red,random", "--games", "3"], "no option 'colour'"),
    (["simulate", "--players", "random", "--games", "3"], "2, 3 or 4 player specs"),
    (["simulate", "--players", ",", "--games", "3"], "at least two player specs"),
    (["simulate", "--games", "0"], "argument --games: must be a positive integer, got '0'"),
    (["simulate", "--games", "many"], "argument --games: must be a positive integer"),
    (["simulate", "--seed", "-3"], r"argument --seed: must be an integer in \[0, 2\*\*64\)"),
    (["simulate", "--games", "3", "--players", "random,random", "--backend", "spark"], "--backend must be one of"),
    (["simulate", "--games", "3", "--players", "random,random", "--jobs", "0"], "n_jobs must be a non-zero"),
    (["simulate", "--bogus"], "unrecognized arguments: --bogus"),
    (["report", "{empty}"], "holds no simulation run"),
    (["report", "{chunkless}"], "no players chunks"),
    (["report"], "the following arguments are required: directory"),
    (["replay"], "give --seed and --players, or --run and --game"),
    (["replay", "--seed", "5", "--players", "random,human"], "unknown player 'human'"),
    (["replay", "--run", "{empty}", "--game", "0"], "holds no simulation run"),
    (["play", "--players", "human,wizard"], "unknown player 'wizard'"),
    (["play", "--players", "human", "--seed", "1"], "players must be 2, 3 or 4"),
    (["bench", "--games", "-1"], "argument --games: must be a positive integer"),
    (["fly"], "invalid choice: 'fly'"),
    ([], "the following arguments are required: COMMAND"),
])
def test_errors_are_one_line_on_stderr_with_a_nonzero_status(argv: list[str], message: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    chunkless = tmp_path / "chunkless"
    assert main(["simulate", "--games", "2", "--players", "random,random", "--jobs", "1", "--quiet",
                 "--out", str(chunkless)]) == 0
    for table in ("players", "games"):
        for chunk in (chunkless / table).iterdir():
            chunk.unlink()
    capsys.readouterr()
    argv = [a.format(empty=tmp_path / "empty", chunkless=chunkless) for a in argv]
    status, stdout, stderr = borabora(capsys, *argv)
    assert status != 0
    command = f"borabora {argv[0]}" if argv and not argv[0].startswith("-") and argv[0] in COMMANDS else "borabora"
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"{command}: error: ")
    assert re.search(message, stderr)
    assert stdout == "" or "game seed" in stdout


def test_replay_of_a_game_outside_the_run_is_an_error(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, stderr = borabora(capsys, "replay", "--run", run_dir, "--game", GAMES)
    assert status == 2
    assert stderr == f"borabora replay: error: --game must be a game id in 0..{GAMES - 1}\n"
