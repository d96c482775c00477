"""GET /v1/me/games and GET /v1/me/invites: the caller's games and invitations."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.game_lists import GameListOut
from mineduel_service.people import history
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/me/games",
    summary="List my games",
    operation_id="listMyGames",
    tags=["accounts"],
    security=http.TOKEN,
    responses=http.responses(200, GameListOut, "A page of the caller's games."),
)
def my_games(
    status: Annotated[str | None, Query(pattern="^(active|finished)$")] = None,
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[GameListOut]:
    """Running games first (the ones waiting on the caller on top, then by deadline), then
    finished ones, newest first; ``status`` keeps one of the two."""
    return http.json_response(200, history.my_games(http.caller(app), status, cursor, limit))


@app.get(
    "/v1/me/invites",
    summary="List my invitations",
    operation_id="listMyInvitations",
    tags=["accounts"],
    security=http.TOKEN,
    responses=http.responses(
        200, GameListOut, "A page of the waiting games with a seat reserved for me."
    ),
)
def my_invites(
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[GameListOut]:
    """Waiting games with a seat reserved for the caller, oldest first."""
    return http.json_response(200, history.my_invites(http.caller(app), cursor, limit))


lambda_handler = http.lambda_handler_for(app)
