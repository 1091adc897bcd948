"""The statistics toolkit (borabora_sim.stats; the experiments, verdicts, ratings and plots built on it) on
synthetic data with known answers: interval coverage, error rates of the paired tests under a null and a planted
effect, Holm and McNemar against hand computations, sample sizes against their formulas, the precision-driven loop
with a fake simulator, ratings, head-to-head tables, plots; and one small paired run of real heuristic players.

Every simulation here uses fixed seeds, so the rates checked are deterministic.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import asdict

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from borabora_sim import experiments, plots, stats, verdicts
from borabora_sim.games import score_columns
from borabora_sim.ratings import ratings


# =============================================================================
# A fake simulator: simulate()'s columns, paired by game seed, players with planted strengths
# =============================================================================
def make_fake_simulate(strength: dict[str, float], noise: float = 12.0, calls: list | None = None):
    """A stand-in for `simulate` whose players score `base(game, seat) + strength[spec] + policy noise`. The seat
    bases depend only on the game seed (common random numbers) and the policy noise on the game seed, the seat
    and the spec, so two arms with the same seed are paired as in the real simulator: the same spec in the same
    seat plays the same game, another spec plays it differently."""

    def fake(games, players, seed=0, n_jobs=1, rotate_seats=True, progress=False):
        if calls is not None:
            calls.append(games)
        n = len(players)
        rows = []
        for i in range(games):
            game_seed = (seed * 1_000_003 + i * 7919 + 17) % (2**63)
            rng = np.random.default_rng(game_seed)
            base = rng.normal(100, noise, n).round()
            specs = [players[(s + i) % n] if rotate_seats else players[s] for s in range(n)]
            own = np.array([np.random.default_rng([game_seed, s, zlib.crc32(spec.encode())]).normal(0, noise / 2)
                            for s, spec in enumerate(specs)]).round()
            vp = base + own + np.array([strength.get(spec, 0.0) for spec in specs])
            order = sorted(range(n), key=lambda s: (-vp[s], s))          # tie-break: lower seat
            rank = np.empty(n, dtype=int)
            rank[order] = np.arange(1, n + 1)
            tied = (vp == vp.max()).sum() > 1
            for s in range(n):
                rows.append({"game_id": i, "game_seed": game_seed, "n_players": n, "seat": s,
                             "start_position": (s + i) % n, "spec": specs[s], "vp": int(vp[s]), "rank": int(rank[s]),
                             "win": bool(rank[s] == 1), "tied_first": bool(tied and vp[s] == vp.max()),
                             "vp_temple": int(vp[s]) // 2, "vp_tasks": int(vp[s]) - int(vp[s]) // 2, "vp_jewelry": 0})
        frame = pd.DataFrame(rows)
        frame["spec"] = frame["spec"].astype("category")
        return frame

    return fake


# =============================================================================
# Proportions: Wilson, Newcombe's paired difference, sample sizes
# =============================================================================
def test_wilson_interval_covers_a_biased_coin_at_the_nominal_rate():
    rng = np.random.default_rng(20240601)
    p, n, samples = 0.27, 150, 2000
    hits = rng.binomial(n, p, size=samples)
    covered = sum(lo <= p <= hi for lo, hi in (stats.wilson_interval(int(k), n) for k in hits))
    assert 0.93 <= covered / samples <= 0.97


def test_wilson_interval_is_exact_at_the_bounds_and_matches_the_textbook_value():
    assert stats.wilson_interval(0, 40)[0] == 0.0
    assert stats.wilson_interval(40, 40)[1] == 1.0
    lo, hi = stats.wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)


def test_paired_win_difference_interval_covers_the_true_difference():
    rng = np.random.default_rng(7)
    probs = [0.25, 0.10, 0.05, 0.60]                    # both win, A only, B only, neither
    truth = probs[1] - probs[2]
    covered = 0
    for _ in range(1000):
        diff, lo, hi = stats.paired_proportion_difference(*rng.multinomial(200, probs))
        assert lo <= diff <= hi
        covered += lo <= truth <= hi
    assert 0.93 <= covered / 1000 <= 0.975


def test_sample_size_for_proportion_follows_z2_p_q_over_h2():
    z = 1.959964
    assert stats.sample_size_for_proportion(0.25, 0.01) == 7203          # "~7,000 games for +/-1 point at 25%"
    for p, h in ((0.5, 0.02), (0.25, 0.005), (0.1, 0.03), (1 / 3, 0.01)):
        assert stats.sample_size_for_proportion(p, h) == math.ceil(z * z * p * (1 - p) / h ** 2)


def test_sample_size_for_paired_designs_follows_z_sd_over_h_squared():
    z = 1.959964
    assert stats.sample_size_for_paired(10.0, 1.0) == math.ceil((z * 10) ** 2)
    variance = 0.10 + 0.05 - (0.10 - 0.05) ** 2
    assert stats.sample_size_for_paired_proportions(0.10, 0.05, 0.02) == math.ceil(z * z * variance / 0.02 ** 2)
    pilot = np.array([1.0, -1.0, 0.0, 0.0, 2.0, -2.0])
    assert stats.sample_size_from_pilot(pilot, 0.5) == math.ceil((z * pilot.std(ddof=1) / 0.5) ** 2)


# =============================================================================
# Tests: McNemar, Holm, error rates under a null and a planted effect
# =============================================================================
def test_mcnemar_exact_matches_the_hand_computed_binomial_tail():
    # 9 games only A won, 2 only B won: p = 2 * P(X <= 2), X ~ Bin(11, 1/2) = 2 * (1 + 11 + 55) / 2048
    assert stats.mcnemar_exact(9, 2) == pytest.approx(2 * 67 / 2048)
    assert stats.mcnemar_exact(2, 9) == pytest.approx(2 * 67 / 2048)
    assert stats.mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert stats.mcnemar_exact(4, 4) == 1.0
    assert stats.mcnemar_exact(0, 0) == 1.0


def test_holm_adjusts_like_the_hand_computed_step_down():
    # sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, 2*0.03, max(1*0.04, 0.06)
    adjusted = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    series = stats.holm(pd.Series([0.02, 0.01], index=["x", "y"]))
    assert list(series.index) == ["x", "y"] and series.tolist() == pytest.approx([0.02, 0.02])


def _paired_outcomes(rng, games, win_probs, vp_shift):
    wins = rng.multinomial(1, win_probs, size=games)                # both, A only, B only, neither
    a = (wins[:, 0] + wins[:, 1]).astype(int)
    b = (wins[:, 0] + wins[:, 2]).astype(int)
    changed = rng.random(games) < 0.6                               # decisions that never diverge give 0
    vp_diff = np.where(changed, np.round(rng.normal(vp_shift, 8, games)), 0.0)
    return a, b, vp_diff


def test_null_paired_effect_is_rejected_at_no_more_than_the_stated_rate():
    rng = np.random.default_rng(12345)
    reps, mcnemar_rejects, wilcoxon_rejects = 1000, 0, 0
    for _ in range(reps):
        a, b, vp_diff = _paired_outcomes(rng, 200, [0.25, 0.08, 0.08, 0.59], 0.0)
        mcnemar_rejects += stats.mcnemar_exact(int((a > b).sum()), int((a < b).sum())) < 0.05
        wilcoxon_rejects += stats.wilcoxon_signed_rank(vp_diff) < 0.05
    assert 0.02 <= mcnemar_rejects / reps <= 0.06          # exact test: at most alpha (a little conservative)
    assert 0.03 <= wilcoxon_rejects / reps <= 0.07


def test_planted_paired_effect_is_found_in_most_repetitions():
    rng = np.random.default_rng(54321)
    reps, mcnemar_found, wilcoxon_found = 200, 0, 0
    for _ in range(reps):
        a, b, vp_diff = _paired_outcomes(rng, 300, [0.25, 0.12, 0.04, 0.59], 2.5)
        mcnemar_found += stats.mcnemar_exact(int((a > b).sum()), int((a < b).sum())) < 0.05
        wilcoxon_found += stats.wilcoxon_signed_rank(vp_diff) < 0.05
    assert mcnemar_found / reps >= 0.8
    assert wilcoxon_found / reps >= 0.8


def test_paired_compare_finds_a_planted_vp_advantage_and_pairs_by_game_seed():
    fake = make_fake_simulate({"strong": 4.0})
    a = experiments.simulate_arm(["strong", "plain", "plain"], 300, seed=3, simulate_fn=fake)
    b = experiments.simulate_arm(["weak", "plain", "plain"], 300, seed=3, simulate_fn=fake)
    result = stats.paired_compare(a, b)
    assert result.focus_per_game == 1 and result.games == 300
    assert result.vp_diff_ci[0] < 4.0 < result.vp_diff_ci[1] and result.vp_diff_ci[0] > 2.0
    assert result.vp_p < 1e-6
    assert result.win_diff_ci[0] > 0 and result.mcnemar_p < 0.05 and result.a_only > 2 * result.b_only
    by_spec = stats.paired_compare(a, b, focus_a="strong", focus_b="weak")
    assert by_spec.vp_diff == result.vp_diff and by_spec.a_only == result.a_only
    row = asdict(result)                                            # a flat table row: no frames inside
    assert not any(isinstance(v, pd.DataFrame) for v in row.values()) and len(result.per_game) == 300


def test_paired_compare_refuses_runs_with_different_game_seeds():
    fake = make_fake_simulate({})
    a = experiments.simulate_arm(["x", "y"], 20, seed=1, simulate_fn=fake)
    b = experiments.simulate_arm(["z", "y"], 20, seed=2, simulate_fn=fake)
    with pytest.raises(ValueError, match="not paired"):
        stats.paired_compare(a, b)


def test_paired_bootstrap_interval_brackets_the_mean_difference():
    rng = np.random.default_rng(3)
    diffs = rng.normal(2.0, 5.0, 400)
    lo, hi = stats.paired_bootstrap_ci(diffs, n_resamples=2000, seed=1)
    _, tlo, thi = stats.mean_interval(diffs)
    assert lo < diffs.mean() < hi
    assert abs(lo - tlo) < 0.15 and abs(hi - thi) < 0.15             # agrees with the t interval for a mean


def test_verdict_lines_judge_the_comparisons_together():
    fake = make_fake_simulate({"strong": 4.0})
    plain = experiments.simulate_arm(["plain", "plain", "plain"], 150, seed=5, simulate_fn=fake)
    strong = experiments.simulate_arm(["strong", "plain", "plain"], 150, seed=5, simulate_fn=fake)
    same = experiments.simulate_arm(["plain2", "plain", "plain"], 150, seed=5, simulate_fn=fake)
    results = [stats.paired_compare(strong, plain, focus=[0]), stats.paired_compare(same, plain, focus=[0])]
    table = stats.paired_table(results)
    assert table["vp_p_adjusted"].tolist() == pytest.approx([min(1.0, 2 * p) for p in table["vp_p"]])
    assert table["confidence"].tolist() == pytest.approx([0.975, 0.975])     # two comparisons: each at 1 - 0.05 / 2
    lines = verdicts.verdict_lines(results)
    assert lines[0].startswith("strong vs plain: win rate A - B")
    assert lines[0].split("mean VP A - B ")[1].startswith(f"{results[0].vp_diff:+.2f}")
    assert "): A better; 150 paired games." in lines[0]
    assert lines[1].count("no detectable difference") == 2


def test_paired_table_holds_the_verdicts_that_verdict_lines_word():
    fake = make_fake_simulate({"strong": 4.0, "weak": -4.0})
    plain = experiments.simulate_arm(["plain", "plain", "plain"], 150, seed=5, simulate_fn=fake)
    results = [stats.paired_compare(experiments.simulate_arm([spec, "plain", "plain"], 150, seed=5,
                                                             simulate_fn=fake), plain, focus=[0])
               for spec in ("strong", "weak", "plain2")]
    table = stats.paired_table(results)
    assert table["vp_verdict"].tolist() == ["A better", "A worse", "no detectable difference"]
    for _, row in table.iterrows():
        for verdict, p in ((row["win_verdict"], row["win_p_adjusted"]), (row["vp_verdict"], row["vp_p_adjusted"])):
            assert (verdict == "no detectable difference") == (p >= 0.05)
    # the sentences word the table's own verdicts: change one and the sentence follows
    table.loc[2, "vp_verdict"] = "A better"
    assert verdicts.verdict_lines(table)[2].split("; ")[1].endswith("): A better")
    strict = stats.paired_table(results, alpha=1e-300)                # no p-value is that small
    assert set(strict["vp_verdict"]) == set(strict["win_verdict"]) == {"no detectable difference"}
    with pytest.raises(ValueError, match=r"verdicts are at alpha = 0\.05, not 0\.01"):
        verdicts.verdict_lines(table, alpha=0.01)
    with pytest.raises(ValueError, match="alpha must be in"):
        stats.paired_table(results, alpha=5)


def test_interval_columns_split_interval_pairs_into_numeric_bounds():
    table = pd.DataFrame({"name": ["a", "b"], "win_diff_ci": [(-0.1, 0.2), (0.05, 0.3)], "games": [10, 20]})
    flat = stats.interval_columns(table)
    assert flat.columns.tolist() == ["name", "win_diff_ci_low", "win_diff_ci_high", "games"]
    assert flat["win_diff_ci_low"].tolist() == [-0.1, 0.05] and flat["win_diff_ci_high"].tolist() == [0.2, 0.3]
    assert flat["win_diff_ci_low"].dtype == float and flat["games"].dtype == table["games"].dtype


def test_paired_outcomes_equals_paired_compare_on_the_same_pairs():
    fake = make_fake_simulate({"strong": 3.0})
    a = experiments.simulate_arm(["strong", "plain"], 80, seed=4, simulate_fn=fake)
    b = experiments.simulate_arm(["plain2", "plain"], 80, seed=4, simulate_fn=fake)
    compared = stats.paired_compare(a, b)
    direct = stats.paired_outcomes(compared.per_game[["win_a", "win_b", "vp_a", "vp_b"]], compared.label_a,
                                   compared.label_b, baseline=compared.baseline)
    assert asdict(direct) == asdict(compared)
    with pytest.raises(ValueError, match="missing: vp_b"):
        stats.paired_outcomes(compared.per_game[["win_a", "win_b", "vp_a"]], "a", "b", baseline=0.5)
    with pytest.raises(ValueError, match="must be 0 or 1"):
        stats.paired_outcomes(compared.per_game.assign(win_a=2), "a", "b", baseline=0.5)


# =============================================================================
# Precision-driven runs (fake simulator: fast)
# =============================================================================
def test_precision_loop_stops_at_the_first_look_whose_interval_is_narrow_enough():
    calls: list[int] = []
    fake = make_fake_simulate({"strong": 3.0}, calls=calls)
    logged: list[str] = []
    result = experiments.run_until_precise(["strong", "plain", "plain"], ["plain", "plain", "plain"],
                                           half_width=1.0, metric="vp", max_games=6000, batch_games=100,
                                           simulate_fn=fake, log=logged.append)
    assert result.stopped_by == "precision"
    assert result.half_width <= 1.0
    assert (result.history["half_width"].iloc[:-1] > 1.0).all()     # no earlier look was precise enough
    assert result.looks == len(result.history) > 1
    assert result.games == 102 * result.looks and calls == [102] * (2 * result.looks)   # batches of 3 x 34
    assert result.paired.games == result.games and result.paired.looks == result.looks
    assert result.frame["game_id"].nunique() == result.games       # ids follow on across batches
    assert logged[0].startswith("sample size:") and "stopped by precision" in logged[-1]


def test_stopping_on_interval_width_keeps_the_final_interval_near_nominal_coverage():
    # The rule of run_until_precise (stop when the half-width reaches the target), on paired win outcomes.
    rng = np.random.default_rng(5)
    probs, reps = [0.25, 0.10, 0.05, 0.60], 1000
    truth, covered, looks = probs[1] - probs[2], 0, []
    for _ in range(reps):
        counts, k = np.zeros(4, dtype=int), 0
        while counts.sum() < 5000:
            counts += rng.multinomial(100, probs)
            k += 1
            _, lo, hi = stats.paired_proportion_difference(*counts)
            if (hi - lo) / 2 <= 0.03:
                break
        covered += lo <= truth <= hi
        looks.append(k)
    assert np.mean(looks) > 3                                       # several looks per run
    assert 0.93 <= covered / reps <= 0.97


def test_precision_loop_stops_at_the_maximum_when_the_target_is_out_of_reach():
    fake = make_fake_simulate({"strong": 3.0})
    result = experiments.run_until_precise(["strong", "plain"], ["plain", "plain"], half_width=0.001, metric="win",
                                           max_games=300, batch_games=100, simulate_fn=fake, log=None)
    assert result.stopped_by == "max_games" and result.games == 300 and result.looks == 3
    assert result.half_width > 0.001


def test_precision_loop_with_alpha_spending_uses_a_wider_interval():
    fake = make_fake_simulate({"strong": 3.0})
    common = dict(half_width=0.001, metric="vp", max_games=200, batch_games=100, simulate_fn=fake, log=None)
    plain = experiments.run_until_precise(["strong", "plain"], ["plain", "plain"], **common)
    spent = experiments.run_until_precise(["strong", "plain"], ["plain", "plain"], alpha_spending=True, **common)
    assert spent.confidence == pytest.approx(0.975)                # 1 - 0.05 / 2 looks
    assert spent.estimate == pytest.approx(plain.estimate) and spent.half_width > plain.half_width


def test_precision_loop_for_one_arm_estimates_the_win_rate_of_the_focus_seat():
    fake = make_fake_simulate({"strong": 30.0})
    result = experiments.run_until_precise(["strong", "plain", "plain"], half_width=0.05, focus=[0],
                                           max_games=3000, batch_games=150, simulate_fn=fake, log=None)
    assert result.stopped_by == "precision" and result.paired is None
    assert result.estimate > 0.8 and result.ci[0] <= result.estimate <= result.ci[1]


def test_sample_size_message_printed_up_front_uses_the_baseline_rate():
    fake = make_fake_simulate({})
    logged: list[str] = []
    experiments.run_until_precise(["a", "b", "c", "d"], ["e", "b", "c", "d"], half_width=0.5, metric="win",
                                  max_games=8, batch_games=4, simulate_fn=fake, log=logged.append)
    expected = stats.sample_size_for_proportion(0.25, 0.5)
    assert logged[0].startswith(f"sample size: ~{expected:,} games for +/-50.0 points at a 25% win rate")


# =============================================================================
# Win rates, seats, head-to-head, ratings
# =============================================================================
def test_win_rate_counts_wins_ties_and_baseline_per_spec():
    frame = pd.DataFrame({
        "game_id": [0, 0, 1, 1, 2, 2, 3, 3], "n_players": 2, "seat": [0, 1] * 4,
        "spec": ["x", "y", "y", "x", "x", "y", "y", "x"], "vp": [10, 8, 9, 9, 7, 12, 5, 6],
        "win": [True, False, True, False, False, True, False, True],
        "tied_first": [False, False, True, True, False, False, False, False],
    })
    table = stats.win_rate(frame)
    assert table.loc["x", "wins"] == 2 and table.loc["y", "wins"] == 2 and table.loc["x", "rows"] == 4
    assert table.loc["x", "baseline"] == 0.5 and table.loc["x", "tied_first"] == 1
    assert table.loc["y", "tie_break_wins"] == 1 and table.loc["x", "tie_break_wins"] == 0
    assert table.loc["x", "shared_win_rate"] == pytest.approx((1 + 0.5 + 1) / 4)
    assert (table.loc["x", "ci_low"], table.loc["x", "ci_high"]) == pytest.approx(stats.wilson_interval(2, 4))


def test_win_rate_by_seat_flags_a_planted_seat_advantage():
    rng = np.random.default_rng(11)
    games = 900
    winner = rng.choice(3, size=games, p=[0.45, 0.30, 0.25])
    frame = pd.DataFrame({"game_id": np.repeat(np.arange(games), 3), "n_players": 3, "seat": np.tile(range(3), games),
                          "spec": "p", "vp": 0, "tied_first": False})
    frame["win"] = frame["seat"].to_numpy() == np.repeat(winner, 3)
    table = stats.win_rate_by_seat(frame)
    assert table.loc[(3, 0), "win_rate"] > table.loc[(3, 2), "win_rate"]
    assert table["chi2_p"].iloc[0] < 1e-6 and table.loc[(3, 0), "ci_low"] > 1 / 3


def test_head_to_head_share_of_a_dominant_spec_is_one():
    fake = make_fake_simulate({"strong": 200.0, "weak": -200.0})
    frame = fake(60, ["strong", "mid", "weak"], seed=1)
    h2h = stats.head_to_head(frame)
    assert h2h.share.loc["strong", "weak"] == 1.0 and h2h.share.loc["weak", "strong"] == 0.0
    assert h2h.share.loc["strong", "mid"] == 1.0 and h2h.games.loc["strong", "mid"] == 60
    off = h2h.share.to_numpy()
    mask = ~np.eye(3, dtype=bool)
    assert np.allclose(off[mask] + off.T[mask], 1.0)                 # x above y plus y above x
    assert (h2h.table["p_holm"] >= h2h.table["p_value"]).all()


def test_ratings_rank_a_clearly_stronger_player_first():
    fake = make_fake_simulate({"strong": 25.0, "weak": -10.0})
    frame = fake(200, ["weak", "strong", "mid", "mid2"], seed=9)
    table = ratings(frame)
    assert table.index[0] == "strong" and table.index[-1] == "weak"
    assert table.loc["strong", "mu"] > table.loc["mid", "mu"] + 2 * table.loc["strong", "sigma"]
    assert (table["games"] == 200).all()


def test_effect_table_uses_wilson_for_binary_columns_and_t_for_others():
    frame = pd.DataFrame({"x": [1, 1, 1, 1, 2, 2, 2, 2], "win": [1, 0, 0, 1, 1, 1, 1, 0],
                          "vp": [10.0, 12.0, 11.0, 13.0, 20.0, 22.0, 21.0, 23.0]})
    wins = stats.effect_table(frame, "x", "win")
    assert (wins.loc[0, "ci_low"], wins.loc[0, "ci_high"]) == pytest.approx(stats.wilson_interval(2, 4))
    vp = stats.effect_table(frame, "x", "vp")
    assert tuple(vp.loc[1, ["mean", "ci_low", "ci_high"]]) == pytest.approx(stats.mean_interval([20, 22, 21, 23]))


# =============================================================================
# Plots
# =============================================================================
@pytest.fixture(scope="module")
def synthetic_rows():
    return make_fake_simulate({"strong": 10.0})(60, ["strong", "plain", "weak"], seed=2)


def test_win_rate_plot_has_one_bar_per_spec(synthetic_rows):
    fig = plots.plot_win_rates(synthetic_rows)
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].patches) == 3


def test_vp_sources_plot_stacks_one_bar_per_spec_for_each_scored_source(synthetic_rows):
    fig = plots.plot_vp_sources(synthetic_rows)
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].patches) == 3 * 2                          # temple and tasks; jewelry never scored
    assert len(fig.axes[0].containers) == 2


def test_score_distribution_plot_draws_one_line_per_spec(synthetic_rows):
    fig = plots.plot_score_distribution(synthetic_rows)
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].lines) == 3 + 3                            # a step line and a mean line per spec


def test_effect_by_draws_a_line_and_band_per_group(synthetic_rows):
    fig = plots.effect_by(synthetic_rows, "start_position", "win", hue="spec", reference=1 / 3)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert len(ax.lines) == 3 + 1 and len(ax.collections) == 3
    single = plots.effect_by(synthetic_rows, "start_position", "vp")
    assert len(single.axes[0].lines) == 1 and len(single.axes[0].lines[0].get_xdata()) == 3


@pytest.mark.parametrize("draw", [
    lambda rows: plots.plot_vp_sources(rows),
    lambda rows: plots.plot_score_distribution(rows),
    lambda rows: plots.effect_by(rows, "start_position", "win", hue="spec"),
])
def test_legends_sit_beside_the_axes_not_over_the_data(synthetic_rows, draw):
    fig = draw(synthetic_rows)
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent()
    axes = ax.get_window_extent()
    assert legend.x0 >= axes.x1                                       # entirely to the right of the plotting area
    assert legend.x1 <= fig.bbox.x1 + 1                               # and still inside the figure


def test_head_to_head_and_paired_plots_return_figures(synthetic_rows, tmp_path):
    h2h_fig = plots.plot_head_to_head(stats.head_to_head(synthetic_rows))
    fake = make_fake_simulate({"strong": 4.0})
    a = experiments.simulate_arm(["strong", "plain"], 40, seed=1, simulate_fn=fake)
    b = experiments.simulate_arm(["plain2", "plain"], 40, seed=1, simulate_fn=fake)
    result = stats.paired_compare(a, b)
    paired_fig = plots.plot_paired(result)
    forest = plots.effect_plot([result, result])
    assert all(isinstance(f, Figure) for f in (h2h_fig, paired_fig, forest))
    assert len(forest.axes) == 2 and len(forest.axes[0].get_yticks()) == 2
    paired_fig.savefig(tmp_path / "paired.png")
    assert (tmp_path / "paired.png").stat().st_size > 0


# =============================================================================
# End to end: heuristic players through simulate()
# =============================================================================
def test_paired_ab_runs_both_arms_on_the_same_seeds_with_heuristic_players():
    arm_a = ["heuristic", "heuristic", "heuristic"]
    arm_b = ["heuristic:fishing=never", "heuristic", "heuristic"]
    result = experiments.paired_ab(arm_a, arm_b, games=42, seed=11, n_jobs=1)
    assert result.games == 42 and result.focus_per_game == 1 and result.baseline == pytest.approx(1 / 3)
    assert (result.frame_a["game_seed"].to_numpy() == result.frame_b["game_seed"].to_numpy()).all()
    focus_a = result.frame_a[result.frame_a["position"] == 0]
    assert set(focus_a["spec"]) == {"heuristic"} and sorted(focus_a["seat"].value_counts()) == [14, 14, 14]
    assert result.both + result.a_only + result.b_only + result.neither == 42
    assert 0 <= result.mcnemar_p <= 1 and result.vp_diff_ci[0] <= result.vp_diff <= result.vp_diff_ci[1]
    # Common random numbers: the same policy in both arms plays the very same games.
    same = experiments.paired_ab(arm_a, arm_a, games=42, seed=11, n_jobs=1, focus=[0])
    assert same.a_only == same.b_only == 0 and same.vp_diff == 0 and same.mcnemar_p == 1.0


def test_score_column_names_the_games_unit_and_refuses_rows_without_exactly_one() -> None:
    assert stats.score_column(pd.DataFrame({"vp": [1], "vp_fish": [1]})) == "vp"
    assert stats.score_column(pd.DataFrame({"hp": [1], "hp_spirits": [1]})) == "hp"
    with pytest.raises(ValueError, match=rf"exactly one score column of {', '.join(score_columns())}; found none"):
        stats.score_column(pd.DataFrame({"points": [1]}))
    with pytest.raises(ValueError, match=r"found vp, hp"):
        stats.score_column(pd.DataFrame({"vp": [1], "hp": [1]}))
