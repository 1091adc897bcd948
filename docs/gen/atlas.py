"""Writes the Strategy atlas page (atlas.md) from the answered questions in analysis/results/: one line per
question with the first sentence of its answer (its summary's headline), how sure it is and a link to its report
(each report is a page of the site, docs/hooks/repo_links.py). The page is made when the site is built, so it
shows what the reports say."""

from __future__ import annotations

import json
from pathlib import Path

import mkdocs_gen_files

RESULTS = Path(__file__).resolve().parents[2] / "analysis" / "results"


def atlas_lines() -> list[str]:
    rows = []
    for path in sorted(RESULTS.glob("*/summary.json")):
        summary = json.loads(path.read_text(encoding="utf-8"))
        answer = summary["headline"].replace("|", "/")
        cpu = f"{summary['cpu_seconds']:,} s" if summary.get("cpu_complete", True) else "see the report"
        rows.append(f"| {summary['game']} | [{summary['title']}](atlas/{path.parent.name}.md) | {answer} | "
                    f"{summary['certainty']} | {cpu} |")
    return rows


HEADER = """# Strategy atlas

Questions players of these games argue about, each answered by the question engine
([Asking questions](questions.md)) at the default size: the question file is built in (`borabora ask --list`), the
report (answer, how sure, evidence, method, settings) is linked. The answer shown is the report's first sentence:
the verdict for the strongest player measured to the question's precision. Every answer holds for the players it
names, against the opponents it names; read the report before quoting it. `borabora ask NAME --out DIR`
reproduces a line.

| game | question | answer (its first sentence) | how sure | CPU |
| --- | --- | --- | --- | --- |
"""

with mkdocs_gen_files.open("atlas.md", "w") as page:
    page.write(HEADER + "\n".join(atlas_lines()) + "\n")
