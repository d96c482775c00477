"""The post-game analysis, the daily duel and the exports over real HTTP on the local stack, as a
client (and ``mineduel analyze`` / ``mineduel verify`` pointed at the stack's URLs) sees them."""

from __future__ import annotations

import json

import pytest
from mineduel_engine.analysis import analyze_document

from mineduel.cli import main as mineduel
from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import new_guest, signed_in
from mineduel.testing.fields import safe_number

pytestmark = pytest.mark.http


def test_a_game_s_analysis_served_and_recomputed_offline_agree(
    stack: RunningStack, capsys: pytest.CaptureFixture[str]
) -> None:
    guest = new_guest(stack)
    game = guest.play_out(guest.create_game(bots=1), "medium")
    served = guest.call("GET", f"/v1/games/{game['game_id']}/analysis").ok()
    doc = guest.call("GET", f"/v1/games/{game['game_id']}/verify").ok()
    assert analyze_document(doc) == served
    capsys.readouterr()
    assert mineduel(["analyze", "--game", f"{stack.url}/v1/games/{game['game_id']}/verify"]) == 0
    assert json.loads(capsys.readouterr().out) == served
    page = guest.call("GET", f"/share/{game['game_id']}")
    assert page.status == 200 and b"<svg" in page.body and b"<script" not in page.body


def test_today_s_daily_duel_over_http(stack: RunningStack) -> None:
    guest = new_guest(stack)
    before = guest.call("GET", "/v1/daily").ok()
    assert before["played"] is False
    # A fresh stack, whose five-minute housekeeping has not run: the deployment's preparation
    # has published today's commitment (and tomorrow's, and the months') before any play.
    assert before["commitment"] and before["month_commitment"]
    assert before["tomorrow"] and before["next_month"]
    game = guest.call("POST", "/v1/daily/play").ok(201)
    assert game["daily"] == before["date"]
    assert game["commitment"] == before["commitment"]  # the one readable before the play
    again = guest.call("POST", "/v1/daily/play")
    assert again.status == 409 and again.json()["code"] == "daily-already-played"
    final = guest.play_out(game, "medium")
    assert final["status"] == "finished" and final["seed"] is None  # until the day is over
    mine = guest.call("GET", "/v1/daily").ok()
    assert mine["played"] and mine["game"]["game_id"] == game["game_id"]
    table = guest.call("GET", f"/v1/daily/{before['date']}/table").ok()
    assert table["commitment"] == game["commitment"] and table["seed"] is None


def test_a_player_s_export_verifies_in_one_command_over_http(
    stack: RunningStack, capsys: pytest.CaptureFixture[str]
) -> None:
    player = signed_in(stack, "exporter")
    played = []
    for _ in range(3):
        game = player.call("POST", "/v1/games", {"bots": 1}).ok(201)
        player.commit(game, *safe_number(game["game_id"])).ok()
        played.append(player.call("POST", f"/v1/games/{game['game_id']}/resign").ok())
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
        g["game_id"]: player.call("GET", f"/v1/games/{g['game_id']}/summary").ok() for g in order
    }
    order.sort(key=lambda g: ended[g["game_id"]]["ended_at"], reverse=True)
    assert [r["game_id"] for r in summary["results"]] == [g["game_id"] for g in order]
    assert player.call("GET", "/v1/exports").ok() == {"exports": [], "next": None}
