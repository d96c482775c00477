"""DELETE /v1/games/{game_id}/spectators: a player turns spectators off for the rest of a game."""

from __future__ import annotations

from mineduel_service.api import http
from mineduel_service.api.http import Response
from mineduel_service.contract.games import GameOut
from mineduel_service.live import spectators

app = http.new_app()


@app.delete(
    "/v1/games/<game_id>/spectators",
    summary="Turn spectators off for the rest of the game",
    description=(
        "A seat of the game turns spectators off for good: only its players may follow it "
        "live from now on, and every spectator is unsubscribed and told. Turning it off again "
        "answers the Game as it is. 403 `not-your-seat`; 409 `game-over` once the game ended."
    ),
    operation_id="turnOffSpectators",
    tags=["games"],
    security=http.TOKEN,
    responses=http.responses(200, GameOut, "The Game, with spectators_off true."),
)
def turn_off(game_id: str) -> Response[GameOut]:
    """200 with the Game; from now on only its players may follow it live, and every spectator
    is unsubscribed (docs/live.md). Seats only (403 otherwise); 409 ``game-over`` once it ended."""
    return http.json_response(200, spectators.turn_off(http.credential(app), game_id))


lambda_handler = http.lambda_handler_for(app)
