"""The browser game's server (borabora_sim.viewer.server) under requests a page of its own never sends: a body
that does not come, a burst of reads, a long advice, pages of other sites, JSON of every bad shape, clients that go
away, and methods other than GET and POST. A real server on a free port of 127.0.0.1 in a thread, driven with
http.client and raw sockets."""

from __future__ import annotations

import http.client
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_web import PLAYERS, Client, start

from borabora_sim.viewer.server import CHANGED, MAX_DEPTH, SECURITY_HEADERS, WebServer

POST_ROUTES = ("/api/move", "/api/step", "/api/undo", "/api/new", "/api/load")


@pytest.fixture
def server() -> Iterator[WebServer]:
    served = start(PLAYERS)
    yield served
    served.shutdown()
    served.server_close()


def raw_request(server: WebServer, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Sends `data` as it is and reads the answer to its end: (status, headers by lower-case name, body)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(data)
        return read_answer(connection)


def read_answer(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    answer = b""
    try:
        while chunk := connection.recv(65536):
            answer += chunk
    except ConnectionResetError:    # after the answer: the server closed with part of a refused request unread
        if not answer:
            raise
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


def send(server: WebServer, method: str, path: str, body: object, headers: dict[str, str]) -> tuple[int, str]:
    """A request with exactly `headers` (besides Host, and Content-Type for a body): (status, error message)."""
    sent = None if body is None else json.dumps(body)
    given = {**({"Content-Type": "application/json"} if sent is not None else {}), **headers}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, sent, given)
        response = connection.getresponse()
        answer = json.loads(response.read())
    finally:
        connection.close()
    return response.status, answer.get("error", "")


def post_head(server: WebServer, path: str, length: int) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: {server.origins[0]}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n").encode()


def good_bodies(client: Client) -> dict[str, Any]:
    """A well-formed body for each POST route, the human to move (a step or an undo is then refused for the
    position, 409, never for its body)."""
    view = client.state()
    version = view["version"]
    return {"/api/move": {"version": version, "seat": view["to_move"], "action": view["legal"][0]["action"]},
            "/api/step": {"version": version}, "/api/undo": {"version": version},
            "/api/new": {"version": version, "players": ["human", "random"], "seed": 1}, "/api/load": client.saved()}


def test_a_body_that_does_not_come_holds_up_no_other_request(server: WebServer) -> None:
    """A POST whose body stops halfway is read outside the game lock: a read of the game is answered at once, and
    the POST is refused (408) once its time is up, bytes dripping in or not; a body cut short is refused (400)."""
    client = Client(server)
    view = client.state()
    server.read_seconds = 2.0
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as stalled:
        stalled.sendall(post_head(server, "/api/move", 100) + b'{"version": 0,')
        time.sleep(0.2)                         # the server has taken the request and waits for the rest
        started = time.monotonic()
        assert client.state() == view
        assert time.monotonic() - started < 1.0
        for _ in range(4):                      # a byte now and then does not keep the request open
            stalled.sendall(b" ")
            time.sleep(0.25)
        status, _, body = read_answer(stalled)
    assert status == 408
    assert json.loads(body)["error"].startswith("the body did not come within 2 s: ")
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as cut:
        cut.sendall(post_head(server, "/api/move", 100) + b'{"version": 0,')
        cut.shutdown(socket.SHUT_WR)
        status, _, body = read_answer(cut)
    assert status == 400
    assert json.loads(body)["error"] == "the body ended after 14 of the 100 bytes its Content-Length announced"
    assert client.state() == view


def test_200_reads_at_once_are_all_answered(server: WebServer) -> None:
    client = Client(server)
    version = client.state()["version"]
    ready = threading.Barrier(200)
    answers: list[tuple[int, int]] = []

    def read() -> None:
        ready.wait()
        status, view = client.call("GET", "/api/state")
        answers.append((status, view["version"]))

    readers = [threading.Thread(target=read) for _ in range(200)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert answers == [(200, version)] * 200


def test_an_advice_is_capped_computed_apart_one_at_a_time_and_stopped(server: WebServer) -> None:
    """An advice asking for more than the caps is refused, naming them; a long one holds up no read of the game,
    a second one meanwhile is refused, and a change of the game stops it; one that takes longer than the
    deadline is stopped; then an advice is given again."""
    client = Client(server)
    caps = "seconds <= 10, iterations <= 100000, rollouts <= 1000, samples <= 1000"
    for spec, asked in (("mcts:seconds=1e9", "seconds=1e+09"), ("mcts:iterations=1000000", "iterations=1000000"),
                        ("flatmc:rollouts=5000", "rollouts=5000"), ("learned:samples=2000", "samples=2000")):
        status, answer = client.call("GET", f"/api/advice?player={spec}")
        assert (status, answer) == (400, {"error": f"{spec} asks for {asked}: more than an advice may take; the "
                                                   f"caps are {caps}"})
    view = client.state()
    long_one: list[tuple[int, Any]] = []
    asking = threading.Thread(target=lambda: long_one.append(client.call("GET", "/api/advice?player=mcts:seconds=5")))
    asking.start()
    time.sleep(0.5)                             # the advice is being computed
    started = time.monotonic()
    assert client.state() == view
    assert time.monotonic() - started < 1.0
    status, answer = client.call("GET", "/api/advice?player=heuristic")
    assert status == 429 and "one is computed at a time" in answer["error"]
    moved = client.human_move(view, view["legal"][0]["action"])    # the game changes: the advice is stopped
    asking.join()
    assert long_one == [(409, {"error": CHANGED})]
    view = client.to_human(moved)
    server.advice.deadline = 1.0
    status, answer = client.call("GET", "/api/advice?player=mcts:seconds=5")
    assert (status, answer) == (503, {"error": "the advice was stopped after 1 s, the most one may take: ask for a "
                                               "smaller budget"})
    status, answer = client.call("GET", "/api/advice?player=heuristic")
    assert status == 200 and answer["action"] in [move["action"] for move in view["legal"]]
    assert client.state() == view


def test_an_ai_seat_thinks_outside_the_game_lock_one_at_a_time_and_a_change_meanwhile_wins() -> None:
    """While an AI seat thinks, a read of the game is answered at once and a second step is refused (429); a new
    game started meanwhile wins, and the thought move is refused (409), not played on the new game."""
    server = start(["mcts:seconds=1.5", "human"])
    try:
        client = Client(server)
        view = client.state()
        assert not view["human_to_move"]
        answers: list[tuple[int, Any]] = []
        thinking = threading.Thread(target=lambda: answers.append(client.call("POST", "/api/step",
                                                                               {"version": view["version"]})))
        thinking.start()
        time.sleep(0.3)                         # the seat is thinking
        started = time.monotonic()
        assert client.state() == view
        assert time.monotonic() - started < 1.0
        status, answer = client.call("POST", "/api/step", {"version": view["version"]})
        assert status == 429 and "one thinks at a time" in answer["error"]
        fresh = client.post("/api/new", {"version": view["version"], "players": ["heuristic", "human"], "seed": 3})
        thinking.join()
        assert answers == [(409, {"error": "a new game was started while the AI seat was thinking: reload the "
                                           "position"})]
        assert client.state() == fresh and fresh["moves"] == []
        stepped = client.post("/api/step", {"version": fresh["version"]})      # the next step thinks again
        assert len(stepped["moves"]) == 1 and stepped["version"] == fresh["version"] + 1
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_of_another_site_can_neither_change_the_game_nor_ask_for_advice(server: WebServer) -> None:
    client = Client(server)
    view, bodies = client.state(), good_bodies(client)
    here, port = server.origins[0], server.port
    requests = [("POST", path, bodies[path]) for path in POST_ROUTES] + [("GET", "/api/advice", None)]
    foreign: list[tuple[dict[str, str], str]] = [
        ({"Origin": "http://evil.example"}, "(Origin: http://evil.example)"),
        ({"Origin": "null"}, "(Origin: null)"),
        ({"Origin": f"http://127.0.0.1:{port + 1}"}, f"(Origin: http://127.0.0.1:{port + 1})"),
        ({"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, "(Origin: http://evil.example)"),
        ({"Origin": here, "Sec-Fetch-Site": "cross-site"}, "(Sec-Fetch-Site: cross-site)"),
        ({"Sec-Fetch-Site": "cross-site"}, "(Sec-Fetch-Site: cross-site)"),
        ({"Sec-Fetch-Site": "same-site"}, "(Sec-Fetch-Site: same-site)"),
    ]
    for method, path, body in requests:
        for headers, words in foreign:
            status, error = send(server, method, path, body, headers)
            assert status == 403 and error == (f"{path} is refused to a page of another site {words}: only this "
                                               f"server's page, {server.url}, may ask for it"), (path, headers)
        # Neither header: not a browser's request from this server's page either.
        assert send(server, method, path, body, {}) == (403, (
            f"{path} must come from this server's page: a browser says so in its Origin header; another client "
            f"must send Origin: http://127.0.0.1:{port}"))
    assert client.state() == view
    # The page's own requests: its Origin (at 127.0.0.1 or localhost), Sec-Fetch-Site alone for a read, or both.
    local = {"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"}
    assert send(server, "GET", "/api/advice", None, local)[0] == 200
    assert send(server, "GET", "/api/advice", None, {"Sec-Fetch-Site": "same-origin"})[0] == 200
    assert send(server, "GET", "/api/advice", None, {"Sec-Fetch-Site": "none"})[0] == 200   # typed in the address bar
    assert send(server, "POST", "/api/move", bodies["/api/move"], {"Origin": here, "Sec-Fetch-Site": "same-origin"}
                )[0] == 200


def nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


def test_json_of_any_bad_shape_is_refused_on_every_post_route(server: WebServer) -> None:
    client = Client(server)
    view, saved = client.state(), client.saved()
    bodies = good_bodies(client)
    digits = "9" * 4300
    malformed: list[tuple[bytes, str]] = [
        (nested(100_000), "the JSON is nested too deeply: at most 32 levels"),
        (nested(MAX_DEPTH + 1), "the JSON is nested too deeply"),
        (b'{"version": ' + digits.encode() + b"}", "an integer of 4,300 digits: integers of at most 100 digits"),
        (b'{"version": -' + digits.encode() + b"9}", "an integer of 4,301 digits"),
        (b"[" + b"1" * 101 + b"]", "an integer of 101 digits"),
        (b'{"version": NaN}', "NaN is not a JSON number: numbers must be finite"),
        (b"-Infinity", "-Infinity is not a JSON number"),
        (b'{"version": 0', "malformed JSON: "),
        (b"\xff\xfe\xfd", "malformed JSON: "),
        (b"", "malformed JSON: "),
    ]
    for path in POST_ROUTES:
        not_objects = [json.dumps(other).encode() for other in ([bodies[path]], "a string", 7, None, True)]
        for raw, words in [*malformed, *((raw, "") for raw in (*not_objects, nested(MAX_DEPTH)))]:
            status, answer = client.call("POST", path, raw=raw)
            assert status == 400 and words in answer["error"], (path, raw[:60], answer)
            assert answer["error"] and "\n" not in answer["error"], answer
        for field in bodies[path]:           # a field of a wrong type (a seat that is not a human seat: 403)
            for wrong in ("0", [0], {"a": 0}, 1.5, False, *([] if field == "seed" else [None])):  # null: a random seed
                status, answer = client.call("POST", path, {**bodies[path], field: wrong})
                assert status == (403 if field == "seat" else 400) and answer["error"], (path, field, wrong, answer)
        assert client.state() == view and client.saved() == saved, path


def quit_at_once(server: WebServer, request: bytes, after: float = 0.0) -> None:
    """Sends `request` and drops the connection `after` seconds (a reset, as a closed tab)."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.sendall(request)
    time.sleep(after)
    connection.close()


def test_a_client_that_goes_away_leaves_nothing_on_stderr(server: WebServer, capfd: pytest.CaptureFixture[str]
                                                          ) -> None:
    client = Client(server)
    capfd.readouterr()
    threads = threading.active_count()
    host = f"Host: 127.0.0.1:{server.port}\r\nOrigin: {server.origins[0]}\r\n"
    quit_at_once(server, f"GET /api/advice?player=heuristic HTTP/1.0\r\n{host}\r\n".encode(), 0.1)  # mid-answer
    for path in ("/", "/api/state", "/api/save"):
        for _ in range(5):
            quit_at_once(server, f"GET {path} HTTP/1.0\r\n{host}\r\n".encode())
    quit_at_once(server, post_head(server, "/api/move", 100) + b"{")
    deadline = time.monotonic() + 20
    while threading.active_count() > threads and time.monotonic() < deadline:  # every answer written, or not
        time.sleep(0.05)
    assert threading.active_count() <= threads
    assert client.state()["version"] == 0
    assert capfd.readouterr().err == ""


def test_every_answer_carries_the_security_headers(server: WebServer) -> None:
    """Pages, answers and refusals alike, and methods other than GET and POST, which are refused with 405 (an
    unknown one with 501) and the methods allowed."""
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    cases = [(f"{method} {path} HTTP/1.1\r\n{host}\r\n", status, allow)
             for method in ("OPTIONS", "HEAD", "TRACE", "PUT", "DELETE", "PATCH", "CONNECT", "BREW")
             for path, allow in (("/api/state", "GET"), ("/api/move", "POST"), ("/nowhere", "GET, POST"))
             for status in ([501] if method == "BREW" else [405])]
    cases += [(f"GET / HTTP/1.0\r\n{host}\r\n", 200, None), (f"GET /api/state HTTP/1.0\r\n{host}\r\n", 200, None),
              (f"GET /nowhere HTTP/1.0\r\n{host}\r\n", 404, None), ("GET /api/state HTTP/1.0\r\n\r\n", 403, None),
              (f"POST /api/move HTTP/1.0\r\n{host}\r\n", 403, None), ("GET / HTTP/9.x\r\n\r\n", 400, None),
              ("GET /\r\n\r\n", 403, None), (f"GET /{'x' * 70_000} HTTP/1.0\r\n\r\n", 414, None),
              ("GET / HTTP/1.0\r\n" + "X-A: b\r\n" * 120 + "\r\n", 431, None)]
    for request, status, allow in cases:
        got, headers, body = raw_request(server, request.encode())
        assert got == status, (request[:40], got, body[:200])
        for name, value in SECURITY_HEADERS:
            assert headers.get(name.lower()) == value, (request[:40], name, headers)
        assert headers.get("allow") == allow, (request[:40], headers)
        if request.startswith("HEAD"):
            assert body == b""
        elif status != 200:
            assert headers["content-type"] == "application/json" and json.loads(body)["error"], body[:200]
    assert "frame-ancestors 'none'" in dict(SECURITY_HEADERS)["Content-Security-Policy"]
