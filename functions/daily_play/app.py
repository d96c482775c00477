"""POST /v1/daily/play: today's daily game against the hard bot, once a day."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.daily import play as daily_play

app = http.new_app()


@app.post(
    "/v1/daily/play",
    summary="Play today's daily duel",
    description=(
        "Starts the caller's one attempt of the day (guests too; only accounts are ranked): "
        "mine-duel, the caller on seat 0 against the hard bot, on the day's field, whose "
        "commitment is the day's. Each turn has an hour, and no deadline passes midnight UTC. "
        "409 `daily-already-played` for a second attempt."
    ),
    operation_id="playDaily",
    tags=["daily"],
    security=http.TOKEN,
    responses=http.responses(
        201, GameOut, "The caller's daily game, on the day's field, against the hard bot."
    ),
)
def play() -> Response[GameOut]:
    """201 with the new Game; 409 ``daily-already-played`` for a second attempt of the day."""
    return http.json_response(201, daily_play.play(http.caller(app)))


lambda_handler = http.lambda_handler_for(app)
