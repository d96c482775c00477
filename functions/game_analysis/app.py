"""GET /v1/games/{game_id}/analysis: luck against skill in a finished game."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.archive import analyses
from mineduel_service.contract.analysis import AnalysisOut

app = http.new_app()


@app.get(
    "/v1/games/<game_id>/analysis",
    summary="Analyse a finished game (luck against skill)",
    description=(
        "Per cell action, the chance that the chosen cell was a mine (from what the moving seat "
        "saw), the highest chance on that board and the hard bot's choice; per seat, the mines "
        "found against the mines the chances promised (`luck`) and the chances given up "
        "(`skill_loss`). Computed once, from the game's Verification document, then served "
        "from the store; `mineduel analyze` gives the same JSON offline. 409 "
        "`game-not-finished` before the end, `day-not-over` for a daily duel game whose day "
        "still runs."
    ),
    operation_id="getGameAnalysis",
    tags=["analysis"],
    responses=http.responses(
        200,
        AnalysisOut,
        "Every move's mine chance, the best on its board and the bot's choice; "
        "each seat's mines against expected mines.",
    ),
)
def analysis(game_id: str) -> Response[AnalysisOut]:
    """200 once finished (computed once, then served from the store); 409 ``game-not-finished``
    before, ``day-not-over`` for a daily game whose day still runs."""
    return http.json_response(200, analyses.game_analysis(game_id))


lambda_handler = http.lambda_handler_for(app)
