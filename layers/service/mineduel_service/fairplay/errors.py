"""Refusals of fair play and its review."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotAllowed, NotFound


class NotAModerator(NotAllowed):
    """Only accounts in the Cognito group ``moderators`` may do this."""

    code = "not-a-moderator"
    default_message = "Only moderators may do this."


class FairPlayPrivate(NotAllowed):
    """A player's fair-play record is theirs and the moderators' to see."""

    code = "fair-play-private"
    default_message = "Only the player and moderators see a player's fair-play record."


class CaseNotFound(NotFound):
    """No case has that id."""

    code = "case-not-found"
    default_message = "There is no case with that id."


class BadCaseStatus(Invalid):
    """A case list's ``status`` filter that is none of its own."""

    code = "bad-status"
    default_message = "status is 'open', 'cleared', 'restricted' or 'all'."


class FairPlayConflict(Conflict):
    """The record changed at the same moment, every time the request tried."""

    code = "fair-play-conflict"
    default_message = "The player's record changed at the same moment; try again."
