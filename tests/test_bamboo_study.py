"""The Bamboo spirits study: it runs at its quick size, its pairs differ only by the spirit, its answer follows
the Holm-corrected verdicts, and the counterfactual judges Bamboo decisions with paired rollouts."""

from __future__ import annotations

import copy
from pathlib import Path

import pandas as pd
import pytest

from borabora_sim import stats
from borabora_sim.counterfactual import RolloutJudge, choice_values
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import spirits_study as spirits
from borabora_sim.games.bamboo import variants as bamboo_variants


@pytest.fixture(scope="module")
def bamboo():
    return get_game("bamboo")


def test_quick_study_runs_and_its_report_has_the_stated_sections(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture) -> None:
    study = spirits.sized("quick")
    report = spirits.run(study, tmp_path, log=lambda _: None, progress=True)
    text = report.read_text()
    for heading in ("Answer", "Method", "1. What each spirit is worth, by round", "1b. With a different player",
                    "2. When the fallbacks are the best choice", "3. Sensitivity to the INVENTED data"):
        assert f"## {heading}" in text, heading
    assert "95% CI" in text and "pairs" in text and " VP" not in text
    bars = capsys.readouterr().err
    variant_games = len(study.variants) * (study.variant_games + study.variant_counterfactual_games)
    for step, total in (("1/3 spirits, heuristic", study.games), ("1/3 spirits, stronger rung", study.strong_games),
                        ("2/3 fallbacks", study.counterfactual_games), ("3/3 variants", variant_games)):
        assert f"{step}: 100%" in bars and f"{total}/{total} [" in bars, step
    cells = pd.read_csv(tmp_path / "spirits_by_round.csv")
    pairs = pd.read_parquet(tmp_path / "spirits_pairs.parquet")
    heuristic = pairs[pairs["rung"] == study.spec]
    assert cells["pairs"].sum() == len(heuristic)
    assert (heuristic.groupby(["game_id", "spirit", "round"]).size() == 1).all()      # one pair per game and cell
    # the end's variety HP differ by the tile's 2 HP in most pairs; play that drifts apart can move them either way
    assert (heuristic["variety_hp"] % 2 == 0).all() and (heuristic["variety_hp"] == 2).mean() > 0.5
    beyond = (heuristic["hp_gain"] - heuristic["variety_hp"]).groupby([heuristic["spirit"], heuristic["round"]]).mean()
    assert cells.set_index(["spirit", "round"])["use_hp"].to_dict() == pytest.approx(beyond.to_dict())
    for _, row in cells.iterrows():
        assert f"| {row['spirit']} | {row['round']} | {row['pairs']} |" in text
        assert row["hp_ci_low"] <= row["hp_gain"] <= row["hp_ci_high"]
        assert row["hp_verdict"] in stats.VERDICTS and row["win_verdict"] in stats.VERDICTS
    assert (tmp_path / "spirits_by_round.png").stat().st_size > 0
    variants = pd.read_csv(tmp_path / "spirits_variants.csv")
    assert set(variants["variant"]) == {spirits.BUILT_IN, *study.variants}


def test_with_and_without_states_differ_only_by_the_spirit(bamboo) -> None:
    cuts, final = spirits.autumn_cuts(bamboo, 11, ["heuristic"] * 4)
    assert [round_ for round_, _, _ in cuts] == [1, 2, 3, 4] and final.is_terminal()
    checked = 0
    for _, cut, won in cuts:
        for seat, kinds in enumerate(won):
            for spirit, count in enumerate(kinds):
                if not count:
                    continue
                before = cut.to_dict()
                after = spirits.without_spirit(bamboo, cut, seat, spirit).to_dict()
                expected = copy.deepcopy(before)
                player = expected["state"]["pl"][seat]
                player["spirits"][spirit] -= 1
                player["asleep"][spirit] = min(player["asleep"][spirit], player["spirits"][spirit])
                expected["state"]["spirit_gone"][spirit] += 1
                if cut.is_terminal():
                    kinds_held = sum(1 for c in player["spirits"] if c)
                    player["hp"][bamboo.sources.index("spirit_types")] = 2 * kinds_held
                assert after == expected
                assert cut.to_dict() == before                  # the studied state itself is untouched
                checked += 1
    assert checked >= 12            # four Autumns of four temples, a few temples without incense at most


def test_without_spirit_refuses_a_spirit_the_seat_does_not_hold(bamboo) -> None:
    state = bamboo.new_initial_state(players=4, seed=3)
    with pytest.raises(ValueError, match="holds no Kappa tile"):
        spirits.without_spirit(bamboo, state, 0, 0)


def _summary_rows() -> pd.DataFrame:
    """Pairs of two spirits in round 1: Kappa with a large effect, Tanuki with a small one whose raw p-value is
    below 5% but not after Holm's correction over the cells."""
    rows = []
    for pair in range(30):
        rows.append({"game_id": pair, "rung": "heuristic", "round": 1, "spirit": "Kappa", "seat": 0,
                     "hp_with": 40 + 4 + pair % 3, "hp_without": 40, "win_with": pair < 20, "win_without": pair < 2,
                     "variety_hp": 2})
        gain = 1 if pair < 7 else -1 if pair == 7 else 0          # Wilcoxon p about 0.04 alone
        rows.append({"game_id": pair, "rung": "heuristic", "round": 1, "spirit": "Tanuki", "seat": 1,
                     "hp_with": 40 + gain, "hp_without": 40, "win_with": pair < 3, "win_without": pair < 3,
                     "variety_hp": 0})
        rows.append({"game_id": pair, "rung": "heuristic", "round": 2, "spirit": "Tanuki", "seat": 1,
                     "hp_with": 40, "hp_without": 40, "win_with": False, "win_without": False, "variety_hp": 0})
    return pd.DataFrame(rows)


def test_answer_sentences_follow_the_holm_corrected_verdicts() -> None:
    table = spirits.summary(_summary_rows(), ("spirit", "round"), players=4)
    kappa, tanuki = table.iloc[0], table.iloc[1]
    assert kappa["vp_verdict"] == kappa["win_verdict"] == "A better"
    assert tanuki["wilcoxon_p"] < 0.05 and tanuki["vp_verdict"] == "no detectable difference"
    assert kappa["use_verdict"] == "A better" and kappa["use_hp"] == pytest.approx(3.0)
    lines = spirits.spirit_words(table)
    assert lines[0] == ("1 of the 3 spirit x round cells show a detectable HP gain for the seat that won the "
                        "spirit, and 1 a detectable gain of first place.")
    assert lines[1].startswith("A spirit won in round 1 is worth +5.0 to +5.0 HP by the end (1 of 2 spirits "
                               "detectable), of which 2.0 to 2.0 HP is the variety bonus.")
    assert lines[2].startswith("Beyond the variety bonus, 1 cell(s) show a detectable gain; the largest: Kappa won in "
                               "round 1, +3.0 HP (95% CI")
    kappa_line = next(line for line in lines if line.startswith("Kappa:"))
    assert kappa_line.startswith("Kappa: won in round 1: +5.0 HP (+4.")
    assert "+3.0 HP beyond its variety bonus (" in kappa_line and "+60.0 points of first place (" in kappa_line
    assert "Tanuki: nothing detectable when won in round(s) 1, 2 (60 pairs)." in lines
    # a spirit whose HP verdict is "A worse" is worded as a loss, never as a gain
    worse = table.copy()
    worse.loc[0, "vp_verdict"], worse.loc[0, "vp_diff"] = "A worse", -3.0
    worded = spirits.spirit_words(worse)
    assert worded[0].startswith("0 of the 3 spirit x round cells show a detectable HP gain")
    assert any(line.startswith("Kappa: won in round 1: 3.0 HP fewer (") for line in worded)
    # the strength and variant sentences compare verdicts, not estimates
    first = table[table["round"] == 1]
    pooled = pd.concat([first.assign(rung="heuristic"), first.assign(rung="mcts seat")], ignore_index=True)
    pooled.loc[pooled.index[-1], "vp_verdict"] = "A better"             # Tanuki, mcts seat
    words = spirits.strength_words(pooled, ["heuristic", "mcts seat"], (3, 8))
    assert words[0] == ("The mcts seat took first place in 3 of its 8 games (95% CI 14%-69%; an equal player: 25%): "
                        "not detectably more or less often than an equal player.")
    assert "same HP verdict as the heuristic rung for 1 of 2 spirits; it differs for Tanuki (nothing detectable " \
           "-> a gain)" in words[1]


def _fallback_values(rechecked: list[float], option: str = "balance 1 HP") -> pd.DataFrame:
    """Judged decisions whose first pass alternates best, tied, worse, with the given rechecked advantages."""
    n = len(rechecked)
    values = pd.DataFrame({"option": [option] * n, "round": [1 + i % 4 for i in range(n)], "situation": ["x"] * n,
                           "advantage": [(0.1, 0.0, -0.2)[i % 3] for i in range(n)],
                           "recheck_advantage": rechecked, "chosen": [i % 2 == 0 for i in range(n)]})
    values["best"], values["tied"] = values["advantage"] > 0, values["advantage"] == 0
    values["confirmed"] = values["best"] & (values["recheck_advantage"] > 0)
    return values


def test_fallback_answer_follows_the_holm_corrected_verdicts() -> None:
    # 'balance 1 HP' rechecked clearly ahead; 'improve 1 coin' slightly behind, raw p < 0.05 but not after Holm
    ahead = _fallback_values([0.1 + 0.01 * (i % 5) for i in range(30)])
    behind = _fallback_values([-0.05 if i < 7 else 0.05 if i == 7 else 0.0 for i in range(30)], "improve 1 coin")
    values = pd.concat([ahead, behind], ignore_index=True).assign(variant="built-in")
    # a third row in the family: Holm's correction over three tests lifts improve's p = 0.034 to 0.068
    table = spirits.fallback_verdicts(pd.concat([values, behind.assign(variant="other")]), ["variant"])
    verdicts = table[table["variant"] == "built-in"].set_index("option")
    assert verdicts.loc["balance 1 HP", "verdict"] == "A better"
    assert verdicts.loc["improve 1 coin", "wilcoxon_p"] < 0.05
    assert verdicts.loc["improve 1 coin", "verdict"] == "no detectable difference"
    assert verdicts.loc["balance 1 HP", "best_share"] == pytest.approx(10 / 30)
    assert verdicts.loc["balance 1 HP", "tied_share"] == pytest.approx(10 / 30)
    lines = spirits.fallback_words(verdicts.reset_index(), values, 8)
    balance = next(line for line in lines if line.startswith("'balance 1 HP'"))
    assert balance.startswith("'balance 1 HP' was strictly the best option in 33% (95% CI")
    assert "it is better on average than the best other option (+0.120 of win probability" in balance
    improve = next(line for line in lines if line.startswith("'improve 1 coin'"))
    assert "not detectably better or worse on average than the best other option" in improve
    assert "worse on average" not in improve.replace("better or worse on average", "")


def test_counterfactual_judges_a_bamboo_decision_with_paired_rollouts(bamboo) -> None:
    fallback = spirits.fallback_ids(bamboo)
    assert {bamboo.action_name(a) for a in fallback} == set(spirits.FALLBACKS)
    values = choice_values(1, ["heuristic"] * 3, fallback.__contains__, spirits.situation, game=bamboo, focus=[0],
                           seed=4, judge=RolloutJudge(rollouts=6))
    assert len(values) and set(values["seat"]) == {0}
    assert set(values["option"]) <= set(spirits.FALLBACKS)
    assert (values["advantage"] == values["value"] - values["best_alternative_value"]).all()
    assert not values["best_alternative"].isin(spirits.FALLBACKS).any()
    assert values["value"].between(0, 1).all() and (values["n_legal"] >= 2).all()
    # paired: the same seed gives the same judgements
    again = choice_values(1, ["heuristic"] * 3, fallback.__contains__, spirits.situation, game=bamboo, focus=[0],
                          seed=4, judge=RolloutJudge(rollouts=6))
    pd.testing.assert_frame_equal(values, again)


def test_paired_rollouts_judge_options_on_common_randomness(bamboo) -> None:
    state = bamboo.new_initial_state(players=3, seed=8)
    legal = state.legal_actions()
    judge = RolloutJudge(rollouts=8)
    values = judge.values(state, legal, seed=1, game=bamboo)
    assert set(values) == set(legal)
    assert judge.values(state, legal, seed=1, game=bamboo) == values
    # an option judged alone gets the value it got beside the others: its rollouts do not depend on them
    assert judge.values(state, [legal[0]], seed=1, game=bamboo)[legal[0]] == values[legal[0]]


@pytest.mark.parametrize("name", list(bamboo_variants.VARIANTS))
def test_each_bamboo_variant_changes_only_invented_values(name: str) -> None:
    from borabora_sim.games.bamboo.components import load_components

    base = load_components()
    variant = load_components(bamboo_variants.variant_document(name))
    changed = [key for key in base.marks if _value(base, key) != _value(variant, key)]
    assert changed, "the variant changes nothing"
    assert all(base.marks[key] == variant.marks[key] == "INVENTED" for key in changed), changed


def _value(components, path: str):
    doc = components.to_json_dict()
    for part in path.replace("]", "").replace("[", ".").split("."):
        doc = doc[int(part)] if part.isdigit() else doc[part]
    return doc


def test_unknown_size_and_variant_are_refused() -> None:
    with pytest.raises(ValueError, match="quick, default, full"):
        spirits.sized("huge")
    with pytest.raises(ValueError, match="unknown Bamboo variant 'nope'; variants: balance_hp_high"):
        bamboo_variants.variant_document("nope")


def test_pooled_keeps_one_pair_per_rung_game_and_spirit() -> None:
    pairs = pd.DataFrame({"rung": ["heuristic", "heuristic", "mcts seat", "heuristic"], "game_id": [0, 0, 0, 1],
                          "round": [3, 1, 2, 2], "spirit": ["Kappa"] * 4})
    kept = spirits.pooled(pairs)
    assert sorted(zip(kept["rung"], kept["game_id"], kept["round"], strict=True)) == [
        ("heuristic", 0, 1), ("heuristic", 1, 2), ("mcts seat", 0, 2)]
