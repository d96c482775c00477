"""The daily duel's fields: one a day, the same for everyone, fixed a month ahead.

Every daily game of a day is played on the same field, so the ordinary recipe (``fairness``) is
used with two fixed inputs instead of per-game ones:

- the *field id* ``daily-YYYY-MM-DD`` stands in for the game id in the game key's message, and
  every client seed is empty (``mineduel/v1|daily-2026-12-01||`` for the two seats: the
  player and the bot);
- the day's server seed is not drawn on the day: it is ``HMAC-SHA256(month key,
  "mineduel/daily|" + date)``, where the month key (32 random bytes) was committed to
  (``SHA-256(month key)``) before the month began. The day's commitment is, as for any game,
  ``SHA-256(day seed)``.

So nobody can choose a day's field once the month has started: the month's commitment fixes
every day's seed. A day's seed is published when the day ends, the month key when the month
ends; with the key anybody can recompute every day's seed of that month.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from .fairness import commitment

DAY_LABEL = "mineduel/daily|"
FIELD_ID_PREFIX = "daily-"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def is_date(text: object) -> bool:
    """True for a ``YYYY-MM-DD`` string (a calendar date in that shape)."""
    return isinstance(text, str) and _DATE.fullmatch(text) is not None


def day_seed(month_key: bytes, date: str) -> bytes:
    """The server seed of ``date``'s field: HMAC-SHA256(month key, "mineduel/daily|" + date)."""
    return hmac.new(month_key, (DAY_LABEL + date).encode("utf-8"), hashlib.sha256).digest()


def day_commitment(month_key: bytes, date: str) -> str:
    """The commitment every daily game of ``date`` shows: SHA-256 of the day's seed."""
    return commitment(day_seed(month_key, date))


def field_id(date: str) -> str:
    """The id that stands for the game id in a daily game's key: ``daily-YYYY-MM-DD``."""
    return FIELD_ID_PREFIX + date


def date_of_field_id(text: object) -> str | None:
    """The date a daily field id names, or None when ``text`` is not one."""
    if not isinstance(text, str) or not text.startswith(FIELD_ID_PREFIX):
        return None
    date = text.removeprefix(FIELD_ID_PREFIX)
    return date if is_date(date) else None
