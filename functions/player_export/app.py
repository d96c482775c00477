"""GET /v1/players/{username}/games/export: a player's finished games as NDJSON, page by page."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from mineduel_service import exports, http

app = http.new_app()

_NDJSON: dict[str, Any] = {
    exports.CONTENT_TYPE.split(";")[0]: {
        "schema": {
            "type": "string",
            "description": "One Verification document (JSON) a line, newest game first",
        }
    }
}


@app.get(
    "/v1/players/<username>/games/export",
    summary="Export a player's finished games (NDJSON)",
    responses={
        200: {
            "description": (
                "A page of the player's finished games as NDJSON, newest first: at most `limit` "
                'games and 4 MiB. When more follow, `Link` names the next page (`rel="next"`) '
                "and `X-Next-Cursor` its cursor. `mineduel verify` checks every game."
            ),
            "headers": {
                "Link": {
                    "description": 'The next page: `<...>; rel="next"`',
                    "schema": {"type": "string"},
                },
                "X-Next-Cursor": {
                    "description": "The next page's cursor",
                    "schema": {"type": "string"},
                },
                "X-Games": {"description": "Games on this page", "schema": {"type": "integer"}},
            },
            "content": _NDJSON,
        },
        404: http.ERRORS[404],
        422: http.ERRORS[422],
    },
)
def export(
    username: str,
    variant: Annotated[str | None, Query(max_length=32)] = None,
    since: Annotated[str | None, Query(max_length=32)] = None,
    until: Annotated[str | None, Query(max_length=32)] = None,
    rated: Annotated[str | None, Query(pattern="^(true|false)$")] = None,
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=exports.MAX_PAGE_GAMES)] = exports.DEFAULT_PAGE_GAMES,
) -> Response[str]:
    """200 with a page of NDJSON; 404 ``player-not-found``; 422 for a bad filter."""
    wanted = exports.filters(variant, since, until, rated)
    page = exports.player_export(username, wanted, cursor, limit)
    headers = {"X-Games": str(page.games)}
    if page.next is not None:
        headers["X-Next-Cursor"] = page.next
        headers["Link"] = exports.next_link(username, wanted, page.next, limit)
    return Response(
        status_code=200, content_type=exports.CONTENT_TYPE, body=page.body, headers=headers
    )


lambda_handler = http.lambda_handler_for(app)
