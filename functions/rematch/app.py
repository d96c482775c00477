"""POST /v1/games/{game_id}/rematch: the same people and settings again, seats rotated."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.lobby import start

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/rematch",
    summary="Start a rematch",
    operation_id="createRematch",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(201, GameOut, "The new Game; the other people are invited."),
)
def rematch(game_id: str) -> Response[GameOut]:
    """201 with the new Game (a seat of the finished game only)."""
    return http.json_response(201, start.rematch(http.credential(app), game_id))


lambda_handler = http.lambda_handler_for(app)
