"""The documentation site works offline. It is built from this tree as CI builds it (`mkdocs build --strict`),
served from 127.0.0.1, and its pages are loaded in a headless Chromium (the `browser` of conftest.py): every
picture is shown, the search answers, and no request leaves 127.0.0.1 (no web font, script, style or picture from
elsewhere); nor does the built HTML, CSS or script name anything outside to load.

Skipped, saying why, where MkDocs is not installed or Python imports borabora_sim from elsewhere than this tree
(the API reference documents this tree: `pip install -e ".[test]"`)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCAL = "127.0.0.1"
PAGES = ["", "viewer/", "web_play/", "tutorials/", "tutorials/play_a_game/", "tutorials/bamboo/", "pig/",
         "reference/borabora_sim/simulate/", "reference/borabora_sim/", "reference/cli/"]
WITH_PICTURES = {"", "viewer/", "web_play/", "tutorials/", "tutorials/play_a_game/", "tutorials/bamboo/", "pig/"}
# What a page would load from elsewhere: a stylesheet, script, picture or frame with an absolute address, or a CSS
# import or url() of one.
LOADS_FROM_OUTSIDE = re.compile(
    r"<(?:link|script|img|iframe|source)\b[^>]*\b(?:href|src)=[\"'](?:https?:)?//(?!127\.0\.0\.1)"
    r"|@import\s+(?:url\()?[\"']?(?:https?:)?//|url\([\"']?(?:https?:)?//", re.IGNORECASE)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the documentation tools are not installed: pip install -e '.[test]'")
    import borabora_sim

    if Path(borabora_sim.__file__).resolve().parent != ROOT / "borabora_sim":
        pytest.skip(f"borabora_sim is imported from {Path(borabora_sim.__file__).parent}, not from this tree: "
                    "the site documents this tree (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "BORABORA_DOCS_PICTURES": "keep", "NO_MKDOCS_2_WARNING": "1",
           "DISABLE_MKDOCS_2_WARNING": "true"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr[-4000:]}"
    return out


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer((LOCAL, 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://{LOCAL}:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_built_site_names_nothing_outside_to_load(site: Path) -> None:
    found = []
    for path in sorted(site.rglob("*")):
        if path.suffix in (".html", ".css", ".js") and "repository" not in path.relative_to(site).parts:
            for match in LOADS_FROM_OUTSIDE.finditer(path.read_text(encoding="utf-8", errors="replace")):
                found.append(f"{path.relative_to(site)}: {match[0]}")
    assert not found, "\n".join(found[:20])


def test_no_request_leaves_127_0_0_1(browser: Any, served: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    requested: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        requested.append(url)
        if url.startswith(("data:", "blob:")) or urlsplit(url).hostname == LOCAL:
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    context.route("**/*", route)
    context.on("request", lambda request: None if urlsplit(request.url).hostname in (LOCAL, None)
               or request.url.startswith(("data:", "blob:")) or request.url in outside else outside.append(request.url))
    try:
        for path in PAGES:
            page = context.new_page()
            answer = page.goto(served + path, wait_until="networkidle")
            assert answer is not None and answer.ok, f"/{path}: {answer.status if answer else 'no answer'}"
            images = page.evaluate("Array.from(document.images).map(i => [i.getAttribute('src'),"
                                   " i.complete && i.naturalWidth > 0])")
            assert all(shown for _, shown in images), f"/{path}: pictures not shown: {images}"
            if path in WITH_PICTURES:
                assert any("pictures/" in (src or "") for src, _ in images), f"/{path} shows no picture"
            page.close()
        page = context.new_page()                       # the search: its index and worker come from the site too
        page.goto(served, wait_until="networkidle")
        page.keyboard.press("/")                        # Material's key for the search box
        page.locator("input.md-search__input").press_sequentially("simulate", delay=50)   # as typed: keys
        page.wait_for_selector(".md-search-result__item", timeout=20_000)
        page.close()
    finally:
        context.close()
    assert requested, "the route saw no request: is the site served?"
    assert not outside, f"requests left {LOCAL}: {sorted(set(outside))}"
