"""``GET /v1/daily``: today's daily duel at a glance: its commitment (and tomorrow's, this
month's and next month's), when it closes, and the caller's game of the day, if any."""

from __future__ import annotations

from typing import Any

from ..games import store
from ..games.views import game_summary
from ..platform import auth, clock, dynamo, keys
from .store import (
    day_end,
    month_of,
    next_day,
    next_month,
    parse_day,
    parse_month,
    parse_play,
    previous_day,
    today,
)


def overview(caller: auth.Caller | None) -> dict[str, Any]:
    """The day's commitments and the caller's game of the day (one ``BatchGetItem``, and one
    read of the caller's game when there is one)."""
    now = clock.now()
    day = today(now)
    tomorrow, yesterday, month = next_day(day), previous_day(day), month_of(day)
    wanted = [
        keys.daily_day(day),
        keys.daily_day(tomorrow),
        keys.daily_month(month),
        keys.daily_month(next_month(month)),
        keys.daily_day(yesterday),
    ]
    if caller is not None:
        wanted.append(keys.daily_play(day, caller.player_id))
    found = {(i["pk"]["S"], i["sk"]["S"]): i for i in dynamo.batch_get(wanted)}

    def item(key: dict[str, Any]) -> dict[str, Any] | None:
        return found.get((key["pk"]["S"], key["sk"]["S"]))

    the_day, the_month = item(keys.daily_day(day)), item(keys.daily_month(month))
    after, later = item(keys.daily_day(tomorrow)), item(keys.daily_month(next_month(month)))
    before = item(keys.daily_day(yesterday))
    mine = item(keys.daily_play(day, caller.player_id)) if caller is not None else None
    game = None
    if mine is not None:
        record = store.get_game(parse_play(mine).game_id)
        game = game_summary(record, 0) if record is not None else None
    return {
        "date": day,
        "closes_at": day_end(day),
        "commitment": parse_day(the_day).commitment if the_day else None,
        "month": month,
        "month_commitment": parse_month(the_month).commitment if the_month else None,
        "tomorrow": (
            {"date": tomorrow, "commitment": parse_day(after).commitment} if after else None
        ),
        "next_month": (
            {"month": next_month(month), "commitment": parse_month(later).commitment}
            if later
            else None
        ),
        "played": mine is not None,
        "game": game,
        "table": f"/v1/daily/{day}/table",
        # Named only when that day had a duel, so a client asks for no table that is not there.
        "yesterday": (
            {"date": yesterday, "table": f"/v1/daily/{yesterday}/table"} if before else None
        ),
    }
