"""The browser game's HTTP API (borabora_sim.viewer.server, docs/web_play.md) without a browser: a server on a free
port of 127.0.0.1 in a thread, driven with http.client. A whole game played through requests ends with the
engine's scores for the same seed and moves; every kind of bad request is refused with a 4xx JSON error and the
game unchanged; undo, advice and a save / load round trip."""

from __future__ import annotations

import dataclasses
import http.client
import itertools
import json
import random
import re
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import borabora_sim
from borabora_sim import games
from borabora_sim.cli import main
from borabora_sim.games import game_names, get_game
from borabora_sim.players import make_player
from borabora_sim.viewer import to_svg
from borabora_sim.viewer.server import MAX_BODY, WebServer
from borabora_sim.viewer.web_game import RequestError, WebGame, think
from borabora_sim.viewer.web_targets import click_targets

SEED = 21
PLAYERS = ["human", "heuristic"]


class Client:
    """Requests to one server, as its page sends them (with its Origin); answers are (status, decoded JSON or the
    page's text)."""

    def __init__(self, server: WebServer) -> None:
        self.server = server

    def call(self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None,
             raw: bytes | None = None) -> tuple[int, Any]:
        sent = raw if raw is not None else None if body is None else json.dumps(body).encode()
        given = {"Origin": self.server.origins[0]}
        given.update({"Content-Type": "application/json"} if sent is not None else {})
        given.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        try:
            connection.request(method, path, body=sent, headers=given)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        if response.getheader("Content-Type", "").startswith("application/json"):
            return response.status, json.loads(payload)
        return response.status, payload.decode()

    def state(self) -> dict[str, Any]:
        status, view = self.call("GET", "/api/state")
        assert status == 200, view
        return view

    def post(self, path: str, body: object) -> dict[str, Any]:
        status, view = self.call("POST", path, body)
        assert status == 200, view
        return view

    def saved(self) -> dict[str, Any]:
        status, data = self.call("GET", "/api/save")
        assert status == 200, data
        return data

    def to_human(self, view: dict[str, Any]) -> dict[str, Any]:
        """Steps the AI seats until a human is to move or the game is over."""
        while not view["terminal"] and not view["human_to_move"]:
            view = self.post("/api/step", {"version": view["version"]})
        return view

    def human_move(self, view: dict[str, Any], action: int) -> dict[str, Any]:
        return self.post("/api/move", {"version": view["version"], "seat": view["to_move"], "action": action})


def start(players: list[str], seed: int = SEED, game: str = "bora_bora") -> WebServer:
    server = WebServer(WebGame(get_game(game), players, seed))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


@pytest.fixture
def client() -> Iterator[Client]:
    server = start(PLAYERS)
    yield Client(server)
    server.shutdown()
    server.server_close()


def engine_state(players: int, seed: int, moves: list[dict[str, Any]]) -> borabora_sim.State:
    state = borabora_sim.new_game(players=players, seed=seed)
    for move in moves:
        state.apply(move["action"])
    return state


def assert_targets_drawn(view: dict[str, Any]) -> None:
    """Every move the board can pick names a thing of the picture (any one of its things: a die on a tile of
    Bora Bora is drawn only while one lies there)."""
    for move in view["legal"]:
        if move["targets"]:
            assert any(f'{attribute}="{value}"' in view["svg"] if value is not None else f"{attribute}="
                       in view["svg"] for attribute, value in move["targets"]), move


def test_a_whole_game_through_http_ends_with_the_engine_scores(client: Client) -> None:
    rng = random.Random(5)
    view = client.state()
    assert view["seed"] == SEED and view["players"] == PLAYERS and view["viewer"] == 0
    human_decisions = 0
    while not view["terminal"]:
        view = client.to_human(view)
        if view["terminal"]:
            break
        assert view["to_move"] == 0 and view["legal"]
        assert_targets_drawn(view)
        view = client.human_move(view, rng.choice(view["legal"])["action"])
        human_decisions += 1
    final = engine_state(2, SEED, view["moves"])
    assert final.is_terminal()
    assert view["scores"] == final.scores() and view["winner"] == final.winner()
    assert human_decisions == sum(not move["ai"] for move in view["moves"]) > 20
    assert view["legal"] == [] and view["to_move"] is None


def test_ai_moves_come_one_at_a_time_with_their_reasons(client: Client) -> None:
    view = client.state()
    while view["human_to_move"]:
        view = client.human_move(view, view["legal"][0]["action"])
    assert view["legal"] == []                  # an AI seat's options are not shown (they tell what it holds)
    before = len(view["moves"])
    view = client.post("/api/step", {"version": view["version"]})
    assert len(view["moves"]) == before + 1 and view["moves"][-1]["ai"]
    status, why = client.call("GET", f"/api/why?move={before}")
    assert status == 200 and why["name"] == view["moves"][-1]["name"] and why["words"] == view["moves"][-1]["words"]
    assert why["explanation"].startswith("the balanced heuristic: chose ") and why["words"] in why["explanation"]
    reasons = why["reasons"]
    assert reasons["columns"] == ["VP vs best"] and "not a forecast" in reasons["legend"]
    [chosen] = [row for row in reasons["rows"] if row["chosen"]]
    assert chosen["action"] == view["moves"][-1]["action"] and chosen["words"] == why["words"]
    assert all(len(row["cells"]) == 1 for row in reasons["rows"]) and reasons["weighed"] >= len(reasons["rows"])


def test_undo_goes_back_to_before_the_human_decision_and_replays_the_same_ai_moves(client: Client) -> None:
    view = client.to_human(client.human_move(client.state(), client.state()["legal"][0]["action"]))
    before, saved_before = view, client.saved()
    action = view["legal"][-1]["action"]
    after = client.to_human(client.human_move(view, action))
    assert after["can_undo"] and len(after["moves"]) > len(before["moves"]) + 1     # AI moves followed
    undone = client.post("/api/undo", {"version": after["version"]})
    assert undone["moves"] == before["moves"] and undone["legal"] == before["legal"]
    assert client.saved()["state"] == saved_before["state"]
    again = client.to_human(client.human_move(undone, action))
    assert again["moves"] == after["moves"] and again["svg"] == after["svg"]
    # Undo from the start of a game without a human decision is refused.
    first = client.post("/api/undo", {"version": again["version"]})
    first = client.post("/api/undo", {"version": first["version"]})
    assert not first["can_undo"] and first["moves"] == []
    status, error = client.call("POST", "/api/undo", {"version": first["version"]})
    assert status == 409 and "no human decision to undo" in error["error"]


def test_a_move_thought_before_an_undo_is_refused_and_the_undone_game_kept() -> None:
    """An AI seat's move is played only on the position it was thought for: an undo while it thinks wins."""
    game = WebGame(get_game("bora_bora"), PLAYERS, SEED)
    game.move(game.version, 0, game.state.legal_actions()[0])
    while game.state.current_player != 1:
        game.move(game.version, 0, game.state.legal_actions()[0])
    task = game.step_task(game.version)
    move = think(game.game, task)
    game.undo(game.version)
    undone = game.view()
    with pytest.raises(RequestError) as refused:
        game.finish_step(task, move)
    assert refused.value.status == 409
    assert str(refused.value) == (f"the game changed while seat 1 (heuristic) was thinking: it was at version "
                                  f"{task.version}, it is at version {task.version + 1}; reload the position")
    assert game.view() == undone


def test_save_and_load_round_trip(client: Client) -> None:
    view = client.state()
    while not any(move["ai"] for move in view["moves"]):
        view = client.to_human(client.human_move(view, view["legal"][0]["action"]))
    status, text = client.call("GET", "/api/save")
    assert status == 200
    saved = text
    assert saved["players"] == PLAYERS and saved["seed"] == SEED and saved["game"] == "bora_bora"
    later = client.to_human(client.human_move(view, view["legal"][0]["action"]))
    assert later["moves"] != view["moves"]
    loaded = client.post("/api/load", saved)
    assert loaded["version"] > later["version"]                # pages showing the game before are now stale
    assert loaded["legal"] == view["legal"] and loaded["svg"] == view["svg"] and loaded["scores"] == view["scores"]
    assert client.saved()["state"] == saved["state"]
    # The moves since the start are kept, with the AI seats' reasons, and can be undone.
    assert loaded["moves"] == view["moves"] and loaded["can_undo"]
    ai = max(i for i, move in enumerate(view["moves"]) if move["ai"])
    assert client.call("GET", f"/api/why?move={ai}")[1]["reasons"] == saved["moves"][ai]["reasons"] is not None
    # The game goes on from the loaded position, as the engine plays it from the saved state.
    resumed = client.human_move(loaded, loaded["legal"][0]["action"])
    state = borabora_sim.State.from_dict(saved["state"], borabora_sim.rules_for())
    state.apply(loaded["legal"][0]["action"])
    assert resumed["scores"] == state.scores() and resumed["decision"] == state.decision
    # A file of version 1 (the position alone) still loads; its history starts at the position.
    alone = {key: value for key, value in saved.items() if key not in ("start", "moves")}
    loaded = client.post("/api/load", {**alone, "format_version": 1})
    assert loaded["legal"] == view["legal"] and loaded["moves"] == [] and not loaded["can_undo"]


def test_a_saved_history_that_does_not_hold_is_refused(client: Client) -> None:
    """The moves of a file are played again from its start: a move not legal there, moves that do not lead to its
    state, or reasons not as a saved game keeps them are refused, and the game kept."""
    client.to_human(client.human_move(client.state(), client.state()["legal"][0]["action"]))
    saved = client.saved()
    view = client.state()
    moves = saved["moves"]
    illegal = [{**moves[0], "action": 10_000}, *moves[1:]]
    odd_reasons = [*moves[:-1], {**moves[-1], "reasons": {"why": 3}}]
    for bad, words in (({**saved, "moves": illegal}, "move 0 (seat 0, action 10000) is not a legal move there"),
                       ({**saved, "moves": moves[:-1]}, "its moves do not lead from its start to its state"),
                       ({**saved, "moves": odd_reasons}, "'reasons' or 'targets' is not as a saved game keeps"),
                       ({**saved, "moves": {}}, "'moves' must be the list"),
                       ({k: v for k, v in saved.items() if k != "start"}, "missing start")):
        status, answer = client.call("POST", "/api/load", bad)
        assert status == 400 and words in answer["error"], (words, answer)
        assert client.state() == view and client.saved() == saved


def test_advice_names_a_legal_move_with_reasons_and_changes_nothing(client: Client) -> None:
    view = client.state()
    for spec in ("heuristic", "mcts:iterations=40"):
        status, advice = client.call("GET", f"/api/advice?player={spec}")
        assert status == 200, advice
        assert advice["action"] in [move["action"] for move in view["legal"]]
        assert advice["words"] in advice["explanation"] and advice["version"] == view["version"]
        [move] = [move for move in view["legal"] if move["action"] == advice["action"]]
        assert move["words"] == advice["words"]
        rows = advice["reasons"]["rows"]
        assert [row["action"] for row in rows if row["chosen"]] == [advice["action"]]
        assert {row["words"] for row in rows} <= {move["words"] for move in view["legal"]}
        if spec.startswith("mcts"):
            assert advice["reasons"]["columns"] == ["win chance", "visits"]
            assert all(row["cells"][0].endswith("%") for row in rows)
    assert client.state() == view


def bad_requests(view: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, keyword arguments of Client.call) of requests that must be refused, human to move."""
    version, seat = view["version"], view["to_move"]
    legal = {move["action"] for move in view["legal"]}
    illegal = next(a for a in range(get_game().num_actions) if a not in legal)
    move = {"version": version, "seat": seat, "action": view["legal"][0]["action"]}
    return [
        ("POST", "/api/move", {"body": {**move, "action": illegal}}),                   # illegal action
        ("POST", "/api/move", {"body": {**move, "action": -1}}),
        ("POST", "/api/move", {"body": {**move, "action": str(move["action"])}}),       # wrong types
        ("POST", "/api/move", {"body": {**move, "action": True}}),
        ("POST", "/api/move", {"body": {**move, "version": version - 1}}),              # stale
        ("POST", "/api/move", {"body": {**move, "version": "latest"}}),
        ("POST", "/api/move", {"body": {**move, "seat": 1}}),                           # an AI's seat
        ("POST", "/api/move", {"body": {**move, "seat": 7}}),
        ("POST", "/api/move", {"body": {"version": version, "action": move["action"]}}),  # missing field
        ("POST", "/api/move", {"body": {**move, "extra": 1}}),                          # unknown field
        ("POST", "/api/move", {"raw": b'{"version": 0, "seat": 0,'}),                   # malformed JSON
        ("POST", "/api/move", {"raw": b"\xff\xfe"}),
        ("POST", "/api/move", {"body": [move]}),                                        # not an object
        ("POST", "/api/move", {"body": move, "headers": {"Content-Type": "text/plain"}}),
        ("POST", "/api/move", {"body": move, "headers": {"Host": "evil.example:80"}}),
        ("POST", "/api/move", {"raw": b"{}", "headers": {"Content-Length": str(MAX_BODY + 1)}}),
        ("POST", "/api/step", {"body": {"version": version}}),                          # the human's turn
        ("POST", "/api/undo", {"body": {"version": version}}),                          # nothing to undo
        ("POST", "/api/new", {"body": {"version": version - 1, "players": ["human", "random"], "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": "human,random", "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", 3], "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "nobody"], "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human"], "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human"] * 5, "seed": 1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "random"], "seed": -1}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "random"], "seed": 2**64}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "random"], "seed": "7"}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "random"], "seed": True}}),
        ("POST", "/api/new", {"body": {"version": version, "players": ["human", "random"]}}),
        ("GET", "/api/new", {}),
        ("POST", "/api/load", {"raw": b"not json"}),
        ("POST", "/api/load", {"body": {"format": "something else"}}),
        ("POST", "/api/nothing", {"body": {}}),
        ("POST", "/api/state", {"body": {}}),
        ("GET", "/api/move", {}),
        ("GET", "/api/nothing", {}),
        ("GET", "/api/why?move=0", {}),                                                 # no move yet
        ("GET", "/api/why?move=x", {}),
        ("GET", "/api/advice?player=human", {}),
        ("GET", "/api/advice?player=mcts:iterations=0", {}),
        ("GET", "/api/advice?player=nobody", {}),
        ("PUT", "/api/move", {"body": move}),
        ("DELETE", "/api/state", {}),
    ]


def test_every_kind_of_bad_request_is_refused_and_changes_nothing(client: Client) -> None:
    view = client.state()
    saved = client.saved()
    for method, path, options in bad_requests(view):
        status, answer = client.call(method, path, **options)
        assert 400 <= status < 500, (method, path, options, status, answer)
        assert isinstance(answer, dict) and set(answer) == {"error"}, answer
        assert answer["error"] and "\n" not in answer["error"], answer
        assert client.state() == view and client.saved() == saved, (method, path, options)


def test_the_errors_say_what_was_wrong(client: Client) -> None:
    view = client.state()
    move = {"version": view["version"], "seat": 0, "action": view["legal"][0]["action"]}
    cases = [
        ({**move, "action": 215}, 400, "not legal for seat 0 now; legal: "),
        ({**move, "version": view["version"] + 3}, 409, "stale request"),
        ({**move, "seat": 1}, 403, "must be a human seat (0)"),
    ]
    for body, status, words in cases:
        got_status, answer = client.call("POST", "/api/move", body)
        assert got_status == status and words in answer["error"], answer
    status, answer = client.call("POST", "/api/move", raw=b"{")
    assert status == 400 and answer["error"].startswith("malformed JSON")
    assert client.call("GET", "/api/why?move=x") == (400, {"error": "'move' must be a move number (0 is the first), "
                                                                      "got 'x'"})
    assert client.call("GET", "/api/why?move=5") == (404, {"error": "no move 5: 0 move(s) since the start of this "
                                                                      "game"})
    # An AI seat's turn: a human move is refused, naming who is to move.
    while view["human_to_move"]:
        view = client.human_move(view, view["legal"][0]["action"])
    status, answer = client.call("POST", "/api/move", {**move, "version": view["version"]})
    assert status == 409 and "seat 1 (heuristic) is" in answer["error"]
    status, answer = client.call("GET", "/api/advice")
    assert status == 409 and "no human is to move" in answer["error"]


def test_a_new_game_takes_the_seats_and_seed_asked_for(client: Client) -> None:
    view = client.to_human(client.human_move(client.state(), client.state()["legal"][0]["action"]))
    players = ["heuristic", "human", "random"]
    new = client.post("/api/new", {"version": view["version"], "players": players, "seed": 9})
    assert new["version"] == view["version"] + 1 and new["seed"] == 9 and new["players"] == players
    assert new["moves"] == [] and not new["can_undo"] and new["game"] == "bora_bora"
    assert client.saved()["state"] == borabora_sim.new_game(players=3, seed=9).to_dict()
    new = client.to_human(new)          # the AI seats play until the human seat (1) is to move
    assert new["to_move"] == new["viewer"] == 1 and all(m["seat"] != 1 for m in new["moves"])
    # The old version is stale now; no human seat makes a game to watch; no seed draws one.
    status, answer = client.call("POST", "/api/new", {"version": view["version"], "players": players, "seed": 9})
    assert status == 409 and "stale request" in answer["error"]
    watched = client.post("/api/new", {"version": new["version"], "players": ["random", "random"], "seed": None})
    assert watched["viewer"] is None and watched["players"] == ["random", "random"]
    assert isinstance(watched["seed"], int) and 0 <= watched["seed"] < 2**64


def test_a_refused_new_game_says_why_and_keeps_the_game(client: Client) -> None:
    view, saved = client.state(), client.saved()
    base = {"version": view["version"], "players": ["human", "random"], "seed": 3}
    cases = [
        ({**base, "players": ["human", "nobody"]}, "the new game was refused: unknown player 'nobody'"),
        ({**base, "players": ["human"]}, "the new game was refused: players must be 2, 3 or 4, got 1"),
        ({**base, "players": "human,random"}, "'players' must be a list of player specs by seat"),
        ({**base, "seed": "7"}, "'seed' must be an integer in [0, 2**64) or null (a random seed), got '7'"),
        ({**base, "seed": -1}, "seed must be an int in [0, 2**64) or None, got -1"),
        ({"version": view["version"], "players": ["human", "random"]},
         "/api/new takes a JSON object of exactly version, players, seed; got players, version"),
    ]
    for body, words in cases:
        status, answer = client.call("POST", "/api/new", body)
        assert status == 400 and words in answer["error"], (words, answer)
        assert client.state() == view and client.saved() == saved


def test_a_saved_game_the_engine_refuses_is_refused_and_the_game_kept(client: Client) -> None:
    saved = client.saved()
    view = client.state()
    broken_state = json.loads(json.dumps(saved))
    broken_state["state"]["state"]["round"] = 9                  # rounds are 1-6
    wrong_seats = {**saved, "players": ["human", "heuristic", "random"]}
    bad_spec = {**saved, "players": ["human", "nobody"]}
    for bad, words in ((broken_state, "the saved game was refused"), (wrong_seats, "2 seats but 3 player specs"),
                       (bad_spec, "unknown player 'nobody'"), ({**saved, "game": "chess"}, "unknown game"),
                       ({**saved, "format_version": 99}, "not a saved game of this version"),
                       ({k: v for k, v in saved.items() if k != "seed"}, "missing seed"), ([], "JSON object"),
                       ({**saved, "seed": None}, "'seed' must be the game's seed"),
                       ({**saved, "seed": -1}, "seed must be an int in [0, 2**64)")):
        status, answer = client.call("POST", "/api/load", bad)
        assert status == 400 and words in answer["error"], (words, answer)
        assert client.state() == view and client.saved() == saved


def test_the_page_needs_nothing_but_this_server(client: Client) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", client.server.port, timeout=30)
    connection.request("GET", "/")
    response = connection.getresponse()
    page = response.read().decode()
    connection.close()
    assert response.status == 200 and page.startswith("<!DOCTYPE html>")
    assert "connect-src 'self'" in response.getheader("Content-Security-Policy", "")
    assert "http://" not in page and "https://" not in page and "src=" not in page
    assert client.call("GET", "/api/state", headers={"Host": f"localhost:{client.server.port}"})[0] == 200
    assert client.call("GET", "/api/state", headers={"Host": "localhost"})[0] == 403


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_through_the_same_api(name: str) -> None:
    """Any game plays with no other change: a whole game ends with the engine's scores; the board picks every
    move of a game with click targets, and a game without a picture is shown by its text."""
    game = get_game(name)
    players = ["human", "random", "heuristic", "random"][:3 if 3 in game.player_counts else min(game.player_counts)]
    server = start(players, seed=4, game=name)
    try:
        web = Client(server)
        rng = random.Random(2)
        view = web.to_human(web.state())
        decisions = picked = 0
        while not view["terminal"]:
            assert_targets_drawn(view)
            decisions += 1
            picked += all(move["targets"] for move in view["legal"])
            view = web.to_human(web.human_move(view, rng.choice(view["legal"])["action"]))
    finally:
        server.shutdown()
        server.server_close()
    state = game.new_initial_state(players=len(players), seed=4)
    for move in view["moves"]:
        state.apply(move["action"])
    assert state.is_terminal() and view["scores"] == state.scores() and view["unit"] == game.score_unit
    assert decisions > 0 and picked == (decisions if games.record_of(name).click_targets else 0)
    if games.record_of(name).picture is None:
        assert 'data-game="text"' in view["svg"]


# ---------------------------------------------------------------------------------------------------------------
# Board clicks for every kind of move: the targets of each kind, checked against the picture
# ---------------------------------------------------------------------------------------------------------------
def drawn(svg: str) -> dict[tuple[str, str], ET.Element]:
    """Every named thing of the picture by (data attribute, value)."""
    return {(name, value): element for element in ET.fromstring(svg).iter()
            for name, value in element.attrib.items() if name.startswith("data-")}


def new_shoots(things: dict[tuple[str, str], ET.Element], ending: str) -> set[tuple[str, str]]:
    return {("data-shoot", value) for (name, value), e in things.items()
            if name == "data-shoot" and "-new-" in value and e.attrib["data-kind"].endswith(ending)}


def wildcards(things: dict[tuple[str, str], ET.Element]) -> set[tuple[str, str]]:
    """The new shoots a Wildcard activation picks: those showing a Wildcard, or any after Kitsune (said in the
    line of the turn in progress)."""
    turn = next((e.text or "" for (name, _), e in things.items() if name == "data-visit"), "")
    return new_shoots(things, "" if "Kitsune" in turn else "-wildcard")


# For each kind of move added to the board clicks: the game, the pattern of its names, and the targets it must
# have, found from the picture as the mover sees it (`things`), the mover's seat and the name's match.
Expect = Any
KINDS: list[tuple[str, str, Expect]] = [
    ("bora_bora", r"play (\w+?)(?:_double|_extra)? god with card",
     lambda t, seat, m: {("data-god-hand", f"{seat}-{m[1]}"), ("data-god-discard", m[1])}),
    ("bora_bora", r"play (\w+?)(?:_double|_extra)? god with pair of (\w+)",
     lambda t, seat, m: {("data-god-hand", f"{seat}-{m[2]}"), ("data-god-discard", m[1])}
     if int(t["data-god-hand", f"{seat}-{m[2]}"].attrib["data-count"]) >= 2 else "no pair in hand"),
    ("bora_bora", r"play (\w+?)(?:_double|_extra)? god with god tile",
     lambda t, seat, m: {("data-player-count", f"{seat}-god_tiles"), ("data-god-discard", m[1])}
     if int(t["data-player-count", f"{seat}-god_tiles"].attrib["data-value"]) >= 1 else "no God tile"),
    ("bora_bora", r"offering", lambda t, seat, m: {("data-player-count", f"{seat}-offerings")}),
    ("bora_bora", r"shell", lambda t, seat, m: {("data-player-count", f"{seat}-shells")}),
    ("bora_bora", r"move hut to 12th space", lambda t, seat, m: {("data-player-count", f"{seat}-huts_on_12th")}),
    ("bora_bora", r"use (man|woman) (\w+)",
     lambda t, seat, m: {key for key, e in t.items() if key[0] == "data-person-slot"
                         and key[1].startswith(f"{seat}-") and e.attrib["data-sex"] == m[1]
                         and e.attrib["data-type"] == m[2]}),
    ("bora_bora", r"done", lambda t, seat, m: {("data-decision", None)}),
    ("bamboo", r"shoot (\w+) (\w+)",
     lambda t, seat, m: {key for key, e in t.items() if key[0] == "data-shoot"
                         and key[1].startswith(("draft-", "to-place-")) and e.attrib["data-kind"] == f"{m[1]}-{m[2]}"}),
    ("bamboo", r"activate (balance|improve|cook|fund)", lambda t, seat, m: new_shoots(t, f"-{m[1]}")),
    ("bamboo", r"activate wildcard as \w+", lambda t, seat, m: wildcards(t)),
    ("bamboo", r"balance 1 HP", lambda t, seat, m: {("data-hp-seat", str(seat))}),
    ("bamboo", r"score (\w+) balance (\d)",
     lambda t, seat, m: {("data-balance-slot", f"{seat}-{m[1]}-{m[2]}")}
     if "data-tile" in t["data-balance-slot", f"{seat}-{m[1]}-{m[2]}"].attrib else "no tile in the slot"),
    ("bamboo", r"improve 1 coin", lambda t, seat, m: {("data-coins", str(seat))}),
    ("bamboo", r"renew food", lambda t, seat, m: {("data-food-pile", "1")}),
    ("bamboo", r"done", lambda t, seat, m: {("data-decision", None)}),
]


@pytest.mark.slow
def test_every_move_has_board_targets_and_the_new_kinds_pick_the_right_things() -> None:
    """Along games of both games (the heuristic and random moves taken in turn, so that most kinds of moves come
    up), every legal move of the mover is marked on the board by things the picture draws; each kind of move in
    KINDS has exactly the targets found from the picture, and every kind comes up."""
    seen = dict.fromkeys([(name, pattern) for name, pattern, _ in KINDS], 0)
    for spec, players, seeds in (("bora_bora", 2, 2), ("bamboo:mode=advanced", 2, 2), ("bamboo", 3, 1)):
        game = get_game(spec)
        kinds = [(re.compile(pattern), pattern, expect) for name, pattern, expect in KINDS if name == game.name]
        for seed in range(seeds):
            state = game.new_initial_state(players=players, seed=seed)
            heuristic, rng = make_player("heuristic", seed, game), random.Random(seed)
            for step in itertools.count():
                if state.is_terminal():
                    break
                seat, legal = state.current_player, state.legal_actions()
                targets = click_targets(game.name, state, legal)
                svg = to_svg(state, seat)
                things = drawn(svg)
                assert_targets_drawn({"svg": svg, "legal": [{"targets": targets.get(a, []), "action": a}
                                                            for a in legal]})
                for action in legal:
                    name = state.action_to_string(action)
                    assert targets.get(action), f"{game.name}: no board target for {name}"
                    for regex, pattern, expect in kinds:
                        match = regex.fullmatch(name)
                        if match:
                            wanted = expect(things, seat, match)
                            assert wanted and {tuple(t) for t in targets[action]} == wanted, (name, wanted)
                            seen[game.name, pattern] += 1
                            break
                state.apply(heuristic.choose(state.clone()) if step % 2 else rng.choice(legal))
    assert all(seen.values()), [kind for kind, n in seen.items() if not n]


def test_a_game_without_a_picture_is_shown_by_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games._RECORDS, "bamboo", dataclasses.replace(games.record_of("bamboo"), picture=None,
                                                                      click_targets=None))
    game = get_game("bamboo")
    view = WebGame(game, ["human", "random"], 1).view()
    state = game.new_initial_state(players=2, seed=1)
    assert 'data-game="text"' in view["svg"] and not any(move["targets"] for move in view["legal"])
    shown = " ".join(ET.fromstring(view["svg"]).itertext())
    assert all(line.strip() in shown for line in game.render(state, 0).splitlines())


def test_the_command_line_refuses_web_options_without_web(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--port", "8080"]) == 2
    assert "--port and --no-browser are options of --web" in capsys.readouterr().err
    assert main(["play", "--web", "--no-browser", "--players", "human,nobody"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err


def test_the_command_serves_the_game_until_interrupted(tmp_path: Path) -> None:
    command = [sys.executable, "-u", "-m", "borabora_sim", "play", "--web", "--no-browser", "--seed", "5",
               "--players", "human,random"]
    # run outside the source tree: `python -m` puts the working directory first on the path, and a source tree
    # without its compiled modules (an installed, not editable, package) must not shadow the installed one
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "game seed 5; seats: 0: human, 1: random\n"
        address = process.stdout.readline()
        assert address.startswith("playing at http://127.0.0.1:"), address
        port = int(address.split()[2].rstrip("/").rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/state")
        view = json.loads(connection.getresponse().read())
        connection.close()
        assert view["seed"] == 5 and view["players"] == ["human", "random"]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0 and out.strip() == "server stopped" and err == ""
