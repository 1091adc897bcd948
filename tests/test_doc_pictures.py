"""The pictures of the README and the documentation (docs/pictures/, made from the code by docs/gen/pictures.py,
which the documentation build runs): each is up to date with what draws it, small, and shown by the pages that
should show it."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "pictures"
BOARDS = ["bora-bora.png", "bamboo.png", "pig.png"]
ALL = [*BOARDS, "replay.png", "web-play.png"]
# Each page and the pictures it shows: the board of each game, a replay and browser play.
SHOWN = {
    "README.md": ALL,
    "docs/index.md": ALL,
    "docs/viewer.md": [*BOARDS, "replay.png"],
    "docs/web_play.md": ["web-play.png"],
    "docs/tutorials/index.md": ["bora-bora.png"],
    "docs/tutorials/play_a_game.md": ["bora-bora.png"],
    "docs/tutorials/bamboo.md": ["bamboo.png"],
    "docs/pig.md": ["pig.png"],
}
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<path>[^)\s]+)\)")
MAX_BYTES = 80_000


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_pictures", ROOT / "docs" / "gen" / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module                 # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_picture_is_made_by_the_script() -> None:
    assert sorted(p.name for p in script().PICTURES) == sorted(ALL)
    assert sorted(path.name for path in FOLDER.glob("*.png")) == sorted(ALL)


@pytest.mark.slow
def test_the_pictures_show_what_the_code_draws_now() -> None:
    stale = script().out_of_date()
    assert not stale, (f"out of date with the code that draws them: {', '.join(stale)}; "
                       "`mkdocs build` or `python docs/gen/pictures.py` makes them again")


@pytest.mark.parametrize("name", ALL)
def test_a_picture_is_small(name: str) -> None:
    size = (FOLDER / name).stat().st_size
    assert 1_000 < size <= MAX_BYTES, f"docs/pictures/{name} has {size} bytes"


@pytest.mark.parametrize("page", sorted(SHOWN))
def test_a_page_shows_its_pictures(page: str) -> None:
    path = ROOT / page
    shown = {}
    for image in IMAGE.finditer(path.read_text(encoding="utf-8")):
        target = (path.parent / image["path"]).resolve()
        if target.parent == FOLDER:
            assert image["alt"].strip(), f"{page}: the picture {image['path']} has no alt text"
            assert target.is_file(), f"{page}: {image['path']} does not exist"
            shown[target.name] = image["alt"]
    missing = [name for name in SHOWN[page] if name not in shown]
    assert not missing, f"{page} does not show {missing}"
