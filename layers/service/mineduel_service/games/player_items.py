"""A player's items about games (their running games, their finished games as their history
shows them, their invitations), and how each write of a game keeps them in step.

Given the game before and after a write, ``related_items`` lists every other item that must
change with it, to be written in the game's own transaction: a player's running-game item when
they take a seat, their finished-game item (the game's summary as their history shows it) when
the game ends, invitations when a seat is reserved, taken, declined or cancelled. One function
for every write path (create, join, decline, cancel, lapse, commit, resign, timeout), so no path
can forget an index entry, and because they share the game's conditional transaction, a crash
can never leave them out of step (docs/data-model.md).
"""

from __future__ import annotations

import json
from typing import Any

from ..platform import dynamo, keys
from .record import GameRecord
from .views import game_summary

RUNNING = ("waiting", "active")
MAX_LISTED = 500
"""A player's running games or invitations are read whole, up to about this many."""


# ---------------------------------------------------------------------------- reading them
def _player_items(player_id: str, prefix: str) -> list[dict[str, Any]]:
    """The player's items whose sort key starts with ``prefix`` (consistent ``Query`` pages,
    stopping after the page that reaches ``MAX_LISTED``)."""
    items: list[dict[str, Any]] = []
    for page in dynamo.query_pages(
        "pk = :pk AND begins_with(sk, :prefix)",
        {":pk": {"S": keys.player_partition(player_id)}, ":prefix": {"S": prefix}},
        consistent=True,
    ):
        items.extend(page)
        if len(items) >= MAX_LISTED:
            break
    return items


def running_items(player_id: str) -> list[dict[str, Any]]:
    """The player's running-game items (``game_id``, ``seat``)."""
    return _player_items(player_id, keys.RUNNING_SK)


def finished_items(player_id: str) -> list[dict[str, Any]]:
    """The player's finished-game items, oldest first (``game_id``, ``summary``)."""
    return _player_items(player_id, keys.FINISHED_SK)


def invitation_items(player_id: str) -> list[dict[str, Any]]:
    """The invitations waiting for the player (``game_id``)."""
    return _player_items(player_id, keys.INVITATION_SK)


def finished_page(
    player_id: str, start: dict[str, Any] | None, limit: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """One page of the player's finished games (their summaries), newest first, and the key the
    next page starts after (one consistent ``Query``)."""
    items, last = dynamo.query_page(
        "pk = :pk AND begins_with(sk, :prefix)",
        {":pk": {"S": keys.player_partition(player_id)}, ":prefix": {"S": keys.FINISHED_SK}},
        consistent=True,
        newest_first=True,
        limit=limit,
        start=start,
    )
    return [json.loads(item["summary"]["S"]) for item in items], last


def ended_at_of(item: dict[str, Any]) -> str:
    """When the game of a finished-game item ended (from its sort key)."""
    return str(item["sk"]["S"]).split("#")[2]


# ---------------------------------------------------------------------------- writing them
def running_item(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """The running-game item of the player in ``seat``."""
    return {
        **keys.running_game(player_id, record.game_id),
        "game_id": {"S": record.game_id},
        "seat": {"N": str(seat)},
        "variant": {"S": record.settings.variant},
        "created_at": {"S": record.created_at},
    }


def finished_item(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """The finished-game item of the player in ``seat``: the summary their history shows."""
    ended_at = record.ended_at or record.created_at
    summary = json.dumps(game_summary(record, seat), separators=(",", ":"))
    return {
        **keys.finished_game(player_id, ended_at, record.game_id),
        "game_id": {"S": record.game_id},
        "seat": {"N": str(seat)},
        "variant": {"S": record.settings.variant},
        "rated": {"BOOL": record.rated},
        "summary": {"S": summary},
    }


def invitation_item(record: GameRecord, player_id: str) -> dict[str, Any]:
    """An invitation to ``record`` for ``player_id``."""
    host = record.seats[0]
    return {
        **keys.invitation(player_id, record.game_id),
        "game_id": {"S": record.game_id},
        "from": {"S": host.name},
        "variant": {"S": record.settings.variant},
        "created_at": {"S": record.created_at},
    }


def related_items(before: GameRecord | None, after: GameRecord) -> list[dict[str, Any]]:
    """Every item besides the game that ``before`` -> ``after`` changes (transaction items)."""
    items: list[dict[str, Any]] = []
    was = before.player_seats if before is not None else {}
    status_before = before.status if before is not None else None
    ended = after.status == "finished" and status_before != "finished"
    cancelled = after.status == "cancelled" and status_before != "cancelled"
    if after.status in RUNNING:
        for seat, player_id in was.items():
            if after.player_seats.get(seat) != player_id:  # the seat changed hands (a claim)
                items.append(dynamo.delete_op(keys.running_game(player_id, after.game_id)))
    for seat, player_id in after.player_seats.items():
        newcomer = was.get(seat) != player_id
        if ended:
            if not newcomer:
                items.append(dynamo.delete_op(keys.running_game(player_id, after.game_id)))
            items.append(dynamo.put_op(finished_item(after, seat, player_id)))
        elif cancelled:
            if not newcomer:
                items.append(dynamo.delete_op(keys.running_game(player_id, after.game_id)))
        elif newcomer and after.status in RUNNING:
            items.append(dynamo.put_op(running_item(after, seat, player_id)))
    invited_before = before.invited if before is not None else {}
    invited_after = after.invited if after.status == "waiting" else {}
    for seat, player_id in invited_after.items():
        if invited_before.get(seat) != player_id:
            items.append(dynamo.put_op(invitation_item(after, player_id)))
    for seat, player_id in invited_before.items():
        if invited_after.get(seat) != player_id:
            items.append(dynamo.delete_op(keys.invitation(player_id, after.game_id)))
    return items
