"""Games that have not started: an invited player declines, or the creator cancels. (A game
nobody joined lapses after a week: ``play.timeouts``.)

Each is one conditional write of the game with its player items (``games.writes``): declining
opens the seat to anybody (the game enters the lobby) and deletes the invitation; cancelling
ends the game as ``cancelled`` and deletes every running-game item and invitation of it.
"""

from __future__ import annotations

from typing import Any

from ..games import store, writes
from ..games.current import existing
from ..games.record import Seat
from ..games.views import game_view
from ..platform import auth, clock
from ..platform.observability import count
from .errors import GameNotWaiting, NotInvited, NotTheCreator

ATTEMPTS = 3


def decline(caller: auth.Caller, game_id: str) -> dict[str, Any]:
    """The invited caller declines: the seat reserved for them becomes open."""

    def attempt() -> dict[str, Any]:
        record = existing(game_id)
        seats = list(record.seats)
        mine = [i for i, seat in enumerate(seats) if seat.reserved_id == caller.player_id]
        if not mine or seats[mine[0]].kind != "open":
            raise NotInvited()
        if record.status != "waiting":
            raise GameNotWaiting(f"The game is {record.status}; nothing to decline.")
        seats[mine[0]] = Seat("open")
        after = writes.persist(record.evolve(seats=tuple(seats)), record)
        return game_view(after)

    return store.until_written(attempt, ATTEMPTS)


def cancel(caller: auth.Caller, game_id: str) -> dict[str, Any]:
    """The creator cancels a game nobody has joined yet... or not everybody: while it waits."""

    def attempt() -> dict[str, Any]:
        record = existing(game_id)
        if record.seats[record.creator_seat].player_id != caller.player_id:
            raise NotTheCreator()
        if record.status != "waiting":
            raise GameNotWaiting(f"The game is {record.status}; only a waiting game is cancelled.")
        after = writes.persist(record.cancelled(clock.iso(clock.now())), record)
        count("GamesCancelled")
        return game_view(after, after.creator_seat)

    return store.until_written(attempt, ATTEMPTS)
