""" "Time almost up": the player to move is warned once per turn, at 80% of the turn's time.

The warning is a write of the game (``warned_for`` set to the turn's deadline), conditional like
every other, so of every path that may give it (the turn's schedule firing at the warning time,
the sweeper finding it due, a retried delivery) exactly one lands. A turn on which nobody but
the player to move waits has no schedule: the sweeper alone warns it, within a tenth of the
turn's time and a minute after the warning time (``GameRecord.due_key``), never before it
(``warning_due``).
The push message and the ``TurnAlmostUp`` event on the stack's bus follow from that write
through the table's stream (``live.changes``), like every other change of a game. Which turns
are warned is ``GameRecord.warning_at``.
"""

from __future__ import annotations

from datetime import datetime

from ..games import writes
from ..games.record import GameRecord
from ..platform import clock, scheduling
from ..platform.dynamo import WriteConflict
from ..platform.observability import count, logger


def warning_due(record: GameRecord, now: datetime) -> bool:
    """True when the running turn's warning time has come and it has not been given."""
    due = record.warning_at
    return due is not None and now >= clock.parse_iso(due)


def was_warned(record: GameRecord) -> bool:
    """True when the running turn's warning has been given."""
    return record.deadline is not None and record.warned_for == record.deadline


def give_warning(record: GameRecord) -> str:
    """Record the running turn's warning and arm the turn's deadline schedule; what happened
    (``warned``, or ``raced`` when the game moved on meanwhile)."""
    if not was_warned(record):
        try:
            record = writes.persist(record.evolve(warned_for=record.deadline), record)
        except WriteConflict:
            return "raced"
        count("TurnsWarned")
    arm_deadline(record)
    return "warned"


def arm_deadline(record: GameRecord) -> None:
    """The warned turn's deadline schedule (idempotent), when someone waits for the turn (the
    sweeper alone ends any other, ``GameRecord.someone_waits``). A failure is logged and
    counted, never raised: the warning is stored, and the sweeper ends the turn on time without
    a schedule."""
    if record.deadline is None or not record.someone_waits:
        return
    try:
        scheduling.arm_deadline(record.game_id, record.state.move_count, record.deadline)
    except Exception as exc:
        logger.warning(
            "deadline schedule not created",
            extra={"game_id": record.game_id, "error": type(exc).__name__},
        )
        count("ScheduleFailures")
