"""Time running out: a turn's deadline passing, enforced by every path that can see it, and a
waiting game nobody joined lapsing after a week.

A passed deadline is recorded by whichever comes first, and only once (each is the same
conditional write, so the others find the game moved on and change nothing):
- the turn's own schedule firing the expiry function (``expire_turn``), for a turn another
  person waits for;
- the sweeper, every minute, for any game whose deadline passed (``sweeper.sweep``): the second
  line of defence when a schedule could not be created, its delivery failed or the function
  crashed, and the only one for a turn nobody else waits for (against bots), found at most a
  bucket of a tenth of the turn's time (a minute to an hour) late (``GameRecord.due_key``);
- any seat claiming it (``claim_timeout``), and any commit or resignation arriving late;
- any read of the game (``games.current`` asks the expiry function), so the game reads as
  timed out the moment anyone looks at it after the deadline.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..games import store, writes
from ..games.current import existing
from ..games.deadlines import overdue
from ..games.record import GameRecord
from ..games.seats import seat_of
from ..games.views import game_view
from ..platform import auth, clock
from ..platform.dynamo import WriteConflict
from ..platform.observability import count
from . import advance
from .errors import DeadlineNotPassed, GameNotActive
from .turn_warnings import arm_deadline, give_warning, warning_due, was_warned


def claim_timeout(cred: auth.Credential, game_id: str) -> dict[str, Any]:
    """A seat claims the passed deadline of the seat to move: the timeout is recorded now."""
    now = clock.now()
    record = existing(game_id)
    seat = seat_of(record, cred, now)
    if record.status != "active":
        raise GameNotActive(f"The game is {record.status}; no deadline is running.")
    if not overdue(record, now):
        raise DeadlineNotPassed(f"Seat {record.state.turn} has until {record.deadline} to move.")
    return game_view(write_timeout(record, now), seat)


def write_timeout(record: GameRecord, now: datetime) -> GameRecord:
    """Write the timeout of the overdue seat to move (bots play on if it is their turn) and
    return the game as it then stands; if another path recorded it first, the game as re-read."""
    seat = record.state.turn
    if seat is None:
        return record
    after, log = advance.time_out(record, seat, now, None)
    try:
        stored = advance.store_outcome(record, after, log, now)
    except WriteConflict:
        return existing(record.game_id)
    if record.seats[seat].kind != "bot":
        count("TurnsTimedOut")
    return stored.game


def expire_turn(
    game_id: str,
    move_count: int | None = None,
    deadline: str | None = None,
    warning: bool = False,
) -> str:
    """Record the deadline of the game's turn if it has passed, or its "time almost up"
    warning if that is due; say what happened.

    With ``move_count`` and ``deadline`` (a turn schedule's delivery), only that turn may be
    timed out or warned: a delivery for another turn is ``stale`` and changes nothing (that turn
    has a schedule of its own). Without them (the sweeper, a read), whatever turn is running is
    checked, and a waiting game past its week lapses. ``warning``: the delivery of a turn's
    warning schedule, which arms the turn's deadline schedule once the warning is given (again
    on a retry). Idempotent: ``timed-out``, ``bots-moved``, ``warned``, ``lapsed``, ``stale``,
    ``early``, ``raced`` or ``ignored``.
    """
    record = store.get_game(game_id) if store.plausible_id(game_id) else None
    if record is not None and record.status == "waiting" and move_count is None:
        return lapse(record)
    if record is None or record.status != "active":
        return "ignored"
    if move_count is not None and (
        record.state.move_count != move_count or record.deadline != deadline
    ):
        return "stale"
    now = clock.now()
    if not overdue(record, now):
        if warning_due(record, now):
            return give_warning(record)
        if warning and was_warned(record):
            arm_deadline(record)  # a retried delivery: the warning stands, the deadline is armed
            return "warned"
        return "early"
    seat = record.state.turn
    if seat is None:
        return "ignored"
    after, log = advance.time_out(record, seat, now, None)
    try:
        advance.store_outcome(record, after, log, now)
    except WriteConflict:
        return "raced"
    if record.seats[seat].kind == "bot":
        return "bots-moved"
    count("TurnsTimedOut")
    return "timed-out"


def lapse(record: GameRecord) -> str:
    """Cancel a waiting game whose week has passed (found by the sweeper in the deadline index):
    one conditional write of the game with its player items; what happened."""
    if record.status != "waiting" or record.lapses_at is None:
        return "ignored"
    if clock.now() < clock.parse_iso(record.lapses_at):
        return "early"
    try:
        writes.persist(record.cancelled(clock.iso(clock.now())), record)
    except WriteConflict:
        return "raced"
    count("GamesLapsed")
    return "lapsed"
