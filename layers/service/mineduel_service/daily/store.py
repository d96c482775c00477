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
import this without anything that needs KMS. Keys are built in ``platform.keys``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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
