"""The ladder of players a study measures its effects for, and the words for how an effect moves along it.

A strategy effect measured for one player says as much about that player's flaws as about the game: a perfect
player never gains from having an option taken away. The studies therefore measure each effect for players of
rising strength, the rungs below, each in the studied seat against three `balanced` heuristics (the same
opponents for every rung, so only the studied player's strength changes). Their order is that of the ladder's
ratings (benchmarks/README_ladder.md): balanced 0, tuned +112, learned +222, and MCTS with heuristic rollouts cut
off after 30 decisions, +311 at 300 iterations (the 100-iteration budget is not on the ladder); each study also
reports its own measure of every rung's strength, its win rate against the three heuristics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from borabora_sim import stats


@dataclass(frozen=True)
class Rung:
    """One player of the ladder: a short label for tables and its player spec (without action-kind settings)."""

    label: str
    spec: str

    @property
    def searches(self) -> bool:
        """Whether the player searches (costs milliseconds a decision, not microseconds)."""
        return self.spec.startswith(("mcts", "flatmc"))

    def with_options(self, **options: str) -> str:
        """The spec with more options, e.g. `fishing="never"`."""
        extra = ",".join(f"{key}={value}" for key, value in options.items())
        if not extra:
            return self.spec
        return f"{self.spec}{',' if ':' in self.spec else ':'}{extra}"


RUNGS = (
    Rung("heuristic", "heuristic"),
    Rung("tuned", "heuristic:style=tuned"),
    Rung("learned", "learned"),
    Rung("mcts100", "mcts:iterations=100,rollout=heuristic,rollout_depth=30"),
    Rung("mcts300", "mcts:iterations=300,rollout=heuristic,rollout_depth=30"),
)
RUNG_LABELS = tuple(rung.label for rung in RUNGS)
OPPONENT = "heuristic"              # the three other seats, whatever the rung
TARGET_HALF_WIDTH = 0.03            # the precision a study aims at for its strongest rung's win-rate effect


def rung(label: str) -> Rung:
    for candidate in RUNGS:
        if candidate.label == label:
            return candidate
    raise ValueError(f"unknown rung {label!r}; rungs: {', '.join(RUNG_LABELS)}")


def check_rungs(labels: Sequence[str]) -> tuple[str, ...]:
    """`labels` in ladder order, each a known rung named once, at least one; else an error naming the rungs."""
    unknown = [label for label in labels if label not in RUNG_LABELS]
    if unknown or not labels:
        raise ValueError(f"rungs must name one or more of {', '.join(RUNG_LABELS)}; got {list(labels)}")
    repeated = [label for label in RUNG_LABELS if list(labels).count(label) > 1]
    if repeated:
        raise ValueError(f"rungs must name each rung once, got {', '.join(repeated)} more than once in {list(labels)}")
    return tuple(label for label in RUNG_LABELS if label in labels)


def rung_players(label: str, players: int, **options: str) -> list[str]:
    """The studied player of rung `label` (with `options`) in the first position, then the opponents."""
    return [rung(label).with_options(**options)] + [OPPONENT] * (players - 1)


def strength_row(label: str, wins: int, games: int) -> dict[str, object]:
    """A rung's measured strength: its win rate against the three heuristics with the Wilson 95% interval."""
    lo, hi = stats.wilson_interval(wins, games)
    return {"rung": label, "spec": rung(label).spec, "games": games, "win_rate": wins / games if games else 0.0,
            "ci_low": lo, "ci_high": hi}


VERDICT_WORDS = {"A better": "detectably higher", "A worse": "detectably lower",
                 "no detectable difference": "not detectable"}


def across_strength(effects: pd.DataFrame, changes: pd.DataFrame, subject: str, metric: str = "win") -> list[str]:
    """Plain sentences on whether the sign and the size of one effect hold as the player gets stronger.

    `effects` holds the rows of one comparison of a `paired_table` with a `rung` column, weakest rung first;
    `changes` the rows of `stats.effect_changes` for the same comparison (each rung against the weakest; their
    `holm_family` is the number of changes the correction ran over, which may be more than these).
    Every claim comes from their Holm-corrected verdicts: a sign is named only where the effect is detectable,
    a change of size only where the change is."""
    scale, unit = (100, "points") if metric == "win" else (1, "VP")
    verdict = effects[f"{metric}_verdict"]
    listing = ", ".join(f"{label} {scale * effect:+.1f} ({VERDICT_WORDS[word]})" for label, effect, word
                        in zip(effects["rung"], effects[f"{metric}_diff"], verdict, strict=True))
    lines = [f"{subject}, from the weakest player to the strongest ({unit}): {listing}."]
    detectable = effects[verdict != "no detectable difference"]
    silent = effects.loc[verdict == "no detectable difference", "rung"].tolist()
    signs = list(dict.fromkeys(detectable[f"{metric}_verdict"]))          # in rung order
    if not signs:
        lines.append("No rung shows a detectable effect, so neither its sign nor its size can be said to hold.")
        return lines
    if len(signs) == 1:
        rest = f"; not detectable for {', '.join(silent)}" if silent else ""
        lines.append(f"Its sign holds as strength rises: wherever it is detectable it is "
                     f"{VERDICT_WORDS[signs[0]].split()[1]} ({len(detectable)} of {len(effects)} rungs{rest}).")
    else:
        by_sign = {sign: detectable.loc[detectable[f"{metric}_verdict"] == sign, "rung"].tolist() for sign in signs}
        lines.append("Its sign does not hold as strength rises: "
                     + "; ".join(f"{VERDICT_WORDS[sign]} for {', '.join(rungs)}" for sign, rungs in by_sign.items())
                     + ".")
    if changes.empty:
        return lines
    reference, reference_effect = changes["reference"].iloc[0], scale * changes["reference_effect"].iloc[0]
    moved = changes[changes["change_verdict"] != "no detectable change"]
    still = changes.loc[changes["change_verdict"] == "no detectable change", "rung"].tolist()
    if moved.empty:
        widest = max(scale * (hi - lo) / 2 for lo, hi in changes["change_ci"])
        lines.append(f"Its size does not detectably change from the {reference} player's ({reference_effect:+.1f}) "
                     f"at any stronger rung (Holm over {int(changes['holm_family'].iloc[0])} changes; the widest "
                     f"interval of a change is +/- {widest:.1f} {unit}).")
        return lines
    parts = []
    for _, row in moved.iterrows():
        lo, hi = row["change_ci"]
        if row["effect"] * row["reference_effect"] < 0:
            where = "its estimate on the other side of zero"
        else:
            where = "closer to zero" if abs(row["effect"]) < abs(row["reference_effect"]) else "further from zero"
        parts.append(f"{row['change_verdict']} by {scale * abs(row['change']):.1f} {unit} for {row['rung']} "
                     f"({where}; 95% CI {scale * lo:+.1f} to "
                     f"{scale * hi:+.1f}, Holm p = {row['change_p_holm']:.2g})")
    rest = f"; not detectably different for {', '.join(still)}" if still else ""
    lines.append(f"Its size moves with strength: against the {reference} player's {reference_effect:+.1f} {unit}, "
                 f"it is {'; '.join(parts)}{rest}.")
    return lines


__all__ = ["RUNG_LABELS", "across_strength", "rung", "rung_players"]
