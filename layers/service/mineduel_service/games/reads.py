"""Reading a game: the public view (one read, no KMS) and its move log, as the caller may see
them (a seat also sees its own private part).

A read that finds the turn's deadline passed shows the game as it really stands: it asks the
expiry function to record the timeout first (``current``, which a read of the move log uses as
it is). Every read of the game item is ``store.get_game``.
"""

from __future__ import annotations

from typing import Any

from ..platform import auth, clock
from .current import current, request_expiry
from .deadlines import overdue
from .errors import GameNotFound
from .record import GameRecord
from .seats import viewer_of
from .store import get_game, plausible_id
from .store import list_moves as stored_moves
from .views import game_view, moves_view

__all__ = ["current", "game_as_seen", "game_with_watchers", "moves_as_seen"]


def game_with_watchers(game_id: str) -> tuple[GameRecord, int]:
    """The game as it stands now and how many spectators follow it: one read (the game and its
    subscriptions together, ``store.get_game(..., watchers_at=...)``), no KMS; ``GameNotFound`` when
    there is no such game (checked before anything about the caller)."""
    if not plausible_id(game_id):
        raise GameNotFound()
    record, watchers = get_game(game_id, watchers_at=clock.now())
    if record is None:
        raise GameNotFound()
    if overdue(record, clock.now()) and request_expiry(record):
        record, watchers = get_game(game_id, watchers_at=clock.now())
        if record is None:
            raise GameNotFound()
    return record, watchers


def game_as_seen(record: GameRecord, watchers: int, cred: auth.Credential | None) -> dict[str, Any]:
    """The game as the caller may see it (a seat also sees its own private part), with its
    count of watchers (null when nobody watches)."""
    view = game_view(record, viewer_of(record, cred, clock.now()))
    # None when nobody watches: then the read is the same Game every other answer shows.
    return {**view, "watchers": watchers or None}


def moves_as_seen(record: GameRecord, after: int, cred: auth.Credential | None) -> dict[str, Any]:
    """The moves numbered above ``after``, oldest first, as the caller may see them."""
    viewer = viewer_of(record, cred, clock.now())
    moves = stored_moves(record.game_id, after)
    return {"moves": moves_view(moves, viewer, record.status == "finished")}
