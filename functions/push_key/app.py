"""GET /v1/push/vapid-key: the application server key browsers subscribe to Web Push with."""

from __future__ import annotations

from mineduel_service.api import headers, http
from mineduel_service.api.http import Response
from mineduel_service.contract.push import VapidKeyOut
from mineduel_service.notify import vapid_key

app = http.new_app()


@app.get(
    "/v1/push/vapid-key",
    summary="Read the Web Push application server key",
    description=(
        "The stack's VAPID public key (RFC 8292): base64url of an uncompressed P-256 point, "
        "what `PushManager.subscribe({applicationServerKey})` takes. It stays the same for "
        "the stack's life. No credentials needed."
    ),
    operation_id="getVapidKey",
    tags=["notifications"],
    responses=http.responses(
        200,
        VapidKeyOut,
        "The key.",
        headers={"Cache-Control": {"description": "public, a day", "schema": {"type": "string"}}},
    ),
)
def get_key() -> Response[VapidKeyOut]:
    """200 with the public key; 503 ``push-key-unavailable`` while it cannot be read."""
    return http.json_response(200, vapid_key.get_key(), headers.VAPID_KEY_HEADERS)


lambda_handler = http.lambda_handler_for(app)
