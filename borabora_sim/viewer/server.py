"""The local server of `borabora play --web`: one game (viewer/web_game.py) behind a small JSON API and the page
that plays it (viewer/web_page.py); the API is described in docs/web_play.md.

It is built on the standard library's `http.server`: the server listens on 127.0.0.1 only, serves one person and
one game, and answers a handful of JSON requests, so a web framework would add a dependency (and a server to run
it) and nothing this needs. Each connection has a thread (a browser may open a connection it sends nothing on,
which would stall a server of one thread), and the game is reached under a lock, one request at a time.

Requests are checked before they reach the game: the Host header must name this server (a page of another site
cannot reach it through a name that resolves to 127.0.0.1), a POST must carry a JSON object of at most
`MAX_BODY` bytes with `Content-Type: application/json` (which a page of another site cannot send without the
browser asking first), and every refusal is a 4xx JSON answer `{"error": "..."}`.
"""

from __future__ import annotations

import json
import threading
import webbrowser
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from borabora_sim.viewer.web_game import RequestError, WebGame
from borabora_sim.viewer.web_page import page_html

HOST = "127.0.0.1"
MAX_BODY = 4 * 1024 * 1024          # a saved game is some 10 KB; anything far larger is refused unread
CONTENT_SECURITY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                    "img-src data:; connect-src 'self'")


class WebServer(ThreadingHTTPServer):
    """Serves `game` on 127.0.0.1 at `port` (0: a free port, see `url`)."""

    daemon_threads = True

    def __init__(self, game: WebGame, port: int = 0) -> None:
        try:
            super().__init__((HOST, port), _Handler)
        except OSError as error:        # a port in use or not allowed: said as a bad argument
            raise ValueError(f"cannot listen on {HOST}:{port}: {error.strerror or error}") from None
        self.game = game
        self.lock = threading.Lock()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def hosts(self) -> tuple[str, ...]:
        """The Host headers of requests to this server (port 80 may be left out)."""
        names = (HOST, "localhost")
        return tuple(f"{name}:{self.port}" for name in names) + (names if self.port == 80 else ())

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"


# An answer: the status, the body (the page as text, anything else as JSON) and any extra headers.
Answer = tuple[int, Any, Sequence[tuple[str, str]]]


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.0 (the default): one request per connection, so a refused request's unread body cannot be taken for
    the next request."""

    server: WebServer

    def log_message(self, format: str, *args: Any) -> None:     # quiet: the terminal shows only the address
        pass

    # ----------------------------------------------------------------------------------------------------------
    def do_GET(self) -> None:
        self._handle(self._get)

    def do_POST(self) -> None:
        self._handle(self._post)

    def _refuse_method(self) -> None:
        self._handle(self._no_method)

    do_PUT = do_DELETE = do_PATCH = _refuse_method

    def _no_method(self, path: str, query: dict[str, str]) -> Answer:
        raise RequestError(405, f"{self.command} is not accepted: use GET or POST (docs/web_play.md)")

    # ----------------------------------------------------------------------------------------------------------
    def _handle(self, route: Callable[[str, dict[str, str]], Answer]) -> None:
        """Checks the Host header, routes, and answers in JSON (the page itself in HTML); a RequestError becomes
        its status with {"error": message}."""
        parts = urlsplit(self.path)
        try:
            query = {key: values[-1] for key, values in parse_qs(parts.query, keep_blank_values=True).items()}
            if self.headers.get("Host") not in self.server.hosts:
                raise RequestError(403, f"this server answers only to {HOST}:{self.server.port}")
            with self.server.lock:
                status, body, extra = route(parts.path, query)
        except RequestError as error:
            status, body, extra = error.status, {"error": str(error)}, ()
        except Exception as error:      # a fault of the server, said as such rather than a dropped connection
            status, body, extra = 500, {"error": f"internal error: {type(error).__name__}: {error}"}, ()
        if isinstance(body, str):
            payload, content_type = body.encode(), "text/html; charset=utf-8"
        else:
            payload, content_type = json.dumps(body).encode(), "application/json"
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CONTENT_SECURITY)
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _get(self, path: str, query: dict[str, str]) -> Answer:
        game = self.server.game
        if path == "/":
            return 200, page_html(), ()
        if path == "/api/state":
            return 200, game.view(), ()
        if path == "/api/why":
            move = query.get("move", "")
            if not move.isascii() or not move.isdigit():
                raise RequestError(400, f"'move' must be a move number (0 is the first), got {move!r}")
            return 200, game.explanation(int(move)), ()
        if path == "/api/advice":
            return 200, game.advice(query.get("player")), ()
        if path == "/api/save":
            name = f"{game.game.name}-seed-{game.seed}-move-{len(game.moves)}.json"
            return 200, game.save(), [("Content-Disposition", f'attachment; filename="{name}"')]
        if path in _FIELDS or path == "/api/load":
            raise RequestError(405, f"{path} changes the game: use POST")
        raise RequestError(404, f"no such page: {path}")

    def _post(self, path: str, query: dict[str, str]) -> Answer:
        if path != "/api/load" and path not in _FIELDS:
            if path in _GET_ROUTES:
                raise RequestError(405, f"{path} is read with GET")
            raise RequestError(404, f"no such request: {path}")
        body = self._json_body()
        game = self.server.game
        if path == "/api/load":             # the body is the saved file; the game is replaced only once it is good
            self.server.game = WebGame.from_save(body, game.version + 1)
            return 200, self.server.game.view(), ()
        fields = _FIELDS[path]
        if not isinstance(body, dict) or set(body) != set(fields):
            got = (", ".join(sorted(body)) or "none") if isinstance(body, dict) else f"a JSON {type(body).__name__}"
            raise RequestError(400, f"{path} takes a JSON object of exactly {', '.join(fields)}; got {got}")
        if path == "/api/new":              # the game is replaced only once the new one is good
            self.server.game = game.new_game(body["version"], body["players"], body["seed"])
            return 200, self.server.game.view(), ()
        if path == "/api/move":
            game.move(body["version"], body["seat"], body["action"])
        elif path == "/api/step":
            game.step(body["version"])
        else:
            game.undo(body["version"])
        return 200, game.view(), ()

    def _json_body(self) -> Any:
        if self.headers.get_content_type() != "application/json":
            raise RequestError(415, "a POST body must be JSON, sent with Content-Type: application/json")
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            raise RequestError(411, "a POST needs a Content-Length")
        if int(length) > MAX_BODY:
            raise RequestError(413, f"the body is {int(length):,} bytes; at most {MAX_BODY:,} are accepted")
        raw = self.rfile.read(int(length))
        try:
            return json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RequestError(400, f"malformed JSON: {error}") from None


# The fields of each POST that changes the game (POST /api/load takes a saved file).
_FIELDS = {"/api/move": ("version", "seat", "action"), "/api/step": ("version",), "/api/undo": ("version",),
           "/api/new": ("version", "players", "seed")}
_GET_ROUTES = ("/", "/api/state", "/api/why", "/api/advice", "/api/save")


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
