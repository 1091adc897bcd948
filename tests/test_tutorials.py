"""Runs every tutorial of docs/tutorials/ top to bottom in a fresh Python kernel, in a temporary directory: any
error in any cell fails the test (the tutorials are Markdown that jupytext reads as notebooks, nbclient runs)."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext", reason="the tutorials need the test extra: pip install '.[test]'")
nbclient = pytest.importorskip("nbclient", reason="the tutorials need the test extra: pip install '.[test]'")
kernelspec = pytest.importorskip("ipykernel.kernelspec", reason="the tutorials need the test extra")
jupyter_client = pytest.importorskip("jupyter_client")

TUTORIALS = Path(__file__).resolve().parents[1] / "docs" / "tutorials"
KERNEL = "borabora-tutorials"
CELL_TIMEOUT = 120          # seconds for one cell
TUTORIAL_SECONDS = 60       # what a whole tutorial is meant to take on 2 cores; more is reported, not failed


def tutorial_paths() -> list[Path]:
    return sorted(path for path in TUTORIALS.glob("*.md") if path.name != "index.md")


@pytest.fixture(scope="session")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A kernel spec that runs this interpreter, so that the tutorials see the package these tests see."""
    directory = tmp_path_factory.mktemp("kernels")
    kernelspec.write_kernel_spec(directory / KERNEL)
    return directory


def test_every_tutorial_is_listed_on_the_tutorials_page() -> None:
    index = (TUTORIALS / "index.md").read_text(encoding="utf-8")
    missing = [path.name for path in tutorial_paths() if f"({path.name})" not in index]
    assert not missing, f"tutorials not linked from docs/tutorials/index.md: {missing}"


@pytest.mark.slow
@pytest.mark.parametrize("path", tutorial_paths(), ids=lambda path: path.stem)
def test_tutorial_runs(path: Path, tmp_path: Path, kernel_dir: Path) -> None:
    notebook = jupytext.read(path)
    assert any(cell.cell_type == "code" for cell in notebook.cells), f"{path.name} has no Python code cell"
    specs = jupyter_client.kernelspec.KernelSpecManager(kernel_dirs=[str(kernel_dir)])
    kernel = jupyter_client.KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    client = nbclient.NotebookClient(notebook, km=kernel, timeout=CELL_TIMEOUT,
                                     resources={"metadata": {"path": str(tmp_path)}})
    started = time.perf_counter()
    client.execute()                        # raises CellExecutionError naming the cell and the error
    seconds = time.perf_counter() - started
    if seconds > TUTORIAL_SECONDS:
        warnings.warn(f"{path.name} took {seconds:.0f} s, more than {TUTORIAL_SECONDS} s", stacklevel=1)
