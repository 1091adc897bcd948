"""What several forms of a question share: `Findings`, what a question plays (its rungs, the specs of its
players, the seats studied), the words and tables of paired comparisons and of the players' strength, and the
robustness settings. Its names with a leading underscore are for the forms' modules only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from borabora_sim import stats
from borabora_sim.games import get_game
from borabora_sim.questions import lead
from borabora_sim.questions.question import BUILT_IN, MAX_BATCHES, Question, Size, variant_words
from borabora_sim.questions.work import Rows

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


def studied_players(question: Question, spec: str, players: int | None = None) -> list[str]:
    """The studied player first, then the game's opponents."""
    count = question.players if players is None else players
    return [spec] + [question.vocabulary.opponent] * (count - 1)


def studied_in_seat(question: Question, spec: str, seat: int) -> list[str]:
    """The specs by seat: the studied player in `seat`, the game's opponents in the others."""
    others = studied_players(question, spec)[1:]
    return [*others[:seat], spec, *others[seat:]]


def studied_seats(question: Question, specs: Sequence[str], seat: int) -> list[int]:
    """The seats studied in a game whose studied player sits in `seat`: that one, or with `seats = "all"` every
    seat it plays (every seat when it is the opponents' own player, so the same games give more data)."""
    return [s for s, spec in enumerate(specs) if spec == specs[seat]] if question.seats == "all" else [seat]


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


def _markdown(frame: pd.DataFrame, index: bool = False) -> str:
    from borabora_sim.studies.report_md import markdown_table

    return markdown_table(frame, index=index)


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


def _changes(table: pd.DataFrame, weakest: str, within: str, metrics: tuple[str, ...], alpha: float) -> pd.DataFrame:
    """How each effect moves from the weakest rung's to every stronger one's, per metric in `metrics`' order
    (`stats.effect_changes`, each metric its own family)."""
    return pd.concat([stats.effect_changes(table, "rung", weakest, within=(within,), metric=metric,
                                           alpha=alpha).assign(metric=metric) for metric in metrics],
                     ignore_index=True)


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


def _strongest_precise(table: pd.DataFrame, rungs: Sequence[str] | None = None) -> pd.DataFrame:
    """The rows of the strongest rung measured to the answer's precision (`lead.strongest_precise`, the player the
    answer speaks for). Strength is the order of `rungs` (weakest first), or of the table's rows."""
    order = list(dict.fromkeys(table["rung"])) if rungs is None else list(rungs)
    chosen: pd.DataFrame = table[table["rung"] == lead.strongest_precise(table, order)]
    return chosen


TALLY_WORDS = {"A better": "detectably higher", "A worse": "detectably lower",
               "no detectable difference": "not detectably different"}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n:,} {noun}s"


# =============================================================================
# Robustness: the same question in other settings
# =============================================================================
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


def _variant_file(question: Question, name: str, folder: Path | None) -> Path:
    import tempfile

    where = folder / "variants" if folder is not None else Path(tempfile.mkdtemp())
    where.mkdir(parents=True, exist_ok=True)
    return question.vocabulary.write_variant(name, where)


__all__ = ["TALLY_WORDS", "VERDICT_COLUMN", "WIN_WORDS", "Findings", "Setting", "active_rungs", "effect_sentence",
           "family_words", "interval_text", "paired_view", "played_specs", "robustness_settings", "score_words",
           "strength_table", "strength_view", "studied_in_seat", "studied_players", "studied_seats", "unit_words"]
