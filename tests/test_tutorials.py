"""Runs every tutorial of docs/tutorials/ top to bottom in a fresh Python kernel, in a temporary directory: any
error in any cell fails the test (the tutorials are Markdown that jupytext reads as notebooks, nbclient runs)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext", reason="the tutorials need the test extra: pip install '.[test]'")
nbclient = pytest.importorskip("nbclient", reason="the tutorials need the test extra: pip install '.[test]'")

TUTORIALS = Path(__file__).resolve().parents[1] / "docs" / "tutorials"
CELL_TIMEOUT = 120          # seconds; a whole tutorial is meant to take under a minute on 2 cores


def tutorial_paths() -> list[Path]:
    return sorted(path for path in TUTORIALS.glob("*.md") if path.name != "index.md")


def test_every_tutorial_is_listed_on_the_tutorials_page() -> None:
    index = (TUTORIALS / "index.md").read_text(encoding="utf-8")
    missing = [path.name for path in tutorial_paths() if f"({path.name})" not in index]
    assert not missing, f"tutorials not linked from docs/tutorials/index.md: {missing}"


@pytest.mark.parametrize("path", tutorial_paths(), ids=lambda path: path.stem)
def test_tutorial_runs(path: Path, tmp_path: Path) -> None:
    notebook = jupytext.read(path)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code_cells, f"{path.name} has no Python code cell"
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    started = time.perf_counter()
    client.execute()                        # raises CellExecutionError naming the cell and the error
    print(f"{path.name}: {time.perf_counter() - started:.1f} s")
