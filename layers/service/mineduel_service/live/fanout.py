"""The fan-out: from the table's stream to the sockets and the stack's bus.

It runs on the stream (DynamoDB Streams -> Lambda), never in the request that wrote: a commit
pays nothing for it, and every write of a game, from whatever path (a commit, the expiry
function, the sweeper, a join), reaches subscribers the same way (docs/live.md and docs/cost.md
for where it runs and what it costs). For each record:

- a game item changed: ``live_changes`` says what happened; every subscriber gets one small
  message (``{"type": "game", ...}``; a warning goes to the seat to move only), and the bus
  gets ``GameStarted``/``MovePlayed``/``GameFinished``/``TurnAlmostUp``; when a player turned
  spectators off, the spectators are unsubscribed and told; the notices the change calls for
  (``notify.notices``: your turn, time almost up, an invitation, the end) are queued for the
  players who do not follow the game on a socket (``notify.outbox``), one ``SendMessageBatch``
  for up to ten, and delivered behind the queue;
- a spectator subscribed or left: the players' connections get the new count of watchers;
- a connection's item lapsed (TTL) without a ``$disconnect``: its subscriptions go with it.

A send to a connection that is gone (``GoneException``) removes that connection and its
subscriptions at once. No failure of one record stops the others (it is logged and counted:
a subscriber that missed a message still reads the game, and polling stays first class).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..games import store
from ..games.record import GameRecord
from ..games.store import parse_subscription, subscriptions
from ..games.watchers import Subscription, watchers
from ..notify import notices, outbox
from ..platform import clock
from ..platform.observability import count, logger
from .changes import bus_events, event_of, spectators_turned_off
from .push import FanoutReport, put_bus_events, send
from .store import delete_subscriptions, parse_connection, stream_item, typed, unsubscribe

__all__ = ["FanoutReport", "handle", "send"]


def handle(records: Iterable[dict[str, Any]]) -> FanoutReport:
    """Process one batch of stream records (oldest first)."""
    report = FanoutReport()
    entries: list[dict[str, Any]] = []
    for record in records:
        try:
            entries.extend(_one(record, report))
        except Exception as exc:
            report.failed += 1
            count("FanoutFailures")
            logger.error("fan-out record failed", extra={"error": type(exc).__name__})
    put_bus_events(entries, report)
    if report.sent:
        count("PushesSent", report.sent)
    if report.gone:
        count("PushConnectionsGone", report.gone)
    return report


def _one(record: dict[str, Any], report: FanoutReport) -> list[dict[str, Any]]:
    change = record.get("dynamodb", {})
    item, event = stream_item(record), record.get("eventName")
    old, new = change.get("OldImage"), change.get("NewImage")
    if item == "game" and new:
        before = store.parse_game(typed(old)) if old else None
        after = store.parse_game(typed(new))
        return _game_changed(before, after, report)
    if item == "subscription" and event in ("INSERT", "REMOVE"):
        sub = parse_subscription(typed(new or old or {}))
        if sub.role == "spectator":
            _watchers_changed(sub.game_id, report)
    elif item == "connection" and event == "REMOVE" and old and _ttl(record):
        connection = parse_connection(typed(old))  # gone: its subscriptions go too
        delete_subscriptions(connection.connection_id, connection.games, connection.player_id)
    return []


def _ttl(record: dict[str, Any]) -> bool:
    """The record is DynamoDB's own TTL deletion (a ``$disconnect`` deletes its items itself)."""
    identity = record.get("userIdentity") or {}
    return identity.get("principalId") == "dynamodb.amazonaws.com"


def _game_changed(
    before: GameRecord | None, after: GameRecord, report: FanoutReport
) -> list[dict[str, Any]]:
    event = event_of(before, after, store.list_moves)
    cut = spectators_turned_off(before, after)
    subs: list[Subscription] = []
    if event is not None or cut:
        subs = subscriptions(after.game_id)
        if cut:
            subs = _cut_spectators(after.game_id, subs, report)
        if event is not None:
            report.events.append(event)
            message = {
                "type": "game",
                "game_id": after.game_id,
                "move_count": after.state.move_count,
                "status": after.status,
                "event": event,
                "watchers": watchers(subs, clock.now()),
            }
            for sub in subs:
                if event == "warning" and not (
                    sub.role == "player" and sub.seat == after.state.turn
                ):
                    continue  # the warning is for the player to move
                send(sub.connection_id, message, report)
    _notify(before, after, subs, report)
    return bus_events(before, after)


def _notify(
    before: GameRecord | None, after: GameRecord, subs: Sequence[Subscription], report: FanoutReport
) -> None:
    """Queue the notices of the change for the players without a live connection on the game
    (every change that can call for one, but an invitation, has an ``event``, so ``subs`` is
    read). A failure is counted and logged, never raised: the live messages went out."""
    moment = clock.now()
    open_seats = {
        s.seat
        for s in subs
        if s.role == "player" and s.seat is not None and s.expires_at > moment.timestamp()
    }
    try:
        found = notices.of_change(before, after, open_seats, moment)
        if found:
            report.notices += outbox.send(found)
    except Exception as exc:
        count("NotificationsNotQueued")
        logger.error("notices not queued", extra={"error": type(exc).__name__})


def _cut_spectators(
    game_id: str, subs: Sequence[Subscription], report: FanoutReport
) -> list[Subscription]:
    """Unsubscribe and tell every spectator; the players' subscriptions remain."""
    kept = []
    for sub in subs:
        if sub.role != "spectator":
            kept.append(sub)
            continue
        unsubscribe(sub.connection_id, game_id)
        message = {
            "type": "unsubscribed",
            "game_id": game_id,
            "reason": "spectators-off",
            "message": "A player turned spectators off for the rest of this game.",
        }
        send(sub.connection_id, message, report)
    return kept


def _watchers_changed(game_id: str, report: FanoutReport) -> None:
    """Tell the players' connections how many spectators follow the game now."""
    subs = subscriptions(game_id)
    message = {"type": "watchers", "game_id": game_id, "watchers": watchers(subs, clock.now())}
    for sub in subs:
        if sub.role == "player":
            send(sub.connection_id, message, report)
