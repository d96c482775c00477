"""One EventBridge Scheduler schedule per turn on which someone waits: fire the expiry function
at the turn's deadline.

Only a turn for whose end another person waits gets a schedule (``GameRecord.someone_waits``):
a turn against bots, or of the last person left among bots, is ended (and warned) by the
sweeper alone, never early and late by at most a bucket of a tenth of the turn's time (a minute
to an hour, ``GameRecord.due_key``) and the sweeper's minute; nobody waits for it, and a
schedule per commit is most of what a game against the bot costs in Scheduler (docs/cost.md).

A schedule is named after the game AND the move number its turn starts at
(``turn-<game id>-<move count>``), so every turn has a schedule of its own. That is what makes a
deadline impossible to lose by timing: completing (and deleting, ``ActionAfterCompletion:
DELETE``) an old turn's schedule can never touch the new turn's, and no schedule is ever
updated while its own delivery is in flight. A commit makes at most one Scheduler call: it
creates the next turn's schedule. Earlier turns' schedules are left to fire; the expiry function
sees that their turn is over ("stale") and changes nothing. When a game ends, or nobody waits
any more (the other person left), the one call deletes the last turn's schedule instead, so a
turn left to the sweeper has nothing behind it to fire.

"Time almost up" (docs/live.md) costs a commit no second call: when the turn gets a warning, its
one schedule fires at the warning time (its input says ``"warning": true``); the expiry function
then records the warning and creates the turn's deadline schedule, named with a ``-deadline``
suffix (``turn-<game id>-<move count>-deadline``), so completing (deleting) the first can never
delete the second.

A failed call here never fails the write it follows: the game is stored, every request on it
enforces its deadline itself, and the sweeper (a ``rate(1 minute)`` schedule of its own) ends
any game whose deadline passed without a schedule firing.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from . import aws, clock
from .config import get_config

if TYPE_CHECKING:
    from botocore.exceptions import ClientError

MIN_LEAD_S = 60
RETRY_ATTEMPTS = 10
MAX_EVENT_AGE_S = 3600


DEADLINE_SUFFIX = "-deadline"


def schedule_name(game_id: str, move_count: int, *, after_warning: bool = False) -> str:
    """The schedule of the turn that starts after ``move_count`` moves (at most 64 characters:
    a UUID is 36, the move number at most 6 digits, the suffix 9); ``after_warning``: the
    deadline schedule the warning creates."""
    return f"turn-{game_id}-{move_count}" + (DEADLINE_SUFFIX if after_warning else "")


def at_expression(moment: datetime) -> str:
    """Scheduler's one-time expression, ``at(yyyy-mm-ddThh:mm:ss)`` in UTC."""
    return f"at({moment.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S')})"


def expiry_input(
    game_id: str, move_count: int, deadline: str, *, warning: bool = False
) -> dict[str, object]:
    """The event the expiry function receives: which game, and which turn of it; ``warning``
    when it fires at the turn's warning time rather than its deadline."""
    event: dict[str, object] = {"game_id": game_id, "move_count": move_count, "deadline": deadline}
    if warning:
        event["warning"] = True
    return event


def fire_time(deadline: datetime) -> datetime:
    """When the schedule fires: at the deadline, but never less than a minute from now.

    Turn deadlines are always a minute or more ahead when set; only a deadline that is already
    due (bots playing on) is pushed a little: a one-time schedule must name a future time, and
    Scheduler's precision is a minute anyway.
    """
    return max(deadline, clock.now() + timedelta(seconds=MIN_LEAD_S))


def arm(game_id: str, move_count: int, deadline: str, warning_at: str | None = None) -> None:
    """Create the schedule of the turn after ``move_count`` moves, due at ``deadline``, or at
    ``warning_at`` when the turn gets a warning first (the expiry function then arms the
    deadline, ``arm_deadline``).

    Creating a name that exists already means a retry of the same write got there first: the
    turn has its schedule, which is all that matters.
    """
    warning = warning_at is not None
    _create(
        schedule_name(game_id, move_count),
        warning_at if warning_at is not None else deadline,
        expiry_input(game_id, move_count, deadline, warning=warning),
    )


def arm_deadline(game_id: str, move_count: int, deadline: str) -> None:
    """Create the deadline schedule of a turn whose warning was just given (idempotent)."""
    _create(
        schedule_name(game_id, move_count, after_warning=True),
        deadline,
        expiry_input(game_id, move_count, deadline),
    )


def _create(name: str, due: str, event: dict[str, object]) -> None:
    config = get_config()
    try:
        aws.scheduler().create_schedule(
            Name=name,
            GroupName=config.schedule_group,
            ScheduleExpression=at_expression(fire_time(clock.parse_iso(due))),
            ScheduleExpressionTimezone="UTC",
            FlexibleTimeWindow={"Mode": "OFF"},
            ActionAfterCompletion="DELETE",
            Target={
                "Arn": config.expiry_function_arn,
                "RoleArn": config.scheduler_role_arn,
                "Input": json.dumps(event),
                "RetryPolicy": {
                    "MaximumRetryAttempts": RETRY_ATTEMPTS,
                    "MaximumEventAgeInSeconds": MAX_EVENT_AGE_S,
                },
                "DeadLetterConfig": {"Arn": config.schedule_dlq_arn},
            },
        )
    except aws.client_error() as exc:
        if _code(exc) != "ConflictException":
            raise


def disarm(game_id: str, move_count: int, *, warned: bool = False) -> None:
    """Delete the schedule of the turn after ``move_count`` moves (its deadline schedule when
    the turn's warning was given: the warning's own schedule has fired); missing is fine (it
    fired, or it was never made)."""
    try:
        aws.scheduler().delete_schedule(
            Name=schedule_name(game_id, move_count, after_warning=warned),
            GroupName=get_config().schedule_group,
        )
    except aws.client_error() as exc:
        if _code(exc) != "ResourceNotFoundException":
            raise


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))
