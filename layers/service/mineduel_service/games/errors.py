"""Refusals about a game as such, whatever the request does with it."""

from __future__ import annotations

from ..platform.errors import Conflict, NotAllowed, NotFound


class GameNotFound(NotFound):
    """No such game (also for an id that cannot be one)."""

    code = "game-not-found"
    default_message = "There is no such game."


class NotYourSeat(NotAllowed):
    """The caller holds no seat in the game."""

    code = "not-your-seat"
    default_message = "You do not hold a seat in this game."


class GameNotFinished(Conflict):
    """What was asked for comes once the game is finished."""

    code = "game-not-finished"


class GameConflict(Conflict):
    """The game changed at the same moment, every time the request tried."""

    code = "game-conflict"
    default_message = "The game changed at the same moment; try again."
