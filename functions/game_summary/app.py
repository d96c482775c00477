"""GET /v1/games/{game_id}/summary and GET /share/{game_id}: a finished game, told briefly."""

from __future__ import annotations

from typing import Any

from mineduel_service.api import headers, http
from mineduel_service.api.http import Response
from mineduel_service.archive import share_page, summaries
from mineduel_service.contract.archive import SummaryOut

app = http.new_app()

_HTML: dict[str, Any] = {share_page.CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}


@app.get(
    "/v1/games/<game_id>/summary",
    summary="Summarize a finished game",
    operation_id="getGameSummary",
    tags=["games"],
    responses=http.responses(200, SummaryOut, "The Summary of the finished game."),
)
def summary(game_id: str) -> Response[SummaryOut]:
    """200 once finished; 409 ``game-not-finished`` before."""
    return http.json_response(200, summaries.summary(game_id))


@app.get(
    "/share/<game_id>",
    summary="Share page of a finished game",
    operation_id="getSharePage",
    tags=["sharing"],
    responses={
        200: {
            "description": (
                "The page (HTML): names, avatars, mines, result, length, lead changes, longest "
                "runs, a link to the verification document; Open Graph and Twitter card tags."
            ),
            "content": _HTML,
        },
        404: {"description": "A page saying there is no such game.", "content": _HTML},
        409: {"description": "A page saying the game is not finished yet.", "content": _HTML},
        413: http.ERRORS[413],
        422: http.ERRORS[422],
        429: http.THROTTLED,
    },
)
def share(game_id: str) -> Response[str]:
    """The share page; no authentication (a link anybody may open)."""
    event = app.current_event
    base = headers.origin(dict(event.headers or {}), event.request_context.domain_name)
    found = share_page.page(game_id, base)
    status, sent = headers.share_page(found)
    return Response(
        status_code=status, content_type=share_page.CONTENT_TYPE, body=found.html, headers=sent
    )


lambda_handler = http.lambda_handler_for(app)
