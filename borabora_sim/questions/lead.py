"""The first words of an answer, for a player: a direct verdict for the strongest player measured to the
question's precision, one sentence on whether weaker players differ, and one on how the verdict moves with the
INVENTED component values. Every sentence is read from the verdicts of the tables the report prints, never from a
test of its own, and none uses the words of statistics ("Holm", "CI", "p", "rollouts", "heuristic", "rung").

Each form of question has its `..._lead` function, called by the form with the tables it has just judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from borabora_sim import stats
from borabora_sim.questions.question import Question

MAX_VERDICT_WORDS = 35          # a first sentence a board-gamer reads in ten seconds
PRECISION = 0.03                # the half-width (a share, or win-rate points) of the player the verdict speaks for
AS_PRINTED = "as printed"      # the robustness tables' name of the built-in components
NOT_VARIED = "this answer was not measured with them varied"


@dataclass
class Lead:
    """An answer's first words: the verdict, whether weaker players differ, when it flips (a choice's situation, if
    one was found), and how it moves with the INVENTED values."""

    verdict: str
    strength: str = ""
    when: str = ""
    invented: str = ""

    @property
    def varied(self) -> bool:
        """Whether `invented` tells how the verdict moved with the INVENTED values (not that it was not measured)."""
        return bool(self.invented) and NOT_VARIED not in self.invented

    def sentences(self) -> list[str]:
        return [s for s in (self.verdict, self.strength, self.when, self.invented) if s]


def plain_player(words: str) -> str:
    """A player's name for a reader who knows the game, not the library: the rule-based players are "AIs" rather
    than "heuristics", a tree search is "the search AI"."""
    return (words.replace("MCTS with", "the search AI with").replace("heuristic", "rule-based AI")
            .replace("the expert player", "the expert AI").replace("the learned player", "the learned AI"))


def strongest_precise(table: pd.DataFrame, rungs: Sequence[str], low: str = "win_diff_ci", high: str = "") -> str:
    """The strongest rung measured to the answer's precision: the last of `rungs` (weakest first) whose widest
    interval of its rows (the column `low` of (low, high) pairs, or the columns `low` and `high`) is at most
    PRECISION either side; where none is, the last with at least half the sample (`games` or `decisions`) of the
    rung with the most (the players that search play far fewer games)."""
    size = table["games" if "games" in table else "decisions"]
    lows = table[low] if high else table[low].map(lambda pair: pair[0])
    highs = table[high] if high else table[low].map(lambda pair: pair[1])
    # an interval of a few pairs none of which differ has no width; 3 / n, what n such pairs leave possible (the
    # rule of three), keeps it from passing for precise
    half = ((highs - lows) / 2).clip(lower=3 / size)
    widest = half.groupby(table["rung"], sort=False, observed=True).max()
    present = [rung for rung in rungs if rung in widest.index]
    precise = [rung for rung in present if widest[rung] <= PRECISION]
    if precise:
        return precise[-1]
    sizes = size.groupby(table["rung"], sort=False, observed=True).sum()
    return [rung for rung in present if sizes[rung] >= sizes.max() / 2][-1]


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _listing(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _per_hundred(points: float, more: str, fewer: str) -> str:
    """A win-rate difference (a fraction) as games in 100."""
    count = round(abs(100 * points))
    if count == 0:
        return f"slightly {more if points > 0 else fewer}"
    return f"about {count} {more if points > 0 else fewer} win{'s' if count != 1 else ''} in 100 games"


# =============================================================================
# Policy: arms of the same player on the same deals
# =============================================================================
def _policy_clauses(question: Question, rows: pd.DataFrame, numbers: bool) -> list[str]:
    """The comparisons of `rows` (one player's) in words, grouped by the arm they are measured against, then by
    verdict: "holding at 25 wins more often than holding at 20 (about 1 more win in 100 games)"."""
    clauses = []
    for arm_b, group in rows.groupby("arm_b", sort=False):
        against = question.arm(str(arm_b)).words
        parts = []
        for verdict, how in ((stats.VERDICTS[0], "more often"), (stats.VERDICTS[1], "less often"),
                             (stats.VERDICTS[2], "about as often")):
            chosen = group[group["win_verdict"] == verdict]
            if chosen.empty:
                continue
            arms = [question.arm(str(a)).words for a in chosen["arm_a"]]
            size = (f" ({_per_hundred(chosen['win_diff'].iloc[0], 'more', 'fewer')})"
                    if numbers and len(arms) == 1 and verdict != stats.VERDICTS[2] else "")
            parts.append(f"{_listing(arms)} win{'s' if len(arms) == 1 else ''} {how}{size}")
        if len(parts) == 1 and len(group) == 1:
            clauses.append(f"{parts[0]} {'as' if parts[0].endswith('about as often') else 'than'} {against}")
        else:
            clauses.append(f"against {against}, " + "; ".join(parts))
    return clauses


def policy_lead(question: Question, table: pd.DataFrame, rungs: Sequence[str], robust: pd.DataFrame) -> Lead:
    rung = strongest_precise(table, rungs)
    rows = table[table["rung"] == rung]
    player = plain_player(str(rows["player"].iloc[0]))
    clauses = _policy_clauses(question, rows, numbers=True)
    verdict, more = f"For {player}, {'; '.join(clauses)}.", ""
    if len(verdict.split()) > MAX_VERDICT_WORDS:
        clauses = _policy_clauses(question, rows, numbers=False)
        verdict = f"For {player}, {'; '.join(clauses)}."
    if len(verdict.split()) > MAX_VERDICT_WORDS and len(clauses) > 1:   # the first arm compared first, the rest after
        verdict, more = f"For {player}, {clauses[0]}.", _capital("; ".join(clauses[1:])) + ". "
    differ = []
    for label in rungs:
        other = table[table["rung"] == label]
        if label == rung or other.empty:
            continue
        if list(other["win_verdict"]) != list(rows["win_verdict"]):
            differ.append(f"for {plain_player(str(other['player'].iloc[0]))}, "
                          f"{'; '.join(_policy_clauses(question, other, numbers=False))}")
    strength = _strength_sentence(len(rungs), differ)
    reference = {row["comparison"]: row["win_verdict"] for _, row in table[table["rung"] == rungs[0]].iterrows()}
    invented = invented_sentence(question, robust, "win_verdict", ("comparison",), reference,
                                 plain_player(question.vocabulary.rung(rungs[0]).words))
    return Lead(_capital(verdict), more + strength, invented=invented)


def _strength_sentence(measured: int, differ: Sequence[str]) -> str:
    if measured == 1:
        return "Only this player was measured."
    if not differ:
        return "Every other player measured comes to the same verdict."
    return "Other players differ: " + "; ".join(differ[:2]) + "."


# =============================================================================
# Choice: how often an option is the best move, or how often it is taken
# =============================================================================
def _how_often(share: float, high: float) -> str:
    if high < 0.01:
        return "No"
    if share < 0.10:
        return "Rarely"
    return "Sometimes" if share < 0.5 else "Usually"


LEVEL_WORDS = {"better": "beats the best other move", "worse": "costs winning chances",
               "no detectable difference": "is level with the best other move"}
AGAINST_WORDS = {"better": "; on average it beats the best other move",
                 "worse": "; on average it costs winning chances", "no detectable difference": ""}


def judged_choice_lead(question: Question, summary: pd.DataFrame, rungs: Sequence[str], option_words: str,
                       robust: pd.DataFrame, group: str | None = None) -> Lead:
    """`summary`: the `choice_verdicts` table of one group by rung."""
    rung = strongest_precise(summary, rungs, "best_ci")
    row = summary[summary["rung"] == rung].iloc[0]
    player = plain_player(str(row["player"]))
    verdict = (f"{_how_often(row['best_share'], row['best_ci'][1])}: {option_words} is the best move in "
               f"{row['best_share']:.0%} of the decisions where {player} could take it{AGAINST_WORDS[row['verdict']]}.")
    differ = [f"for {plain_player(str(other['player']))} it is the best move in {other['best_share']:.0%} and on "
              f"average {LEVEL_WORDS[other['verdict']]}"
              for _, other in summary[summary["rung"] != rung].iterrows()
              if (_how_often(other["best_share"], other["best_ci"][1]), other["verdict"])
              != (_how_often(row["best_share"], row["best_ci"][1]), row["verdict"])]
    strength = _strength_sentence(summary["rung"].nunique(), differ)
    own = summary[summary["rung"] == rungs[0]]
    reference = {(): own["verdict"].iloc[0]} if len(own) else {}
    rows = robust[robust["group"] == group] if group is not None and "group" in robust else robust
    invented = invented_sentence(question, rows, "verdict", (), reference,
                                 plain_player(question.vocabulary.rung(rungs[0]).words), what="its advantage")
    return Lead(verdict, strength, invented=invented)


def counted_choice_lead(question: Question, summary: pd.DataFrame, rungs: Sequence[str], option_words: str) -> Lead:
    """`summary`: how often each rung took the option where it could (`taken_share`, `ci_low`, `ci_high`)."""
    rung = strongest_precise(summary, rungs, "ci_low", "ci_high")
    row = summary[summary["rung"] == rung].iloc[0]
    verdict = (f"{_how_often(row['taken_share'], row['ci_high'])}: {plain_player(str(row['player']))} takes "
               f"{option_words} in {row['taken_share']:.0%} of the decisions where it could.")
    others = summary[summary["rung"] != rung]
    strength = ("Only this player was measured." if others.empty else
                "The others take it in " + _listing([f"{r['taken_share']:.0%} ({plain_player(str(r['player']))})"
                                                      for _, r in others.iterrows()]) + ".")
    return Lead(verdict, strength)


# =============================================================================
# Gift: what one more of something is worth
# =============================================================================
def _rounds_words(rounds: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> "rounds 1 to 3 and 5"; [1, 2, 4] -> "rounds 1, 2 and 4"."""
    spans: list[list[int]] = []
    for r in sorted(rounds):
        if spans and r == spans[-1][-1] + 1:
            spans[-1].append(r)
        else:
            spans.append([r])
    words = [item for s in spans for item in ([str(r) for r in s] if len(s) <= 2 else [f"{s[0]} to {s[-1]}"])]
    return ("round " if len(rounds) == 1 else "rounds ") + _listing(words)


def gift_round_lead(question: Question, table: pd.DataFrame, rungs: Sequence[str], robust: pd.DataFrame,
                    edit_words: str, unit: str) -> Lead:
    """`table`: the gift's effects by rung and round."""
    rung = strongest_precise(table, rungs)
    rows = table[table["rung"] == rung]
    player = plain_player(str(rows["player"].iloc[0]))
    verdict = _gift_round_verdict(rows, edit_words, unit, player)
    differ = []
    for label in rungs:
        other = table[table["rung"] == label]
        if label != rung and len(other) and _gains(other) != _gains(rows):
            gained = _gains(other)
            differ.append(f"for {plain_player(str(other['player'].iloc[0]))} it raises the final score in "
                          + (_rounds_words(gained[0]) if gained[0] else "no round"))
    reference = {int(r["round"]): r["vp_verdict"] for _, r in table[table["rung"] == rungs[0]].iterrows()}
    invented = invented_sentence(question, robust, "vp_verdict", ("round",), reference,
                                 plain_player(question.vocabulary.rung(rungs[0]).words), what="its value by round")
    return Lead(verdict, _strength_sentence(len(set(table["rung"])), differ), invented=invented)


def _gains(rows: pd.DataFrame) -> tuple[list[int], list[int]]:
    return ([int(r) for r in rows.loc[rows["vp_verdict"] == stats.VERDICTS[0], "round"]],
            [int(r) for r in rows.loc[rows["vp_verdict"] == stats.VERDICTS[1], "round"]])


def _gift_round_verdict(rows: pd.DataFrame, edit_words: str, unit: str, player: str) -> str:
    gains, losses = _gains(rows)
    if not gains and not losses:
        return f"No: {edit_words} makes no measurable difference to the final score of {player} in any round."
    by_round = {int(r["round"]): float(r["vp_diff"]) for _, r in rows.iterrows()}
    parts = []
    if gains:
        first, last = min(gains), max(gains)
        size = (f"{by_round[first]:+.1f} {unit} in round {first}" if first == last else
                f"from {by_round[first]:+.1f} {unit} in round {first} to {by_round[last]:+.1f} in round {last}")
        parts.append(f"raises the final score of {player} when gained in {_rounds_words(gains)} ({size})")
    if losses:
        parts.append(f"lowers it in {_rounds_words(losses)}")
    lead = "Yes" if gains and not losses else "It depends" if gains else "No"
    return f"{lead}: {edit_words} " + " but ".join(parts) + "."


def gift_kind_lead(question: Question, table: pd.DataFrame, rungs: Sequence[str], robust: pd.DataFrame,
                   edit_words: str, kind_words: str, unit: str) -> Lead:
    """`table`: the family's effects by rung and kind, pooled over rounds."""
    rung = strongest_precise(table, rungs)
    rows = table[table["rung"] == rung]
    player = plain_player(str(rows["player"].iloc[0]))
    gains = rows[rows["vp_verdict"] == stats.VERDICTS[0]]
    losses = rows[rows["vp_verdict"] == stats.VERDICTS[1]]
    if gains.empty and losses.empty:
        verdict = f"No: for {player}, no {kind_words} makes a measurable difference to the final score."
    else:
        top = gains.sort_values("vp_diff", ascending=False).iloc[0] if len(gains) else None
        verdict = (f"{'Yes' if losses.empty else 'It depends'}: for {player}, {len(gains)} of the {len(rows)} "
                   f"{kind_words}s raise the final score"
                   + (f", {top['kind']} most ({top['vp_diff']:+.1f} {unit})" if top is not None else "")
                   + (f", and {len(losses)} lower it" if len(losses) else "") + ".")
    differ = []
    for label in rungs:
        other = table[table["rung"] == label]
        if label != rung and len(other):
            count = int((other["vp_verdict"] == stats.VERDICTS[0]).sum())
            if count != len(gains):
                differ.append(f"for {plain_player(str(other['player'].iloc[0]))}, {count} of them do")
    reference = {str(r["kind"]): r["vp_verdict"] for _, r in table[table["rung"] == rungs[0]].iterrows()}
    invented = invented_sentence(question, robust, "vp_verdict", ("kind",), reference,
                                 plain_player(question.vocabulary.rung(rungs[0]).words),
                                 what=f"the value of each {kind_words}")
    return Lead(verdict, _strength_sentence(len(set(table["rung"])), differ), invented=invented)


# =============================================================================
# Setup: the places in the turn order
# =============================================================================
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _places(rows: pd.DataFrame) -> list[str]:
    off = rows[rows["verdict"] != "no detectable difference"]
    return [f"moving {ORDINALS.get(int(r['turn_order']), str(r['turn_order']))} with {r['setup']} wins "
            f"{r['win_rate']:.0%} of games against a fair {r['fair_share']:.0%}" for _, r in off.iterrows()]


def _more_places(count: int) -> str:
    if count == 0:
        return ""
    return f" (and {count} more place{'s are' if count > 1 else ' is'} off {'their' if count > 1 else 'its'} share)"


def setup_lead(question: Question, table: pd.DataFrame, rungs: Sequence[str], between: pd.DataFrame,
               robust: pd.DataFrame) -> Lead:
    rung = strongest_precise(table, rungs, "ci_low", "ci_high")
    rows = table[table["rung"] == rung]
    player = plain_player(str(rows["player"].iloc[0]))
    places = _places(rows)
    if len(between):
        chosen = between[between["rung"] == rung]
        differ_setups = bool(len(chosen)) and chosen["verdict"].iloc[0].startswith("the seats' chances differ")
        setups = _listing(list(dict.fromkeys(rows["setup"])))
        verdict = (f"{'Yes' if differ_setups else 'No'}: for {player}, {setups} "
                   f"{'spread' if differ_setups else 'do not measurably differ in how they spread'} the chances "
                   f"over the turn order{' differently' if differ_setups else ''}.")
    elif places:
        shown = places if len(" ".join(places).split()) <= MAX_VERDICT_WORDS - 5 else places[:1]
        verdict = f"Yes: for {player}, " + "; ".join(shown) + "."
    else:
        verdict = (f"No: for {player}, no place in the turn order wins more or less often than its fair share "
                   f"({_listing(list(dict.fromkeys(rows['setup'])))}).")
    differ = []
    for label in rungs:
        other = table[table["rung"] == label]
        if label != rung and len(other) and list(other["verdict"]) != list(rows["verdict"]):
            found = _places(other)
            differ.append(f"for {plain_player(str(other['player'].iloc[0]))}, "
                          + (found[0] + _more_places(len(found) - 1) if found else "no place is off its fair share"))
    strength = _strength_sentence(table["rung"].nunique(), differ)
    if len(between) and places:
        strength = f"{_capital(places[0])}{_more_places(len(places) - 1)}. {strength}"
    reference = {(str(r["setup"]), int(r["turn_order"])): r["verdict"]
                 for _, r in table[table["rung"] == rungs[0]].iterrows()}
    invented = invented_sentence(question, robust, "verdict", ("setup", "turn_order"), reference,
                                 plain_player(question.vocabulary.rung(rungs[0]).words),
                                 what="which places are off their fair share")
    return Lead(verdict, strength, invented=invented)


# =============================================================================
# The INVENTED values
# =============================================================================
def invented_sentence(question: Question, robust: pd.DataFrame, verdict: str, keys: Sequence[str],
                      reference: Mapping[Any, Any], player: str, what: str = "the verdict") -> str:
    """How the verdicts move with the INVENTED values: in how many of the component variants played every verdict
    of `robust` (by `keys`) is the one of the question's own games (`reference`, the same player's as printed)."""
    invented = question.vocabulary.invented
    if not invented:
        return "No component value of this game is INVENTED, so there is nothing of that kind to vary."
    if robust.empty or "components" not in robust or (robust["components"] == AS_PRINTED).all():
        return f"Several component values are INVENTED; {NOT_VARIED}, so how it moves with them is not known."
    variants = robust[robust["components"] != AS_PRINTED]
    def key(row: pd.Series) -> object:
        values = tuple(row[k] for k in keys)
        return values[0] if len(values) == 1 else values

    own = robust[(robust["components"] == AS_PRINTED) & (robust["players"] == question.players)]
    if len(own):                 # the question's own games beside the variants, as many: the fairer reference
        reference = {key(row): row[verdict] for _, row in own.iterrows()}
    same: list[str] = []
    changed: list[str] = []
    for name, rows in variants.groupby("components", sort=False):
        agree = all(reference.get(key(row)) == row[verdict] for _, row in rows.iterrows())
        (same if agree else changed).append(str(name))
    held = f"{len(same)} of {len(same) + len(changed)}"
    tail = f"; it changes with {_listing(changed)}" if changed else ""
    return (f"With the INVENTED component values varied ({_listing(same + changed)}), {what} for {player} stays "
            f"the same in {held} variants{tail}.")


__all__ = ["MAX_VERDICT_WORDS", "Lead", "counted_choice_lead", "gift_kind_lead", "gift_round_lead",
           "invented_sentence", "judged_choice_lead", "plain_player", "policy_lead", "setup_lead",
           "strongest_precise"]
