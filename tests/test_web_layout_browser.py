"""`borabora play --web` on a laptop's screen, in headless Chromium (the `browser` of conftest.py): at 1366 x 768
and 1280 x 720 the board and the current decision's moves are in sight without scrolling (the moves docked at the
bottom of the window below a wide board, the board's things that pick a move scrolled into view), with no text
under 11 pixels; and a tab whose request was stale clears its error once it shows the position again.

Where Playwright is not installed or no Chromium can be started, these tests are skipped and say why."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ARTIFACTS, MIN_TEXT_PX, fullest, measure, open_page, pictured, sample

from borabora_sim.games import get_game
from borabora_sim.viewer.server import WebServer
from borabora_sim.viewer.web_game import WebGame

SETTLED = ("old => document.body.dataset.version !== old && document.body.dataset.turn !== 'ai'"
           " && !document.body.hasAttribute('data-busy')")


# What is in sight of the window: the first move of the list (whole, and not under anything), how much of the board
# is seen between the bar on top and the moves, and whether a thing of the board that picks a move is seen there.
IN_SIGHT = """() => {
  const height = window.innerHeight, top = document.getElementById("status").getBoundingClientRect().bottom;
  const docked = document.body.hasAttribute("data-stacked");
  const bottom = docked ? document.getElementById("moves").getBoundingClientRect().top : height;
  const board = document.querySelector("#board svg").getBoundingClientRect();
  const first = document.querySelector("#legal button").getBoundingClientRect();
  const hit = (box) => document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const firstHit = hit(first);
  const pickable = Array.from(document.querySelectorAll("#board .pickable")).filter((thing) => {
    const box = thing.getBoundingClientRect();
    const centre = box.top + box.height / 2;
    const seen = hit(box);
    return centre > top && centre < bottom && box.left + box.width / 2 < window.innerWidth && seen !== null
      && document.getElementById("board").contains(seen);
  });
  return {firstInWindow: first.top >= 0 && first.bottom <= height && first.left >= 0,
          firstUncovered: firstHit !== null && document.getElementById("legal").contains(firstHit),
          boardSeen: Math.min(board.bottom, bottom) - Math.max(board.top, top), band: bottom - top,
          pickables: document.querySelectorAll("#board .pickable").length, pickableSeen: pickable.length};
}"""


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[WebServer]:
    """A server of the game `request.param`: a name, shown as `fullest` says with a human against random players in
    every other seat, or (spec, seats)."""
    if isinstance(request.param, tuple):
        spec, seats = request.param
    else:
        spec, most = fullest(request.param)
        seats = ["human"] + ["random"] * (most - 1)
    server = WebServer(WebGame(get_game(spec), seats, 5))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def version(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.version"))


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)], ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("served", pictured("browser play shows its text"), indirect=True)
def test_the_board_and_the_moves_are_in_sight_on_a_laptop(browser: Any, served: WebServer,
                                                          size: tuple[int, int]) -> None:
    """Over the human's first decisions (each a move of the list picked at random): the first move is in the
    window and not covered, at least a third of the window shows the board, a thing of the board that picks a move
    is in sight whenever the decision has one, and no text is under 11 pixels; nothing is scrolled by hand."""
    width, height = size
    name = served.game.game.name
    things = list(sample(name, "CLICKABLE", "the things of its picture that pick a move"))
    page, errors = open_page(browser, width, height)
    try:
        page.goto(served.url + "?delay=0")
        page.wait_for_function("() => document.body.dataset.turn === 'human'")
        rng = random.Random(5)
        for decision in range(5):
            page.wait_for_timeout(100)              # the board is fitted, and scrolled to the decision
            where = f"{name} at {width}x{height}, decision {decision}"
            seen = page.evaluate(IN_SIGHT)
            assert seen["firstInWindow"] and seen["firstUncovered"], (where, seen)
            assert seen["boardSeen"] >= height / 3, (where, seen)
            assert seen["pickableSeen"] > 0 or seen["pickables"] == 0, (where, seen)
            measured = measure(page, things)
            assert measured["text"][0] >= MIN_TEXT_PX, (where, measured["text"])
            assert not measured["pageScrolls"], where
            if decision == 1:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"laptop_{name}_{width}x{height}.png"))
            moves = page.locator("#legal button")
            old = version(page)
            moves.nth(rng.randrange(moves.count())).click()
            page.wait_for_function(SETTLED, arg=old, timeout=20_000)
            if page.evaluate("document.body.dataset.turn") != "human":
                break
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("served", [("bora_bora", ["human", "human"])], indirect=True)
def test_a_stale_tab_clears_its_error_once_it_shows_the_game_again(browser: Any, served: WebServer) -> None:
    """A move made in a tab that shows an older position (another tab played meanwhile) is refused (409) and the
    tab loads the position again: the error goes once it shows it, though nothing else changes after."""
    page, errors = open_page(browser, 1700, 1100)
    try:
        page.goto(served.url + "?delay=0")
        page.wait_for_function("() => document.body.dataset.turn === 'human'")
        old = version(page)
        with served.lock:                       # another tab plays seat 0's move; seat 1, a human too, is next
            game = served.game
            game.move(game.version, game.state.current_player, game.state.legal_actions()[0])
        page.locator("#legal button").first.click()
        page.wait_for_function("old => document.body.dataset.version !== old"
                               " && !document.body.hasAttribute('data-busy')", arg=old)
        page.wait_for_timeout(200)
        assert not page.locator("#error").is_visible(), page.locator("#error").inner_text()
        assert version(page) == str(served.game.version)
        assert all("status of 409" in error for error in errors), errors     # the browser logs the refusal
    finally:
        page.close()
