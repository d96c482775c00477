"""POST /v1/games/{game_id}/timeout: a seat claims the passed deadline of the seat to move."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.play import timeouts

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/timeout",
    summary="Claim a passed deadline",
    operation_id="claimTimeout",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game after the seat to move went out."),
)
def claim_timeout(game_id: str) -> Response[GameOut]:
    """200 with the Game once the overdue seat is out (bots reply, or the game ends); 409
    ``deadline-not-passed`` while the seat to move still has time."""
    return http.json_response(200, timeouts.claim_timeout(http.credential(app), game_id))


lambda_handler = http.lambda_handler_for(app)
