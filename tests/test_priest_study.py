"""The priest study measured for a ladder of players: rungs, per-rung sizes, workers, and the Answer's sentences on
whether the priest's value holds as the player gets stronger."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from borabora_sim.games.bora_bora import priest_study as priest


def test_two_rungs_end_to_end_write_the_tables_and_an_answer_that_names_them(tmp_path: Path) -> None:
    study = priest.sized("quick")
    assert study.rungs == ("heuristic", "learned")
    report = priest.run(study, tmp_path, log=lambda _: None, progress=False)
    text = report.read_text()
    answer = text.split("## Answer")[1].split("## Method")[0]
    assert "For the strongest player measured, learned (`learned`, in the studied seat against 3 heuristics):" in answer
    assert "Each player's strength, its win rate in the real games of this study against 3 heuristics (25% = their " \
        "equal" in answer
    assert re.search(r"heuristic \d+\.\d% \(\d+\.\d% to \d+\.\d%, 6 games\); learned \d+\.\d% ", answer)
    assert "A priest gained at the start of round 1, from the weakest player to the strongest (VP): heuristic " \
        in answer
    assert "its values rest on the built-in component file" in answer
    assert "temple VP per priest (1, 1, 2, 2, 3, 3 in rounds 1 to 6)" in answer and "is INVENTED" in answer
    assert "from `borabora analyze priest --size quick --jobs 1 --out DIR`" in text
    for name in ("priest_summary.csv", "priest_strength.csv", "priest_changes.csv", "priest_vp_by_round.png",
                 "priest_values.parquet", "priest_games.parquet"):
        assert (tmp_path / name).exists(), name

    values = pd.read_parquet(tmp_path / "priest_values.parquet")
    summary = pd.read_csv(tmp_path / "priest_summary.csv")
    assert summary[["rung", "round"]].values.tolist() == [[r, n] for r in ("heuristic", "learned") for n in range(1, 7)]
    assert summary["pairs"].tolist() == values.groupby(["rung", "round"], sort=False).size().tolist()
    # the Holm correction runs over all 12 rows: the adjusted p-values of the smallest raw one is 12 times it
    smallest = summary["mcnemar_p"].idxmin()
    assert summary.loc[smallest, "mcnemar_p_holm"] == pytest.approx(min(1.0, 12 * summary.loc[smallest, "mcnemar_p"]))

    games = pd.read_parquet(tmp_path / "priest_games.parquet")
    strengths = pd.read_csv(tmp_path / "priest_strength.csv")
    assert strengths["rung"].tolist() == ["heuristic", "learned"] and strengths["games"].tolist() == [6, 6]
    assert strengths["win_rate"].tolist() == pytest.approx(games.groupby("rung", sort=False)["win"].mean().tolist())
    assert (strengths["ci_low"] <= strengths["win_rate"]).all()
    assert (strengths["win_rate"] <= strengths["ci_high"]).all()
    assert games["seat"].tolist() == [i % 4 for i in range(6)] * 2

    changes = pd.read_csv(tmp_path / "priest_changes.csv")
    assert changes[["metric", "round"]].values.tolist() == [[m, n] for m in ("vp", "win") for n in range(1, 7)]
    assert set(changes["rung"]) == {"learned"} and set(changes["reference"]) == {"heuristic"}


def test_the_tables_do_not_depend_on_the_number_of_workers() -> None:
    study = priest.PriestStudy(games=3, search_games=1, rungs=("heuristic", "tuned"), jobs=1)
    one_values, one_games, _ = priest.priest_values(study)
    two_values, two_games, _ = priest.priest_values(priest.sized("quick", games=3, rungs=("heuristic", "tuned"),
                                                                 jobs=2))
    pd.testing.assert_frame_equal(one_values, two_values)
    pd.testing.assert_frame_equal(one_games, two_games)
    assert one_values["rung"].tolist()[:3] == ["heuristic"] * 3 and one_values["rung"].iloc[-1] == "tuned"
    pd.testing.assert_frame_equal(priest.summary_view(priest.summary(one_values, 4)),
                                  priest.summary_view(priest.summary(two_values, 4)))


def test_the_heuristic_rung_is_the_study_as_it_was_with_one_kind_of_player() -> None:
    # the figures of the study before it had rungs (four heuristic players, seed 5, 8 games)
    values, games, _ = priest.priest_values(priest.PriestStudy(games=8, rungs=("heuristic",), jobs=1))
    by_round = values.groupby("round")[["vp_gain", "win_gain"]].sum()
    assert by_round["vp_gain"].tolist() == [95, 64, 100, 79, 58, 22]
    assert by_round["win_gain"].tolist() == [2, 2, 2, 2, 1, 1]
    assert (values["vp_without"].sum(), values["vp_with"].sum()) == (4869, 5287)
    assert values["seat"].tolist() == (values["game_id"] % 4).tolist()
    assert len(games) == 8


def test_the_studied_seat_plays_the_rung_and_the_others_the_heuristic() -> None:
    assert priest.seat_specs("learned", 4, 2) == ["heuristic", "heuristic", "learned", "heuristic"]
    assert priest.seat_specs("tuned", 3, 0) == ["heuristic:style=tuned", "heuristic", "heuristic"]
    assert priest.seat_specs("mcts300", 4, 3)[3].startswith("mcts:iterations=300")


def test_rungs_are_checked_and_put_in_ladder_order_and_search_rungs_have_their_own_size() -> None:
    with pytest.raises(ValueError, match="rungs must name one or more of heuristic, tuned, learned"):
        priest.PriestStudy(rungs=("mcts",))
    with pytest.raises(ValueError, match="rungs must name"):
        priest.sized("quick", rungs=())
    with pytest.raises(ValueError, match="games and search_games must be at least 1"):
        priest.PriestStudy(search_games=0)
    with pytest.raises(ValueError, match="jobs must be -1"):
        priest.PriestStudy(jobs=0)
    study = priest.PriestStudy(games=30, search_games=2, rungs=("mcts300", "heuristic", "mcts100"))
    assert study.rungs == ("heuristic", "mcts100", "mcts300")
    assert [study.games_of(label) for label in study.rungs] == [30, 2, 2]
    tasks = priest._tasks(study)
    assert tasks[:4] == [("mcts100", range(0, 1)), ("mcts100", range(1, 2)), ("mcts300", range(0, 1)),
                         ("mcts300", range(1, 2))]
    assert tasks[4:] == [("heuristic", range(0, 25)), ("heuristic", range(25, 30))]
    assert priest.sized("default", jobs=2).jobs == 2
    assert priest.sized("full").rungs == priest.strength.RUNG_LABELS


def _pairs(rung: str, round_: int, wins_only_with: int, pairs: int = 40) -> list[dict[str, object]]:
    """`pairs` pairs of which the first `wins_only_with` are won only with the priest, each worth 8 VP more (the
    rest win neither way, with no VP difference)."""
    return [{"rung": rung, "game_id": i, "round": round_, "seat": 0, "vp_without": 100,
             "vp_with": 100 + (8 + i % 3 if i < wins_only_with else 0), "win_without": False,
             "win_with": i < wins_only_with, "direct_temple_vp": 12 - round_} for i in range(pairs)]


def test_answer_on_strength_follows_the_verdicts_of_the_printed_tables() -> None:
    # round 1: a large effect for both rungs, of the same size; round 2: nothing detectable for either rung
    rows = (_pairs("heuristic", 1, 30) + _pairs("learned", 1, 30) + _pairs("heuristic", 2, 1)
            + _pairs("learned", 2, 0))
    table = priest.summary(pd.DataFrame(rows), players=4)
    assert table["rung"].tolist() == ["heuristic", "heuristic", "learned", "learned"]
    changes = priest.changes_table(table)
    assert (changes["change_verdict"] == "no detectable change").all()
    lines = priest.strength_words(table, changes)
    assert len(lines) == 4                                  # (VP, win) x two rounds
    vp_first, vp_second, win_first, _ = lines
    assert vp_first.startswith("A priest gained at the start of round 1, from the weakest player to the strongest "
                               "(VP): heuristic +6.8 (detectably higher), learned +6.8 (detectably higher).")
    assert "Its sign holds as strength rises" in vp_first
    assert "(Holm over 2 changes;" in vp_first             # the family of the printed change table, both rounds
    assert "(points): heuristic +75.0 (detectably higher)" in win_first
    assert vp_second.endswith("No rung shows a detectable effect, so neither its sign nor its size can be said to "
                              "hold.")
    words = priest.plain_words(table[table["rung"] == "learned"], comparisons=len(table))
    assert words[-1].startswith("Verdicts are at the 5% level after Holm's correction over the 4 comparisons "
                                "(rungs x rounds)")


def test_the_strength_summary_names_the_strongest_rung_that_reaches_the_target() -> None:
    strengths = pd.DataFrame([
        {"rung": "heuristic", "win_rate": 0.25, "ci_low": 0.23, "ci_high": 0.27, "games": 1500,
         "win_gain_half_width": 0.027},
        {"rung": "learned", "win_rate": 0.4, "ci_low": 0.37, "ci_high": 0.43, "games": 1500,
         "win_gain_half_width": 0.029},
        {"rung": "mcts300", "win_rate": 0.5, "ci_low": 0.3, "ci_high": 0.7, "games": 24,
         "win_gain_half_width": 0.2}])
    lines = priest.strength_summary(strengths)
    assert "learned 40.0% (37.0% to 43.0%, 1500 games)" in lines[0]
    assert lines[1].startswith("The strongest rung whose effect on the win rate is measured to +/- 3 points or "
                               "better in every round is learned (+/- 2.9)")
    assert "mcts300 +/- 20.0" in lines[1]
    lines = priest.strength_summary(strengths[strengths["rung"] == "mcts300"])
    assert lines[1].startswith("No rung reaches the target of +/- 3 win-rate points")


def test_changes_read_each_rows_standard_error_from_its_interval() -> None:
    # a strong rung that wins every game with and without the priest: its sd of paired win differences is 0, but
    # 24 pairs cannot rule out a priest that turns one game in eight, and its interval says so
    rows = (_pairs("heuristic", 6, 120, pairs=2000)
            + [{**row, "win_without": True, "win_with": True} for row in _pairs("mcts300", 6, 0, pairs=24)])
    table = priest.summary(pd.DataFrame(rows), players=4)
    assert table["sd_win_diff"].iloc[1] == 0
    changes = priest.changes_table(table)
    win = changes[changes["metric"] == "win"].iloc[0]
    assert win["change"] == pytest.approx(-0.06) and win["change_verdict"] == "no detectable change"
