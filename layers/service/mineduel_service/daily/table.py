"""The daily table: each day's ranking of accounts by mines found, then fewer safe taps, then
who finished first (docs/daily.md).

Housekeeping rebuilds it every five minutes (``rebuild_table``) and makes it final when the day
closes, with the games' ids, which stay unlisted while the day runs so that nobody is pointed
at a board of the day's field. ``GET /v1/daily/{date}/table`` reads one page of it (``table``).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from mineduel_engine.daily import is_date

from ..games import store
from ..platform import clock, dynamo, keys, pagination
from ..platform.clock import day_over, day_start
from .errors import BadDate, DayNotFound
from .store import TABLE_PAGE, Day, Play, month_of, parse_day, parse_month, play_item, plays_of


def check_date(day: str) -> str:
    """``day`` if it is a real ``YYYY-MM-DD`` date (``BadDate`` otherwise)."""
    if is_date(day):
        try:
            datetime.strptime(day, "%Y-%m-%d")
            return day
        except ValueError:
            pass
    raise BadDate()


def table(day: str, cursor: str | None) -> dict[str, Any]:
    """``GET /v1/daily/{date}/table``: one page of the day's ranking (accounts only), with the
    day's commitment, and its seed once the day is over and closed (one ``BatchGetItem``)."""
    check_date(day)
    kind = f"daily-{day}"
    position = pagination.decode(kind, cursor) or {"page": 0}
    page = position.get("page")
    if not isinstance(page, int) or page < 0:
        raise pagination.bad_cursor()
    month = month_of(day)
    page_key = keys.daily_table(day, page)
    items = dynamo.batch_get([keys.daily_day(day), page_key, keys.daily_month(month)])
    by_sk = {i["sk"]["S"]: i for i in items}
    if "DAY" not in by_sk:
        raise DayNotFound(f"There is no daily duel for {day} (yet).")
    the_day = parse_day(by_sk["DAY"])
    the_month = parse_month(by_sk["MONTH"]) if "MONTH" in by_sk else None
    stored = by_sk.get(page_key["sk"]["S"])
    entries = json.loads(stored["entries"]["S"]) if stored else []
    more = page + 1 < the_day.table_pages
    return {
        "date": day,
        "status": _status(the_day),
        "commitment": the_day.commitment,
        "seed": the_day.seed_hex,
        "month": month,
        "month_commitment": the_month.commitment if the_month else None,
        "month_key": the_month.key_hex if the_month else None,
        "players": the_day.players,
        "ranked": the_day.ranked,
        "updated_at": the_day.table_at,
        "entries": entries,
        "next": pagination.encode(kind, {"page": page + 1}) if more else None,
    }


def _status(the_day: Day) -> str:
    now = clock.now()
    if the_day.closed_at is not None:
        return "closed"
    if now < day_start(the_day.day):
        return "upcoming"
    return "closing" if day_over(the_day.day, now) else "open"


def rebuild_table(day: str, *, reveal: bool) -> list[Play]:
    """Note the results of the day's games that ended since the last run, rank the day's
    accounts and write the table's pages (with the games' ids only when ``reveal``)."""
    plays = plays_of(day)
    open_ids = [p.game_id for p in plays if p.mines is None]
    records = store.get_game(open_ids) if open_ids else {}
    noted: list[Play] = []
    for p in plays:
        record = records.get(p.game_id)
        if p.mines is None and record is not None and record.status == "finished":
            seat = record.state.seats[0]
            p = Play(  # noqa: PLW2901  (the attempt with its result)
                p.day,
                p.player_id,
                p.game_id,
                p.name,
                p.ranked,
                p.started_at,
                seat.mines,
                seat.safe_taps,
                record.ended_at,
            )
            dynamo.put(play_item(p))
        noted.append(p)
    entries = ranked(noted, reveal=reveal)
    pages = max(1, -(-len(entries) // TABLE_PAGE))
    for page in range(pages):
        chunk = entries[page * TABLE_PAGE : (page + 1) * TABLE_PAGE]
        dynamo.put(
            {
                **keys.daily_table(day, page),
                "entries": {"S": json.dumps(chunk, separators=(",", ":"))},
            }
        )
    dynamo.update(
        keys.daily_day(day),
        "SET table_pages = :pages, table_at = :at, players = :n, ranked = :r",
        values={
            ":pages": {"N": str(pages)},
            ":at": {"S": clock.iso(clock.now())},
            ":n": {"N": str(len(plays))},
            ":r": {"N": str(len(entries))},
        },
    )
    return noted


def ranked(plays: list[Play], *, reveal: bool) -> list[dict[str, Any]]:
    """The table's entries: the accounts' finished attempts, best first; equal mines and safe
    taps share a rank (1, 2, 2, 4)."""
    ordered = sorted(
        (p for p in plays if p.ranked and p.mines is not None),
        key=lambda p: (-(p.mines or 0), p.safe_taps or 0, p.ended_at or "", p.player_id),
    )
    entries: list[dict[str, Any]] = []
    for index, p in enumerate(ordered):
        previous = entries[-1] if entries else None
        tied = previous is not None and (previous["mines"], previous["safe_taps"]) == (
            p.mines,
            p.safe_taps,
        )
        entries.append(
            {
                "rank": previous["rank"] if tied and previous else index + 1,
                "name": p.name,
                "mines": p.mines,
                "safe_taps": p.safe_taps,
                "ended_at": p.ended_at,
                "game_id": p.game_id if reveal else None,
            }
        )
    return entries
