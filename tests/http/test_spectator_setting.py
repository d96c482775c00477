"""A player who turns ``settings.spectators`` off cuts the spectators already watching: they are
told and unsubscribed, the game's ``watchers`` drops to 0, and nobody can start watching again.
(Before, only new spectators were refused: the ones subscribed kept receiving moves.)"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from mineduel.local.accounts import signed_in
from mineduel.local.client import Reply, next_tap
from mineduel.local.stack import RunningStack, start_local_stack

pytestmark = pytest.mark.http


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0)
    yield running
    running.stop()


def _ok(reply: Reply, status: int = 200) -> Any:
    assert reply.status == status, reply.body[:400]
    return reply.json()


def _subscribe(ws: ClientConnection, game_id: str) -> dict[str, Any]:
    ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
    return dict(json.loads(ws.recv(timeout=10)))


def _until(ws: ClientConnection, wanted: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=10))
        if message.get("type") == wanted:
            return dict(message)
    raise AssertionError(f"no {wanted} message")


def _watchers(game: dict[str, Any]) -> int:
    return int(game.get("watchers") or 0)


def test_turning_spectators_off_cuts_the_watchers_already_subscribed(stack: RunningStack) -> None:
    player = signed_in(stack, "Shy")
    games = [_ok(player.call("POST", "/v1/games", {"bots": 1}), 201) for _ in range(2)]
    url = stack.live.url
    with (
        connect(f"{url}/?token={player.token}", open_timeout=10) as own,
        connect(f"{url}/", open_timeout=10) as spectator,
    ):
        for game in games:
            assert _subscribe(own, game["game_id"])["type"] == "subscribed"
            answer = _subscribe(spectator, game["game_id"])
            assert answer["type"] == "subscribed" and answer["role"] == "spectator", answer
            assert _until(own, "watchers")["watchers"] == 1
        path = f"/v1/games/{games[0]['game_id']}"
        assert _watchers(_ok(player.call("GET", path))) == 1

        _ok(player.call("PUT", "/v1/me", {"settings": {"spectators": False}}))

        told = {_until(spectator, "unsubscribed")["game_id"] for _ in games}
        assert told == {g["game_id"] for g in games}
        for game in games:
            assert _watchers(_ok(player.call("GET", f"/v1/games/{game['game_id']}"))) == 0
        row, col = next_tap(games[0])
        _ok(player.commit(games[0], row, col))
        with pytest.raises(TimeoutError):  # the cut spectator hears nothing more
            while True:
                message = json.loads(spectator.recv(timeout=2))
                assert message.get("event") != "move", message
        refused = _subscribe(spectator, games[1]["game_id"])
        assert refused.get("code") == "not-watchable", refused
