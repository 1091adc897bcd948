"""The limits of the browser game's server (borabora_sim.viewer.server): a port in use said in one line, a request
whose headers trickle in closed at its deadline, connections beyond the cap refused, and AI seats the page asks
for held to the caps of an advice. A real server on a free port of 127.0.0.1 in a thread."""

from __future__ import annotations

import json
import os
import select
import socket
import time
from collections.abc import Iterator

import pytest
from test_web import PLAYERS, Client, start
from test_web_server_safety import read_answer

from borabora_sim.cli import main
from borabora_sim.viewer.server import SECURITY_HEADERS, WebServer

CAPS = "seconds <= 10, iterations <= 100000, rollouts <= 1000, samples <= 1000"


@pytest.fixture
def server() -> Iterator[WebServer]:
    served = start(PLAYERS)
    yield served
    served.shutdown()
    served.server_close()


def test_a_port_in_use_is_refused_in_one_line_with_exit_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["play", "--web", "--port", str(port), "--no-browser", "--players", "human,random"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == (f"borabora play: error: port {port} of 127.0.0.1 is in use: give another --port, or --port 0 "
                   f"for any free one\n")


def closed_after(connection: socket.socket, lines: int, every: float) -> float | None:
    """Sends a header line every `every` seconds, `lines` times at most, until the server closes the connection:
    the seconds it took, None if it was still open."""
    started = time.monotonic()
    for line in range(lines):
        try:
            connection.sendall(f"X-Slow-{line}: a\r\n".encode())
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - started
        if select.select([connection], [], [], every)[0]:
            try:
                if connection.recv(4096) == b"":
                    return time.monotonic() - started
            except ConnectionResetError:
                return time.monotonic() - started
    return None


def test_headers_that_trickle_in_are_cut_off_at_the_deadline(server: WebServer) -> None:
    """A client sending a header line every half second, each well within the time one read may wait, is closed
    once `read_seconds` have passed since its connection (at 2 s here), and the server answers others after."""
    server.read_seconds = 2.0
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as slow:
        slow.sendall(f"GET /api/state HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        took = closed_after(slow, 30, 0.5)         # 15 s of lines if nothing stops them
    assert took is not None, "the connection was still open after 15 s of header lines"
    assert took < 10.0
    assert Client(server).state()["version"] == 0


def test_connections_beyond_the_cap_are_refused_until_one_closes(server: WebServer) -> None:
    server.max_connections = 3
    idle = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as extra:
            extra.sendall(f"GET /api/state HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            status, headers, body = read_answer(extra)
        assert status == 503
        assert json.loads(body) == {"error": "the server has 3 connections open, the most it serves at once: try "
                                             "again in a moment"}
        for name, value in SECURITY_HEADERS:
            assert headers[name.lower()] == value
    finally:
        for connection in idle:
            connection.close()
    client = Client(server)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:         # the idle connections' threads notice their end
        status, view = client.call("GET", "/api/state")
        if status == 200:
            break
        time.sleep(0.05)
    assert status == 200 and view["version"] == 0


def test_ai_seats_the_page_asks_for_are_held_to_the_caps(server: WebServer) -> None:
    """A new game or a loaded file whose AI seat asks for more than an advice may take, or for more threads than
    the machine has cores, is refused and the game kept; a preset and a search within the caps are taken."""
    client = Client(server)
    view, saved = client.state(), client.saved()
    cores = os.cpu_count() or 1
    refused = {
        "mcts:seconds=1e9": f"mcts:seconds=1e9 asks for seconds=1e+09: more than an AI seat may take; the caps are "
                            f"{CAPS}",
        "flatmc:rollouts=5000": f"flatmc:rollouts=5000 asks for rollouts=5000: more than an AI seat may take; the "
                                f"caps are {CAPS}",
        f"mcts:iterations=100,threads={cores + 1}": f"mcts:iterations=100,threads={cores + 1} asks for "
                                                    f"threads={cores + 1}: this machine has {cores} core(s), so an "
                                                    f"AI seat may search on {cores} thread(s) at most",
    }
    for spec, error in refused.items():
        status, answer = client.call("POST", "/api/new", {"version": view["version"], "players": ["human", spec],
                                                          "seed": 1})
        assert (status, answer) == (400, {"error": error}), spec
        status, answer = client.call("POST", "/api/load", {**saved, "players": ["human", spec]})
        assert (status, answer) == (400, {"error": error}), spec
    status, answer = client.call("POST", "/api/new", {"version": view["version"],
                                                      "players": ["human", "mcts:threads=999"], "seed": 1})
    assert status == 400 and "threads" in answer["error"]
    status, answer = client.call("GET", f"/api/advice?player=mcts:iterations=100,threads={cores + 1}")
    assert (status, answer["error"]) == (400, refused[f"mcts:iterations=100,threads={cores + 1}"].replace(
        "an AI seat", "an advice"))
    assert client.state() == view and client.saved() == saved
    for seats in (["human", "strong"], ["human", f"mcts:seconds=0.05,threads={cores}"]):
        fresh = client.post("/api/new", {"version": client.state()["version"], "players": seats, "seed": 1})
        assert fresh["players"] == seats
