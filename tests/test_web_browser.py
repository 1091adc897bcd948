"""`borabora play --web` in a real browser: headless Chromium (the `browser` of conftest.py) driven by
Playwright plays a whole 2-player game against the heuristic through the page, by clicks on the board where a
move is marked there and on the list of moves otherwise, asks why an AI move was made and what the AI would do,
undoes a decision, and ends with the engine's final scores for the same seed and moves shown, with no console
error. At 1366 x 768 and 1920 x 1080 the page fits the board to the window for every game, with no text under 11
pixels and no click target (a thing marked on the board, a button) under 24. Screenshots of the pages are written
to tests/artifacts/ (not kept in git).

Where Playwright is not installed or no Chromium can be started, these tests are skipped and say why."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS, assert_readable, fullest, measure, open_page, pictured, sample, wide_picture

import borabora_sim
from borabora_sim.games import get_game
from borabora_sim.viewer.server import WebServer
from borabora_sim.viewer.web_game import WebGame

SEED = 33
PLAYERS = ["human", "heuristic"]

SETTLED = ("old => document.body.dataset.version !== old && document.body.dataset.turn !== 'ai'"
           " && !document.body.hasAttribute('data-busy')")


@pytest.fixture
def server() -> Iterator[WebServer]:
    served = WebServer(WebGame(get_game(), PLAYERS, SEED))
    threading.Thread(target=served.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield served
    served.shutdown()
    served.server_close()


def version(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.version"))


def settle(page: Any, old: str) -> None:
    """Waits until the page shows a position after `old` in which no AI is to move."""
    page.wait_for_function(SETTLED, arg=old, timeout=20_000)


def pick(page: Any, move: dict[str, Any]) -> bool:
    """Plays `move` by clicking the things of the board it is marked on, one after the other, until the page plays
    it; when they point to several moves, checks that `move` is among those marked in the list and clicks it
    there. True when the board alone played it."""
    old = version(page)
    for attribute, value in move["targets"]:
        selector = f"#board [{attribute}]" if value is None else f'#board [{attribute}="{value}"]'
        things = page.locator(selector)
        if things.count() == 0:           # a die on an action tile is drawn only while one lies there
            continue
        things.first.click(force=True)    # force: a die drawn over its tile takes the click, as for a person
        if page.evaluate("document.body.hasAttribute('data-busy')") or version(page) != old:
            settle(page, old)
            return True
    button = page.locator(f'#legal button[data-action="{move["action"]}"]')
    if move["targets"]:
        assert "candidate" in (button.get_attribute("class") or ""), move
    button.click()
    settle(page, old)
    return False


def save_and_load(page: Any, errors: list[str], folder: Path) -> dict[str, Any]:
    """Saves the position from the page, plays on, refuses a bad file (the game kept, the error shown) and loads
    the saved one back, with its moves; returns the saved position."""
    with page.expect_download() as download:
        page.locator("#save").click()
    path = folder / "saved.json"
    download.value.save_as(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    legal_then, log_then = page.locator("#legal").inner_text(), page.locator("#log").inner_text()
    why_then = page.locator("#log button").count()
    old = version(page)
    page.locator("#legal button").first.click()
    settle(page, old)
    bad = folder / "bad.json"
    bad.write_text(json.dumps({**saved, "players": ["human"]}), encoding="utf-8")
    old, log = version(page), page.locator("#log").inner_text()
    seen = len(errors)
    page.locator("#load").set_input_files(str(bad))
    page.locator("#error").wait_for()
    assert "the position has 2 seats but 1 player specs" in page.locator("#error").inner_text()
    page.wait_for_function("old => document.body.dataset.version === old && !document.body.hasAttribute('data-busy')",
                           arg=old)
    assert page.locator("#log").inner_text() == log
    # The browser logs the refused request (status 400) as an error of its own; nothing else may be logged.
    assert all("status of 400" in error for error in errors[seen:]) and len(errors) == seen + 1, errors[seen:]
    del errors[seen:]
    page.locator("#load").set_input_files(str(path))
    settle(page, old)
    assert page.locator("#legal").inner_text() == legal_then
    # The moves before the saved position are kept, and the AI's with their "why?".
    assert page.locator("#log").inner_text() == log_then and page.locator("#log button").count() == why_then > 0
    assert not page.locator("#error").is_visible()
    return saved


@pytest.mark.slow
def test_a_whole_game_in_the_browser_ends_with_the_engine_scores(browser: Any, server: WebServer,
                                                                 tmp_path: Path) -> None:
    page, errors = open_page(browser, 1700, 1100)
    page.goto(server.url + "?delay=0")
    page.wait_for_function("() => document.body.dataset.turn === 'human'")
    rng = random.Random(3)
    decisions = by_board = 0
    explained = advised = undone = ended = False
    saved: dict[str, Any] = {}
    while page.evaluate("document.body.dataset.turn") == "human":
        with server.lock:
            view = server.game.view()
        assert page.locator("#legal button").count() == len(view["legal"])
        assert page.locator("#status-text").inner_text().startswith(f"Your decision, seat 0: {view['decision_words']}")
        assert page.locator("#hint").inner_text() == f"Rules: {view['hint']}"
        move = rng.choice([m for m in view["legal"] if m["targets"]] or view["legal"])
        if not advised and view["phase"] == "A":
            page.locator("#advisor").fill("mcts:iterations=30")
            page.locator("#advise").click()
            suggestion = page.locator("[data-advice-action]")
            suggestion.wait_for()
            hinted = int(suggestion.get_attribute("data-advice-action"))
            assert hinted in [m["action"] for m in view["legal"]]
            assert "the tree search with 30 iterations a decision would play: " in page.locator("#advice").inner_text()
            assert page.locator("#advice table.reasons tr.chosen").count() == 1
            assert page.locator("#advice table.reasons th").all_inner_texts() == ["move", "win chance", "visits"]
            assert "win chance:" in page.locator("#advice p.legend").inner_text()
            assert [int(b.get_attribute("data-action")) for b in page.locator("#legal button.hinted").all()] == [hinted]
            if next(m for m in view["legal"] if m["action"] == hinted)["targets"]:
                assert page.locator("#board .hinted").count() > 0
            advised = True
        if not ended and view["end"] is not None:
            assert page.locator("#end").is_visible() and page.locator("#end").inner_text() == view["end"]["words"]
            old = version(page)
            page.locator("#end").click()
            settle(page, old)
            with server.lock:
                humans = [m for m in server.game.moves if m.explanation is None]
            assert humans[-1].action == view["end"]["action"]
            ended = True
            continue
        by_board += pick(page, move)
        decisions += 1
        if not explained and page.locator("#log button").count() > 3:
            why = page.locator("#log .move button").last
            why.click()
            reasons = page.locator("#log .move div.reasons")
            reasons.wait_for()
            assert "the best by its evaluation" in reasons.inner_text() and "VP vs best" in reasons.inner_text()
            assert reasons.locator("tr.chosen").count() == 1
            explained = True
        if not undone and decisions == 12:
            before = page.locator("#log .move").count()
            old = version(page)
            page.locator("#undo").click()
            settle(page, old)
            assert page.locator("#log .move").count() < before
            undone = True
        if decisions == 20:
            saved = save_and_load(page, errors, tmp_path)
        if decisions == 40:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "web_play_mid_game.png"))
            assert (ARTIFACTS / "web_play_mid_game.png").stat().st_size > 10_000
    assert page.evaluate("document.body.dataset.turn") == "over"
    assert explained and advised and undone and ended and saved and decisions > 40 and by_board > 10
    with server.lock:
        moves = server.game.view()["moves"]
    final = borabora_sim.State.from_dict(saved["start"], borabora_sim.rules_for())   # the loaded game kept its moves
    assert [move["action"] for move in moves[:len(saved["moves"])]] == [move["action"] for move in saved["moves"]]
    for played in moves:
        final.apply(played["action"])
    assert final.is_terminal()
    shown = page.locator("#status").get_attribute("data-final-scores")
    assert shown is not None and [int(x) for x in shown.strip("[]").split(",")] == final.scores()
    cells = page.locator("#scores [data-score-seat]")
    assert [int(cells.nth(i).inner_text().split()[0]) for i in range(cells.count())] == final.scores()
    assert f"winner seat {final.winner()}" in page.locator("#status").inner_text()
    assert errors == []
    page.close()


def board_alone(view: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether clicking the things `move` is marked on, one after the other, leaves it alone among the moves they
    point to (as the page narrows them), so that the board plays it without the list."""
    candidates: set[int] = set()
    for target in move["targets"]:
        pointed = {m["action"] for m in view["legal"] if target in m["targets"]}
        candidates = (candidates & pointed) or pointed
        if candidates == {move["action"]}:
            return True
    return False


# Kinds of moves the board picks since the last ones were added (Bora Bora's "done", phase B abilities, God
# tiles, single gains; Bamboo's activations, Balance as 1 HP, Improve as 1 coin, "done").
NEW_KINDS = {"bora_bora": r"done|use .*|play \w+ god with (god tile|pair of \w+)|offering|shell|move hut .*",
             "bamboo": r"activate .*|done|balance 1 HP|improve 1 coin|renew food|score .*"}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "seed"), [("bora_bora", ["human", "heuristic"], 5),
                                                       ("bamboo", ["human", "random"], 6)])
def test_the_board_plays_the_moves_that_were_list_only(browser: Any, game: str, players: list[str],
                                                       seed: int) -> None:
    """Plays a game through the page: a move of a kind in NEW_KINDS that its things alone pick is played by
    clicking them (and the server's last move is that move), anything else from the list; several such moves
    come up and the page logs no error."""
    served = WebServer(WebGame(get_game(game), players, seed))
    threading.Thread(target=served.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    page, errors = open_page(browser, 1700, 1100)
    try:
        page.goto(served.url + "?delay=0")
        # a function, not an expression: the page's Content-Security-Policy refuses the eval of a string
        page.wait_for_function("() => document.body.dataset.turn === 'human'")
        rng = random.Random(seed)
        clicked: set[str] = set()
        while page.evaluate("document.body.dataset.turn") == "human" and len(clicked) < 4:
            with served.lock:
                view = served.game.view()
            new = [m for m in view["legal"] if re.fullmatch(NEW_KINDS[game], m["name"]) and board_alone(view, m)
                   and m["name"].split()[0] not in clicked]
            if new:
                move = new[0]
                assert pick(page, move), move["name"]
                with served.lock:
                    humans = [m for m in served.game.moves if m.explanation is None]
                assert humans[-1].action == move["action"]       # the AI moves after it are the heuristic's
                clicked.add(move["name"].split()[0])
            else:
                old = version(page)
                page.locator(f'#legal button[data-action="{rng.choice(view["legal"])["action"]}"]').click()
                settle(page, old)
        assert len(clicked) >= 2, clicked
        assert errors == []
    finally:
        page.close()
        served.shutdown()
        served.server_close()


def test_the_page_starts_a_new_game_with_other_seats(browser: Any, server: WebServer) -> None:
    """The New game form: a refused one (one seat) shows the server's reason and keeps the game; a good one
    replaces it with the seats and seed typed, and the page goes on with it (the AI seat moves first)."""
    page, errors = open_page(browser, 1700, 1100)
    try:
        page.goto(server.url + "?delay=0")
        page.wait_for_function("() => document.body.dataset.turn === 'human'")
        assert page.locator("#new-players").input_value() == ",".join(PLAYERS)
        old = version(page)
        page.locator("#new-players").fill("human")
        page.locator("#start").click()
        page.locator("#error").wait_for()
        assert "players must be 2, 3 or 4, got 1" in page.locator("#error").inner_text()
        page.wait_for_function("old => document.body.dataset.version === old"
                               " && !document.body.hasAttribute('data-busy')", arg=old)
        assert len(errors) == 1 and "status of 400" in errors[0], errors       # the browser logs the refusal
        errors.clear()
        page.locator("#new-players").fill("heuristic, human, random")
        page.locator("#new-seed").fill("12")
        page.locator("#start").click()
        settle(page, old)
        with server.lock:
            game = server.game
            moves = [m.seat for m in game.moves]
        assert game.players == ("heuristic", "human", "random") and game.seed == 12
        assert game.start.to_dict() == borabora_sim.new_game(players=3, seed=12).to_dict()
        assert page.evaluate("document.body.dataset.turn") == "human" and 1 not in moves
        assert not page.locator("#error").is_visible()
        assert page.locator("#scores [data-score-seat]").count() == 3
        assert "(you)" in page.locator("#scores tr").nth(1).inner_text()
        assert errors == []
    finally:
        page.close()


def test_an_advice_overtaken_by_a_move_is_dropped_without_an_error(browser: Any, server: WebServer) -> None:
    """A move played while the AI thinks about the old position: the server stops the advice (409) and the page
    shows neither it nor an error; the button waits while an advice is computed, so none is asked twice."""
    page, errors = open_page(browser, 1700, 1100)
    page.goto(server.url + "?delay=0")
    page.wait_for_function("() => document.body.dataset.turn === 'human'")
    page.locator("#advisor").fill("mcts:seconds=5")
    page.locator("#advise").click()
    assert page.locator("#advise").is_disabled()
    old = version(page)
    page.locator("#legal button").first.click()
    settle(page, old)
    page.wait_for_function("() => !document.getElementById('advise').disabled", timeout=20_000)
    assert page.locator("[data-advice-action]").count() == 0
    assert not page.locator("#error").is_visible()
    # The browser logs the overtaken request (status 409) as an error of its own; nothing else may be logged.
    assert all("status of 409" in error for error in errors), errors
    page.close()


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", pictured("browser play shows its text"))
def test_the_board_fits_the_window_with_readable_text_and_large_targets(browser: Any, name: str,
                                                                        size: tuple[int, int]) -> None:
    """Over the human's first decisions (each a move of the list picked at random), every text of the page is 11
    pixels or more, every thing of the board that can pick a move (the game's CLICKABLE sample) and every button 24
    or more, and nothing scrolls sideways; a wide picture stands above the panels at 1366 pixels (the moves docked
    at the bottom of the window) and beside them at 1920."""
    things = list(sample(name, "CLICKABLE", "the things of its picture that pick a move"))
    spec, most = fullest(name)
    players = ["human"] + ["random"] * (most - 1)
    served = WebServer(WebGame(get_game(spec), players, 5))
    threading.Thread(target=served.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    width, height = size
    page, errors = open_page(browser, width, height)
    try:
        page.goto(served.url + "?delay=0")
        page.wait_for_function("() => document.body.dataset.turn === 'human'")
        rng = random.Random(5)
        marked = 0
        for decision in range(6):
            measured = measure(page, things)
            assert_readable(measured, f"browser play of {name} at {width}x{height}, decision {decision}")
            assert measured["below"] if wide_picture(name) and width < 1500 else measured["beside"], measured
            marked += measured["pickable"]
            if decision == 2:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"play_{name}_{width}x{height}.png"))
            if page.evaluate("document.body.dataset.turn") != "human":
                break
            moves = page.locator("#legal button")
            old = version(page)
            moves.nth(rng.randrange(moves.count())).click()
            settle(page, old)
        assert marked > 0
        docked = page.evaluate("getComputedStyle(document.getElementById('moves')).position") == "fixed"
        assert docked == (wide_picture(name) and width < 1500)        # the moves stay in sight below a wide board
        assert errors == []
    finally:
        page.close()
        served.shutdown()
        served.server_close()
