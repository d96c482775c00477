"""The post-game analysis, the daily duel and the exports over real HTTP on the local stack, as a
client (and ``mineduel analyze`` / ``mineduel verify`` pointed at the stack's URLs) sees them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from mineduel_engine.analysis import analyze_document

from mineduel.cli import main as mineduel
from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, Reply, http_transport
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0)
    yield running
    running.stop()


def _ok(reply: Reply, status: int = 200) -> Any:
    assert reply.status == status, reply.body[:400]
    return reply.json()


def _guest(stack: RunningStack) -> ApiClient:
    client = ApiClient(http_transport(stack.url))
    client.become_guest()
    return client


def _play(client: ApiClient, game: dict[str, Any]) -> dict[str, Any]:
    while game["status"] == "active":
        row, col = next_tap(game, "medium")
        game = _ok(client.commit(game, row, col))["game"]
    return game


def test_a_game_s_analysis_served_and_recomputed_offline_agree(
    stack: RunningStack, capsys: pytest.CaptureFixture[str]
) -> None:
    guest = _guest(stack)
    game = _play(guest, guest.create_game(bots=1))
    served = _ok(guest.call("GET", f"/v1/games/{game['game_id']}/analysis"))
    doc = _ok(guest.call("GET", f"/v1/games/{game['game_id']}/verify"))
    assert analyze_document(doc) == served
    capsys.readouterr()
    assert mineduel(["analyze", "--game", f"{stack.url}/v1/games/{game['game_id']}/verify"]) == 0
    assert json.loads(capsys.readouterr().out) == served
    page = guest.call("GET", f"/share/{game['game_id']}")
    assert page.status == 200 and b"<svg" in page.body and b"<script" not in page.body


def test_today_s_daily_duel_over_http(stack: RunningStack) -> None:
    guest = _guest(stack)
    before = _ok(guest.call("GET", "/v1/daily"))
    assert before["played"] is False
    game = _ok(guest.call("POST", "/v1/daily/play"), 201)
    assert game["daily"] == before["date"]
    assert game["commitment"] == _ok(guest.call("GET", "/v1/daily"))["commitment"]
    again = guest.call("POST", "/v1/daily/play")
    assert again.status == 409 and again.json()["code"] == "daily-already-played"
    final = _play(guest, game)
    assert final["status"] == "finished" and final["seed"] is None  # until the day is over
    mine = _ok(guest.call("GET", "/v1/daily"))
    assert mine["played"] and mine["game"]["game_id"] == game["game_id"]
    table = _ok(guest.call("GET", f"/v1/daily/{before['date']}/table"))
    assert table["commitment"] == game["commitment"] and table["seed"] is None


def test_a_player_s_export_verifies_in_one_command_over_http(
    stack: RunningStack, capsys: pytest.CaptureFixture[str]
) -> None:
    player = signed_in(stack, "exporter")
    played = []
    for _ in range(3):
        game = _ok(player.call("POST", "/v1/games", {"bots": 1}), 201)
        row, col = next_tap(game)
        _ok(player.commit(game, row, col))
        played.append(_ok(player.call("POST", f"/v1/games/{game['game_id']}/resign")))
    first = player.call("GET", "/v1/players/exporter/games/export?limit=2")
    assert first.status == 200 and first.headers["content-type"].startswith("application/x-ndjson")
    assert first.headers["x-games"] == "2" and 'rel="next"' in first.headers["link"]
    capsys.readouterr()
    assert (
        mineduel(["verify", "--json", f"{stack.url}/v1/players/exporter/games/export?limit=2"]) == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == summary["ok"] == 3
    # Newest first: by when each game ended (games ended in the same second: by id, descending).
    order = sorted(played, key=lambda g: g["game_id"], reverse=True)
    ended = {
        g["game_id"]: _ok(player.call("GET", f"/v1/games/{g['game_id']}/summary")) for g in order
    }
    order.sort(key=lambda g: ended[g["game_id"]]["ended_at"], reverse=True)
    assert [r["game_id"] for r in summary["results"]] == [g["game_id"] for g in order]
    assert _ok(player.call("GET", "/v1/exports")) == {"exports": []}
