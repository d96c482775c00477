"""Target of the turn schedules (and of reads that find a deadline passed): time out the seat
to move once its deadline has passed.

Idempotent: a stale, early or repeated delivery changes nothing in the game. A delivery that
raises is retried by Lambda's asynchronous invocation and then sent to the function's
on-failure destination; the sweeper ends the game on time either way.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.contract.expiry import ExpiryEvent
from mineduel_service.platform.observability import logger, publish_metrics
from mineduel_service.play import timeouts
from pydantic import ValidationError


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, str]:
    """Return what happened: timed-out, bots-moved, warned, stale, early, raced or ignored."""
    try:
        expiry = ExpiryEvent.model_validate(event)
    except ValidationError:
        logger.warning("expiry event ignored: not a turn schedule's input")
        return {"outcome": "ignored"}
    try:
        outcome = timeouts.expire_turn(
            expiry.game_id, expiry.move_count, expiry.deadline, expiry.warning
        )
    finally:
        publish_metrics()
    logger.info("turn expiry", extra={"game_id": expiry.game_id, "outcome": outcome})
    return {"outcome": outcome}
