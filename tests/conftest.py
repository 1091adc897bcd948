"""What several test files share: positions reached by random play, each game's samples (its record's samples
module), the adapters' libraries, the component data of any game and the headless browser.

pytest finds the fixtures here by name; the helpers are imported (`from conftest import played`).
"""

from __future__ import annotations

import importlib
import os
import random
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from borabora_sim.games import game_names, get_game, record_of
from borabora_sim.protocol import Game, GameState

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"      # screenshots of the browser tests (not kept in git)


# ---- positions of random games -------------------------------------------------------------------------------
def play_random(state: GameState, seed: int, moves: int | None = None) -> GameState:
    """`state` after `moves` uniformly random decisions (all of them to the end when None, fewer if the game ends
    first), each `legal[rng.randrange(len(legal))]` with `rng = random.Random(seed)`."""
    rng = random.Random(seed)
    while not state.is_terminal() and moves != 0:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        moves = None if moves is None else moves - 1
    return state


def played(game: str | Game, players: int, seed: int, decisions: int | None = None) -> Any:
    """A game of `game` (a spec such as "bamboo:mode=advanced", or a game object) dealt from `seed`, after
    `decisions` uniformly random decisions chosen by random.Random(seed) (to its end when None)."""
    board = get_game(game) if isinstance(game, str) else game
    return play_random(board.new_initial_state(players=players, seed=seed), seed, decisions)


def first_position(game: str | Game, players: int, wanted: Any, seeds: range = range(200)) -> Any:
    """The first position of a uniformly random game (seeds 0, 1, ... in turn, each choosing with
    random.Random(seed)) for which `wanted(state)` is true."""
    board = get_game(game) if isinstance(game, str) else game
    for seed in seeds:
        state = board.new_initial_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if wanted(state):
                return state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no random game of {board.name} reached the wanted position")


def random_game_position(game: str | Game, players: int, seed: int, part: float = 0.5) -> Any:
    """The position of the random game with seed `seed` (Game.random_game_actions: the random playouts' game) after
    `part` of its decisions (half of them by default): a position of any game in the middle of play, however long
    its games are. Never the end: `part` is below 1."""
    board = get_game(game) if isinstance(game, str) else game
    actions = board.random_game_actions(players, seed)
    state = board.new_initial_state(players=players, seed=seed)
    for action in actions[:int(len(actions) * part)]:
        state.apply(action)
    assert not state.is_terminal(), f"{board.name}: part {part} of a game is its end"
    return state


# ---- each game's samples ----------------------------------------------------------------------------------------
def samples_of(name: str) -> ModuleType | None:
    """The samples module of the game `name` (GameRecord.samples), None for a game that gives none."""
    where = record_of(name).samples
    return None if where is None else importlib.import_module(where)


def sample(name: str, constant: str, what: str) -> Any:
    """The sample `constant` of the game `name`; the test is skipped, saying so, when the game gives none."""
    module = samples_of(name)
    if module is None:
        pytest.skip(f"{name} gives no {what} (its record names no samples module)")
    if not hasattr(module, constant):
        pytest.skip(f"{name} gives no {what} (no {constant} in {module.__name__})")
    return getattr(module, constant)


def needs_part(name: str, part: str, what: str) -> None:
    """Skips the test, saying so, when the record of the game `name` leaves out the optional part `part`
    ("picture", "click_targets", "encoder", "network", "questions", "studies")."""
    if not getattr(record_of(name), part):
        pytest.skip(f"{name} gives no {what} (its record has no {part})")


def fullest(name: str) -> tuple[str, int]:
    """The game `name` as the fit tests show it, the most drawn: the spec of its last option values (not the
    defaults, where it has options) and its most players."""
    game = get_game(name)
    options = ",".join(f"{key}={values[-1]}" for key, values in game.options.items())
    return f"{name}:{options}" if options else name, max(game.player_counts)


def pictured(instead: str) -> list[Any]:
    """Parameters of a test over every game with a picture of its own; one without is skipped, saying what it
    shows `instead`."""
    return [pytest.param(name, id=name, marks=() if record_of(name).picture else pytest.mark.skip(
        reason=f"{name} has no picture of its own: {instead}")) for name in game_names()]


def wide_picture(name: str) -> bool:
    """Whether the game's picture is too wide to stand beside the panels at 1366 pixels (WIDE_PICTURE of its
    samples)."""
    return bool(getattr(samples_of(name), "WIDE_PICTURE", False))


def sample_params(constant: str, what: str) -> list[Any]:
    """Parameters (game name, case, value) of a test over the cases of each game's sample `constant`, a mapping:
    one for each case, named game-case; one skipped, saying so, for a game that gives none."""
    params = []
    for name in game_names():
        table = getattr(samples_of(name), constant, None)
        if table is None:
            skip = pytest.mark.skip(reason=f"{name} gives no {what} (no {constant} in its samples)")
            params.append(pytest.param(name, None, None, id=name, marks=skip))
        else:
            params += [pytest.param(name, case, value, id=f"{name}-{case}") for case, value in table.items()]
    return params


# ---- component data of any game ------------------------------------------------------------------------------
def walk(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every place of a JSON document, depth first: (the keys and indexes leading to it, its value)."""
    yield path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from walk(item, (*path, key))


def component_loader(name: str) -> Callable[[Any], Any] | None:
    """The `load_components` of the game's package (borabora_sim.games.<name>), None for a game without component
    data."""
    loader: Callable[[Any], Any] | None = getattr(importlib.import_module(f"borabora_sim.games.{name}"),
                                                  "load_components", None)
    return loader


def games_with_components() -> tuple[str, ...]:
    """The registered games that have component data."""
    return tuple(name for name in game_names() if component_loader(name) is not None)


def needs_components(name: str) -> Callable[[Any], Any]:
    """The `load_components` of the game `name`; the test is skipped, saying so, for a game without component
    data."""
    loader = component_loader(name)
    if loader is None:
        pytest.skip(f"{name} gives no component data (its package has no load_components)")
    return loader


def components_of(name: str, source: Any = None) -> Any:
    """The component data of the game `name` loaded from `source` (None: the built-in file) by the
    `load_components` of the game's package; the test is skipped, saying so, for a game without component data."""
    return needs_components(name)(source)


def builtin_component_file(name: str) -> Path:
    """The file of the built-in component data of the game `name`, as its package keeps it (BUILTIN_FILE of the
    module its loader is in)."""
    loader = component_loader(name)
    assert loader is not None, f"{name} has no component data"
    path: Path = importlib.import_module(loader.__module__).BUILTIN_FILE
    return path


@dataclass(frozen=True)
class Accepted:
    """A change of one value of a game's document that loads: the record it is in, its field, the new value and
    where the loaded components hold it (an attribute, then the indexes into it)."""

    record: tuple[str | int, ...]
    field: str
    value: int
    held_at: tuple[str | int, ...]

    def record_in(self, doc: dict[str, Any]) -> dict[str, Any]:
        record = doc
        for key in self.record:
            record = record[key]
        return record

    def apply(self, doc: dict[str, Any], **provenance: str) -> None:
        self.record_in(doc).update({self.field: self.value, **provenance})

    def read(self, components: Any) -> int:
        """The value as the loaded `components` hold it."""
        attribute, *indexes = self.held_at
        value = getattr(components, str(attribute))
        for index in indexes:
            value = value[index]
        return int(value)

    @property
    def path(self) -> str:
        """The field's path in marks and messages: ``temple_tiles[3].incense``."""
        record = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in self.record).lstrip(".")
        return f"{record}.{self.field}"


def accepted_change(name: str) -> Accepted:
    """The change of the game's built-in document that loads (COMPONENT_CHANGE of its samples), to make component
    data of one's own; the test is skipped, saying so, for a game without component data or without the sample."""
    needs_components(name)
    return Accepted(**sample(name, "COMPONENT_CHANGE", "change of its component file that loads"))


# ---- the adapters' libraries, skipped with the extra that installs them ---------------------------------------
@pytest.fixture(scope="session")
def pyspiel() -> ModuleType:
    return pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'borabora_sim[openspiel]'")


@pytest.fixture(scope="session")
def openspiel_adapter(pyspiel: ModuleType) -> ModuleType:
    return importlib.import_module("borabora_sim.envs.openspiel")


@pytest.fixture(scope="session")
def pettingzoo_adapter() -> ModuleType:
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'borabora_sim[rl]'")
    return importlib.import_module("borabora_sim.envs.pettingzoo")


@pytest.fixture(scope="session")
def gymnasium_adapter() -> ModuleType:
    pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install 'borabora_sim[rl]'")
    return importlib.import_module("borabora_sim.envs.gymnasium")


def play_aec(environment: Any, seed: int, actions: list[int] | None = None) -> tuple[dict[str, float], Any]:
    """Plays a PettingZoo AEC environment reset with `seed` to its end, each agent taking the next of `actions`
    while there are any, else a legal action drawn with numpy's generator of `seed`; the rewards each agent
    gathered, and the unwrapped environment."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 2
        environment.step(actions.pop(0) if actions else int(rng.choice(np.flatnonzero(mask))))
    return totals, environment.unwrapped


def play_episode(env: Any, seed: int, actions: list[int] | None = None) -> tuple[float, dict[str, Any], list[Any]]:
    """Plays a Gymnasium environment reset with `seed` to the end of its episode, the learner taking the next of
    `actions` while there are any, else a legal action drawn with numpy's generator of `seed`: the learner's total
    reward, the last info and every observation, the first included."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    seen = [obs]
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) >= 2
        action = actions.pop(0) if actions else int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        seen.append(obs)
        assert not truncated
        if terminated:
            return total, info, seen


# ---- a headless Chromium driven by Playwright -----------------------------------------------------------------
def chromium_path() -> str | None:
    """The Chromium to drive: the one BORABORA_CHROMIUM names, else the system's."""
    named = os.environ.get("BORABORA_CHROMIUM")
    if named:
        return named
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium; the test is skipped, saying why, where Playwright or a Chromium is missing."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.skip("the browser tests need Playwright: pip install '.[test]'")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no Chromium to drive: install it (apt-get install chromium) or name one in BORABORA_CHROMIUM")
    with sync_playwright() as driver:
        try:
            started = driver.chromium.launch(executable_path=executable)
        except Error as error:
            pytest.skip(f"Chromium ({executable}) could not be started: {str(error).splitlines()[0]}")
        yield started
        started.close()


def open_page(browser: Any, width: int, height: int) -> tuple[Any, list[str]]:
    """A new page of `browser` and the list into which its console errors and uncaught exceptions go."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


# What a page shows, measured in the browser: the smallest text as drawn (an SVG text's font size times the scale
# of the picture it is in, an HTML text's font size) and the smallest click target (the board's things marked to
# pick a move and those `things` names, the buttons, inputs and links, the replay's lines of the log), with the
# worst of each named, and whether the page or the board scrolls sideways.
MEASURE = """(things) => {
  const drawn = (el) => {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" ? box : null;
  };
  const texts = [], targets = [];
  for (const text of document.querySelectorAll("svg text")) {
    if (!text.textContent.trim() || !drawn(text)) { continue; }
    const m = text.getScreenCTM();
    texts.push([parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b), text.textContent.trim()]);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("svg, script, style") || !drawn(parent)) { continue; }
    texts.push([parseFloat(getComputedStyle(parent).fontSize), node.textContent.trim()]);
  }
  const clickable = ["#board .pickable", "button", "input", "select", "a[href]", "#log .move[data-step]"]
    .concat(things.map((selector) => "#board " + selector)).join(", ");
  for (const el of document.querySelectorAll(clickable)) {
    const box = drawn(el);
    if (box) { targets.push([Math.min(box.width, box.height), el.id || el.getAttribute("class") || el.tagName,
                             el.outerHTML.slice(0, 120)]); }
  }
  const least = (list) => list.reduce((a, b) => (b[0] < a[0] ? b : a), [Infinity, "", ""]);
  const board = document.getElementById("board"), page = document.documentElement;
  const aside = document.querySelector("aside").getBoundingClientRect(), room = board.getBoundingClientRect();
  return {text: least(texts), target: least(targets), texts: texts.length, pickable:
          document.querySelectorAll("#board .pickable").length, scale: Number(board.dataset.scale),
          pageScrolls: page.scrollWidth > page.clientWidth, boardScrolls: board.scrollWidth > board.clientWidth + 1,
          beside: aside.left >= room.right, below: aside.top >= room.bottom};
}"""
MIN_TEXT_PX = 11
MIN_TARGET_PX = 24


# The things of each game's picture that can pick a move in browser play (the targets of its click_targets), by
# game: the CLICKABLE of the samples of each game that gives them.
CLICKABLE: dict[str, list[str]] = {name: list(things) for name in game_names()
                                   if (things := getattr(samples_of(name), "CLICKABLE", None)) is not None}


def measure(page: Any, things: list[str] | None = None) -> dict[str, Any]:
    """The smallest text and click target of `page` as shown now (MEASURE), and how the board is laid out."""
    measured: dict[str, Any] = page.evaluate(MEASURE, things or [])
    return measured


def assert_readable(measured: dict[str, Any], where: str) -> None:
    """No text under MIN_TEXT_PX, no click target under MIN_TARGET_PX, nothing to scroll sideways."""
    assert measured["texts"] > 20, f"{where}: no text measured"
    assert measured["text"][0] >= MIN_TEXT_PX, f"{where}: text of {measured['text'][0]:.1f} px: {measured['text'][1]!r}"
    assert measured["target"][0] >= MIN_TARGET_PX, \
        f"{where}: a click target of {measured['target'][0]:.1f} px: {measured['target'][2]}"
    assert not measured["pageScrolls"] and not measured["boardScrolls"], f"{where}: scrolls sideways at fit"
