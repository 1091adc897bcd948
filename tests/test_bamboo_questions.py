"""Bamboo's pieces for the question engine, as the spirits question uses them: a spirit taken away after the
Autumn it was won in changes nothing else, the answers follow the Holm-corrected verdicts, and the counterfactual
judges Bamboo decisions with paired rollouts."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from borabora_sim import stats
from borabora_sim.counterfactual import RolloutJudge, choice_values
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import variants as bamboo_variants
from borabora_sim.games.bamboo.questions import QUESTIONS, _fallback_situation, without_spirit
from borabora_sim.questions import load_question
from borabora_sim.questions.forms.choice import choice_verdicts
from borabora_sim.questions.forms.gift import _gift_verdicts, _kind_answer, _pooled
from borabora_sim.questions.forms.gift_games import _moments
from borabora_sim.simulate import seated_players
from borabora_sim.vocabulary import Moment

FALLBACKS = ("balance 1 HP", "improve 1 coin")


@pytest.fixture(scope="module")
def bamboo():
    return get_game("bamboo")


def _spirits_held(state) -> list[list[int]]:
    return [list(p["spirits"]) for p in state.to_dict()["state"]["pl"][:state.num_players]]


def test_a_spirit_moment_is_the_first_state_after_each_autumn(bamboo) -> None:
    edit = QUESTIONS.edits["spirit"]
    start = bamboo.new_initial_state(players=4, seed=11)
    final, moments, _ = _moments(bamboo, edit, start.clone(), seated_players(["heuristic"] * 4, 11, bamboo))
    assert sorted(moments) == [1, 2, 3, 4] and final.is_terminal()
    assert all(moment.phase != "summer" for moment in moments.values())
    # Autumn is where spirits are won: none is held before the first one
    assert all(count == 0 for held in _spirits_held(start) for count in held)


def test_without_the_spirit_the_state_differs_only_by_that_tile(bamboo) -> None:
    edit = QUESTIONS.edits["spirit"]
    start = bamboo.new_initial_state(players=4, seed=11)
    _, moments, _ = _moments(bamboo, edit, start.clone(), seated_players(["heuristic"] * 4, 11, bamboo))
    checked, before = 0, start
    for _, cut in sorted(moments.items()):
        gained = [[now - then for now, then in zip(a, b, strict=True)]
                  for a, b in zip(_spirits_held(cut), _spirits_held(before), strict=True)]
        for seat, kinds in enumerate(gained):
            for spirit, count in enumerate(kinds):
                after = without_spirit(Moment(cut.clone(), seat, spirit, before, get_game("bamboo")))
                if count <= 0:
                    assert after is None                     # only a spirit won since the last Autumn is taken
                    continue
                expected = copy.deepcopy(cut.to_dict())
                player = expected["state"]["pl"][seat]
                player["spirits"][spirit] -= 1
                player["asleep"][spirit] = min(player["asleep"][spirit], player["spirits"][spirit])
                expected["state"]["spirit_gone"][spirit] += 1
                assert after is not None and after.to_dict() == expected
                checked += 1
        before = cut
    assert checked >= 12            # four Autumns of four temples, a few temples without incense at most


def test_a_spirit_taken_from_the_final_state_takes_its_variety_hp(bamboo) -> None:
    players = seated_players(["heuristic"] * 4, 5, bamboo)
    state = bamboo.new_initial_state(players=4, seed=5)
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state))
    held = _spirits_held(state)
    seat, spirit = next((s, k) for s, kinds in enumerate(held) for k, n in enumerate(kinds) if n == 1)
    empty = bamboo.new_initial_state(players=4, seed=5)
    after = without_spirit(Moment(state.clone(), seat, spirit, empty, get_game("bamboo")))
    assert after is not None
    assert after.score_breakdown()[seat]["spirit_types"] == state.score_breakdown()[seat]["spirit_types"] - 2


def _pairs() -> pd.DataFrame:
    """Pairs of two spirits in round 1: Kappa with a large effect beyond its variety HP, Tanuki with a small one
    whose raw p-value is below 5% but not after Holm's correction over the cells."""
    rows = []
    for pair in range(30):
        rows.append({"game_id": pair, "rung": "heuristic", "round": 1, "kind": "Kappa", "seat": 0,
                     "score_with": 40 + 4 + pair % 3, "score_without": 40, "win_with": pair < 20,
                     "win_without": pair < 2, "own": 2})
        gain = 1 if pair < 7 else -1 if pair == 7 else 0          # Wilcoxon p about 0.04 alone
        rows.append({"game_id": pair, "rung": "heuristic", "round": 1, "kind": "Tanuki", "seat": 1,
                     "score_with": 40 + gain, "score_without": 40, "win_with": pair < 3, "win_without": pair < 3,
                     "own": 0})
        rows.append({"game_id": pair, "rung": "heuristic", "round": 2, "kind": "Tanuki", "seat": 1,
                     "score_with": 40, "score_without": 40, "win_with": False, "win_without": False, "own": 0})
    return pd.DataFrame(rows)


def test_the_spirits_answer_follows_the_verdicts_of_its_intervals() -> None:
    question = load_question("spirits").parts[0]
    edit = question.vocabulary.edits["spirit"]
    table = _gift_verdicts(question, _pairs(), "HP", ("kind", "round"))
    kappa, tanuki = table.iloc[0], table.iloc[1]
    assert kappa["vp_verdict"] == kappa["win_verdict"] == "A better"
    assert tanuki["vp_p"] < 0.05 and tanuki["vp_verdict"] == "no detectable difference"
    assert tanuki["vp_diff_ci"][0] < 0 < tanuki["vp_diff_ci"][1]
    assert kappa["beyond_verdict"] == "A better" and kappa["beyond"] == pytest.approx(3.0)
    assert kappa["own"] == 2 and tanuki["beyond_verdict"] == "no detectable difference"
    pooled = _gift_verdicts(question, _pooled(_pairs(), ["rung"]), "HP", ("rung", "kind"))
    lines = _kind_answer(table, pooled, edit, "HP", ["heuristic"], question)
    assert lines[0] == ("For the balanced heuristic, 1 of the 3 spirit x round cells show a detectable HP gain for "
                        "the seat with the spirit tile (Kappa won in the Autumn of round 1: +5.0), and 1 a "
                        "detectable gain in wins.")
    assert lines[1] == ("The spirit tile won in the Autumn of round 1 is worth +5.0 HP by the end (1 of 2 "
                        "spirits detectable), of which 2.0 HP is its spirit-variety HP.")
    assert lines[2].startswith("Beyond its spirit-variety HP, 1 cell(s) gain detectably; the largest: Kappa won in "
                               "the Autumn of round 1, +3.0 HP (+2.6 to +3.4)")
    # a loss is never worded as a gain
    worse = table.copy()
    worse.loc[0, "vp_verdict"] = "A worse"
    assert _kind_answer(worse, pooled, edit, "HP", ["heuristic"], question)[0].startswith(
        "For the balanced heuristic, 0 of the 3 spirit x round cells show a detectable HP gain")


def test_the_spirits_answer_says_whether_the_gains_hold_for_the_strongest_player_measured_precisely() -> None:
    """The first sentence goes on with the strongest rung that played about as many pairs as the most (the expert
    here; the network's search, with a few pairs, is too imprecise to answer for), from its pooled verdicts."""
    question = load_question("spirits").parts[0]
    edit = question.vocabulary.edits["spirit"]
    pairs = _pairs()
    few = pairs[(pairs["game_id"] < 2) & (pairs["round"] == 1)].assign(rung="net300")
    both = pd.concat([pairs, pairs.assign(rung="expert"), few], ignore_index=True)
    table = _gift_verdicts(question, pairs, "HP", ("kind", "round"))
    pooled = _gift_verdicts(question, _pooled(both, ["rung"]), "HP", ("rung", "kind"))
    lines = _kind_answer(table, pooled, edit, "HP", ["heuristic", "expert", "net300"], question)
    assert lines[0].endswith("a detectable gain in wins. For the expert player (pooled over rounds, 60 pairs), 1 of "
                             "the 2 spirits gain detectably in HP and 1 in wins.")
    assert _kind_answer(table, pooled, edit, "HP", ["heuristic"], question)[0].endswith("gain in wins.")


def _fallback_values(rechecked: list[float], group: str = "balance_hp") -> pd.DataFrame:
    """Judged decisions whose first pass alternates best, tied, worse, with the given rechecked advantages."""
    n = len(rechecked)
    values = pd.DataFrame({"group": [group] * n, "round": [1 + i % 4 for i in range(n)],
                           "advantage": [(0.1, 0.0, -0.2)[i % 3] for i in range(n)],
                           "recheck_advantage": rechecked, "chosen": [i % 2 == 0 for i in range(n)]})
    values["best"], values["tied"] = values["advantage"] > 0, values["advantage"] == 0
    values["confirmed"] = values["best"] & (values["recheck_advantage"] > 0)
    return values


def test_the_fallbacks_verdicts_are_judged_together_over_the_rows() -> None:
    # 'balance 1 HP' rechecked clearly ahead; 'improve 1 coin' slightly behind, raw p < 0.05 but not over the rows
    ahead = _fallback_values([0.1 + 0.01 * (i % 5) for i in range(30)])
    behind = _fallback_values([-0.05 if i < 7 else 0.05 if i == 7 else 0.0 for i in range(30)], "improve_coin")
    values = pd.concat([ahead, behind], ignore_index=True).assign(components="as printed")
    # a third row in the family: judged over three rows, improve's p = 0.034 becomes 0.10
    table = choice_verdicts(pd.concat([values, behind.assign(components="other")]), ["components", "group"], 0.05)
    verdicts = table[table["components"] == "as printed"].set_index("group")
    assert verdicts.loc["balance_hp", "verdict"] == "better"
    assert stats.mean_test(behind["recheck_advantage"])[3] < 0.05
    assert verdicts.loc["improve_coin", "advantage_p_adjusted"] >= 0.05
    assert verdicts.loc["improve_coin", "verdict"] == "no detectable difference"
    assert verdicts.loc["balance_hp", "best_share"] == pytest.approx(10 / 30)
    assert verdicts.loc["balance_hp", "tied_share"] == pytest.approx(10 / 30)
    assert verdicts.loc["balance_hp", "confirmed_share"] == pytest.approx(10 / 30)
    assert verdicts.loc["balance_hp", "taken_share"] == pytest.approx(0.5)


def _fallback_ids(game) -> frozenset[int]:
    return QUESTIONS.groups["balance_hp"].actions(game) | QUESTIONS.groups["improve_coin"].actions(game)


def _situation(state, action: int) -> dict[str, str]:
    return {"situation": _fallback_situation(state)}


def test_counterfactual_judges_a_bamboo_decision_with_paired_rollouts(bamboo) -> None:
    fallback = _fallback_ids(bamboo)
    assert {bamboo.action_name(a) for a in fallback} == set(FALLBACKS)
    values = choice_values(1, ["heuristic"] * 3, fallback.__contains__, _situation, game=bamboo, focus=[0],
                           seed=4, judge=RolloutJudge(rollouts=6))
    assert len(values) and set(values["seat"]) == {0}
    assert set(values["option"]) <= set(FALLBACKS)
    assert (values["advantage"] == values["value"] - values["best_alternative_value"]).all()
    assert not values["best_alternative"].isin(FALLBACKS).any()
    assert values["value"].between(0, 1).all() and (values["n_legal"] >= 2).all()
    # paired: the same seed gives the same judgements
    again = choice_values(1, ["heuristic"] * 3, fallback.__contains__, _situation, game=bamboo, focus=[0],
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


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown Bamboo variant 'nope'; variants: balance_hp_high"):
        bamboo_variants.variant_document("nope")


def test_pooled_keeps_one_pair_per_rung_game_and_spirit() -> None:
    pairs = pd.DataFrame({"rung": ["heuristic", "heuristic", "mcts1000", "heuristic"], "game_id": [0, 0, 0, 1],
                          "round": [3, 1, 2, 2], "kind": ["Kappa"] * 4})
    kept = _pooled(pairs, ["rung"])
    assert sorted(zip(kept["rung"], kept["game_id"], kept["round"], strict=True)) == [
        ("heuristic", 0, 1), ("heuristic", 1, 2), ("mcts1000", 0, 2)]
