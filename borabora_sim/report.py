"""Summary tables of a simulation result (the `borabora report` and `simulate` printouts)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from borabora_sim.stats import wilson_interval

VP_COLUMNS_PREFIX = "vp_"


def win_rates(players: pd.DataFrame, by: str = "spec") -> pd.DataFrame:
    """Win rate per group with a Wilson 95% interval and the 1/n baseline.

    A game's winner is decided by the tie-break (earlier in the last turn order); `tied_first` counts the rows
    that shared the top score, so shared wins stay visible. Rows of one spec in the same game are counted as
    separate trials.
    """
    rows = []
    for key, group in players.groupby(by, observed=True, sort=True):
        n = len(group)
        wins = int(group["win"].sum())
        lo, hi = wilson_interval(wins, n)
        rows.append({by: key, "rows": n, "wins": wins, "win_rate": wins / n, "ci_low": lo, "ci_high": hi,
                     "baseline": float((1 / group["n_players"]).mean()), "tied_first": int(group["tied_first"].sum()),
                     "mean_vp": group["vp"].mean()})
    return pd.DataFrame(rows).set_index(by)


def vp_by_source(players: pd.DataFrame, by: str = "spec") -> pd.DataFrame:
    """Mean VP per source (columns) for each group (rows); sources never scored are left out."""
    columns = [c for c in players.columns if c.startswith(VP_COLUMNS_PREFIX)]
    table = players.groupby(by, observed=True, sort=True)[columns].mean()
    table.columns = [c.removeprefix(VP_COLUMNS_PREFIX) for c in columns]
    return table.loc[:, (table != 0).any(axis=0)]


def game_lengths(players: pd.DataFrame) -> pd.Series:
    per_game = players.groupby("game_id")["decisions"].first()
    return per_game.describe(percentiles=[0.05, 0.5, 0.95])


def format_summary(players: pd.DataFrame, seconds: float | None = None) -> str:
    """The printed summary: speed, win rate by spec and by turn-order position, VP by source, game length."""
    games = players["game_id"].nunique()
    lines = []
    if seconds is not None:
        lines.append(f"{games:,} games in {seconds:.2f} s ({games / seconds:,.0f} games/s)")
    else:
        lines.append(f"{games:,} games")
    pct = {"win_rate": "{:.1%}".format, "ci_low": "{:.1%}".format, "ci_high": "{:.1%}".format,
           "baseline": "{:.1%}".format, "mean_vp": "{:.1f}".format}
    lines += ["", "win rate by player (Wilson 95% interval):",
              win_rates(players).to_string(formatters=pct)]
    lines += ["", "win rate by start position (0 = first in round 1):",
              win_rates(players, "start_position").to_string(formatters=pct)]
    lines += ["", "mean VP by source:", vp_by_source(players).round(2).T.to_string()]
    lengths = game_lengths(players)
    lines += ["", f"decisions per game: mean {lengths['mean']:.0f}, 5% {lengths['5%']:.0f}, "
                  f"median {lengths['50%']:.0f}, 95% {lengths['95%']:.0f}"]
    return "\n".join(lines)


def plot_summary(players: pd.DataFrame, path: str) -> None:
    """Win rate with interval bars and VP by source as stacked bars, per spec, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = win_rates(players)
    sources = vp_by_source(players)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), constrained_layout=True)
    y = np.arange(len(rates))
    left.barh(y, rates["win_rate"], xerr=[rates["win_rate"] - rates["ci_low"], rates["ci_high"] - rates["win_rate"]],
              color="tab:blue", capsize=4)
    left.axvline(rates["baseline"].mean(), color="grey", linestyle="--", label="1/n baseline")
    left.set_yticks(y, [str(s) for s in rates.index])
    left.set_xlabel("win rate (95% Wilson interval)")
    left.legend()
    sources.plot.barh(stacked=True, ax=right, colormap="tab20", legend=True)
    right.set_xlabel("mean VP")
    right.set_ylabel("")
    right.legend(fontsize=7, ncol=2, loc="lower right")
    fig.savefig(path, dpi=120)
    plt.close(fig)
