"""A player's items about games (their running games, their finished games as their history
shows them, their invitations), and how each write of a game keeps them in step.

Given the game before and after a write, ``related_items`` lists every other item that must
change with it, to be written in the game's own transaction: a player's running-game item when
they take a seat, their finished-game item (the game's summary as their history shows it) when
the game ends, invitations when a seat is reserved, taken, declined or cancelled. One function
for every write path (create, join, decline, cancel, lapse, commit, resign, timeout), so no path
can forget an index entry, and because they share the game's conditional transaction, a crash
can never leave them out of step (docs/data-model.md). The items themselves are built and
read in ``store``.
"""

from __future__ import annotations

from typing import Any

from . import store
from .record import GameRecord

RUNNING = ("waiting", "active")


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
                items.append(store.running_game_delete(player_id, after.game_id))
    for seat, player_id in after.player_seats.items():
        newcomer = was.get(seat) != player_id
        if ended:
            if not newcomer:
                items.append(store.running_game_delete(player_id, after.game_id))
            items.append(store.finished_game_put(after, seat, player_id))
        elif cancelled:
            if not newcomer:
                items.append(store.running_game_delete(player_id, after.game_id))
        elif newcomer and after.status in RUNNING:
            items.append(store.running_game_put(after, seat, player_id))
    invited_before = before.invited if before is not None else {}
    invited_after = after.invited if after.status == "waiting" else {}
    for seat, player_id in invited_after.items():
        if invited_before.get(seat) != player_id:
            items.append(store.invitation_put(after, player_id))
    for seat, player_id in invited_before.items():
        if invited_after.get(seat) != player_id:
            items.append(store.invitation_delete(player_id, after.game_id))
    return items
