"""GET /v1/exports: every month's export of finished games, with short-lived links."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.archive import exports
from mineduel_service.contract.exports import ExportsOut

app = http.new_app()


@app.get(
    "/v1/exports",
    summary="List the monthly exports of finished games",
    description=(
        "Every month exported so far, newest first: one gzip-compressed NDJSON file of the "
        "Verification documents of the games that ended that month, with a presigned link "
        "valid 15 minutes and the SHA-256 of the uncompressed NDJSON."
    ),
    operation_id="listExports",
    tags=["exports"],
    responses=http.responses(
        200,
        ExportsOut,
        "Each exported month (gzip NDJSON), newest first, with a link valid 15 min.",
    ),
)
def listing() -> Response[ExportsOut]:
    """200 with every month exported so far."""
    return http.json_response(200, exports.listing())


lambda_handler = http.lambda_handler_for(app)
