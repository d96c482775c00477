"""GET /v1/leaderboards/{variant}: the top 100 of a rated variant, and the caller's rank."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.leaderboards import LeaderboardOut
from mineduel_service.ratings import leaderboards

app = http.new_app()


@app.get(
    "/v1/leaderboards/<variant>",
    summary="Read a variant's leaderboard",
    operation_id="getLeaderboard",
    tags=["leaderboards"],
    security=http.TOKEN_OPTIONAL,
    responses=http.responses(
        200, LeaderboardOut, "A page of the latest snapshot's top 100, and the caller's rank."
    ),
)
def leaderboard(
    variant: str,
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=leaderboards.MAX_LIMIT)] = leaderboards.PAGE_SIZE,
) -> Response[LeaderboardOut]:
    """Players who opted in, are not provisional and played a rated game in the last 30 days,
    best first, ``limit`` a page; 404 ``leaderboard-not-found`` for a variant without ratings."""
    token = http.token(app)
    # An unknown variant is 404 whatever the token says: it is checked first.
    system = leaderboards.rated_variant(variant)
    board = leaderboards.leaderboard(system, http.verified(token), cursor, limit)
    return http.json_response(200, board)


lambda_handler = http.lambda_handler_for(app)
