"""Live connections and their subscriptions, as items of the games table (docs/data-model.md).

- ``CONN#<connection id>`` / ``CONN``: who connected (``kind``, ``player_id`` unless anonymous),
  the games it is subscribed to (``games``, a string set) and ``expires_ttl``;
- ``GAME#<game id>`` / ``GAME#SUB#<connection id>``: one subscription, in the game's own
  partition (``games.watchers``, which reads them);
- ``PLAYER#<player id>`` / ``CONN#<connection id>``: a pointer from the player to the
  connection, so a message about the player rather than a game (quick pairing's ``paired``)
  reaches every socket they have open with one ``Query``.

This module is the only one of ``live`` that speaks to the table (``platform.dynamo``) or
knows its keys (``platform.keys``); it also tells the fan-out which of these items (or a
game's item) a stream record is about (``stream_item``).

All three expire by TTL shortly after API Gateway's longest connection (two hours), in case a
``$disconnect`` never came; a gone connection is removed the first time a send to it fails.
Subscribing and unsubscribing change both items in one transaction, the connection item
conditioned on existing, so a subscription never outlives its connection's item.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from ..games.watchers import Role
from ..platform import dynamo, keys

CONNECTION_TTL_S = 2 * 3600 + 600
"""API Gateway closes a connection after two hours; its items lapse ten minutes later."""
MAX_SUBSCRIPTIONS = 20
"""Games one connection may follow at once."""

ConnectionKind = Literal["account", "guest", "anonymous"]
StreamItem = Literal["game", "subscription", "connection"]


class SubscriptionRefused(Exception):
    """The connection is gone, or follows too many games already."""


@dataclass(frozen=True)
class Connection:
    """A live connection and who opened it."""

    connection_id: str
    kind: ConnectionKind
    player_id: str | None
    games: tuple[str, ...] = ()


def expiry(now: datetime) -> int:
    """When a connection's items lapse (epoch seconds, the table's TTL attribute)."""
    return int((now + timedelta(seconds=CONNECTION_TTL_S)).timestamp())


def put_connection(connection: Connection, now: datetime) -> None:
    """Store a new connection ($connect), and the player's pointer to it first (one
    ``PutItem`` each): a pointer whose connection never got stored is dropped by the first
    send to it, while a connection without its pointer would miss the player's messages."""
    connected_at = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    item: dict[str, Any] = {
        **keys.connection(connection.connection_id),
        "kind": {"S": connection.kind},
        "connected_at": {"S": connected_at},
        "expires_ttl": {"N": str(expiry(now))},
    }
    if connection.player_id:
        item["player_id"] = {"S": connection.player_id}
        dynamo.put(
            {
                **keys.player_connection(connection.player_id, connection.connection_id),
                "connected_at": {"S": connected_at},
                "expires_ttl": {"N": str(expiry(now))},
            }
        )
    dynamo.put(item)


def player_connections(player_id: str, now: datetime) -> list[str]:
    """The ids of the player's open connections (one ``Query`` of their pointers; a pointer
    past its TTL, which DynamoDB has not deleted yet, is left out)."""
    found = []
    for item in dynamo.query(
        "pk = :pk AND begins_with(sk, :prefix)",
        {
            ":pk": {"S": keys.player_partition(player_id)},
            ":prefix": {"S": keys.PLAYER_CONNECTION_SK},
        },
    ):
        if int(item["expires_ttl"]["N"]) > now.timestamp():
            found.append(str(item["sk"]["S"]).removeprefix(keys.PLAYER_CONNECTION_SK))
    return found


def parse_connection(item: dict[str, Any]) -> Connection:
    """A connection from its item (a stored one, or a stream image)."""
    player = item.get("player_id")
    return Connection(
        connection_id=keys.connection_id_of(item),
        kind=item["kind"]["S"],
        player_id=player["S"] if player else None,
        games=tuple(sorted(item.get("games", {}).get("SS", []))),
    )


def get_connection(connection_id: str) -> Connection | None:
    """The connection (consistent read); None once it is gone."""
    found = dynamo.get(keys.connection(connection_id))
    return parse_connection(found) if found else None


def subscribe(
    connection_id: str, game_id: str, role: Role, seat: int | None, now: datetime
) -> None:
    """Follow ``game_id`` (again is fine: the subscription is renewed); ``SubscriptionRefused``
    when the connection is gone or already follows ``MAX_SUBSCRIPTIONS`` other games."""
    item: dict[str, Any] = {
        **keys.subscription(game_id, connection_id),
        "role": {"S": role},
        "expires_ttl": {"N": str(expiry(now))},
    }
    if seat is not None:
        item["seat"] = {"N": str(seat)}
    try:
        dynamo.transact(
            [
                dynamo.update_op(
                    keys.connection(connection_id),
                    "ADD games :game",
                    condition=(
                        "attribute_exists(pk) AND (attribute_not_exists(games) "
                        "OR contains(games, :id) OR size(games) < :max)"
                    ),
                    values={
                        ":game": {"SS": [game_id]},
                        ":id": {"S": game_id},
                        ":max": {"N": str(MAX_SUBSCRIPTIONS)},
                    },
                ),
                dynamo.put_op(item),
            ]
        )
    except dynamo.WriteConflict:
        raise SubscriptionRefused from None


def unsubscribe(connection_id: str, game_id: str) -> None:
    """Stop following ``game_id`` (idempotent; the connection may be gone already)."""
    try:
        dynamo.transact(
            [
                dynamo.update_op(
                    keys.connection(connection_id),
                    "DELETE games :game",
                    condition="attribute_exists(pk)",
                    values={":game": {"SS": [game_id]}},
                ),
                dynamo.delete_op(keys.subscription(game_id, connection_id)),
            ]
        )
    except dynamo.WriteConflict:  # the connection item is gone already: the subscription alone
        dynamo.delete(keys.subscription(game_id, connection_id))


def drop_connection(connection_id: str) -> Connection | None:
    """Remove a connection and every subscription of it ($disconnect, or a send found it
    gone); what was stored, or None if nothing was."""
    old = dynamo.delete(keys.connection(connection_id), returning_old=True)
    if not old:
        return None
    connection = parse_connection(old)
    delete_subscriptions(connection_id, connection.games, connection.player_id)
    return connection


def delete_subscriptions(
    connection_id: str, game_ids: Sequence[str], player_id: str | None = None
) -> None:
    """Delete these subscriptions of a connection and, given its player, the player's pointer
    to it (missing ones are fine; one ``BatchWriteItem`` a 25)."""
    found = [keys.subscription(game_id, connection_id) for game_id in game_ids]
    if player_id:
        found.append(keys.player_connection(player_id, connection_id))
    dynamo.batch_delete(found)


def stream_item(record: dict[str, Any]) -> StreamItem | None:
    """Which item the fan-out follows a stream record changed: a game's item, a subscription,
    a connection; None for any other (the fan-out leaves those alone)."""
    changed = record.get("dynamodb", {}).get("Keys", {})
    pk, sk = changed.get("pk", {}).get("S", ""), changed.get("sk", {}).get("S", "")
    if sk == keys.GAME_SK and pk.startswith(keys.GAME):
        return "game"
    if sk.startswith(keys.SUBSCRIPTION_SK):
        return "subscription"
    if sk == keys.CONNECTION_SK:
        return "connection"
    return None


def typed(image: dict[str, Any]) -> dict[str, Any]:
    """A stream image as the DynamoDB client returns items: Lambda's event carries binary
    attributes base64-encoded, the client as bytes."""
    found: dict[str, Any] = {}
    for name, value in image.items():
        if "B" in value and isinstance(value["B"], str):
            found[name] = {"B": base64.b64decode(value["B"])}
        else:
            found[name] = value
    return found
