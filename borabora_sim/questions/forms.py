"""The four forms of a question, each turned into `Findings`: the tables (each effect's verdict read from the
interval printed beside it, `stats.paired_table`), the
plain-language answer and the evidence, every sentence worded from the verdicts of the tables it stands beside.

- policy: the studied player's arms on the same seeds and seat rotations (`stats.paired_compare`);
- choice: every decision of the studied seat with an option of the group beside others, each legal option judged
  by paired rollouts (`counterfactual.judge_game`, with the rechecked advantage free of selection bias);
- gift: the game from the first decision of each round, continued with and without the edit on common seeds
  (`stats.paired_outcomes`);
- setup: every seat played by the same player; each place in the turn order's win rate against a fair share
  (exact binomial tests and the intervals that invert them), and whether the seats' chances differ between setups
  (chi-square test of homogeneity).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.counterfactual import RolloutJudge, judge_game
from borabora_sim.games import get_game
from borabora_sim.protocol import Game, GameState
from borabora_sim.questions import lead, when
from borabora_sim.questions.question import (
    BUILT_IN,
    MAX_BATCHES,
    NETWORK_JUDGE,
    NO_JUDGE,
    Question,
    Size,
    judge_words,
    variant_words,
)
from borabora_sim.questions.vocabulary import Edit, Moment, value_text
from borabora_sim.questions.work import BATCH_ID_STRIDE, Rows, Work
from borabora_sim.simulate import seated_players

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass
class Findings:
    """What a form found: `tables` (name -> table, kept as CSV), `answer` (two to four plain sentences),
    `evidence` (Markdown parts: sentences, tables, figure links), `figures` (file name -> figure) and `replay`
    (game seed, player specs and decision of an illustrative game, or None); `certainty` says in a few words how
    sure the answer is."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    answer: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    figures: dict[str, Figure] = field(default_factory=dict)
    replay: tuple[int, list[str], int, str] | None = None
    certainty: str = ""               # how sure the answer is, in a few words (the atlas's "how sure")
    lead: lead.Lead | None = None     # the answer's first words, for a player


def unit_words(question: Question) -> str:
    """The score's unit as a report words it: the game's ("VP", "HP"), or the words its questions give it."""
    return question.vocabulary.score_words or get_game(question.game).score_unit


def active_rungs(question: Question, size: Size) -> list[str]:
    """The rungs played at this size: all, or without those that search where the size leaves them out."""
    vocabulary = question.vocabulary
    named = size.rungs if size.rungs is not None else question.rungs
    rungs = [r for r in named if size.search_rungs or not vocabulary.rung(r).searches]
    return rungs or [named[0]]


def played_specs(question: Question, size: Size) -> list[str]:
    """The player specs of the games a question (not of parts) plays at this size, each once: the rungs played, with
    each arm's options in a policy question, and the game's opponents except in a setup question (every seat
    played by the rung). A choice's judges play no seat; `judge_files` names the files they read."""
    vocabulary = question.vocabulary
    options = [str(arm.value) for arm in question.arms] if question.form == "policy" else [""]
    specs = [vocabulary.rung(label).with_options(option) for label in active_rungs(question, size)
             for option in options]
    if question.form != "setup":
        specs.append(vocabulary.opponent)
    return list(dict.fromkeys(specs))


def choice_judge(judge: str, rollouts: int = RolloutJudge.rollouts) -> RolloutJudge:
    """The judge of a choice question's options, over `rollouts` samples of what the mover cannot see: the game's
    network's win chance right after each option ("expert"), or paired rollouts played to the end by the heuristic
    of style `judge`."""
    if judge == NETWORK_JUDGE:
        return RolloutJudge(rollouts=rollouts, rollout="random", rollout_depth=0, network=True)
    return RolloutJudge(rollouts=rollouts, rollout="heuristic", style=judge)


def judge_files(question: Question, size: Size) -> list[tuple[Path, ...]]:
    """The files the judges of a choice question (not of parts) read at this size (RolloutJudge.files_read): one
    entry for each judge that reads any, its judge first, then its second judge where the size has it judge
    games. A judge's style read from a data file (a tuned style, every style of Pig) is one; a style written in code,
    a choice counted (judge none) and the other forms read none."""
    if question.form != "choice" or question.judge == NO_JUDGE:
        return []
    judges = [question.judge, *([question.second_judge] if question.second_judge and size.second_judge_games else [])]
    game = get_game(question.game)
    read = [choice_judge(style).files_read(game) for style in judges]
    return [files for files in read if files]


def studied_players(question: Question, spec: str, players: int | None = None) -> list[str]:
    """The studied player first, then the game's opponents."""
    count = question.players if players is None else players
    return [spec] + [question.vocabulary.opponent] * (count - 1)


def studied_in_seat(question: Question, spec: str, seat: int) -> list[str]:
    """The specs by seat: the studied player in `seat`, the game's opponents in the others."""
    others = studied_players(question, spec)[1:]
    return [*others[:seat], spec, *others[seat:]]


def _frame(rows: Rows) -> pd.DataFrame:
    """The rows of tasks as a table whose game seeds stay whole numbers: a seed of 64 bits above 2**63 makes its
    batch's column unsigned, and pandas joins an unsigned column with a signed one as floats, which round it (a
    replay of that game would play another)."""
    frame = pd.DataFrame(rows)
    if "game_seed" in frame:
        frame["game_seed"] = frame["game_seed"].astype(object)
    return frame


def _games(question: Question, size: Size, label: str) -> int:
    return size.search_games if question.vocabulary.rung(label).searches else size.games


def _precise_enough(size: Size, half_width: float, took: float, time_left: float, batches: int) -> bool:
    """Whether to stop adding batches: no target, the target met, no time for another batch like the last, or
    MAX_BATCHES played."""
    return (size.target is None or half_width <= size.target or took > time_left or batches >= MAX_BATCHES)


# =============================================================================
# Words shared by the forms
# =============================================================================
WIN_WORDS = {"A better": "wins detectably more often", "A worse": "wins detectably less often",
             "no detectable difference": "makes no detectable difference to the win rate"}


def score_words(verdict: str, unit: str) -> str:
    return {"A better": f"scores detectably more {unit}", "A worse": f"scores detectably fewer {unit}",
            "no detectable difference": f"makes no detectable difference to the {unit}",
            }[verdict]


def effect_sentence(row: pd.Series, unit: str) -> str:
    """Both effects of one paired row, from its verdicts, with estimates and the intervals that decided them."""
    (wlo, whi), (vlo, vhi) = row["win_diff_ci"], row["vp_diff_ci"]
    return (f"{WIN_WORDS[row['win_verdict']]} ({100 * row['win_diff']:+.1f} win-rate points, "
            f"{100 * wlo:+.1f} to {100 * whi:+.1f}) and "
            f"{score_words(row['vp_verdict'], unit)} ({row['vp_diff']:+.2f} {unit}, {vlo:+.2f} to {vhi:+.2f}), "
            f"over {int(row['games']):,} pairs")


def interval_text(low: float, high: float, digits: int, scale: float = 1.0, reference: float = 0.0,
                  percent: bool = False) -> str:
    """An interval as a table prints it, "(-2.9 to -0.3)" or "(16.6% to 20.0%)", with as many more digits as it takes
    (up to three) for neither bound to read as the tested `reference` when it is not: a verdict read from the
    interval never stands beside bounds that seem to say otherwise."""
    def text(value: float, places: int) -> str:
        return f"{100 * value:.{places}f}%" if percent else f"{scale * value:+.{places}f}"

    shown = 100 if percent else scale

    def reads_as_reference(bound: float, places: int) -> bool:
        return bound != reference and round(shown * bound, places) == round(shown * reference, places)

    places = digits
    while places < digits + 3 and (reads_as_reference(low, places) or reads_as_reference(high, places)):
        places += 1
    return f"({text(low, places)} to {text(high, places)})"


def paired_view(table: pd.DataFrame, labels: Sequence[str], unit: str) -> pd.DataFrame:
    """The printed columns of a paired table, in words, intervals as text."""
    view = table[list(labels)].copy()
    view["pairs"] = table["games"].astype(int)
    view["win rate A"] = [f"{v:.1%}" for v in table["win_a"]]
    view["win rate B"] = [f"{v:.1%}" for v in table["win_b"]]
    view["change in win rate (points)"] = [f"{100 * d:+.1f} {interval_text(lo, hi, 1, 100)}"
                                           for d, (lo, hi) in zip(table["win_diff"], table["win_diff_ci"],
                                                                  strict=True)]
    view["adjusted p (win)"] = [f"{p:.3g}" for p in table["win_p_adjusted"]]
    view["verdict (win)"] = table["win_verdict"].map(VERDICT_COLUMN)
    view[f"change in {unit}"] = [f"{d:+.2f} {interval_text(lo, hi, 2)}"
                                 for d, (lo, hi) in zip(table["vp_diff"], table["vp_diff_ci"], strict=True)]
    view[f"adjusted p ({unit})"] = [f"{p:.3g}" for p in table["vp_p_adjusted"]]
    view[f"verdict ({unit})"] = table["vp_verdict"].map(VERDICT_COLUMN)
    return view


VERDICT_COLUMN = {"A better": "A higher", "A worse": "A lower", "no detectable difference": "not detectable"}


def family_words(table: pd.DataFrame) -> str:
    """How a paired table's verdicts were reached, in one sentence: its intervals are simultaneous and decide."""
    family, alpha = len(table), float(table["alpha"].iloc[0])
    return (f"Win rates: exact McNemar test and the exact interval that inverts it; {table['unit'].iloc[0]}: paired "
            f"t-test and its t interval. The {_count(family, 'comparison')} are judged together: each interval is at "
            f"{100 * stats.family_confidence(alpha, family):.4g}% so that all of them hold at once with "
            f"{100 * (1 - alpha):.4g}% confidence, an effect is detectable exactly when its interval excludes 0, and "
            "the p-values are adjusted alike.")


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


def strength_table(question: Question, wins: dict[str, tuple[int, int]]) -> pd.DataFrame:
    """Each rung's measured strength: its win rate against the opponents, Wilson 95% interval."""
    rows = []
    for label, (won, games) in wins.items():
        lo, hi = stats.wilson_interval(won, games)
        rung = question.vocabulary.rung(label)
        rows.append({"rung": label, "player": rung.words, "spec": rung.spec, "games": games, "wins": won,
                     "win_rate": won / games if games else float("nan"), "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def strength_view(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"player": table["player"], "games": table["games"],
                         "win rate (95% CI)": [f"{w:.1%} ({lo:.1%} to {hi:.1%})" for w, lo, hi in zip(
                             table["win_rate"], table["ci_low"], table["ci_high"], strict=True)]})


# =============================================================================
# Policy comparison
# =============================================================================
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


def _changes(table: pd.DataFrame, weakest: str, within: str, metrics: tuple[str, ...], alpha: float) -> pd.DataFrame:
    """How each effect moves from the weakest rung's to every stronger one's, per metric in `metrics`' order
    (`stats.effect_changes`, each metric its own family)."""
    return pd.concat([stats.effect_changes(table, "rung", weakest, within=(within,), metric=metric,
                                           alpha=alpha).assign(metric=metric) for metric in metrics],
                     ignore_index=True)


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


Setting = tuple[int, str, str | None]        # a robustness setting: players, component variant, its file


def robustness_settings(question: Question, size: Size, folder: Path | None) -> list[Setting]:
    """The question's other player counts (built-in components), then its component variants (its own count)."""
    settings: list[Setting] = [(count, BUILT_IN, None) for count in question.robustness_players]
    variants = size.variants if size.variants is not None else question.robustness_variants
    return settings + [(question.players, name, str(_variant_file(question, name, folder))) for name in variants]


def _own_games(question: Question, size: Size, label: str, rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of rung `label`'s first `robustness_games` games of the question itself (as printed, the seeds a
    robustness setting plays), to stand beside the settings in one table."""
    own = rows[(rows["rung"] == label) & (rows["game_id"] < size.robustness_games)]
    return own.assign(**_setting_columns(question.players, BUILT_IN))


def _setting_columns(count: int, variant: str) -> dict[str, Any]:
    return {"players": count, "components": "as printed" if variant == BUILT_IN else variant_words(variant)}


def _robustness_sentence_of(table: pd.DataFrame, verdict: str, what: str, label: str, players: int = 0) -> str:
    """How the verdicts of one effect fall across the robustness settings (the rows of `table`), in one sentence;
    the rows of the question's own games as printed with `players` players, beside them, are not counted."""
    own = (table["players"] == players) & (table["components"] == _setting_columns(players, BUILT_IN)["components"])
    settings_rows = table[~own]
    counts = settings_rows[verdict].value_counts()
    words = {**TALLY_WORDS, "better": "detectably better", "worse": "detectably worse"}
    tally = ", ".join(f"{words[v]} in {int(counts[v])}" for v in counts.index)
    settings = len(settings_rows[["players", "components"]].drop_duplicates())
    return (f"Across {_count(settings, 'robustness setting')} (other player counts and component variants, "
            f"{label} only), the {_count(len(settings_rows), 'verdict')} on {what} were: {tally}.")


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


def _variant_file(question: Question, name: str, folder: Path | None) -> Path:
    import tempfile

    where = folder / "variants" if folder is not None else Path(tempfile.mkdtemp())
    where.mkdir(parents=True, exist_ok=True)
    return question.vocabulary.write_variant(name, where)


def _across_strength(effects: pd.DataFrame, changes: pd.DataFrame, subject: str, metric: str = "win",
                     unit: str = "VP") -> list[str]:
    from borabora_sim.studies.strength import across_strength

    named = effects.assign(rung=effects["player"])
    if len(changes):
        words = dict(zip(effects["rung"], effects["player"], strict=True))
        changes = changes.assign(rung=changes["rung"].map(words), reference=changes["reference"].map(words))
    return across_strength(named, changes, subject, metric, score_unit=unit)


def _paired_certainty(table: pd.DataFrame, what: str, metric: str = "win") -> str:
    detectable = int((table[f"{metric}_verdict"] != "no detectable difference").sum())
    widest = max((hi - lo) / 2 for lo, hi in table[f"{metric}_diff_ci"])
    scale, unit = (100, " points") if metric == "win" else (1, f" {table['unit'].iloc[0]}")
    return (f"{detectable} of {len(table)} {what} detectable; widest interval +/- {scale * widest:.1f}{unit}")


def _holds_sentence(table: pd.DataFrame) -> str:
    """How many of the measured (player, comparison) rows show a detectable effect on the win rate."""
    detectable = table[table["win_verdict"] != "no detectable difference"]
    if detectable.empty:
        players = table["player"].nunique()
        who = "the player measured" if players == 1 else f"any of the {players} players measured"
        return f"No effect on the win rate is detectable for {who}, over {_count(len(table), 'comparison')}."
    listing = "; ".join(f"{row['comparison']} for {row['player']} ({100 * row['win_diff']:+.1f} points)"
                        for _, row in detectable.iterrows())
    return (f"Detectable effects on the win rate, over {_count(len(table), 'comparison')}: {listing}; the others "
            "are not detectable.")


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


TALLY_WORDS = {"A better": "detectably higher", "A worse": "detectably lower",
               "no detectable difference": "not detectably different"}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n:,} {noun}s"


# =============================================================================
# Value of a choice
# =============================================================================
def _choice_players(question: Question, label: str, game_id: int) -> tuple[list[str], list[int]]:
    """The specs by seat of game `game_id` and the seats studied: the rung's player in one seat (rotating with the
    game) among the opponents; with `seats = "all"`, every seat it plays is studied."""
    seat = game_id % question.players
    specs = studied_in_seat(question, question.vocabulary.rung(label).spec, seat)
    return specs, studied_seats(question, specs, seat)


ROW_COLUMNS = frozenset({"game_id", "game_seed", "seat", "spec", "phase", "decision", "option", "value", "chosen",
                         "group", "option_words", "best", "advantage"})      # a judged row's own columns


def _situation(question: Question, game: Game) -> Callable[[GameState, int], dict[str, Any]]:
    situations = question.vocabulary.situations
    groups = {action: name for name in question.groups
              for action in question.vocabulary.groups[name].actions(game)}

    recorded = {name: of for name, of in situations.items() if name in question.by or name not in ROW_COLUMNS}

    def situation(state: GameState, action: int) -> dict[str, Any]:
        """Every situation of the game's vocabulary, not only the question's `by` (but those named like a column of
        the row itself): the situation in which an option is best most often is searched over all of them
        (`when.find_situation`)."""
        return {"group": groups.get(action, ""), **{name: of.of(state, action) for name, of in recorded.items()},
                "option_words": game.describe_action(state, action)}

    return situation


def _choice_task(question: Question, label: str, game_id: int, rollouts: int, style: str,
                 components: str | None = None) -> Rows:
    """The rows of one game: every option of the groups judged by rollouts of heuristic `style` at each decision
    of a studied seat where it is legal beside others; or, with no judge, every such decision counted."""
    game = get_game(question.game, components)
    groups = [question.vocabulary.groups[name] for name in question.groups]
    studied = frozenset().union(*(group.actions(game) for group in groups))
    specs, focus = _choice_players(question, label, game_id)
    situation = _situation(question, game)
    extra = {"rung": label, "player": question.vocabulary.rung(label).words, "players_by_seat": "|".join(specs)}
    if style == NO_JUDGE:
        alternatives = frozenset().union(*(group.alternative_actions(game) for group in groups))
        return [{**extra, **row} for row in _counted(game, question, game_id, specs, focus, studied, alternatives,
                                                    situation)]
    rows = judge_game(game, game_id, specs, question.seed, studied.__contains__, situation, focus=focus,
                      judge=choice_judge(style, rollouts), recheck=True)
    return [{**extra, **row, "best": row["advantage"] > 0, "tied": row["advantage"] == 0,
             "confirmed": row["advantage"] > 0 and row["recheck_advantage"] > 0} for row in rows]


def _counted(game: Game, question: Question, game_id: int, specs: Sequence[str], focus: Sequence[int],
             studied: frozenset[int], alternatives: frozenset[int],
             situation: Callable[[GameState, int], dict[str, Any]]) -> Rows:
    """Every decision of a studied seat at which an action of the groups is legal and the player takes it or one
    of its alternatives: its situation (of the move taken) and whether the player took an action of the groups."""
    game_seed = int(game.derive_seed(question.seed, game_id))
    actors = seated_players(specs, game_seed, game)
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    rows: Rows = []
    while not state.is_terminal():
        seat = state.current_player
        action = actors[seat].choose(state)
        if seat in focus and action in alternatives and not studied.isdisjoint(state.legal_actions()):
            rows.append({"game_id": game_id, "seat": seat, **situation(state, action), "chosen": action in studied})
        state.apply(action)
    return rows


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


# =============================================================================
# Value of a gift
# =============================================================================
def _play_out(state: GameState, specs: Sequence[str], seeds: Sequence[int], game: Game) -> GameState:
    from borabora_sim.players import make_player

    players = [make_player(spec, seed, game) for spec, seed in zip(specs, seeds, strict=True)]
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state))
    return state


def studied_seats(question: Question, specs: Sequence[str], seat: int) -> list[int]:
    """The seats studied in a game whose studied player sits in `seat`: that one, or with `seats = "all"` every
    seat it plays (every seat when it is the opponents' own player, so the same games give more data)."""
    return [s for s, spec in enumerate(specs) if spec == specs[seat]] if question.seats == "all" else [seat]


def _moments(game: Game, edit: Edit, state: GameState, players: Sequence[Any]
             ) -> tuple[GameState, dict[int, GameState], dict[int, int]]:
    """Plays the game; the final state, the state of each round's moment (`Edit`) and the number of decisions
    before it (the replay's index)."""
    moments: dict[int, GameState] = {}
    decisions: dict[int, int] = {}
    played = 0
    while not state.is_terminal():
        if not edit.after_phase and state.round not in moments and edit.at(state):
            moments[state.round] = state.clone()
            decisions[state.round] = played
        phase, round_ = state.phase, state.round
        state.apply(players[state.current_player].choose(state))
        played += 1
        if edit.after_phase and phase == edit.after_phase != state.phase and round_ not in moments:
            moments[round_] = state.clone()
            decisions[round_] = played
    return state, moments, decisions


def _gift_task(question: Question, label: str, ids: Sequence[int], seed: int, components: str | None = None) -> Rows:
    """For rung `label` and the games `ids`: one row per (game, moment, kind) with the studied seat's score and
    first place (shared or not) with and without the gift (`with` is the edited state, or with an edit that
    `removes`, the state as it stands), and one row per game and studied seat (`real`) with its score and first
    place in the game as played. Where
    several studied seats could take the gift, one is taken (by the game's id), so that a game gives at most one
    pair per moment and kind."""
    game = get_game(question.game, components)
    edit = question.vocabulary.edits[question.edit]
    kinds = edit.kind_names(game) or ("",)
    count = question.players
    spec = question.vocabulary.rung(label).spec
    rows: Rows = []
    for game_id in ids:
        game_seed = int(game.derive_seed(seed, game_id))
        specs = studied_in_seat(question, spec, game_id % count)
        seats = studied_seats(question, specs, game_id % count)
        start = game.new_initial_state(players=count, seed=game_seed)
        final, moments, decisions = _moments(game, edit, start.clone(), seated_players(specs, game_seed, game))
        rows += [{"rung": label, "game_id": game_id, "real": True, "seat": seat, "score": final.scores()[seat],
                  "win": final.ranks()[seat] == 1} for seat in seats]
        before = start
        for round_, moment in sorted(moments.items()):
            seeds = [int(game.derive_seed(game_seed, 100 * round_ + s)) for s in range(count)]
            as_it_stands: GameState | None = None
            for kind, kind_name in enumerate(kinds):
                edited = {s: edit.apply(Moment(moment.clone(), s, kind, before)) for s in seats}
                ready = [s for s in seats if edited[s] is not None]
                if not ready:
                    continue
                seat = ready[game_id % len(ready)]
                if as_it_stands is None:
                    as_it_stands = _play_out(moment.clone(), specs, seeds, game)
                changed = _play_out(edited[seat], specs, seeds, game)   # type: ignore[arg-type]
                with_, without = (as_it_stands, changed) if edit.removes else (changed, as_it_stands)
                rows.append({"rung": label, "game_id": game_id, "real": False, "round": round_,
                             **({"kind": kind_name} if edit.kinds is not None else {}),
                             "score_without": without.scores()[seat], "score_with": with_.scores()[seat],
                             "win_without": without.ranks()[seat] == 1, "win_with": with_.ranks()[seat] == 1,
                             **({"own": with_.score_breakdown()[seat][edit.own_source]
                                 - without.score_breakdown()[seat][edit.own_source]} if edit.own_source else {}),
                             "seat": seat, "game_seed": game_seed, "decision": decisions[round_],
                             "players_by_seat": "|".join(specs),
                             **({"direct": edit.direct(moment)} if edit.direct is not None else {})})
            before = moment
    return rows


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


def _strongest_precise(table: pd.DataFrame, rungs: Sequence[str] | None = None) -> pd.DataFrame:
    """The rows of the strongest rung measured to the answer's precision (`lead.strongest_precise`, the player the
    answer speaks for). Strength is the order of `rungs` (weakest first), or of the table's rows."""
    order = list(dict.fromkeys(table["rung"])) if rungs is None else list(rungs)
    chosen: pd.DataFrame = table[table["rung"] == lead.strongest_precise(table, order)]
    return chosen


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


# =============================================================================
# Setup comparison
# =============================================================================
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


def _markdown(frame: pd.DataFrame, index: bool = False) -> str:
    from borabora_sim.studies.report_md import markdown_table

    return markdown_table(frame, index=index)


FORM_RUNNERS: dict[str, Callable[[Question, Size, Work, Path | None], Findings]] = {
    "policy": policy, "choice": choice, "gift": gift, "setup": setup}

__all__ = ["FORM_RUNNERS", "Findings"]
