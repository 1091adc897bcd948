"""One decision rule per effect, in every form of question: the verdict printed beside an interval is whether that
interval excludes the tested value, and the adjusted p-value printed beside it is below the level exactly then.
Random tables of every form (policy and gift pairs, judged choices, setup seats, changes with strength) check it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from borabora_sim import stats
from borabora_sim.questions import load_question
from borabora_sim.questions.forms.choice import choice_verdicts
from borabora_sim.questions.forms.gift import _gift_table, _gift_verdicts
from borabora_sim.questions.forms.setup import seat_verdicts

ALPHA = 0.05
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _holds(low: float, high: float, value: float = 0.0) -> bool:
    return low <= value <= high


def _agrees(verdict_is_none: bool, low: float, high: float, p_adjusted: float, value: float = 0.0) -> None:
    assert verdict_is_none == _holds(low, high, value)
    if abs(p_adjusted - ALPHA) > 1e-9:                 # at the level itself, rounding may fall either way
        assert verdict_is_none == (p_adjusted >= ALPHA)


@st.composite
def paired_games(draw: st.DrawFn) -> pd.DataFrame:
    """The pairs of one comparison: wins of A and B, and scores whose difference leans by a drawn amount."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(2, 300))
    p_a, p_b = draw(st.floats(0, 1)), draw(st.floats(0, 1))
    lean, spread = draw(st.floats(-3, 3)), draw(st.sampled_from([0.0, 0.5, 4.0]))
    vp_b = rng.integers(0, 60, n).astype(float)
    return pd.DataFrame({"win_a": rng.random(n) < p_a, "win_b": rng.random(n) < p_b,
                         "vp_a": vp_b + lean + spread * rng.standard_normal(n), "vp_b": vp_b})


@SETTINGS
@given(st.lists(paired_games(), min_size=1, max_size=6))
def test_a_policy_tables_verdicts_are_its_intervals(comparisons: list[pd.DataFrame]) -> None:
    results = [stats.paired_outcomes(games, "A", "B", baseline=0.25) for games in comparisons]
    table = stats.paired_table(results, ALPHA)
    for _, row in table.iterrows():
        _agrees(row["win_verdict"] == "no detectable difference", *row["win_diff_ci"], row["win_p_adjusted"])
        _agrees(row["vp_verdict"] == "no detectable difference", *row["vp_diff_ci"], row["vp_p_adjusted"])
        assert row["win_diff_ci"][0] <= row["win_diff"] <= row["win_diff_ci"][1]
    if len(table) > 1:
        changes = stats.effect_changes(table.assign(rung=[f"r{i}" for i in range(len(table))]), "rung", "r0",
                                       metric="vp")
        for _, row in changes.iterrows():
            _agrees(row["change_verdict"] == "no detectable change", *row["change_ci"], row["change_p_adjusted"])


@SETTINGS
@given(st.lists(paired_games(), min_size=1, max_size=5), st.integers(0, 5))
def test_a_gift_tables_verdicts_are_its_intervals_the_effect_beyond_its_own_source_too(
        rounds: list[pd.DataFrame], own: int) -> None:
    question = load_question({"title": "t", "game": "bora_bora", "form": "gift", "edit": "priest"})
    pairs = pd.concat([pd.DataFrame({"rung": "heuristic", "round": r + 1, "win_with": g["win_a"],
                                     "win_without": g["win_b"], "score_with": g["vp_a"], "score_without": g["vp_b"],
                                     "own": float(own)}) for r, g in enumerate(rounds)], ignore_index=True)
    table = _gift_verdicts(question, pairs, "VP", ("rung", "round"))
    assert len(table) == len(_gift_table(question, pairs, "VP", ("rung", "round")))
    for _, row in table.iterrows():
        _agrees(row["vp_verdict"] == "no detectable difference", *row["vp_diff_ci"], row["vp_p_adjusted"])
        _agrees(row["beyond_verdict"] == "no detectable difference", *row["beyond_ci"], row["beyond_p_adjusted"])


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.floats(-0.2, 0.2), st.sampled_from([0.0, 0.01, 0.3]))
def test_a_choice_tables_verdicts_are_its_intervals(seed: int, groups: int, lean: float, spread: float) -> None:
    rng = np.random.default_rng(seed)
    rows = []
    for group in range(groups):
        n = int(rng.integers(2, 80))
        advantage = lean * group / groups + spread * rng.standard_normal(n)
        rows.append(pd.DataFrame({"group": f"g{group}", "recheck_advantage": advantage, "advantage": advantage,
                                  "best": advantage > 0, "tied": advantage == 0, "confirmed": advantage > 0,
                                  "chosen": rng.random(n) < 0.5}))
    table = choice_verdicts(pd.concat(rows, ignore_index=True), ["group"], ALPHA)
    for _, row in table.iterrows():
        _agrees(row["verdict"] == "no detectable difference", *row["advantage_ci"], row["advantage_p_adjusted"])


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 400), st.floats(0, 1), st.sampled_from([2, 3, 4])), min_size=1,
                max_size=8))
def test_a_setup_tables_verdicts_are_its_intervals_around_the_fair_share(
        places: list[tuple[int, float, int]]) -> None:
    table = seat_verdicts(pd.DataFrame([{"games": n, "wins": round(n * share), "fair_share": 1 / players}
                                        for n, share, players in places]), ALPHA)
    for _, row in table.iterrows():
        _agrees(row["verdict"] == "no detectable difference", row["ci_low"], row["ci_high"], row["p_adjusted"],
                row["fair_share"])


def test_the_fishing_reports_learned_row_can_no_longer_contradict_itself() -> None:
    """The row that read "-1.6 (95% CI -2.9 to -0.3) ... not detectable after Holm's correction": 2,000 pairs with
    the same discordant counts, in a family of 12, get an interval that holds 0 beside their verdict."""
    a_only, b_only, n = 59, 91, 2000                              # -1.6 points, raw McNemar p about 0.011
    low, high = stats.paired_win_interval(a_only, b_only, n, stats.family_confidence(ALPHA, 12))
    assert stats.mcnemar_exact(a_only, b_only) < ALPHA
    assert low < 0 < high and stats.adjusted_p(stats.mcnemar_exact(a_only, b_only), 12) >= ALPHA
    assert stats.paired_win_interval(a_only, b_only, n)[1] < 0    # alone, at 95%, it would exclude 0


@pytest.mark.parametrize(("successes", "n"), [(0, 5), (3, 10), (10, 10), (37, 120)])
def test_the_exact_interval_excludes_a_share_exactly_where_the_exact_test_rejects_it(successes: int, n: int) -> None:
    for share in np.linspace(0.01, 0.99, 99):
        low, high = stats.clopper_pearson(successes, n, 0.95)
        p = stats.exact_binomial_p(successes, n, float(share))
        if abs(p - 0.05) > 1e-9:
            assert _holds(low, high, float(share)) == (p >= 0.05)
