"""Refusals of starting games: creating, joining, declining, cancelling, a rematch."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotAllowed


class TooManyBots(Invalid):
    """Seat 0 is the creator's: bots must be fewer than seats."""

    code = "too-many-bots"
    default_message = "Leave seat 0 for yourself: bots must be fewer than seats."


class UnknownBotLevel(Invalid):
    """No bot plays at that level."""

    code = "unknown-bot-level"


class TooManyInvites(Invalid):
    """More invitations than open seats."""

    code = "too-many-invites"
    default_message = "Invite at most one player per open seat."


class BadInvite(Invalid):
    """An invitation that cannot be made (not a username, oneself, twice)."""

    code = "bad-invite"


class GuestsPlayBotsOnly(NotAllowed):
    """A guest may only play bots."""

    code = "guests-play-bots-only"


class VariantNotRated(Invalid):
    """A rated game in a variant without ratings."""

    code = "variant-not-rated"


class UnratedSeat(Invalid):
    """A rated game with a seat that is never rated (a guest, a bot)."""

    code = "unrated-seat"


class GameNotWaiting(Conflict):
    """The game is no longer waiting for players."""

    code = "game-not-waiting"


class NoOpenSeat(Conflict):
    """Every seat is taken or reserved for someone else."""

    code = "no-open-seat"
    default_message = "Every seat is taken or reserved for someone else."


class JoinConflict(Conflict):
    """Others joined at the same moment, every time the request tried."""

    code = "join-conflict"
    default_message = "Others joined at the same moment; try again."


class NotInvited(NotAllowed):
    """No seat of the game is reserved for the caller."""

    code = "not-invited"
    default_message = "No seat of this game is reserved for you."


class NotTheCreator(NotAllowed):
    """Only the game's creator may do this."""

    code = "not-the-creator"
    default_message = "Only the player who created the game may cancel it."
