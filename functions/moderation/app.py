"""GET /v1/moderation/cases and POST /v1/moderation/cases/{case_id}: the moderators' review of
the players fair-play screening flags (Cognito group ``moderators``)."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Query, Response
from mineduel_service.contract.fairplay import CaseListOut, CaseOut, DecisionRequest
from mineduel_service.fairplay import moderation
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/moderation/cases",
    summary="List fair-play cases",
    operation_id="listCases",
    tags=["fair-play"],
    security=http.TOKEN,
    responses=http.responses(200, CaseListOut, "A page of cases, newest first."),
)
def list_cases(
    status: Annotated[str, Query(min_length=1, max_length=16)] = "open",
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[CaseListOut]:
    """Cases of ``status`` (``open``, ``cleared``, ``restricted`` or ``all``); 403
    ``not-a-moderator`` for anybody outside the group."""
    return http.json_response(200, moderation.list_cases(http.caller(app), status, cursor, limit))


@app.post(
    "/v1/moderation/cases/<case_id>",
    summary="Decide a fair-play case",
    operation_id="decideCase",
    tags=["fair-play"],
    security=http.TOKEN,
    responses=http.responses(200, CaseOut, "The case with its decision."),
)
def decide(case_id: str, request: Annotated[DecisionRequest, Body()]) -> Response[CaseOut]:
    """``clear`` or ``restrict`` (off the leaderboards and rated pairing); every decision is
    logged."""
    return http.json_response(200, moderation.decide(http.caller(app), case_id, request))


lambda_handler = http.lambda_handler_for(app)
