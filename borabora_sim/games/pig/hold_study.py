"""What hold target wins most against "hold at 20"? (Pig, two players)

1. Each challenger, the heuristic holding at another turn total (the `hold20` style with its `hold_at` weight
changed) and the `keep_pace` style, plays two-player games against `heuristic:style=hold20`, seats rotating. The
same game seeds are played with `hold20` in both seats: game i of the two runs has the same seed and seats, so it
is a pair, and the die rolls the same numbers until the two players' choices part.
2. For each challenger, the paired difference of the win rate of its seat (exact McNemar test, Newcombe's
interval) and of its points (Wilcoxon signed-rank test, t interval), `borabora_sim.stats.paired_compare`; the
verdicts are corrected for the number of challengers with Holm's method (`borabora_sim.stats.paired_table`).
3. Every sentence of the answer is written from those corrected verdicts.

Run it with `borabora analyze hold --out DIR` (`--size quick|default|full`, `--jobs N`, `--seed N`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from borabora_sim import plots
from borabora_sim.experiments import simulate_arm
from borabora_sim.stats import interval_columns, paired_compare, paired_table
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section
from borabora_sim.verdicts import verdict_lines

BASELINE = "heuristic:style=hold20"


@dataclass(frozen=True)
class HoldStudy:
    """`games` paired games per challenger (hold targets `targets`, styles `styles`); `jobs` worker processes
    (-1: all cores), the tables the same whatever their number."""

    games: int = 20000
    targets: tuple[int, ...] = (15, 25, 30)
    styles: tuple[str, ...] = ("keep_pace",)
    jobs: int = -1
    seed: int = 11

    def __post_init__(self) -> None:
        if self.games < 2:
            raise ValueError(f"games must be at least 2, got {self.games}")
        if not self.targets and not self.styles:
            raise ValueError("a study needs a challenger: a hold target or a style")
        if self.jobs == 0 or self.jobs < -1:
            raise ValueError(f"jobs must be -1 (all cores) or at least 1, got {self.jobs}")

    def challengers(self) -> dict[str, str]:
        """Each challenger's label and player spec."""
        found = {f"hold at {t}": f"{BASELINE},w_hold_at={t}" for t in self.targets}
        return {**found, **{style: f"heuristic:style={style}" for style in self.styles}}


SIZES = {
    "quick": HoldStudy(games=40, targets=(25,), styles=(), jobs=1),
    "default": HoldStudy(),
    "full": HoldStudy(games=200000, targets=(10, 15, 18, 22, 25, 30)),
}


def sized(size: str, **overrides: Any) -> HoldStudy:
    """The study of size "quick" (a second), "default" (under a minute on 2 cores) or "full" (minutes), with
    `overrides` of its fields."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)


def comparisons(study: HoldStudy, progress: Callable[[int], object] = lambda done: None) -> pd.DataFrame:
    """The paired comparisons of every challenger with hold at 20, one row each, with Holm-corrected verdicts."""
    def arm(spec: str) -> pd.DataFrame:
        frame = simulate_arm([spec, BASELINE], study.games, study.seed, study.jobs, game="pig")
        progress(study.games)
        return frame

    base = arm(BASELINE)
    results = [paired_compare(arm(spec), base, focus=[0], label_a=spec, label_b=BASELINE)
               for spec in study.challengers().values()]
    return paired_table(results).assign(challenger=list(study.challengers()))


def _effect(row: pd.Series) -> str:
    lo, hi = row["win_diff_ci"]
    return (f"its seat wins {row['win_a']:.1%} of the games, {100 * row['win_diff']:+.1f} points against hold at 20 "
            f"in the same seat ({100 * row['confidence']:.0f}% CI {100 * lo:+.1f} to {100 * hi:+.1f}, Holm p = "
            f"{row['mcnemar_p_holm']:.3g})")


def answer(table: pd.DataFrame) -> list[str]:
    """The answer, sentence by sentence from the corrected win-rate verdicts of `table` (comparisons())."""
    tried = "the challenger" if len(table) == 1 else f"the {len(table)} challengers"
    better = table[table["win_verdict"] == "A better"].sort_values("win_diff", ascending=False)
    worse = table[table["win_verdict"] == "A worse"].sort_values("win_diff")
    even = table[table["win_verdict"] == "no detectable difference"]
    lines = []
    if len(better):
        best = better.iloc[0]
        lines.append(f"Of {tried}, {best['challenger']} wins most against hold at 20: {_effect(best)}, a gain "
                     f"detectable after Holm's correction over {tried}.")
        lines += [f"{row['challenger']} also wins more: {_effect(row)}." for _, row in better.iloc[1:].iterrows()]
    else:
        nobody = "the challenger does not" if len(table) == 1 else f"none of the {len(table)} challengers does"
        lines.append(f"Hold at 20 is not beaten at this size: {nobody} win detectably more often, after Holm's "
                     "correction.")
    lines += [f"{row['challenger']} wins less: {_effect(row)}, a detectable loss." for _, row in worse.iterrows()]
    lines += [f"No difference from hold at 20 is detectable for {row['challenger']}: {_effect(row)}."
              for _, row in even.iterrows()]
    return lines


COLUMNS = ("challenger", "games", "win_a", "win_b", "win_diff", "win_diff_ci", "mcnemar_p_holm", "win_verdict",
           "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p_holm", "vp_verdict")
FORMATS = {"win_a": ".1%", "win_b": ".1%", **dict.fromkeys(("win_diff", "win_diff_ci_low", "win_diff_ci_high"), "+.1%"),
           "vp_a": ".1f", "vp_b": ".1f", **dict.fromkeys(("vp_diff", "vp_diff_ci_low", "vp_diff_ci_high"), "+.2f"),
           "mcnemar_p_holm": ".3g", "wilcoxon_p_holm": ".3g"}


def run(study: HoldStudy, out: str | Path, log: Callable[[str], None] = print, progress: bool | None = None) -> Path:
    """Plays the games, writes `out`/hold_report.md with the table (CSV) and the forest plot (PNG) beside it and
    returns the report's path. A progress bar shows the time left (`progress`: True, False, or None for only on
    a terminal)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    log(f"hold study: {len(study.challengers())} challengers against hold at 20, {study.games} paired games each")
    with step_bar(study.games * (1 + len(study.challengers())), "hold targets", "game", progress) as bar:
        table = comparisons(study, progress=bar.update)
    flat = interval_columns(table[list(COLUMNS)])
    flat.to_csv(folder / "hold_comparisons.csv", index=False)
    plots.effect_plot(table, label_columns=["challenger"], title="challenger - hold at 20, same seats and seeds") \
        .savefig(folder / "hold_comparisons.png", dpi=110)
    steps = re.split(r"\n(?=\d\. )", (__doc__ or "").split("\n\n")[1])
    method = section("Method", *[" ".join(step.split()) for step in steps])
    text = "\n\n".join([
        "# What hold target wins most against hold at 20? (Pig)",
        f"Study settings: `{asdict(study)}`.",
        section("Answer", answer(table)),
        method,
        section("The comparisons", "Win rates and points of the challenger's seat (A) and of hold at 20 in that "
                "seat (B) over the same games; p-values Holm-corrected over the challengers, one family per effect.",
                markdown_table(flat, FORMATS, index=False),
                verdict_lines(table, label_columns=["challenger"]),
                "![challenger - hold at 20](hold_comparisons.png)"),
        f"Total run time: {time.perf_counter() - began:.0f} s.",
    ]) + "\n"
    report = folder / "hold_report.md"
    report.write_text(text, encoding="utf-8")
    log(f"report written to {report}")
    return report


__all__ = ["HoldStudy", "answer", "run", "sized"]
