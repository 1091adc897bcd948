"""The local server of `borabora play --web`: one game (viewer/web_game.py) behind a small JSON API and the page
that plays it (viewer/web_page.py); the API is described in docs/web_play.md.

It is built on the standard library's `http.server`: the server listens on 127.0.0.1 only, serves one person and
one game, and answers a handful of JSON requests, so a web framework would add a dependency (and a server to run
it) and nothing this needs. Each connection has a thread (a browser may open a connection it sends nothing on,
which would stall a server of one thread), `max_connections` at most at once, and the game is reached under a
lock, one request at a time, for no longer than it takes to read or change it: a request's line and headers must
arrive within `read_seconds` of its connection, its body is read before the lock is taken (and must arrive within
`read_seconds` more), an AI seat thinks outside it (one at a time; its move is played only if the game has not
changed meanwhile), and an advice is computed in a process of its own (`AdviceRunner`), one at a time, stopped
when the game changes or when it takes too long.

Requests are checked before they reach the game: the Host header must name this server (a page of another site
cannot reach it through a name that resolves to 127.0.0.1); a request that changes the game or asks for advice
must come from this server's page (its Origin and Sec-Fetch-Site headers, which a page cannot forge); a POST must
carry JSON of at most `MAX_BODY` bytes, `MAX_DEPTH` levels and `MAX_DIGITS`-digit integers with
`Content-Type: application/json` (which a page of another site cannot send without the browser asking first).
Every refusal is a JSON answer `{"error": "..."}` (4xx; 503 for an advice stopped), every answer carries
SECURITY_HEADERS (503 too for a connection beyond `max_connections`), and a client that goes away before its
answer is not an error.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import multiprocessing
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from typing import Any
from urllib.parse import parse_qs, urlsplit

from borabora_sim.viewer.web_game import ADVICE_SECONDS, AdviceTask, RequestError, WebGame, advise, think
from borabora_sim.viewer.web_page import page_html

HOST = "127.0.0.1"
MAX_BODY = 4 * 1024 * 1024          # a saved game is some 500 KB with its moves; anything far larger is refused
MAX_DEPTH = 32                      # a saved game is nested 7 levels deep
MAX_DIGITS = 100                    # the game's numbers have at most 20 digits (a seed is below 2**64)
READ_SECONDS = 10.0                 # the most a request may take to arrive: its line and headers, then its body
MAX_CONNECTIONS = 256               # connections open at once; more are refused (a browser opens six or so)
ADVICE_DEADLINE = 2 * ADVICE_SECONDS    # the most an advice may take: its search, and starting its process
CONTENT_SECURITY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
                    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = (("Content-Security-Policy", CONTENT_SECURITY), ("X-Content-Type-Options", "nosniff"),
                    ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"),
                    ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin"),
                    ("Cache-Control", "no-store"))
CHANGED = "the game changed while the advice was computed (a move, an undo, a new or loaded game); ask again"


class _AdviceJob:
    """One advice: its task, its process once started, and the refusal it was stopped with (None: not stopped)."""

    def __init__(self, task: AdviceTask) -> None:
        self.task = task
        self.process: SpawnProcess | None = None
        self.stopped: RequestError | None = None


def _advise_into(task: AdviceTask, sender: Connection) -> None:
    """The process of an advice: computes it and sends it back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C stops the server, which stops this process
    sender.send(advise(task))


class AdviceRunner:
    """Computes one advice at a time, each in a process of its own, so that it holds no lock and can be stopped:
    `stop` ends the one in progress (the game changed, the server is closing), and one not done `deadline` seconds
    after it was asked for is stopped. While one is computed, another is refused (429)."""

    def __init__(self, deadline: float = ADVICE_DEADLINE) -> None:
        self.deadline = deadline
        self._lock = threading.Lock()
        self._job: _AdviceJob | None = None

    def begin(self, task: AdviceTask) -> _AdviceJob:
        """Reserves the one place of an advice in progress for `task`, to be computed by `run`; refused (429) while
        another is in progress."""
        with self._lock:
            if self._job is not None:
                raise RequestError(429, "an advice is being computed already, and one is computed at a time: ask "
                                        "again once it is shown")
            self._job = _AdviceJob(task)
            return self._job

    def stop(self, reason: RequestError) -> None:
        """Stops the advice in progress, if any, which is then refused with `reason`."""
        with self._lock:
            if self._job is not None and self._job.stopped is None:
                self._job.stopped = reason
                if self._job.process is not None:
                    self._job.process.kill()

    def run(self, job: _AdviceJob) -> dict[str, Any]:
        """The advice of `job` (from `begin`), or the refusal it was stopped with."""
        context = multiprocessing.get_context("spawn")     # a fresh interpreter: this one has threads
        receiver, sender = context.Pipe(duplex=False)
        try:
            with self._lock:
                if job.stopped is None:
                    job.process = context.Process(target=_advise_into, args=(job.task, sender), daemon=True)
                    job.process.start()
            sender.close()
            if job.process is not None and not receiver.poll(self.deadline):
                self.stop(RequestError(503, f"the advice was stopped after {self.deadline:g} s, the most one may "
                                            f"take: ask for a smaller budget"))
            if job.stopped is not None:
                raise job.stopped
            try:
                advice: dict[str, Any] = receiver.recv()
            except EOFError:
                raise RuntimeError("the advice ended without an answer") from None
            return advice
        finally:
            with self._lock:
                self._job = None
            if job.process is not None:
                job.process.kill()
                job.process.join()
                job.process.close()
            receiver.close()


class WebServer(ThreadingHTTPServer):
    """Serves `game` on 127.0.0.1 at `port` (0: a free port, see `url`). A request must arrive within
    `read_seconds`; an advice is computed by `advice`."""

    daemon_threads = True
    request_queue_size = 256            # connections waiting to be taken (the default, 5, drops a burst of them)

    def __init__(self, game: WebGame, port: int = 0) -> None:
        self.game = game                # set before listening: a refused port closes the server at once
        self.lock = threading.Lock()
        self.thinking = threading.Lock()    # held while an AI seat thinks, outside `lock`
        self.read_seconds = READ_SECONDS
        self.max_connections = MAX_CONNECTIONS
        self._open = 0                  # connections being served
        self._open_lock = threading.Lock()
        self.advice = AdviceRunner()
        try:
            super().__init__((HOST, port), _Handler)
        except OSError as error:        # a port in use or not allowed: said as a bad argument
            what = ("is in use" if error.errno == errno.EADDRINUSE
                    else f"cannot be listened on ({error.strerror or error})")
            raise ValueError(f"port {port} of {HOST} {what}: give another --port, or --port 0 for any free "
                             f"one") from None

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def hosts(self) -> tuple[str, ...]:
        """The Host headers of requests to this server (port 80 may be left out)."""
        names = (HOST, "localhost")
        return tuple(f"{name}:{self.port}" for name in names) + (names if self.port == 80 else ())

    @property
    def origins(self) -> tuple[str, ...]:
        """The Origin headers of this server's page."""
        return tuple(f"http://{host}" for host in self.hosts)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (a closed tab, a dropped connection) is not an error of the server."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        self.advice.stop(RequestError(503, "the server is stopping"))
        super().server_close()

    def verify_request(self, request: Any, client_address: Any) -> bool:
        """Takes a connection while fewer than `max_connections` are open; beyond, it is answered 503 and closed
        (clients that hold connections open cannot take a thread each without bound)."""
        with self._open_lock:
            if self._open < self.max_connections:
                self._open += 1
                return True
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(_busy_answer(self.max_connections))
        return False

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._open_lock:
                self._open -= 1


def _busy_answer(limit: int) -> bytes:
    """The answer to a connection beyond the `limit` open at once: a refusal (503) as every other, in JSON with
    SECURITY_HEADERS."""
    body = json.dumps({"error": f"the server has {limit} connections open, the most it serves at once: try again "
                                f"in a moment"}).encode()
    head = ["HTTP/1.0 503 Service Unavailable", "Content-Type: application/json", f"Content-Length: {len(body)}",
            *(f"{name}: {value}" for name, value in SECURITY_HEADERS)]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class _Arrival(io.RawIOBase):
    """The bytes a client sends, each read waiting no longer than the time left before `deadline` (of
    time.monotonic()): a client that sends a byte now and then cannot hold its connection past it (TimeoutError).
    """

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self.connection = connection
        self.deadline = time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


# An answer: the status, the body (the page as text, anything else as JSON) and any extra headers.
Answer = tuple[int, Any, Sequence[tuple[str, str]]]


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.0 (the default): one request per connection, so a refused request's unread body cannot be taken for
    the next request."""

    server: WebServer
    default_request_version = "HTTP/1.0"    # a request line without a version is answered with headers too

    def setup(self) -> None:
        """The request line and headers must have come `read_seconds` after the connection was taken (the base
        class waits that long for each line only), and a body `read_seconds` after them (`_read_body`)."""
        super().setup()
        self.rfile.close()
        self.arrival = _Arrival(self.connection, self.server.read_seconds)
        self.rfile = io.BufferedReader(self.arrival)

    def log_message(self, format: str, *args: Any) -> None:     # quiet: the terminal shows only the address
        pass

    # ----------------------------------------------------------------------------------------------------------
    def do_GET(self) -> None:
        self._handle(self._get)

    def do_POST(self) -> None:
        self._handle(self._post)

    def _refuse_method(self) -> None:
        self._handle(self._no_method)

    do_HEAD = do_OPTIONS = do_TRACE = do_CONNECT = do_PUT = do_DELETE = do_PATCH = _refuse_method

    def _no_method(self, path: str, query: dict[str, str]) -> Answer:
        raise RequestError(405, self._method_refused())

    def _method_refused(self) -> str:
        return f"{self.command} is not accepted: use GET or POST (docs/web_play.md)"

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A request refused before it reaches a route (a bad request line, headers too long, an unknown method),
        answered as every refusal is."""
        if code == 501:
            message = self._method_refused()
        self._answer(code, {"error": message or self.responses[code][0]})

    # ----------------------------------------------------------------------------------------------------------
    def _handle(self, route: Callable[[str, dict[str, str]], Answer]) -> None:
        """Checks the Host header, routes, and answers in JSON (the page itself in HTML); a RequestError becomes
        its status with {"error": message}."""
        parts = urlsplit(self.path)
        extra: Sequence[tuple[str, str]] = ()
        try:
            query = {key: values[-1] for key, values in parse_qs(parts.query, keep_blank_values=True).items()}
            if self.headers.get("Host") not in self.server.hosts:
                raise RequestError(403, f"this server answers only to {HOST}:{self.server.port}")
            status, body, extra = route(parts.path, query)
        except RequestError as error:
            status, body = error.status, {"error": str(error)}
        except ConnectionError:         # the client went away: there is no one to answer
            raise
        except Exception as error:      # a fault of the server, said as such rather than a dropped connection
            status, body = 500, {"error": f"internal error: {type(error).__name__}: {error}"}
        self._answer(status, body, extra)

    def _answer(self, status: int, body: Any, extra: Sequence[tuple[str, str]] = ()) -> None:
        if isinstance(body, str):
            payload, content_type = body.encode(), "text/html; charset=utf-8"
        else:
            payload, content_type = json.dumps(body).encode(), "application/json"
        self.connection.settimeout(self.server.read_seconds)   # the most a client may take to take the answer
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        if status in (405, 501):
            self.send_header("Allow", _allowed(urlsplit(self.path).path))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def _same_origin(self, path: str) -> None:
        """Refuses a request to change the game or to search that does not come from this server's page: its
        Origin and its Sec-Fetch-Site (a browser sends one or both, and a page cannot change them) must say so, and
        one of them must be there."""
        origin, site = self.headers.get("Origin"), self.headers.get("Sec-Fetch-Site")
        if origin is not None and origin not in self.server.origins:
            raise RequestError(403, f"{path} is refused to a page of another site (Origin: {origin}): only this "
                                    f"server's page, {self.server.url}, may ask for it")
        if site is not None and site not in ("same-origin", "none"):
            raise RequestError(403, f"{path} is refused to a page of another site (Sec-Fetch-Site: {site}): only "
                                    f"this server's page, {self.server.url}, may ask for it")
        if origin is None and site is None:
            raise RequestError(403, f"{path} must come from this server's page: a browser says so in its Origin "
                                    f"header; another client must send Origin: {self.server.origins[0]}")

    def _get(self, path: str, query: dict[str, str]) -> Answer:
        if path == "/":
            return 200, page_html(), ()
        if path == "/api/advice":
            self._same_origin(path)
            with self.server.lock:          # the task is taken under the lock, so a change after it stops it
                job = self.server.advice.begin(self.server.game.advice_task(query.get("player")))
            return 200, self.server.advice.run(job), ()
        if path in _POST_ROUTES:
            raise RequestError(405, f"{path} changes the game: use POST")
        if path not in _GET_ROUTES:
            raise RequestError(404, f"no such page: {path}")
        with self.server.lock:
            game = self.server.game
            if path == "/api/state":
                return 200, game.view(), ()
            if path == "/api/why":
                move = query.get("move", "")
                if not move.isascii() or not move.isdigit():
                    raise RequestError(400, f"'move' must be a move number (0 is the first), got {move!r}")
                return 200, game.explanation(int(move)), ()
            name = f"{game.game.name}-seed-{game.seed}-move-{len(game.moves)}.json"
            return 200, game.save(), [("Content-Disposition", f'attachment; filename="{name}"')]

    def _post(self, path: str, query: dict[str, str]) -> Answer:
        if path not in _POST_ROUTES:
            if path in _GET_ROUTES:
                raise RequestError(405, f"{path} is read with GET")
            raise RequestError(404, f"no such request: {path}")
        self._same_origin(path)
        body = self._json_body()            # before the lock: a body slow to come holds up no other request
        if path == "/api/step":
            return self._step(body)
        with self.server.lock:
            game = self._change(path, body)
            self.server.advice.stop(RequestError(409, CHANGED))
            return 200, game.view(), ()

    def _step(self, body: Any) -> Answer:
        """The AI seat to move takes its decision: the task is taken under the game lock, the thinking is done
        outside it (a search releases the interpreter too), one AI decision at a time, and the move is played under
        the lock again unless the game changed meanwhile (409)."""
        _check_fields("/api/step", body)
        if not self.server.thinking.acquire(blocking=False):
            raise RequestError(429, "an AI seat is thinking already, and one thinks at a time: ask again once its "
                                    "move is shown")
        try:
            with self.server.lock:
                game = self.server.game
                task = game.step_task(body["version"])
            move = think(game.game, task)
            with self.server.lock:
                if self.server.game is not game:
                    raise RequestError(409, "a new game was started while the AI seat was thinking: reload the "
                                            "position")
                game.finish_step(task, move)
                self.server.advice.stop(RequestError(409, CHANGED))
                return 200, game.view(), ()
        finally:
            self.server.thinking.release()

    def _change(self, path: str, body: Any) -> WebGame:
        """Applies the POST to `path` with `body`; the game after it (a new one for /api/new and /api/load)."""
        game = self.server.game
        if path == "/api/load":             # the body is the saved file; the game is replaced only once it is good
            self.server.game = WebGame.from_save(body, game.version + 1)
            return self.server.game
        _check_fields(path, body)
        if path == "/api/new":              # the game is replaced only once the new one is good
            self.server.game = game.new_game(body["version"], body["players"], body["seed"])
            return self.server.game
        if path == "/api/move":
            game.move(body["version"], body["seat"], body["action"])
        else:
            game.undo(body["version"])
        return game

    def _json_body(self) -> Any:
        if self.headers.get_content_type() != "application/json":
            raise RequestError(415, "a POST body must be JSON, sent with Content-Type: application/json")
        length = self.headers.get("Content-Length", "")
        if not length.isascii() or not length.isdigit():
            raise RequestError(411, "a POST needs a Content-Length")
        if int(length) > MAX_BODY:
            raise RequestError(413, f"the body is {int(length):,} bytes; at most {MAX_BODY:,} are accepted")
        return parse_json(self._read_body(int(length)))

    def _read_body(self, length: int) -> bytes:
        """The body of `length` bytes, which must have come `read_seconds` after it was asked for."""
        seconds = self.server.read_seconds
        self.arrival.deadline = time.monotonic() + seconds
        chunks: list[bytes] = []
        got = 0
        try:
            while got < length:
                chunk = self.rfile.read1(length - got)
                if not chunk:
                    raise RequestError(400, f"the body ended after {got:,} of the {length:,} bytes its "
                                            f"Content-Length announced")
                chunks.append(chunk)
                got += len(chunk)
        except TimeoutError:
            raise RequestError(408, f"the body did not come within {seconds:g} s: {got:,} of the {length:,} bytes "
                                    f"its Content-Length announced came") from None
        return b"".join(chunks)


_TOO_DEEP = f"the JSON is nested too deeply: at most {MAX_DEPTH} levels of arrays and objects are accepted"


def parse_json(raw: bytes) -> Any:
    """The JSON value of a body; malformed JSON, NaN and infinities, integers of more than MAX_DIGITS digits and
    nesting deeper than MAX_DEPTH are refused (400)."""
    try:
        value = json.loads(raw, parse_int=_bounded_int, parse_constant=_no_constant)
    except RecursionError:              # far deeper than MAX_DEPTH
        raise RequestError(400, _TOO_DEEP) from None
    except ValueError as error:         # UnicodeDecodeError, JSONDecodeError
        raise RequestError(400, f"malformed JSON: {error}") from None
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [child for item in level if isinstance(item, dict | list)
                 for child in (item.values() if isinstance(item, dict) else item)]
    if any(isinstance(item, dict | list) for item in level):
        raise RequestError(400, _TOO_DEEP)
    return value


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RequestError(400, f"an integer of {digits:,} digits: integers of at most {MAX_DIGITS} digits are "
                                f"accepted")
    return int(text)


def _no_constant(name: str) -> Any:
    raise RequestError(400, f"{name} is not a JSON number: numbers must be finite")


# The fields of each POST that changes the game (POST /api/load takes a saved file).
_FIELDS = {"/api/move": ("version", "seat", "action"), "/api/step": ("version",), "/api/undo": ("version",),
           "/api/new": ("version", "players", "seed")}
_POST_ROUTES = (*_FIELDS, "/api/load")
_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "true or false",
               type(None): "null"}
_GET_ROUTES = ("/", "/api/state", "/api/why", "/api/advice", "/api/save")


def _check_fields(path: str, body: Any) -> None:
    """Refuses (400) a body that is not a JSON object of exactly the fields of the POST to `path`."""
    fields = _FIELDS[path]
    if not isinstance(body, dict) or set(body) != set(fields):
        got = (", ".join(sorted(body)) or "none") if isinstance(body, dict) else _JSON_TYPES[type(body)]
        raise RequestError(400, f"{path} takes a JSON object of exactly {', '.join(fields)}; got {got}")


def _allowed(path: str) -> str:
    """The Allow header of a 405 answer for `path`."""
    return "POST" if path in _POST_ROUTES else "GET" if path in _GET_ROUTES else "GET, POST"


def serve(server: WebServer, open_browser: bool = True, write: Callable[[str], None] = print) -> None:
    """Serves `server`'s game until interrupted (Ctrl-C), opening its page in a browser unless `open_browser` is
    false."""
    game = server.game
    write(f"game seed {game.seed}; seats: " + ", ".join(f"{s}: {spec}" for s, spec in enumerate(game.players)))
    write(f"playing at {server.url} (Ctrl-C to stop)")
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        write("\nserver stopped")
    finally:
        server.server_close()


__all__ = ["WebServer", "serve"]
