"""GET /v1/exports: every month's export of finished games, with short-lived links."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from mineduel_service import exports, http
from mineduel_service.models_exports import ExportsOut

app = http.new_app()


@app.get(
    "/v1/exports",
    summary="List the monthly exports of finished games",
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
