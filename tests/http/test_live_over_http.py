"""Live push on the local stack as clients see it: the WebSocket URL from /_local/config, two
players' real WebSocket clients, a move arriving on both, the fan-out fed by the stack's own
stream poller; and polling still first class beside it."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http


@contextlib.contextmanager
def _socket(url: str, client: ApiClient, game_id: str) -> Iterator[ClientConnection]:
    with connect(f"{url}/?token={client.token}", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
        assert json.loads(ws.recv(timeout=10))["type"] == "subscribed"
        yield ws


def _until(ws: ClientConnection, event: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=10))
        if message.get("event") == event:
            return dict(message)
    raise AssertionError(f"no {event} message")


def test_two_players_each_see_the_others_move_arrive(stack: RunningStack) -> None:
    config = ApiClient(http_transport(stack.url)).call("GET", "/_local/config").ok()
    url = config["websocket_url"]
    assert url.startswith("ws://")
    alice, bob = signed_in(stack, "LiveAlice"), signed_in(stack, "LiveBob")
    game = alice.call("POST", "/v1/games", {"bots": 0}).ok(201)
    game_id = game["game_id"]
    with _socket(url, alice, game_id) as alice_ws:
        game = bob.call("POST", f"/v1/games/{game_id}/join", {}).ok()
        joined = _until(alice_ws, "join")
        assert joined["status"] == "active" and joined["move_count"] == 0
        with _socket(url, bob, game_id) as bob_ws:
            row, col = next_tap(game)
            played = alice.call(
                "POST",
                f"/v1/games/{game_id}/moves",
                {"row": row, "col": col, "expected_move": 0},
            ).ok()["game"]
            for ws in (alice_ws, bob_ws):
                message = _until(ws, "move")
                assert message["move_count"] == played["move_count"] == 1
                assert set(message) == {
                    "type",
                    "game_id",
                    "move_count",
                    "status",
                    "event",
                    "watchers",
                }
            # Polling stays first class: the ETag and moves?after=N answer as before.
            read = bob.call("GET", f"/v1/games/{game_id}")
            tag = read.headers["etag"]
            assert (
                bob.call("GET", f"/v1/games/{game_id}", headers={"if-none-match": tag}).status
                == 304
            )
            moves = bob.call("GET", f"/v1/games/{game_id}/moves?after=0").ok()["moves"]
            assert [m["n"] for m in moves] == [1]
            bob.call("POST", f"/v1/games/{game_id}/resign").ok()
            assert _until(alice_ws, "resign")["status"] == "finished"
