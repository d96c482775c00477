"""The WebSocket API's use cases: connect, disconnect, and the messages a client sends.

A client connects with ``?token=`` (a guest or account token; none to watch as anonymous), then
sends ``{"action": "subscribe", "game_id"}`` for each game it follows and
``{"action": "unsubscribe", "game_id"}`` when done (``{"action": "ping"}`` keeps an idle
connection open). A player of the game follows it as its seat; anybody else as a spectator,
only when the game is watchable (``spectators``). Every answer is a small JSON message
(docs/live.md); a refusal is ``{"type": "error", "code", "message"}`` and never closes the
connection.
"""

from __future__ import annotations

import json
from typing import Any

from ..games import store
from ..games.record import GameRecord
from ..games.watchers import Role
from ..platform import auth, clock
from . import store as connections
from .spectators import unwatchable_reason
from .store import Connection, SubscriptionRefused

MAX_MESSAGE_BYTES = 1024


def connect(connection_id: str, caller: auth.Caller | None) -> None:
    """Store the connection and who opened it (the edge has checked the ``?token=``: one that
    is not valid refuses the handshake). No caller: an anonymous spectator."""
    if caller is not None:
        connection = Connection(connection_id, caller.kind, caller.player_id)
    else:
        connection = Connection(connection_id, "anonymous", None)
    connections.put_connection(connection, clock.now())


def disconnect(connection_id: str) -> None:
    """Forget the connection and its subscriptions."""
    connections.drop_connection(connection_id)


def message(connection_id: str, body: str | None) -> dict[str, Any]:
    """Answer one client message (the route's response, sent back on the same socket)."""
    if body is None or len(body.encode("utf-8")) > MAX_MESSAGE_BYTES:
        return error("bad-message", 'Send a JSON message like {"action": "subscribe", "game_id"}.')
    try:
        parsed = json.loads(body)
    except ValueError:
        return error("bad-message", "Send JSON: the message could not be parsed.")
    if not isinstance(parsed, dict):
        return error("bad-message", 'Send a JSON object like {"action": "subscribe", "game_id"}.')
    action = parsed.get("action")
    if action == "ping":
        return {"type": "pong"}
    game_id = parsed.get("game_id")
    if action not in ("subscribe", "unsubscribe"):
        return error("bad-action", "The action must be subscribe, unsubscribe or ping.")
    if not isinstance(game_id, str) or not store.plausible_id(game_id):
        return error("game-not-found", "There is no such game.", game_id)
    if action == "unsubscribe":
        connections.unsubscribe(connection_id, game_id)
        return {"type": "unsubscribed", "game_id": game_id}
    return subscribe(connection_id, game_id)


def subscribe(connection_id: str, game_id: str) -> dict[str, Any]:
    """Follow a game: as its seat for a player, as a spectator for anybody else when every
    player allows it."""
    connection = connections.get_connection(connection_id)
    if connection is None:
        return error("connection-gone", "This connection is closed; connect again.", game_id)
    record = store.get_game(game_id)
    if record is None:
        return error("game-not-found", "There is no such game.", game_id)
    seat = connection_seat(record, connection)
    role: Role = "player" if seat is not None else "spectator"
    if seat is None:
        reason = unwatchable_reason(record)
        if reason is not None:
            return error("not-watchable", reason, game_id)
    try:
        connections.subscribe(connection_id, game_id, role, seat, clock.now())
    except SubscriptionRefused:
        return error(
            "too-many-subscriptions",
            f"A connection follows at most {connections.MAX_SUBSCRIPTIONS} games; "
            "unsubscribe from one first.",
            game_id,
        )
    return {"type": "subscribed", "game_id": game_id, "role": role, "seat": seat}


def connection_seat(record: GameRecord, connection: Connection) -> int | None:
    """The seat the connection's player holds in the game, if any."""
    if connection.player_id is None:
        return None
    for index, seat in enumerate(record.seats):
        if seat.kind == connection.kind and seat.player_id == connection.player_id:
            return index
    return None


def error(code: str, text: str, game_id: str | None = None) -> dict[str, Any]:
    """A refusal, in the protocol's shape."""
    found: dict[str, Any] = {"type": "error", "code": code, "message": text}
    if game_id is not None:
        found["game_id"] = game_id[:64]
    return found
