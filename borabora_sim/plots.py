"""Plots of simulation results. Every function returns a matplotlib Figure drawn on the Agg canvas (no pyplot,
no window): save it with `fig.savefig(path)`; in a notebook it displays as an image.

>>> from borabora_sim.plots import plot_win_rates            # doctest: +SKIP
>>> plot_win_rates(players).savefig("win_rates.png")        # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from borabora_sim import stats


def new_figure(width: float = 7.0, height: float = 4.5) -> Figure:
    """A Figure on its own Agg canvas (independent of pyplot's global state and backend)."""
    fig = Figure(figsize=(width, height), constrained_layout=True)
    FigureCanvasAgg(fig)
    return fig


def _label(key: object) -> str:
    return ", ".join(str(k) for k in key) if isinstance(key, tuple) else str(key)


def plot_win_rates(players: pd.DataFrame, by: str | Sequence[str] = "spec", title: str | None = None) -> Figure:
    """Win rate per group as horizontal bars with Wilson 95% interval whiskers, the 1/N baseline as a dashed
    line per bar and the share of rows tied for first noted at the bar's end."""
    return plot_win_rate_table(stats.win_rate(players, by=by), title)


def plot_win_rate_table(table: pd.DataFrame, title: str | None = None) -> Figure:
    """plot_win_rates from a table shaped like stats.win_rate's (rows, win_rate, ci_low, ci_high, baseline,
    tied_first), such as one added up chunk by chunk."""
    fig = new_figure(8, 1.2 + 0.45 * len(table))
    ax = fig.subplots()
    y = np.arange(len(table))
    rate = table["win_rate"].to_numpy()
    xerr = np.clip([rate - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - rate], 0, None)
    ax.barh(y, rate, xerr=xerr, color="tab:blue", capsize=4)
    for yi, base in zip(y, table["baseline"], strict=True):
        ax.vlines(base, yi - 0.45, yi + 0.45, colors="grey", linestyles="--")
    for i, (hi, ties, rows) in enumerate(zip(table["ci_high"], table["tied_first"], table["rows"], strict=True)):
        if ties:
            ax.text(hi + 0.005, i, f"{ties / rows:.1%} tied for 1st", va="center", fontsize=7, color="dimgrey")
    ax.set_yticks(y, [_label(k) for k in table.index])
    ax.invert_yaxis()
    ax.set_xlabel("win rate (Wilson 95% interval; dashed: 1/N baseline)")
    ax.set_xlim(0, min(1.0, float(table["ci_high"].max()) * 1.25 + 0.02))
    if title:
        ax.set_title(title)
    return fig


def plot_vp_sources(players: pd.DataFrame, by: str = "spec", title: str | None = None) -> Figure:
    """Mean points by source (in the game's unit) as stacked horizontal bars, one bar per group, one colour per
    source scored."""
    unit = stats.score_column(players).upper()
    return plot_vp_source_table(stats.vp_by_source(players, by=by), title, unit)


def plot_vp_source_table(table: pd.DataFrame, title: str | None = None, unit: str = "VP") -> Figure:
    """plot_vp_sources from a table of mean points (in `unit`) with one column per source and one row per
    group."""
    fig = new_figure(9, 1.5 + 0.5 * len(table))
    ax = fig.subplots()
    y = np.arange(len(table))
    left = np.zeros(len(table))
    colours = _colours(len(table.columns), "tab20")
    for colour, source in zip(colours, table.columns, strict=True):
        values = table[source].to_numpy(dtype=float)
        ax.barh(y, values, left=left, label=source, color=colour)
        left += values
    ax.set_yticks(y, [str(k) for k in table.index])
    ax.invert_yaxis()
    ax.set_xlabel(f"mean {unit}")
    _legend_outside(ax, title="source", fontsize=7, ncol=2 if len(table.columns) > 10 else 1)
    if title:
        ax.set_title(title)
    return fig


def _legend_outside(ax: Axes, title: str | None = None, fontsize: float = 8, ncol: int = 1) -> None:
    """The legend to the right of the axes, where it cannot cover bars, lines or bands (the constrained layout
    makes room for it)."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=fontsize, ncol=ncol,
              title=title, title_fontsize=fontsize)


def _colours(n: int, palette: str = "tab10") -> list[tuple[float, float, float, float]]:
    from matplotlib import colormaps

    cmap = colormaps[palette]
    return [cmap(i % cmap.N) for i in range(n)]


def plot_score_distribution(players: pd.DataFrame, by: str = "spec", column: str | None = None, bins: int = 30,
                            title: str | None = None) -> Figure:
    """Distribution of final scores (or of `column`): one step line (share of rows per bin) per group, with the
    group means as dotted vertical lines."""
    score = stats.score_column(players)
    column = column or score
    frame = players.assign(**{by: players[by].astype(str)}) if by in players else players
    values = frame[column].to_numpy(dtype=float)
    edges = np.histogram_bin_edges(values, bins=bins)
    fig = new_figure()
    ax = fig.subplots()
    for colour, (key, group) in zip(_colours(frame[by].nunique()), frame.groupby(by, sort=True), strict=True):
        counts, _ = np.histogram(group[column].to_numpy(dtype=float), bins=edges)
        share = counts / max(len(group), 1)
        ax.step(edges, np.r_[share, share[-1]], where="post", color=colour, label=f"{key} (n={len(group):,})")
        ax.axvline(group[column].mean(), color=colour, linestyle=":", linewidth=1)
    ax.set_xlabel(f"final {score.upper()}" if column == score else column)
    ax.set_ylabel("share of rows")
    _legend_outside(ax)
    if title:
        ax.set_title(title)
    return fig


def effect_by(df: pd.DataFrame, x: str, y: str, hue: str | None = None, confidence: float = 0.95,
              title: str | None = None, reference: float | None = None) -> Figure:
    """Mean of `y` against `x` as a line with its interval as a shaded band (Wilson for 0/1 columns, Student t
    otherwise), one line per `hue` group. `df` holds one row per observation: player rows, or per-game rows such
    as `PairedResult.per_game` (e.g. y="vp_diff"). `reference` draws a horizontal line (e.g. 0 or 1/N)."""
    table = stats.effect_table(df, x, y, hue=hue, confidence=confidence)
    fig = new_figure()
    ax = fig.subplots()
    groups = [(None, table)] if hue is None else list(table.groupby(hue, sort=True))
    for colour, (key, group) in zip(_colours(len(groups)), groups, strict=True):
        group = group.sort_values(x)
        ax.plot(group[x], group["mean"], marker="o", color=colour, label=None if key is None else str(key))
        ax.fill_between(group[x], group["ci_low"], group["ci_high"], color=colour, alpha=0.2, linewidth=0)
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    if pd.api.types.is_integer_dtype(table[x]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(x)
    ax.set_ylabel(f"{y} (mean, {confidence:.0%} interval)")
    if hue is not None:
        _legend_outside(ax, title=hue)
    if title:
        ax.set_title(title)
    return fig


def plot_head_to_head(h2h: stats.HeadToHead, title: str | None = None) -> Figure:
    """The head-to-head matrix as a heat map: share of games in which the row spec finished above the column
    spec, with the share and the number of games in each cell."""
    share = h2h.share
    fig = new_figure(2.5 + 1.1 * len(share), 2.0 + 0.9 * len(share))
    ax = fig.subplots()
    values, games = share.to_numpy(dtype=float), h2h.games.to_numpy()
    image = ax.imshow(values, cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(share)):
        for j in range(len(share)):
            value = values[i, j]
            if pd.notna(value):
                ax.text(j, i, f"{value:.0%}\n{games[i, j]:,}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(share)), [str(s) for s in share.columns], rotation=30, ha="right")
    ax.set_yticks(range(len(share)), [str(s) for s in share.index])
    ax.set_xlabel("opponent")
    fig.colorbar(image, ax=ax, label="row finishes above column")
    if title:
        ax.set_title(title)
    return fig


def plot_paired(result: stats.PairedResult, title: str | None = None) -> Figure:
    """A paired comparison: the win-rate difference (points) and the mean VP difference with their intervals,
    and the distribution of the per-game VP differences."""
    fig = new_figure(12, 3.6)
    win_ax, vp_ax, hist_ax = fig.subplots(1, 3, width_ratios=[1, 1, 1.6])
    pct = f"{result.confidence:.0%}"
    for ax, estimate, (lo, hi), name in ((win_ax, 100 * result.win_diff, [100 * v for v in result.win_diff_ci],
                                          f"win rate A - B, points ({pct} CI)"),
                                         (vp_ax, result.vp_diff, result.vp_diff_ci,
                                          f"mean {result.unit} A - B ({pct} CI)")):
        ax.errorbar([estimate], [0], xerr=[[max(estimate - lo, 0)], [max(hi - estimate, 0)]], fmt="o", capsize=6,
                    color="tab:blue")
        ax.axvline(0, color="grey", linestyle="--")
        ax.set_yticks([])
        ax.set_xlabel(name)
    diffs = result.per_game["vp_diff"].to_numpy(dtype=float)
    hist_ax.hist(diffs, bins=min(40, max(5, len(np.unique(diffs)))), color="tab:blue")
    hist_ax.axvline(0, color="grey", linestyle="--")
    hist_ax.set_xlabel(f"{result.unit} difference per game (A - B)")
    hist_ax.set_ylabel("games")
    fig.suptitle(title or f"A = {result.label_a}\nB = {result.label_b} ({result.games:,} paired games)", fontsize=9)
    return fig


def share_plot(table: pd.DataFrame, x: str, ylabel: str, title: str | None = None,
               value: str | None = None, hue: str | None = None) -> Figure:
    """A precomputed table (one row per value of `x`, in the index or a column) with an estimate column
    (`value`, or the first of share / win_rate / mean / estimate) and ci_low / ci_high, as a line with its
    interval band; with `hue`, one line and band per value of that column."""
    frame = table.reset_index() if x not in table.columns else table
    column = value or next((c for c in ("share", "win_rate", "mean", "estimate") if c in frame.columns), None)
    if column is None:
        raise ValueError("the table needs a share, win_rate, mean or estimate column (or name it with value=)")
    groups = list(frame.groupby(hue, sort=False)) if hue else [(None, frame)]
    fig = new_figure()
    ax = fig.subplots()
    for (key, group), colour in zip(groups, _colours(len(groups)), strict=True):
        group = group.sort_values(x)
        ax.plot(group[x], group[column], marker="o", color=colour, label=None if hue is None else _label(key))
        ax.fill_between(group[x], group["ci_low"], group["ci_high"], color=colour, alpha=0.15, linewidth=0)
    if hue:
        _legend_outside(ax, title=hue)
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return fig


def effect_plot(results: Sequence[stats.PairedResult] | pd.DataFrame, label_columns: Sequence[str] | None = None,
                title: str | None = None) -> Figure:
    """Several paired comparisons as a forest plot: the win-rate difference (points) and the mean VP difference
    of each, with their intervals, one row per comparison (rows: `PairedResult`s or `dataclasses.asdict` rows;
    `label_columns` name the columns that label a row, by default "A vs B")."""
    table = stats.paired_table(results)
    if label_columns:
        labels = [", ".join(str(row[c]) for c in label_columns) for _, row in table.iterrows()]
    else:
        labels = [f"{a} vs {b}" for a, b in zip(table["label_a"], table["label_b"], strict=True)]
    fig = new_figure(11, 1.4 + 0.45 * len(table))
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(table))
    unit = "/".join(dict.fromkeys(table["unit"])) if "unit" in table else "VP"
    for ax, estimate, interval, scale, name in ((left, "win_diff", "win_diff_ci", 100, "win rate A - B (points)"),
                                                (right, "vp_diff", "vp_diff_ci", 1, f"mean {unit} A - B")):
        values = table[estimate].to_numpy(dtype=float) * scale
        lows = np.array([ci[0] for ci in table[interval]], dtype=float) * scale
        highs = np.array([ci[1] for ci in table[interval]], dtype=float) * scale
        ax.errorbar(values, y, xerr=np.clip([values - lows, highs - values], 0, None), fmt="o", capsize=4,
                    color="tab:blue")
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(name)
    left.set_yticks(y, labels)
    left.invert_yaxis()
    if title:
        fig.suptitle(title)
    return fig


__all__ = [
    "effect_by",
    "effect_plot",
    "new_figure",
    "plot_head_to_head",
    "plot_paired",
    "plot_score_distribution",
    "plot_vp_sources",
    "plot_win_rates",
    "share_plot",
]
