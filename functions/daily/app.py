"""GET /v1/daily and GET /v1/daily/{date}/table: the daily duel's commitments and tables."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Query, Response
from mineduel_service.contract.daily import DailyOut, DailyTableOut
from mineduel_service.daily import overview
from mineduel_service.daily import table as day_table
from mineduel_service.platform.pagination import MAX_LIMIT

app = http.new_app()


@app.get(
    "/v1/daily",
    summary="Today's daily duel",
    description=(
        "Today's date (UTC) and commitment, when the day closes, tomorrow's commitment, this "
        "month's and next month's; with a token, whether the caller has had today's attempt "
        "and their game of the day."
    ),
    operation_id="getDaily",
    tags=["daily"],
    security=http.TOKEN_OPTIONAL,
    responses=http.responses(
        200, DailyOut, "Today's commitment (and tomorrow's, the month's), and my game of the day."
    ),
)
def today() -> Response[DailyOut]:
    """200; ``game`` is the caller's daily game of today (null without a token)."""
    return http.json_response(200, overview.overview(http.optional_caller(app)))


@app.get(
    "/v1/daily/<date>/table",
    summary="A day's daily duel table",
    description=(
        "A page (`limit` entries, 100 unless asked) of the day's ranking of accounts by mines "
        "found, then fewer safe taps, with the day's commitment, its seed once the day is "
        "closed and the month key once the month is over; `next` is the cursor of the "
        "following page (null on the last). 404 `day-not-found`; 422 `bad-date`; "
        "400 `bad-cursor`."
    ),
    operation_id="getDailyTable",
    tags=["daily"],
    responses=http.responses(
        200, DailyTableOut, "The day's ranking by mines, then fewer safe taps (accounts only)."
    ),
)
def table(
    date: str,
    cursor: Annotated[
        str | None,
        Query(max_length=2048, description="The `next` of the page before (opaque)."),
    ] = None,
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIMIT, description="Entries in the page (1 to 100).")
    ] = day_table.DEFAULT_LIMIT,
) -> Response[DailyTableOut]:
    """200 with a page of the table; 404 ``day-not-found``; 422 ``bad-date``."""
    return http.json_response(200, day_table.table(date, cursor, limit))


lambda_handler = http.lambda_handler_for(app)
