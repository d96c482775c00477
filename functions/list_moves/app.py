"""GET /v1/games/{game_id}/moves?after=N: the move log above N, oldest first."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.moves import MovesOut
from mineduel_service.games import reads

app = http.new_app()


@app.get(
    "/v1/games/<game_id>/moves",
    summary="List moves",
    operation_id="listMoves",
    tags=["moves"],
    security=http.TOKEN_OPTIONAL,
    responses=http.responses(200, MovesOut, "The moves numbered above after."),
)
def list_moves(
    game_id: str, after: Annotated[int, Query(ge=0, le=100_000)] = 0
) -> Response[MovesOut]:
    """200 with the moves numbered above ``after``."""
    token = http.token(app)
    # The token is checked after the read: an unknown game is 404 whatever the token says.
    record = reads.current(game_id)
    return http.json_response(200, reads.moves_as_seen(record, after, http.verified(token)))


lambda_handler = http.lambda_handler_for(app)
