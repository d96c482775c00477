"""Leaderboards: the top 100 of each rated variant, read from a snapshot in one DynamoDB call.

Every few minutes (``LeaderboardSnapshotSchedule``) ``snapshot_all`` reads the sparse
``leaderboard`` index, which holds only ratings of players who opted in, have a username and
are established; drops those who have not played a rated game in the last 30 days (from the
index too, so it stays the size of the active listed players); ranks the rest; and writes:
- ``LEADERBOARD#<variant>`` / ``HEAD``: the snapshot's time, size and first page;
- ``LEADERBOARD#<variant>`` / ``PAGE#<snapshot>#<n>``: pages 2 to 5 of that snapshot (they
  expire a day later, so a cursor keeps paging through the snapshot it started in);
- ``LEADERBOARD#<variant>`` / ``RANKS``: how many players hold each rating, from which any
  rating's rank is one sum ("my rank").

A read (``GET /v1/leaderboards/{variant}``) is then one ``BatchGetItem``: the page, the counts
and the caller's own rating item, whatever the number of players (docs/ratings.md).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from ..platform import auth, clock, dynamo, keys, pagination
from ..platform.observability import count, logger
from .errors import LeaderboardNotFound
from .model import (
    ESTABLISHED_DEVIATION,
    ESTABLISHED_GAMES,
    RATED_VARIANTS,
    RatingSystem,
    system_for,
)
from .store import active_since, listed, parse_rating

TOP = 100
PAGE_SIZE = 20
PAGE_TTL_S = 86400


# ---------------------------------------------------------------------------- the snapshot
def _candidates(variant: str) -> list[dict[str, Any]]:
    """Every item in ``variant``'s partitions of the ``leaderboard`` index."""
    items: list[dict[str, Any]] = []
    for shard in keys.leaderboard_shards(variant):
        items.extend(
            dynamo.query(
                "lb_shard = :shard", {":shard": {"S": shard}}, index=keys.LEADERBOARD_INDEX
            )
        )
    return items


def _unlist(item: dict[str, Any]) -> bool:
    """Take an inactive rating out of the index, unless it changed since it was read (a game
    just counted, or the player's settings changed): then its own write decided."""
    try:
        dynamo.update(
            {"pk": item["pk"], "sk": item["sk"]},
            "REMOVE lb_shard, lb_score",
            condition="version = :v AND played_at = :p AND lb_score = :s",
            values={":v": item["version"], ":p": item["played_at"], ":s": item["lb_score"]},
        )
    except dynamo.WriteConflict:
        return False
    return True


def _entry(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "username": item["username"]["S"],
        "rating": int(item["rating"]["N"]),
        "deviation": int(item["deviation"]["N"]),
        "games": int(item["games"]["N"]),
        "mu": float(item["mu"]["N"]),
    }


def _eligible(item: dict[str, Any]) -> bool:
    """The index holds only listed ratings; checked again here, field by field."""
    return (
        item.get("listed", {}).get("BOOL") is True
        and bool(item.get("username", {}).get("S"))
        and int(item["games"]["N"]) >= ESTABLISHED_GAMES
        and int(item["deviation"]["N"]) <= ESTABLISHED_DEVIATION
    )


def ranked(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries by rating, highest first (then the more certain skill, more games, name), each
    with its rank: equal ratings share a rank, and the next rank skips as many (1, 2, 2, 4)."""
    ordered = sorted(
        entries, key=lambda e: (-e["rating"], -e["mu"], -e["games"], e["username"].casefold())
    )
    out: list[dict[str, Any]] = []
    for position, entry in enumerate(ordered):
        same = position and ordered[position - 1]["rating"] == entry["rating"]
        rank = out[-1]["rank"] if same else position + 1
        out.append(
            {
                "rank": rank,
                "username": entry["username"],
                "rating": entry["rating"],
                "deviation": entry["deviation"],
                "games": entry["games"],
            }
        )
    return out


def snapshot(variant: str, now: datetime) -> dict[str, int]:
    """Rebuild ``variant``'s leaderboard snapshot; how many players it holds and how many
    inactive ones left the index."""
    since = active_since(now)
    entries: list[dict[str, Any]] = []
    unlisted = 0
    for item in _candidates(variant):
        if item["played_at"]["S"] < since:
            unlisted += 1 if _unlist(item) else 0
        elif _eligible(item):
            entries.append(_entry(item))
    board = ranked(entries)
    top = board[:TOP]
    pages = [top[i : i + PAGE_SIZE] for i in range(0, len(top), PAGE_SIZE)] or [[]]
    taken = clock.iso(now)
    expires = int((now + timedelta(seconds=PAGE_TTL_S)).timestamp())
    for number, page in enumerate(pages[1:], start=2):
        dynamo.put(
            {
                **keys.leaderboard(variant, keys.leaderboard_page_sk(taken, number)),
                "entries": {"S": json.dumps(page, separators=(",", ":"))},
                "expires_ttl": {"N": str(expires)},
            }
        )
    counts = sorted(Counter(e["rating"] for e in board).items(), reverse=True)
    dynamo.put(
        {
            **keys.leaderboard(variant, "RANKS"),
            "snapshot": {"S": taken},
            "counts": {"S": json.dumps(counts, separators=(",", ":"))},
        }
    )
    dynamo.put(
        {
            **keys.leaderboard(variant, "HEAD"),
            "snapshot": {"S": taken},
            "players": {"N": str(len(board))},
            "pages": {"N": str(len(pages))},
            "entries": {"S": json.dumps(pages[0], separators=(",", ":"))},
        }
    )
    return {"players": len(board), "unlisted": unlisted}


def snapshot_all() -> dict[str, dict[str, int]]:
    """Rebuild every rated variant's snapshot (the scheduled function)."""
    now = clock.now()
    done: dict[str, dict[str, int]] = {}
    for variant in RATED_VARIANTS:
        try:
            done[variant] = snapshot(variant, now)
        except Exception as exc:
            count("LeaderboardFailures")
            logger.error(
                "leaderboard snapshot failed",
                extra={"variant": variant, "error": type(exc).__name__},
            )
    return done


# ---------------------------------------------------------------------------- reading
def rank_of(rating: int, counts: list[list[int]]) -> int:
    """The rank a rating takes among ``counts`` ([rating, players] pairs): one more than the
    players rated strictly higher."""
    return 1 + sum(players for other, players in counts if other > rating)


def rated_variant(variant: str) -> RatingSystem:
    """The rating model of a variant with a leaderboard; ``LeaderboardNotFound`` for any other
    (checked before anything about the caller)."""
    system = system_for(variant)
    if system is None:
        rated = ", ".join(sorted(RATED_VARIANTS))
        raise LeaderboardNotFound(f"{variant[:32]} has no leaderboard; rated variants: {rated}.")
    return system


def leaderboard(
    system: RatingSystem, cred: auth.Credential | None, cursor: str | None
) -> dict[str, Any]:
    """``GET /v1/leaderboards/{variant}``: a page of the latest snapshot, and where the caller
    stands (``me``: null for anonymous callers, guests and players not listed); one
    ``BatchGetItem``."""
    variant = system.variant
    player_id = cred.player_id if cred is not None and cred.kind == "account" else None
    kind = f"leaderboard-{variant}"
    position = pagination.decode(kind, cursor)
    page, snapshot_id = _page_of(position)
    page_key = keys.leaderboard(
        variant, "HEAD" if page == 1 else keys.leaderboard_page_sk(snapshot_id, page)
    )
    wanted = [page_key, keys.leaderboard(variant, "RANKS")]
    if player_id is not None:
        wanted.append(keys.rating(player_id, variant))
    found = {item["sk"]["S"]: item for item in dynamo.batch_get(wanted, consistent=False)}
    head = found.get(page_key["sk"]["S"])
    if head is None and page != 1:
        raise pagination.bad_cursor()
    entries = json.loads(head["entries"]["S"]) if head else []
    pages = int(head["pages"]["N"]) if head and "pages" in head else page
    taken = head["snapshot"]["S"] if head and "snapshot" in head else snapshot_id
    following = None
    if head is not None and page < pages:
        following = pagination.encode(kind, {"page": page + 1, "snapshot": taken})
    return {
        "variant": variant,
        "entries": entries,
        "next": following,
        "me": me_entry(found.get(f"{keys.RATING_SK}{variant}"), found.get("RANKS")),
        "updated_at": found["RANKS"]["snapshot"]["S"] if "RANKS" in found else None,
    }


def _page_of(position: dict[str, Any] | None) -> tuple[int, str]:
    if position is None:
        return 1, ""
    page, snapshot_id = position.get("page"), position.get("snapshot")
    if not isinstance(page, int) or not isinstance(snapshot_id, str) or not 2 <= page <= 99:
        raise pagination.bad_cursor()
    return page, snapshot_id


def me_entry(item: dict[str, Any] | None, ranks: dict[str, Any] | None) -> dict[str, int] | None:
    """The caller's rank and rating, if they are listed now and a snapshot exists."""
    if item is None or ranks is None:
        return None
    rating = parse_rating(item)
    username = item.get("username", {}).get("S")
    opted_in = item.get("listed", {}).get("BOOL") is True
    if not listed(rating, username, opted_in, clock.now()):
        return None
    counts = json.loads(ranks["counts"]["S"])
    return {"rank": rank_of(rating.skill.rating, counts), "rating": rating.skill.rating}
