"""Turn deadlines as the rules define them: when a turn must end, and whether it has.

Light on purpose (the clock only): the read path checks deadlines too, and must not import the
bot or anything that derives a field.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..platform import clock
from .record import GameRecord

WAITING_LAPSE_S = 7 * 86400
"""A game that nobody joins lapses (is cancelled) after a week."""


def deadline_after(now: datetime, seconds: int) -> str:
    """The deadline of a turn starting ``now``, in the API's time format."""
    return clock.iso(now + timedelta(seconds=seconds))


def overdue(record: GameRecord, now: datetime) -> bool:
    """True when the running game's turn deadline has passed: the seat to move is out, whether
    or not anything has recorded it yet (rules: a late move is refused and the seat is out)."""
    return (
        record.status == "active"
        and record.deadline is not None
        and now >= clock.parse_iso(record.deadline)
    )
