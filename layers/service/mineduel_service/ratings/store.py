"""Rating items: one per player and rated variant (``PLAYER#<id>`` / ``RATING#<variant>``).

Each holds the player's skill (mu, sigma), its display figures, the rated games counted
(``version``, which every write is conditioned on), when the last one ended, the month-end
history, and a copy of what the leaderboard needs from the profile (the username and the
``leaderboard`` setting). While the player is listed, established and active, the item also
carries the sparse ``leaderboard`` index's keys, so the snapshot reads only such players
(docs/ratings.md).

The leaderboard's snapshot items are here too (``LEADERBOARD#<variant>`` / ``HEAD``, ``RANKS``,
``PAGE#<snapshot>#<n>``; what they hold is ``leaderboards``' to say): written by
``put_snapshot``, read by ``read_snapshot`` in one ``BatchGetItem``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..platform import clock, dynamo, keys
from .model import PlayerRating, RatingSystem, Skill, new_rating

ACTIVE_DAYS = 30


def active_since(now: datetime) -> str:
    """The earliest ``played_at`` that still counts as active at ``now``."""
    return clock.iso(now - timedelta(days=ACTIVE_DAYS))


def listed(rating: PlayerRating, username: str | None, opted_in: bool, now: datetime) -> bool:
    """Whether the rating belongs on the leaderboard now: the player opted in, has a username
    (entries are shown by it), is not provisional and played a rated game in the last 30 days."""
    return (
        opted_in
        and bool(username)
        and not rating.provisional
        and (rating.played_at or "") >= active_since(now)
    )


def rating_item(
    rating: PlayerRating, username: str | None, opted_in: bool, now: datetime
) -> dict[str, Any]:
    """The rating's DynamoDB item (with the index keys while ``listed``)."""
    item: dict[str, Any] = {
        **keys.rating(rating.player_id, rating.variant),
        "version": {"N": str(rating.version)},
        "mu": {"N": repr(rating.skill.mu)},
        "sigma": {"N": repr(rating.skill.sigma)},
        "rating": {"N": str(rating.skill.rating)},
        "deviation": {"N": str(rating.skill.deviation)},
        "games": {"N": str(rating.games)},
        "played_at": {"S": rating.played_at or ""},
        "months": {"S": json.dumps(rating.months, separators=(",", ":"))},
        "listed": {"BOOL": opted_in},
    }
    if username:
        item["username"] = {"S": username}
    if listed(rating, username, opted_in, now):
        item.update(_index_keys(rating))
    return item


def _index_keys(rating: PlayerRating) -> dict[str, Any]:
    return {
        "lb_shard": {"S": keys.leaderboard_shard(rating.variant, rating.player_id)},
        "lb_score": {"N": str(rating.skill.rating)},
    }


def parse_rating(item: dict[str, Any]) -> PlayerRating:
    """A rating from its item."""
    return PlayerRating(
        player_id=keys.player_id_of(item),
        variant=str(item["sk"]["S"]).removeprefix(keys.RATING_SK),
        skill=Skill(float(item["mu"]["N"]), float(item["sigma"]["N"])),
        version=int(item["version"]["N"]),
        played_at=item["played_at"]["S"] or None,
        months=json.loads(item["months"]["S"]),
    )


def rating_put(
    rating: PlayerRating,
    previous: PlayerRating | None,
    username: str | None,
    opted_in: bool,
    now: datetime,
) -> dict[str, Any]:
    """A transaction's ``Put`` of ``rating``, conditioned on the stored version being
    ``previous``'s (or on there being no rating item yet)."""
    return dynamo.versioned_put_op(
        rating_item(rating, username, opted_in, now), None if previous is None else previous.version
    )


def listing_update(
    rating: PlayerRating, username: str | None, opted_in: bool, now: datetime
) -> dict[str, Any]:
    """A transaction's ``Update`` of the profile's copy (username, setting) in a rating item,
    with the index keys that follow; conditioned on the rating's version, so it is computed
    from the rating as stored. It leaves ``version`` alone: that counts rated games only."""
    values: dict[str, Any] = {":v": {"N": str(rating.version)}, ":l": {"BOOL": opted_in}}
    sets = ["listed = :l"]
    removes = []
    if username:
        sets.append("username = :u")
        values[":u"] = {"S": username}
    else:
        removes.append("username")
    if listed(rating, username, opted_in, now):
        index = _index_keys(rating)
        sets += ["lb_shard = :shard", "lb_score = :score"]
        values[":shard"], values[":score"] = index["lb_shard"], index["lb_score"]
    else:
        removes += ["lb_shard", "lb_score"]
    expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
    return dynamo.update_op(
        keys.rating(rating.player_id, rating.variant),
        expression,
        condition="version = :v",
        values=values,
    )


def current_rating(
    stored: dict[tuple[str, str], PlayerRating], player_id: str, system: RatingSystem
) -> PlayerRating:
    """The player's rating in ``system``'s variant: stored, or a new player's."""
    return stored.get((player_id, system.variant)) or new_rating(player_id, system)


# ---------------------------------------------------------------------------- the leaderboard index
@dataclass(frozen=True)
class Indexed:
    """A rating in the ``leaderboard`` index, as the index projects it: what the snapshot
    ranks by and checks. ``listed`` is the player's ``leaderboard`` setting as copied onto the
    rating; ``username`` is None when the item has none."""

    username: str | None
    rating: int
    deviation: int
    games: int
    mu: float
    listed: bool
    played_at: str
    stamp: tuple[dict[str, Any], ...] = field(repr=False, compare=False)
    """The item's key and what ``unlist`` conditions on, as read (the store's own business)."""


def _indexed(item: dict[str, Any]) -> Indexed:
    return Indexed(
        username=item.get("username", {}).get("S") or None,
        rating=int(item["rating"]["N"]),
        deviation=int(item["deviation"]["N"]),
        games=int(item["games"]["N"]),
        mu=float(item["mu"]["N"]),
        listed=item.get("listed", {}).get("BOOL") is True,
        played_at=item["played_at"]["S"],
        stamp=(
            {"pk": item["pk"], "sk": item["sk"]},
            {":v": item["version"], ":p": item["played_at"], ":s": item["lb_score"]},
        ),
    )


def index_items(variant: str) -> list[Indexed]:
    """Every rating in ``variant``'s partitions of the sparse ``leaderboard`` index (one
    ``Query`` a partition and page; the index projects what the snapshot needs)."""
    items: list[Indexed] = []
    for shard in keys.leaderboard_shards(variant):
        items.extend(
            _indexed(item)
            for item in dynamo.query(
                "lb_shard = :shard", {":shard": {"S": shard}}, index=keys.LEADERBOARD_INDEX
            )
        )
    return items


def unlist(entry: Indexed) -> bool:
    """Take an inactive rating (an ``index_items`` entry) out of the index, unless it changed
    since it was read (a game just counted, or the player's settings changed): then its own
    write decided. False when it had changed."""
    key, values = entry.stamp
    try:
        dynamo.update(
            key,
            "REMOVE lb_shard, lb_score",
            condition="version = :v AND played_at = :p AND lb_score = :s",
            values=values,
        )
    except dynamo.WriteConflict:
        return False
    return True


# ---------------------------------------------------------------------------- the snapshot items
HEAD = "HEAD"
RANKS = "RANKS"


def put_snapshot(
    variant: str,
    taken: str,
    pages: Sequence[Sequence[dict[str, Any]]],
    counts: Sequence[tuple[int, int]],
    players: int,
    expires_at: int,
) -> None:
    """Write a snapshot of ``variant``'s leaderboard taken at ``taken``: each page of ranked
    entries (``PAGE#<taken>#<n>``, from 1, expiring at ``expires_at``: a cursor reads the pages
    of the snapshot it started in), then ``RANKS`` (``counts``: how many players hold each
    rating), then ``HEAD`` (the snapshot's time, size and first page), one ``PutItem`` each;
    ``HEAD`` last, so a read never finds a head whose pages are not written yet."""
    for number, page in enumerate(pages, start=1):
        dynamo.put(
            {
                **keys.leaderboard(variant, keys.leaderboard_page_sk(taken, number)),
                "entries": {"S": json.dumps(list(page), separators=(",", ":"))},
                "expires_ttl": {"N": str(expires_at)},
            }
        )
    dynamo.put(
        {
            **keys.leaderboard(variant, RANKS),
            "snapshot": {"S": taken},
            "counts": {"S": json.dumps([list(c) for c in counts], separators=(",", ":"))},
        }
    )
    dynamo.put(
        {
            **keys.leaderboard(variant, HEAD),
            "snapshot": {"S": taken},
            "players": {"N": str(players)},
            "pages": {"N": str(len(pages))},
            "entries": {"S": json.dumps(list(pages[0]) if pages else [], separators=(",", ":"))},
        }
    )


@dataclass(frozen=True)
class ListedRating:
    """The caller's rating as stored, with what the leaderboard needs of their profile."""

    rating: PlayerRating
    username: str | None
    opted_in: bool


@dataclass(frozen=True)
class SnapshotRead:
    """What one read of a leaderboard found: the head's snapshot time, size and first page (None,
    0 and empty when none was asked for, or there is no snapshot yet), the pages asked for
    (number -> entries; a page that has expired is left out), the rating counts of the latest
    snapshot and when it was taken (None before the first), and the caller's rating."""

    taken: str | None
    players: int
    head_entries: list[dict[str, Any]]
    pages: dict[int, list[dict[str, Any]]]
    counts: list[list[int]] | None
    updated_at: str | None
    mine: ListedRating | None


def _listed_rating(item: dict[str, Any] | None) -> ListedRating | None:
    if item is None:
        return None
    return ListedRating(
        rating=parse_rating(item),
        username=item.get("username", {}).get("S"),
        opted_in=item.get("listed", {}).get("BOOL") is True,
    )


def read_snapshot(
    variant: str,
    *,
    head: bool,
    ranks: bool = True,
    snapshot: str = "",
    pages: Sequence[int] = (),
    player_id: str | None = None,
) -> SnapshotRead:
    """The leaderboard items one read needs, in one eventually consistent ``BatchGetItem``:
    with ``ranks``, ``RANKS``; with ``head``, ``HEAD``; the ``pages`` of ``snapshot``; with
    ``player_id``, that player's rating item."""
    wanted = [keys.leaderboard(variant, RANKS)] if ranks else []
    if head:
        wanted.append(keys.leaderboard(variant, HEAD))
    page_of = {keys.leaderboard_page_sk(snapshot, n): n for n in pages}
    wanted += [keys.leaderboard(variant, sk) for sk in page_of]
    if player_id is not None:
        wanted.append(keys.rating(player_id, variant))
    found = {item["sk"]["S"]: item for item in dynamo.batch_get(wanted, consistent=False)}
    top, counted = found.get(HEAD), found.get(RANKS)
    return SnapshotRead(
        taken=top["snapshot"]["S"] if top else None,
        players=int(top["players"]["N"]) if top else 0,
        head_entries=json.loads(top["entries"]["S"]) if top else [],
        pages={
            n: json.loads(found[sk]["entries"]["S"]) for sk, n in page_of.items() if sk in found
        },
        counts=json.loads(counted["counts"]["S"]) if counted else None,
        updated_at=counted["snapshot"]["S"] if counted else None,
        mine=_listed_rating(found.get(f"{keys.RATING_SK}{variant}")),
    )
