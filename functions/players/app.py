"""GET /v1/players/{username} and its finished games: anybody's public profile."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.game_lists import GameListOut
from mineduel_service.contract.people import ProfileOut
from mineduel_service.people import history, players
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/players/<username>",
    summary="Read a player's profile",
    operation_id="getPlayer",
    tags=["players"],
    responses=http.responses(200, ProfileOut, "The public profile and statistics."),
)
def get_player(username: str) -> Response[ProfileOut]:
    """200 with the public profile; 404 ``player-not-found``."""
    return http.json_response(200, players.get_player(username))


@app.get(
    "/v1/players/<username>/games",
    summary="List a player's finished games",
    operation_id="listPlayerGames",
    tags=["players"],
    responses=http.responses(200, GameListOut, "A page of finished games, newest first."),
)
def player_games(
    username: str,
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[GameListOut]:
    """The player's finished games, newest first."""
    return http.json_response(200, history.player_games(username, cursor, limit))


lambda_handler = http.lambda_handler_for(app)
