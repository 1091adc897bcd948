"""A setup question: every seat played by the same player; each place in the turn order's win rate against a
fair share (exact binomial tests and the intervals that invert them), and whether the seats' chances differ between
setups (chi-square test of homogeneity)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from borabora_sim import stats
from borabora_sim.questions import lead
from borabora_sim.questions.forms.common import (
    Findings,
    _games,
    _markdown,
    _precise_enough,
    _variant_file,
    active_rungs,
    interval_text,
    unit_words,
)
from borabora_sim.questions.question import BUILT_IN, Question, Size, variant_words
from borabora_sim.questions.work import Work

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _setup_games(question: Question, work: Work, folder: Path | None, label: str, arm_name: str,
                 value: str | int, games: int, batch: int, variant: str = BUILT_IN) -> pd.DataFrame:
    """The games of one arm of a setup; with `variant`, on that component variant (a robustness setting)."""
    spec = question.vocabulary.rung(label).spec
    count = value if question.vary == "players" else question.players
    game = value if question.vary == "game" else question.game
    components = None
    if question.vary == "variant" and value != BUILT_IN:
        components = str(_variant_file(question, str(value), folder))
    if variant != BUILT_IN:
        components = str(_variant_file(question, variant, folder))
    name = f"setup-{label}-{arm_name}" + (f"-{variant}" if variant != BUILT_IN else "")
    frame = work.arm(name, [spec] * int(count), games, question.seed, batch, components, str(game))
    return frame.assign(arm=arm_name)


def _setup_robustness(question: Question, size: Size, work: Work, folder: Path | None, label: str,
                      own: pd.DataFrame, findings: Findings) -> pd.DataFrame:
    """The first player's places again on each component variant, every setup, beside the same number of the
    question's own games (`own`, the first player's, as printed): one family of verdicts."""
    variants = size.variants if size.variants is not None else question.robustness_variants
    if not variants or question.vary == "variant":
        return pd.DataFrame()
    unit = unit_words(question)
    games = size.robustness_games
    frames = [pd.DataFrame(_seat_rows(question, label, own[own["game_id"] < games], unit))
              .assign(components=lead.AS_PRINTED)]
    for variant in variants:
        played = pd.concat([_setup_games(question, work, folder, label, arm.name, arm.value, games, 0, variant)
                            for arm in question.arms], ignore_index=True)
        frames.append(pd.DataFrame(_seat_rows(question, label, played, unit)).assign(components=variant_words(variant)))
    table = seat_verdicts(pd.concat(frames, ignore_index=True), question.alpha)
    table["players"] = question.players          # the setups' own counts are in "setup"; the key of the own rows
    findings.tables["robustness"] = table
    findings.evidence += [
        f"Robustness, for {question.vocabulary.rung(label).words}, on each component variant beside the first "
        f"{games:,} of the question's own games (these {len(table)} places judged together):",
        _markdown(pd.DataFrame({
            "components": table["components"], "setup": table["setup"], "place in turn order": table["turn_order"],
            "games": table["games"], "win rate (interval)": [
                f"{w:.1%} {interval_text(lo, hi, 1, reference=f, percent=True)}" for w, lo, hi, f in zip(
                    table["win_rate"], table["ci_low"], table["ci_high"], table["fair_share"], strict=True)],
            "fair share": [f"{f:.1%}" for f in table["fair_share"]], "verdict": table["verdict"]}), index=False)]
    return table


def _seat_rows(question: Question, label: str, frame: pd.DataFrame, unit: str) -> list[dict[str, Any]]:
    rows = []
    score = stats.score_column(frame)
    for arm_name, part in frame.groupby("arm", sort=False):
        count = int(part["n_players"].iloc[0])
        games = part["game_id"].nunique()
        for position, seat in part.groupby("start_position", sort=True):
            wins = int(seat["win"].sum())
            rows.append({"rung": label, "player": question.vocabulary.rung(label).words,
                         "setup": question.arm(str(arm_name)).words, "arm": arm_name, "players": count,
                         "turn_order": int(str(position)) + 1, "games": games, "wins": wins, "win_rate": wins / games,
                         "fair_share": 1 / count, f"mean_{unit}": seat[score].mean()})
    return rows


def setup(question: Question, size: Size, work: Work, folder: Path | None) -> Findings:
    unit = unit_words(question)
    rungs = active_rungs(question, size)
    rows: list[dict[str, Any]] = []
    homogeneity = []
    for i, label in enumerate(rungs):
        games = _games(question, size, label)
        parts: list[pd.DataFrame] = []
        batch = 0
        while True:
            began = time.monotonic()
            parts += [_setup_games(question, work, folder, label, arm.name, arm.value, games, batch)
                      for arm in question.arms]
            batch += 1
            seat_rows = _seat_rows(question, label, pd.concat(parts, ignore_index=True), unit)
            half = max((high - low) / 2 for low, high in (stats.wilson_interval(r["wins"], r["games"])
                                                          for r in seat_rows))
            if _precise_enough(size, half, time.monotonic() - began, work.time_left(len(rungs) - i), batch) \
                    or not work.may_play([f"setup-{label}-{arm.name}-b{batch}" for arm in question.arms]):
                break
        rows += seat_rows
        if i == 0:
            first_games = pd.concat(parts, ignore_index=True)
        if question.vary != "players":
            homogeneity.append({"rung": label, "player": question.vocabulary.rung(label).words,
                                "p": _homogeneity_p(pd.DataFrame(seat_rows))})
    table = seat_verdicts(pd.DataFrame(rows), question.alpha)
    findings = Findings(tables={"seats": table})
    view = pd.DataFrame({
        "player": table["player"], "setup": table["setup"], "place in turn order": table["turn_order"],
        "games": table["games"],
        "win rate (interval)": [f"{w:.1%} {interval_text(lo, hi, 1, reference=f, percent=True)}" for w, lo, hi, f
                                in zip(table["win_rate"], table["ci_low"], table["ci_high"], table["fair_share"],
                                       strict=True)],
        "fair share": [f"{f:.1%}" for f in table["fair_share"]],
        "adjusted p": [f"{p:.3g}" for p in table["p_adjusted"]],
        "verdict": table["verdict"], f"mean {unit}": [f"{v:.1f}" for v in table[f"mean_{unit}"]]})
    findings.evidence += [
        "Every seat played by the same player; the place in the turn order is that of the first round (1 = moves "
        "first). Each place's win rate is tested against its fair share (one over the number of players; shared "
        f"first places count for each) with an exact binomial test and the exact (Clopper-Pearson) interval that "
        f"inverts it; the {len(table)} cells are judged together, each interval at "
        f"{100 * float(table['confidence'].iloc[0]):.4g}% so that all hold at once with 95% confidence, a place "
        "detectably off its fair share exactly when its interval excludes that share.",
        _markdown(view, index=False)]
    findings.figures["seats.png"] = _setup_figure(table)
    findings.evidence.append("![win rate by place in the turn order](seats.png)")
    strongest = table[table["rung"] == table["rung"].iloc[-1]]
    played = table.groupby("rung", sort=False)["games"].sum()
    precise = table[table["rung"] == played[played == played.max()].index[-1]]
    off = int((precise["verdict"] != "no detectable difference").sum())
    findings.certainty = (f"{off} of {len(precise)} places detectably off their fair share for "
                          f"{precise['player'].iloc[0]}; widest interval +/- "
                          f"{100 * ((precise['ci_high'] - precise['ci_low']) / 2).max():.1f} points")
    if precise["rung"].iloc[0] != strongest["rung"].iloc[0]:
        findings.answer.append(_setup_headline(precise))         # first the player measured most precisely
    findings.answer.append(_setup_headline(strongest))
    for setup_words, part in strongest.groupby("setup", sort=False):
        found = part[part["verdict"] != "no detectable difference"]
        if found.empty:
            findings.answer.append(f"With {setup_words}, for {part['player'].iloc[0]}: no place in the turn order "
                                   f"wins detectably more or less often than its fair share (widest interval "
                                   f"+/- {100 * ((part['ci_high'] - part['ci_low']) / 2).max():.1f} points).")
        else:
            listing = "; ".join(f"place {int(r['turn_order'])} wins {r['win_rate']:.1%} ({r['ci_low']:.1%} "
                                f"to {r['ci_high']:.1%}, fair share {r['fair_share']:.0%}): a detectable "
                                f"{r['verdict']}" for _, r in found.iterrows())
            findings.answer.append(f"With {setup_words}, for {part['player'].iloc[0]}: {listing}; the other places "
                                   "are not detectably different from their fair share.")
    if homogeneity:
        frame = pd.DataFrame(homogeneity)
        frame["p_adjusted"] = [stats.adjusted_p(p, len(frame)) for p in frame["p"]]
        frame["verdict"] = ["the seats' chances differ between the setups" if p < question.alpha
                            else "no detectable difference between the setups" for p in frame["p_adjusted"]]
        findings.tables["between_setups"] = frame
        findings.evidence += ["Whether the chances of the places in the turn order differ between the setups "
                              "(chi-square test of homogeneity of the winners' places, adjusted over the players):",
                              _markdown(pd.DataFrame({"player": frame["player"],
                                                      "p": frame["p"].map("{:.3g}".format),
                                                      "adjusted p": frame["p_adjusted"].map("{:.3g}".format),
                                                      "verdict": frame["verdict"]}), index=False)]
        last = frame.iloc[-1]
        findings.answer.append(f"Between the setups, for {last['player']}: {last['verdict']} (chi-square test, "
                               f"adjusted p = {last['p_adjusted']:.2g}).")
    robust = _setup_robustness(question, size, work, folder, rungs[0], first_games, findings)
    findings.lead = lead.setup_lead(question, table, rungs, findings.tables.get("between_setups", pd.DataFrame()),
                                    robust)
    return findings


SEAT_VERDICTS = ("advantage", "disadvantage", "no detectable difference")


def seat_verdicts(table: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The places' win counts judged as one family: each place's exact interval at
    `stats.family_confidence(alpha, rows)`, its verdict against its fair share ("advantage", "disadvantage" or "no
    detectable difference") whether that interval excludes the share, and the exact binomial test's p-value adjusted
    alike (`p_adjusted`)."""
    table = table.copy()
    level = stats.family_confidence(alpha, max(len(table), 1))
    intervals = [stats.clopper_pearson(int(w), int(n), level) for w, n in zip(table["wins"], table["games"],
                                                                              strict=True)]
    table["ci_low"] = [low for low, _ in intervals]
    table["ci_high"] = [high for _, high in intervals]
    table["p_adjusted"] = [stats.adjusted_p(stats.exact_binomial_p(int(w), int(n), f), len(table))
                           for w, n, f in zip(table["wins"], table["games"], table["fair_share"], strict=True)]
    table["verdict"] = [stats.verdict_of(low, high, share, SEAT_VERDICTS)
                        for (low, high), share in zip(intervals, table["fair_share"], strict=True)]
    table["confidence"] = level
    return table


def _setup_headline(rows: pd.DataFrame) -> str:
    """One sentence over every setup: which places in the turn order the player's win rate detectably favours or
    disfavours, or that none does."""
    player = rows["player"].iloc[0]
    found = rows[rows["verdict"] != "no detectable difference"]
    if found.empty:
        return (f"For {player}, no place in the turn order wins detectably more or less often than its fair share "
                f"in any of the setups measured ({', '.join(dict.fromkeys(rows['setup']))}).")
    listing = "; ".join(f"with {row['setup']}, place {int(row['turn_order'])} wins {row['win_rate']:.1%} against a "
                        f"fair {row['fair_share']:.0%} (a detectable {row['verdict']})" for _, row in found.iterrows())
    return (f"For {player}, {len(found)} of {len(rows)} places in the turn order are detectably off their fair share: "
            f"{listing}.")


def _homogeneity_p(seat_rows: pd.DataFrame) -> float:
    """The chi-square test of whether the winners' places in the turn order are spread alike in every setup
    (places no winner held are left out; 1 when fewer than two places remain)."""
    counts = seat_rows.pivot(index="arm", columns="turn_order", values="wins").fillna(0).to_numpy()
    counts = counts[:, counts.sum(axis=0) > 0]
    if counts.shape[1] < 2:
        return 1.0
    return float(stats._sps().chi2_contingency(counts).pvalue)


def _setup_figure(table: pd.DataFrame) -> Figure:
    from borabora_sim import plots

    fig = plots.new_figure()
    ax = fig.subplots()
    groups = list(table.groupby(["player", "setup"], sort=False))
    for i, ((player, setup_words), part) in enumerate(groups):
        x = part["turn_order"].to_numpy(dtype=float) + 0.06 * (i - (len(groups) - 1) / 2)
        mean = part["win_rate"].to_numpy(dtype=float)
        ax.errorbar(x, 100 * mean, yerr=[100 * (mean - part["ci_low"]), 100 * (part["ci_high"] - mean)], marker="o",
                    capsize=3, label=f"{player}, {setup_words}")
        ax.hlines(100 * part["fair_share"].iloc[0], x.min() - 0.2, x.max() + 0.2, colors="grey", linestyles=":")
    ax.set_xlabel("place in the turn order of the first round (1 = moves first)")
    ax.set_ylabel("win rate, % (simultaneous 95% intervals; dotted: fair share)")
    ax.set_title("Win rate by place in the turn order")
    ax.legend(fontsize=8)
    return fig


__all__ = ["SEAT_VERDICTS", "seat_verdicts", "setup"]
