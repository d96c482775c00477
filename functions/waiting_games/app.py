"""POST /v1/games/{game_id}/decline and DELETE /v1/games/{game_id}: games not started yet."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.lobby import waiting

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/decline",
    summary="Decline an invitation",
    operation_id="declineInvitation",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game with the reserved seat open."),
)
def decline(game_id: str) -> Response[GameOut]:
    """200 with the Game; the seat reserved for the caller becomes open to anybody."""
    return http.json_response(200, waiting.decline(http.caller(app), game_id))


@app.delete(
    "/v1/games/<game_id>",
    summary="Cancel a waiting game",
    operation_id="cancelGame",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game, cancelled."),
)
def cancel(game_id: str) -> Response[GameOut]:
    """200 with the Game (status ``cancelled``); only the creator, only while it waits
    (else 409 ``game-not-waiting``)."""
    return http.json_response(200, waiting.cancel(http.caller(app), game_id))


lambda_handler = http.lambda_handler_for(app)
