"""GET /v1/games/{game_id}: the game as the caller may see it, with an ETag."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Header, Response
from mineduel_service.contract.games import GameOut
from mineduel_service.games import reads

app = http.new_app()


@app.get(
    "/v1/games/<game_id>",
    summary="Read a game",
    operation_id="getGame",
    tags=["games"],
    security=http.TOKEN_OPTIONAL,
    responses={
        **http.responses(
            200, GameOut, "The Game as the caller may see it.", headers=http.ETAG_HEADERS
        ),
        304: http.NOT_MODIFIED,
    },
)
def get_game(
    game_id: str,
    if_none_match: Annotated[
        str | None,
        Header(
            alias="If-None-Match",
            description="The `ETag` of the game as last read (or `*`): 304 while unchanged.",
            max_length=4096,
        ),
    ] = None,
) -> Response[GameOut | None]:
    """200 with the public view (one read, no KMS); 304 when ``If-None-Match`` still holds."""
    token = http.token(app)
    # The token is checked after the read: an unknown game is 404 whatever the token says.
    record, watchers = reads.game_with_watchers(game_id)
    body = reads.game_as_seen(record, watchers, http.verified(token))
    tag = http.etag(body)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if http.etag_matches(if_none_match, tag):
        return Response(status_code=304, body=None, headers=headers)
    return http.json_response(200, body, headers)


lambda_handler = http.lambda_handler_for(app)
