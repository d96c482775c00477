"""The daily duel's housekeeping, every five minutes (docs/daily.md): commit the coming months
and days ahead (``prepare``, with ``seeds``), rebuild the tables of the days still open
(``table``), close the days that are over and publish the keys of months that are over.

``prepare`` commits today, tomorrow and the day after, and the months they fall in with the
month after each: so tomorrow's commitment (and next month's) is public a day (a month) before
it is needed, and ``GET /v1/daily`` never shows a null across midnight. A new deployment runs
``prepare`` once as it is deployed (the template's ``DailyPreparation``), before any client can
call it; a play never prepares a day itself (``play``).

Closing a day publishes its seed in every game of the day and in the day's item, with the final
table (the games' ids revealed); a month's key is published once every one of its days is
closed. Every step is idempotent: any step a crash interrupts is done again by the next run.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..games import store, writes
from ..platform import clock
from ..platform.clock import day_over, day_start
from ..platform.dynamo import WriteConflict
from ..platform.observability import count, logger
from .seeds import checked_seed, ensure_day, ensure_month, month_key
from .store import (
    Day,
    Play,
    close_day_item,
    get_day,
    get_month,
    month_of,
    month_over,
    next_day,
    next_month,
    publish_month_key,
    read_together,
    today,
)
from .table import rebuild_table

LOOKBACK_DAYS = 7
"""Housekeeping looks this many days back for days still to close."""
DAYS_AHEAD = 2
"""Days committed to beyond today: with a run every five minutes, tomorrow's commitment is
always there, also in the minutes after midnight before the first run of the new day."""


def prepare(now: datetime) -> dict[str, list[str]]:
    """Commit to today and the ``DAYS_AHEAD`` days after it, and to their months and the month
    after each (each made once, then left as it is); the days and months now committed."""
    day = today(now)
    days = [day]
    for _ in range(DAYS_AHEAD):
        days.append(next_day(days[-1]))
    months = sorted({m for d in days for m in (month_of(d), next_month(month_of(d)))})
    for m in months:
        ensure_month(m)
    for d in days:
        ensure_day(d)
    return {"days": days, "months": months}


def housekeeping() -> dict[str, Any]:
    """Every five minutes: commit the coming months and days ahead, rebuild the tables of the
    days still open, close the days that are over (publish their seeds) and publish the keys of
    months that are over. Idempotent: any step a crash interrupts is done again by the next run."""
    now = clock.now()
    day = today(now)
    month = month_of(day)
    prepare(now)
    report: dict[str, Any] = {"tables": [], "closed": [], "waiting": [], "months": []}
    start = datetime.strptime(day, "%Y-%m-%d") - timedelta(days=LOOKBACK_DAYS)
    days = [(start + timedelta(days=i)).date().isoformat() for i in range(LOOKBACK_DAYS + 1)]
    for d in days:
        the_day = get_day(d)
        if the_day is None or the_day.closed_at is not None:
            continue
        plays = rebuild_table(d, reveal=False)
        report["tables"].append(d)
        if not day_over(d, now):
            continue
        if close_day(the_day, plays):
            report["closed"].append(d)
        else:
            report["waiting"].append(d)
    previous = month_of((day_start(f"{month}-01") - timedelta(days=1)).date().isoformat())
    if publish_month(previous, now):
        report["months"].append(previous)
    return report


def close_day(the_day: Day, plays: list[Play]) -> bool:
    """Publish an ended day's seed in each of its games and in the day, with the final table;
    False (to try again next run) while one of its games is still being recorded as over."""
    if any(p.mines is None for p in plays):
        return False  # a game still running: its capped deadline ends it within minutes
    day = the_day.day
    seed = checked_seed(the_day)
    for game_id, record in store.get_game([p.game_id for p in plays]).items():
        if record.seed_hex is not None:
            continue
        try:
            writes.persist(record.evolve(seed_hex=seed.hex()), record)
        except WriteConflict:
            logger.warning("daily seed not published yet", extra={"game_id": game_id})
            return False
    rebuild_table(day, reveal=True)
    close_day_item(day, seed.hex(), clock.iso(clock.now()))
    count("DailyDaysClosed")
    return True


def publish_month(month: str, now: datetime) -> bool:
    """Publish the key of a month that is over once every one of its days is closed."""
    if not month_over(month, now):
        return False
    found = get_month(month)
    if found is None or found.key_hex is not None:
        return False
    first = day_start(f"{month}-01")
    days = []
    current = first
    while month_of(current.date().isoformat()) == month:
        days.append(current.date().isoformat())
        current += timedelta(days=1)
    if any(d.closed_at is None for d in read_together(days=days).days.values()):
        return False
    publish_month_key(month, month_key(found).hex(), clock.iso(now))
    return True
