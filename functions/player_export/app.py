"""GET /v1/players/{username}/games/export: a player's finished games as NDJSON, page by page."""

from __future__ import annotations

from typing import Annotated, Any

from mineduel_service.api import headers, http
from mineduel_service.api.http import Query, Response
from mineduel_service.archive import exports

app = http.new_app()

NDJSON = exports.CONTENT_TYPE.split(";")[0]
_PAGE: dict[str, Any] = {
    NDJSON: {
        "schema": {
            "type": "string",
            "description": "One Verification document (JSON, the answer of "
            "`GET /v1/games/{game_id}/verify`) a line, newest game first; empty when no game "
            "matches",
        }
    }
}
_PAGE_HEADERS: dict[str, Any] = {
    "Link": {
        "description": 'The next page, filters kept: `</v1/players/...>; rel="next"` (absent '
        "on the last page)",
        "schema": {"type": "string"},
    },
    "X-Next-Cursor": {
        "description": "The next page's cursor (absent on the last page)",
        "schema": {"type": "string"},
    },
    "X-Games": {"description": "Games on this page", "schema": {"type": "integer", "minimum": 0}},
}
_MOMENT = "When the game ended, UTC: `YYYY-MM-DD` (midnight) or `YYYY-MM-DDTHH:MM:SSZ`"


@app.get(
    "/v1/players/<username>/games/export",
    summary="Export a player's finished games (NDJSON)",
    description=(
        "The player's finished games as NDJSON, one Verification document a line, a page at a "
        "time; `mineduel verify URL` checks every game, following the pages. A daily duel game "
        "is left out until its day is over. 404 `player-not-found`; 422 `bad-variant`, "
        "`bad-since`, `bad-until`, `bad-rated`; 400 `bad-cursor` (a cursor is good only with "
        "the filters it came with)."
    ),
    operation_id="exportPlayerGames",
    tags=["exports"],
    responses={
        200: {
            "description": (
                "A page of the player's finished games as NDJSON, newest first: at most `limit` "
                'games and 4 MiB. When more follow, `Link` names the next page (`rel="next"`) '
                "and `X-Next-Cursor` its cursor."
            ),
            "headers": _PAGE_HEADERS,
            "content": _PAGE,
        },
        **http.ERRORS,
        429: http.THROTTLED,
    },
)
def export(
    username: str,
    variant: Annotated[
        str | None,
        Query(max_length=32, description="Only this variant's games (`mine-duel`, ...)"),
    ] = None,
    since: Annotated[str | None, Query(max_length=32, description=f"{_MOMENT}; inclusive")] = None,
    until: Annotated[str | None, Query(max_length=32, description=f"{_MOMENT}; exclusive")] = None,
    rated: Annotated[
        str | None,
        Query(pattern="^(true|false)$", description="`true`: rated games only; `false`: unrated"),
    ] = None,
    cursor: Annotated[
        str | None,
        Query(max_length=2048, description="`X-Next-Cursor` of the page before (opaque)"),
    ] = None,
    limit: Annotated[
        int, Query(ge=1, le=exports.MAX_PAGE_GAMES, description="Games a page at most")
    ] = exports.DEFAULT_PAGE_GAMES,
) -> Response[str]:
    """200 with a page of NDJSON; 404 ``player-not-found``; 422 for a bad filter."""
    wanted = exports.filters(variant, since, until, rated)
    page = exports.player_export(username, wanted, cursor, limit)
    return Response(
        status_code=200,
        content_type=exports.CONTENT_TYPE,
        body=page.body,
        headers=headers.export_page(username, wanted, page, limit),
    )


lambda_handler = http.lambda_handler_for(app)
