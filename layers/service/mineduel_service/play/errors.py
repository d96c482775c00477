"""Refusals of playing a game: committing a move, resigning, claiming a timeout.

(The engine's own refusals, a cell already open or an action the variant does not have, keep
their engine classes: the edge maps them in the same table, ``api.problems``.)
"""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotAllowed


class GameNotActive(Conflict):
    """The game is not running: no move, resignation or timeout can be played."""

    code = "game-not-active"


class StaleMove(Conflict):
    """The game is at another move than the one the client saw."""

    code = "stale-move"


class SeatOut(NotAllowed):
    """The caller's seat is out of the game."""

    code = "seat-out"
    default_message = "Your seat is out of this game."


class NotYourTurn(NotAllowed):
    """Another seat is to move."""

    code = "not-your-turn"


class DeadlinePassed(Conflict):
    """The caller's own move deadline passed: their seat is out."""

    code = "deadline-passed"


class TurnTimedOut(Conflict):
    """The seat to move missed its deadline (now recorded): the game moved on."""

    code = "turn-timed-out"


class DeadlineNotPassed(Conflict):
    """A timeout claimed before the deadline."""

    code = "deadline-not-passed"


class MoveConflict(Conflict):
    """Another move landed first."""

    code = "move-conflict"


class DailyClientSeed(Invalid):
    """A daily game's field is the day's: no client seed."""

    code = "daily-client-seed"
    default_message = (
        "A daily game is played on the day's field, the same for everyone: send no client seed."
    )


class ClientSeedTooLate(Invalid):
    """The field is fixed by the first move."""

    code = "client-seed-too-late"
    default_message = "The field is fixed by the first move; send no client seed now."


class BadIdempotencyKey(Invalid):
    """An Idempotency-Key that is not 1 to 255 printable ASCII characters."""

    code = "bad-idempotency-key"
    default_message = "Send an Idempotency-Key of 1 to 255 printable ASCII characters."


class IdempotencyKeyReused(Invalid):
    """The same Idempotency-Key with a different request."""

    code = "idempotency-key-reused"
    default_message = "This Idempotency-Key was used for a different request; send a new key."


class RefusedBefore(Conflict):
    """An Idempotency-Key retry of a commit that was refused: refused again the same way (the
    refusal is kept by its code and message; every refusal a record keeps is a conflict over a
    passed deadline, ``DeadlinePassed`` or ``TurnTimedOut``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # this occurrence's own: the code the first answer had
