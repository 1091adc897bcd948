"""Summary tables of a simulation result (the `borabora report` and `simulate` printouts)."""

from __future__ import annotations

import pandas as pd

from borabora_sim.stats import vp_by_source, win_rate


def game_lengths(players: pd.DataFrame) -> pd.Series:
    per_game = players.groupby("game_id")["decisions"].first()
    return per_game.describe(percentiles=[0.05, 0.5, 0.95])


SUMMARY_COLUMNS = ("game_id", "seat", "n_players", "start_position", "spec", "vp", "win", "tied_first", "decisions")


def summary_columns(all_columns: list[str]) -> list[str]:
    """The columns format_summary and plot_summary need (VP by source included, behaviour counters not)."""
    return [c for c in all_columns if c in SUMMARY_COLUMNS or c.startswith("vp_")]


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
    shown = ["rows", "wins", "win_rate", "ci_low", "ci_high", "baseline", "tied_first", "mean_vp"]
    lines += ["", "win rate by player (Wilson 95% interval; tied_first: rows that shared the top score):",
              win_rate(players)[shown].to_string(formatters=pct)]
    lines += ["", "win rate by start position (0 = first in round 1):",
              win_rate(players, "start_position")[shown].to_string(formatters=pct)]
    lines += ["", "mean VP by source:", vp_by_source(players).round(2).T.to_string()]
    lengths = game_lengths(players)
    lines += ["", f"decisions per game: mean {lengths['mean']:.0f}, 5% {lengths['5%']:.0f}, "
                  f"median {lengths['50%']:.0f}, 95% {lengths['95%']:.0f}"]
    return "\n".join(lines)


def plot_summary(players: pd.DataFrame, path: str) -> list[str]:
    """Writes the win-rate plot to `path` and the VP-by-source plot beside it; returns both paths."""
    from pathlib import Path

    from borabora_sim.plots import plot_vp_sources, plot_win_rates

    target = Path(path)
    sources = target.with_name(f"{target.stem}_sources{target.suffix or '.png'}")
    plot_win_rates(players).savefig(target, dpi=120)
    plot_vp_sources(players).savefig(sources, dpi=120)
    return [str(target), str(sources)]
