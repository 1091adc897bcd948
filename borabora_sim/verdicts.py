"""Verdicts in words: one plain sentence per paired comparison, with its effects, the intervals that decide them and
whether each is detectable (the numbers and verdicts of `borabora_sim.stats.paired_table`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from borabora_sim.stats import PairedResult, paired_table


def verdict_lines(results: Sequence[PairedResult] | pd.DataFrame, label_columns: Sequence[str] | None = None,
                  alpha: float | None = None) -> list[str]:
    """One plain sentence per paired comparison: the win-rate and VP effects with intervals, and whether each is
    detectable, the comparisons given judged together (level `alpha`, default 0.05: simultaneous intervals, an
    effect detectable exactly when its interval excludes 0). Rows can be
    `PairedResult`s, a DataFrame of `dataclasses.asdict` rows, or a `paired_table` (whose verdicts are used as
    they are); extra columns named in `label_columns` label the sentence, by default "A vs B"."""
    table = _with_verdicts(results, alpha)
    lines = []
    for _, row in table.iterrows():
        if label_columns:
            label = ", ".join(str(row[c]) for c in label_columns)
        else:
            label = f"{row['label_a']} vs {row['label_b']}"
        (wlo, whi), (vlo, vhi) = row["win_diff_ci"], row["vp_diff_ci"]
        unit = row.get("unit", "VP")
        lines.append(
            f"{label}: win rate A - B {100 * row['win_diff']:+.1f} points ({100 * wlo:+.1f} to {100 * whi:+.1f}, "
            f"adjusted p = {row['win_p_adjusted']:.3g}): {row['win_verdict']}; mean {unit} A - B "
            f"{row['vp_diff']:+.2f} ({vlo:+.2f} to {vhi:+.2f}, adjusted p = {row['vp_p_adjusted']:.3g}): "
            f"{row['vp_verdict']}; {int(row['games']):,} paired games.")
    return lines


def _with_verdicts(results: Sequence[PairedResult] | pd.DataFrame, alpha: float | None) -> pd.DataFrame:
    """`results` itself when it is a `paired_table` at level `alpha` (or any level if None), else a new one."""
    if isinstance(results, pd.DataFrame) and "win_verdict" in results:
        if alpha is not None and len(results) and not np.allclose(results["alpha"], alpha):
            raise ValueError(f"the table's verdicts are at alpha = {results['alpha'].iloc[0]:g}, not {alpha:g}; "
                             "pass the comparisons themselves to judge them at another level")
        return results
    return paired_table(results, 0.05 if alpha is None else alpha)


__all__ = ["verdict_lines"]
