"""A gift question: the game from the first decision of each round, continued with and without the edit on
common seeds (`stats.paired_outcomes`); its value by round, or for a family of edits by kind, for each player and in
each robustness setting. Its games are played by `gift_games`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.games import get_game
from borabora_sim.questions import lead
from borabora_sim.questions.forms.common import (
    VERDICT_COLUMN,
    Findings,
    _across_strength,
    _changes,
    _frame,
    _games,
    _holds_sentence,
    _markdown,
    _own_games,
    _paired_certainty,
    _precise_enough,
    _robustness_sentence_of,
    _setting_columns,
    _strongest_precise,
    active_rungs,
    effect_sentence,
    family_words,
    interval_text,
    paired_view,
    robustness_settings,
    strength_table,
    strength_view,
    unit_words,
)
from borabora_sim.questions.forms.gift_games import _gift_task
from borabora_sim.questions.question import Question, Size
from borabora_sim.questions.work import BATCH_ID_STRIDE, Work
from borabora_sim.vocabulary import Edit

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _gift_table(question: Question, pairs: pd.DataFrame, unit: str, keys: Sequence[str]) -> pd.DataFrame:
    """One paired comparison (A = with the gift, B = without) per group of `keys` ("rung", "round", "kind",
    robustness settings), in the order the groups first appear; where the edit names its own score source, the
    mean of its difference (`own`) and the effect beyond it (`beyond`; `_gift_verdicts` judges it)."""
    rows = []
    for key, group in pairs.groupby(list(keys), sort=False):
        per_game = pd.DataFrame({"win_a": group["win_with"], "win_b": group["win_without"],
                                 "vp_a": group["score_with"], "vp_b": group["score_without"]})
        result = stats.paired_outcomes(per_game, "with", "without", baseline=1 / question.players, unit=unit)
        row: dict[str, Any] = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        if "rung" in row:
            row["player"] = question.vocabulary.rung(str(row["rung"])).words
        if "round" in row:
            row["round"] = int(float(str(row["round"])))
        if "direct" in group:
            row["direct"] = float(group["direct"].iloc[0])
        if "own" in group:
            beyond = (group["score_with"] - group["score_without"] - group["own"]).to_numpy(dtype=float)
            row |= {"own": float(group["own"].mean()), "beyond_values": beyond}
        rows.append({**row, **asdict(result)})
    return pd.DataFrame(rows)


def _gift_verdicts(question: Question, pairs: pd.DataFrame, unit: str, keys: Sequence[str]) -> pd.DataFrame:
    """`_gift_table` judged as one family (`stats.paired_table`), and the effect beyond the gift's own score
    source too: its t interval at the family's level, the verdict whether it excludes 0, the p-value adjusted."""
    table = stats.paired_table(_gift_table(question, pairs, unit, keys), question.alpha)
    if "beyond_values" in table:
        level = stats.family_confidence(question.alpha, len(table))
        tested = [stats.mean_test(values, level) for values in table["beyond_values"]]
        table["beyond"] = [mean for mean, *_ in tested]
        table["beyond_ci"] = [(low, high) for _, low, high, _ in tested]
        table["beyond_p_adjusted"] = [stats.adjusted_p(p, len(table)) for *_, p in tested]
        table["beyond_verdict"] = [stats.verdict_of(*ci) for ci in table["beyond_ci"]]
        table = table.drop(columns="beyond_values")
    return table


def _in_kind_order(pairs: pd.DataFrame, kinds: Sequence[str], first: Sequence[str] = ()) -> pd.DataFrame:
    """The pairs ordered by the columns `first` (in their order of appearance), then kind (the game's order),
    then round: the row order of a table by kind."""
    order: dict[str, Any] = {"_kind": pairs["kind"].map({name: i for i, name in enumerate(kinds)}),
                             **{f"_{c}": pd.factorize(pairs[c])[0] for c in first}}
    columns = [*(f"_{c}" for c in first), "_kind"]
    return pairs.assign(**order).sort_values([*columns, "round", "game_id"], kind="stable") \
        .drop(columns=list(order)).reset_index(drop=True)


def _in_round_order(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs ordered by player (in their order of appearance, the ladder's), then round: the row order of a
    table by round, whatever order the batches of a player's games were kept in."""
    return pairs.assign(_rung=pd.factorize(pairs["rung"])[0], _round=pd.to_numeric(pairs["round"])) \
        .sort_values(["_rung", "_round", "game_id"], kind="stable") \
        .drop(columns=["_rung", "_round"]).reset_index(drop=True)


def _pooled(pairs: pd.DataFrame, within: Sequence[str]) -> pd.DataFrame:
    """One pair per game and kind (the earliest moment's) within each group of `within`, so that the pairs of a
    row pooled over moments are independent. The groups keep their order of appearance (the players the ladder's)."""
    order = {f"_{c}": pd.factorize(pairs[c])[0] for c in within}
    return pairs.assign(**order).sort_values([*order, "game_id", "round"], kind="stable") \
        .drop_duplicates([*within, "game_id", "kind"]).drop(columns=list(order))


def gift(question: Question, size: Size, work: Work, folder: Path | None) -> Findings:
    game = get_game(question.game)
    unit = unit_words(question)
    edit = question.vocabulary.edits[question.edit]
    kinds = edit.kind_names(game)
    rungs = active_rungs(question, size)
    frames = []
    for i, label in enumerate(rungs):
        games = _games(question, size, label)
        batch = 0
        while True:
            began = time.monotonic()
            chunk = 1 if question.vocabulary.rung(label).searches else 25
            seed = int(game.derive_seed(question.seed, (1 << 40) + batch)) if batch else question.seed
            tasks = [(question, label, range(start, min(start + chunk, games)), seed)
                     for start in range(0, games, chunk)]
            part = _frame(work.tasks(f"gift-{label}-b{batch}", _gift_task, tasks,
                                           f"{question.vocabulary.rung(label).words}: games with and without"))
            frames.append(part.assign(game_id=part["game_id"] + batch * BATCH_ID_STRIDE))
            batch += 1
            mine = pd.concat([f for f in frames if (f["rung"] == label).any()])
            mine = mine[~mine["real"]]
            table = _gift_effects(question, mine, unit, kinds) if len(mine) else pd.DataFrame()
            half = max((hi - lo) / 2 for lo, hi in table["win_diff_ci"]) if len(table) else 0.0
            if _precise_enough(size, half, time.monotonic() - began, work.time_left(len(rungs) - i), batch) \
                    or not work.may_play([f"gift-{label}-b{batch}"]):
                break
    everything = pd.concat(frames, ignore_index=True)
    real = everything[everything["real"]]
    pairs = everything[~everything["real"]].dropna(axis="columns", how="all")
    findings = Findings(tables={"pairs": pairs, "games": real[["rung", "game_id", "seat", "score", "win"]]})
    if pairs.empty:
        findings.answer.append(f"The gift ({edit.words}) could never be made in the games played.")
        return findings
    wins = {label: (int(real.loc[real["rung"] == label, "win"].sum()), int((real["rung"] == label).sum()))
            for label in rungs}
    findings.tables["strength"] = strength_table(question, wins)
    if kinds:
        _kind_findings(question, pairs, rungs, kinds, findings)
    else:
        _round_findings(question, pairs, rungs, findings)
    _gift_robustness(question, size, work, folder, rungs[0], pairs, findings)
    robust = findings.tables.get("robustness", pd.DataFrame())
    if kinds:
        findings.lead = lead.gift_kind_lead(question, findings.tables["effects"], rungs, robust, edit.words,
                                            edit.kind_words, unit)
    else:
        findings.lead = lead.gift_round_lead(question, findings.tables["effects"], rungs, robust, edit.words, unit)
    return findings


def _gift_effects(question: Question, pairs: pd.DataFrame, unit: str, kinds: Sequence[str]) -> pd.DataFrame:
    """The effects table across the players: by round, or for a family of edits by kind pooled over moments."""
    if kinds:
        return _gift_verdicts(question, _in_kind_order(_pooled(pairs, ["rung"]), kinds, ["rung"]), unit,
                              ("rung", "kind"))
    return _gift_verdicts(question, pairs, unit, ("rung", "round"))


def _with_without(view: pd.DataFrame) -> pd.DataFrame:
    return view.rename(columns={"win rate A": "win rate with", "win rate B": "win rate without"})


def _own_columns(view: pd.DataFrame, table: pd.DataFrame, edit: Edit, unit: str) -> pd.DataFrame:
    """The printed columns of the gift's own score source and of the effect beyond it."""
    if "own" not in table:
        return view
    view[f"of which {edit.own_words}"] = [f"{v:+.2f}" for v in table["own"]]
    view[f"beyond it ({unit})"] = [f"{d:+.2f} {interval_text(lo, hi, 2)}"
                                   for d, (lo, hi) in zip(table["beyond"], table["beyond_ci"], strict=True)]
    view["adjusted p (beyond)"] = [f"{p:.3g}" for p in table["beyond_p_adjusted"]]
    view["verdict (beyond)"] = table["beyond_verdict"].map(VERDICT_COLUMN)
    return view


def _moment_words(edit: Edit, round_: object) -> str:
    return edit.moment_words.format(round=round_)


def _gift_setting(question: Question, edit: Edit) -> str:
    """How the pairs were made, in one paragraph."""
    seats = ("every seat it plays studied" if question.seats == "all" else "one seat, rotated")
    twice = (f"as it stood (A) and without {edit.words} (B)" if edit.removes
             else f"as it stood (B) and with {edit.words} for the studied seat (A)")
    family = (f", for each {edit.kind_words} the seat had just gained; a game gives at most one pair per "
              f"{edit.kind_words} and round" if edit.kinds is not None else "")
    return (f"Real games of the studied player ({seats}) against {question.players - 1} "
            f"{question.vocabulary.opponent_words}. At each moment the gift can be made "
            f"({_moment_words(edit, 'r')}), the game was continued twice by the same players with the same seeds "
            f"and dice: {twice}{family}.")


def _round_findings(question: Question, pairs: pd.DataFrame, rungs: Sequence[str], findings: Findings) -> None:
    """A single edit: its value by round for each player (one family), how it moves with strength."""
    unit = unit_words(question)
    edit = question.vocabulary.edits[question.edit]
    table = findings.tables["effects"] = _gift_verdicts(question, _in_round_order(pairs), unit, ("rung", "round"))
    view = _with_without(paired_view(table, ("player", "round"), unit))
    if "direct" in table:
        view.insert(3, edit.direct_words, table["direct"].map("{:g}".format))
    findings.figures["by-round.png"] = _gift_figure(table, edit.words, unit)
    findings.evidence += [
        _gift_setting(question, edit) + " " + family_words(table),
        "Each player's strength in the real games:", _markdown(strength_view(findings.tables["strength"])),
        _markdown(_own_columns(view, table, edit, unit), index=False), "![by round](by-round.png)"]
    changes = pd.DataFrame()
    if len(rungs) > 1:
        changes = findings.tables["changes_with_strength"] = _changes(table, rungs[0], "round", ("vp", "win"),
                                                                      question.alpha)
    for metric in ("vp", "win") if len(rungs) > 1 else ():
        of_metric = changes[changes["metric"] == metric] if len(changes) else changes
        for round_, effects in table.groupby("round", sort=True):
            moved = of_metric[of_metric["round"] == round_] if len(of_metric) else of_metric
            findings.evidence.append(" ".join(_across_strength(
                effects, moved, f"{edit.words.capitalize()} {_moment_words(edit, round_)}", metric, unit)))
    strongest = table[table["rung"] == table["rung"].iloc[-1]]
    precise = _strongest_precise(table)
    if precise["rung"].iloc[0] != strongest["rung"].iloc[0]:
        findings.answer += _gift_answer(precise, edit, unit)   # first the strongest player measured precisely
    findings.answer += _gift_answer(strongest, edit, unit)
    _gift_replay(pairs[pairs["rung"] == rungs[-1]], edit, findings)
    findings.certainty = _paired_certainty(
        precise, f"rounds' effects on the final {unit} for {precise['player'].iloc[0]}", "vp")
    if len(rungs) > 1:
        findings.answer.append(_holds_sentence(table.assign(
            comparison=[f"{edit.words} {_moment_words(edit, r)}" for r in table["round"]])))


def _kind_findings(question: Question, pairs: pd.DataFrame, rungs: Sequence[str], kinds: Sequence[str],
                   findings: Findings) -> None:
    """A family of edits: each kind's value by round for the first player (one family), then every player's
    pooled over rounds (one pair per game and kind; one family), and how that moves with strength."""
    unit = unit_words(question)
    edit = question.vocabulary.edits[question.edit]
    kind = edit.kind_words
    first = pairs[pairs["rung"] == rungs[0]]
    by_round = findings.tables["by_round"] = _gift_verdicts(question, _in_kind_order(first, kinds), unit,
                                                            ("kind", "round"))
    table = findings.tables["effects"] = _gift_effects(question, pairs, unit, kinds)
    findings.figures["by-round.png"] = _kind_heat_figure(by_round, kinds, edit, unit)
    first_words = question.vocabulary.rung(rungs[0]).words
    findings.evidence += [
        _gift_setting(question, edit), "Each player's strength in the real games:",
        _markdown(strength_view(findings.tables["strength"])),
        f"By {kind} and round, for {first_words} ({family_words(by_round)}):",
        _markdown(_own_columns(_with_without(paired_view(by_round, ("kind", "round"), unit)), by_round, edit, unit)
                  .rename(columns={"kind": kind}), index=False), "![by round](by-round.png)",
        f"Pooled over rounds, one pair per game and {kind} (the earliest), every player (these "
        f"{len(table)} rows judged together):",
        _markdown(_own_columns(_with_without(paired_view(table, ("player", "kind"), unit)), table, edit, unit)
                  .rename(columns={"kind": kind}), index=False)]
    if len(rungs) > 1:
        changes = findings.tables["changes_with_strength"] = _changes(table, rungs[0], "kind", ("vp", "win"),
                                                                      question.alpha)
        moved = changes[(changes["metric"] == "vp") & (changes["change_verdict"] != stats.CHANGE_VERDICTS[2])]
        findings.evidence.append(
            f"From {first_words} to the stronger players, the pooled {unit} effect of "
            + (", ".join(f"{row['kind']} ({row['change']:+.1f} {unit} for "
                         f"{question.vocabulary.rung(row['rung']).words})" for _, row in moved.iterrows())
               + " changes detectably" if len(moved)
               else f"no {kind} changes detectably") + " (the changes judged together).")
    findings.answer += _kind_answer(by_round, table, edit, unit, rungs, question)
    _gift_replay(pairs[pairs["rung"] == rungs[-1]], edit, findings)
    findings.certainty = _paired_certainty(by_round, f"{kind} x round effects on the final {unit} for "
                                           f"{first_words}", "vp")


def _kind_answer(by_round: pd.DataFrame, table: pd.DataFrame, edit: Edit, unit: str, rungs: Sequence[str],
                 question: Question) -> list[str]:
    """The family's answer from its verdicts: which kinds and rounds gain detectably, how much of
    it is the gift's own score source, and whether the strongest player's pooled verdicts agree."""
    kind = edit.kind_words
    gains = by_round[by_round["vp_verdict"] == stats.VERDICTS[0]]
    listed = ", ".join(f"{r.kind} {_moment_words(edit, r.round)}: {r.vp_diff:+.1f}" for r in gains.itertuples())
    lines = [f"For {question.vocabulary.rung(rungs[0]).words}, {len(gains)} of the {len(by_round)} {kind} x round "
             f"cells show a detectable {unit} gain for the seat with {edit.words}"
             + (f" ({listed})" if 0 < len(gains) <= 4 else "")
             + f", and {int((by_round['win_verdict'] == stats.VERDICTS[0]).sum())} a detectable gain in wins."
             + _precise_holds(table, rungs, kind, unit, question)]
    for round_, rows in gains.groupby("round", sort=True):
        own = f", of which {_span(rows['own'], '.1f')} {unit} is {edit.own_words}" if "own" in rows else ""
        worth = _span(rows["vp_diff"], "+.1f")
        lines.append(f"{edit.words.capitalize()} {_moment_words(edit, round_)} is worth {worth} {unit} by the end "
                     f"({len(rows)} of "
                     f"{int((by_round['round'] == round_).sum())} {kind}s detectable){own}.")
    if "own" in by_round:
        beyond = by_round[by_round["beyond_verdict"] == stats.VERDICTS[0]]
        if len(beyond):
            top = beyond.sort_values("beyond", ascending=False, kind="stable").iloc[0]
            lines.append(f"Beyond {edit.own_words}, {len(beyond)} cell(s) gain detectably; the largest: {top['kind']} "
                         f"{_moment_words(edit, int(top['round']))}, {top['beyond']:+.1f} {unit} ("
                         f"{top['beyond_ci'][0]:+.1f} to {top['beyond_ci'][1]:+.1f}).")
        else:
            lines.append(f"No cell gains detectably beyond {edit.own_words}: what the {kind}s do in play brought no "
                         f"{unit} these samples can tell apart from zero.")
    for label in rungs[1:]:
        rows = table[table["rung"] == label]
        found = rows[rows["vp_verdict"] != stats.VERDICTS[2]]
        lines.append(f"For {question.vocabulary.rung(label).words} (pooled over rounds, {int(rows['games'].sum())} "
                     "pairs), " + ("; ".join(f"{r['kind']}: {effect_sentence(r, unit)}" for _, r in found.iterrows())
                                   if len(found) else f"no {kind} has a detectable effect on the final {unit}") + ".")
    return lines


def _span(values: pd.Series, form: str) -> str:
    """A range of values as "a to b", or one value where they are all the same."""
    low, high = format(float(values.min()), form), format(float(values.max()), form)
    return low if low == high else f"{low} to {high}"


def _precise_holds(table: pd.DataFrame, rungs: Sequence[str], kind: str, unit: str, question: Question) -> str:
    """Whether the family's gains hold for the strongest player measured precisely (a sentence to follow the
    first player's), from its pooled verdicts; empty if that player is the first."""
    rows = _strongest_precise(table, rungs)
    label = str(rows["rung"].iloc[0])
    if label == rungs[0]:
        return ""
    counts = {metric: [int((rows[f"{metric}_verdict"] == verdict).sum()) for verdict in stats.VERDICTS[:2]]
              for metric in ("vp", "win")}
    lower = counts["vp"][1] + counts["win"][1]
    return (f" For {question.vocabulary.rung(label).words} (pooled over rounds, {int(rows['games'].sum())} pairs), "
            f"{counts['vp'][0]} of the {len(rows)} {kind}s gain detectably in {unit} and {counts['win'][0]} in wins"
            + (f"; {counts['vp'][1]} lose detectably in {unit} and {counts['win'][1]} in wins" if lower else "")
            + ".")


def _kind_heat_figure(table: pd.DataFrame, kinds: Sequence[str], edit: Edit, unit: str) -> Figure:
    """The score gain (and the gain beyond the gift's own source) by kind (rows) and round (columns), the cells
    detectable marked with a star."""
    from borabora_sim import plots

    panels = [("vp_diff", "vp_verdict", f"{unit} gained")]
    if "own" in table:
        panels.append(("beyond", "beyond_verdict", f"beyond {edit.own_words}"))
    grids = [table.pivot(index="kind", columns="round", values=v).reindex(list(kinds)) for v, _, _ in panels]
    values = np.array([grid.to_numpy(dtype=float) for grid in grids])
    bound = max(1.0, float(np.nanmax(np.abs(values)))) if np.isfinite(values).any() else 1.0
    fig = plots.new_figure(5.5 * len(panels), 4.8)
    axes = np.atleast_1d(fig.subplots(1, len(panels), sharey=True))
    images = []
    for ax, grid, cells, (_, verdict_column, name) in zip(axes, grids, values, panels, strict=True):
        verdicts = table.pivot(index="kind", columns="round", values=verdict_column).reindex(list(kinds))
        images.append(ax.imshow(cells, cmap="RdBu", vmin=-bound, vmax=bound, aspect="auto"))
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if np.isfinite(cells[i, j]):
                    star = verdicts.iat[i, j] != stats.VERDICTS[2]
                    ax.text(j, i, f"{cells[i, j]:+.1f}" + ("*" if star else ""), ha="center", va="center",
                            fontsize=8, fontweight="bold" if star else "normal")
        ax.set_xticks(range(grid.shape[1]), [f"round {c}" for c in grid.columns])
        ax.set_title(name, fontsize=9)
    axes[0].set_yticks(range(len(kinds)), list(kinds))
    fig.colorbar(images[0], ax=list(axes), label=f"mean {unit} (* detectable)")
    fig.suptitle(f"What {edit.words} is worth, by {edit.kind_words} and round", fontsize=10)
    return fig


def _gift_replay(pairs: pd.DataFrame, edit: Edit, findings: Findings) -> None:
    """A game of the strongest player in which the seat won with the gift and did not without it."""
    turned = pairs[pairs["win_with"].astype(bool) & ~pairs["win_without"].astype(bool)]
    if turned.empty:
        return
    row = turned.iloc[0]
    what = f"{edit.words} ({row['kind']})" if "kind" in row else edit.words
    findings.replay = (int(row["game_seed"]), str(row["players_by_seat"]).split("|"), int(row["decision"]),
                       f"the moment of the gift ({_moment_words(edit, int(row['round']))}): from here the game was "
                       f"played on twice, and seat {int(row['seat']) + 1} won with {what} and did not without it "
                       "(the replay shows the game as it was played)")


def _gift_robustness(question: Question, size: Size, work: Work, folder: Path | None, label: str,
                     pairs: pd.DataFrame, findings: Findings) -> None:
    """The gift's value for the first player again in each robustness setting, beside the same number of the
    question's own games (the same seeds, as printed): by round, or for a family by kind pooled over rounds."""
    settings = robustness_settings(question, size, folder)
    if not settings:
        return
    game = get_game(question.game)
    unit = unit_words(question)
    edit = question.vocabulary.edits[question.edit]
    kinds = edit.kind_names(game)
    within = ["players", "components"]
    frames = [_own_games(question, size, label, pairs)]
    for count, variant, components in settings:
        setting = replace(question, players=count)
        chunk = 25
        tasks = [(setting, label, range(start, min(start + chunk, size.robustness_games)), question.seed, components)
                 for start in range(0, size.robustness_games, chunk)]
        rows = _frame(work.tasks(f"gift-{count}p-{variant}", _gift_task, tasks,
                                       f"robustness: {count} players, {variant}"))
        if len(rows):
            frames.append(rows[~rows["real"]].assign(**_setting_columns(count, variant)))
    every = pd.concat(frames, ignore_index=True)
    if kinds:
        table = _gift_verdicts(question, _in_kind_order(_pooled(every, within), kinds, within), unit,
                               (*within, "kind"))
        labels: tuple[str, ...] = (*within, "kind")
    else:
        table = _gift_verdicts(question, every, unit, (*within, "round"))
        labels = (*within, "round")
    findings.tables["robustness"] = table
    view = _own_columns(_with_without(paired_view(table, labels, unit)), table, edit, unit)
    findings.evidence += [f"Robustness, for {question.vocabulary.rung(label).words}, beside the first "
                          f"{size.robustness_games:,} of the question's own games (these {len(table)} "
                          "rows judged together):", _markdown(view.rename(columns={"kind": edit.kind_words}),
                                                              index=False)]
    findings.answer.append(_robustness_sentence_of(table, "vp_verdict", f"the final {unit}",
                                                   question.vocabulary.rung(label).words, question.players))


def _gift_answer(rows: pd.DataFrame, edit: Edit, unit: str) -> list[str]:
    """A player's values of the gift, rounds grouped by their score verdict."""
    player = rows["player"].iloc[0]
    parts = []
    for verdict, phrase in (("A better", f"detectably raises the final {unit}"),
                            ("A worse", f"detectably lowers the final {unit}"),
                            ("no detectable difference", f"makes no detectable difference to the final {unit}")):
        chosen = rows[rows["vp_verdict"] == verdict]
        if len(chosen):
            listing = ", ".join(f"{_moment_words(edit, int(r['round']))}: {r['vp_diff']:+.1f} "
                                f"({r['vp_diff_ci'][0]:+.1f} to {r['vp_diff_ci'][1]:+.1f})"
                                for _, r in chosen.iterrows())
            parts.append(f"{phrase} when gained {listing}")
    wins = rows[rows["win_verdict"] != "no detectable difference"]
    win_text = ("; its effect on the win rate is detectable in " + ", ".join(
        f"round {int(r['round'])} ({100 * r['win_diff']:+.1f} points)" for _, r in wins.iterrows())
        if len(wins) else "; its effect on the win rate is not detectable in any round")
    return [f"For {player}, {edit.words} " + "; it ".join(parts) + win_text + "."]


def _gift_figure(table: pd.DataFrame, words: str, unit: str) -> Figure:
    from borabora_sim import plots

    fig = plots.new_figure()
    ax = fig.subplots()
    players = list(dict.fromkeys(table["player"]))
    for i, player in enumerate(players):
        rows = table[table["player"] == player]
        x = rows["round"].to_numpy(dtype=float) + 0.08 * (i - (len(players) - 1) / 2)
        mean = rows["vp_diff"].to_numpy(dtype=float)
        low = np.array([lo for lo, _ in rows["vp_diff_ci"]])
        high = np.array([hi for _, hi in rows["vp_diff_ci"]])
        ax.errorbar(x, mean, yerr=[mean - low, high - mean], marker="o", capsize=3, label=player)
    ax.axhline(0.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("round the gift is made in")
    ax.set_ylabel(f"{unit} gained by the end (mean, simultaneous 95% intervals)")
    ax.set_title(f"What {words} is worth, by round")
    ax.legend(title="studied player")
    return fig


__all__ = ["gift"]
