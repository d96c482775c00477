"""Refusals of the daily duel."""

from __future__ import annotations

from ..platform.errors import Conflict, Fault, Invalid, NotFound, Unavailable


class DailyAlreadyPlayed(Conflict):
    """One attempt a day: the caller has had today's."""

    code = "daily-already-played"


class BadDate(Invalid):
    """Not a real ``YYYY-MM-DD`` date."""

    code = "bad-date"
    default_message = "A day is written YYYY-MM-DD, e.g. 2026-12-01."


class DayNotFound(NotFound):
    """No daily duel was made for that day (yet)."""

    code = "day-not-found"


class DailyKeyMismatch(Fault):
    """A month's key or a day's seed does not match what was committed to: nothing is played or
    published with it."""

    code = "daily-key-mismatch"


class DailyNotReady(Unavailable):
    """Today's commitment is not published yet (a new deployment before its first preparation):
    no daily game is played on a commitment nobody could read first. Housekeeping publishes it
    within minutes; the same request then succeeds."""

    code = "daily-not-ready"
    default_message = (
        "Today's daily duel is not open yet: its commitment is published before anybody plays, "
        "and it has not been prepared. Try again in a few minutes."
    )
    retry_after_s = 300
