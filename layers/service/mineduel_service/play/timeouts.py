"""Seats going out: resignation, and the deadline, enforced by every path that can see it.

A passed deadline is recorded by whichever comes first, and only once (each is the same
conditional write, so the others find the game moved on and change nothing):
- the turn's own schedule firing the expiry function (``expire_turn``), for a turn another
  person waits for;
- the sweeper, every minute, for any game whose deadline passed (``sweep``): the second line
  of defence when a schedule could not be created, its delivery failed or the function crashed,
  and the only one for a turn nobody else waits for (against bots), found at most a bucket of
  a tenth of the turn's time (a minute to an hour) late (``GameRecord.due_key``);
- any seat claiming it (``claim_timeout``), and any commit or resignation arriving late;
- any read of the game (``reads.current`` asks the expiry function), so the game reads as timed
  out the moment anyone looks at it after the deadline.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from mineduel_engine import rules_for
from mineduel_engine.errors import IllegalMove

from ..games import store
from ..games.deadlines import overdue
from ..games.reads import existing, plausible_id
from ..games.record import GameRecord
from ..games.seats import credential, seat_of
from ..games.views import game_view
from ..lobby.waiting import lapse
from ..platform import clock
from ..platform.errors import conflict, from_engine
from ..platform.observability import count, logger
from . import results
from .advance import conclude, seed_if_needed, store_outcome, time_out
from .turn_warnings import arm_deadline, give_warning, warning_due, was_warned


def resign(token: str | None, game_id: str) -> dict[str, Any]:
    """Put the caller's seat out; the game goes on among the others or ends."""
    cred = credential(token)
    now = clock.now()
    record = existing(game_id)
    seat = seat_of(record, cred, now)
    if overdue(record, now):
        record = record_timeout(record, now)
        if record.status == "active" and record.state.seats[seat].out:
            raise conflict("deadline-passed", "Your move deadline passed; your seat is out.")
    if record.status != "active":
        raise conflict(
            "game-not-active", f"The game is {record.status}; there is nothing to resign."
        )
    try:
        state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "resign")
    except IllegalMove as exc:
        raise from_engine(exc) from None
    seed = seed_if_needed(record, state)
    after, moves = conclude(record, state, [move], now, seed)
    try:
        final, _ = store_outcome(record, after, moves, now, seed)
    except store.WriteConflict:
        raise conflict("move-conflict", "The game changed at the same moment; try again.") from None
    return game_view(final, seat)


def claim_timeout(token: str | None, game_id: str) -> dict[str, Any]:
    """A seat claims the passed deadline of the seat to move: the timeout is recorded now."""
    cred = credential(token)
    now = clock.now()
    record = existing(game_id)
    seat = seat_of(record, cred, now)
    if record.status != "active":
        raise conflict("game-not-active", f"The game is {record.status}; no deadline is running.")
    if not overdue(record, now):
        raise conflict(
            "deadline-not-passed",
            f"Seat {record.state.turn} has until {record.deadline} to move.",
        )
    return game_view(record_timeout(record, now), seat)


def record_timeout(record: GameRecord, now: datetime) -> GameRecord:
    """Write the timeout of the overdue seat to move (bots play on if it is their turn) and
    return the game as it then stands; if another path recorded it first, the game as re-read."""
    seat = record.state.turn
    if seat is None:
        return record
    after, moves = time_out(record, seat, now, None)
    try:
        final, _ = store_outcome(record, after, moves, now)
    except store.WriteConflict:
        return existing(record.game_id)
    if record.seats[seat].kind != "bot":
        count("TurnsTimedOut")
    return final


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
    record = store.get_game(game_id) if plausible_id(game_id) else None
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
    after, moves = time_out(record, seat, now, None)
    try:
        store_outcome(record, after, moves, now)
    except store.WriteConflict:
        return "raced"
    if record.seats[seat].kind == "bot":
        return "bots-moved"
    count("TurnsTimedOut")
    return "timed-out"


def sweep(limit_per_shard: int = 100) -> dict[str, int]:
    """End every game whose time is up, through ``expire_turn``, and apply every finished
    game's result still pending (``results``); the outcomes counted.

    The deadline index is eventually consistent, and its key is coarse (rounded up) on a turn
    nobody waits for (``GameRecord.due_key``), so a game it lists may have moved on or not be
    due yet: each one is re-read and checked against its exact times by ``expire_turn`` itself,
    and one not due is left for a later sweep (``early``). One game's failure never stops the
    sweep (it is logged and counted, and the next sweep tries again).
    """
    until = clock.iso(clock.now())
    outcomes: Counter[str] = Counter()
    for shard in store.deadline_shards():
        for game_id in store.due_games(shard, until, limit_per_shard):
            try:
                outcomes[expire_turn(game_id)] += 1
            except Exception as exc:
                outcomes["failed"] += 1
                logger.error(
                    "sweep could not expire a game",
                    extra={"game_id": game_id, "error": type(exc).__name__},
                )
    outcomes.update(results.apply_pending())
    swept = outcomes["timed-out"] + outcomes["bots-moved"] + outcomes["lapsed"] + outcomes["warned"]
    if swept:
        count("SweptGames", swept)
    if outcomes["failed"]:
        count("SweepFailures", outcomes["failed"])
    return dict(outcomes)
