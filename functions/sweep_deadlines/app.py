"""Every minute: end every game whose deadline passed without its schedule ending it.

The second line of defence behind the turn schedules: a schedule that could not be created,
a delivery that failed, an expiry function that crashed, a process that died between a game's
write and its schedule call. It finds such games in the sparse ``deadlines`` index and ends
them through the same idempotent path as the schedules, so nothing is ever ended twice.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.platform.observability import logger, publish_metrics
from mineduel_service.play import sweeper


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Return how many games each outcome had (timed-out, bots-moved, stale, raced, ...)."""
    try:
        outcomes = sweeper.sweep()
    finally:
        publish_metrics()
    logger.info("deadline sweep", extra={"outcomes": outcomes})
    return {"outcomes": outcomes}
