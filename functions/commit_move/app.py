"""POST /v1/games/{game_id}/moves: commit one armed move; bots reply in the same request."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Header, Response
from mineduel_service.contract.moves import CommitOut, CommitRequest
from mineduel_service.contract.problems import ErrorOut
from mineduel_service.play import commit

app = http.new_app()


@app.post(
    "/v1/games/<game_id>/moves",
    summary="Commit a move",
    operation_id="commitMove",
    tags=["moves"],
    security=http.TOKEN,
    responses=http.responses(200, CommitOut, "The Game and every move this request caused."),
)
def commit_move(
    game_id: str,
    request: Annotated[CommitRequest, Body()],
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="Any 1 to 255 printable ASCII characters, new for each move (a UUID): "
            "a retry with the same key and body gets the first answer (or its refusal) and "
            "plays nothing; another key is refused 422 `bad-idempotency-key`.",
            # The service checks the key itself (422 bad-idempotency-key), so the limits are
            # documented here, not enforced by the request model.
            json_schema_extra={"minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
        ),
    ] = None,
) -> Response[CommitOut | ErrorOut]:
    """200 with the Game and every move this request caused (an Idempotency-Key retry
    returns the first answer, or the first refusal, such as the 409 of a missed deadline)."""
    answer = commit.commit_move(http.credential(app), game_id, request, idempotency_key)
    return http.json_response(200, answer)


lambda_handler = http.lambda_handler_for(app)
