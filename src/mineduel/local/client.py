"""A minimal MineDuel API client, over real HTTP or straight into the local API object.

The end-to-end tests use it over HTTP as any client would; the cost benchmark uses the same
calls through :meth:`LocalApi.handle` in its own thread, so every AWS call a request causes can
be attributed to it. The player's moves come from the engine's bot looking at the public Game
only (what a human sees), so games last as long as real ones do.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mineduel_engine import GameState
from mineduel_engine.bot import choose_action, choose_move

from .http_events import HttpRequest, HttpResponse

Transport = Callable[[HttpRequest], HttpResponse]
TIMEOUT_S = 60
RETRY_PAUSE_S = 0.05


def http_transport(base_url: str) -> Transport:
    """Send requests to ``base_url`` over HTTP/1.1, one connection per request."""
    parts = urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80

    def send(request: HttpRequest) -> HttpResponse:
        connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT_S)
        try:
            target = request.path + (f"?{request.query}" if request.query else "")
            connection.request(
                request.method, target, body=request.body or None, headers=dict(request.headers)
            )
            answer = connection.getresponse()
            return HttpResponse(answer.status, list(answer.getheaders()), answer.read())
        finally:
            connection.close()

    return send


@dataclass(frozen=True)
class Reply:
    """A response: status, headers by lower-cased name, and the body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)

    def ok(self, status: int = 200) -> Any:
        """The body parsed as JSON, once the status is ``status`` (AssertionError otherwise)."""
        _expect(self, status)
        return self.json()

    @property
    def retryable(self) -> bool:
        """A refusal a client retries as it is: another request changed the game (or profile)
        at the same moment (409 ``*-conflict``, docs/api.md), or the gateway's throttle (429)."""
        if self.status == 429:
            return True
        if self.status != 409:
            return False
        try:
            code = str(self.json().get("code", ""))
        except (ValueError, AttributeError):
            return False
        return code.endswith("-conflict")


class ApiClient:
    """Calls the API as one caller (with a bearer token once it has one); with ``retries``, a
    retryable refusal (:attr:`Reply.retryable`) is sent again, up to that many times."""

    def __init__(self, transport: Transport, token: str | None = None, retries: int = 0) -> None:
        self.transport = transport
        self.token = token
        self.retries = retries

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """One request; the body, if any, is sent as JSON."""
        path, _, query = path.partition("?")
        sent: dict[str, str] = {"accept": "application/json"}
        if self.token:
            sent["authorization"] = f"Bearer {self.token}"
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            sent["content-type"] = "application/json"
        sent.update(headers or {})
        for attempt in range(self.retries + 1):
            answer = self.transport(HttpRequest(method, path, query, list(sent.items()), payload))
            lowered = {name.lower(): value for name, value in answer.headers}
            reply = Reply(answer.status, lowered, answer.body)
            if not reply.retryable or attempt == self.retries:
                break
            time.sleep(RETRY_PAUSE_S * (attempt + 1))
        return reply

    def become_guest(self) -> dict[str, Any]:
        """``POST /v1/guests``; the client then acts as that guest."""
        reply = self.call("POST", "/v1/guests")
        _expect(reply, 201)
        guest: dict[str, Any] = reply.json()
        self.token = guest["token"]
        return guest

    def create_game(self, **options: Any) -> dict[str, Any]:
        """``POST /v1/games`` with ``options`` (docs/api.md's defaults for the rest)."""
        reply = self.call("POST", "/v1/games", options)
        _expect(reply, 201)
        game: dict[str, Any] = reply.json()
        return game

    def commit(self, game: Mapping[str, Any], row: int, col: int, key: str | None = None) -> Reply:
        """``POST /v1/games/{id}/moves`` for (row, col) on the move count ``game`` shows."""
        body = {"row": row, "col": col, "expected_move": game["move_count"], "action": "tap"}
        headers = {"idempotency-key": key} if key else None
        return self.call("POST", f"/v1/games/{game['game_id']}/moves", body, headers)


def _expect(reply: Reply, status: int) -> None:
    if reply.status != status:
        raise AssertionError(f"expected {status}, got {reply.status}: {reply.body[:300]!r}")


SEAT_FIELDS = ("mines", "safe_taps", "out", "bomb_used", "score")


def public_state(game: Mapping[str, Any], seat: int | None = None) -> GameState:
    """The engine's state rebuilt from an API Game, as the client that got it knows it: the
    public board, and ``seat``'s own wrong guesses (the ``?`` cells only it is shown)."""
    turn = game.get("turn")
    mine = [
        [r, c] for r, line in enumerate(game["board"]) for c, ch in enumerate(line) if ch == "?"
    ]
    private = None
    if seat is not None and mine:
        private = [{"wrong_guesses": mine if i == seat else []} for i in range(len(game["seats"]))]
    return GameState.from_dict(
        {
            "variant": game["variant"],
            "width": game["width"],
            "height": game["height"],
            "mines": game["mines"],
            "options": game.get("options") or {},
            "seats": [
                {k: s[k] for k in SEAT_FIELDS if s.get(k) is not None} for s in game["seats"]
            ],
            "board": [line.replace("?", ".") for line in game["board"]],
            "turn": turn["seat"] if turn else None,
            "move_count": game["move_count"],
            "result": None,
        },
        private=private,
    )


def next_tap(game: Mapping[str, Any], level: str = "hard") -> tuple[int, int]:
    """The cell a thoughtful player taps next, judged from the public Game alone."""
    return choose_move(public_state(game), game["commitment"], level)


def next_action(game: Mapping[str, Any], seat: int, level: str = "hard") -> dict[str, Any]:
    """A commit body for the move a thoughtful player of any variant makes next, judged from
    what ``seat`` is shown (the engine's bot on the client's side)."""
    chosen = choose_action(public_state(game, seat), game["commitment"], level)
    return {
        "action": chosen.action,
        "row": chosen.row,
        "col": chosen.col,
        "expected_move": game["move_count"],
    }
