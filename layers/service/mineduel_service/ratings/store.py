"""Rating items: one per player and rated variant (``PLAYER#<id>`` / ``RATING#<variant>``).

Each holds the player's skill (mu, sigma), its display figures, the rated games counted
(``version``, which every write is conditioned on), when the last one ended, the month-end
history, and a copy of what the leaderboard needs from the profile (the username and the
``leaderboard`` setting). While the player is listed, established and active, the item also
carries the sparse ``leaderboard`` index's keys, so the snapshot reads only such players
(docs/ratings.md).
"""

from __future__ import annotations

import json
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
