"""Statistics for simulation results: win rates with intervals, paired comparisons of runs on common random
numbers, head-to-head tables, sample sizes and multiple-comparison corrections. Pure computation on tables: the
experiments that play games are in `borabora_sim.experiments`, the verdicts in words in `borabora_sim.verdicts`
and the openskill ratings in `borabora_sim.ratings`.

Every function takes the player rows of `borabora_sim.simulate.simulate` (one row per player per game: game_id,
game_seed, n_players, seat, spec, vp, rank, win, tied_first, vp_<source>, ...) and returns a pandas DataFrame
or a small dataclass. The score columns are named by the game's unit (`vp`, `vp_<source>` for Bora Bora; `hp`,
`hp_<source>` for Bamboo: `score_column`); the names of the functions and fields say vp for either.
docs/statistics.md explains the assumptions of each method.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any, cast

import numpy as np
import pandas as pd

Z95 = 1.959964


# =============================================================================
# Intervals and tests on proportions
# =============================================================================

def _sps() -> ModuleType:
    """scipy.stats, imported on first use: it adds about 60 MB to a process, and summaries never need it."""
    from scipy import stats

    return stats

def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile of a confidence level (1.96 for 95%)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(_sps().norm.ppf(0.5 + confidence / 2))


def binomial_test(successes: int, n: int, p: float) -> float:
    """Exact two-sided binomial test of `successes` in `n` trials against probability `p` (scipy's
    minimum-likelihood definition); 1.0 when n is 0."""
    if n == 0:
        return 1.0
    return float(_sps().binomtest(int(successes), int(n), p).pvalue)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact McNemar test (a sign test on the discordant pairs): two-sided p-value of `a_only` pairs where only
    A succeeded against `b_only` where only B did, under H0 both are equally likely.

    p = min(1, 2 * P(X <= min(a_only, b_only))) with X ~ Binomial(a_only + b_only, 1/2).

    >>> round(mcnemar_exact(9, 2), 4)
    0.0654
    """
    if a_only < 0 or b_only < 0:
        raise ValueError(f"counts must be non-negative, got {a_only}, {b_only}")
    n = a_only + b_only
    if n == 0:
        return 1.0
    return float(min(1.0, 2 * _sps().binom.cdf(min(a_only, b_only), n, 0.5)))


def clopper_pearson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval of a binomial proportion. It excludes a value p0 exactly when the central
    two-sided exact binomial test (`exact_binomial_p`) rejects p0 at 1 - confidence: the interval is that test
    inverted, so a verdict read from either agrees with the other.

    >>> lo, hi = clopper_pearson(5, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.187, 0.813)
    """
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, got {successes}")
    tail = (1 - confidence) / 2
    beta = _sps().beta
    low = 0.0 if successes == 0 else float(beta.ppf(tail, successes, n - successes + 1))
    high = 1.0 if successes == n else float(beta.ppf(1 - tail, successes + 1, n - successes))
    return low, high


def exact_binomial_p(successes: int, n: int, p: float) -> float:
    """Central two-sided exact binomial test of `successes` in `n` trials against probability `p`: twice the smaller
    tail, at most 1 (1.0 when n is 0). The test that `clopper_pearson` inverts."""
    if n == 0:
        return 1.0
    binom = _sps().binom
    lower = float(binom.cdf(successes, n, p))
    upper = float(binom.sf(successes - 1, n, p))
    return min(1.0, 2 * min(lower, upper))


def paired_win_interval(a_only: int, b_only: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact interval of a paired difference of win rates, (a_only - b_only) / n, given its discordant pairs: the
    Clopper-Pearson interval of the share of discordant pairs that A won, mapped onto the difference. It excludes 0
    exactly when the exact McNemar test (`mcnemar_exact`) rejects at 1 - confidence. No discordant pair: (0, 0).

    >>> low, high = paired_win_interval(30, 10, 200)
    >>> round(low, 3), round(high, 3)
    (0.035, 0.149)
    """
    discordant = a_only + b_only
    if n <= 0 or discordant > n:
        raise ValueError(f"need 0 < pairs and discordant pairs <= pairs, got {discordant} of {n}")
    if discordant == 0:
        return 0.0, 0.0
    low, high = clopper_pearson(a_only, discordant, confidence)
    scale = discordant / n
    return scale * (2 * low - 1), scale * (2 * high - 1)


def mean_test(values: Sequence[float] | np.ndarray | pd.Series, confidence: float = 0.95
              ) -> tuple[float, float, float, float]:
    """Mean, Student t interval and two-sided one-sample t-test p-value against 0: (mean, low, high, p). The
    interval excludes 0 exactly when p < 1 - confidence. Values that are all equal: a zero-width interval, and p
    0 or 1 by whether they are 0."""
    x = np.asarray(values, dtype=float)
    mean, low, high = mean_interval(x, confidence)
    if x.size < 2:
        return mean, low, high, 1.0
    spread = float(x.std(ddof=1))
    if spread == 0:
        return mean, mean, mean, 1.0 if mean == 0 else 0.0
    t = abs(mean) / (spread / math.sqrt(x.size))
    return mean, low, high, float(min(1.0, 2 * _sps().t.sf(t, x.size - 1)))


def paired_proportion_difference(both: int, a_only: int, b_only: int, neither: int,
                                 z: float = Z95) -> tuple[float, float, float]:
    """Difference p_A - p_B of two paired proportions with Newcombe's hybrid score interval (Newcombe 1998,
    method 10, with the continuity-corrected phi): the Wilson intervals of both margins, combined with the
    estimated correlation of the pairs. Returns (difference, low, high)."""
    n = both + a_only + b_only + neither
    if n <= 0:
        raise ValueError("no pairs")
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = wilson_interval(both + a_only, n, z)
    l2, u2 = wilson_interval(both + b_only, n, z)
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    if margins == 0:
        phi = 0.0
    else:
        cross: float = both * neither - a_only * b_only
        if cross > 0:
            cross = max(cross - n / 2, 0.0)
        phi = cross / math.sqrt(margins)
    diff = p1 - p2
    delta = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    epsilon = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return diff, max(-1.0, diff - delta), min(1.0, diff + epsilon)


def mean_interval(values: Sequence[float] | np.ndarray | pd.Series, confidence: float = 0.95,
                  ) -> tuple[float, float, float]:
    """Mean with a Student t interval: (mean, low, high). One value gives an infinitely wide interval."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("no values")
    mean = float(x.mean())
    if x.size == 1:
        return mean, -math.inf, math.inf
    half = float(_sps().t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return mean, mean - half, mean + half


def paired_bootstrap_ci(differences: Sequence[float] | np.ndarray, n_resamples: int = 2000, seed: int = 0,
                        confidence: float = 0.95, statistic: Callable[[np.ndarray], np.ndarray] | None = None,
                        ) -> tuple[float, float]:
    """Percentile bootstrap interval of a statistic (the mean by default) of per-pair differences, resampling
    whole pairs (games) with replacement."""
    d = np.asarray(differences, dtype=float)
    if d.size == 0:
        raise ValueError("no differences")
    rng = np.random.default_rng(seed)
    samples = d[rng.integers(0, d.size, size=(n_resamples, d.size))]
    values = samples.mean(axis=1) if statistic is None else statistic(samples)
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(values, [tail, 100 - tail])
    return float(lo), float(hi)


def wilcoxon_signed_rank(differences: Sequence[float] | np.ndarray | pd.Series) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired differences (zero differences dropped, normal
    approximation with tie correction when there are ties or many pairs); 1.0 when every difference is 0."""
    d = np.asarray(differences, dtype=float)
    if not np.any(d != 0):
        return 1.0
    return float(_sps().wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)


def holm(pvalues: Sequence[float] | np.ndarray | pd.Series) -> np.ndarray | pd.Series:
    """Holm's step-down adjusted p-values (family-wise error control under any dependence), in the input order.
    A Series comes back as a Series with the same index.

    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError("pvalues must be one-dimensional")
    if np.any((p < 0) | (p > 1) | np.isnan(p)):
        raise ValueError("p-values must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    if isinstance(pvalues, pd.Series):
        return pd.Series(adjusted, index=pvalues.index, name=pvalues.name)
    return adjusted


# =============================================================================
# Sample sizes
# =============================================================================
def sample_size_for_proportion(p: float, half_width: float, confidence: float = 0.95) -> int:
    """Trials needed for a proportion near `p` to get a normal-approximation interval of +/- `half_width`:
    ceil(z^2 p (1 - p) / h^2). For example about 7,200 games for +/-1 point at a 25% win rate.

    >>> sample_size_for_proportion(0.25, 0.01)
    7203
    """
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if half_width <= 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    z = z_value(confidence)
    return max(1, math.ceil(z * z * p * (1 - p) / half_width ** 2 - 1e-9))


def sample_size_for_paired(sd_difference: float, half_width: float, confidence: float = 0.95) -> int:
    """Pairs (games) needed for the mean of paired differences with standard deviation `sd_difference` to get
    an interval of +/- `half_width`: ceil((z sd / h)^2). Take sd from a pilot run (`PairedResult.sd_win_diff`
    or `sd_vp_diff`, or `sample_size_from_pilot`)."""
    if sd_difference < 0:
        raise ValueError(f"sd_difference must be non-negative, got {sd_difference}")
    if half_width <= 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    z = z_value(confidence)
    return max(1, math.ceil((z * sd_difference / half_width) ** 2 - 1e-9))


def sample_size_for_paired_proportions(p_a_only: float, p_b_only: float, half_width: float,
                                       confidence: float = 0.95) -> int:
    """Games needed for a difference of paired win rates to get +/- `half_width`, from the discordance rates of a
    pilot (share of games that only A won, only B won): the per-game difference takes values -1, 0, 1 with
    variance p10 + p01 - (p10 - p01)^2."""
    variance = p_a_only + p_b_only - (p_a_only - p_b_only) ** 2
    return sample_size_for_paired(math.sqrt(max(variance, 0.0)), half_width, confidence)


def sample_size_from_pilot(differences: Sequence[float] | np.ndarray, half_width: float,
                           confidence: float = 0.95) -> int:
    """Games needed, from the per-game differences of a pilot run."""
    d = np.asarray(differences, dtype=float)
    if d.size < 2:
        raise ValueError("a pilot needs at least 2 pairs")
    return sample_size_for_paired(float(d.std(ddof=1)), half_width, confidence)


# =============================================================================
# Win rates
# =============================================================================
def score_column(players: pd.DataFrame) -> str:
    """The score column of player rows: their game's score unit in lower case ("vp", "hp"); its sources are the
    columns `<unit>_<source>`."""
    from borabora_sim.games import score_columns

    found = [column for column in score_columns() if column in players.columns]
    if len(found) != 1:
        raise ValueError(f"player rows need exactly one score column of {', '.join(score_columns())}; "
                         f"found {', '.join(found) or 'none'}")
    return found[0]


def spec_as_str(players: pd.DataFrame) -> pd.DataFrame:
    """The rows with `spec` as plain strings (a run's `spec` column is categorical, with that run's categories),
    so that rows of several runs compare and concatenate."""
    if "spec" in players and not pd.api.types.is_string_dtype(players["spec"].dtype):
        players = players.assign(spec=players["spec"].astype(str))
    return players


def _top_share(players: pd.DataFrame) -> pd.Series:
    """Each row's share of first place: 1/k for the k rows at the top score of their game, else 0."""
    top = players["win"] | players["tied_first"]
    tied = players["tied_first"].groupby(players["game_id"]).transform("sum")
    k = np.where(players["tied_first"], tied, 1).astype(float)
    return pd.Series(np.where(top, 1.0 / np.maximum(k, 1), 0.0), index=players.index)


def win_rate(players: pd.DataFrame, by: str | Sequence[str] = "spec", confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per group with a Wilson interval, the 1/N baseline and an exact binomial test against it.

    Columns: rows, games, copies (rows per game), wins, win_rate, ci_low, ci_high, baseline, p_value (against
    the baseline), tied_first (rows that shared the top score), tie_break_wins (wins decided by the tie-break),
    shared_win_rate (a tie for first counted as a 1/k share of the win), mean_<unit> (mean_vp, mean_hp).

    A row is a trial. When a spec sits in several seats of one game its rows are negatively correlated (at most
    one of them wins), which makes the interval and the test conservative; for seats, start positions and
    player counts each game gives one row per group.
    """
    keys = [by] if isinstance(by, str) else list(by)
    players = spec_as_str(players)
    z = z_value(confidence)
    share = _top_share(players)
    score = score_column(players)
    rows = []
    for key, group in players.groupby(keys, observed=True, sort=True):
        n = len(group)
        games = int(group["game_id"].nunique())
        wins = int(group["win"].sum())
        lo, hi = wilson_interval(wins, n, z)
        baseline = float((1 / group["n_players"]).mean())
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        row.update({
            "rows": n, "games": games, "copies": n / games, "wins": wins, "win_rate": wins / n,
            "ci_low": lo, "ci_high": hi, "baseline": baseline, "p_value": binomial_test(wins, n, baseline),
            "tied_first": int(group["tied_first"].sum()),
            "tie_break_wins": int((group["win"] & group["tied_first"]).sum()),
            "shared_win_rate": float(share.loc[group.index].mean()), f"mean_{score}": float(group[score].mean()),
        })
        rows.append(row)
    return pd.DataFrame(rows).set_index(keys)


def win_rate_by_seat(players: pd.DataFrame, column: str = "seat", spec: str | None = None) -> pd.DataFrame:
    """Win rate per player count and seat (or `column="start_position"`: 0 = first in round 1), optionally for
    the rows of one spec only. `chi2_p` is a chi-square test, per player count, that every seat wins equally
    often (only when all specs are counted: then each game gives exactly one winning row)."""
    table = win_rate(players if spec is None else spec_as_str(players).query("spec == @spec"),
                     by=["n_players", column])
    table["chi2_p"] = np.nan
    if spec is None:
        for n in table.index.get_level_values(0).unique():
            wins = table.loc[n, "wins"].to_numpy()
            if wins.sum() > 0 and len(wins) > 1:
                table.loc[n, "chi2_p"] = float(_sps().chisquare(wins).pvalue)
    return table


def win_rate_by_players(players: pd.DataFrame) -> pd.DataFrame:
    """Win rate per spec and player count (the baseline differs: 1/2, 1/3, 1/4)."""
    return win_rate(players, by=["spec", "n_players"])


def vp_by_source(players: pd.DataFrame, by: str = "spec") -> pd.DataFrame:
    """Mean points per source (columns) for each group (rows), in the game's unit; sources never scored are left
    out."""
    prefix = f"{score_column(players)}_"
    columns = [c for c in players.columns if c.startswith(prefix)]
    table = spec_as_str(players).groupby(by, observed=True, sort=True)[columns].mean()
    table.columns = [c.removeprefix(prefix) for c in columns]
    return table.loc[:, (table != 0).any(axis=0)]


# =============================================================================
# Paired A/B on common random numbers
# =============================================================================
@dataclass
class PairedResult:
    """A paired comparison of arm A against arm B on the same games (differences are A - B).

    The unit is the game: the focus seats of each game are pooled (their wins summed: at most one of them wins;
    their VP averaged), so each game seed gives one pair of outcomes. The vp fields hold points in the game's
    `unit` (HP for Bamboo). The fields are numbers, strings and intervals, so `dataclasses.asdict(result)` is a
    table row; the data stay on the attributes `per_game`, `frame_a` and `frame_b`.
    """

    label_a: str
    label_b: str
    games: int
    focus_per_game: int
    baseline: float                 # chance of the focus seats winning if all players were equal
    both: int                       # games that A and B both won (focus seats)
    a_only: int
    b_only: int
    neither: int
    win_a: float
    win_b: float
    win_diff: float
    win_diff_ci: tuple[float, float]
    sd_win_diff: float
    mcnemar_p: float
    vp_a: float
    vp_b: float
    vp_diff: float
    vp_diff_ci: tuple[float, float]
    sd_vp_diff: float
    vp_p: float                     # one-sample t-test of the score differences (the test of vp_diff_ci)
    vp_diff_bootstrap_ci: tuple[float, float] | None
    confidence: float
    looks: int = 1
    unit: str = "VP"                # the game's score unit, for the text

    def attach(self, per_game: pd.DataFrame, frame_a: pd.DataFrame | None = None,
               frame_b: pd.DataFrame | None = None) -> PairedResult:
        """Keeps the data next to the numbers, as attributes that are not dataclass fields: `per_game` (one row
        per game: win_a, win_b, vp_a, vp_b, rank_a, rank_b and the differences) and both runs' player rows."""
        self.per_game = per_game
        self.frame_a = frame_a
        self.frame_b = frame_b
        return self

    def half_width(self, metric: str = "win") -> float:
        """Half the width of the interval of the effect: "win" (difference of win rates) or "vp" (of points)."""
        lo, hi = self.win_diff_ci if metric == "win" else self.vp_diff_ci
        return (hi - lo) / 2

    def to_frame(self) -> pd.DataFrame:
        """The two effects in one table: estimate, interval, p-value, test."""
        return pd.DataFrame([
            {"effect": "win rate A - B", "estimate": self.win_diff, "ci_low": self.win_diff_ci[0],
             "ci_high": self.win_diff_ci[1], "p_value": self.mcnemar_p, "test": "exact McNemar"},
            {"effect": f"mean {self.unit} A - B", "estimate": self.vp_diff, "ci_low": self.vp_diff_ci[0],
             "ci_high": self.vp_diff_ci[1], "p_value": self.vp_p, "test": "paired t"},
        ]).set_index("effect")

    def summary(self) -> str:
        pct = 100 * self.confidence
        lines = [
            f"A = {self.label_a}", f"B = {self.label_b}",
            f"{self.games:,} paired games, {self.focus_per_game} focus seat(s) per game, "
            f"baseline win rate {self.baseline:.1%}" + (f", {self.looks} looks" if self.looks > 1 else ""),
            f"win rate A {self.win_a:.1%}, B {self.win_b:.1%}: difference {100 * self.win_diff:+.1f} points "
            f"({pct:.0f}% CI {100 * self.win_diff_ci[0]:+.1f} to {100 * self.win_diff_ci[1]:+.1f}); "
            f"discordant games A only {self.a_only}, B only {self.b_only}, exact McNemar p = {self.mcnemar_p:.3g}",
            f"mean {self.unit} A {self.vp_a:.2f}, B {self.vp_b:.2f}: difference {self.vp_diff:+.2f} "
            f"({pct:.0f}% CI {self.vp_diff_ci[0]:+.2f} to {self.vp_diff_ci[1]:+.2f}); "
            f"paired t-test p = {self.vp_p:.3g}",
        ]
        if self.vp_diff_bootstrap_ci is not None:
            lo, hi = self.vp_diff_bootstrap_ci
            lines.append(f"paired bootstrap {pct:.0f}% CI of the {self.unit} difference: {lo:+.2f} to {hi:+.2f}")
        return "\n".join(lines)


def player_positions(players: pd.DataFrame, rotate_seats: bool = True) -> pd.Series:
    """The index into the run's players list of every row: with seat rotation seat s of game i plays
    players[(s + i) % n]. A `position` column, when present, is returned as it is."""
    if "position" in players:
        return players["position"].astype(int)
    seat = players["seat"].astype(int)
    if not rotate_seats:
        return seat
    return (seat + players["game_id"].astype(int)) % players["n_players"].astype(int)


def _focus_mask(a: pd.DataFrame, b: pd.DataFrame, focus: Sequence[int] | None, rotate_seats: bool) -> np.ndarray:
    if focus is None:
        mask: np.ndarray = a["spec"].astype(str).to_numpy() != b["spec"].astype(str).to_numpy()
        if not mask.any():
            raise ValueError("the two runs have the same spec in every seat; name the seats under study with "
                             "focus=[index into the players list, ...]")
        return mask
    positions = player_positions(a, rotate_seats).to_numpy()
    if not np.array_equal(positions, player_positions(b, rotate_seats).to_numpy()):
        raise ValueError("the two runs do not have the same seat rotation")
    n = int(a["n_players"].iloc[0])
    bad = [k for k in focus if not 0 <= k < n]
    if bad or not focus:
        raise ValueError(f"focus must list indices into the players list (0..{n - 1}), got {list(focus)}")
    return np.isin(positions, list(focus))


def paired_compare(frame_a: pd.DataFrame, frame_b: pd.DataFrame, focus: Sequence[int] | None = None,
                   rotate_seats: bool = True, label_a: str | None = None, label_b: str | None = None,
                   confidence: float = 0.95, bootstrap: int = 0, seed: int = 0, focus_a: str | None = None,
                   focus_b: str | None = None) -> PairedResult:
    """Paired analysis of two runs played on the same game seeds (same `seed`, same number of games and
    players, same seat rotation), e.g. two `simulate` results that differ only in the policy of some seats.

    The focus seats are, by default, those whose spec differs between the runs. Or name them: `focus` as indices
    into the players list (turned into seats with the run's rotation), or `focus_a` / `focus_b` as the specs
    under study (the rows of that spec in each run, which must sit in the same seats). Games are matched by
    game_id and must have the same game_seed. Wins: exact McNemar test and the exact interval of the difference
    that inverts it (`paired_win_interval`). VP: Student t interval of the mean difference and the t-test it
    inverts, and with `bootstrap` > 0 a paired bootstrap interval with that many resamples. Each interval
    excludes 0 exactly when its test rejects at 1 - confidence.
    """
    a = frame_a.sort_values(["game_id", "seat"], ignore_index=True)
    b = frame_b.sort_values(["game_id", "seat"], ignore_index=True)
    if len(a) != len(b) or not np.array_equal(a["game_id"].to_numpy(), b["game_id"].to_numpy()) \
            or not np.array_equal(a["seat"].to_numpy(), b["seat"].to_numpy()):
        raise ValueError("the two runs do not hold the same games and seats; run both with the same seed, number "
                         "of games and number of players")
    if not np.array_equal(a["game_seed"].to_numpy(), b["game_seed"].to_numpy()):
        raise ValueError("the two runs have different game seeds: they are not paired (use the same seed)")
    if focus_a is not None or focus_b is not None:
        if focus is not None:
            raise ValueError("give either focus (positions) or focus_a/focus_b (specs), not both")
        mask = a["spec"].astype(str).to_numpy() == (focus_a if focus_a is not None else focus_b)
        other = b["spec"].astype(str).to_numpy() == (focus_b if focus_b is not None else focus_a)
        if not mask.any() or not np.array_equal(mask, other):
            raise ValueError(f"the focus specs {focus_a!r} and {focus_b!r} do not sit in the same seats of the "
                             "same games in both runs")
    else:
        mask = _focus_mask(a, b, focus, rotate_seats)
    counts = pd.Series(mask).groupby(a["game_id"]).sum()
    if counts.nunique() != 1 or counts.iloc[0] == 0:
        raise ValueError("every game must have the same number of focus seats")
    k = int(counts.iloc[0])
    n_players = int(a["n_players"].iloc[0])
    fa, fb = a[mask], b[mask]
    score = score_column(a)
    per_game = pd.DataFrame({
        "game_seed": fa.groupby("game_id")["game_seed"].first(),
        "win_a": fa.groupby("game_id")["win"].sum().astype(int),
        "win_b": fb.groupby("game_id")["win"].sum().astype(int),
        "vp_a": fa.groupby("game_id")[score].mean(),
        "vp_b": fb.groupby("game_id")[score].mean(),
        "rank_a": fa.groupby("game_id")["rank"].mean(),
        "rank_b": fb.groupby("game_id")["rank"].mean(),
    })
    result = paired_outcomes(per_game, label_a or _arm_label(fa), label_b or _arm_label(fb), baseline=k / n_players,
                             focus_per_game=k, confidence=confidence, bootstrap=bootstrap, seed=seed,
                             unit=score.upper())
    return result.attach(result.per_game, frame_a, frame_b)


def _arm_label(focus_rows: pd.DataFrame) -> str:
    return " + ".join(sorted(set(focus_rows["spec"].astype(str))))


def paired_outcomes(per_game: pd.DataFrame, label_a: str, label_b: str, baseline: float, focus_per_game: int = 1,
                    confidence: float = 0.95, bootstrap: int = 0, seed: int = 0, unit: str = "VP") -> PairedResult:
    """The paired analysis of outcomes already matched pair by pair: `per_game` has one row per pair with `win_a`,
    `win_b` (0 or 1) and `vp_a`, `vp_b` (points in `unit`); `baseline` is the chance of a win if A and B were
    equal. This is what
    `paired_compare` does once it has matched two runs; a study that makes its own pairs (e.g. a game continued
    with and without a change) uses it directly."""
    missing = [c for c in ("win_a", "win_b", "vp_a", "vp_b") if c not in per_game]
    if missing:
        raise ValueError(f"per_game needs the columns win_a, win_b, vp_a, vp_b; missing: {', '.join(missing)}")
    if len(per_game) == 0:
        raise ValueError("per_game has no pairs")
    per_game = per_game.assign(win_a=per_game["win_a"].astype(int), win_b=per_game["win_b"].astype(int))
    if not (per_game[["win_a", "win_b"]].isin([0, 1]).all().all()):
        raise ValueError("win_a and win_b must be 0 or 1 (or booleans)")
    per_game["win_diff"] = per_game["win_a"] - per_game["win_b"]
    per_game["vp_diff"] = per_game["vp_a"] - per_game["vp_b"]
    result = PairedResult(label_a=label_a, label_b=label_b, focus_per_game=focus_per_game, baseline=baseline,
                          unit=unit, **_paired_from_outcomes(per_game, confidence, bootstrap, seed))
    return result.attach(per_game)


def _paired_from_outcomes(per_game: pd.DataFrame, confidence: float, bootstrap: int, seed: int) -> dict[str, Any]:
    wa, wb = per_game["win_a"].to_numpy(), per_game["win_b"].to_numpy()
    both, a_only = int(((wa == 1) & (wb == 1)).sum()), int(((wa == 1) & (wb == 0)).sum())
    b_only, neither = int(((wa == 0) & (wb == 1)).sum()), int(((wa == 0) & (wb == 0)).sum())
    n = len(per_game)
    lo, hi = paired_win_interval(a_only, b_only, n, confidence)
    vd = per_game["vp_diff"].to_numpy(dtype=float)
    mean, vlo, vhi, vp_p = mean_test(vd, confidence)
    wd = per_game["win_diff"].to_numpy(dtype=float)
    return {
        "games": n, "both": both, "a_only": a_only, "b_only": b_only, "neither": neither,
        "win_a": float(wa.mean()), "win_b": float(wb.mean()), "win_diff": (a_only - b_only) / n,
        "win_diff_ci": (lo, hi),
        "sd_win_diff": float(wd.std(ddof=1)) if n > 1 else math.nan, "mcnemar_p": mcnemar_exact(a_only, b_only),
        "vp_a": float(per_game["vp_a"].mean()), "vp_b": float(per_game["vp_b"].mean()), "vp_diff": mean,
        "vp_diff_ci": (vlo, vhi), "sd_vp_diff": float(vd.std(ddof=1)) if n > 1 else math.nan,
        "vp_p": vp_p,
        "vp_diff_bootstrap_ci": paired_bootstrap_ci(vd, bootstrap, seed, confidence) if bootstrap > 0 else None,
        "confidence": confidence,
    }


# =============================================================================
# Many comparisons: one decision rule per effect, shared by its verdict and its printed interval
# =============================================================================
VERDICTS = ("A better", "A worse", "no detectable difference")


def family_confidence(alpha: float, comparisons: int) -> float:
    """The confidence of each interval of a family of `comparisons` so that all of them hold together with
    probability at least 1 - alpha (Bonferroni): 1 - alpha / comparisons."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if comparisons < 1:
        raise ValueError(f"a family needs at least one comparison, got {comparisons}")
    return 1 - alpha / comparisons


def interval_verdict(low: float, high: float, reference: float = 0.0) -> int:
    """The one decision rule of every verdict: +1 when the interval lies above `reference`, -1 when below, 0 when it
    holds it (not detectable)."""
    return 1 if low > reference else -1 if high < reference else 0


def verdict_of(low: float, high: float, reference: float = 0.0,
               words: tuple[str, str, str] = VERDICTS) -> str:
    """`interval_verdict` in words: the first of `words` above `reference`, the second below, the third holding it
    (VERDICTS by default)."""
    return words[{1: 0, -1: 1, 0: 2}[interval_verdict(low, high, reference)]]


def adjusted_p(p: float, comparisons: int) -> float:
    """A p-value adjusted for a family of `comparisons` (Bonferroni): below alpha exactly when the interval at
    `family_confidence(alpha, comparisons)` of the test it belongs to excludes the tested value."""
    return min(1.0, comparisons * p)


def paired_table(results: Sequence[PairedResult] | pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Paired results as one table (one row per comparison, the fields of `PairedResult`), judged as one family:
    every interval is recomputed at `family_confidence(alpha, rows)` (simultaneous intervals: all of them cover
    their effects together with probability 1 - alpha), the verdict of each effect, `win_verdict` and `vp_verdict`
    (one of VERDICTS), is whether that interval excludes 0, and `win_p_adjusted` / `vp_p_adjusted` are the p-values
    of the same tests (exact McNemar, paired t) adjusted alike, below alpha exactly when the interval excludes 0.
    `confidence` is the intervals' level, `family` the number of rows and `alpha` the level of the family.
    Reports, sentences and answers read their verdicts and intervals from this one table."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if isinstance(results, pd.DataFrame):
        table = results.reset_index(drop=True).copy()
    else:
        table = pd.DataFrame([asdict(r) for r in results])
    if len(table):
        family = len(table)
        level = family_confidence(alpha, family)
        table["win_diff_ci"] = [paired_win_interval(int(a), int(b), int(n), level)
                                for a, b, n in zip(table["a_only"], table["b_only"], table["games"], strict=True)]
        table["vp_diff_ci"] = [_t_interval(m, sd, int(n), level)
                               for m, sd, n in zip(table["vp_diff"], table["sd_vp_diff"], table["games"], strict=True)]
        table["win_p_adjusted"] = [adjusted_p(p, family) for p in table["mcnemar_p"]]
        table["vp_p_adjusted"] = [adjusted_p(p, family) for p in table["vp_p"]]
        table["win_verdict"] = [verdict_of(*ci) for ci in table["win_diff_ci"]]
        table["vp_verdict"] = [verdict_of(*ci) for ci in table["vp_diff_ci"]]
        table["confidence"] = level
        table["family"] = family
        table["alpha"] = alpha
    return table


def _t_interval(mean: float, sd: float, n: int, confidence: float) -> tuple[float, float]:
    """The Student t interval of a mean from its summary (that of `mean_test`, without the values)."""
    if n < 2 or not math.isfinite(sd):
        return -math.inf, math.inf
    half = float(_sps().t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return mean - half, mean + half


CHANGE_VERDICTS = ("higher", "lower", "no detectable change")


def effect_changes(table: pd.DataFrame, by: str, reference: object, within: Sequence[str] = (),
                   metric: str = "win", alpha: float = 0.05) -> pd.DataFrame:
    """How the effect of a `paired_table` changes from the row whose `by` column is `reference` to every other
    row of the same `within` group (e.g. a fishing comparison measured for players of rising strength,
    `by="rung"`, `within=("comparison",)`).

    One row per changed row: its labels, `reference_effect`, `effect`, `change` (effect - reference effect), and,
    the changes returned being one family (`family`, their number), a normal `change_ci` at
    `family_confidence(alpha, family)`, the two-sided `change_p` and `change_p_adjusted`, and `change_verdict`
    (CHANGE_VERDICTS), whether `change_ci` excludes 0. Each row's standard error is read from its own interval
    (half-width over z at the table's `confidence`): an exact interval of a win-rate difference stays honest for a
    few dozen pairs that a change never turns, where the plain standard deviation of the paired differences would
    be 0 and make any change from it look certain; for large rows both give the same. The two rows are treated as
    independent samples. `metric` is "win" (win-rate points as fractions) or "vp" (points)."""
    if metric not in ("win", "vp"):
        raise ValueError(f"metric must be win or vp, got {metric!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    missing = [c for c in (by, *within, f"{metric}_diff", f"{metric}_diff_ci", "confidence") if c not in table]
    if missing:
        raise ValueError(f"the table needs the column(s) {', '.join(missing)}: give a paired_table")
    if table["confidence"].nunique() != 1:
        raise ValueError("the rows have intervals at different confidence levels; compare rows of one level")
    z = z_value(float(table["confidence"].iloc[0]))

    def standard_error(row: pd.Series) -> float:
        low, high = row[f"{metric}_diff_ci"]
        return float(high - low) / (2 * z)

    rows = []
    for key, group in table.groupby(list(within), sort=False) if within else [((), table)]:
        refs = group[group[by] == reference]
        if len(refs) != 1:
            raise ValueError(f"{len(refs)} rows have {by} = {reference!r} in the group {key!r}; need exactly one")
        ref = refs.iloc[0]
        for _, row in group[group[by] != reference].iterrows():
            change = float(row[f"{metric}_diff"] - ref[f"{metric}_diff"])
            se = math.hypot(standard_error(ref), standard_error(row))
            exact = 1.0 if change == 0 else 0.0          # both intervals have no width: the change is exact
            p = float(2 * _sps().norm.sf(abs(change) / se)) if se > 0 else exact
            rows.append({**{c: row[c] for c in within}, by: row[by], "reference": reference,
                         "reference_effect": float(ref[f"{metric}_diff"]), "effect": float(row[f"{metric}_diff"]),
                         "change": change, "se": se, "change_p": p})
    result = pd.DataFrame(rows)
    if len(result):
        family = len(result)
        family_z = z_value(family_confidence(alpha, family))
        result["change_ci"] = [(c - family_z * se, c + family_z * se)
                               for c, se in zip(result["change"], result["se"], strict=True)]
        result["change_p_adjusted"] = [adjusted_p(p, family) for p in result["change_p"]]
        result["change_verdict"] = [verdict_of(low, high, words=CHANGE_VERDICTS) for low, high in result["change_ci"]]
        result["family"] = family
        result["alpha"] = alpha
        result = result.drop(columns="se")
    return result


def interval_columns(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every column of (low, high) intervals, such as `win_diff_ci`, replaced by two numeric
    columns in its place, `<name>_low` and `<name>_high` (for CSV files and other flat formats)."""
    def is_interval(value: object) -> bool:
        return isinstance(value, tuple | list | np.ndarray) and len(value) == 2

    columns: dict[str, object] = {}
    for name, column in table.items():
        present = column.dropna()
        if len(present) and all(is_interval(v) for v in present):
            for side, end in (("low", 0), ("high", 1)):
                columns[f"{name}_{side}"] = [float(v[end]) if is_interval(v) else np.nan for v in column]
        else:
            columns[str(name)] = column
    return pd.DataFrame(columns, index=table.index)


# =============================================================================
# Head-to-head
# =============================================================================
@dataclass
class HeadToHead:
    """Pairwise results of specs that met in the same games. `share.loc[x, y]` is how often x finished above y
    (a game where x and y meet counts once; copies of a spec in one game are averaged)."""

    share: pd.DataFrame             # matrix: row spec above column spec
    games: pd.DataFrame             # matrix: games in which both took part
    table: pd.DataFrame             # long form: spec_a, spec_b, games, share, ci_low, ci_high, p_value, p_holm


def head_to_head(players: pd.DataFrame, by: str = "rank", confidence: float = 0.95) -> HeadToHead:
    """Head-to-head matrix of every pair of specs that met. `by="rank"` compares the final ranks (ties broken by
    the rules' tie-break); `by="vp"` compares scores (in the game's unit), an equal score counting as half.

    The unit is the game: each game where both specs play gives one share in [0, 1]. The interval is Wilson's on
    the summed shares; the p-value is an exact sign test (games that x won against y vs. lost) against 1/2,
    with Holm's correction over the unordered pairs in `p_holm`.
    """
    if by not in ("rank", "vp"):
        raise ValueError(f"by must be 'rank' or 'vp', got {by!r}")
    rows = spec_as_str(players)[["game_id", "spec", "rank", score_column(players)]].set_axis(
        ["game_id", "spec", "rank", "vp"], axis=1)
    pairs = rows.merge(rows, on="game_id", suffixes=("_a", "_b"))
    pairs = pairs[pairs["spec_a"] != pairs["spec_b"]]
    if by == "rank":
        score = (pairs["rank_a"] < pairs["rank_b"]).astype(float)
    else:
        score = (pairs["vp_a"] > pairs["vp_b"]) + 0.5 * (pairs["vp_a"] == pairs["vp_b"])
    per_game = pairs.assign(score=score.astype(float)).groupby(["spec_a", "spec_b", "game_id"])["score"].mean()
    z = z_value(confidence)
    records = []
    for pair, shares in per_game.groupby(level=["spec_a", "spec_b"]):
        spec_a, spec_b = cast(tuple[str, str], pair)
        n = len(shares)
        total = float(shares.sum())
        lo, hi = wilson_interval(total, n, z)
        won, lost = int((shares > 0.5).sum()), int((shares < 0.5).sum())
        records.append({"spec_a": spec_a, "spec_b": spec_b, "games": n, "share": total / n, "ci_low": lo,
                        "ci_high": hi, "won": won, "lost": lost, "p_value": mcnemar_exact(won, lost)})
    table = pd.DataFrame(records, columns=["spec_a", "spec_b", "games", "share", "ci_low", "ci_high", "won", "lost",
                                           "p_value"])
    if len(table):
        unordered = table["spec_a"] < table["spec_b"]
        adjusted = holm(table.loc[unordered, "p_value"])
        lookup = {(a, b): p for a, b, p in zip(table.loc[unordered, "spec_a"], table.loc[unordered, "spec_b"],
                                               adjusted, strict=True)}
        table["p_holm"] = [lookup[(min(a, b), max(a, b))] for a, b in zip(table["spec_a"], table["spec_b"],
                                                                          strict=True)]
    else:
        table["p_holm"] = []
    specs = sorted(set(rows["spec"]))
    share = table.pivot(index="spec_a", columns="spec_b", values="share").reindex(index=specs, columns=specs)
    games = table.pivot(index="spec_a", columns="spec_b", values="games").reindex(index=specs, columns=specs)
    share.index.name, share.columns.name = "spec", "opponent"
    games.index.name, games.columns.name = "spec", "opponent"
    return HeadToHead(share=share, games=games.fillna(0).astype(int), table=table)


# =============================================================================
# Effects along a variable
# =============================================================================
def effect_table(players: pd.DataFrame, x: str, y: str, hue: str | None = None,
                 confidence: float = 0.95) -> pd.DataFrame:
    """Mean of `y` per value of `x` (and per `hue` group) with an interval: Wilson for a 0/1 column (win,
    tied_first), Student t otherwise. Columns: x, [hue], n, mean, ci_low, ci_high."""
    keys = [x] if hue is None else [hue, x]
    frame = spec_as_str(players)
    binary = frame[y].dropna().isin([0, 1]).all()
    z = z_value(confidence)
    records = []
    for key, group in frame.groupby(keys, observed=True, sort=True):
        values = group[y].dropna().to_numpy(dtype=float)
        if values.size == 0:
            continue
        if binary:
            mean = float(values.mean())
            lo, hi = wilson_interval(float(values.sum()), values.size, z)
        else:
            mean, lo, hi = mean_interval(values, confidence)
        record = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        record.update({"n": int(values.size), "mean": mean, "ci_low": lo, "ci_high": hi})
        records.append(record)
    return pd.DataFrame(records, columns=[*keys, "n", "mean", "ci_low", "ci_high"])


__all__ = [
    "VERDICTS",
    "HeadToHead",
    "PairedResult",
    "adjusted_p",
    "binomial_test",
    "clopper_pearson",
    "effect_table",
    "exact_binomial_p",
    "family_confidence",
    "head_to_head",
    "holm",
    "interval_columns",
    "interval_verdict",
    "mcnemar_exact",
    "mean_interval",
    "mean_test",
    "paired_bootstrap_ci",
    "paired_compare",
    "paired_outcomes",
    "paired_proportion_difference",
    "paired_table",
    "paired_win_interval",
    "player_positions",
    "sample_size_for_paired",
    "sample_size_for_paired_proportions",
    "sample_size_for_proportion",
    "sample_size_from_pilot",
    "score_column",
    "spec_as_str",
    "verdict_of",
    "vp_by_source",
    "wilcoxon_signed_rank",
    "wilson_interval",
    "win_rate",
    "win_rate_by_players",
    "win_rate_by_seat",
    "z_value",
]
