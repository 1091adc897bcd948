"""The README's first screen says what the library is, gives the two commands (install and a simulation; the test
suite), a picture and how to play; the long player list and the figures live in the documentation, linked from it.
How long the set-up takes is stated in one place, the table of docs/install.md, and no other page states another
time for the test suite or the install."""

from __future__ import annotations

import re
from pathlib import Path

from test_figures_page import figures_page

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TIMINGS = ROOT / "docs" / "install.md"
FIRST_SCREEN = 30                       # lines: what a browser or a terminal shows before any scrolling
FIRST_COMMAND = "pip install . && borabora simulate --games 1000"
SECOND_COMMAND = 'pip install -e ".[test]" && pytest'
DURATION = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*(s|seconds?|min|minutes?)\b")
# A duration is taken as a statement of the suite's or the install's time when one of these words comes before it
# in the same sentence, clause or code comment.
KINDS = {"suite": ("suite",), "install": ("install", "first command")}
WINDOW = 160


def readme_lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def stated_timings() -> dict[str, float]:
    """The source's times in seconds, from the rows of docs/install.md's table: the first command and the suite."""
    seconds: dict[str, float] = {}
    for line in TIMINGS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not (match := DURATION.fullmatch(cells[1])):
            continue
        if cells[0].startswith(f"`{FIRST_COMMAND}`"):
            seconds["install"] = in_seconds(match)
        elif cells[0].startswith("`pytest` (the suite"):
            seconds["suite"] = in_seconds(match)
    return seconds


def in_seconds(match: re.Match[str]) -> float:
    value = float(match[1].replace(",", ""))
    return value * 60 if match[2].startswith("min") else value


def durations_stated(text: str) -> list[tuple[str, float, str]]:
    """Each (kind, seconds, context) where `text` states how long the suite or the install takes: the kind whose
    word comes last before the duration, in its sentence."""
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        for match in DURATION.finditer(flat):
            before = re.split(r"[.;#]\s", flat[max(0, match.start() - WINDOW):match.start()].casefold())[-1]
            last = {kind: max(before.rfind(word) for word in words) for kind, words in KINDS.items()}
            kind = max(last, key=lambda kind: last[kind])
            if last[kind] >= 0:
                found.append((kind, in_seconds(match), flat[max(0, match.start() - 80):match.end()]))
    return found


def test_the_readme_opens_with_the_two_commands() -> None:
    lines = readme_lines()
    fence = lines.index("```bash")
    assert [line for line in lines[:fence] if line.strip()] == ["# borabora_sim"]
    assert lines[fence + 1].startswith(FIRST_COMMAND + " ")
    assert lines[fence + 2].startswith(SECOND_COMMAND + " ")


def test_the_first_screen_says_what_it_is_shows_a_picture_and_how_to_play() -> None:
    screen = "\n".join(readme_lines()[:FIRST_SCREEN])
    assert "rules engines for Stefan Feld's board game *Bora Bora*" in screen
    assert re.search(r"^!\[[^\]]+\]?", screen, flags=re.MULTILINE), "no picture"
    assert re.search(r"^borabora play\s+#", screen, flags=re.MULTILINE)
    assert re.search(r"^borabora play --web\s+#", screen, flags=re.MULTILINE)


def test_the_player_list_and_the_figures_are_in_the_docs_and_linked() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "95% CI" not in readme, "a confidence interval in the README: the figures belong on the figures page"
    assert "rollout_depth`, `temperature`" not in readme, "the list of every player's options belongs in the docs"
    assert "](benchmarks/results/)" in readme and "](analysis/results/)" in readme, "the figures' results files"
    assert "](docs/players.md#every-player)" in readme
    figures = figures_page().figures_markdown()             # the page the site's build writes as figures.md
    assert "95% CI" in figures and "## What the studies found" in figures
    assert "\n## Every player\n" in (ROOT / "docs" / "players.md").read_text(encoding="utf-8")


def test_the_set_up_times_are_stated_once_and_nowhere_contradicted() -> None:
    source = stated_timings()
    assert set(source) == {"install", "suite"}, f"docs/install.md's table gives {source}"
    assert not durations_stated(README.read_text(encoding="utf-8")), "the README repeats a set-up time"
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    contradicted = [f"{page.relative_to(ROOT)}: {context!r} (docs/install.md: {source[kind]:.0f} s)"
                    for page in pages if page != TIMINGS
                    for kind, seconds, context in durations_stated(page.read_text(encoding="utf-8"))
                    if seconds != source[kind]]
    assert not contradicted, "\n".join(contradicted)
