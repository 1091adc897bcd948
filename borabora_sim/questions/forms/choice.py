"""A choice question: how often an option of the group is the best move and its rechecked advantage over the
best other move, by player and by situation, judged as one family (`choice_verdicts`); the situation in which it is
best most often; how two judges agree. Its games are played by `choice_games`."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.questions import lead, when
from borabora_sim.questions.forms.choice_games import _choice_task
from borabora_sim.questions.forms.common import (
    Findings,
    _frame,
    _games,
    _markdown,
    _own_games,
    _precise_enough,
    _robustness_sentence_of,
    _setting_columns,
    active_rungs,
    interval_text,
    robustness_settings,
)
from borabora_sim.questions.question import NO_JUDGE, Question, Size, judge_words
from borabora_sim.questions.work import Work
from borabora_sim.vocabulary import value_text


def choice_table(values: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Per group of `keys`: the options judged; how often the option was strictly the best move (above every
    move outside its groups; Wilson interval), tied for best, and best and confirmed on fresh rollouts; its
    rechecked advantage over the best other move (t interval; free of the selection of the best, unlike the first
    pass's), and that advantage where it was best; how often the player took it."""
    rows = []
    for key, group in values.groupby(list(keys), sort=True, observed=True):
        n, best = len(group), int(group["best"].sum())
        lo, hi = stats.wilson_interval(best, n)
        mean, alo, ahi = stats.mean_interval(group["recheck_advantage"].to_numpy(dtype=float))
        when = group.loc[group["best"].astype(bool), "recheck_advantage"]
        rows.append({**dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
                     "decisions": n, "best": best, "best_share": best / n, "best_ci": (lo, hi),
                     "tied_share": float(group["tied"].mean()), "confirmed_share": float(group["confirmed"].mean()),
                     "advantage": mean, "advantage_ci": (alo, ahi),
                     "advantage_when_best": float(when.mean()) if len(when) else np.nan,
                     "taken_share": float(group["chosen"].mean())})
    return pd.DataFrame(rows)


def choice_verdicts(values: pd.DataFrame, keys: Sequence[str], alpha: float) -> pd.DataFrame:
    """`choice_table` judged as one family: the rechecked advantage's t interval per row at
    `stats.family_confidence(alpha, rows)`, its verdict ("better": ahead of the best other move on average) whether
    that interval excludes 0, and the t-test's p-value adjusted alike (`advantage_p_adjusted`)."""
    table = choice_table(values, keys)
    level = stats.family_confidence(alpha, max(len(table), 1))
    tested = [stats.mean_test(group["recheck_advantage"].to_numpy(dtype=float), level)
              for _, group in values.groupby(list(keys), sort=True, observed=True)]
    table["advantage_ci"] = [(low, high) for _, low, high, _ in tested]
    table["advantage_p_adjusted"] = [stats.adjusted_p(p, len(table)) for *_, p in tested]
    table["verdict"] = [stats.verdict_of(low, high, words=ADVANTAGE_VERDICTS) for low, high in table["advantage_ci"]]
    table["confidence"] = level
    return table


ADVANTAGE_VERDICTS = ("better", "worse", "no detectable difference")


AGAINST = {"better": "on average detectably better than the best other move",
           "worse": "on average detectably worse than the best other move",
           "no detectable difference": "on average not detectably different from the best other move"}


def _share_text(share: float, low: float, high: float) -> str:
    return f"{share:.0%} ({low:.0%} to {high:.0%})"


def _groups_words(question: Question) -> str:
    words = [question.vocabulary.groups[name].words for name in question.groups]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _slug(words: str) -> str:
    """Words as a file name's part: "balance 1 HP (the Balance fallback)" -> "balance-1-hp-the-balance-fallback"."""
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")


def _by_group(question: Question) -> list[str]:
    """The group column where a choice asks about several groups, each its own row."""
    return ["group"] if len(question.groups) > 1 else []


def choice(question: Question, size: Size, work: Work, folder: Path | None) -> Findings:
    rungs = active_rungs(question, size)
    tasks = [(question, label, game_id, size.rollouts, question.judge) for label in rungs
             for game_id in range(_games(question, size, label))]
    words = _groups_words(question)
    values = _frame(work.tasks("choice", _choice_task, tasks, f"{words}: games"))
    values = _more_choice_games(question, size, work, rungs, values)
    if not values.empty:                    # the tables list the players in the ladder's order, the strongest last
        values["rung"] = pd.Categorical(values["rung"], categories=list(rungs), ordered=True)
    findings = Findings(tables={"decisions" if question.judge == NO_JUDGE else "options": values})
    if values.empty:
        findings.answer.append(f"In the games played, {words} was never legal beside another move at a "
                               "decision of a studied seat, so nothing can be said about it.")
        return findings
    if question.judge == NO_JUDGE:
        _counted_findings(question, values, findings)
        findings.lead = lead.counted_choice_lead(question, findings.tables["taken"], rungs, words)
        return findings
    _judged_findings(question, size, values, findings)
    if question.second_judge and size.second_judge_games:
        tasks = [(question, label, game_id, size.rollouts, question.second_judge) for label in rungs
                 for game_id in range(min(size.second_judge_games, _games(question, size, label)))]
        second = _frame(work.tasks("second_judge", _choice_task, tasks, f"{words}: the second judge"))
        findings.tables["second_judge_options"] = second
        agreement = judge_agreement(values, second, question.alpha)
        findings.tables["agreement"] = agreement
        findings.evidence.append(_agreement_words(question, agreement))
    _choice_robustness(question, size, work, folder, rungs[0], values, findings)
    _choice_lead(question, rungs, values, findings, folder)
    return findings


def _choice_lead(question: Question, rungs: Sequence[str], values: pd.DataFrame, findings: Findings,
                 folder: Path | None) -> None:
    """The answer's first words: each group's verdict, and for the first group the situation in which it is the
    best move most often, learned on some games and checked on others, with a picture of one such position."""
    robust = findings.tables.get("robustness", pd.DataFrame())
    summary = findings.tables["summary"]
    groups = _by_group(question)
    leads = [lead.judged_choice_lead(question, summary[summary["group"] == name] if groups else summary, rungs,
                                     question.vocabulary.groups[name].words, robust, name if groups else None)
             for name in question.groups]
    first = leads[0]
    first.strength = " ".join([*(one.verdict for one in leads[1:]), first.strength])   # the other groups' verdicts
    name = question.groups[0]
    words = question.vocabulary.groups[name].words
    judged = values[values["group"] == name] if groups else values
    found = when.find_situation(judged, question.vocabulary.situations, question.alpha, seed=question.seed)
    first.when = when.when_sentence(found, words)
    findings.answer.append(when.how_sure_sentence(found))
    example = when.example_row(judged, found) if found.found else None
    if example is not None and folder is not None:
        picture = f"when-{_slug(question.name)}.svg"
        when.write_example_picture(folder / picture, example, question.game)
        findings.evidence += [when.example_caption(example, found), f"![an example position]({picture})"]
    findings.lead = first


def _choice_view(question: Question, table: pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    """The printed columns of a `choice_verdicts` table, its key columns named by `labels`."""
    view = pd.DataFrame({words: [value_text(v) for v in table[column]] for column, words in labels.items()})
    view["options judged"] = table["decisions"].astype(int)
    view["best move (share, 95% CI)"] = [_share_text(s, lo, hi)
                                         for s, (lo, hi) in zip(table["best_share"], table["best_ci"], strict=True)]
    view["tied for best"] = [f"{s:.0%}" for s in table["tied_share"]]
    view["taken by the player"] = [f"{s:.0%}" for s in table["taken_share"]]
    view["against the best other move (win chance, points)"] = [
        f"{100 * m:+.1f} {interval_text(lo, hi, 1, 100)}"
        for m, (lo, hi) in zip(table["advantage"], table["advantage_ci"], strict=True)]
    if "advantage_p_adjusted" in table:
        view["adjusted p"] = [f"{p:.3g}" for p in table["advantage_p_adjusted"]]
        view["verdict"] = table["verdict"]
    return view


def _group_labels(question: Question, values: pd.DataFrame) -> pd.DataFrame:
    """The values with each group's name replaced by its words (for the printed tables)."""
    return values.assign(group=values["group"].map(lambda name: question.vocabulary.groups[name].words))


def _choice_robustness(question: Question, size: Size, work: Work, folder: Path | None, label: str,
                       values: pd.DataFrame, findings: Findings) -> None:
    """The first player's judged choice again in each robustness setting, beside the same number of the
    question's own games (as printed): its best-move share and its advantage, one family."""
    settings = robustness_settings(question, size, folder)
    if not settings:
        return
    frames = [_own_games(question, size, label, values)]
    for count, variant, components in settings:
        setting = replace(question, players=count)
        tasks = [(setting, label, game_id, size.rollouts, question.judge, components)
                 for game_id in range(size.robustness_games)]
        judged = _frame(work.tasks(f"choice-{count}p-{variant}", _choice_task, tasks,
                                         f"robustness: {count} players, {variant}"))
        if len(judged):
            frames.append(judged.assign(**_setting_columns(count, variant)))
    every = pd.concat(frames, ignore_index=True)
    keys = ["players", "components", *_by_group(question)]
    table = choice_verdicts(every, keys, question.alpha)
    findings.tables["robustness"] = table
    shown = choice_verdicts(_group_labels(question, every), keys, question.alpha)
    findings.evidence += [
        f"Robustness, for {question.vocabulary.rung(label).words}, beside the first {size.robustness_games:,} of "
        f"the question's own games (these {len(table)} rows judged together):",
        _markdown(_choice_view(question, shown, {"players": "players", "components": "components",
                                                 **({"group": "choice"} if _by_group(question) else {})}))]
    findings.answer.append(_robustness_sentence_of(table, "verdict", "its advantage over the best other move",
                                                   question.vocabulary.rung(label).words, question.players))


def _share_half_width(values: pd.DataFrame, label: str, flag: str) -> float:
    part = values[values["rung"] == label] if len(values) else values
    if part.empty:
        return 0.0
    low, high = stats.wilson_interval(int(part[flag].sum()), len(part))
    return (high - low) / 2


def _more_choice_games(question: Question, size: Size, work: Work, rungs: Sequence[str],
                       values: pd.DataFrame) -> pd.DataFrame:
    """Adds batches of games, rung by rung, while the interval of its share (best move, or taken when counted) is
    wider than the size's target and its share of the time left allows another batch like the last."""
    flag = "chosen" if question.judge == NO_JUDGE else "best"
    frames = [values]
    for i, label in enumerate(rungs):
        games = _games(question, size, label)
        batch, took = 1, 0.0
        while (not _precise_enough(size, _share_half_width(pd.concat(frames), label, flag), took,
                                   work.time_left(len(rungs) - i), batch)
               and work.may_play([f"choice-{label}-b{batch}"])):
            began = time.monotonic()
            tasks = [(question, label, game_id, size.rollouts, question.judge)
                     for game_id in range(batch * games, (batch + 1) * games)]
            frames.append(_frame(work.tasks(f"choice-{label}-b{batch}", _choice_task, tasks,
                                                  f"{question.vocabulary.rung(label).words}: more games")))
            batch += 1
            took = time.monotonic() - began
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else values


def _counted_findings(question: Question, values: pd.DataFrame, findings: Findings) -> None:
    """How often each player takes an action of the groups where it may, by each situation column."""
    words = _groups_words(question)
    rows = []
    for label, part in values.groupby("rung", sort=False, observed=True):
        lo, hi = stats.wilson_interval(int(part["chosen"].sum()), len(part))
        rows.append({"rung": label, "player": part["player"].iloc[0], "decisions": len(part),
                     "taken_share": part["chosen"].mean(), "ci_low": lo, "ci_high": hi})
    summary = pd.DataFrame(rows)
    findings.tables["taken"] = summary
    findings.evidence += [
        f"Each player in one seat (rotated) against {question.players - 1} {question.vocabulary.opponent_words}: "
        f"at every decision where {words} was possible, whether the player took it (Wilson 95% intervals).",
        _markdown(pd.DataFrame({"player": summary["player"], "decisions": summary["decisions"],
                                "taken (share, 95% CI)": [_share_text(*r) for r in zip(
                                    summary["taken_share"], summary["ci_low"], summary["ci_high"], strict=True)]}))]
    for by in question.by:
        situation = question.vocabulary.situations[by].words
        columns = {}
        for _, part in values.groupby("rung", sort=False, observed=True):
            table = _taken_by(part, by)
            columns[part["player"].iloc[0]] = pd.Series(
                [f"{_share_text(s, lo, hi)} of {n}" for s, lo, hi, n in zip(
                    table["share"], table["ci_low"], table["ci_high"], table["decisions"], strict=True)],
                index=[value_text(v) for v in table[by]])
        view = pd.DataFrame(columns).fillna("-")
        view.index.name = situation
        findings.evidence += [f"By {situation}:", _markdown(view, index=True)]
    findings.answer += [f"{row['player'][0].upper()}{row['player'][1:]} took {words} at "
                        f"{_share_text(row['taken_share'], row['ci_low'], row['ci_high'])} of the "
                        f"{int(row['decisions']):,} decisions where it could." for _, row in summary.iterrows()]
    widest = ((summary["ci_high"] - summary["ci_low"]) / 2).max()
    findings.certainty = f"shares counted, widest 95% interval +/- {100 * widest:.0f} points"


def _taken_by(values: pd.DataFrame, by: str) -> pd.DataFrame:
    rows = []
    for key, group in values.groupby(by, sort=True):
        hits = int(group["chosen"].sum())
        lo, hi = stats.wilson_interval(hits, len(group))
        rows.append({by: key, "decisions": len(group), "hits": hits, "share": hits / len(group), "ci_low": lo,
                     "ci_high": hi})
    return pd.DataFrame(rows)


def _judged_findings(question: Question, size: Size, values: pd.DataFrame, findings: Findings) -> None:
    """How often each group's option is the best move, and its advantage over the best other move, by player and
    by each situation column."""
    vocabulary = question.vocabulary
    groups = _by_group(question)
    words = _groups_words(question)
    summary = findings.tables["summary"] = choice_verdicts(values, [*groups, "rung"], question.alpha)
    summary["player"] = [vocabulary.rung(label).words for label in summary["rung"]]
    shown = choice_verdicts(_group_labels(question, values), [*groups, "rung"], question.alpha)
    shown["rung"] = summary["player"]
    judged_by = judge_words(question.judge)
    seats = ("every seat the studied player plays" if question.seats == "all" else
             f"the studied player in one seat (rotated) against {question.players - 1} {vocabulary.opponent_words}")
    findings.evidence += [
        f"Games with {seats}. At every decision of a studied seat where {words} was legal beside another move, "
        f"every legal move was judged by {judged_by}, over {size.rollouts} samples of what the mover cannot see "
        "(the same samples and dice for every move). An option is the best move when its judged win chance is above "
        "every move outside its group, tied when level with the best of them; the comparison with the best other "
        "move is judged again on fresh samples, free of the bias of picking the best of several noisy values "
        "(paired t interval; the "
        f"{len(summary)} rows judged together, each interval at "
        f"{100 * float(summary['confidence'].iloc[0]):.4g}%, an advantage detectable exactly when its interval "
        "excludes 0).",
        _markdown(_choice_view(question, shown, {**({"group": "choice"} if groups else {}), "rung": "player"}))]
    for by in question.by:
        situation = vocabulary.situations[by].words
        table = findings.tables[f"by_{by}"] = choice_table(values, [*groups, by])
        shown_by = choice_table(_group_labels(question, values), [*groups, by])
        findings.evidence += [f"By {situation} (all players pooled):",
                              _markdown(_choice_view(question, shown_by, {**({"group": "choice"} if groups else {}),
                                                                          by: situation}))]
        if values[by].nunique() > 1 and pd.api.types.is_numeric_dtype(values[by]):
            from borabora_sim import plots

            for name in question.groups:
                rows = table[table["group"] == name] if groups else table
                if rows.empty:
                    continue
                lows, highs = zip(*rows["best_ci"], strict=True)
                shares = pd.DataFrame({situation: rows[by], "share": rows["best_share"], "ci_low": lows,
                                       "ci_high": highs})
                group_words = vocabulary.groups[name].words
                file = f"best-by-{by}" + (f"-{_slug(group_words)}" if groups else "") + ".png"
                findings.figures[file] = plots.share_plot(shares, situation,
                                                          "share of decisions where it was the best move",
                                                          title=f"{group_words}, by {situation}")
                findings.evidence.append(f"![best by {situation}]({file})")
    for name in question.groups:
        rows = summary[summary["group"] == name] if groups else summary
        _choice_answer(rows.iloc[-1], vocabulary.groups[name].words, judged_by, findings)
    strongest = summary.iloc[-1]
    lo, hi = strongest["best_ci"]
    findings.certainty = (f"best-move share +/- {100 * (hi - lo) / 2:.0f} points over {int(strongest['decisions'])} "
                          f"judged decisions; advantage: {strongest['verdict']}")
    best = values[values["best"].astype(bool)]
    if len(best):
        row = best.iloc[int(best["advantage"].to_numpy().argmax())]
        findings.replay = (int(row["game_seed"]), str(row["players_by_seat"]).split("|"), int(row["decision"]),
                           f"round {int(row['round'])}: {row['option_words']} was the best move by the widest "
                           f"margin of the games judged")


def _choice_answer(row: pd.Series, words: str, judge_words: str, findings: Findings) -> None:
    """The answer for one group from the strongest player's row of the summary (where it is best most often is
    `_choice_lead`'s)."""
    lo, hi = row["best_ci"]
    alo, ahi = row["advantage_ci"]
    findings.answer.append(
        f"Judged by {judge_words}, {words} was the best move in {_share_text(row['best_share'], lo, hi)} of the "
        f"{int(row['decisions']):,} decisions of {row['player']} where it was legal beside other moves (tied for "
        f"best in {row['tied_share']:.0%}), and {AGAINST[row['verdict']]} ({100 * row['advantage']:+.1f} points "
        f"of win chance, {100 * alo:+.1f} to {100 * ahi:+.1f}); the player took it in "
        f"{row['taken_share']:.0%} of them.")


def judge_agreement(first: pd.DataFrame, second: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The two judges on the options both judged: how often both, either or neither call the option the best
    move, their agreement (Wilson interval, Cohen's kappa), the paired difference of their shares (first - second;
    the exact interval that inverts the exact McNemar test) and the correlation of their advantages. One row (none
    if no option was judged by both)."""
    keys = ["game_id", "decision", "option"]
    both = first.merge(second, on=keys, suffixes=("_first", "_second"))
    if both.empty:
        return pd.DataFrame()
    a, b = both["best_first"].to_numpy(bool), both["best_second"].to_numpy(bool)
    counts = int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum())
    n = len(both)
    agree = counts[0] + counts[3]
    expected = a.mean() * b.mean() + (1 - a.mean()) * (1 - b.mean())
    difference = (counts[1] - counts[2]) / n
    low, high = stats.paired_win_interval(counts[1], counts[2], n, 1 - alpha)
    correlation = np.corrcoef(both["advantage_first"], both["advantage_second"])[0, 1] if n > 1 else 1.0
    return pd.DataFrame([{
        "options": n, "both": counts[0], "first_only": counts[1], "second_only": counts[2], "neither": counts[3],
        "agreement": agree / n, "agreement_ci": stats.wilson_interval(agree, n),
        "kappa": float((agree / n - expected) / (1 - expected)) if expected < 1 else 1.0,
        "first_share": float(a.mean()), "second_share": float(b.mean()), "difference": difference,
        "difference_ci": (low, high), "mcnemar_p": stats.mcnemar_exact(counts[1], counts[2]),
        "advantage_correlation": float(correlation)}])


def _agreement_words(question: Question, agreement: pd.DataFrame) -> str:
    """The judges' agreement in one sentence; the difference of their shares is named only if the exact McNemar
    test detects it at the question's level."""
    if agreement.empty:
        return "No option was judged by both judges, so their agreement was not measured."
    row = agreement.iloc[0]
    lo, hi = row["agreement_ci"]
    dlo, dhi = row["difference_ci"]
    first, second = question.judge, question.second_judge
    shares = (f"the {first} judge calls it the best move {'more' if row['difference'] > 0 else 'less'} often than "
              f"the {second} judge" if row["mcnemar_p"] < question.alpha else
              "the two judges call it the best move about equally often (no detectable difference)")
    return (f"On the {int(row['options']):,} options judged both by {judge_words(first)} and by "
            f"{judge_words(second)}, the judges agree on whether it is the best move in "
            f"{_share_text(row['agreement'], lo, hi)} (Cohen's kappa {row['kappa']:.2f}; the correlation of their "
            f"advantages {row['advantage_correlation']:.2f}); {shares}: {row['first_share']:.0%} against "
            f"{row['second_share']:.0%}, a difference of {100 * row['difference']:+.1f} points ("
            f"{100 * dlo:+.1f} to {100 * dhi:+.1f}, exact McNemar p = {row['mcnemar_p']:.2g}).")


__all__ = ["ADVANTAGE_VERDICTS", "AGAINST", "choice", "choice_table", "choice_verdicts", "judge_agreement"]
