"""Summary tables of a simulation result (the `borabora report` and `simulate` printouts).

The summary is built from additive totals (`Summary`), one per chunk of player rows, so that a run of any size
is summarised with memory for one chunk: counts and sums per spec and per start position, and a histogram of
game lengths (exact quantiles, decisions being integers). The scores are the columns named by the game's unit
(`vp` and `vp_<source>`, or `hp` and `hp_<source>`), so a summary needs no game: that of the run has written them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import reduce
from operator import add
from pathlib import Path

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import Game
from borabora_sim.runs import RunDirectory


def summary_columns(game: Game) -> tuple[str, ...]:
    """The columns of `game`'s player rows a summary reads."""
    score = game.score_unit.lower()
    return ("seat", "n_players", "start_position", "spec", score, "win", "tied_first", "decisions",
            *(f"{score}_{source}" for source in game.sources))


def source_columns(players: pd.DataFrame) -> list[str]:
    """The `<unit>_<source>` columns of player rows (or of totals), in the game's order of sources."""
    prefix = f"{stats.score_column(players)}_"
    return [column for column in players.columns if column.startswith(prefix)]


PLOT_FORMATS = ("png", "svg", "pdf")
_COUNTS = ["rows", "wins", "tied_first", "baseline"]       # baseline: the sum of 1/n_players; then the score


@dataclass(frozen=True)
class Summary:
    """Totals behind the printed summary; `Summary.of(rows) + Summary.of(more_rows)` is the summary of both."""

    by_spec: pd.DataFrame       # per spec: _COUNTS, the score and the sum of each <unit>_<source>
    by_start: pd.DataFrame      # per start position: _COUNTS and the score
    decisions: np.ndarray       # decisions[k]: the number of games with k decisions

    @classmethod
    def of(cls, players: pd.DataFrame) -> Summary:
        """The totals of some player rows (whole games)."""
        score = stats.score_column(players)
        totals = pd.DataFrame({"rows": 1, "wins": players["win"], "tied_first": players["tied_first"],
                               score: players[score], "baseline": 1.0 / players["n_players"]}).astype(
            {"rows": np.int64, "wins": np.int64, "tied_first": np.int64, score: np.int64})
        sources = players[source_columns(players)].astype(np.int64)
        spec = players["spec"].astype(str).to_numpy()
        return cls(by_spec=pd.concat([totals, sources], axis=1).groupby(spec).sum().rename_axis("spec"),
                   by_start=totals.groupby(players["start_position"].to_numpy()).sum().rename_axis("start_position"),
                   decisions=np.bincount(players.loc[players["seat"] == 0, "decisions"].to_numpy()))

    def __add__(self, other: Summary) -> Summary:
        lengths = np.zeros(max(len(self.decisions), len(other.decisions)), dtype=np.int64)
        lengths[:len(self.decisions)] += self.decisions
        lengths[:len(other.decisions)] += other.decisions
        return Summary(self.by_spec.add(other.by_spec, fill_value=0), self.by_start.add(other.by_start, fill_value=0),
                       lengths)

    @property
    def score(self) -> str:
        """The score column: the game's unit in lower case (vp, hp)."""
        return stats.score_column(self.by_spec)

    @property
    def games(self) -> int:
        return int(self.decisions.sum())

    def win_rates(self, by: str = "spec") -> pd.DataFrame:
        """Per spec (or start position): rows, wins, win_rate with its Wilson 95% interval, the 1/N baseline,
        rows tied for first, mean score (mean_vp or mean_hp)."""
        totals = (self.by_spec if by == "spec" else self.by_start)[[*_COUNTS, self.score]].sort_index()
        rows = totals["rows"].astype(np.int64)
        low, high = zip(*(stats.wilson_interval(int(w), int(n)) for w, n in zip(totals["wins"], rows, strict=True)),
                        strict=True)
        table: pd.DataFrame = pd.DataFrame({"rows": rows, "wins": totals["wins"].astype(np.int64),
                                            "win_rate": totals["wins"] / rows, "ci_low": low, "ci_high": high,
                                            "baseline": totals["baseline"] / rows,
                                            "tied_first": totals["tied_first"].astype(np.int64),
                                            f"mean_{self.score}": totals[self.score] / rows}, index=totals.index)
        return table

    def vp_by_source(self) -> pd.DataFrame:
        """Mean points per source (columns) per spec (rows), in the game's unit; sources never scored are left
        out."""
        columns = source_columns(self.by_spec)
        table = self.by_spec[columns].div(self.by_spec["rows"], axis=0).sort_index()
        table.columns = [column.removeprefix(f"{self.score}_") for column in columns]
        scored: pd.DataFrame = table.loc[:, (table != 0).any(axis=0)]
        return scored

    def decisions_quantile(self, q: float) -> float:
        """The q-quantile of decisions per game, interpolated linearly as numpy and pandas do."""
        cumulative = np.cumsum(self.decisions)
        position: float = q * (cumulative[-1] - 1)
        below = int(position)
        low = int(np.searchsorted(cumulative, below, side="right"))
        high = int(np.searchsorted(cumulative, min(below + 1, cumulative[-1] - 1), side="right"))
        return low + (position - below) * (high - low)


def run_summary(directory: RunDirectory) -> Summary:
    """The summary of a run directory (also of an unfinished one), read one file at a time."""
    config = directory.read_manifest()
    columns = summary_columns(get_game(config.game)) if config is not None else None    # None: tables() says why
    return reduce(add, (Summary.of(table.to_pandas()) for table in directory.tables("players", columns)))


def source_words(sources: list[str], score: str) -> list[str]:
    """Score sources in the words of the registered game they are of (its score unit `score`, its sources), as a
    person reads them ("fish tiles at the end"); spaced names where no game has them all."""
    for name in game_names():
        game = get_game(name)
        if game.score_unit.lower() == score and set(sources) <= set(game.sources):
            return [game.describe_source(source) for source in sources]
    return [source.replace("_", " ") for source in sources]


def speed(games: int, seconds: float) -> str:
    """'1,234 games/s', or '3.2 s/game' for runs slower than a game per second."""
    rate = games / seconds if seconds > 0 else float("inf")
    return f"{rate:,.0f} games/s" if rate >= 1 else f"{seconds / games:,.1f} s/game"


def format_summary(summary: Summary | pd.DataFrame, seconds: float | None = None) -> str:
    """The printed summary (of a Summary or of player rows): speed, win rate by spec and by turn-order
    position, points by source, game length."""
    if isinstance(summary, pd.DataFrame):
        summary = Summary.of(summary)
    games = summary.games
    lines = [f"{games:,} games" + ("" if seconds is None else f" in {seconds:.2f} s ({speed(games, seconds)})")]
    pct = {"win_rate": "{:.1%}".format, "ci_low": "{:.1%}".format, "ci_high": "{:.1%}".format,
           "baseline": "{:.1%}".format, f"mean_{summary.score}": "{:.1f}".format}
    lines += ["", "win rate by player (Wilson 95% interval; tied_first: rows that shared the top score):",
              summary.win_rates().to_string(formatters=pct)]
    lines += ["", "win rate by start position (0 = first in round 1):",
              summary.win_rates("start_position").to_string(formatters=pct)]
    by_source = summary.vp_by_source().round(2).T
    by_source.index = source_words(list(by_source.index), summary.score)
    lines += ["", f"mean {summary.score.upper()} by source:", by_source.to_string()]
    mean = float(np.arange(len(summary.decisions)) @ summary.decisions) / games
    lines += ["", f"decisions per game: mean {mean:.0f}, 5% {summary.decisions_quantile(0.05):.0f}, "
                  f"median {summary.decisions_quantile(0.5):.0f}, 95% {summary.decisions_quantile(0.95):.0f}"]
    return "\n".join(lines)


def plot_paths(path: str | os.PathLike[str], name: str = "plot") -> tuple[Path, Path]:
    """The two files of a summary plot (win rates at `path`, VP by source beside it as <stem>_sources), or a
    ValueError saying why they cannot be written: checked before a run starts."""
    target = Path(path)
    if target.suffix.lower().removeprefix(".") not in PLOT_FORMATS:
        endings = ", ".join(f".{ending}" for ending in PLOT_FORMATS[:-1]) + f" or .{PLOT_FORMATS[-1]}"
        raise ValueError(f"{name} must be a file name ending in {endings}, got {os.fspath(path)!r}")
    folder = target.parent
    if not folder.is_dir():
        raise ValueError(f"{name} {target}: the folder {folder} does not exist")
    sources = target.with_name(f"{target.stem}_sources{target.suffix}")
    for file in (target, sources):
        if file.is_dir():
            raise ValueError(f"{name} {target}: {file} is a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{name} {target}: no permission to write in {folder}")
    return target, sources


def plot_summary(summary: Summary | pd.DataFrame, path: str | os.PathLike[str]) -> list[str]:
    """Writes the win rates by spec (Wilson 95% whiskers, dashed 1/N baselines) to `path` and the mean VP by
    source beside it; returns both paths."""
    from borabora_sim.plots import plot_vp_source_table, plot_win_rate_table

    if isinstance(summary, pd.DataFrame):
        summary = Summary.of(summary)
    target, sources = plot_paths(path)
    plot_win_rate_table(summary.win_rates()).savefig(target, dpi=120)
    plot_vp_source_table(summary.vp_by_source(), unit=summary.score.upper()).savefig(sources, dpi=120)
    return [str(target), str(sources)]


__all__ = ["Summary", "format_summary", "plot_summary", "run_summary", "speed"]
