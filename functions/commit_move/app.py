"""POST /v1/games/{game_id}/moves: commit one armed move; bots reply in the same request."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body
from mineduel_service import games, http
from mineduel_service.models import CommitOut, CommitRequest, ErrorOut

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/moves",
    summary="Commit a move",
    responses=http.responses(200, CommitOut, "The Game and every move this request caused."),
)
def commit_move(
    game_id: str, request: Annotated[CommitRequest, Body()]
) -> Response[CommitOut | ErrorOut]:
    """200 with the Game and every move this request caused (an Idempotency-Key retry
    returns the first answer, or the first refusal, such as the 409 of a missed deadline)."""
    answer = games.commit_move(
        http.token(app), game_id, request, http.header(app, "Idempotency-Key")
    )
    return http.json_response(200, answer)


lambda_handler = http.lambda_handler_for(app)
