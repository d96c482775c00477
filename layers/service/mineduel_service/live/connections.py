"""Live connections and their subscriptions, as items of the games table (docs/data-model.md).

- ``CONN#<connection id>`` / ``CONN``: who connected (``kind``, ``player_id`` unless anonymous),
  the games it is subscribed to (``games``, a string set) and ``expires_ttl``;
- ``GAME#<game id>`` / ``GAME#SUB#<connection id>``: one subscription, in the game's own
  partition, so the fan-out finds every subscriber of a game with one ``Query`` and a read of
  the game with its watchers is one ``Query`` too (``game_and_watchers``). Its sort key sorts
  between the game item (``GAME``) and the moves (``MOVE#...``), so the move log never sees it.

Both expire by TTL shortly after API Gateway's longest connection (two hours), in case a
``$disconnect`` never came; a gone connection is removed the first time a send to it fails.
Subscribing and unsubscribing change both items in one transaction, the connection item
conditioned on existing, so a subscription never outlives its connection's item.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from ..games import store
from ..games.record import GameRecord
from ..platform import aws
from ..platform.config import get_config

CONNECTION_TTL_S = 2 * 3600 + 600
"""API Gateway closes a connection after two hours; its items lapse ten minutes later."""
MAX_SUBSCRIPTIONS = 20
"""Games one connection may follow at once."""
SUB_PREFIX = "GAME#SUB#"
WATCHERS_COUNTED = 60
"""A read of a game counts subscriptions up to this many (one read unit holds about 20)."""

Role = Literal["player", "spectator"]
ConnectionKind = Literal["account", "guest", "anonymous"]


class SubscriptionRefused(Exception):
    """The connection is gone, or follows too many games already."""


@dataclass(frozen=True)
class Connection:
    """A live connection and who opened it."""

    connection_id: str
    kind: ConnectionKind
    player_id: str | None
    games: tuple[str, ...] = ()


@dataclass(frozen=True)
class Subscription:
    """One connection following one game, as a player (with its seat) or a spectator."""

    game_id: str
    connection_id: str
    role: Role
    seat: int | None
    expires_at: int


def _table() -> str:
    return get_config().table_name


def connection_key(connection_id: str) -> dict[str, Any]:
    """The connection item's key."""
    return {"pk": {"S": f"CONN#{connection_id}"}, "sk": {"S": "CONN"}}


def subscription_key(game_id: str, connection_id: str) -> dict[str, Any]:
    """A subscription's key: in the game's partition."""
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": f"{SUB_PREFIX}{connection_id}"}}


def expiry(now: datetime) -> int:
    """When a connection's items lapse (epoch seconds, the table's TTL attribute)."""
    return int((now + timedelta(seconds=CONNECTION_TTL_S)).timestamp())


def put_connection(connection: Connection, now: datetime) -> None:
    """Store a new connection ($connect)."""
    item: dict[str, Any] = {
        **connection_key(connection.connection_id),
        "kind": {"S": connection.kind},
        "connected_at": {"S": now.strftime("%Y-%m-%dT%H:%M:%SZ")},
        "expires_ttl": {"N": str(expiry(now))},
    }
    if connection.player_id:
        item["player_id"] = {"S": connection.player_id}
    aws.dynamodb().put_item(TableName=_table(), Item=item)


def parse_connection(item: dict[str, Any]) -> Connection:
    """A connection from its item (a stored one, or a stream image)."""
    player = item.get("player_id")
    return Connection(
        connection_id=str(item["pk"]["S"]).removeprefix("CONN#"),
        kind=item["kind"]["S"],
        player_id=player["S"] if player else None,
        games=tuple(sorted(item.get("games", {}).get("SS", []))),
    )


def get_connection(connection_id: str) -> Connection | None:
    """The connection (consistent read); None once it is gone."""
    found = (
        aws.dynamodb()
        .get_item(TableName=_table(), Key=connection_key(connection_id), ConsistentRead=True)
        .get("Item")
    )
    return parse_connection(found) if found else None


def subscribe(
    connection_id: str, game_id: str, role: Role, seat: int | None, now: datetime
) -> None:
    """Follow ``game_id`` (again is fine: the subscription is renewed); ``SubscriptionRefused``
    when the connection is gone or already follows ``MAX_SUBSCRIPTIONS`` other games."""
    item: dict[str, Any] = {
        **subscription_key(game_id, connection_id),
        "role": {"S": role},
        "expires_ttl": {"N": str(expiry(now))},
    }
    if seat is not None:
        item["seat"] = {"N": str(seat)}
    try:
        store.transact(
            [
                {
                    "Update": {
                        "TableName": _table(),
                        "Key": connection_key(connection_id),
                        "UpdateExpression": "ADD games :game",
                        "ConditionExpression": (
                            "attribute_exists(pk) AND (attribute_not_exists(games) "
                            "OR contains(games, :id) OR size(games) < :max)"
                        ),
                        "ExpressionAttributeValues": {
                            ":game": {"SS": [game_id]},
                            ":id": {"S": game_id},
                            ":max": {"N": str(MAX_SUBSCRIPTIONS)},
                        },
                    }
                },
                {"Put": {"TableName": _table(), "Item": item}},
            ]
        )
    except store.WriteConflict:
        raise SubscriptionRefused from None


def unsubscribe(connection_id: str, game_id: str) -> None:
    """Stop following ``game_id`` (idempotent; the connection may be gone already)."""
    try:
        store.transact(
            [
                {
                    "Update": {
                        "TableName": _table(),
                        "Key": connection_key(connection_id),
                        "UpdateExpression": "DELETE games :game",
                        "ConditionExpression": "attribute_exists(pk)",
                        "ExpressionAttributeValues": {":game": {"SS": [game_id]}},
                    }
                },
                {
                    "Delete": {
                        "TableName": _table(),
                        "Key": subscription_key(game_id, connection_id),
                    }
                },
            ]
        )
    except store.WriteConflict:  # the connection item is gone already: the subscription alone
        aws.dynamodb().delete_item(TableName=_table(), Key=subscription_key(game_id, connection_id))


def drop_connection(connection_id: str) -> Connection | None:
    """Remove a connection and every subscription of it ($disconnect, or a send found it
    gone); what was stored, or None if nothing was."""
    answer = aws.dynamodb().delete_item(
        TableName=_table(), Key=connection_key(connection_id), ReturnValues="ALL_OLD"
    )
    old = answer.get("Attributes")
    if not old:
        return None
    connection = parse_connection(old)
    delete_subscriptions(connection_id, connection.games)
    return connection


def delete_subscriptions(connection_id: str, game_ids: Sequence[str]) -> None:
    """Delete these subscriptions of a connection (missing ones are fine)."""
    requests = [
        {"DeleteRequest": {"Key": subscription_key(game_id, connection_id)}} for game_id in game_ids
    ]
    for start in range(0, len(requests), 25):
        pending: dict[str, Any] = {_table(): requests[start : start + 25]}
        while pending:
            answer = aws.dynamodb().batch_write_item(RequestItems=pending)
            pending = answer.get("UnprocessedItems") or {}


def parse_subscription(item: dict[str, Any]) -> Subscription:
    """A subscription from its item (a stored one, or a stream image)."""
    seat = item.get("seat")
    return Subscription(
        game_id=str(item["pk"]["S"]).removeprefix("GAME#"),
        connection_id=str(item["sk"]["S"]).removeprefix(SUB_PREFIX),
        role=item["role"]["S"],
        seat=int(seat["N"]) if seat else None,
        expires_at=int(item["expires_ttl"]["N"]),
    )


def subscriptions(game_id: str) -> list[Subscription]:
    """Every subscription of a game (one ``Query``, eventually consistent: a subscriber reads
    the game right after subscribing, so a change it just missed is never lost to it)."""
    request: dict[str, Any] = {
        "TableName": _table(),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :sub)",
        "ExpressionAttributeValues": {
            ":pk": {"S": f"GAME#{game_id}"},
            ":sub": {"S": SUB_PREFIX},
        },
    }
    found: list[Subscription] = []
    while True:
        answer = aws.dynamodb().query(**request)
        found.extend(parse_subscription(item) for item in answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        if not last:
            return found
        request["ExclusiveStartKey"] = last


def watchers(found: Sequence[Subscription], now: datetime) -> int:
    """How many spectators follow the game (subscriptions whose TTL has not passed)."""
    moment = now.timestamp()
    return sum(1 for s in found if s.role == "spectator" and s.expires_at > moment)


def game_and_watchers(game_id: str, now: datetime) -> tuple[GameRecord | None, int]:
    """The game and how many spectators follow it, in one consistent ``Query`` of the game's
    partition up to its first move: the game item, then its subscriptions (counted up to
    ``WATCHERS_COUNTED``). For a game with up to about 20 subscriptions that is one read unit,
    what the ``GetItem`` of the game alone costs."""
    answer = aws.dynamodb().query(
        TableName=_table(),
        KeyConditionExpression="pk = :pk AND sk BETWEEN :game AND :subs",
        ExpressionAttributeValues={
            ":pk": {"S": f"GAME#{game_id}"},
            ":game": {"S": "GAME"},
            ":subs": {"S": f"{SUB_PREFIX}\uffff"},
        },
        ConsistentRead=True,
        Limit=WATCHERS_COUNTED + 1,
    )
    items = answer.get("Items", [])
    game = next((i for i in items if i["sk"]["S"] == "GAME"), None)
    if game is None:
        return None, 0
    subs = [parse_subscription(i) for i in items if i["sk"]["S"].startswith(SUB_PREFIX)]
    return store.parse_game(game_id, game), watchers(subs, now)
