"""``GET /v1/daily``: today's daily duel at a glance: its commitment (and tomorrow's, this
month's and next month's), when it closes, and the caller's game of the day, if any."""

from __future__ import annotations

from typing import Any

from ..games import store
from ..games.views import game_summary
from ..platform import auth, clock
from .store import day_end, month_of, next_day, next_month, previous_day, read_together, today


def overview(caller: auth.Caller | None) -> dict[str, Any]:
    """The day's commitments and the caller's game of the day (one ``BatchGetItem``, and one
    read of the caller's game when there is one)."""
    now = clock.now()
    day = today(now)
    tomorrow, yesterday, month = next_day(day), previous_day(day), month_of(day)
    later_month = next_month(month)
    found = read_together(
        days=[day, tomorrow, yesterday],
        months=[month, later_month],
        plays=[(day, caller.player_id)] if caller is not None else [],
    )
    the_day, the_month = found.days.get(day), found.months.get(month)
    after, later = found.days.get(tomorrow), found.months.get(later_month)
    before = found.days.get(yesterday)
    mine = found.plays.get((day, caller.player_id)) if caller is not None else None
    game = None
    if mine is not None:
        record = store.get_game(mine.game_id)
        game = game_summary(record, 0) if record is not None else None
    return {
        "date": day,
        "closes_at": day_end(day),
        "commitment": the_day.commitment if the_day else None,
        "month": month,
        "month_commitment": the_month.commitment if the_month else None,
        "tomorrow": {"date": tomorrow, "commitment": after.commitment} if after else None,
        "next_month": ({"month": later_month, "commitment": later.commitment} if later else None),
        "played": mine is not None,
        "game": game,
        "table": f"/v1/daily/{day}/table",
        # Named only when that day had a duel, so a client asks for no table that is not there.
        "yesterday": (
            {"date": yesterday, "table": f"/v1/daily/{yesterday}/table"} if before else None
        ),
    }
