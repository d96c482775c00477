"""GET /v1/games/{game_id}/analysis: computed once from the Verification document, stored, and
the same numbers ``mineduel analyze --game`` gives offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from mineduel_engine.analysis import analyze_document
from mineduel_service.archive import analyses

from mineduel.cli import main as mineduel

if TYPE_CHECKING:
    import pytest
    from conftest import Api


def test_analysis_waits_for_the_end_then_agrees_with_the_offline_one(
    api: Api, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = api.guest()
    game = api.bot_game(token, bot_level="hard")
    early = api.call("GET", f"/v1/games/{game['game_id']}/analysis")
    assert (early.status, early.error_code) == (409, "game-not-finished")

    final = api.play_out(token, game)
    game_id = final["game_id"]
    assert analyses.stored_analysis(game_id) is None
    reply = api.call("GET", f"/v1/games/{game_id}/analysis")
    assert reply.status == 200, reply.body
    served = reply.body
    assert analyses.stored_analysis(game_id) == served
    assert api.call("GET", f"/v1/games/{game_id}/analysis").body == served

    doc = api.call("GET", f"/v1/games/{game_id}/verify").body
    assert analyze_document(doc) == served
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert mineduel(["analyze", "--game", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == served

    # The shape api.md promises, and the bot seat (hard) played exactly the bot's choices.
    assert [m["n"] for m in served["moves"]] == [m["n"] for m in doc["moves"]]
    for move in served["moves"]:
        assert 0.0 <= move["p_mine"] <= move["p_best"] <= 1.0
        if move["seat"] == 1:
            assert move["bot"] == [move["row"], move["col"]]
    for seat, line in enumerate(served["seats"]):
        assert line["seat"] == seat
        assert line["mines"] == final["seats"][seat]["mines"]
        assert abs(line["luck"] - (line["mines"] - line["expected_mines"])) < 1e-5
        assert line["skill_loss"] >= 0.0
    assert served["budget"]["estimated"] == []


def test_unknown_games_are_404(api: Api) -> None:
    reply = api.call("GET", "/v1/games/7b0d3c1e-0000-4000-8000-000000000000/analysis")
    assert (reply.status, reply.error_code) == (404, "game-not-found")
