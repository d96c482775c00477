"""Each game's one EventBridge Scheduler schedule: fire the expiry function at the deadline.

The schedule is named after the game, so setting it again simply moves it; its input names the
game and the move number it was set for, which is how the expiry function recognises a stale
delivery. ``ActionAfterCompletion: DELETE`` removes it once it has fired, and ``disarm`` removes
it when the game ends. One Scheduler call in the common case: a game that just became active
creates its schedule, later turns update it; the other call is only the rare fallback.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from botocore.exceptions import ClientError

from . import aws, clock
from .config import get_config

MIN_LEAD_S = 60


def schedule_name(game_id: str) -> str:
    """The game's schedule name (game ids are UUIDs, well within the 64-character limit)."""
    return f"turn-{game_id}"


def at_expression(moment: datetime) -> str:
    """Scheduler's one-time expression, ``at(yyyy-mm-ddThh:mm:ss)`` in UTC."""
    return f"at({moment.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S')})"


def expiry_input(game_id: str, move_count: int, deadline: str) -> dict[str, object]:
    """The event the expiry function receives."""
    return {"game_id": game_id, "move_count": move_count, "deadline": deadline}


def fire_time(deadline: datetime) -> datetime:
    """When the schedule fires: at the deadline, but never less than a minute from now.

    Turn deadlines are always a minute or more ahead when set; only a deadline that is already
    due (bots playing on, or re-arming an overdue turn) is pushed a little: a one-time schedule
    must name a future time, and Scheduler's precision is a minute anyway.
    """
    return max(deadline, clock.now() + timedelta(seconds=MIN_LEAD_S))


def arm(
    game_id: str, move_count: int, deadline: datetime, deadline_text: str, *, first: bool = False
) -> None:
    """Point the game's schedule at ``deadline`` for the turn after ``move_count`` moves.

    ``first`` says the game has just become active, so its schedule most likely does not exist
    yet: create it, and fall back to an update only if it does. Later turns update first and
    create only when the schedule has fired (and deleted itself) in the meantime.
    """
    config = get_config()
    request = {
        "Name": schedule_name(game_id),
        "GroupName": config.schedule_group,
        "ScheduleExpression": at_expression(fire_time(deadline)),
        "ScheduleExpressionTimezone": "UTC",
        "FlexibleTimeWindow": {"Mode": "OFF"},
        "ActionAfterCompletion": "DELETE",
        "Target": {
            "Arn": config.expiry_function_arn,
            "RoleArn": config.scheduler_role_arn,
            "Input": json.dumps(expiry_input(game_id, move_count, deadline_text)),
            "RetryPolicy": {"MaximumRetryAttempts": 10, "MaximumEventAgeInSeconds": 3600},
        },
    }
    client = aws.scheduler()
    if first:
        try:
            client.create_schedule(**request)  # type: ignore[arg-type]
        except ClientError as exc:
            if _code(exc) != "ConflictException":
                raise
            client.update_schedule(**request)  # type: ignore[arg-type]
        return
    try:
        client.update_schedule(**request)  # type: ignore[arg-type]
    except ClientError as exc:
        if _code(exc) != "ResourceNotFoundException":
            raise
        client.create_schedule(**request)  # type: ignore[arg-type]


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def disarm(game_id: str) -> None:
    """Delete the game's schedule (the game ended); missing is fine."""
    try:
        aws.scheduler().delete_schedule(
            Name=schedule_name(game_id), GroupName=get_config().schedule_group
        )
    except ClientError as exc:
        if _code(exc) != "ResourceNotFoundException":
            raise
