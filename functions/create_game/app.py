"""POST /v1/games: create a game (seat 0 is the caller, bots fill the last seats)."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Response
from mineduel_service.contract.games import GameOut
from mineduel_service.contract.lobby import CreateGameRequest
from mineduel_service.lobby import start

app = http.new_app()


@app.post(
    "/v1/games",
    summary="Create a game",
    operation_id="createGame",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(201, GameOut, "The new Game, its commitment public."),
)
def create_game(
    request: Annotated[CreateGameRequest | None, Body()] = None,
) -> Response[GameOut]:
    """201 with the new Game; its commitment is public from this moment."""
    body = start.create_game(http.caller(app), request or CreateGameRequest())
    return http.json_response(201, body)


lambda_handler = http.lambda_handler_for(app)
