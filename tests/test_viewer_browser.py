"""The HTML replay in a real browser: headless Chromium (the system's `chromium`, or the one BORABORA_CHROMIUM
names) driven by Playwright opens the file from disk, steps through the whole game with the keyboard, the
slider and the log, and shows the engine's final scores and the players' reasons, with no console error; a game
of Bamboo as well as one of Bora Bora. The page fits the board to the window at 1366 x 768 and 1920 x 1080 for
every game, with no text under 11 pixels and no button under 24, zooms with its buttons, keys and Ctrl with the
mouse wheel, and puts its panels below the board in a narrow window. Screenshots of the pages and of the board in
the middle of the game are written to tests/artifacts/ (not kept in git).

Where Playwright is not installed or no Chromium can be started, these tests are skipped and say why."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS, assert_readable, fullest, measure, open_page, pictured, wide_picture

import borabora_sim
from borabora_sim.games import games_with
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


@pytest.mark.slow
def test_stepping_through_a_whole_game_shows_the_engine_final_scores(
        browser: Any, game: tuple[Path, borabora_sim.State, int]) -> None:
    path, final, last = game
    page, errors = open_page(browser, 1600, 1000)
    page.goto(path.as_uri())
    assert position(page) == 0
    assert page.locator("#board svg [data-region]").count() == 12
    # The header tells the points at the decision shown, the final ones and the winner only at the end.
    start = borabora_sim.new_game(players=4, seed=SEED).scores()
    assert page.locator("#summary").inner_text() == "VP at decision 0: " + ", ".join(
        f"seat {s} {v}" for s, v in enumerate(start))
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
    assert page.locator("#summary").inner_text() == (
        "final VP: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(final.scores()))
        + f"; winner seat {final.winner()}")
    # Back to the start and to the end again with the slider, as a mouse moves it.
    slider = page.locator("#slider")
    box = slider.bounding_box()
    slider.click(position={"x": 1, "y": box["height"] / 2})
    assert position(page) == 0
    assert shown_scores(page) == borabora_sim.new_game(players=4, seed=SEED).scores()
    box = slider.bounding_box()                 # the header's line may have taken another height
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


@pytest.mark.slow
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


# ---------------------------------------------------------------------------------------------------------------
# The board fits the window
# ---------------------------------------------------------------------------------------------------------------
SIZES = [(1366, 768), (1920, 1080)]


@pytest.fixture(scope="module")
def fit_replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """A replay file of a game of each game with a picture (fullest), and its number of decisions."""
    folder = tmp_path_factory.mktemp("fit")
    replays = {}
    for name in games_with("picture"):
        spec, players = fullest(name)
        record = record_game(5, ["random"] * players, game=spec, reasons=0)
        path = folder / f"{name}.html"
        path.write_text(replay_page(record), encoding="utf-8")
        replays[name] = (path, len(record.actions))
    return replays


def shown_width(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width"))


def scale(page: Any) -> float:
    return float(page.locator("#board").get_attribute("data-scale"))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", pictured("its replay shows its text"))
def test_the_replay_fits_the_window_with_readable_text_and_zooms(
        browser: Any, fit_replays: dict[str, tuple[Path, int]], name: str, size: tuple[int, int]) -> None:
    """At fit every text of the page is 11 pixels or more, every button and line of the log 24 or more, and
    nothing scrolls sideways; a wide picture stands above the panels at 1366 pixels and beside them at 1920. The
    zoom (its buttons, the keys - and 0, Ctrl with the mouse wheel) changes the board's size and keeps it from one
    decision to the next."""
    path, last = fit_replays[name]
    width, height = size
    page, errors = open_page(browser, width, height)
    page.goto(f"{path.as_uri()}#decision={last // 2}")
    measured = measure(page)
    assert_readable(measured, f"the replay of {name} at {width}x{height}")
    assert measured["below"] if wide_picture(name) and width < 1500 else measured["beside"], measured
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"replay_{name}_{width}x{height}.png"))
    fit = scale(page)
    drawn = float(page.evaluate("Number(document.querySelector('#board svg').getAttribute('width'))"))
    assert shown_width(page) == pytest.approx(drawn * fit, abs=1)
    assert page.locator("#controls .zoom-level").inner_text() == f"fit {round(fit * 100)}%"
    page.locator("#controls .zoom-in").click()
    larger = scale(page)
    assert larger > fit and shown_width(page) == pytest.approx(drawn * larger, abs=1)
    page.keyboard.press("ArrowRight")                   # another decision keeps the zoom
    assert position(page) == last // 2 + 1 and scale(page) == larger
    page.keyboard.press("-")
    assert scale(page) < larger
    page.keyboard.press("0")
    assert scale(page) == fit
    box = page.locator("#board").bounding_box()
    page.mouse.move(box["x"] + 50, box["y"] + 50)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_function("fit => Number(document.getElementById('board').dataset.scale) > fit", arg=fit)
    page.locator("#controls .fit").click()
    assert scale(page) == fit and not measure(page)["boardScrolls"]
    assert errors == []
    page.close()


def test_a_narrow_window_puts_the_panels_below_the_board(browser: Any,
                                                        fit_replays: dict[str, tuple[Path, int]]) -> None:
    path, _ = fit_replays["pig"]
    page, errors = open_page(browser, 900, 800)
    page.goto(path.as_uri())
    measured = measure(page)
    assert measured["below"] and not measured["pageScrolls"] and not measured["boardScrolls"], measured
    assert errors == []
    page.close()
