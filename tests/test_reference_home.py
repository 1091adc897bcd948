"""The API reference's home page (the package's page, written by docs/gen/reference.py) shows the public surface
first: `new_game`, then `State` with the members a program plays with (`legal_actions`, `apply`, `clone`, `scores`,
`winner`, ...), each with its docstring's summary, and the long component tables (`Components`) last; no special
name (`__new__`, `__doc__`) and none of what only the compiled search and the tests use (`step_random`)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from test_docs_site import site as built_site  # noqa: F401 (a fixture: the site built as CI builds it)

from borabora_sim import State

ROOT = Path(__file__).resolve().parents[1]
PLAYED_WITH = ["legal_actions", "apply", "clone", "scores", "winner"]
LEFT_OUT = ["step_random", "search_handles", "check_invariants"]


@pytest.fixture(scope="module")
def home_markdown(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Markdown the generator writes for the home page, written into a scratch directory."""
    pytest.importorskip("mkdocs_gen_files", reason="the documentation tools are not installed: "
                                                   "pip install -e '.[test]'")
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files
    from mkdocs_gen_files.editor import FilesEditor

    out = tmp_path_factory.mktemp("generated")
    config = load_config(str(ROOT / "mkdocs.yml"))
    with FilesEditor(Files([]), config, str(out)):
        runpy.run_path(str(ROOT / "docs" / "gen" / "reference.py"))
    return (out / "reference" / "borabora_sim" / "index.md").read_text(encoding="utf-8")


def shown_names(markdown: str) -> list[str]:
    """The names the page documents, in its order (one mkdocstrings directive each)."""
    return re.findall(r"^::: borabora_sim\.(\w+)$", markdown, flags=re.MULTILINE)


def test_the_home_page_starts_with_new_game_and_state_and_ends_with_the_component_tables(home_markdown: str) -> None:
    import borabora_sim

    names = shown_names(home_markdown)
    assert names[:2] == ["new_game", "State"]
    assert names[-1] == "Components"
    assert sorted(names) == sorted(borabora_sim.__all__), "each public name once"


def test_state_on_the_home_page_lists_what_a_program_plays_with_and_leaves_the_internals_out(
        home_markdown: str) -> None:
    listed = re.search(r"^::: borabora_sim\.State\n(?:      .*\n|    .*\n)*?      members: \[(.*)\]$", home_markdown,
                       flags=re.MULTILINE)
    assert listed is not None, "State's members are not listed"
    members = [name.strip() for name in listed[1].split(",")]
    assert set(PLAYED_WITH) <= set(members)
    assert not set(LEFT_OUT) & set(members)
    assert not [name for name in members if name.startswith("_")]
    for name in members:
        summary = (getattr(State, name).__doc__ or "").strip()
        assert summary, f"State.{name} is on the home page without a docstring"


@pytest.mark.slow
def test_the_built_home_page_shows_the_surface_first_and_no_special_or_internal_name(
        request: pytest.FixtureRequest) -> None:
    site: Path = request.getfixturevalue("built_site")
    page = (site / "reference" / "borabora_sim" / "index.html").read_text(encoding="utf-8")
    anchors = re.findall(r'<h[1-6] id="borabora_sim\.([\w.]+)"', page)
    assert anchors[:2] == ["new_game", "State"]
    order = {name: i for i, name in enumerate(anchors)}
    first_field = min(i for name, i in order.items() if name.startswith("Components."))
    for name in PLAYED_WITH:
        assert order[f"State.{name}"] < order["IllegalActionError"] < first_field
        summary = (getattr(State, name).__doc__ or "").strip().splitlines()[0]
        assert summary.split("(")[0].split("`")[0][:40] in page.replace("<code>", "").replace("</code>", "")
    assert not [name for name in anchors if "__" in name or name.rsplit(".", 1)[-1] in LEFT_OUT]
