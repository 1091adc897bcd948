"""A policy question: the studied player's arms on the same seeds and seat rotations
(`stats.paired_compare`), each effect's verdict read from the interval printed beside it (`stats.paired_table`), for
each player of the ladder and in each robustness setting."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.questions import lead
from borabora_sim.questions.forms.common import (
    TALLY_WORDS,
    Findings,
    _across_strength,
    _changes,
    _count,
    _games,
    _holds_sentence,
    _markdown,
    _paired_certainty,
    _precise_enough,
    _setting_columns,
    _strongest_precise,
    active_rungs,
    effect_sentence,
    family_words,
    paired_view,
    robustness_settings,
    strength_table,
    strength_view,
    studied_players,
    unit_words,
)
from borabora_sim.questions.question import BUILT_IN, Question, Size
from borabora_sim.questions.work import Work

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _compare_runs(question: Question, runs: dict[str, list[pd.DataFrame]]) -> list[dict[str, Any]]:
    frames = {name: pd.concat(parts, ignore_index=True) for name, parts in runs.items()}
    rows = []
    for a, b in question.compare:
        result = stats.paired_compare(frames[a], frames[b], focus=[0])
        rows.append({"comparison": f"{question.arm(a).words} rather than {question.arm(b).words}",
                     "arm_a": a, "arm_b": b, **asdict(result)})
    return rows


def _policy_rung(question: Question, size: Size, work: Work, label: str, games: int, shares: int,
                 players: int, variant: str = BUILT_IN, components: str | None = None
                 ) -> tuple[list[dict[str, Any]], tuple[int, int], dict[str, list[pd.DataFrame]]]:
    rung = question.vocabulary.rung(label)
    runs: dict[str, list[pd.DataFrame]] = {arm.name: [] for arm in question.arms}
    batch = 0
    while True:
        began = time.monotonic()
        for arm in question.arms:
            specs = studied_players(question, rung.with_options(str(arm.value)), players)
            runs[arm.name].append(work.arm(f"{label}-{arm.name}-{players}p-{variant}", specs, games, question.seed,
                                           batch, components, question.game))
        rows = _compare_runs(question, runs)
        batch += 1
        half = max((r["win_diff_ci"][1] - r["win_diff_ci"][0]) / 2 for r in rows)
        if _precise_enough(size, half, time.monotonic() - began, work.time_left(shares), batch) or not work.may_play(
                [f"{label}-{arm.name}-{players}p-{variant}-b{batch}" for arm in question.arms]):
            break
    plain = next((arm.name for arm in question.arms if arm.value == ""), question.arms[0].name)
    frame = pd.concat(runs[plain], ignore_index=True)
    studied = frame[frame["position"] == 0]
    extra = {"rung": label, "player": rung.words, **_setting_columns(players, variant)}
    return [{**extra, **row} for row in rows], (int(studied["win"].sum()), len(studied)), runs


def _policy_replay(question: Question, parts: dict[str, list[pd.DataFrame]]) -> tuple[int, list[str], int, str] | None:
    """A game of the first comparison that the studied seat won with arm A and did not win with arm B."""
    runs = {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}
    a, b = question.compare[0]
    won_a = runs[a][(runs[a]["position"] == 0) & runs[a]["win"]]
    lost_b = set(runs[b].loc[(runs[b]["position"] == 0) & ~runs[b]["win"], "game_id"])
    chosen = won_a[won_a["game_id"].isin(lost_b)]
    if chosen.empty:
        return None
    game = runs[a][runs[a]["game_id"] == chosen["game_id"].iloc[0]].sort_values("seat")
    seat = int(chosen["seat"].iloc[0])
    return (int(game["game_seed"].iloc[0]), [str(spec) for spec in game["spec"]], 0,
            f"the start: in this game the studied seat (seat {seat + 1}) won playing "
            f"{question.arm(a).words}, and lost with the same seed playing {question.arm(b).words}")


def policy(question: Question, size: Size, work: Work, folder: Path | None) -> Findings:
    unit = unit_words(question)
    rungs = active_rungs(question, size)
    rows, wins, every_runs = [], {}, []
    for i, label in enumerate(rungs):
        found, wins[label], runs = _policy_rung(question, size, work, label, _games(question, size, label),
                                                len(rungs) - i, question.players)
        rows += found
        every_runs.append(runs)
    table = stats.paired_table(pd.DataFrame(rows), question.alpha)
    findings = Findings(tables={"effects": table, "strength": strength_table(question, wins)})
    findings.figures["effects.png"] = forest(table, ("player", "comparison"),
                                             f"{question.title}\nA = the first arm named, B = the second", unit)
    changes = pd.DataFrame()
    if len(rungs) > 1:
        changes = findings.tables["changes_with_strength"] = _changes(table, rungs[0], "comparison", ("win", "vp"),
                                                                      question.alpha)
        changes = changes[changes["metric"] == "win"]
    findings.evidence += [
        f"Each player below sat in one seat (rotated over the games) against {question.players - 1} "
        f"{question.vocabulary.opponent_words}; each arm played the same game seeds and seat rotations, so each "
        "game is a pair. A is the first arm of each comparison, B the second. " + family_words(table),
        "Each player's strength, its win rate in the arm with no option changed:",
        _markdown(strength_view(findings.tables["strength"])),
        _markdown(paired_view(table, ("player", "comparison"), unit)), "![effects](effects.png)"]
    for comparison in dict.fromkeys(table["comparison"]) if len(rungs) > 1 else ():
        effects = table[table["comparison"] == comparison]
        moved = changes[changes["comparison"] == comparison] if len(changes) else changes
        findings.evidence.append(" ".join(_across_strength(effects, moved, comparison[0].upper() + comparison[1:])))
    for comparison in dict.fromkeys(table["comparison"]):
        rows = table[table["comparison"] == comparison]
        strongest, precise = rows.iloc[-1], _strongest_precise(rows).iloc[0]
        for row in ([precise] if precise["rung"] != strongest["rung"] else []) + [strongest]:
            findings.answer.append(f"For {row['player']}, {comparison} {effect_sentence(row, unit)}.")
    if len(rungs) > 1:
        findings.answer.append(_holds_sentence(table))
    findings.certainty = _paired_certainty(table, "win-rate effects")
    findings.replay = _policy_replay(question, runs)
    robust = _policy_robustness(question, size, work, folder, rungs[0], every_runs[0])
    if len(robust):
        findings.tables["robustness"] = robust
        findings.evidence += [f"Robustness, for {question.vocabulary.rung(rungs[0]).words}, beside the first "
                              f"{size.robustness_games:,} of the question's own games (these {len(robust)} "
                              "comparisons judged together):",
                              _markdown(paired_view(robust, ("players", "components", "comparison"), unit))]
        findings.answer.append(_robustness_sentence(robust, question.players))
    findings.lead = lead.policy_lead(question, table, rungs, robust)
    return findings


def _policy_robustness(question: Question, size: Size, work: Work, folder: Path | None, label: str,
                       own_runs: dict[str, list[pd.DataFrame]]) -> pd.DataFrame:
    """The first player's comparisons again in each robustness setting, beside the same number of the question's own
    games (as printed, from `own_runs`): one family of verdicts."""
    settings = robustness_settings(question, size, folder)
    if not settings:
        return pd.DataFrame()
    first = {name: [frame[frame["game_id"] < size.robustness_games] for frame in frames]
             for name, frames in own_runs.items()}
    rung = question.vocabulary.rung(label)
    rows = [{"rung": label, "player": rung.words, **_setting_columns(question.players, BUILT_IN), **row}
            for row in _compare_runs(question, first)]
    for count, variant, components in settings:
        found, _, _ = _policy_rung(question, Size(size.robustness_games, 1, 1), work, label, size.robustness_games,
                                   1, count, variant, components)
        rows += found
    return stats.paired_table(pd.DataFrame(rows), question.alpha) if rows else pd.DataFrame()


def _robustness_sentence(robust: pd.DataFrame, players: int) -> str:
    """Per comparison, how its win-rate verdicts fall across the robustness settings (the question's own games, as
    printed with `players` players, beside them not counted)."""
    own = (robust["players"] == players) & (robust["components"] == _setting_columns(players, BUILT_IN)["components"])
    robust = robust[~own]
    parts = []
    for comparison, rows in robust.groupby("comparison", sort=False):
        counts = rows["win_verdict"].value_counts()
        tally = ", ".join(f"{TALLY_WORDS[v]} in {int(counts[v])}" for v in stats.VERDICTS if v in counts)
        parts.append(f"{comparison}: {tally}")
    settings = len(robust[["players", "components"]].drop_duplicates())
    return (f"Across {_count(settings, 'robustness setting')} (other player counts and component variants, the "
            f"first player only), the win rate was: " + "; ".join(parts) + ".")


def forest(table: pd.DataFrame, labels: Sequence[str], title: str, unit: str) -> Figure:
    """Each row's change in win rate and in score with the interval that decides its verdict, labelled in words."""
    from borabora_sim import plots

    fig = plots.new_figure(11, 1.6 + 0.45 * len(table))
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(table))
    for ax, estimate, interval, scale, name in ((left, "win_diff", "win_diff_ci", 100, "change in win rate (points)"),
                                                (right, "vp_diff", "vp_diff_ci", 1, f"change in {unit}")):
        values = table[estimate].to_numpy(dtype=float) * scale
        lows = np.array([ci[0] for ci in table[interval]], dtype=float) * scale
        highs = np.array([ci[1] for ci in table[interval]], dtype=float) * scale
        ax.errorbar(values, y, xerr=np.clip([values - lows, highs - values], 0, None), fmt="o", capsize=4)
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(name)
    left.set_yticks(y, [", ".join(str(row[c]) for c in labels) for _, row in table.iterrows()])
    left.invert_yaxis()
    fig.suptitle(title)
    return fig


__all__ = ["policy"]
