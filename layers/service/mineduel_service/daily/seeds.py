"""The daily duel's secrets: a month key per month, a seed per day, each committed to before it
is used and published once its time is over (docs/daily.md).

1. Before a month starts, a 32-byte *month key* is drawn from the CSPRNG and kept only as KMS
   ciphertext (encryption context ``{"daily_month": "YYYY-MM"}``); its commitment
   ``SHA-256(month key)`` is published at once (``GET /v1/daily`` shows this month's and the
   next one's).
2. Each day's server seed is ``HMAC-SHA256(month key, "mineduel/daily|YYYY-MM-DD")``
   (``mineduel_engine.daily``); the day's commitment ``SHA-256(day seed)`` is published before
   the day starts (today's and tomorrow's are shown).

Housekeeping makes both ahead of time (``housekeeping``) and publishes them when their day or
month is over.
"""

from __future__ import annotations

import secrets

from mineduel_engine import commitment
from mineduel_engine.daily import day_seed

from ..platform import aws, clock
from ..platform.config import get_config
from ..platform.observability import count
from .errors import DailyKeyMismatch
from .store import Day, Month, get_day, get_month, month_of, put_new_day, put_new_month

MONTH_CONTEXT = "daily_month"


def _month_context(month: str) -> dict[str, str]:
    return {MONTH_CONTEXT: month}


def month_key(month: Month) -> bytes:
    """The month key (one KMS ``Decrypt``; never logged, never sent until the month is over)."""
    answer = aws.kms().decrypt(
        CiphertextBlob=month.ciphertext,
        KeyId=get_config().seed_key_id,
        EncryptionContext=_month_context(month.month),
    )
    key: bytes = answer["Plaintext"]
    if commitment(key) != month.commitment:
        raise DailyKeyMismatch("The month's key does not match its commitment.")
    return key


def ensure_month(month: str) -> Month:
    """The month's key item, drawn and committed to now if it is not there yet."""
    found = get_month(month)
    if found is not None:
        return found
    key = secrets.token_bytes(32)
    ciphertext = aws.kms().encrypt(
        KeyId=get_config().seed_key_id, Plaintext=key, EncryptionContext=_month_context(month)
    )["CiphertextBlob"]
    made = Month(month, commitment(key), ciphertext, clock.iso(clock.now()))
    del key
    if not put_new_month(made):
        again = get_month(month)
        if again is None:  # pragma: no cover  (a conflict means it exists)
            raise RuntimeError("the month's key item vanished")
        return again
    count("DailyMonthsCommitted")
    return made


def ensure_day(day: str) -> Day:
    """The day's item with its commitment, made now (from the month key) if not there yet."""
    found = get_day(day)
    if found is not None:
        return found
    seed = day_seed(month_key(ensure_month(month_of(day))), day)
    made = Day(day, commitment(seed), clock.iso(clock.now()))
    del seed
    if not put_new_day(made):
        again = get_day(day)
        if again is None:  # pragma: no cover
            raise RuntimeError("the day's item vanished")
        return again
    return made


def checked_seed(the_day: Day) -> bytes:
    """The day's seed, from its month's key, checked against the day's commitment."""
    seed = day_seed(month_key(ensure_month(month_of(the_day.day))), the_day.day)
    if commitment(seed) != the_day.commitment:
        raise DailyKeyMismatch("The day's seed does not match its commitment.")
    return seed
