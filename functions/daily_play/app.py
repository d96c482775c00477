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
        "commitment is the day's, published (`GET /v1/daily`) before the day opened. Each turn "
        "has an hour, and no deadline passes midnight UTC. 409 `daily-already-played` for a "
        "second attempt; 503 `daily-not-ready` (with `Retry-After`) while the day's commitment "
        "is not published yet: a play never uses a commitment nobody could read first."
    ),
    operation_id="playDaily",
    tags=["daily"],
    security=http.TOKEN,
    responses={
        **http.responses(
            201, GameOut, "The caller's daily game, on the day's field, against the hard bot."
        ),
        503: http.unavailable(
            "`daily-not-ready`: today's commitment is not published yet (only on a new "
            "deployment, before its preparation ran); retry after `Retry-After` seconds. "
            "`auth-unavailable`: an account token's keys cannot be reached; retry."
        ),
    },
)
def play() -> Response[GameOut]:
    """201 with the new Game; 409 ``daily-already-played`` for a second attempt of the day; 503
    ``daily-not-ready`` while the day's commitment is not published."""
    return http.json_response(201, daily_play.play(http.caller(app)))


lambda_handler = http.lambda_handler_for(app)
