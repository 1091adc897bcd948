"""People read game words: no engine identifier (the snake_case names of the action table, the decisions, the
phases and the score sources) in anything a person sees of a whole game of each registered game: browser play
(every view of the web game: its picture's text, the moves in words, the decision, its rules hint, the End button,
the AI moves' reasons, an advice, a refusal, and the page itself), the HTML replay and the text log, and the
terminal game's transcript with its commands. The terminal game's commands (help, board, hint, why, undo) are
also driven through a pseudo-terminal, as a person types them."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from game_words import engine_identifiers, identifiers_in

from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import Game
from borabora_sim.simulate import replay
from borabora_sim.terminal import TerminalGame
from borabora_sim.viewer import record_game, replay_page
from borabora_sim.viewer.web_game import HUMAN, RequestError, WebGame, advise
from borabora_sim.viewer.web_page import page_html

ROOT = Path(__file__).resolve().parents[1]
GAMES = game_names()


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def svg_text(svg: str) -> str:
    """What a person reads of a picture: its text and its titles (tooltips)."""
    return " ".join(ElementTree.fromstring(svg).itertext())


class _Visible(HTMLParser):
    """The text of an HTML page outside its scripts and styles, with the titles (tooltips) of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [value for name, value in attrs if name in ("title", "placeholder", "aria-label") and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_html(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return " ".join(parser.parts)


def check(texts: list[str], game: Game, where: str) -> None:
    """None of `texts` holds an engine identifier (or another snake_case word but a player option)."""
    found = {token: text for text in texts for token in identifiers_in(text, game)}
    assert not found, f"{where}: engine identifiers {sorted(found)}, e.g. in {next(iter(found.values()))[:300]!r}"


def test_the_check_finds_the_identifiers_of_the_action_table() -> None:
    game = get_game("bora_bora")
    assert {"land_path", "fire_bonus_god", "C_take_task", "C_NW", "green_extra", "fish_tiles"} <= \
        engine_identifiers(game)
    assert identifiers_in("use man victory_points; T40: 3 fish_type_regions[0]", game) == [
        "fish_type_regions", "victory_points"]
    assert identifiers_in("mcts:iterations=20,rollout_depth=-1: chose Place a 3 on the Temple action", game) == []


# ---------------------------------------------------------------------------------------------------------------
# Browser play
# ---------------------------------------------------------------------------------------------------------------
def test_browser_play_of_a_whole_game_shows_no_engine_identifier(game: Game) -> None:
    players = [HUMAN, "heuristic"] + ["mcts:iterations=10"] * (min(game.player_counts) - 2)
    web = WebGame(game, players, seed=11)
    rng = random.Random(11)
    texts: list[str] = [visible_html(page_html())]
    views = advised = ended = 0
    while True:
        view = web.view()
        views += 1
        texts += [view["phase_words"], svg_text(view["svg"]), *(move["words"] for move in view["moves"][-3:])]
        if view["terminal"]:
            break
        texts.append(view["decision_words"])
        if not view["human_to_move"]:
            web.step(web.version)
            why = web.explanation(len(web.moves) - 1)
            texts += [why["words"], why["explanation"], json.dumps(why["reasons"])]
            continue
        texts += [view["hint"], *(move["words"] for move in view["legal"])]
        assert view["hint"] and all(move["words"] for move in view["legal"])
        if view["end"] is not None:
            texts.append(view["end"]["words"])
            ended += 1
        if views % 15 == 1:
            for spec in ("heuristic", "mcts:iterations=20"):
                advice = advise(web.advice_task(spec))
                texts += [advice["words"], advice["explanation"], json.dumps(advice["reasons"])]
                advised += 1
            with pytest.raises(RequestError) as refused:
                web.move(web.version, view["to_move"], -1)
            texts.append(str(refused.value))
        web.move(web.version, view["to_move"], rng.choice(view["legal"])["action"])
    assert advised >= 2 and views == len(web.moves) + 1 and (ended > 0 or game.end_action is None)
    check(texts, game, f"browser play of {game.name}")


# ---------------------------------------------------------------------------------------------------------------
# The replays
# ---------------------------------------------------------------------------------------------------------------
def test_the_replay_of_a_whole_game_shows_no_engine_identifier(game: Game) -> None:
    specs = ["heuristic", "mcts:iterations=15"] + ["random"] * (min(game.player_counts) - 2)
    record = record_game(7, specs, game=game.name, reasons=4)
    assert any(reasons is not None for reasons in record.reasons)
    page = replay_page(record)
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page,
                                re.S).group(1))
    pictures = [svg_text(root + "".join(data["pieces"][k] for k in frame[1:]) + "</svg>")
                for frame in data["frames"][::25] for root in [data["roots"][frame[0]]]]
    shown = [json.dumps({key: data[key] for key in ("reasons", "sources", "names", "unit")})]
    check([visible_html(page), *pictures, *shown], game, f"the HTML replay of {game.name}")
    check(replay(7, specs, game=game.name), game, f"the text replay of {game.name}")


# ---------------------------------------------------------------------------------------------------------------
# The terminal game
# ---------------------------------------------------------------------------------------------------------------
class Typist:
    """A person at the terminal game: now and then a command (help, board, hint, why, undo), else a random
    choice; everything written is kept."""

    COMMANDS = ("help", "board", "hint", "why", "hint mcts:iterations=20", "undo", "nonsense")

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.written: list[str] = []
        self.asked = 0
        self.choices = 0

    def write(self, text: str) -> None:
        self.written.append(text)
        match = re.match(r"^\s+(\d+): ", text)
        if match:
            self.choices = int(match[1])
        elif text.startswith("\nYour decision"):
            self.choices = 0

    def read(self, prompt: str) -> str:
        """Every command once in the first prompts, two between moves (so that the shortest game hears them all),
        then one every 9 prompts."""
        self.asked += 1
        pairs, place = divmod(self.asked - 1, 3)                 # two commands, then a move
        if place < 2 and 2 * pairs + place < len(self.COMMANDS):
            return self.COMMANDS[2 * pairs + place]
        if self.asked % 9 == 0:
            return self.COMMANDS[(self.asked // 9) % len(self.COMMANDS)]
        return str(self.rng.randrange(self.choices) + 1)

    @property
    def text(self) -> str:
        return "\n".join(self.written)


def test_the_terminal_game_of_a_whole_game_shows_no_engine_identifier(game: Game) -> None:
    players = min(game.player_counts)
    specs = [HUMAN, "heuristic"] + ["random"] * (players - 2)
    typist = Typist(5)
    played = TerminalGame(game, specs, 5, typist.read, typist.write)
    played.play()
    text = typist.text
    assert played.state.is_terminal() and "\nfinal scores " in text
    for seen in ("Commands:", "Rules of this decision", "would play:", "<- hint", "legend: ",
                 "Changed since your last decision:", "is not one of the legal choices below"):
        assert seen in text, seen
    check(typist.written, game, f"the terminal game of {game.name}")


def test_undo_in_the_terminal_replays_the_same_ai_moves() -> None:
    """Three decisions taken back and taken again give the same AI moves after them; undo with no decision of one's
    own to take back says so."""
    answers = iter(["undo", "1", "1", "1", "undo", "undo", "undo", "1", "1", "1", "q"])
    before_undo: list[list[int]] = []

    def read(_: str) -> str:
        answer = next(answers)
        if answer == "undo":
            before_undo.append([move.action for move in played.moves])
        return answer

    written: list[str] = []
    played = TerminalGame(get_game("bora_bora"), ["heuristic", HUMAN], 4, read, written.append)
    played.play()
    text = "\n".join(written)
    assert "There is no decision of yours to undo since the start of this game." in text
    assert len([line for line in written if line.startswith("Undone: back to before seat 1's move: ")]) == 3
    first_time, taken_back = before_undo[1], before_undo[3]
    assert len(taken_back) < len(first_time)
    assert [move.action for move in played.moves] == first_time
    seats = [move.seat for move in played.moves]
    assert 0 in seats[seats.index(1):], "an AI move after a human one was taken back and made again"
    assert written[-1] == "\ngame abandoned"


def test_a_move_is_chosen_by_its_number_its_words_or_its_engine_name() -> None:
    game = get_game("pig")
    start = game.new_initial_state(players=2, seed=2)
    answers = iter([game.describe_action(start, 0).upper(), "roll", "2", "q"])
    written: list[str] = []
    played = TerminalGame(game, [HUMAN, HUMAN], 2, lambda _: next(answers), written.append)
    played.play()
    assert [game.action_name(move.action) for move in played.moves][:2] == ["roll", "roll"]
    assert game.action_name(played.moves[-1].action) == "hold"
    assert "is not one of the legal choices" not in "\n".join(written)


# ---------------------------------------------------------------------------------------------------------------
# A person at a terminal: the commands through a pseudo-terminal
# ---------------------------------------------------------------------------------------------------------------
class Terminal:
    """`borabora play` in a pseudo-terminal: `type(line)` sends a line and returns what the game wrote until its
    next prompt (or its end)."""

    PROMPT = "choose a number or a move (help for the commands, q to quit): "

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
        self.process = subprocess.Popen([sys.executable, "-m", "borabora_sim", "play", *args], stdin=slave,
                                        stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)

    def read(self, timeout: float = 60.0) -> str:
        """What the game writes until its prompt, or until it ends."""
        out = b""
        deadline = time.monotonic() + timeout
        while not out.decode(errors="replace").endswith(self.PROMPT):
            left = deadline - time.monotonic()
            assert left > 0, f"no prompt within {timeout} s; the game wrote: {out.decode(errors='replace')}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:             # the game ended and closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
        return out.decode(errors="replace").replace("\r\n", "\n")

    def type(self, line: str) -> str:
        os.write(self.master, (line + "\n").encode())
        answer = self.read()
        echoed = line + "\n"
        return answer[len(echoed):] if answer.startswith(echoed) else answer

    def close(self) -> int:
        os.close(self.master)
        return self.process.wait(timeout=30)


def test_the_terminal_commands_through_a_pseudo_terminal() -> None:
    game = get_game("pig")
    terminal = Terminal("--game", "pig", "--players", "human,heuristic", "--seed", "5")
    try:
        screen = terminal.read()
        assert "type help for the commands" in screen and "Your decision, seat 0: Roll again or hold?" in screen
        assert "Roll again (a 1 loses the turn total of" in screen and "Hold: bank" in screen
        helped = terminal.type("help")
        assert "Commands:" in helped and "undo" in helped and "hint [SPEC]" in helped
        assert "Rules of this decision (Roll again or hold? " in helped and game.rules_hint("roll_or_hold") in helped
        assert terminal.type("why").startswith("No AI move yet")
        hinted = terminal.type("hint")                 # the default advisor, the preset strong: a search
        assert "The strong AI would play: " in hinted and "win chance  visits  move" in hinted and "legend: " in hinted
        assert len(re.findall(r"<- hint$", hinted, re.M)) == 1
        hinted = terminal.type("hint heuristic")
        assert re.search(r"^The [a-z0-9-]+ heuristic would play: ", hinted, re.M)
        assert "PTS vs best  move" in hinted and "legend: " in hinted
        assert len(re.findall(r"<- hint$", hinted, re.M)) == 1
        board = terminal.type("board")
        assert "Pig to 100, round 1" in board
        after = terminal.type("2")                      # hold: the heuristic plays its turn, then ours again
        assert "seat 1 (the keep-pace heuristic): " in after and "Changed since your last decision:" in after
        why = terminal.type("why")
        assert why.startswith("Why seat 1 (the keep-pace heuristic) played ") and "legend: " in why
        undone = terminal.type("undo")
        assert "Undone: back to before seat 0's move: Hold: bank" in undone
        assert "Your decision, seat 0: Roll again or hold?" in undone
        again = terminal.type("2")
        assert [line for line in again.splitlines() if line.startswith("seat 1 ")] == \
            [line for line in after.splitlines() if line.startswith("seat 1 ")]
        check([screen, helped, hinted, board, after, why, undone, again], game, "the terminal game of pig")
        os.write(terminal.master, b"q\n")
        assert "game abandoned" in terminal.read(timeout=30)
    finally:
        assert terminal.close() == 0
