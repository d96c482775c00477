"""Refusals of the archive: exports' filters, and what waits for a daily game's day to end."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid


class DayNotOver(Conflict):
    """A daily game's field is the whole day's: what shows it waits until the day is over."""

    code = "day-not-over"


class BadVariant(Invalid):
    """An export filter naming a variant that does not exist."""

    code = "bad-variant"


class BadRated(Invalid):
    """An export's ``rated`` filter that is neither true nor false."""

    code = "bad-rated"
    default_message = "rated is true or false."


class BadSince(Invalid):
    """An export's ``since`` that is not a time."""

    code = "bad-since"


class BadUntil(Invalid):
    """An export's ``until`` that is not a time."""

    code = "bad-until"
