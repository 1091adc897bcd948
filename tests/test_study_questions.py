"""The three studies as question files: with the same seeds and judges, the question engine reproduces the tables the
study modules wrote (tests/data/studies/, quick size), cell by cell: the games, counts, rates and effects. The
intervals, p-values and verdicts are not compared: the engine now judges each table's rows together with
simultaneous intervals that decide its verdicts (`stats.paired_table`), where the studies printed 95% intervals beside
Holm-corrected tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import tomllib

from borabora_sim.questions import ask, builtin_questions

STUDIES = Path(__file__).parent / "data" / "studies"
pytestmark = pytest.mark.slow             # each fixture asks a whole question


REFITTED = "learned"
METHOD = {"ci", "p", "holm", "verdict", "wilcoxon", "mcnemar"}       # the parts of the names of judged columns


def _judged_columns(table: pd.DataFrame) -> list[str]:
    """The columns a table's judgement wrote (intervals, p-values, verdicts), where the table has verdicts."""
    if not any("verdict" in column or "holm" in column for column in table.columns):
        return []
    return [column for column in table.columns if METHOD & set(column.split("_"))]


def _with_judges(name: str, judges: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A built-in question with the judges (and players) the study used for the parts named in `judges` (the
    engine's default judge is now the game's network)."""
    question = tomllib.loads(builtin_questions()[name].read_text())
    for part in question["parts"]:
        part.update(judges.get(part["name"], {}))
    return question


def assert_same_cells(before: pd.DataFrame, after: pd.DataFrame, names: dict[str, str]) -> None:
    """Every column of `before` but its judged ones (`_judged_columns`) equals its column of `after` (named by
    `names` where the name changed), row by row: numbers to 1e-12, everything else as text. The `learned` player
    was refitted on new features after the study modules wrote these tables, so its rows are left out."""
    before = before.drop(columns=_judged_columns(before))
    if "rung" in before.columns:
        before = before[before["rung"] != REFITTED].reset_index(drop=True)
        after = after[after["rung"] != REFITTED].reset_index(drop=True)
    assert len(before) == len(after)
    for column in before.columns:
        old, new = before[column], after[names.get(column, column)]
        if pd.api.types.is_numeric_dtype(old) and pd.api.types.is_numeric_dtype(new):
            assert np.allclose(old.to_numpy(float), new.to_numpy(float), rtol=0, atol=1e-12, equal_nan=True), column
        else:
            assert old.astype(str).tolist() == new.astype(str).tolist(), column


@pytest.fixture(scope="module")
def priest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("priest")
    ask("priest", out, size="quick", jobs=1, progress=False)
    return out


def test_the_priest_question_file_is_short() -> None:
    assert len(builtin_questions()["priest"].read_text().splitlines()) <= 60


def test_the_priest_question_reproduces_the_priest_studys_summary(priest: Path) -> None:
    names = {"pairs": "games", "vp_gain": "vp_diff", "vp_ci_low": "vp_diff_ci_low", "vp_ci_high": "vp_diff_ci_high",
             "win_gain": "win_diff", "win_ci_low": "win_diff_ci_low", "win_ci_high": "win_diff_ci_high",
             "direct_temple_vp": "direct"}
    assert_same_cells(pd.read_csv(STUDIES / "priest" / "priest_summary.csv"), pd.read_csv(priest / "effects.csv"),
                      names)


def test_the_priest_question_reproduces_the_changes_with_strength(priest: Path) -> None:
    assert_same_cells(pd.read_csv(STUDIES / "priest" / "priest_changes.csv"),
                      pd.read_csv(priest / "changes_with_strength.csv"), {})


def test_the_priest_question_reproduces_each_players_strength(priest: Path) -> None:
    before = pd.read_csv(STUDIES / "priest" / "priest_strength.csv")
    common = ["rung", "spec", "games", "win_rate", "ci_low", "ci_high"]
    assert_same_cells(before[common], pd.read_csv(priest / "strength.csv"), {})


@pytest.fixture(scope="module")
def fishing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fishing")
    ask(_with_judges("fishing", {"best_move": {"judge": "tuned", "second_judge": "balanced", "rungs": ["heuristic"]}}),
        out, size="quick", jobs=1, progress=False)
    return out


def _with_arm_names(table: pd.DataFrame) -> pd.DataFrame:
    """The comparison as the study named it, "normal - never", from the arms' names."""
    return table.assign(comparison=table["arm_a"] + " - " + table["arm_b"])


@pytest.mark.slow
def test_the_fishing_question_reproduces_how_often_each_player_fishes(fishing: Path) -> None:
    assert_same_cells(pd.read_csv(STUDIES / "fishing" / "fishing_frequency.csv"),
                      pd.read_csv(fishing / "frequency_decisions.csv"), {"fished": "chosen"})


@pytest.mark.slow
@pytest.mark.parametrize(("before", "after"), [("fishing_arms", "arms_effects"), ("fishing_strength", "arms_strength")])
def test_the_fishing_question_reproduces_the_arms_of_each_player(fishing: Path, before: str, after: str) -> None:
    table = pd.read_csv(fishing / f"{after}.csv")
    assert_same_cells(pd.read_csv(STUDIES / "fishing" / f"{before}.csv"),
                      _with_arm_names(table) if "arm_a" in table else table, {})


@pytest.mark.slow
def test_the_fishing_question_reproduces_the_robustness_table(fishing: Path) -> None:
    before = pd.read_csv(STUDIES / "fishing" / "fishing_robustness.csv")
    after = _with_arm_names(pd.read_csv(fishing / "arms_robustness.csv"))
    after = after[(after["players"] != 4) | (after["components"] != "as printed")].reset_index(drop=True)   # own games
    assert after["components"].tolist() == [("as printed" if v == "built-in" else v.replace("_", " "))
                                            for v in before["variant"]]
    assert_same_cells(before.drop(columns="variant"), after, {})


@pytest.mark.slow
def test_the_fishing_question_reproduces_the_changes_with_strength(fishing: Path) -> None:
    changes = pd.read_csv(fishing / "arms_changes_with_strength.csv")
    effects = pd.read_csv(fishing / "arms_effects.csv").drop_duplicates("comparison")
    names = dict(zip(effects["comparison"], effects["arm_a"] + " - " + effects["arm_b"], strict=True))
    assert_same_cells(pd.read_csv(STUDIES / "fishing" / "fishing_changes.csv"),
                      changes.assign(comparison=changes["comparison"].map(names)), {})


@pytest.mark.slow
@pytest.mark.parametrize(("before", "after"), [("fishing_counterfactual", "best_move_options"),
                                               ("fishing_counterfactual_weak", "best_move_second_judge_options")])
def test_the_fishing_question_reproduces_the_judged_options(fishing: Path, before: str, after: str) -> None:
    old = pd.read_csv(STUDIES / "fishing" / f"{before}.csv")
    assert_same_cells(old.drop(columns=["blocked", "start_position", "vp_gap"]), pd.read_csv(fishing / f"{after}.csv"),
                      {"n_blocked": "blocked"})


def test_the_fishing_question_file_is_short() -> None:
    assert len(builtin_questions()["fishing"].read_text().splitlines()) <= 60


@pytest.mark.slow
def test_the_study_reports_speak_the_games_words(fishing: Path, priest: Path) -> None:
    from game_words import identifiers_in

    from borabora_sim.games import get_game

    for report in (fishing / "report.md", priest / "report.md"):
        assert identifiers_in(report.read_text(), get_game("bora_bora")) == [], report


@pytest.fixture(scope="module")
def spirits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("spirits")
    ask(_with_judges("spirits", {"fallbacks": {"judge": "balanced"}}), out, size="quick", jobs=1, progress=False)
    return out


SPIRIT_NAMES = {"spirit": "kind", "pairs": "games", "hp_gain": "vp_diff", "hp_ci_low": "vp_diff_ci_low",
                "hp_ci_high": "vp_diff_ci_high", "hp_verdict": "vp_verdict", "variety_hp": "own", "use_hp": "beyond",
                "use_ci_low": "beyond_ci_low", "use_ci_high": "beyond_ci_high", "use_wilcoxon_p": "beyond_p",
                "use_wilcoxon_p_holm": "beyond_p_holm", "use_verdict": "beyond_verdict", "win_gain": "win_diff",
                "win_ci_low": "win_diff_ci_low", "win_ci_high": "win_diff_ci_high", "variant": "components"}
FALLBACK_NAMES = {"option": "group", "situation": "fallback", "wilcoxon_p": "advantage_p",
                  "wilcoxon_p_holm": "advantage_p_holm", "variant": "components"}
FALLBACK_WORDS = {"balance_hp": "balance 1 HP", "improve_coin": "improve 1 coin"}


def _as_the_study_named(table: pd.DataFrame) -> pd.DataFrame:
    """Components and fallbacks as the study named them ("built-in", "home_costly", "balance 1 HP")."""
    if "components" in table:
        table = table.assign(components=table["components"].replace({"as printed": "built-in"}).str.replace(" ", "_"))
    return table.assign(group=table["group"].map(FALLBACK_WORDS)) if "group" in table else table


def test_the_spirits_question_file_is_short() -> None:
    assert len(builtin_questions()["spirits"].read_text().splitlines()) <= 60


@pytest.mark.slow
@pytest.mark.parametrize(("before", "after"), [("spirits_by_round", "spirits_by_round"),
                                               ("spirits_variants", "spirits_robustness")])
def test_the_spirits_question_reproduces_what_each_spirit_is_worth(spirits: Path, before: str, after: str) -> None:
    assert_same_cells(pd.read_csv(STUDIES / "spirits" / f"{before}.csv"),
                      _as_the_study_named(pd.read_csv(spirits / f"{after}.csv")), SPIRIT_NAMES)


@pytest.mark.slow
def test_the_spirits_question_reproduces_the_balanced_heuristics_pooled_values(spirits: Path) -> None:
    """The study played its stronger rung in 2-player games (its seat count came from the two specs it was given),
    where the question seats that player among three balanced heuristics; so only the balanced heuristic's rows
    are compared, without the judged columns, whose family holds the stronger rung's rows too."""
    before = pd.read_csv(STUDIES / "spirits" / "spirits_by_strength.csv")
    before = before[before["rung"] == "heuristic"]
    after = pd.read_csv(spirits / "spirits_effects.csv")
    assert_same_cells(before[[c for c in before.columns if not METHOD & set(c.split("_"))]],
                      after[after["rung"] == "heuristic"].reset_index(drop=True), SPIRIT_NAMES)


@pytest.mark.slow
def test_the_spirits_question_reproduces_the_judged_fallbacks(spirits: Path) -> None:
    before = pd.read_csv(STUDIES / "spirits" / "spirits_fallbacks.csv")
    after = pd.read_csv(spirits / "fallbacks_options.csv")
    study_situations = ["decision_kind", "coins", "hp_gap", "n_score", "n_obtain", "n_buy", "situation"]
    assert_same_cells(before.drop(columns=study_situations), after, {})
    assert before["situation"].tolist() == after["fallback"].tolist()


@pytest.mark.slow
@pytest.mark.parametrize(("before", "after"), [("spirits_fallbacks_by_round", "fallbacks_by_round"),
                                               ("spirits_fallbacks_by_situation", "fallbacks_by_fallback"),
                                               ("spirits_fallback_verdicts", "fallbacks_summary"),
                                               ("spirits_fallbacks_variants", "fallbacks_robustness")])
def test_the_spirits_question_reproduces_when_the_fallbacks_are_best(spirits: Path, before: str, after: str) -> None:
    old = pd.read_csv(STUDIES / "spirits" / f"{before}.csv")
    new = _as_the_study_named(pd.read_csv(spirits / f"{after}.csv"))
    if "variant" in old:             # the study listed its rows by fallback, the question by setting
        old = old.sort_values(["option", "variant"], kind="stable").reset_index(drop=True)
        new = new.sort_values(["group", "components"], kind="stable").reset_index(drop=True)
    assert_same_cells(old, new, FALLBACK_NAMES)


@pytest.mark.slow
def test_the_spirits_report_speaks_the_games_words(spirits: Path) -> None:
    from game_words import identifiers_in

    from borabora_sim.games import get_game

    assert identifiers_in((spirits / "report.md").read_text(), get_game("bamboo")) == []


def test_the_hold_question_reproduces_the_hold_studys_comparisons(tmp_path: Path) -> None:
    ask("hold", tmp_path, size="quick", jobs=1, progress=False)
    before = pd.read_csv(STUDIES / "hold" / "hold_comparisons.csv")
    after = pd.read_csv(tmp_path / "effects.csv")
    assert after["arm_b"].eq("hold20").all()
    names = {"hold15": "hold at 15", "hold25": "hold at 25", "hold30": "hold at 30", "keep_pace": "keep_pace"}
    assert_same_cells(before, after.assign(challenger=after["arm_a"].map(names)), {})


def test_the_hold_question_file_is_short() -> None:
    assert len(builtin_questions()["hold"].read_text().splitlines()) <= 60
