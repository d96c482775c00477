"""The one place the service reads the time.

Every deadline, ``created_at`` and ``at`` comes from ``now()``. The local stack's
``POST /_local/clock`` and the tests move time forward with ``advance()`` to make deadlines
pass without waiting; on AWS nothing calls it, so ``now()`` is the system clock.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

_lock = threading.Lock()
_offset = timedelta(0)


def now() -> datetime:
    """The current time, aware and in UTC, whole seconds (the API's time resolution)."""
    with _lock:
        offset = _offset
    return (datetime.now(UTC) + offset).replace(microsecond=0)


def advance(seconds: float) -> None:
    """Move this process's clock forward by ``seconds`` (local stack and tests only)."""
    global _offset  # noqa: PLW0603  (the clock is process-wide on purpose)
    if seconds < 0:
        raise ValueError("the clock only moves forward")
    with _lock:
        _offset += timedelta(seconds=seconds)


def reset() -> None:
    """Back to the system clock."""
    global _offset  # noqa: PLW0603
    with _lock:
        _offset = timedelta(0)


def iso(moment: datetime) -> str:
    """The API's time format: ``2026-11-29T12:00:00Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    """Parse a time written by ``iso``."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def day_start(day: str) -> datetime:
    """The first moment of ``day`` (``YYYY-MM-DD``, UTC)."""
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)


def day_over(day: str, moment: datetime) -> bool:
    """True once ``day`` (``YYYY-MM-DD``) has ended at ``moment`` (UTC): a daily duel's games
    and seed are the whole day's, so this is when they may be shown."""
    return moment >= day_start(day) + timedelta(days=1)
