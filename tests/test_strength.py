"""The ladder of players the studies measure their effects for, the change of an effect between rows of a paired
table, and the sentences that say whether an effect's sign and size hold as the player gets stronger."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import borabora_sim
from borabora_sim import stats
from borabora_sim.cli import main
from borabora_sim.games.bora_bora.game import is_fishing
from borabora_sim.games.bora_bora.questions import QUESTIONS
from borabora_sim.players import make_player
from borabora_sim.questions import QuestionError
from borabora_sim.questions.question import check_rungs
from borabora_sim.studies import strength


def fishing_states(seed: int, count: int = 40) -> list[borabora_sim.State]:
    """Clones of the states of random games at which a fishing move is legal beside others."""
    def states() -> Iterator[borabora_sim.State]:
        rng = random.Random(seed)
        state = borabora_sim.new_game(4, seed=seed)
        while True:
            if state.is_terminal():
                state = borabora_sim.new_game(4, seed=rng.getrandbits(32))
            legal = state.legal_actions()
            if any(is_fishing(a) for a in legal) and len(legal) > 2:
                yield state.clone()
            state.apply(legal[rng.randrange(len(legal))])
    found = states()
    return [next(found) for _ in range(count)]


def test_rungs_take_action_kind_settings_and_every_spec_makes_a_player() -> None:
    ladder = QUESTIONS
    assert ladder.rung("heuristic").with_options("fishing=never") == "heuristic:fishing=never"
    assert ladder.rung("tuned").with_options("fishing=never") == "heuristic:style=tuned,fishing=never"
    assert ladder.rung("learned").with_options("") == "learned"
    for label in ladder.rung_labels:
        player = make_player(ladder.rung(label).with_options("fishing=never"), seed=1)
        assert player.fishing == "never"
    assert check_rungs(["mcts300", "heuristic"], ladder) == ("heuristic", "mcts300")
    with pytest.raises(QuestionError, match="rungs: 'mcts' is not a rung of the game's ladder; allowed: heuristic, "
                                            "tuned"):
        check_rungs(["mcts"], ladder)
    with pytest.raises(QuestionError, match="must be a list of one or more players of the ladder"):
        check_rungs([], ladder)


def test_a_rung_named_twice_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(QuestionError, match="names a rung twice"):
        check_rungs(["learned", "heuristic", "learned", "heuristic"], QUESTIONS)
    assert main(["analyze", "priest", "--rungs", "heuristic,heuristic", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == ("borabora analyze: error: --rungs: ['heuristic', 'heuristic'] names a rung "
                                       "twice; name each once\n")
    assert not any(tmp_path.iterdir())


def test_the_learned_player_never_fishes_when_told_not_to_unless_nothing_else_is_legal() -> None:
    never, normal = make_player("learned:fishing=never", seed=2), make_player("learned", seed=2)
    states = fishing_states(5)
    for state in states:
        others = [a for a in state.legal_actions() if not is_fishing(a)]
        chosen = never.choose(state)
        assert not is_fishing(chosen) or not others
        assert normal.choose(state) in state.legal_actions()
    assert never.spec() == "learned:fishing=never" and normal.spec() == "learned"


def test_the_learned_player_prefers_fishing_within_the_margin() -> None:
    prefer = make_player("learned:fishing=prefer", seed=2)
    states = fishing_states(6)
    took_preferred = 0
    for state in states:
        chosen = prefer.choose(state)
        options = prefer.last_options
        best = max(o.value for o in options)
        fishing = [o for o in options if is_fishing(o.action) and o.value >= best - 0.02]
        if fishing:                    # a fishing move near the best is taken (the first of them in value order)
            assert is_fishing(chosen)
            took_preferred += 1
        else:
            assert next(o for o in options if o.action == chosen).value == best
    assert took_preferred > 0


def _paired_rows(effects: list[tuple[str, float, float, int]]) -> pd.DataFrame:
    """Rows with normal 95% intervals of half-width z * sd / sqrt(n) around each effect (VP ten times as wide)."""
    z = 1.959964
    return pd.DataFrame([{"comparison": "x", "rung": rung, "win_diff": diff, "games": n, "confidence": 0.95,
                          "win_diff_ci": (diff - z * sd / math.sqrt(n), diff + z * sd / math.sqrt(n)),
                          "vp_diff": 10 * diff, "vp_diff_ci": (10 * (diff - z * sd / math.sqrt(n)),
                                                               10 * (diff + z * sd / math.sqrt(n)))}
                         for rung, diff, sd, n in effects])


def test_effect_changes_are_differences_with_independent_standard_errors_judged_together() -> None:
    table = _paired_rows([("a", -0.06, 0.4, 1600), ("b", -0.05, 0.4, 1600), ("c", 0.02, 0.5, 2500)])
    changes = stats.effect_changes(table, "rung", "a", within=("comparison",))
    assert list(changes["rung"]) == ["b", "c"]
    b, c = changes.iloc[0], changes.iloc[1]
    se_b = math.hypot(0.4 / 40, 0.4 / 40)
    two_changes = stats.z_value(1 - 0.05 / 2)                  # the two changes' intervals hold together at 95%
    assert b["change"] == pytest.approx(0.01) and b["change_ci"][1] - b["change"] == pytest.approx(two_changes * se_b)
    assert b["change_verdict"] == "no detectable change"
    assert c["change"] == pytest.approx(0.08) and c["change_verdict"] == "higher"
    assert c["change_p_adjusted"] == pytest.approx(min(1.0, 2 * c["change_p"]))
    vp = stats.effect_changes(table, "rung", "a", within=("comparison",), metric="vp")
    assert vp["change"].iloc[1] == pytest.approx(0.8)
    assert set(changes["family"]) == {2}
    with pytest.raises(ValueError, match="need exactly one"):
        stats.effect_changes(table, "rung", "z", within=("comparison",))
    with pytest.raises(ValueError, match="metric must be win or vp"):
        stats.effect_changes(table, "rung", "a", metric="rank")


def test_a_small_row_that_no_pair_turns_keeps_the_width_of_its_own_interval() -> None:
    """24 pairs of a strong player who wins either way: the sd of their paired differences is 0, but the interval of
    the difference is wide, and a change from a precise row is judged with that width."""
    small_diff, small_low, small_high = stats.paired_proportion_difference(22, 0, 0, 2)
    table = pd.DataFrame([
        {"rung": "heuristic", "win_diff": -0.06, "win_diff_ci": (-0.076, -0.044), "games": 2000, "confidence": 0.95},
        {"rung": "mcts300", "win_diff": small_diff, "win_diff_ci": (small_low, small_high), "games": 24,
         "confidence": 0.95}])
    change = stats.effect_changes(table, "rung", "heuristic").iloc[0]
    assert small_high - small_low > 0.2
    assert change["change"] == pytest.approx(0.06) and change["change_verdict"] == "no detectable change"
    assert change["change_ci"][1] - change["change_ci"][0] > small_high - small_low


def _verdicts(effects: list[tuple[str, float, float, int]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    table = _paired_rows(effects)
    for metric in ("win", "vp"):                 # each verdict read from its interval, as paired_table reads it
        table[f"{metric}_verdict"] = [stats.verdict_of(*ci) for ci in table[f"{metric}_diff_ci"]]
    return table, stats.effect_changes(table, "rung", effects[0][0], within=("comparison",))


def test_the_sign_holds_when_every_detectable_effect_has_it_and_the_size_when_no_change_is_detectable() -> None:
    table, changes = _verdicts([("heuristic", -0.06, 0.4, 1600), ("tuned", -0.05, 0.4, 1600),
                                ("learned", -0.01, 0.4, 100)])
    lines = strength.across_strength(table, changes, "Allowing fishing")
    assert lines[0].startswith("Allowing fishing, from the weakest player to the strongest (points): heuristic -6.0 "
                               "(detectably lower), tuned -5.0 (detectably lower), learned -1.0 (not detectable)")
    assert lines[1] == ("Its sign holds as strength rises: wherever it is detectable it is lower (2 of 3 rungs; "
                        "not detectable for learned).")
    assert lines[2].startswith("Its size does not detectably change from its size for heuristic (-6.0)")


def test_a_sign_that_flips_and_a_size_that_moves_are_said_so() -> None:
    table, changes = _verdicts([("heuristic", -0.06, 0.3, 2500), ("mcts300", 0.05, 0.3, 2500)])
    lines = strength.across_strength(table, changes, "Allowing fishing")
    assert lines[1] == ("Its sign does not hold as strength rises: detectably lower for heuristic; detectably higher "
                        "for mcts300.")
    assert "higher by 11.0 points for mcts300 (its estimate on the other side of zero" in lines[2]


def test_no_detectable_effect_claims_nothing_about_sign_or_size() -> None:
    table, changes = _verdicts([("heuristic", 0.01, 0.5, 100), ("tuned", -0.01, 0.5, 100)])
    lines = strength.across_strength(table, changes, "Preferring fishing")
    assert lines[1] == "No rung shows a detectable effect, so neither its sign nor its size can be said to hold."
    assert len(lines) == 2


def test_a_score_effect_is_said_in_the_games_own_points_throughout() -> None:
    """Bamboo scores happiness points: every sentence on a score effect names HP, none VP."""
    table, changes = _verdicts([("heuristic", -1.5, 4.0, 2500), ("tuned", -0.4, 4.0, 2500)])
    table = table.rename(columns=lambda c: c.replace("win_", "score_"))
    for moved in (changes, changes.assign(change_verdict="no detectable change")):
        lines = strength.across_strength(table, moved, "One more coin", metric="score", score_unit="HP")
        text = " ".join(lines)
        assert "VP" not in text and text.count("HP") >= 2, text
        assert lines[0].startswith("One more coin, from the weakest player to the strongest (HP): heuristic -1.5")
