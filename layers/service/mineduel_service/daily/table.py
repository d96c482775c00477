"""The daily table: each day's ranking of accounts by mines found, then fewer safe taps, then
who finished first (docs/daily.md).

Housekeeping rebuilds it every five minutes (``rebuild_table``) and makes it final when the day
closes, with the games' ids, which stay unlisted while the day runs so that nobody is pointed
at a board of the day's field. It is stored in pages of ``TABLE_PAGE`` entries;
``GET /v1/daily/{date}/table`` answers ``limit`` entries from a position (``table``), read from
the one or two stored pages they fall in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mineduel_engine.daily import is_date

from ..games import store
from ..platform import clock, pagination
from ..platform.clock import day_over, day_start
from .errors import BadDate, DayNotFound
from .store import (
    TABLE_PAGE,
    Day,
    Play,
    month_of,
    note_table,
    plays_of,
    read_together,
    save_play,
    save_table_page,
)

DEFAULT_LIMIT = TABLE_PAGE
"""Entries a page of ``GET /v1/daily/{date}/table`` when no ``limit`` is asked: a stored page."""


def check_date(day: str) -> str:
    """``day`` if it is a real ``YYYY-MM-DD`` date (``BadDate`` otherwise)."""
    if is_date(day):
        try:
            datetime.strptime(day, "%Y-%m-%d")
            return day
        except ValueError:
            pass
    raise BadDate()


def table(day: str, cursor: str | None, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """``GET /v1/daily/{date}/table``: ``limit`` entries of the day's ranking (accounts only)
    from the cursor's position, with the day's commitment, and its seed once the day is over
    and closed (one ``BatchGetItem``: the day, its month, the stored pages the entries are on)."""
    check_date(day)
    at = _position(f"daily-{day}", cursor)
    month = month_of(day)
    pages = range(at // TABLE_PAGE, (at + limit - 1) // TABLE_PAGE + 1)
    found = read_together(days=[day], months=[month], table=(day, pages))
    the_day = found.days.get(day)
    if the_day is None:
        raise DayNotFound(f"There is no daily duel for {day} (yet).")
    the_month = found.months.get(month)
    stored = [entry for page in pages for entry in found.table.get(page, [])]
    skip = at - pages[0] * TABLE_PAGE
    more = at + limit < the_day.ranked
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
        "entries": stored[skip : skip + limit],
        "next": pagination.encode(f"daily-{day}", {"at": at + limit}) if more else None,
    }


def _position(kind: str, cursor: str | None) -> int:
    """The entry a page starts at: 0 without a cursor. A cursor given out before pages had a
    ``limit`` names a stored page (``{"page": n}``): it still reads on from that page."""
    position = pagination.decode(kind, cursor) or {"at": 0}
    if "page" in position:
        page = position["page"]
        at = page * TABLE_PAGE if isinstance(page, int) and not isinstance(page, bool) else -1
    else:
        found = position.get("at")
        at = found if isinstance(found, int) and not isinstance(found, bool) else -1
    if at < 0:
        raise pagination.bad_cursor()
    return at


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
            save_play(p)
        noted.append(p)
    entries = ranked(noted, reveal=reveal)
    pages = max(1, -(-len(entries) // TABLE_PAGE))
    for page in range(pages):
        save_table_page(day, page, entries[page * TABLE_PAGE : (page + 1) * TABLE_PAGE])
    note_table(day, pages=pages, at=clock.iso(clock.now()), players=len(plays), ranked=len(entries))
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
