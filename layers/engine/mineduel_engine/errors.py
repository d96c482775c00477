"""Precise exceptions for everything the engine refuses.

Each refusal is its own class so callers (the HTTP layer, the verifier, the bot) can map it to
a status or a plain-words problem without parsing messages. A refused move changes nothing.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidSettings(EngineError):
    """Game settings outside what a variant allows (size, mines, seat count)."""


class UnknownVariant(InvalidSettings):
    """No rule set is registered under that variant name."""


class UnknownOption(InvalidSettings):
    """A creation option the variant does not have (each variant lists its own)."""


class BadOptionValue(InvalidSettings):
    """A creation option of the variant, given a value of the wrong type."""


class IllegalMove(EngineError):
    """A move the rules refuse; the game state is left exactly as it was."""


class GameOver(IllegalMove):
    """The game has already ended."""


class UnknownSeat(IllegalMove):
    """The seat number is not one of the game's seats."""


class SeatOut(IllegalMove):
    """The seat has resigned or timed out and takes no further part."""


class NotYourTurn(IllegalMove):
    """Another seat is to move."""


class UnknownAction(IllegalMove):
    """The variant has no such action."""


class OffBoard(IllegalMove):
    """The cell lies outside the field."""


class CellNotCovered(IllegalMove):
    """The cell is already opened or flagged."""


class BombUsed(IllegalMove):
    """mineseeker: the seat has already used its one bomb."""


class BombNotBehind(IllegalMove):
    """mineseeker with ``bomb_when_behind``: the seat is not behind, so it may not bomb."""


class MalformedRecord(EngineError):
    """A stored or published record (move, state, field) does not have the documented shape."""


class ReplayMismatch(EngineError):
    """A logged move, replayed on its field under the rules, does not give the logged outcome."""
