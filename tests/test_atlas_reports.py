"""Every answered question of the atlas (analysis/results/*/report.md): no row of any table has a verdict that its
printed interval contradicts, and every Answer opens with a verdict a player reads in ten seconds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from borabora_sim.questions.lead import MAX_VERDICT_WORDS

RESULTS = Path(__file__).resolve().parents[1] / "analysis" / "results"
REPORTS = sorted(RESULTS.glob("*/report.md"))
INTERVAL = re.compile(r"\((?P<low>[-+]?[\d.]+)%? to (?P<high>[-+]?[\d.]+)%?\)")
ABOVE = ("A higher", "better", "advantage")
BELOW = ("A lower", "worse", "disadvantage")
NOTHING = ("not detectable", "no detectable difference")
STATISTICS_WORDS = ("Holm", "CI", " p ", "p =", "rollout", "heuristic", "rung", "interval", "significan")


def tables(text: str) -> list[list[dict[str, str]]]:
    """The Markdown tables of a report, each as its rows (header -> cell)."""
    found, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and set(lines[i + 1].replace("|", "").strip()) <= set("-: "):
            if i > 0 and lines[i - 1].startswith("|"):
                continue
            header = [cell.strip() for cell in line.strip("|").split("|")]
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(dict(zip(header, (cell.strip() for cell in row.strip("|").split("|")), strict=False)))
            found.append(rows)
    return found


def verdicts_with_intervals(row: dict[str, str]) -> list[tuple[str, float, float, float]]:
    """Each verdict of a row with the interval printed before it in the row and the value it is tested against
    (the fair share of a setup's place, else 0)."""
    pairs, interval = [], None
    # a fair share is one over the number of players: printed to a tenth of a point, read back whole
    reference = 100 / round(100 / float(row["fair share"].rstrip("%"))) if "fair share" in row else 0.0
    for header, cell in row.items():
        match = INTERVAL.search(cell)
        if match and "verdict" not in header and "fair share" not in header:
            interval = (float(match["low"]), float(match["high"]))
        if "verdict" in header and interval is not None:
            pairs.append((cell, *interval, reference))
    return pairs


def test_the_atlas_has_reports() -> None:
    assert len(REPORTS) >= 19


@pytest.mark.parametrize("report", REPORTS, ids=[r.parent.name for r in REPORTS])
def test_no_row_has_a_verdict_its_interval_contradicts(report: Path) -> None:
    checked = 0
    for table in tables(report.read_text()):
        for row in table:
            for verdict, low, high, reference in verdicts_with_intervals(row):
                checked += 1
                if verdict in NOTHING:
                    assert low <= reference <= high, (report.parent.name, row)
                elif verdict in ABOVE:
                    assert low > reference, (report.parent.name, row)
                elif verdict in BELOW:
                    assert high < reference, (report.parent.name, row)
    assert checked > 0, report


@pytest.mark.parametrize("report", REPORTS, ids=[r.parent.name for r in REPORTS])
def test_every_answer_opens_with_a_verdict_for_a_player(report: Path) -> None:
    headline = json.loads((report.parent / "summary.json").read_text())["headline"]
    answer = report.read_text().split("## Answer\n\n")[1].split("\n\n")[0]
    assert answer.startswith(headline)
    assert len(headline.split()) <= MAX_VERDICT_WORDS, headline
    assert not [word for word in STATISTICS_WORDS if word in headline], headline
    assert "INVENTED" in answer, answer
