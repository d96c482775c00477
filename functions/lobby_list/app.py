"""GET /v1/lobby: waiting games with a seat anybody may take."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.game_lists import GameListOut
from mineduel_service.lobby import listing
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/lobby",
    summary="List open games",
    operation_id="listLobby",
    tags=["lobby"],
    responses=http.responses(200, GameListOut, "A page of open games, oldest first."),
)
def lobby(
    variant: Annotated[str, Query(min_length=1, max_length=32)] = "mine-duel",
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[GameListOut]:
    """Waiting games of ``variant`` with an open seat nobody is invited to."""
    return http.json_response(200, listing.lobby(variant, cursor, limit))


lambda_handler = http.lambda_handler_for(app)
