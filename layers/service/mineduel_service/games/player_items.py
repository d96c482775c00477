"""The items that follow from a change of a game, written in the game's own transaction.

Given the game before and after a write, ``related_items`` lists every other item that must
change with it: a player's running-game item when they take a seat, their finished-game item
(the game's summary as their history shows it) when the game ends, invitations when a seat is
reserved, taken, declined or cancelled. One function for every write path (create, join,
decline, cancel, lapse, commit, resign, timeout), so no path can forget an index entry, and
because they share the game's conditional transaction, a crash can never leave them out of
step (docs/data-model.md).
"""

from __future__ import annotations

import json
from typing import Any

from ..platform.config import get_config
from .record import GameRecord
from .views import game_summary

RUNNING = ("waiting", "active")


def running_key(player_id: str, game_id: str) -> dict[str, Any]:
    """A player's running-game item (waiting or active)."""
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"GAME#A#{game_id}"}}


def finished_key(player_id: str, ended_at: str, game_id: str) -> dict[str, Any]:
    """A player's finished-game item: sorts by when the game ended."""
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"GAME#F#{ended_at}#{game_id}"}}


def invitation_key(player_id: str, game_id: str) -> dict[str, Any]:
    """An invitation waiting for a player."""
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"INVITE#{game_id}"}}


def _put(item: dict[str, Any]) -> dict[str, Any]:
    return {"Put": {"TableName": get_config().table_name, "Item": item}}


def _delete(key: dict[str, Any]) -> dict[str, Any]:
    return {"Delete": {"TableName": get_config().table_name, "Key": key}}


def running_item(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """The running-game item of the player in ``seat``."""
    return {
        **running_key(player_id, record.game_id),
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
        **finished_key(player_id, ended_at, record.game_id),
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
        **invitation_key(player_id, record.game_id),
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
                items.append(_delete(running_key(player_id, after.game_id)))
    for seat, player_id in after.player_seats.items():
        newcomer = was.get(seat) != player_id
        if ended:
            if not newcomer:
                items.append(_delete(running_key(player_id, after.game_id)))
            items.append(_put(finished_item(after, seat, player_id)))
        elif cancelled:
            if not newcomer:
                items.append(_delete(running_key(player_id, after.game_id)))
        elif newcomer and after.status in RUNNING:
            items.append(_put(running_item(after, seat, player_id)))
    invited_before = before.invited if before is not None else {}
    invited_after = after.invited if after.status == "waiting" else {}
    for seat, player_id in invited_after.items():
        if invited_before.get(seat) != player_id:
            items.append(_put(invitation_item(after, player_id)))
    for seat, player_id in invited_before.items():
        if invited_after.get(seat) != player_id:
            items.append(_delete(invitation_key(player_id, after.game_id)))
    return items
