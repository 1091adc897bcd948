"""The HTML replay in a real browser: headless Chromium (the system's `chromium`, or the one BORABORA_CHROMIUM
names) driven by Playwright opens the file from disk, steps through the whole game with the keyboard, the
slider and the log, and shows the engine's final scores and the players' reasons, with no console error; a game
of Bamboo as well as one of Bora Bora. Screenshots of the page and of the board in the middle of the game are
written to tests/artifacts/ (not kept in git).

Where Playwright is not installed or no Chromium can be started, these tests are skipped and say why."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS, open_page

import borabora_sim
from borabora_sim.viewer import RecordedGame, record_game, replay_page

PLAYERS = ["heuristic", "heuristic:fishing=never", "random", "random"]
SEED = 12


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, borabora_sim.State, int]:
    """The replay file of a 4-player game, the game's final state and its number of decisions."""
    record = record_game(SEED, PLAYERS)             # the game replay_html writes, played once for both
    path = tmp_path_factory.mktemp("browser") / "game.html"
    path.write_text(replay_page(record), encoding="utf-8")
    actions = record.actions
    state = borabora_sim.new_game(players=4, seed=SEED)
    for action in actions:
        state.apply(action)
    return path, state, len(actions)


def position(page: Any) -> int:
    text = page.locator("#position").inner_text()
    match = re.fullmatch(r"decision (\d+) of (\d+)", text)
    assert match is not None, text
    return int(match.group(1))


def shown_scores(page: Any) -> list[int]:
    cells = page.locator("#scores [data-score-seat]")
    return [int(cells.nth(i).inner_text().split()[0]) for i in range(cells.count())]


def test_stepping_through_a_whole_game_shows_the_engine_final_scores(
        browser: Any, game: tuple[Path, borabora_sim.State, int]) -> None:
    path, final, last = game
    page, errors = open_page(browser, 1600, 1000)
    page.goto(path.as_uri())
    assert position(page) == 0
    assert page.locator("#board svg [data-region]").count() == 12
    # To the middle and on to the end with the keyboard: ten decisions a key (Page Down), then one (right arrow).
    middle = last // 2
    for _ in range(middle // 10):
        page.keyboard.press("PageDown")
    for _ in range(middle % 10):
        page.keyboard.press("ArrowRight")
    assert position(page) == middle
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert position(page) == middle
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay_mid_game.png"))
    page.locator("#board").screenshot(path=str(ARTIFACTS / "board_mid_game.png"))
    for name in ("replay_mid_game.png", "board_mid_game.png"):
        assert (ARTIFACTS / name).stat().st_size > 10_000
    for _ in range((last - middle) // 10 + 2):         # past the end: the last frame stays
        page.keyboard.press("PageDown")
    assert position(page) == last
    page.keyboard.press("ArrowRight")
    assert position(page) == last
    assert shown_scores(page) == final.scores()
    assert f"winner seat {final.winner()}" in page.locator("#board svg").inner_html()
    # Back to the start and to the end again with the slider, as a mouse moves it.
    slider = page.locator("#slider")
    box = slider.bounding_box()
    slider.click(position={"x": 1, "y": box["height"] / 2})
    assert position(page) == 0
    assert shown_scores(page) == borabora_sim.new_game(players=4, seed=SEED).scores()
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    page.mouse.move(box["x"] + box["width"] + 50, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    assert position(page) == last
    assert shown_scores(page) == final.scores()
    # A move of the log is a way there too.
    page.locator('#log .move[data-step="7"]').click()
    assert position(page) == 7
    assert errors == []
    page.close()


BAMBOO_PLAYERS = ["heuristic", "mcts:iterations=30", "random"]


@pytest.fixture(scope="module")
def bamboo_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, RecordedGame]:
    """The replay file of a 3-player game of Bamboo on the nighttime side, its final state and its record."""
    record = record_game(SEED, BAMBOO_PLAYERS, game="bamboo:mode=advanced")
    path = tmp_path_factory.mktemp("browser") / "bamboo.html"
    path.write_text(replay_page(record), encoding="utf-8")
    state = record.game.new_initial_state(players=3, seed=SEED)
    for action in record.actions:
        state.apply(action)
    return path, state, record


def test_a_bamboo_replay_steps_to_its_end_and_shows_the_reasons(
        browser: Any, bamboo_game: tuple[Path, Any, RecordedGame]) -> None:
    path, final, record = bamboo_game
    last = len(record.actions)
    page, errors = open_page(browser, 1600, 1000)
    page.goto(path.as_uri())
    assert position(page) == 0
    assert page.locator("#board svg[data-game='bamboo'] [data-shoot]").count() > 12
    assert page.locator("#why").inner_text() == "The start of the game."
    for _ in range(last // 20):
        page.keyboard.press("PageDown")
    assert position(page) == last // 20 * 10
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#board").screenshot(path=str(ARTIFACTS / "bamboo_board.png"))
    assert (ARTIFACTS / "bamboo_board.png").stat().st_size > 10_000
    for _ in range(last // 10 + 2):
        page.keyboard.press("PageDown")
    assert position(page) == last
    assert shown_scores(page) == final.scores()
    assert f"winner seat {final.winner()}" in page.locator("#board svg").inner_html()
    # A move with reasons shows the options the player weighed, the chosen one marked; a random move says why not.
    step = next(k for k, reasons in enumerate(record.reasons, start=1) if reasons is not None)
    page.locator(f'#log .move.why[data-step="{step}"]').click()
    assert position(page) == step
    reasons = record.reasons[step - 1]
    assert reasons is not None
    assert page.locator("#why tr.chosen td").first.inner_text() == reasons.words
    assert page.locator("#why p.legend").inner_text() == reasons.legend
    assert page.locator("#why tr").count() == len(reasons.options) + 1
    random_step = next(k for k in range(1, last + 1) if record.reasons[k - 1] is None)
    page.locator(f'#log .move[data-step="{random_step}"]').click()
    assert "No reasons for this move" in page.locator("#why").inner_text()
    assert errors == []
    page.close()


def test_an_address_naming_a_decision_opens_the_replay_there(browser: Any,
                                                             game: tuple[Path, borabora_sim.State, int]) -> None:
    """`replay.html#decision=N` (the link of a study's report) shows decision N, and a later change of the
    address moves there; the highlighted move of the log is the one that led to it."""
    path, _, last = game
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri() + "#decision=37")
    assert position(page) == 37
    assert page.locator("#log .move.current").get_attribute("data-step") == "37"
    page.evaluate("location.hash = '#decision=5'")
    page.wait_for_function("() => document.getElementById('position').textContent.startsWith('decision 5 ')")
    page.goto(path.as_uri() + f"#decision={last + 50}")     # beyond the end: the last decision
    page.reload()
    assert position(page) == last
    assert errors == []
    page.close()
