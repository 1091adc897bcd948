"""Tuning the heuristic with CMA-ES (borabora_sim.tune): the optimiser, resuming, refusals, the shipped styles."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cma")

from borabora_sim import tune as tuning
from borabora_sim.games import get_game
from borabora_sim.games.bamboo.game import TUNED_STYLES as BAMBOO_STYLES
from borabora_sim.games.bora_bora.game import TUNED_STYLES as BORA_BORA_STYLES
from borabora_sim.players import make_player

TINY = {"budget": 50, "games_per_eval": 8, "popsize": 4, "validation_games": 16, "progress": False}
NAMES = ("a", "b", "c", "d", "e")
START = np.array([1.0, 0.0, 2.0, -1.0, 0.5])
TARGET = np.array([1.6, 0.7, 1.2, -0.4, 1.3])


def synthetic(vectors: Sequence[np.ndarray], deals: Sequence[int]) -> list[tuple[float, int, int]]:
    """Minus the squared distance to TARGET, with noise drawn from the deals (shared by a generation's vectors)."""
    noise = np.random.default_rng(list(deals)).normal(0, 0.05)
    return [(float(-((w - TARGET) ** 2).sum() + noise), 0, 4) for w in vectors]


def config(**changes: object) -> tuning.TuneConfig:
    values = {"game": "synthetic", "components_fingerprint": "", "opponents": ("x", "x", "x"), "start": "s",
              "games_per_eval": 4, "popsize": 6, "sigma0": 0.3, "seed": 5, "validation_games": 4, **changes}
    return tuning.TuneConfig(**values)


def optimise(directory: Path, budget: int, evaluate: tuning.Evaluate = synthetic,
             resume: bool = False) -> tuning.RunState:
    state = tuning._open_directory(directory, config(), resume, START)
    return tuning.optimise(evaluate, START, NAMES, config(), budget, directory, state, False,
                           lambda first, count: list(range(first, first + count)))


@pytest.mark.slow
def test_optimiser_improves_a_synthetic_objective_deterministically(tmp_path: Path) -> None:
    state = optimise(tmp_path / "a", budget=8 * 40 * 30)
    again = optimise(tmp_path / "b", budget=8 * 40 * 30)
    start_distance = np.abs(START - TARGET).max()
    assert np.abs(state.incumbent - TARGET).max() < start_distance / 4
    assert np.array_equal(state.incumbent, again.incumbent)
    lines = (tmp_path / "a" / tuning.EVALUATIONS).read_text().splitlines()
    assert len(lines) == sum(8 if g else 7 for g in range(state.generation))     # the first has no challenger
    assert lines == (tmp_path / "b" / tuning.EVALUATIONS).read_text().splitlines()


def test_an_interrupted_run_resumes_to_the_same_result(tmp_path: Path) -> None:
    calls = 0

    def interrupted(vectors: Sequence[np.ndarray], deals: Sequence[int]) -> list[tuple[float, int, int]]:
        nonlocal calls
        calls += 1
        if calls == 4:              # stopped while writing generation 3: a line cut short
            with (tmp_path / "a" / tuning.EVALUATIONS).open("a") as log:
                log.write('{"generation": 3, "ro')
            raise KeyboardInterrupt
        return synthetic(vectors, deals)

    with pytest.raises(KeyboardInterrupt):
        optimise(tmp_path / "a", budget=600, evaluate=interrupted)
    argv = ["tune", "--out", str(tmp_path / "a"), "--budget", "600"]
    assert tuning.interrupted_message(tmp_path / "a", argv) == (
        f"interrupted; 3 finished generation(s) are saved in {tmp_path / 'a'}; to continue the run from there: "
        f"borabora tune --out {tmp_path / 'a'} --budget 600 --resume")
    resumed = optimise(tmp_path / "a", budget=600, resume=True)
    whole = optimise(tmp_path / "b", budget=600)
    assert np.array_equal(resumed.incumbent, whole.incumbent)
    assert resumed.history == whole.history
    assert resumed.asked == whole.asked and resumed.told == whole.told
    for name in (tuning.EVALUATIONS, tuning.STATE):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_a_real_run_continued_to_a_larger_budget_equals_one_run(tmp_path: Path) -> None:
    first = tuning.tune(out=tmp_path / "a", seed=3, **TINY)
    assert first.games >= TINY["budget"] and first.validation.games == TINY["validation_games"]
    continued = tuning.tune(out=tmp_path / "a", seed=3, resume=True, **{**TINY, "budget": 100})
    whole = tuning.tune(out=tmp_path / "b", seed=3, **{**TINY, "budget": 100})
    assert continued.generations > first.generations
    assert continued.weights == whole.weights and continued.history == whole.history
    assert continued.validation == whole.validation
    entry = json.loads((tmp_path / "b" / tuning.STYLE).read_text())["tuned"]
    assert entry["weights"] == whole.weights and entry["record"]["budget_games"] == 100


def test_ctrl_c_of_borabora_tune_says_how_to_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from borabora_sim.cli import main

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(tuning, "tune", interrupt)
    assert main(["tune", "--out", str(tmp_path), "--budget", "40"]) == 130
    assert capsys.readouterr().err == (f"borabora tune: interrupted; no generation was finished yet in {tmp_path}; "
                                       f"to continue the run from there: borabora tune --out {tmp_path} --budget 40 "
                                       f"--resume\n")


def test_a_run_with_other_arguments_is_refused(tmp_path: Path) -> None:
    tuning.tune(out=tmp_path, seed=3, **TINY)
    with pytest.raises(ValueError, match=r"other arguments \(seed=3\)"):
        tuning.tune(out=tmp_path, seed=4, **TINY)
    with pytest.raises(ValueError, match="already holds a tuning run"):
        tuning.tune(out=tmp_path, seed=3, resume=False, **TINY)


@pytest.mark.parametrize(("changes", "message"), [
    ({"games_per_eval": 10}, "multiple of 4"),
    ({"opponents": ["random", "random"]}, "one player spec or 3"),
    ({"opponents": "heuristic:style=nope"}, "style"),
    ({"sigma0": 0}, "sigma0"),
    ({"budget": 0}, "budget"),
    ({"game": "nope"}, "unknown game"),
])
def test_bad_arguments_are_one_line_errors(tmp_path: Path, changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        tuning.tune(out=tmp_path, **{**TINY, **changes})
    assert "\n" not in str(error.value)


def test_bamboo_is_tuned_by_the_same_code(tmp_path: Path) -> None:
    result = tuning.tune(get_game("bamboo"), budget=16, games_per_eval=4, popsize=2, validation_games=4,
                         out=tmp_path, progress=False)
    assert set(result.weights) == set(get_game("bamboo").weight_names)
    assert result.style_entry()["tuned"]["record"]["settings"]["game"] == "bamboo"


def test_shipped_tuned_styles_are_complete_and_say_how_they_were_obtained() -> None:
    for game_name, styles in (("bora_bora", BORA_BORA_STYLES), ("bamboo", BAMBOO_STYLES)):
        game = get_game(game_name)
        for name, entry in styles.items():
            assert set(entry["weights"]) == set(game.weight_names)
            record = entry["record"]
            assert record["optimiser"].startswith("CMA-ES")
            assert record["validation"]["games"] >= 2000 and record["validation"]["ci_low"] > 0.25
            assert record["settings"]["seed"] is not None and record["commit"]
            player = make_player(f"heuristic:style={name}", 1, game)
            assert list(player.weights) == [entry["weights"][w] for w in game.weight_names]
