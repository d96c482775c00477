"""Refusals of quick pairing."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotFound


class SeekOpen(Conflict):
    """The player already has an open seek in the variant (one at a time)."""

    code = "seek-open"
    default_message = "You already have an open seek in this variant; cancel it first."


class SeekNotFound(NotFound):
    """No seek of the caller's has that id."""

    code = "seek-not-found"
    default_message = "You have no seek with that id."


class SeekNotOpen(Conflict):
    """The seek was paired, cancelled or expired already."""

    code = "seek-not-open"


class SeekConflict(Conflict):
    """Other writes got in the way every time the request tried."""

    code = "seek-conflict"
    default_message = "Others were pairing at the same moment; try again."


class BadRatingRange(Invalid):
    """A rating range that is not one (its low end above its high end)."""

    code = "bad-rating-range"
    default_message = "rating_range is [low, high] with low at most high."
