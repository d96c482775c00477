"""GET /v1/exports: every month's export of finished games, with short-lived links."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.archive import exports
from mineduel_service.contract.exports import ExportsOut
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/exports",
    summary="List the monthly exports of finished games",
    description=(
        "The months exported so far, newest first, a page at a time (limit, cursor, next): "
        "one gzip-compressed NDJSON file of the Verification documents of the games that "
        "ended that month, with a presigned link valid 15 minutes and the SHA-256 of the "
        "uncompressed NDJSON."
    ),
    operation_id="listExports",
    tags=["exports"],
    responses=http.responses(
        200,
        ExportsOut,
        "Each exported month (gzip NDJSON), newest first, with a link valid 15 min.",
    ),
)
def listing(
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[ExportsOut]:
    """200 with a page of the months exported so far."""
    return http.json_response(200, exports.listing(cursor, limit))


lambda_handler = http.lambda_handler_for(app)
