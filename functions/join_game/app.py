"""POST /v1/games/{game_id}/join: take an open seat, optionally with a client seed."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Response
from mineduel_service.contract.games import GameOut
from mineduel_service.contract.lobby import JoinRequest
from mineduel_service.lobby import start

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/join",
    summary="Join a game",
    operation_id="joinGame",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game with the caller seated."),
)
def join_game(
    game_id: str, request: Annotated[JoinRequest | None, Body()] = None
) -> Response[GameOut]:
    """200 with the Game; it becomes active when every seat is taken."""
    body = start.join_game(http.caller(app), game_id, request or JoinRequest())
    return http.json_response(200, body)


lambda_handler = http.lambda_handler_for(app)
