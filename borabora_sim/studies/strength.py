"""The words for how an effect moves along a ladder of players.

A strategy effect measured for one player says as much about that player's flaws as about the game: a perfect
player never gains from having an option taken away. The studies and questions therefore measure each effect for
players of rising strength (each game's rungs are in its `questions.py`, in the order of the ladder's ratings,
benchmarks/README_ladder.md), each in the studied seat against the same opponents, so that only the studied
player's strength changes; `across_strength` says whether the sign and the size of an effect hold along them.
"""

from __future__ import annotations

import pandas as pd

VERDICT_WORDS = {"A better": "detectably higher", "A worse": "detectably lower",
                 "no detectable difference": "not detectable"}


def across_strength(effects: pd.DataFrame, changes: pd.DataFrame, subject: str, metric: str = "win",
                    score_unit: str = "VP") -> list[str]:
    """Plain sentences on whether the sign and the size of one effect hold as the player gets stronger.

    `effects` holds the rows of one comparison of a `paired_table` with a `rung` column, weakest rung first;
    `changes` the rows of `stats.effect_changes` for the same comparison (each rung against the weakest; their
    `family` is the number of changes judged together, which may be more than these).
    Every claim comes from their verdicts, each read from its printed interval: a sign is named only where the
    effect is detectable,
    a change of size only where the change is. A score is counted in `score_unit` (the game's points)."""
    scale, unit = (100, "points") if metric == "win" else (1, score_unit)
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
        lines.append(f"Its size does not detectably change from its size for {reference} ({reference_effect:+.1f}) "
                     f"at any stronger rung ({int(changes['family'].iloc[0])} changes judged together; the widest "
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
                     f"({where}; {scale * lo:+.1f} to {scale * hi:+.1f}, adjusted p = "
                     f"{row['change_p_adjusted']:.2g})")
    rest = f"; not detectably different for {', '.join(still)}" if still else ""
    lines.append(f"Its size moves with strength: against {reference_effect:+.1f} {unit} for {reference}, "
                 f"it is {'; '.join(parts)}{rest}.")
    return lines


__all__ = ["VERDICT_WORDS", "across_strength"]
