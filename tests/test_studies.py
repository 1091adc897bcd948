"""The strategy studies run end to end at a tiny size and write a report that states its sample sizes (the fishing
study: tests/test_fishing_study.py; the priest study's strength dimension: tests/test_priest_study.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from borabora_sim.games.bora_bora import fishing_study as fishing
from borabora_sim.games.bora_bora.variants import VARIANTS, variant_document


def test_priest_answer_follows_the_holm_corrected_verdicts_not_the_raw_ones() -> None:
    from borabora_sim.games.bora_bora import priest_study as priest

    rows = []
    for round_ in range(1, 7):
        for pair in range(20):
            if round_ == 1:                     # 9 pairs won only with the priest, 1 only without: raw p = 0.02
                win_with, win_without = pair < 9, pair == 9
                gain = 1 if pair < 9 else -1 if pair == 9 else 0
            elif round_ == 2:                   # a large effect that survives the correction
                win_with, win_without, gain = True, False, 5 + pair % 3
            else:
                win_with = win_without = pair < 5
                gain = 0
            rows.append({"game_id": pair, "round": round_, "seat": 0, "vp_without": 100, "vp_with": 100 + gain,
                         "win_without": win_without, "win_with": win_with, "direct_temple_vp": 13 - 2 * round_})
    table = priest.summary(pd.DataFrame(rows), players=4)
    first = table.iloc[0]
    assert first["mcnemar_p"] < 0.05 and first["win_diff_ci"][0] > 0                  # raw: more wins
    assert first["wilcoxon_p"] < 0.05 and first["vp_diff_ci"][0] > 0                  # raw: more VP
    assert first["win_verdict"] == first["vp_verdict"] == "no detectable difference"  # after Holm over 6 rounds
    lines = priest.plain_words(table)
    assert lines[0].startswith("A priest gained at the start of round 1 makes no detectable difference to the "
                               "final VP (+0.4 VP, 95% CI")
    assert "gives no detectable difference in win rate (+40.0 points, 95% CI" in lines[0]
    assert lines[1].startswith("A priest gained at the start of round 2 is worth +6.0 VP at the end (95% CI")
    assert "gives +100.0 points of win rate (95% CI" in lines[1]
    view = priest.summary_view(table)
    assert view.loc[0, "vp_verdict"] == "no detectable difference" and view.loc[1, "win_verdict"] == "A better"
    assert pd.api.types.is_float_dtype(view["vp_ci_low"]) and pd.api.types.is_float_dtype(view["win_ci_high"])


def test_unknown_study_size_is_rejected() -> None:
    with pytest.raises(ValueError, match="quick, default, full"):
        fishing.sized("huge")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_component_variant_is_valid_and_changes_invented_values(name: str) -> None:
    from borabora_sim.games.bora_bora.components import load_components

    base = load_components()
    variant = load_components(variant_document(name))
    changed = [key for key, mark in base.marks.items()
               if key in variant.marks and repr(_value(base, key)) != repr(_value(variant, key))]
    assert changed, "the variant changes nothing"
    assert all(base.marks[key] == "INVENTED" for key in changed), changed


def _value(components, path: str):
    doc = components.to_json_dict()
    for part in path.replace("]", "").replace("[", ".").split("."):
        doc = doc[int(part)] if part.isdigit() else doc.get(part) if isinstance(doc, dict) else None
        if doc is None:
            return None
    return doc


def test_priest_study_runs_end_to_end_and_pairs_differ_only_by_the_priest(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    from borabora_sim.games.bora_bora import priest_study as priest

    report = priest.run(priest.sized("quick", games=4, rungs=("heuristic",)), tmp_path, log=lambda _: None,
                        progress=True)
    bar = capsys.readouterr().err
    assert "priest: games and their continuations: 100%" in bar and "4/4 [" in bar
    text = report.read_text()
    assert "## Answer" in text and "| rung | round | pairs | vp_gain" in text and "direct temple VP" in text
    values = pd.read_parquet(tmp_path / "priest_values.parquet")
    assert set(values["round"]) == {1, 2, 3, 4, 5, 6} and set(values["rung"]) == {"heuristic"}
    summary = pd.read_csv(tmp_path / "priest_summary.csv")
    assert summary["round"].tolist() == [1, 2, 3, 4, 5, 6]
    assert summary["pairs"].tolist() == values.groupby("round").size().tolist()
    for column in ("vp_ci_low", "vp_ci_high", "win_ci_low", "win_ci_high", "wilcoxon_p_holm", "mcnemar_p_holm"):
        assert pd.api.types.is_float_dtype(summary[column]), column
    assert (summary["vp_ci_low"] <= summary["vp_gain"]).all() and (summary["vp_gain"] <= summary["vp_ci_high"]).all()
    assert summary["vp_gain"].tolist() == pytest.approx(values.groupby("round")["vp_gain"].mean().tolist())


def test_extra_priest_is_placed_like_a_temple_action() -> None:
    from borabora_sim.games.bora_bora import priest_study as priest

    state = priest.round_starts(7, ["heuristic"] * 4)[3]
    before = state.to_dict()["state"]["temple"]
    after = priest.with_extra_priest(state, 2).to_dict()["state"]["temple"]
    assert after[0] == 2
    end = before.index(-1) if -1 in before else len(before) - 1
    assert after[1:end + 1] == before[:end] and after[end + 1:] == before[end + 1:]
