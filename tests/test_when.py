"""When a choice's option is the best move (borabora_sim.questions.when): the situation planted in a table is found
with its conditions and its figures on the held-out games; none is found where the best move depends on nothing;
the words a player reads; the picture of an example decision of a real game."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import cast

import numpy as np
import pandas as pd
import pytest
from scipy.stats import fisher_exact

from borabora_sim import stats
from borabora_sim.games import get_game
from borabora_sim.games.bamboo.questions import QUESTIONS as BAMBOO
from borabora_sim.games.bora_bora.questions import QUESTIONS as BORA_BORA
from borabora_sim.games.pig.questions import QUESTIONS as PIG
from borabora_sim.questions import load_question
from borabora_sim.questions.forms.choice_games import _choice_task
from borabora_sim.questions.when import (
    MIN_HELD_OUT,
    Condition,
    When,
    example_caption,
    example_row,
    find_situation,
    how_sure_sentence,
    when_sentence,
    write_example_picture,
)
from borabora_sim.vocabulary import Situation, Vocabulary, lead_words

SITUATIONS = BORA_BORA.situations


def _table(seed: int, planted: str = "", games: int = 60, per_game: int = 40) -> pd.DataFrame:
    """Judged rows of `games` games: situation columns drawn at random and `best` true with probability 5%, or 40%
    in the planted situation ("pair": round 5 or later and at least 2 shells; "die": the die shows 6)."""
    rng = np.random.default_rng(seed)
    n = games * per_game
    values = pd.DataFrame({
        "game_id": np.repeat(np.arange(games), per_game), "decision": np.tile(np.arange(per_game), games),
        "round": rng.integers(1, 7, n), "die": rng.integers(1, 7, n).astype(object), "shells": rng.integers(0, 6, n),
        "vp_gap": rng.integers(-20, 21, n), "dice_left": rng.integers(1, 4, n)})
    values.loc[rng.random(n) < 0.1, "die"] = None                # a God card: no die
    inside = np.zeros(n, dtype=bool)
    if planted == "pair":
        inside = (values["round"] >= 5).to_numpy() & (values["shells"] >= 2).to_numpy()
    elif planted == "die":
        inside = (values["die"] == 6).to_numpy(dtype=bool)
    values["best"] = rng.random(n) < np.where(inside, 0.4, 0.05)
    values["recheck_advantage"] = rng.normal(size=n)
    return values


def test_a_planted_pair_of_conditions_is_found_with_its_held_out_figures() -> None:
    values = _table(1, "pair")
    result = find_situation(values, SITUATIONS, alpha=0.05, seed=3)
    assert set(result.conditions) == {Condition("round", ">=", 5.0), Condition("shells", ">=", 2.0)}
    assert result.found
    games = set(values["game_id"])
    assert len(result.held_out_games) == 20 and result.train_games == 40 and set(result.held_out_games) <= games
    held = values[values["game_id"].isin(result.held_out_games)]
    inside = ((held["round"] >= 5) & (held["shells"] >= 2)).to_numpy()
    best = held["best"].to_numpy()
    in_best, out_best = int(best[inside].sum()), int(best[~inside].sum())
    assert (result.held_out, result.inside, result.inside_best, result.outside, result.outside_best) == (
        len(held), int(inside.sum()), in_best, int((~inside).sum()), out_best)
    assert result.inside_ci == stats.wilson_interval(in_best, int(inside.sum()))
    assert result.base_rate == pytest.approx(best.mean())
    table = np.array([[in_best, inside.sum() - in_best], [out_best, (~inside).sum() - out_best]])
    expected_p = fisher_exact(table, alternative="greater").pvalue
    assert result.p_value == pytest.approx(expected_p) and result.p_value < 1e-6
    assert result.accuracy == pytest.approx((in_best + (~inside).sum() - out_best) / len(held))
    assert result.base_accuracy == pytest.approx(1 - best.mean())
    assert 0.3 < result.inside_share < 0.5 and result.outside_share < 0.1


def test_a_planted_die_value_is_found_as_one_condition() -> None:
    result = find_situation(_table(2, "die"), SITUATIONS)
    assert result.found and result.conditions == (Condition("die", "==", 6.0),)
    assert result.words == ("the die shows 6",)


def test_a_planted_situation_in_words_is_found() -> None:
    values = _table(4)
    rng = np.random.default_rng(40)
    values["fallback"] = rng.choice(["a held tile can be scored", "tiles to obtain only", "1 home tile affordable"],
                                    len(values))
    values["best"] = rng.random(len(values)) < np.where(values["fallback"] == "tiles to obtain only", 0.3, 0.05)
    result = find_situation(values, BAMBOO.situations)
    assert result.found and result.conditions == (Condition("fallback", "==", "tiles to obtain only"),)


def test_no_situation_is_found_where_the_best_move_depends_on_nothing() -> None:
    found = [find_situation(_table(100 + seed), SITUATIONS, seed=seed).found for seed in range(20)]
    assert sum(found) <= 1


def test_too_few_games_to_hold_some_out_find_nothing() -> None:
    one_game = _table(5, "pair", games=1)
    result = find_situation(one_game, SITUATIONS)
    assert not result.found and result.conditions == () and result.held_out == 0
    assert example_row(one_game, result) is None
    with pytest.raises(ValueError, match="alpha"):
        find_situation(one_game, SITUATIONS, alpha=1.5)


def test_a_situation_needs_enough_held_out_decisions() -> None:
    values = _table(6, "die")
    held = values["game_id"].isin(find_situation(values, SITUATIONS).held_out_games)   # the split is by game alone
    sixes = np.flatnonzero(held & (values["die"] == 6))
    values.loc[sixes[MIN_HELD_OUT - 1:], "die"] = 1              # one six too few left in the held-out games,
    values.loc[sixes[:MIN_HELD_OUT - 1], "best"] = True          # each the best move: only the count is short
    result = find_situation(values, SITUATIONS)
    assert result.conditions == (Condition("die", "==", 6.0),) and result.inside == MIN_HELD_OUT - 1
    assert result.p_value < 1e-6 and not result.found
    assert "at least 10 checked decisions" in how_sure_sentence(result)


def _when(found: bool = True) -> When:
    return When(conditions=(Condition("round", "==", 6.0), Condition("shells", ">=", 2.0)),
                words=("it is round 6", "you hold at least 2 shells"), found=found, alpha=0.05, train_games=40,
                held_out_games=(1, 2), held_out=500, inside=41, inside_best=17, inside_ci=(0.28, 0.56),
                outside=459, outside_best=3, base_rate=0.04, p_value=1e-12, accuracy=0.93, base_accuracy=0.96)


def test_the_situation_reads_in_game_words() -> None:
    assert when_sentence(_when(), "a die on the Fishing action") == (
        "A die on the Fishing action is the best move most often when it is round 6 and you hold at least 2 shells: "
        "best in 41% (28% to 56%) of such decisions, against 1% of the others.")
    assert when_sentence(_when(found=False), "a die on the Fishing action") == (
        "No situation was found in which a die on the Fishing action is clearly more often the best move.")
    sure = how_sure_sentence(_when())
    assert "learned from 40 games and checked on 2 others" in sure and "right at 93%" in sure
    assert "against 96% for always predicting" in sure


def test_a_condition_reads_as_a_player_says_it() -> None:
    plain = Situation("die value", lambda state, action: 0)
    assert [plain.condition_words(op, 5.0) for op in (">=", "<=", "==")] == [
        "the die value is at least 5", "the die value is at most 5", "the die value is 5"]
    with pytest.raises(ValueError, match="a condition is"):
        plain.condition_words("<", 5)
    shells = SITUATIONS["shells"]
    assert shells.condition_words(">=", 1.0) == "you hold at least 1 shell"
    assert shells.condition_words(">=", 2.0) == "you hold at least 2 shells"
    assert SITUATIONS["dice_left"].condition_words("==", 1) == "it is your last die of the round"
    at_least, at_most = lead_words("VP")
    assert [at_least(3.0), at_least(0.0), at_least(-2.0)] == [
        "you lead by at least 3 VP", "you are level or ahead", "you trail by at most 2 VP"]
    assert [at_most(-4.0), at_most(0.0), at_most(5.0)] == [
        "you trail by at least 4 VP", "you are level or behind", "you lead by at most 5 VP"]


@pytest.mark.parametrize("vocabulary", [BORA_BORA, BAMBOO, PIG], ids=lambda v: v.title)
def test_every_situation_of_a_game_has_a_value_and_words_at_a_real_decision(vocabulary: Vocabulary) -> None:
    game = get_game({"Bora Bora": "bora_bora", "Bamboo": "bamboo", "Pig": "pig"}[vocabulary.title])
    state = game.new_initial_state(players=3 if vocabulary.title != "Pig" else 2, seed=5)
    chooser = random.Random(5)
    for _ in range(40):
        state.apply(chooser.choice(state.legal_actions()))
    action = state.legal_actions()[0]
    for name, situation in vocabulary.situations.items():
        value = situation.of(state, action)
        if value is None:
            continue
        ops = ("==",) if isinstance(value, str) else (">=", "<=", "==")
        for op in ops:
            words = situation.condition_words(op, value if isinstance(value, str) else float(cast(float, value)))
            assert words and "{" not in words and "_" not in words, (name, op, words)


def test_bora_bora_counts_are_the_deciding_seats_own() -> None:
    import borabora_sim

    state = borabora_sim.new_game(players=3, seed=2)
    chooser = random.Random(2)
    for _ in range(120):
        state.apply(chooser.choice(state.legal_actions()))
    seat = state.current_player
    mine = state.observation(seat)["pl"][seat]
    action = state.legal_actions()[0]
    assert SITUATIONS["god_cards"].of(state, action) == sum(mine["hand"])
    assert SITUATIONS["shells"].of(state, action) == mine["shells"]
    assert SITUATIONS["priests"].of(state, action) == state.observation(seat)["temple"].count(seat)
    assert SITUATIONS["regions"].of(state, action) == bin(mine["regions"]).count("1")


def _pig_rows() -> pd.DataFrame:
    question = load_question({"title": "When should I hold?", "game": "pig", "form": "choice", "group": "hold",
                              "by": list(PIG.situations), "players": 2, "rungs": ["hold20"]})
    return pd.DataFrame([row for game_id in range(3) for row in _choice_task(question, "hold20", game_id, 4,
                                                                            question.judge)])


def test_the_example_decision_is_pictured_from_a_real_game(tmp_path: Path) -> None:
    rows = _pig_rows()
    row = rows[rows["best"]].iloc[-1]
    svg = write_example_picture(tmp_path / "example.svg", row, "pig")
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and root.get("data-game") == "pig" and root.get("data-viewer") == str(row["seat"])
    png = write_example_picture(tmp_path / "example.png", row, "pig")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    wrong = row.copy()
    wrong["decision"] = int(row["decision"]) + 1                 # the other player's roll, or a forced move
    wrong["seat"] = 1 - int(row["seat"])
    wrong["option"] = "no such move"
    with pytest.raises(ValueError, match="does not reach decision"):
        write_example_picture(tmp_path / "wrong.svg", wrong, "pig")
    with pytest.raises(ValueError, match=r"an \.svg or a \.png"):
        write_example_picture(tmp_path / "example.txt", row, "pig")
    assert not (tmp_path / "wrong.svg").exists() and not (tmp_path / "example.txt").exists()


def test_the_example_row_is_a_held_out_best_decision_in_the_situation() -> None:
    values = _table(1, "pair")
    result = find_situation(values, SITUATIONS, seed=3)
    row = example_row(values, result)
    assert row is not None
    assert row["best"] and row["round"] >= 5 and row["shells"] >= 2 and row["game_id"] in result.held_out_games
    held_best = values[values["game_id"].isin(result.held_out_games) & values["best"] & (values["round"] >= 5)
                       & (values["shells"] >= 2)]
    assert row["recheck_advantage"] == held_best["recheck_advantage"].max()
    assert example_row(values, _when(found=False)) is None
    caption = example_caption(pd.Series({"round": 6.0, "seat": 1, "option_words": "Hold: bank 20 points"}), _when())
    assert caption == ("Round 6, when it is round 6 and you hold at least 2 shells: Hold: bank 20 points was the best "
                       "move (seat 1's view).")
    assert not math.isnan(result.inside_share)
