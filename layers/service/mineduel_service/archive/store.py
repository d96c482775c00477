"""What the archive reads and keeps in the table (docs/data-model.md), and the one module of
``archive`` that speaks to it (``platform.dynamo``) or knows its keys (``platform.keys``):

- ``ANALYSIS#<game id>`` / ``ANALYSIS``: a finished game's analysis, computed once and kept
  (``stored_analyses``), the JSON zlib-compressed (a few KB);
- ``EXPORT#MONTHLY`` / ``<YYYY-MM>``: a month's export, listed (its object's key and entry);
- read only: a player's finished-game items (the games domain's ``GAME#F#...`` pointers), for a
  player's export, and the ``finished`` index of every game that ended in a month, for the
  monthly export.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from heapq import merge
from typing import Any

from ..platform import dynamo, keys

COMPRESSION = 9


# ---------------------------------------------------------------------------- analyses
def stored_analysis(game_id: str) -> dict[str, Any] | None:
    """The stored analysis of ``game_id``, if any (one consistent read)."""
    item = dynamo.get(keys.analysis(game_id))
    if not item:
        return None
    found: dict[str, Any] = json.loads(zlib.decompress(bytes(item["body"]["B"])).decode("utf-8"))
    return found


def keep_analysis(game_id: str, result: dict[str, Any], at: str) -> None:
    """Keep the analysis; a copy stored meanwhile by a concurrent request is the same, and stays."""
    body = zlib.compress(json.dumps(result, separators=(",", ":")).encode("utf-8"), COMPRESSION)
    dynamo.put_new(
        {
            **keys.analysis(game_id),
            "body": {"B": body},
            "analysis": {"S": str(result.get("analysis", ""))},
            "created_at": {"S": at},
        }
    )


# ---------------------------------------------------------------------------- a player's games
@dataclass(frozen=True)
class FinishedItem:
    """One of a player's finished games as their history lists it, and where a page after it
    starts (its item's key, for a cursor)."""

    game_id: str
    key: dict[str, Any]


def finished_history(
    player_id: str,
    *,
    since: str | None,
    until: str | None,
    variant: str | None,
    rated: bool | None,
    start: dict[str, Any] | None,
    page: int,
) -> Iterator[FinishedItem]:
    """The player's finished-game items that ended in ``[since, until)``, newest first,
    filtered by variant and rated (lazily: a ``Query`` page of up to ``page`` items only when
    the one before is used up), from ``start`` (a ``LastEvaluatedKey``)."""
    low = f"{keys.FINISHED_SK}{since or ''}"
    high = f"{keys.FINISHED_SK}{until}" if until else f"{keys.FINISHED_SK}~"
    names: dict[str, str] = {}
    values: dict[str, Any] = {
        ":pk": {"S": keys.player_partition(player_id)},
        ":low": {"S": low},
        ":high": {"S": high},
    }
    tests = []
    if variant is not None:
        names["#variant"] = "variant"
        values[":variant"] = {"S": variant}
        tests.append("#variant = :variant")
    if rated is not None:
        values[":rated"] = {"BOOL": rated}
        tests.append("rated = :rated")
    for item in dynamo.query(
        "pk = :pk AND sk BETWEEN :low AND :high",
        values,
        newest_first=True,
        limit=page,
        start=start,
        filter_=" AND ".join(tests) if tests else None,
        names=names or None,
    ):
        yield FinishedItem(item["game_id"]["S"], {"pk": item["pk"], "sk": item["sk"]})


# ---------------------------------------------------------------------------- a month's games
def finished_ids(month: str) -> Iterator[str]:
    """Every game that ended in ``month``, oldest first (the ``finished`` index, all shards)."""
    shards = [_shard(partition) for partition in keys.finished_shards(month)]
    for _, game_id in merge(*shards):
        yield game_id


def _shard(partition: str) -> Iterator[tuple[str, str]]:
    for item in dynamo.query(
        "fin_shard = :shard", {":shard": {"S": partition}}, index=keys.FINISHED_INDEX
    ):
        yield item["fin_at"]["S"], keys.game_id_of(item)


def export_listed(month: str) -> bool:
    """Whether ``month``'s export is made and listed already (one consistent read)."""
    return dynamo.get(keys.monthly_export(month)) is not None


def list_export(month: str, object_key: str, entry: dict[str, Any]) -> None:
    """List a month's export (its object is in the bucket already)."""
    dynamo.put(
        {
            **keys.monthly_export(month),
            "key": {"S": object_key},
            "entry": {"S": json.dumps(entry, separators=(",", ":"))},
        }
    )


def listed_exports(
    start: dict[str, Any] | None, limit: int
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any] | None]:
    """A page of the months exported, newest first: each one's object key and entry, and the
    key the next page starts after (None on the last; one ``Query``)."""
    items, last = dynamo.query_page(
        "pk = :pk",
        {":pk": {"S": keys.EXPORTS_PK}},
        newest_first=True,
        limit=limit,
        start=start,
    )
    return [(item["key"]["S"], json.loads(item["entry"]["S"])) for item in items], last
