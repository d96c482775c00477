"""Exports of finished games as Verification documents, one JSON object a line (NDJSON):

- ``GET /v1/players/{username}/games/export``: a player's finished games, newest first, a page
  at a time (Lambda answers at most 6 MB: a page stops at ``MAX_PAGE_GAMES`` games or
  ``MAX_PAGE_BYTES`` of body, whichever comes first; the edge sends the next page's link in the
  ``Link`` header, ``rel="next"``, and its cursor in ``X-Next-Cursor``). Filters:
  ``variant``, ``since`` (inclusive) and ``until`` (exclusive) on when a game ended, ``rated``.
- every finished game of a month, as one gzip-compressed NDJSON object in the export bucket,
  built by a scheduled function once the month is over and listed by ``GET /v1/exports`` with
  short-lived presigned links.

``mineduel verify`` checks either, a file, a URL or standard input, every game in it.

The games themselves are read a group at a time (``BatchGetItem``), and each finished game's log
with one eventually consistent ``Query`` (``documents``): the log holds one item per write that
played moves (a tap and the bots' replies together), so a game's whole log is a unit or two.

A daily game whose day is not over yet is left out: its seed is still secret (docs/daily.md).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

from mineduel_engine import VARIANT_SPECS

from ..daily.store import get_month, month_of, next_month
from ..games import store
from ..games.record import GameRecord
from ..people.names import player_by_name
from ..platform import aws, clock, pagination
from ..platform.config import get_config
from .documents import document
from .errors import BadRated, BadSince, BadUntil, BadVariant
from .store import (
    FinishedItem,
    export_listed,
    finished_history,
    finished_ids,
    list_export,
    listed_exports,
)

CONTENT_TYPE = "application/x-ndjson; charset=utf-8"
DEFAULT_PAGE_GAMES = 50
MAX_PAGE_GAMES = 200
MAX_PAGE_BYTES = 4 * 1024 * 1024
"""A page's body stays under this (Lambda's response limit is 6 MB, JSON-escaping included)."""
EXPORT_PREFIX = "exports/"
LINK_TTL_S = 900
BATCH = 100
GROUP = 25
"""A player export reads its games this many at a time (one BatchGetItem of game items)."""


# ---------------------------------------------------------------------------- documents
def documents(records: Iterable[GameRecord]) -> Iterator[dict[str, Any]]:
    """The Verification documents of finished ``records``, in order; each log read with one
    eventually consistent ``Query`` (a finished game's log never changes). The log holds one
    item per write, so a Query reads a game's whole log in a unit or two, where reading its
    moves by key would cost half a unit per item."""
    for record in records:
        yield document(record, store.list_moves(record.game_id, consistent=False))


def publishable(record: GameRecord) -> bool:
    """A finished game whose seed is public (a daily game's only once its day is over)."""
    return record.status == "finished" and record.seed_hex is not None


def line(doc: dict[str, Any]) -> str:
    """One NDJSON line (compact JSON and a newline)."""
    return json.dumps(doc, separators=(",", ":")) + "\n"


# ---------------------------------------------------------------------------- a player's games
@dataclass(frozen=True)
class Filters:
    """A player export's filters (all optional)."""

    variant: str | None = None
    since: str | None = None
    until: str | None = None
    rated: bool | None = None

    def query(self) -> dict[str, str]:
        """The filters as query parameters (for the next page's link)."""
        found = {"variant": self.variant, "since": self.since, "until": self.until}
        params = {k: v for k, v in found.items() if v is not None}
        if self.rated is not None:
            params["rated"] = "true" if self.rated else "false"
        return params


def moment(text: str | None, name: str) -> str | None:
    """``YYYY-MM-DD`` (midnight UTC) or ``YYYY-MM-DDTHH:MM:SSZ`` in the API's time format."""
    if text is None:
        return None
    for shape in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d"):
        try:
            return clock.iso(datetime.strptime(text, shape).replace(tzinfo=UTC))
        except ValueError:
            continue
    refusal = BadSince if name == "since" else BadUntil
    raise refusal(f"{name} is YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC).")


def filters(
    variant: str | None, since: str | None, until: str | None, rated: str | None
) -> Filters:
    """The checked filters (refused: a variant that does not exist, a malformed time)."""
    if variant is not None and variant not in VARIANT_SPECS:
        raise BadVariant(f"variant is one of {', '.join(VARIANT_SPECS)}.")
    if rated not in (None, "true", "false"):
        raise BadRated()
    return Filters(
        variant,
        moment(since, "since"),
        moment(until, "until"),
        None if rated is None else rated == "true",
    )


@dataclass(frozen=True)
class Page:
    """A page of a player's export: the NDJSON body, how many games, the next page's cursor."""

    body: str
    games: int
    next: str | None


def player_export(
    username: str, wanted: Filters, cursor: str | None, limit: int = DEFAULT_PAGE_GAMES
) -> Page:
    """One page of ``username``'s finished games, newest first, as NDJSON: at most ``limit``
    games and ``MAX_PAGE_BYTES`` of body (at least one game)."""
    profile = player_by_name(username)
    kind = "export-" + json.dumps([profile.player_id, wanted.query()], sort_keys=True)
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    items = _history(profile.player_id, wanted, start)
    lines: list[str] = []
    size = 0
    last: dict[str, Any] | None = None
    more = False
    while not more:
        group = list(islice(items, max(1, min(GROUP, limit - len(lines)))))
        if not group:
            break
        records = {r.game_id: r for r in _records(group) if publishable(r)}
        built = {
            d["game_id"]: d for d in documents(records[g] for g in _ids(group) if g in records)
        }
        for item in group:
            if len(lines) >= limit:
                more = True
                break
            doc = built.get(item.game_id)
            if doc is not None:
                text = line(doc)
                weight = len(text.encode("utf-8"))
                if lines and size + weight > MAX_PAGE_BYTES:
                    more = True
                    break
                lines.append(text)
                size += weight
            last = item.key
        if len(lines) >= limit and not more:
            more = next(items, None) is not None
    position = pagination.key_position(last) if more and last is not None else None
    return Page(
        "".join(lines),
        len(lines),
        None if position is None else pagination.encode(kind, position),
    )


def _ids(items: list[FinishedItem]) -> list[str]:
    return [item.game_id for item in items]


def _history(
    player_id: str, wanted: Filters, start: dict[str, Any] | None
) -> Iterator[FinishedItem]:
    """The player's finished games in the time range, newest first, filtered (lazily: a
    ``Query`` page of up to ``MAX_PAGE_GAMES`` only when the one before is used up)."""
    return finished_history(
        player_id,
        since=wanted.since,
        until=wanted.until,
        variant=wanted.variant,
        rated=wanted.rated,
        start=start,
        page=MAX_PAGE_GAMES,
    )


def _records(items: list[FinishedItem]) -> list[GameRecord]:
    return list(store.get_game(_ids(items)).values())


# ---------------------------------------------------------------------------- a month's games
def object_key(month: str) -> str:
    """Where a month's export lives in the bucket."""
    return f"{EXPORT_PREFIX}games-{month}.ndjson.gz"


def _month_records(month: str) -> Iterator[GameRecord]:
    chunk: list[str] = []
    for game_id in finished_ids(month):
        chunk.append(game_id)
        if len(chunk) == BATCH:
            yield from _by_id(chunk)
            chunk = []
    if chunk:
        yield from _by_id(chunk)


def _by_id(game_ids: list[str]) -> list[GameRecord]:
    return list(store.get_game(game_ids, consistent=False).values())


def build_month(month: str) -> dict[str, Any]:
    """Write every finished game of ``month`` to the bucket as gzip NDJSON, and list it.

    The file is written to the function's temporary storage as it is made (memory stays flat)
    and sent in one ``PutObject`` (up to 5 GB).
    """
    games = 0
    digest = hashlib.sha256()
    with tempfile.TemporaryFile() as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as packed:
            for doc in documents(r for r in _month_records(month) if publishable(r)):
                data = line(doc).encode("utf-8")
                packed.write(data)
                digest.update(data)
                games += 1
        size = raw.tell()
        raw.seek(0)
        aws.s3().put_object(
            Bucket=get_config().export_bucket,
            Key=object_key(month),
            Body=raw,
            ContentType="application/x-ndjson",
            ContentEncoding="gzip",
        )
    entry = {
        "month": month,
        "games": games,
        "bytes": size,
        "sha256": digest.hexdigest(),
        "created_at": clock.iso(clock.now()),
    }
    list_export(month, object_key(month), entry)
    return entry


def due_month(now: datetime) -> str | None:
    """The month to export now: the last one, once it is over, not exported yet, and with every
    daily game's seed public (its daily key published, or no daily duel that month)."""
    month = month_of((now.replace(day=1) - timedelta(days=1)).date().isoformat())
    if next_month(month) != month_of(now.date().isoformat()):  # pragma: no cover
        return None
    if export_listed(month):
        return None
    daily = get_month(month)
    if daily is not None and daily.key_hex is None:
        return None
    return month


def monthly(event: dict[str, Any]) -> dict[str, Any]:
    """The scheduled job: export last month if it is due (or ``event["month"]`` if given)."""
    month = event.get("month") if isinstance(event.get("month"), str) else None
    month = month or due_month(clock.now())
    if month is None:
        return {"exported": None}
    return {"exported": build_month(month)}


def listing(cursor: str | None = None, limit: int = pagination.DEFAULT_LIMIT) -> dict[str, Any]:
    """``GET /v1/exports``: a page of the months exported, newest first, each with a link valid
    for ``LINK_TTL_S`` seconds, and the cursor of the next page (null on the last)."""
    kind = "exports"
    now = clock.now()
    months = []
    page, last = listed_exports(pagination.dynamo_key(pagination.decode(kind, cursor)), limit)
    for key, entry in page:
        url = aws.s3().generate_presigned_url(
            "get_object",
            Params={"Bucket": get_config().export_bucket, "Key": key},
            ExpiresIn=LINK_TTL_S,
        )
        months.append(
            {
                **entry,
                "url": url,
                "expires_at": clock.iso(now + timedelta(seconds=LINK_TTL_S)),
            }
        )
    position = pagination.key_position(last)
    return {
        "exports": months,
        "next": None if position is None else pagination.encode(kind, position),
    }
