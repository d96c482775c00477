"""The daily duel's items: a month's key, a day's commitment and seed, each player's attempt and
the day's table (docs/daily.md, docs/data-model.md).

- ``DAILY#<YYYY-MM>`` / ``MONTH``: the month key as KMS ciphertext, its commitment (SHA-256 of
  the key, published before the month starts) and, once the month is over, the key itself;
- ``DAILY#<YYYY-MM-DD>`` / ``DAY``: the day's commitment (from the month key), and once the day is
  over its seed, when it was closed, and how its table was last built;
- ``DAILY#<YYYY-MM-DD>`` / ``PLAY#<player id>``: a player's one attempt (the game, the name,
  whether the player is ranked) and, once the game is over, its mines and safe taps;
- ``DAILY#<YYYY-MM-DD>`` / ``TABLE#<page>``: the day's table, ranked, one page of entries.

Light on purpose: the read paths (a Verification document names its month's commitment and key)
import this without anything that needs KMS. Keys are built in ``platform.keys``. This is the
one module of ``daily`` that reads or writes the table: the others ask it, by what they do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from ..platform import clock, dynamo, keys
from ..platform.clock import day_start

TABLE_PAGE = 100


def today(now: datetime) -> str:
    """The UTC day of ``now``."""
    return now.date().isoformat()


def day_end(day: str) -> str:
    """The moment ``day`` ends, in the API's time format (no daily game's turn runs past it)."""
    return clock.iso(day_start(day) + timedelta(days=1))


def month_of(day: str) -> str:
    """``YYYY-MM`` of a ``YYYY-MM-DD`` day."""
    return day[:7]


def next_day(day: str) -> str:
    """The day after ``day``."""
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def previous_day(day: str) -> str:
    """The day before ``day``."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def next_month(month: str) -> str:
    """The month after ``month`` (``YYYY-MM``)."""
    year, number = int(month[:4]), int(month[5:7])
    return f"{year + 1:04d}-01" if number == 12 else f"{year:04d}-{number + 1:02d}"


def month_over(month: str, now: datetime) -> bool:
    """True once ``month`` has ended (UTC)."""
    return now >= day_start(f"{next_month(month)}-01")


@dataclass(frozen=True)
class Month:
    """A month's key: committed to in advance, published when the month is over."""

    month: str
    commitment: str
    ciphertext: bytes
    created_at: str
    key_hex: str | None = None


@dataclass(frozen=True)
class Day:
    """A day of the daily duel."""

    day: str
    commitment: str
    published_at: str
    seed_hex: str | None = None
    closed_at: str | None = None
    table_at: str | None = None
    table_pages: int = 0
    players: int = 0
    ranked: int = 0


@dataclass(frozen=True)
class Play:
    """A player's attempt: the game, and its result once over."""

    day: str
    player_id: str
    game_id: str
    name: str
    ranked: bool
    started_at: str
    mines: int | None = None
    safe_taps: int | None = None
    ended_at: str | None = None


def parse_month(item: dict[str, Any]) -> Month:
    """A month from its item."""
    return Month(
        month=str(item["pk"]["S"]).removeprefix(keys.DAILY),
        commitment=item["commitment"]["S"],
        ciphertext=bytes(item["key_ct"]["B"]),
        created_at=item["created_at"]["S"],
        key_hex=item["key"]["S"] if "key" in item else None,
    )


def parse_day(item: dict[str, Any]) -> Day:
    """A day from its item."""

    def text(name: str) -> str | None:
        return item[name]["S"] if name in item else None

    def number(name: str) -> int:
        return int(item[name]["N"]) if name in item else 0

    return Day(
        day=str(item["pk"]["S"]).removeprefix(keys.DAILY),
        commitment=item["commitment"]["S"],
        published_at=item["published_at"]["S"],
        seed_hex=text("seed"),
        closed_at=text("closed_at"),
        table_at=text("table_at"),
        table_pages=number("table_pages"),
        players=number("players"),
        ranked=number("ranked"),
    )


def parse_play(item: dict[str, Any]) -> Play:
    """An attempt from its item."""
    result = json.loads(item["result"]["S"]) if "result" in item else {}
    return Play(
        day=str(item["pk"]["S"]).removeprefix(keys.DAILY),
        player_id=str(item["sk"]["S"]).removeprefix(keys.PLAY_SK),
        game_id=item["game_id"]["S"],
        name=item["name"]["S"],
        ranked=bool(item["ranked"]["BOOL"]),
        started_at=item["started_at"]["S"],
        mines=result.get("mines"),
        safe_taps=result.get("safe_taps"),
        ended_at=result.get("ended_at"),
    )


def play_item(play: Play) -> dict[str, Any]:
    """The attempt's item."""
    item: dict[str, Any] = {
        **keys.daily_play(play.day, play.player_id),
        "game_id": {"S": play.game_id},
        "name": {"S": play.name},
        "ranked": {"BOOL": play.ranked},
        "started_at": {"S": play.started_at},
    }
    if play.mines is not None:
        result = {"mines": play.mines, "safe_taps": play.safe_taps, "ended_at": play.ended_at}
        item["result"] = {"S": json.dumps(result, separators=(",", ":"))}
    return item


def month_item(month: Month) -> dict[str, Any]:
    """The month's key item as first made (its key published later: ``publish_month_key``)."""
    return {
        **keys.daily_month(month.month),
        "commitment": {"S": month.commitment},
        "key_ct": {"B": month.ciphertext},
        "created_at": {"S": month.created_at},
    }


def day_item(day: Day) -> dict[str, Any]:
    """The day's item as first made: its commitment (the rest is added as the day goes)."""
    return {
        **keys.daily_day(day.day),
        "commitment": {"S": day.commitment},
        "published_at": {"S": day.published_at},
    }


def get_month(month: str) -> Month | None:
    """The month's key item, if made."""
    item = dynamo.get(keys.daily_month(month))
    return parse_month(item) if item else None


def get_day(day: str) -> Day | None:
    """The day's item, if made."""
    item = dynamo.get(keys.daily_day(day))
    return parse_day(item) if item else None


def get_play(day: str, player_id: str) -> Play | None:
    """The player's attempt of ``day``, if any."""
    item = dynamo.get(keys.daily_play(day, player_id))
    return parse_play(item) if item else None


def plays_of(day: str) -> list[Play]:
    """Every attempt of ``day`` (consistent ``Query`` pages of the day's partition)."""
    return [
        parse_play(item)
        for item in dynamo.query(
            "pk = :pk AND begins_with(sk, :play)",
            {":pk": {"S": keys.daily_partition(day)}, ":play": {"S": keys.PLAY_SK}},
            consistent=True,
        )
    ]


@dataclass(frozen=True)
class Found:
    """What one ``BatchGetItem`` of daily items found (what is missing is simply absent)."""

    days: dict[str, Day] = field(default_factory=dict)
    months: dict[str, Month] = field(default_factory=dict)
    plays: dict[tuple[str, str], Play] = field(default_factory=dict)
    table: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Entries of the table pages asked for, by page."""


def read_together(
    *,
    days: Iterable[str] = (),
    months: Iterable[str] = (),
    plays: Iterable[tuple[str, str]] = (),
    table: tuple[str, Sequence[int]] | None = None,
) -> Found:
    """Days, months, attempts (day, player) and pages of one day's table, read in one
    ``BatchGetItem`` (one call for up to 100 keys)."""
    wanted: dict[tuple[str, str], tuple[str, Any]] = {}
    asked: list[dict[str, Any]] = []

    def want(key: dict[str, Any], kind: str, what: Any) -> None:
        wanted[(key["pk"]["S"], key["sk"]["S"])] = (kind, what)
        asked.append(key)

    for d in days:
        want(keys.daily_day(d), "day", d)
    for m in months:
        want(keys.daily_month(m), "month", m)
    for d, player in plays:
        want(keys.daily_play(d, player), "play", (d, player))
    if table is not None:
        for page in table[1]:
            want(keys.daily_table(table[0], page), "table", page)
    found = Found()
    for item in dynamo.batch_get(asked):
        kind, what = wanted[(item["pk"]["S"], item["sk"]["S"])]
        if kind == "day":
            found.days[what] = parse_day(item)
        elif kind == "month":
            found.months[what] = parse_month(item)
        elif kind == "play":
            found.plays[what] = parse_play(item)
        else:
            found.table[what] = json.loads(item["entries"]["S"])
    return found


def put_new_month(month: Month) -> bool:
    """Store a month's key item unless it exists (False then: another run made it first)."""
    return dynamo.put_new(month_item(month))


def put_new_day(day: Day) -> bool:
    """Store a day's item unless it exists (False then: another run made it first)."""
    return dynamo.put_new(day_item(day))


def new_play_op(play: Play) -> dict[str, Any]:
    """The attempt's item for the game's own transaction, conditioned on not existing: one
    attempt a player a day, whatever races."""
    return dynamo.new_item_op(play_item(play))


def save_play(play: Play) -> None:
    """Rewrite an attempt (with its result noted)."""
    dynamo.put(play_item(play))


def save_table_page(day: str, page: int, entries: list[dict[str, Any]]) -> None:
    """Write one page of the day's table."""
    dynamo.put(
        {
            **keys.daily_table(day, page),
            "entries": {"S": json.dumps(entries, separators=(",", ":"))},
        }
    )


def note_table(day: str, *, pages: int, at: str, players: int, ranked: int) -> None:
    """Note on the day's item how its table was last built (its pages written first)."""
    dynamo.update(
        keys.daily_day(day),
        "SET table_pages = :pages, table_at = :at, players = :n, ranked = :r",
        values={
            ":pages": {"N": str(pages)},
            ":at": {"S": at},
            ":n": {"N": str(players)},
            ":r": {"N": str(ranked)},
        },
    )


def close_day_item(day: str, seed_hex: str, at: str) -> None:
    """Publish an ended day's seed on its item: the day is closed."""
    dynamo.update(
        keys.daily_day(day),
        "SET seed = :seed, closed_at = :at",
        values={":seed": {"S": seed_hex}, ":at": {"S": at}},
    )


def publish_month_key(month: str, key_hex: str, at: str) -> None:
    """Publish a month's key on its item (the month is over, each of its days closed)."""
    dynamo.update(
        keys.daily_month(month),
        "SET #key = :key, published_at = :at",
        names={"#key": "key"},
        values={":key": {"S": key_hex}, ":at": {"S": at}},
    )
