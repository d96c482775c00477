"""Who follows a game live: its subscriptions, kept in the game's own partition
(``GAME#<game id>`` / ``GAME#SUB#<connection id>``, docs/data-model.md).

Their sort key sorts between the game item (``GAME``) and the moves (``MOVE#...``): so the
fan-out finds every subscriber of a game with one ``Query``, a read of the game with its count
of watchers is one ``Query`` too (``game_and_watchers``), and the move log never sees them.
They are written with their connection (``live.connections``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ..platform import dynamo, keys
from .record import GameRecord
from .store import parse_game

WATCHERS_COUNTED = 60
"""A read of a game counts subscriptions up to this many (one read unit holds about 20)."""

Role = Literal["player", "spectator"]


@dataclass(frozen=True)
class Subscription:
    """One connection following one game, as a player (with its seat) or a spectator."""

    game_id: str
    connection_id: str
    role: Role
    seat: int | None
    expires_at: int


def parse_subscription(item: dict[str, Any]) -> Subscription:
    """A subscription from its item (a stored one, or a stream image)."""
    seat = item.get("seat")
    return Subscription(
        game_id=keys.game_id_of(item),
        connection_id=str(item["sk"]["S"]).removeprefix(keys.SUBSCRIPTION_SK),
        role=item["role"]["S"],
        seat=int(seat["N"]) if seat else None,
        expires_at=int(item["expires_ttl"]["N"]),
    )


def subscriptions(game_id: str) -> list[Subscription]:
    """Every subscription of a game (one ``Query``, eventually consistent: a subscriber reads
    the game right after subscribing, so a change it just missed is never lost to it)."""
    return [
        parse_subscription(item)
        for item in dynamo.query(
            "pk = :pk AND begins_with(sk, :sub)",
            {":pk": {"S": keys.game_partition(game_id)}, ":sub": {"S": keys.SUBSCRIPTION_SK}},
        )
    ]


def watchers(found: Sequence[Subscription], now: datetime) -> int:
    """How many spectators follow the game (subscriptions whose TTL has not passed)."""
    moment = now.timestamp()
    return sum(1 for s in found if s.role == "spectator" and s.expires_at > moment)


def game_and_watchers(game_id: str, now: datetime) -> tuple[GameRecord | None, int]:
    """The game and how many spectators follow it, in one consistent ``Query`` of the game's
    partition up to its first move: the game item, then its subscriptions (counted up to
    ``WATCHERS_COUNTED``). For a game with up to about 20 subscriptions that is one read unit,
    what the ``GetItem`` of the game alone costs."""
    items, _ = dynamo.query_page(
        "pk = :pk AND sk BETWEEN :game AND :subs",
        {
            ":pk": {"S": keys.game_partition(game_id)},
            ":game": {"S": keys.GAME_SK},
            ":subs": {"S": f"{keys.SUBSCRIPTION_SK}\uffff"},
        },
        consistent=True,
        limit=WATCHERS_COUNTED + 1,
    )
    game = next((i for i in items if i["sk"]["S"] == keys.GAME_SK), None)
    if game is None:
        return None, 0
    subs = [parse_subscription(i) for i in items if i["sk"]["S"].startswith(keys.SUBSCRIPTION_SK)]
    return parse_game(game), watchers(subs, now)
