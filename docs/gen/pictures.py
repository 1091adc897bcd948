"""The pictures of the README and the documentation (docs/pictures/), made from the code: the board of each game
drawn by `borabora_sim.viewer.to_png`, and screenshots of a replay page (`borabora replay --html`) and of browser
play (`borabora play --web`) taken in a headless Chromium.

Each picture is kept with the digest of what it was made from (`pictures.json` beside them: the picture's SVG, or
the page and the position shown, and how it is drawn). The documentation build runs `refresh()` before it reads
the pages (docs/hooks/pictures.py), and makes again every picture whose digest changed, so a picture never shows
an old board or page; tests/test_doc_pictures.py fails while one does. Run by hand:

    python docs/gen/pictures.py            # make the pictures that changed
    python docs/gen/pictures.py --check    # exit status 1 when one is out of date

The boards need cairosvg (the png extra), the screenshots Playwright and a Chromium (the test extra; the system's
`chromium`, or the one BORABORA_CHROMIUM names). Where one is missing, the pictures it makes are kept as they are
and the build says so. Pictures are made at 0.75 of their size (the screenshots of a 1920 x 1080 window, where the
side panels stand beside the board) with a palette of 64 colours, so each is a few tens of KB."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "pictures"
MANIFEST = FOLDER / "pictures.json"
COLOURS = 64                    # the palette of every picture
VIEWPORT = {"width": 1920, "height": 1080}     # a window wide enough for the side panels beside the board
SCALE = 0.75                    # pixels of a picture per unit of a board, per pixel of the window


@dataclass(frozen=True)
class Source:
    """What a picture is made from: its digest, and how to make it (given a headless browser, or None)."""

    digest: str
    make: Callable[[Any], bytes]
    needs: str                  # "cairosvg" or "browser"


@dataclass(frozen=True)
class Picture:
    name: str                   # the file in docs/pictures/
    shows: str                  # what it shows, in words
    source: Callable[[], Source]


def _digest(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def small_png(png: bytes) -> bytes:
    """`png` with its colours reduced to a palette of COLOURS, compressed as far as it goes."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=COLOURS, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def position(spec: str, seed: int, players: list[str], decisions: int) -> Any:
    """The state of the game `spec` dealt from `seed` after the first `decisions` moves of the game those players
    play (`borabora replay --seed SEED --players ...` shows the same game)."""
    from borabora_sim.games import get_game
    from borabora_sim.viewer import record_game

    record = record_game(seed, players, game=spec, reasons=0)
    state = get_game(spec).new_initial_state(players=len(players), seed=seed)
    for action in record.actions[:decisions]:
        state.apply(action)
    return state


def board(spec: str, seed: int, players: list[str], decisions: int) -> Callable[[], Source]:
    """The public picture of a position (`to_png(state)`)."""

    def source() -> Source:
        from borabora_sim.viewer import to_svg
        from borabora_sim.viewer.png import svg_to_png

        svg = to_svg(position(spec, seed, players, decisions))
        return Source(_digest("board", svg, str(COLOURS), str(SCALE)),
                      lambda _browser: small_png(svg_to_png(svg, SCALE)), "cairosvg")

    return source


def replay_screenshot(seed: int, players: list[str], decision: int) -> Callable[[], Source]:
    """The replay page of a game (`borabora replay --html`), opened at one decision."""

    def source() -> Source:
        from borabora_sim.viewer import record_game, replay_page

        page = replay_page(record_game(seed, players))

        def make(browser: Any) -> bytes:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "replay.html"
                path.write_text(page, encoding="utf-8")
                tab = browser.new_page(viewport=VIEWPORT, device_scale_factor=SCALE)
                tab.goto(f"{path.as_uri()}#decision={decision}")
                tab.wait_for_function(f"document.getElementById('slider').value === '{decision}'")
                shot: bytes = tab.screenshot()
                tab.close()
            return small_png(shot)

        return Source(_digest("replay", page, str(decision), json.dumps(VIEWPORT), str(COLOURS), str(SCALE)), make,
                      "browser")

    return source


def web_screenshot(players: list[str], seed: int, human_moves: int, height: int) -> Callable[[], Source]:
    """Browser play (`borabora play --web`): the game after the human seat's first `human_moves` decisions (each
    the first move of its list) and the AI seats' answers, the human to move."""

    def source() -> Source:
        from borabora_sim.games import get_game
        from borabora_sim.viewer.web_game import WebGame
        from borabora_sim.viewer.web_page import page_html

        game = WebGame(get_game(), players, seed)
        played = 0
        while played < human_moves or not game.human_to_move():
            if game.human_to_move():
                game.move(game.version, game.state.current_player, game.state.legal_actions()[0])
                played += 1
            else:
                game.step(game.version)
        view = json.dumps(game.view(), sort_keys=True)

        def make(browser: Any) -> bytes:
            from borabora_sim.viewer.server import WebServer

            server = WebServer(game)
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
            try:
                tab = browser.new_page(viewport={"width": VIEWPORT["width"], "height": height},
                                       device_scale_factor=SCALE)
                tab.goto(server.url)
                tab.wait_for_function("document.body.dataset.turn === 'human'"
                                      " && !document.body.hasAttribute('data-busy')"
                                      " && document.querySelectorAll('#legal button').length > 0")
                shot: bytes = tab.screenshot()
                tab.close()
            finally:
                server.shutdown()
                server.server_close()
            return small_png(shot)

        return Source(_digest("web", page_html(), view, str(height), str(VIEWPORT["width"]), str(COLOURS),
                              str(SCALE)), make, "browser")

    return source


REPLAYED = ["heuristic", "heuristic:fishing=never", "random", "random"]
PICTURES = (
    Picture("bora-bora.png", "a Bora Bora position of four players, as every player sees it",
            board("bora_bora", 7, REPLAYED, 150)),
    Picture("bamboo.png", "a Bamboo position of three players (advanced mode)",
            board("bamboo:mode=advanced", 7, ["heuristic", "heuristic", "random"], 60)),
    Picture("pig.png", "a Pig position of two players", board("pig", 3, ["heuristic", "heuristic"], 9)),
    Picture("replay.png", "the replay page of a 4-player game at decision 236",
            replay_screenshot(7, REPLAYED, 236)),
    Picture("web-play.png", "browser play: the human seat's decision, with its moves listed and marked on the board",
            web_screenshot(["human", "heuristic", "heuristic"], 11, 14, 900)),
)


# ---- refreshing ----------------------------------------------------------------------------------------------
def recorded() -> dict[str, str]:
    """The digest each picture was made from, as pictures.json records it."""
    return json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.exists() else {}


def out_of_date(sources: dict[str, Source] | None = None) -> list[str]:
    """The pictures that are missing or were made from something else than what they would be made from now."""
    sources = sources if sources is not None else {p.name: p.source() for p in PICTURES}
    kept = recorded()
    return [name for name, source in sources.items()
            if kept.get(name) != source.digest or not (FOLDER / name).is_file()]


def missing_tool(needs: str) -> str | None:
    """Why the pictures that need `needs` cannot be made here (None: they can)."""
    if needs == "cairosvg":
        try:
            from borabora_sim.viewer.png import check_png_support

            check_png_support()
        except Exception as error:          # the library says what to install
            return str(error).splitlines()[0]
        return None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    chromium = _chromium()
    if chromium is None or not Path(chromium).exists():
        return f"no Chromium{f' at {chromium}' if chromium else ''} (apt-get install chromium, or name one in " \
               "BORABORA_CHROMIUM)"
    return None


def _chromium() -> str | None:
    named = os.environ.get("BORABORA_CHROMIUM")
    return named or next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


@contextmanager
def _browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=_chromium())
        try:
            yield browser
        finally:
            browser.close()


def refresh(say: Callable[[str], None] = print) -> list[str]:
    """Makes again every picture that is out of date and can be made here; returns the names of those that are
    out of date and could not be made (each said with the reason)."""
    sources = {p.name: p.source() for p in PICTURES}
    stale = out_of_date(sources)
    if not stale:
        return []
    kept = recorded()
    left = []
    browser_stack: Any = None
    browser = None
    try:
        for name in stale:
            source = sources[name]
            reason = missing_tool(source.needs)
            if reason is not None:
                say(f"docs/pictures/{name} is out of date and cannot be made here: {reason}; the old one is kept")
                left.append(name)
                continue
            if source.needs == "browser" and browser is None:
                try:
                    browser_stack = _browser()
                    browser = browser_stack.__enter__()
                except Exception as error:      # a Chromium that does not start: say why, keep the old pictures
                    browser_stack = None
                    say(f"docs/pictures/{name} is out of date and cannot be made here: Chromium did not start "
                        f"({str(error).splitlines()[0]}); the old one is kept")
                    left.append(name)
                    continue
            picture = source.make(browser)
            FOLDER.mkdir(parents=True, exist_ok=True)
            (FOLDER / name).write_bytes(picture)
            kept[name] = source.digest
            MANIFEST.write_text(json.dumps(dict(sorted(kept.items())), indent=1) + "\n", encoding="utf-8")
            say(f"docs/pictures/{name}: made from the code ({len(picture) // 1024} KB)")
    finally:
        if browser_stack is not None:
            browser_stack.__exit__(None, None, None)
    return left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say which pictures are out of date")
    arguments = parser.parse_args()
    if arguments.check:
        stale = out_of_date()
        for name in stale:
            print(f"docs/pictures/{name} is out of date: python docs/gen/pictures.py makes it again")
        return 1 if stale else 0
    return 1 if refresh() else 0


if __name__ == "__main__":
    raise SystemExit(main())
