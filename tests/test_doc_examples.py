"""Runs every ```python example of README.md and docs/*.md (the tutorials in docs/tutorials/ have tests of their own)
and parses every `borabora ...` line of their ```bash / ```sh examples with the command line's own parser, so that
an example that no longer runs, or names an option that is gone, fails here.

The blocks of one file run in order in one namespace (a later example may use what an earlier one made), in a
temporary directory of that file's own. A block that is deliberately not runnable (a signature, a sketch that needs
a package of the reader's) has the line `<!-- not executed: why -->` right before it, which the page shows in its
source; such a block is skipped here with that reason."""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from borabora_sim.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_EXECUTED = re.compile(r"^<!--\s*not executed:\s*(.+?)\s*-->$")
OPTIONAL = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium", "dask", "distributed"}   # the extras' modules


@dataclass(frozen=True)
class Block:
    path: Path
    line: int               # of the opening fence, 1-based
    language: str
    code: str
    skip_reason: str | None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    found, lines = [], path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        before = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        marker = NOT_EXECUTED.match(before)
        found.append(Block(path, index + 1, opening.group(1), "\n".join(lines[index + 1:end]) + "\n",
                           marker.group(1) if marker else None))
        index = end + 1
    return found


ALL = [block for path in FILES for block in blocks(path)]
PYTHON = [block for block in ALL if block.language == "python"]
SHELL = [block for block in ALL if block.language in ("bash", "sh")]


def command_lines() -> list[tuple[str, list[str]]]:
    """Every `borabora ...` command of the shell examples (also after `&&`), as (file:line, its arguments)."""
    found = []
    for block in SHELL:
        for offset, line in enumerate(block.code.splitlines(), start=1):
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words[:1] == ["borabora"]:
                    found.append((f"{block.path.relative_to(ROOT)}:{block.line + offset}", words[1:]))
    return found


@pytest.fixture(scope="module")
def namespaces(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, dict]:
    """Per file: its working directory, its namespace and how many of its blocks have run there."""
    return {path: {"dir": tmp_path_factory.mktemp(path.stem), "globals": {"__name__": "__doc_example__"}, "ran": 0}
            for path in FILES}


def test_the_docs_have_examples_to_run() -> None:
    assert any(block.path.name == "README.md" for block in PYTHON), "README.md has no ```python example"
    assert len(PYTHON) > 10 and command_lines(), "the collection found almost nothing: is the fence syntax changed?"


@pytest.mark.slow
@pytest.mark.parametrize("block", PYTHON, ids=lambda block: block.id)
def test_python_example_runs(block: Block, namespaces: dict[Path, dict], monkeypatch: pytest.MonkeyPatch) -> None:
    if block.skip_reason:
        pytest.skip(f"not executed: {block.skip_reason}")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    context = namespaces[block.path]
    monkeypatch.chdir(context["dir"])
    own = [b for b in PYTHON if b.path == block.path and not b.skip_reason]
    position = own.index(block)
    if context["ran"] != position:              # run alone (-k) or after a failure: rebuild what came before
        context["globals"], context["ran"] = {"__name__": "__doc_example__"}, 0
    try:
        for earlier in own[context["ran"]:position + 1]:
            padded = "\n" * earlier.line + earlier.code     # tracebacks name the line of the file
            exec(compile(padded, str(earlier.path.relative_to(ROOT)), "exec"), context["globals"])
            context["ran"] += 1
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in OPTIONAL:
            pytest.skip(f"needs an optional extra: {exc}")
        raise


def without_abbreviations(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser and its subcommands' parsers taking options by their full names only, so that an example naming
    an option that was renamed to a longer name fails rather than pass as an abbreviation."""
    parser.allow_abbrev = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                without_abbreviations(command)
    return parser


@pytest.mark.parametrize(("where", "arguments"), command_lines(), ids=[where for where, _ in command_lines()])
def test_command_line_example_parses(where: str, arguments: list[str]) -> None:
    parser = without_abbreviations(build_parser())
    try:
        _, unknown = parser.parse_known_args(arguments)
    except SystemExit as exc:
        pytest.fail(f"{where}: borabora {shlex.join(arguments)} is refused by the parser (exit {exc.code})")
    assert not unknown, f"{where}: unrecognized arguments {unknown}"
