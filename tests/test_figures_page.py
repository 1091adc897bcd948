"""The page "How fast, how strong, what the studies found" is made from the results files when the site is built
(docs/gen/figures.py, with the page written by docs/gen/figures_page.py): its figures are the files' figures, it
changes when a file changes, every answered question's verdict is on it, each results file names the command that
wrote it, and no hand-written copy of the page lies in docs/."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
STUDIES = ROOT / "analysis" / "results"
NUMBER = r"[\d,]+(?:\.\d+)?"


def figures_page() -> ModuleType:
    """docs/gen/figures_page.py, which writes the page without mkdocs."""
    spec = importlib.util.spec_from_file_location("figures_page", ROOT / "docs" / "gen" / "figures_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def page() -> str:
    return figures_page().figures_markdown()


def results(name: str) -> Any:
    return json.loads((RESULTS / name).read_text(encoding="utf-8"))


def number(text: str) -> float:
    return float(text.replace(",", ""))


def win_rate_row(page: str, row: dict[str, Any], opponents: int) -> tuple[float, float, float]:
    """The win rate and its 95% interval, in percent, that the page shows for a benchmark's row."""
    line = re.search(rf"^\| `{re.escape(row['tested'])}` \| {opponents} x `{re.escape(row['opponent'])}` \| "
                     rf"{row['games']:,} \| {row['wins']:,g} \| ({NUMBER})% \| ({NUMBER})-({NUMBER})% \|", page,
                     flags=re.MULTILINE)
    assert line is not None, f"no line for {row['tested']} against {row['opponent']}"
    return number(line[1]), number(line[2]), number(line[3])


def test_no_hand_written_page_and_the_build_writes_it() -> None:
    assert not (ROOT / "docs" / "figures.md").exists(), "a hand-written docs/figures.md: the build writes the page"
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^ +- docs/gen/figures\.py$", config, flags=re.MULTILINE)
    assert re.search(r"^ +- \"How fast, how strong, what the studies found\": figures\.md$", config,
                     flags=re.MULTILINE)


def test_the_engine_and_simulator_figures_are_those_of_their_files(page: str) -> None:
    engine = results("engine.json")
    four = next(row for row in engine["playouts"] if row["players"] == 4)
    shown = re.search(rf"Compiled random playouts on one core: ({NUMBER}) 4-player games per second", page)
    assert shown is not None and number(shown[1]) == round(four["games_per_s"])
    step = re.search(rf"4-player Bora Bora: ({NUMBER}) µs a step", page)
    assert step is not None and number(step[1]) == pytest.approx(engine["stepping"][0]["us_per_step"], abs=0.005)
    for row in engine["stepping"][1:]:
        other = re.search(rf"OpenSpiel's {row['engine'].removeprefix('openspiel ')} ({NUMBER}) µs \(({NUMBER}) x",
                          page)
        assert other is not None, row["engine"]
        assert number(other[2]) == pytest.approx(row["ratio_vs_borabora"], abs=0.005)
    simulate = results("simulate.json")
    written = re.search(rf"writes ({NUMBER}) random 4-player games per second to Parquet on one worker", page)
    assert written is not None and number(written[1]) == round(simulate["one_worker_games_per_s"])


def test_the_ratios_of_two_threads_are_those_of_one_run(page: str) -> None:
    threads = results("threads.json")
    for title, game in (("Bora Bora", "bora_bora"), ("Bamboo", "bamboo")):
        rows = [row for row in threads["speed"]["rows"] if row["game"] == game]
        ratio = sum(row["iterations_2"] for row in rows) / sum(row["iterations_1"] for row in rows)
        shown = re.search(rf"^- {title}: `mcts:\.\.\.,threads=2` does ({NUMBER}) x", page, flags=re.MULTILINE)
        assert shown is not None and number(shown[1]) == pytest.approx(ratio, abs=0.005)
    strength = threads["strength"]
    won = re.search(rf"two `threads=2` seats won ({NUMBER})% \(95% CI ({NUMBER})-({NUMBER})%, {strength['games']} "
                    "games", page)
    assert won is not None
    assert number(won[1]) == pytest.approx(100 * strength["share"], abs=0.05)
    assert number(won[2]) == pytest.approx(100 * strength["wilson_lo"], abs=0.05)
    assert number(won[3]) == pytest.approx(100 * strength["wilson_hi"], abs=0.05)


@pytest.mark.parametrize("name", ["players_heuristic.json", "players_mcts.json", "bamboo_players_heuristic.json",
                                  "bamboo_players_mcts.json"])
def test_every_win_rate_and_interval_is_that_of_its_file(page: str, name: str) -> None:
    data = results(name)
    rows = data["ladder"] if "ladder" in data else figures_page().bamboo_rows(data)
    assert rows
    for row in rows:
        rate, low, high = win_rate_row(page, row, row.get("players", 4) - 1)
        assert (rate, low, high) == pytest.approx(
            (100 * row["win_rate"], 100 * row["wilson_lo"], 100 * row["wilson_hi"]), abs=0.05)


@pytest.mark.parametrize(("game", "title"), [("bora_bora", "Bora Bora"), ("bamboo", "Bamboo")])
def test_every_ladder_rating_is_that_of_its_file(page: str, game: str, title: str) -> None:
    ladders = page.split("\n## The ladder of all players\n", 1)[1].split("\n## ", 1)[0]
    ladder = ladders.split(f"\n### {title}\n", 1)[1].split("\n### ", 1)[0]
    with (RESULTS / "ladder" / game / "ratings.csv").open(encoding="utf-8", newline="") as ratings:
        rows = list(csv.DictReader(ratings))
    assert rows
    for row in rows:
        line = re.search(rf"^\| `{re.escape(row['player'])}` \| ([+-]\d+) \| ([+-]\d+) to ([+-]\d+) \|", ladder,
                         flags=re.MULTILINE)
        assert line is not None, row["player"]
        assert [int(value) for value in line.groups()] == [
            round(float(row[column])) for column in ("rating", "ci_low", "ci_high")]


def test_every_study_s_verdict_and_certainty_are_on_the_page_under_its_game(page: str) -> None:
    summaries = sorted(STUDIES.glob("*/summary.json"))
    assert summaries
    sections = dict(re.findall(r"^### (.+)\n\n((?:- .*\n)+)", page.split("## What the studies found", 1)[1],
                               flags=re.MULTILINE))
    for path in summaries:
        summary = json.loads(path.read_text(encoding="utf-8"))
        line = f"- [{summary['title']}](atlas/{path.parent.name}.md): {summary['headline']} "
        assert line in sections[summary["game"]], f"{path.parent.name}'s verdict is not under {summary['game']}"
        assert f"{line}How sure: {summary['certainty']}." in page


def test_the_page_follows_its_files(tmp_path: Path) -> None:
    """Changed results give a changed page: a win rate, an engine's rate and a new study's verdict."""
    shutil.copytree(RESULTS, tmp_path / "benchmarks" / "results")
    shutil.copytree(STUDIES, tmp_path / "analysis" / "results")
    copied = tmp_path / "benchmarks" / "results"
    players = json.loads((copied / "players_heuristic.json").read_text(encoding="utf-8"))
    row = players["ladder"][-1]
    row.update(wins=777, games=1000, win_rate=0.777, wilson_lo=0.75, wilson_hi=0.8)
    (copied / "players_heuristic.json").write_text(json.dumps(players), encoding="utf-8")
    engine = json.loads((copied / "engine.json").read_text(encoding="utf-8"))
    next(row for row in engine["playouts"] if row["players"] == 4)["games_per_s"] = 12_345.4
    (copied / "engine.json").write_text(json.dumps(engine), encoding="utf-8")
    study = tmp_path / "analysis" / "results" / "made_up"
    study.mkdir()
    (study / "summary.json").write_text(json.dumps({
        "game": "Bamboo", "title": "A question asked here only?", "headline": "No: nothing changes.",
        "certainty": "not detectable"}), encoding="utf-8")

    changed = figures_page().figures_markdown(tmp_path)
    assert win_rate_row(changed, row, 3) == pytest.approx((77.7, 75.0, 80.0), abs=0.05)
    assert "one core: 12,345 4-player games per second" in changed
    assert ("- [A question asked here only?](atlas/made_up.md): No: nothing changes. How sure: not detectable."
            in changed)


def test_each_results_file_names_the_command_that_wrote_it() -> None:
    """Every results file has its command on the page, and the command's counts are those the file records."""
    commands = figures_page().COMMANDS
    assert sorted(commands) == sorted(path.name for path in RESULTS.glob("*.json"))
    defaults = {"engine.json": 50_000, "simulate.json": 200_000}       # the scripts' --games when it is not given
    for name, command in commands.items():
        assert command.startswith("python benchmarks/bench_") and command.endswith(f"--json benchmarks/results/{name}")
        data = results(name)
        given = re.search(r"--games (\d+)", command)
        games = int(given[1]) if given else defaults[name]
        if name.startswith("players_"):
            assert games == data["games"]
            assert ("speed" in command.split("--rows ")[1].split()[0].split(",")) == (data["speed"] is not None)
        elif name.startswith("bamboo_players_"):
            listed = figures_page().bamboo_rows(data)
            assert f"--rows {','.join(row['row'] for row in listed)} " in command
            assert {row["games"] for row in listed} == {games}
            assert ("--speed" in command) == isinstance(data, dict)
        elif name == "threads.json":
            assert games == data["strength"]["games"]
        else:
            assert games == data["games"]
