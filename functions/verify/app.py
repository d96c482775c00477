"""GET /v1/games/{game_id}/verify: the self-contained Verification document."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.archive import documents
from mineduel_service.contract.archive import VerificationOut

app = http.new_app()


@app.get(
    "/v1/games/<game_id>/verify",
    summary="Verify a game",
    operation_id="getVerification",
    tags=["verification"],
    responses=http.responses(200, VerificationOut, "The Verification document."),
)
def verify(game_id: str) -> Response[VerificationOut]:
    """200 with the document; the seed, field and a checked verdict once finished."""
    return http.json_response(200, documents.verification(game_id))


lambda_handler = http.lambda_handler_for(app)
