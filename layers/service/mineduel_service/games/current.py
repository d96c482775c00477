"""A game as it stands now: a read that finds the turn's deadline passed does not show a game
that is really over as still running.

It asks the expiry function (which may decrypt; the read paths may not) to record the timeout
now, and reads the game again. That costs one Lambda call and one read, once per passed
deadline, and never fails the read: if the call fails, the game is shown as stored and the
schedule or the sweeper records the timeout within a minute.
"""

from __future__ import annotations

import json

from ..platform import aws, clock
from ..platform.config import get_config
from ..platform.observability import count, logger
from .deadlines import overdue
from .errors import GameNotFound
from .record import GameRecord
from .store import get_game, plausible_id


def existing(game_id: str) -> GameRecord:
    """The stored game; ``GameNotFound`` when there is none (or the id cannot be one)."""
    record = get_game(game_id) if plausible_id(game_id) else None
    if record is None:
        raise GameNotFound()
    return record


def current(game_id: str) -> GameRecord:
    """The game as it stands now: a passed deadline is recorded before it is shown."""
    record = existing(game_id)
    if not overdue(record, clock.now()):
        return record
    if request_expiry(record):
        return existing(game_id)
    return record


def request_expiry(record: GameRecord) -> bool:
    """Ask the expiry function to record the running turn's passed deadline; True if it ran."""
    event = {"game_id": record.game_id}
    try:
        answer = aws.lambda_().invoke(
            FunctionName=get_config().expiry_function_arn,
            InvocationType="RequestResponse",
            Payload=json.dumps(event).encode("utf-8"),
        )
    except Exception as exc:
        logger.warning(
            "expiry not requested", extra={"game_id": record.game_id, "error": type(exc).__name__}
        )
        count("ExpiryRequestFailures")
        return False
    if answer.get("FunctionError"):
        logger.warning("expiry function failed", extra={"game_id": record.game_id})
        count("ExpiryRequestFailures")
        return False
    return True
