"""GET /v1/players/{username}/fair-play: a player's fair-play record (the player or a
moderator)."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.fairplay import FairPlayOut
from mineduel_service.fairplay import reports

app = http.new_app()


@app.get(
    "/v1/players/<username>/fair-play",
    summary="Read a player's fair-play record",
    operation_id="getFairPlay",
    tags=["fair-play"],
    security=http.TOKEN,
    responses=http.responses(200, FairPlayOut, "The record: the last screened rated games."),
)
def get_fair_play(username: str) -> Response[FairPlayOut]:
    """200 for the player themself or a moderator; 403 ``fair-play-private`` for anybody
    else; 404 ``player-not-found``."""
    return http.json_response(200, reports.fair_play(http.caller(app), username))


lambda_handler = http.lambda_handler_for(app)
