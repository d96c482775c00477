"""Games that have not started: an invited player declines, the creator cancels, and a game
nobody joined lapses after a week (the sweeper finds it in the deadline index).

Each is one conditional write of the game with its index items (``writes``): declining opens the
seat to anybody (the game enters the lobby) and deletes the invitation; cancelling and lapsing
end the game as ``cancelled`` and delete every running-game item and invitation of it.
"""

from __future__ import annotations

from typing import Any

from ..games import store, writes
from ..games.reads import existing
from ..games.record import GameRecord, Seat
from ..games.seats import authenticate
from ..games.views import game_view
from ..platform import clock
from ..platform.errors import conflict, forbidden
from ..platform.observability import count

ATTEMPTS = 3


def decline(token: str | None, game_id: str) -> dict[str, Any]:
    """The invited caller declines: the seat reserved for them becomes open."""
    caller = authenticate(token)
    for _ in range(ATTEMPTS):
        record = existing(game_id)
        seats = list(record.seats)
        mine = [i for i, seat in enumerate(seats) if seat.reserved_id == caller.player_id]
        if not mine or seats[mine[0]].kind != "open":
            raise forbidden("not-invited", "No seat of this game is reserved for you.")
        if record.status != "waiting":
            raise conflict("game-not-waiting", f"The game is {record.status}; nothing to decline.")
        seats[mine[0]] = Seat("open")
        after = record.evolve(seats=tuple(seats), version=record.version + 1)
        try:
            writes.persist(after, record)
        except store.WriteConflict:
            continue
        return game_view(after)
    raise conflict("game-conflict", "The game changed at the same moment; try again.")


def cancel(token: str | None, game_id: str) -> dict[str, Any]:
    """The creator cancels a game nobody has joined yet... or not everybody: while it waits."""
    caller = authenticate(token)
    for _ in range(ATTEMPTS):
        record = existing(game_id)
        if record.seats[0].player_id != caller.player_id:
            raise forbidden(
                "not-the-creator", "Only the player who created the game may cancel it."
            )
        if record.status != "waiting":
            raise conflict(
                "game-not-waiting",
                f"The game is {record.status}; only a waiting game is cancelled.",
            )
        after = _cancelled(record)
        try:
            writes.persist(after, record)
        except store.WriteConflict:
            continue
        count("GamesCancelled")
        return game_view(after, 0)
    raise conflict("game-conflict", "The game changed at the same moment; try again.")


def _cancelled(record: GameRecord) -> GameRecord:
    return record.evolve(
        status="cancelled",
        lapses_at=None,
        ended_at=clock.iso(clock.now()),
        version=record.version + 1,
    )


def lapse(record: GameRecord) -> str:
    """Cancel a waiting game whose week has passed (the sweeper); what happened."""
    if record.status != "waiting" or record.lapses_at is None:
        return "ignored"
    if clock.now() < clock.parse_iso(record.lapses_at):
        return "early"
    try:
        writes.persist(_cancelled(record), record)
    except store.WriteConflict:
        return "raced"
    count("GamesLapsed")
    return "lapsed"
