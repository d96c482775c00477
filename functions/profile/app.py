"""GET and PUT /v1/me: the caller's own profile (accounts only), its username and settings."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body
from mineduel_service.api import http
from mineduel_service.contract.models import ProfileOut, UpdateMeRequest
from mineduel_service.live import spectators
from mineduel_service.people import players

app = http.new_app()


@app.get(
    "/v1/me",
    summary="Read my profile",
    operation_id="getMe",
    tags=["accounts"],
    security=http.TOKEN,
    responses=http.responses(200, ProfileOut, "The caller's profile, with settings."),
)
def get_me() -> Response[ProfileOut]:
    """200 with the caller's profile (made on first use)."""
    return http.json_response(200, players.get_me(http.caller(app)))


@app.put(
    "/v1/me",
    summary="Change my username or settings",
    operation_id="updateMe",
    tags=["accounts"],
    security=http.TOKEN,
    responses=http.responses(200, ProfileOut, "The profile after the change."),
)
def update_me(request: Annotated[UpdateMeRequest, Body()]) -> Response[ProfileOut]:
    """200 with the profile; 409 ``username-taken``; 422 ``username-invalid`` or
    ``username-reserved``. Spectators turned off: off in the caller's running games too."""
    caller = http.caller(app)
    profile = players.update_me(caller, request)
    if request.settings is not None and request.settings.spectators is False:
        spectators.off_in_running_games(caller)
    return http.json_response(200, profile)


lambda_handler = http.lambda_handler_for(app)
