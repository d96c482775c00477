"""Structured logs with the request's correlation id, and metrics as CloudWatch EMF."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Api


def _json_lines(text: str) -> list[dict[str, Any]]:
    lines = []
    for line in text.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_a_commit_publishes_its_metric_and_a_read_publishes_none(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    token = api.guest()
    game = api.bot_game(token)
    # A known safe cell showing a number: the bot replies, from one number too little to win
    # from (a game a commit ends also publishes ResultsApplied: after a tap on an unknown cell
    # the hard bot won at once about 1 time in 1,000).
    known = api.field(game["game_id"])
    safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    capsys.readouterr()
    assert api.commit(token, game["game_id"], *divmod(safe, 16), 0).status == 200
    emf = [line for line in _json_lines(capsys.readouterr().out) if "_aws" in line]
    assert len(emf) == 1
    directive = emf[0]["_aws"]["CloudWatchMetrics"][0]
    assert directive["Namespace"] == "MineDuel"
    assert [m["Name"] for m in directive["Metrics"]] == ["MovesCommitted"]
    assert emf[0]["MovesCommitted"][0] >= 1
    api.call("GET", f"/v1/games/{game['game_id']}")
    assert not [line for line in _json_lines(capsys.readouterr().out) if "_aws" in line]


def test_log_lines_are_json_with_the_request_id(api: Api, log_output: io.StringIO) -> None:
    token = api.guest()
    api.bot_game(token)
    logs = _json_lines(log_output.getvalue())
    created = next(line for line in logs if line["message"] == "game created")
    assert created["service"] == "mineduel" and created["level"] == "INFO"
    assert created["correlation_id"] == api.samples["POST /v1/games"]["requestContext"]["requestId"]
    assert created["function_name"] == "CreateGameFunction"
