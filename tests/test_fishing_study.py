"""The fishing study: end to end at a tiny size for players of rising strength, an Answer worded only from the
Holm-corrected verdicts of its tables, the agreement of its two judges, and results that do not depend on the
number of workers."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pytest

import borabora_sim
from borabora_sim import stats, verdicts
from borabora_sim.games.bora_bora import fishing_study as fishing
from borabora_sim.studies import strength
from borabora_sim.viewer import record_game


@pytest.mark.slow
def test_fishing_study_runs_end_to_end_at_quick_size(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    study = fishing.sized("quick")
    report = fishing.run(study, tmp_path, log=lambda _: None, progress=True)
    text = report.read_text()
    for heading in ("Answer", "1. How often each player fishes",
                    "2. Forbidding, allowing, preferring fishing, for players of rising strength",
                    "3. When fishing is the best move", "4. Robustness"):
        assert f"## {heading}" in text
    assert "paired games" in text and "95% CI" in text
    for label in study.rungs:                      # every rung has its column of fishing shares and its arms
        assert f"| {label} |" in text and f"`{strength.rung(label).spec}`" in text
    for figure in ("fishing_by_round.png", "fishing_arms.png", "fishing_best_by_blocked.png"):
        assert (tmp_path / figure).stat().st_size > 0
    # the replay of a game in which fishing was the best move, linked at that decision, where it is legal
    link = re.search(r"\[Replay of an illustrative game\]\(fishing_replay\.html#decision=(\d+)\) \(game \d+ of this "
                     r"part, seed (\d+), .*?`(place \d on fishing)` was the best legal move", text)
    assert link is not None and (tmp_path / fishing.REPLAY).stat().st_size > 100_000
    decision, seed, option = int(link[1]), int(link[2]), link[3]
    state = borabora_sim.new_game(players=4, seed=seed)
    for action in record_game(seed, list(fishing.COUNTERFACTUAL_PLAYERS), reasons=0).actions[:decision]:
        state.apply(action)
    assert option in [state.action_to_string(a) for a in state.legal_actions()]
    # every long step showed a bar with its total (so tqdm can estimate the time left), on stderr only
    bars = capsys.readouterr()
    assert bars.out == ""
    settings = 2 + len(study.variants)
    steps = [("1/4 how often each player fishes", study.frequency_games * len(study.rungs)),
             ("3/4 when fishing is the best move", study.counterfactual_games + study.agreement_games),
             ("4/4 robustness", 3 * study.robustness_games * settings)]
    steps += [(f"2/4 paired arms, {label}", 3 * study.games_for(label)) for label in study.rungs]
    for step, total in steps:
        assert f"{step}: 100%" in bars.err and f"{total}/{total} [" in bars.err, step
    # the CSVs carry interval bounds as numbers, next to the Holm verdicts the report prints
    arms = pd.read_csv(tmp_path / "fishing_arms.csv")
    robustness = pd.read_csv(tmp_path / "fishing_robustness.csv")
    assert len(arms) == 2 * len(study.rungs) and len(robustness) == 2 * settings
    assert list(dict.fromkeys(arms["rung"])) == list(study.rungs)
    assert list(arms["games"]) == [study.games_for(label) for label in study.rungs for _ in range(2)]
    for table in (arms, robustness):
        for column in ("win_diff_ci_low", "win_diff_ci_high", "vp_diff_ci_low", "vp_diff_ci_high", "mcnemar_p_holm"):
            assert pd.api.types.is_float_dtype(table[column]), column
        assert (table["win_diff_ci_low"] <= table["win_diff"]).all()
        assert (table["win_diff"] <= table["win_diff_ci_high"]).all()
        assert set(table["win_verdict"]) <= set(stats.VERDICTS)
    for _, row in arms.iterrows():
        assert f"| {row['rung']} | 4 | {row['comparison']} | {row['games']} |" in text
    # the strength of each rung is its win rate with fishing allowed: the normal arm of its comparisons
    strengths = pd.read_csv(tmp_path / "fishing_strength.csv").set_index("rung")
    normal = arms[arms["comparison"] == "normal - never"].set_index("rung")
    assert strengths["win_rate"].to_dict() == pytest.approx(normal["win_a"].to_dict())
    changes = pd.read_csv(tmp_path / "fishing_changes.csv")
    assert set(changes["rung"]) == set(study.rungs[1:]) and set(changes["reference"]) == {study.rungs[0]}
    assert set(changes["metric"]) == {"win", "vp"}


def test_fishing_study_is_quiet_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    study = fishing.sized("quick", rungs=("heuristic",), games=8, robustness_games=4, variants=(),
                          counterfactual_games=1, agreement_games=0, frequency_games=1)
    text = fishing.run(study, tmp_path, log=lambda _: None, progress=False).read_text()
    assert capsys.readouterr().err == ""
    assert "No fishing option was judged by both judges" in text          # no agreement games: said, not guessed


def test_study_sizes_and_rungs_are_checked() -> None:
    with pytest.raises(ValueError, match="size must be one of quick, default, full"):
        fishing.sized("huge")
    with pytest.raises(ValueError, match="rungs must name one or more of heuristic, tuned, learned"):
        fishing.sized("quick", rungs=("mcts1000",))
    with pytest.raises(ValueError, match="agreement_games must be between 0 and counterfactual_games"):
        fishing.sized("quick", agreement_games=5)
    assert fishing.sized("quick", rungs=("mcts300", "heuristic")).rungs == ("heuristic", "mcts300")


def test_the_parallel_parts_give_the_same_rows_with_one_or_two_workers() -> None:
    one = fishing.sized("quick", counterfactual_games=2, rollouts=4, frequency_games=2, jobs=1)
    two = fishing.sized("quick", counterfactual_games=2, rollouts=4, frequency_games=2, jobs=2)
    pd.testing.assert_frame_equal(fishing.counterfactual(one), fishing.counterfactual(two))
    pd.testing.assert_frame_equal(fishing.fishing_frequency(one, "tuned"), fishing.fishing_frequency(two, "tuned"))


def _paired_row(win_diff: float, win_ci: tuple[float, float], mcnemar_p: float, vp_diff: float,
                vp_ci: tuple[float, float], wilcoxon_p: float, **labels: object) -> dict[str, object]:
    """An `asdict` row of a paired comparison with the given effects, intervals and raw p-values."""
    result = stats.PairedResult(
        label_a="a", label_b="b", games=500, focus_per_game=1, baseline=0.25, both=60, a_only=40, b_only=40,
        neither=360, win_a=0.2, win_b=0.2 - win_diff, win_diff=win_diff, win_diff_ci=win_ci, sd_win_diff=0.4,
        mcnemar_p=mcnemar_p, vp_a=100.0, vp_b=100.0 - vp_diff, vp_diff=vp_diff, vp_diff_ci=vp_ci, sd_vp_diff=8.0,
        wilcoxon_p=wilcoxon_p, vp_diff_bootstrap_ci=None, confidence=0.95)
    return {**labels, **asdict(result)}


def test_fishing_answer_follows_the_holm_corrected_verdicts_not_the_raw_ones() -> None:
    # raw p-values 0.03, 0.04, 0.02, 0.01 -> Holm 0.06, 0.06, 0.06, 0.04: only the last stays detectable
    arms = stats.paired_table(pd.DataFrame([
        _paired_row(-0.05, (-0.09, -0.01), 0.03, -2.0, (-3.5, -0.5), 0.03, rung="heuristic", players=4,
                    comparison="normal - never"),
        _paired_row(-0.04, (-0.08, -0.005), 0.04, -1.5, (-2.9, -0.1), 0.04, rung="heuristic", players=4,
                    comparison="prefer - normal"),
        _paired_row(0.06, (0.01, 0.11), 0.02, 2.5, (0.5, 4.5), 0.02, rung="learned", players=4,
                    comparison="normal - never"),
        _paired_row(-0.08, (-0.14, -0.02), 0.01, -3.0, (-5.0, -1.0), 0.01, rung="learned", players=4,
                    comparison="prefer - normal"),
    ]))
    first = arms.iloc[0]
    assert first["mcnemar_p"] < 0.05 and first["win_diff_ci"][1] < 0          # raw: fewer wins
    assert first["win_verdict"] == first["vp_verdict"] == "no detectable difference"      # corrected: none
    robustness = stats.paired_table(pd.DataFrame([
        _paired_row(-0.05, (-0.09, -0.01), 0.03, -2.0, (-3.5, -0.5), 0.2, variant="built-in", players=2,
                    comparison="normal - never"),
        _paired_row(-0.04, (-0.08, -0.01), 0.04, -2.0, (-3.5, -0.5), 0.2, variant="built-in", players=3,
                    comparison="normal - never"),
        _paired_row(-0.07, (-0.11, -0.03), 0.001, -2.0, (-3.5, -0.5), 0.2, variant="fish_rich", players=4,
                    comparison="normal - never"),
    ]))
    changes = fishing.effect_changes(arms)
    lines = fishing.answer(arms, changes, robustness, pd.DataFrame())
    allowing = next(line for line in lines if line.startswith("Allowing fishing rather than forbidding it, from"))
    assert "heuristic -5.0 (not detectable), learned +6.0 (not detectable)" in allowing
    assert lines[lines.index(allowing) + 1].startswith("No rung shows a detectable effect")
    preferring = next(line for line in lines if line.startswith("Preferring fishing rather than allowing it, from"))
    assert "learned -8.0 (detectably lower)" in preferring
    assert lines[lines.index(preferring) + 1].startswith("Its sign holds as strength rises: wherever it is "
                                                         "detectable it is lower (1 of 2 rungs; not detectable for "
                                                         "heuristic)")
    strongest = next(line for line in lines if line.startswith("For the strongest player measured (learned")
                     and "allowing" in line)
    assert "makes no detectable difference to the win rate" in strongest and "Holm p = 0.06" in strongest
    assert "wins less often" not in strongest
    # the same verdicts as the sentences printed under the table
    for (_, row), line in zip(arms.iterrows(), verdicts.verdict_lines(arms), strict=True):
        assert f"): {row['win_verdict']}; mean VP" in line
    # robustness: raw p 0.03, 0.04, 0.001 -> Holm 0.06, 0.06, 0.003
    robust = next(line for line in lines if line.startswith("Across the 3 robustness settings"))
    assert "(2 and 3 players; 4 players on 1 component variant(s); the heuristic player)" in robust
    assert "a lower win rate in 1, no detectable difference in 2" in robust


def test_judge_agreement_counts_the_options_both_judges_saw() -> None:
    def judged(best: list[bool], advantage: list[float]) -> pd.DataFrame:
        return pd.DataFrame({"game_id": 0, "decision": range(len(best)), "option": "place 1 on fishing",
                             "best_overall": best, "advantage": advantage})

    strong = judged([True, True, False, False, True, False], [0.1, 0.2, -0.1, -0.2, 0.05, -0.3])
    weak = judged([True, False, False, False], [0.05, -0.01, -0.2, -0.1])     # the first four options only
    agreement = fishing.judge_agreement(strong, weak)
    assert agreement is not None
    assert (agreement.options, agreement.both, agreement.strong_only, agreement.weak_only, agreement.neither) == \
        (4, 1, 1, 0, 2)
    assert agreement.agreement == pytest.approx(0.75) and agreement.strong_share == pytest.approx(0.5)
    assert agreement.kappa == pytest.approx((0.75 - 0.5) / 0.5)               # chance agreement 0.5*0.25+0.5*0.75
    words = fishing.agreement_words(agreement)
    assert "agree on whether fishing is the best move in 75%" in words and "no detectable difference" in words
    assert fishing.judge_agreement(strong, weak.iloc[0:0]) is None
