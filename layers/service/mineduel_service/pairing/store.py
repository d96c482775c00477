"""Seeks as the table keeps them (docs/data-model.md, "Quick pairing"): three kinds of item.

- the seek, ``PLAYER#<owner>`` / ``SEEK#<seek id>``: what was asked (variant, move deadline,
  rated, rating range), the owner's rating and name when they asked, ``status`` and, once
  paired, ``game_id``; kept a week after it expires (TTL), so a client can still read how its
  seek ended;
- the pool entry, ``SEEKS#<variant>`` / ``<deadline>#<R|U>#<rating>#<created at>#<seek id>``,
  while the seek is open: one partition per variant, sorted by the matching key's other two
  parts (deadline, rated) and then by rating, so the seeks a new one may be paired with are
  one sort-key range, read with one strongly consistent ``Query`` each way from its rating;
- the lock, ``PLAYER#<owner>`` / ``SEEKING#<variant>``, while the seek is open: its existence
  is what "one open seek per player and variant" is conditioned on.

Every change of an open seek (paired, cancelled) writes all three in one transaction,
conditioned on the seek still being open, and pairing writes both seeks and the new game in
that same transaction: two seeks make one game at most, and a seek is in one game at most.
An expired seek's pool entry and lock are deleted by TTL (until then, reads skip them by their
``expires_at``).

This is the one module of ``pairing`` that speaks to the table (``platform.dynamo``) or knows
its keys (``platform.keys``); a seek's game is written by ``games`` with this module's items
in the same transaction (``closed``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from ..platform import clock, dynamo, keys
from .errors import SeekConflict, SeekOpen

SeekStatus = Literal["open", "paired", "cancelled", "expired"]
HISTORY_S = 7 * 86400
"""A seek item is kept this long after it expires, then TTL deletes it."""


POOL_RATINGS = (0, 10**keys.RATING_DIGITS - 1)
"""Every rating a pool entry's sort key can hold (lower and higher ones are kept at the ends)."""


@dataclass(frozen=True)
class Seek:
    """One seek: who asked for what, and what became of it."""

    seek_id: str
    player_id: str
    name: str
    variant: str
    move_deadline_s: int
    rated: bool
    rating: int | None
    """The owner's displayed rating in the variant when they asked (None: a variant without
    ratings)."""
    rating_range: tuple[int, int] | None
    created_at: str
    expires_at: str
    status: SeekStatus = "open"
    game_id: str | None = None
    paired_at: str | None = None
    answered: bool = False
    """Paired by the request that made it (its owner read the game in the answer), rather than
    while it waited."""

    def status_at(self, now: datetime) -> SeekStatus:
        """The status as of ``now``: an open seek past its time is expired (the item may not
        say so yet: nothing writes it when the time comes)."""
        if self.status == "open" and clock.iso(now) >= self.expires_at:
            return "expired"
        return self.status

    def open_at(self, now: datetime) -> bool:
        """Still open at ``now``."""
        return self.status_at(now) == "open"

    @property
    def pool_key(self) -> dict[str, Any]:
        """The key of the seek's pool entry."""
        return keys.seek_pool_entry(
            self.variant,
            self.move_deadline_s,
            self.rated,
            self.rating or 0,
            self.created_at,
            self.seek_id,
        )

    def evolve(self, **changes: Any) -> Seek:
        """A copy with ``changes``."""
        return replace(self, **changes)


def _epoch(moment: str) -> int:
    return int(clock.parse_iso(moment).timestamp())


def _attributes(seek: Seek) -> dict[str, Any]:
    """What the seek item and its pool entry both hold."""
    found: dict[str, Any] = {
        "seek_id": {"S": seek.seek_id},
        "player_id": {"S": seek.player_id},
        "name": {"S": seek.name},
        "variant": {"S": seek.variant},
        "move_deadline_s": {"N": str(seek.move_deadline_s)},
        "rated": {"BOOL": seek.rated},
        "created_at": {"S": seek.created_at},
        "expires_at": {"S": seek.expires_at},
    }
    if seek.rating is not None:
        found["rating"] = {"N": str(seek.rating)}
    if seek.rating_range is not None:
        found["range_lo"] = {"N": str(seek.rating_range[0])}
        found["range_hi"] = {"N": str(seek.rating_range[1])}
    return found


def seek_item(seek: Seek) -> dict[str, Any]:
    """The seek's item."""
    item = {
        **keys.seek(seek.player_id, seek.seek_id),
        **_attributes(seek),
        "status": {"S": seek.status},
        "answered": {"BOOL": seek.answered},
        "expires_ttl": {"N": str(_epoch(seek.expires_at) + HISTORY_S)},
    }
    if seek.game_id is not None:
        item["game_id"] = {"S": seek.game_id}
    if seek.paired_at is not None:
        item["paired_at"] = {"S": seek.paired_at}
    return item


def pool_item(seek: Seek) -> dict[str, Any]:
    """The open seek's pool entry (expires by TTL with the seek)."""
    return {
        **seek.pool_key,
        **_attributes(seek),
        "expires_ttl": {"N": str(_epoch(seek.expires_at))},
    }


def lock_item(seek: Seek) -> dict[str, Any]:
    """The owner's lock on the variant while the seek is open."""
    return {
        **keys.seek_lock(seek.player_id, seek.variant),
        "seek_id": {"S": seek.seek_id},
        "open_until": {"S": seek.expires_at},
        "expires_ttl": {"N": str(_epoch(seek.expires_at))},
    }


def _number(item: dict[str, Any], name: str) -> int | None:
    return int(item[name]["N"]) if name in item else None


def parse_seek(item: dict[str, Any]) -> Seek:
    """A seek from its item or its pool entry (a pool entry is always open)."""
    low, high = _number(item, "range_lo"), _number(item, "range_hi")
    return Seek(
        seek_id=item["seek_id"]["S"],
        player_id=item["player_id"]["S"],
        name=item["name"]["S"],
        variant=item["variant"]["S"],
        move_deadline_s=int(item["move_deadline_s"]["N"]),
        rated=bool(item["rated"]["BOOL"]),
        rating=_number(item, "rating"),
        rating_range=None if low is None or high is None else (low, high),
        created_at=item["created_at"]["S"],
        expires_at=item["expires_at"]["S"],
        status=item["status"]["S"] if "status" in item else "open",
        game_id=item["game_id"]["S"] if "game_id" in item else None,
        paired_at=item["paired_at"]["S"] if "paired_at" in item else None,
        answered=bool(item.get("answered", {}).get("BOOL", False)),
    )


# ---------------------------------------------------------------------------- reads
def get_seek(player_id: str, seek_id: str) -> Seek | None:
    """The player's seek (one consistent ``GetItem``); None for a seek that is not theirs."""
    found = dynamo.get(keys.seek(player_id, seek_id))
    return parse_seek(found) if found else None


@dataclass(frozen=True)
class SeekerItems:
    """The items a new seek is decided on (each None when not stored)."""

    profile: dict[str, Any] | None
    rating: dict[str, Any] | None
    lock: dict[str, Any] | None


def seeker_items(player_id: str, variant: str, *, rated_variant: bool) -> SeekerItems:
    """The player's profile, rating in ``variant`` (only in a rated variant) and lock on it:
    one consistent ``BatchGetItem``."""
    wanted = [keys.profile(player_id), keys.seek_lock(player_id, variant)]
    if rated_variant:
        wanted.append(keys.rating(player_id, variant))
    found = {item["sk"]["S"]: item for item in dynamo.batch_get(wanted)}
    return SeekerItems(
        profile=found.get(keys.PROFILE_SK),
        rating=found.get(f"{keys.RATING_SK}{variant}"),
        lock=found.get(f"{keys.SEEKING_SK}{variant}"),
    )


def open_lock(item: dict[str, Any] | None, now: datetime) -> str | None:
    """The seek id a lock item holds open at ``now`` (None: no lock, or one past its time)."""
    if item is None or item["open_until"]["S"] <= clock.iso(now):
        return None
    return str(item["seek_id"]["S"])


def pool_side(
    seek: Seek,
    low: int,
    high: int,
    *,
    upward: bool,
    limit: int,
    start: dict[str, Any] | None = None,
) -> tuple[list[Seek], dict[str, Any] | None]:
    """Open seeks of ``seek``'s pool (same variant, deadline and rated) rated ``low`` to
    ``high``, nearest ``seek``'s rating first: upward from ``low`` or downward from ``high``;
    one strongly consistent ``Query`` of at most ``limit`` entries (after ``start``), and the
    key the next page starts after (None: no more). Expired entries (TTL not run yet) are read
    but left out."""
    prefix = keys.seek_pool_prefix(seek.move_deadline_s, seek.rated)
    entries, last = dynamo.query_page(
        "pk = :pk AND sk BETWEEN :low AND :high",
        {
            ":pk": {"S": keys.seek_pool_partition(seek.variant)},
            ":low": {"S": f"{prefix}{keys.seek_pool_rating(low)}#"},
            ":high": {"S": f"{prefix}{keys.seek_pool_rating(high)}#~"},
        },
        consistent=True,
        limit=limit,
        newest_first=not upward,
        start=start,
    )
    now = clock.iso(clock.now())
    return [parse_seek(e) for e in entries if e["expires_at"]["S"] > now], last


def open_seeks(
    variant: str, start: dict[str, Any] | None, limit: int
) -> tuple[Iterator[Seek], dict[str, Any] | None]:
    """One page of a variant's pool (every open seek, by deadline, rated and rating) and the
    key the next page starts after (one eventually consistent ``Query``)."""
    entries, last = dynamo.query_page(
        "pk = :pk",
        {":pk": {"S": keys.seek_pool_partition(variant)}},
        limit=limit,
        start=start,
    )
    now = clock.iso(clock.now())
    return (parse_seek(e) for e in entries if e["expires_at"]["S"] > now), last


# ---------------------------------------------------------------------------- writes
def opened(seek: Seek) -> list[dict[str, Any]]:
    """A transaction's items that store a new open seek: the seek, its pool entry and the
    owner's lock on the variant, which must not be held by another open seek."""
    return [
        dynamo.new_item_op(seek_item(seek)),
        dynamo.new_item_op(pool_item(seek)),
        dynamo.put_op(
            lock_item(seek),
            condition="attribute_not_exists(pk) OR open_until <= :now",
            values={":now": {"S": seek.created_at}},
        ),
    ]


def closed(seek: Seek, after: Seek, now: datetime) -> list[dict[str, Any]]:
    """A transaction's items that end the open ``seek`` as ``after`` (paired or cancelled):
    the seek rewritten, conditioned on being open and not expired; its pool entry and the
    owner's lock deleted (the lock only if it is this seek's)."""
    return [
        dynamo.put_op(
            seek_item(after),
            condition="#status = :open AND expires_at > :now",
            values={":open": {"S": "open"}, ":now": {"S": clock.iso(now)}},
            names={"#status": "status"},
        ),
        dynamo.delete_op(seek.pool_key),
        dynamo.delete_op(
            keys.seek_lock(seek.player_id, seek.variant),
            condition="attribute_not_exists(pk) OR seek_id = :seek",
            values={":seek": {"S": seek.seek_id}},
        ),
    ]


def pairing_ops(
    mine: Seek, paired_mine: Seek, theirs: Seek, paired_theirs: Seek, now: datetime
) -> list[dict[str, Any]]:
    """The items that pair two open seeks, for the new game's own transaction (last in it):
    theirs closed, then mine (``closed``)."""
    return [*closed(theirs, paired_theirs, now), *closed(mine, paired_mine, now)]


def mine_refused(conflict: dynamo.WriteConflict) -> bool:
    """Whether a pairing's transaction (``pairing_ops`` last in it) failed on the seeker's own
    seek (paired or cancelled meanwhile: its seek's put or its lock's delete), not the other's."""
    return conflict.failed(-3) or conflict.failed(-1)


def open_seek(seek: Seek) -> None:
    """Store a new open seek (``opened``, one transaction): ``SeekOpen`` when another seek of
    the player's holds the variant's lock, ``SeekConflict`` when a seek item raced it."""
    try:
        dynamo.transact(opened(seek))
    except dynamo.WriteConflict as exc:
        if exc.failed(-1):  # the lock: another seek of the player's opened meanwhile
            raise SeekOpen() from None
        raise SeekConflict() from None


def close_seek(seek: Seek, after: Seek, now: datetime) -> bool:
    """End the open ``seek`` as ``after`` (``closed``, one transaction); False when it was no
    longer open (paired, cancelled or expired meanwhile)."""
    try:
        dynamo.transact(closed(seek, after, now))
    except dynamo.WriteConflict:
        return False
    return True


def is_seek(record: dict[str, Any]) -> bool:
    """Whether a stream record is of a seek's item."""
    sk = record.get("dynamodb", {}).get("Keys", {}).get("sk", {}).get("S", "")
    return str(sk).startswith(keys.SEEK_SK)


def expiry_after(now: datetime, seconds: int) -> str:
    """The moment ``seconds`` after ``now``, as seeks store it."""
    return clock.iso(now + timedelta(seconds=seconds))


def cancel_rated_seeks(player_id: str, variants: Iterable[str]) -> int:
    """Cancel the player's open rated seeks in ``variants`` (a moderator restricted them):
    how many were open."""
    now = clock.now()
    cancelled = 0
    for variant in variants:
        lock = dynamo.get(keys.seek_lock(player_id, variant))
        seek_id = open_lock(lock, now)
        seek = get_seek(player_id, seek_id) if seek_id else None
        if seek is None or not seek.rated or not seek.open_at(now):
            continue
        if close_seek(seek, seek.evolve(status="cancelled"), now):
            cancelled += 1  # else paired or cancelled meanwhile
    return cancelled
