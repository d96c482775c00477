"""POST, GET and DELETE /v1/seeks and GET /v1/seeks/{seek_id}: quick pairing."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Query, Response
from mineduel_service.contract.pairing import SeekListOut, SeekOut, SeekRequest
from mineduel_service.pairing import seeks
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()


@app.post(
    "/v1/seeks",
    summary="Seek a game (quick pairing)",
    operation_id="createSeek",
    tags=["pairing"],
    security=http.TOKEN,
    responses={
        **http.responses(201, SeekOut, "The seek, open: it waits for another that fits."),
        200: {
            "description": "The seek, paired at once with an open seek that fits: `game_id` "
            "is the new game.",
            "content": {"application/json": {"model": SeekOut}},
        },
    },
)
def create(
    request: Annotated[SeekRequest | None, Body()] = None,
) -> Response[SeekOut]:
    """201 with the open seek, or 200 with the seek paired into a new game; 409 ``seek-open``
    while another seek of the caller's is open in the variant; 403 ``accounts-only`` for
    guests."""
    answer = seeks.create_seek(http.caller(app), request or SeekRequest())
    return http.json_response(200 if answer.paired else 201, answer.seek)


@app.get(
    "/v1/seeks",
    summary="List open seeks",
    operation_id="listSeeks",
    tags=["pairing"],
    security=http.TOKEN_OPTIONAL,
    responses=http.responses(200, SeekListOut, "A page of open seeks of the variant."),
)
def list_open(
    variant: Annotated[str, Query(min_length=1, max_length=32)] = "mine-duel",
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[SeekListOut]:
    """The variant's open seeks, by move deadline, rated and rating."""
    return http.json_response(200, seeks.open_seeks(variant, cursor, limit))


@app.get(
    "/v1/seeks/<seek_id>",
    summary="Read one of your seeks",
    operation_id="getSeek",
    tags=["pairing"],
    security=http.TOKEN,
    responses=http.responses(200, SeekOut, "The seek (an open one is tried for pairing again)."),
)
def get_one(seek_id: str) -> Response[SeekOut]:
    """200 with the caller's seek; 404 ``seek-not-found`` for anybody else's."""
    return http.json_response(200, seeks.get_seek(http.caller(app), seek_id))


@app.delete(
    "/v1/seeks/<seek_id>",
    summary="Cancel one of your seeks",
    operation_id="cancelSeek",
    tags=["pairing"],
    security=http.TOKEN,
    responses=http.responses(200, SeekOut, "The seek, cancelled."),
)
def cancel(seek_id: str) -> Response[SeekOut]:
    """200 with the seek cancelled; 409 ``seek-not-open`` once it was paired (the message
    names the game), cancelled or expired."""
    return http.json_response(200, seeks.cancel_seek(http.caller(app), seek_id))


lambda_handler = http.lambda_handler_for(app)
