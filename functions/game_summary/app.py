"""GET /v1/games/{game_id}/summary and GET /share/{game_id}: a finished game, told briefly."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from mineduel_service import http, summaries
from mineduel_service.models import SummaryOut

app = http.new_app()


@app.get(
    "/v1/games/<game_id>/summary",
    summary="Summarize a finished game",
    responses=http.responses(200, SummaryOut, "The Summary of the finished game."),
)
def summary(game_id: str) -> Response[SummaryOut]:
    """200 once finished; 409 ``game-not-finished`` before."""
    return http.json_response(200, summaries.summary(game_id))


lambda_handler = http.lambda_handler_for(app)
