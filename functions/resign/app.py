"""POST /v1/games/{game_id}/resign: put the caller's seat out."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.play import resign as resignation

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/resign",
    summary="Resign",
    operation_id="resignGame",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game after the seat went out."),
)
def resign(game_id: str) -> Response[GameOut]:
    """200 with the Game after the seat went out (and any bot replies)."""
    return http.json_response(200, resignation.resign(http.credential(app), game_id))


lambda_handler = http.lambda_handler_for(app)
