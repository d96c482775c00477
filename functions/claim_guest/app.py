"""POST /v1/me/claim: a guest's games, history and statistics move to the calling account."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Response
from mineduel_service.contract.people import ClaimOut, ClaimRequest
from mineduel_service.people import guest_claims

app = http.new_app()


@app.post(
    "/v1/me/claim",
    summary="Claim a guest's games",
    operation_id="claimGuest",
    tags=["accounts"],
    security=http.TOKEN,
    responses=http.responses(200, ClaimOut, "How many games moved to the account."),
)
def claim(request: Annotated[ClaimRequest, Body()]) -> Response[ClaimOut]:
    """200 with the number of games moved; once claimed, the guest token is refused."""
    return http.json_response(200, guest_claims.claim(http.caller(app), request.guest_token))


lambda_handler = http.lambda_handler_for(app)
