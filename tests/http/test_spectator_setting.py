"""A player who turns ``settings.spectators`` off cuts the spectators already watching: they are
told and unsubscribed, the game's ``watchers`` drops to 0, and nobody can start watching again.
(Before, only new spectators were refused: the ones subscribed kept receiving moves.)"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from mineduel.local.accounts import signed_in
from mineduel.local.client import next_tap
from mineduel.local.stack import RunningStack

pytestmark = pytest.mark.http


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
    games = [player.call("POST", "/v1/games", {"bots": 1}).ok(201) for _ in range(2)]
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
        assert _watchers(player.call("GET", path).ok()) == 1

        player.call("PUT", "/v1/me", {"settings": {"spectators": False}}).ok()

        told = {_until(spectator, "unsubscribed")["game_id"] for _ in games}
        assert told == {g["game_id"] for g in games}
        for game in games:
            assert _watchers(player.call("GET", f"/v1/games/{game['game_id']}").ok()) == 0
        row, col = next_tap(games[0])
        player.commit(games[0], row, col).ok()
        with pytest.raises(TimeoutError):  # the cut spectator hears nothing more
            while True:
                message = json.loads(spectator.recv(timeout=2))
                assert message.get("event") != "move", message
        refused = _subscribe(spectator, games[1]["game_id"])
        assert refused.get("code") == "not-watchable", refused
