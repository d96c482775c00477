"""POST /v1/guests: issue a guest token (who may play the bot only), a few per address a minute."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.people import GuestOut
from mineduel_service.people import guests
from mineduel_service.platform import limits

app = http.new_app()


@app.post(
    "/v1/guests",
    summary="Issue a guest token",
    operation_id="createGuest",
    tags=["accounts"],
    responses=http.responses(201, GuestOut, "A guest token, shown once.", limited=True),
)
def create_guest() -> Response[GuestOut]:
    """201 with the token (shown once), the guest's player id and the token's expiry; 429 with
    ``Retry-After`` once the caller's address has had its guests for this minute."""
    limits.admit_guest(http.source_ip(app))
    return http.json_response(201, guests.register_guest())


lambda_handler = http.lambda_handler_for(app)
