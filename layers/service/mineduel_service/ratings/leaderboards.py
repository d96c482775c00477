"""Leaderboards: the top 100 of each rated variant, read from a snapshot in one DynamoDB call.

Every few minutes (``LeaderboardSnapshotSchedule``) ``snapshot_all`` reads the sparse
``leaderboard`` index, which holds only ratings of players who opted in, have a username and
are established; drops those who have not played a rated game in the last 30 days (from the
index too, so it stays the size of the active listed players); ranks the rest; and writes:
- ``LEADERBOARD#<variant>`` / ``HEAD``: the snapshot's time, size and first page;
- ``LEADERBOARD#<variant>`` / ``PAGE#<snapshot>#<n>``: its pages of ``PAGE_SIZE`` entries, 1
  to 5 (they expire a day later, so a cursor keeps paging through the snapshot it started in);
- ``LEADERBOARD#<variant>`` / ``RANKS``: how many players hold each rating, from which any
  rating's rank is one sum ("my rank").

A read (``GET /v1/leaderboards/{variant}``) is then one ``BatchGetItem``: the page (the head,
or the cursor's stored pages that hold its ``limit`` entries), the counts and the caller's own
rating item, whatever the number of players; a first page longer than the head's reads the
snapshot's next pages in a second one (docs/ratings.md). The items are ``store``'s.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from ..platform import auth, clock, pagination
from ..platform.observability import count, logger
from .errors import LeaderboardNotFound
from .model import (
    ESTABLISHED_DEVIATION,
    ESTABLISHED_GAMES,
    RATED_VARIANTS,
    RatingSystem,
    system_for,
)
from .store import (
    Indexed,
    ListedRating,
    SnapshotRead,
    active_since,
    index_items,
    listed,
    put_snapshot,
    read_snapshot,
    unlist,
)

TOP = 100
PAGE_SIZE = 20
"""Entries a stored page holds, and a read's default ``limit``."""
MAX_LIMIT = 100
PAGE_TTL_S = 86400


# ---------------------------------------------------------------------------- the snapshot
def _entry(rating: Indexed) -> dict[str, Any]:
    return {
        "username": rating.username,
        "rating": rating.rating,
        "deviation": rating.deviation,
        "games": rating.games,
        "mu": rating.mu,
    }


def _eligible(rating: Indexed) -> bool:
    """The index holds only listed ratings; checked again here, field by field."""
    return (
        rating.listed
        and bool(rating.username)
        and rating.games >= ESTABLISHED_GAMES
        and rating.deviation <= ESTABLISHED_DEVIATION
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
    for rating in index_items(variant):
        if rating.played_at < since:
            unlisted += 1 if unlist(rating) else 0
        elif _eligible(rating):
            entries.append(_entry(rating))
    board = ranked(entries)
    top = board[:TOP]
    pages = [top[i : i + PAGE_SIZE] for i in range(0, len(top), PAGE_SIZE)] or [[]]
    taken = clock.iso(now)
    expires = int((now + timedelta(seconds=PAGE_TTL_S)).timestamp())
    counts = sorted(Counter(e["rating"] for e in board).items(), reverse=True)
    put_snapshot(variant, taken, pages, counts, len(board), expires)
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
    system: RatingSystem,
    cred: auth.Credential | None,
    cursor: str | None,
    limit: int = PAGE_SIZE,
) -> dict[str, Any]:
    """``GET /v1/leaderboards/{variant}``: up to ``limit`` entries of the latest snapshot (the
    cursor's: the one its first page was read from), and where the caller stands (``me``: null
    for anonymous callers, guests and players not listed); one ``BatchGetItem``, two for a
    first page longer than the head's."""
    variant = system.variant
    player_id = cred.player_id if cred is not None and cred.kind == "account" else None
    kind = f"leaderboard-{variant}"
    position = pagination.decode(kind, cursor)
    if position is None:
        found = read_snapshot(variant, head=True, player_id=player_id)
        taken, offset = found.taken or "", 0
        size = min(found.players, TOP)
        entries = found.head_entries[:limit]
        if len(entries) < min(limit, size):
            entries += _more_of_head(variant, taken, len(entries), min(limit, size))
        if len(entries) < min(limit, size):  # its pages are gone (no snapshot for a day)
            size = len(entries)
    else:
        taken, offset, size = _position(position)
        end = min(offset + limit, size)
        found = read_snapshot(
            variant, head=False, snapshot=taken, pages=_pages(offset, end), player_id=player_id
        )
        entries = _entries(found, offset, end)
        if len(entries) < end - offset:  # a page shorter than its place says: the last one
            size = offset + len(entries)
    following = None
    if offset + len(entries) < size:
        following = pagination.encode(
            kind, {"snapshot": taken, "offset": offset + len(entries), "size": size}
        )
    return {
        "variant": variant,
        "entries": entries,
        "next": following,
        "me": me_entry(found.mine, found.counts),
        "updated_at": found.updated_at,
    }


def _pages(start: int, end: int) -> list[int]:
    """The stored pages (from 1) holding the entries ``start`` (0-based) to ``end`` (excluded)."""
    return list(range(start // PAGE_SIZE + 1, (end - 1) // PAGE_SIZE + 2)) if end > start else []


def _entries(
    found: SnapshotRead, start: int, end: int, *, strict: bool = True
) -> list[dict[str, Any]]:
    """The entries ``start`` to ``end`` of a snapshot, in rank order, from the stored pages
    ``found`` holds. A page that has expired is ``bad-cursor`` (the cursor is older than its
    snapshot's pages), or, not ``strict``, the end of what can be read."""
    numbers = _pages(start, end)
    missing = [number for number in numbers if number not in found.pages]
    if missing and strict:
        raise pagination.bad_cursor()
    readable = [number for number in numbers if not missing or number < missing[0]]
    rows = [entry for number in readable for entry in found.pages[number]]
    skip = start - (numbers[0] - 1) * PAGE_SIZE if numbers else 0
    return rows[skip : skip + end - start]


def _more_of_head(variant: str, taken: str, start: int, end: int) -> list[dict[str, Any]]:
    """The entries ``start`` to ``end`` of snapshot ``taken`` past its head's, read from its
    stored pages (one more ``BatchGetItem``: a first page longer than the head's)."""
    found = read_snapshot(
        variant, head=False, ranks=False, snapshot=taken, pages=_pages(start, end)
    )
    return _entries(found, start, end, strict=False)


def _position(position: dict[str, Any]) -> tuple[str, int, int]:
    """A cursor's snapshot, offset and size (the snapshot's entries), checked. A cursor given
    out before reads took ``limit`` names a stored page (2 to 5) instead: it reads on from that
    page's first entry, to the end of that page at most."""
    taken, offset, size = position.get("snapshot"), position.get("offset"), position.get("size")
    page = position.get("page")
    if isinstance(page, int) and 2 <= page <= TOP // PAGE_SIZE and offset is None:
        offset = (page - 1) * PAGE_SIZE
        size = offset + PAGE_SIZE
    if (
        not isinstance(taken, str)
        or not isinstance(offset, int)
        or not isinstance(size, int)
        or not 0 < offset < size <= TOP
    ):
        raise pagination.bad_cursor()
    return taken, offset, size


def me_entry(mine: ListedRating | None, counts: list[list[int]] | None) -> dict[str, int] | None:
    """The caller's rank and rating, if they are listed now and a snapshot exists."""
    if mine is None or counts is None:
        return None
    if not listed(mine.rating, mine.username, mine.opted_in, clock.now()):
        return None
    return {"rank": rank_of(mine.rating.skill.rating, counts), "rating": mine.rating.skill.rating}
