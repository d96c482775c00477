"""Every five minutes: screen the rated games that finished since the last run (fair play).

Takes each game's analysis (stored, or computed and stored), adds each seat's figures to its
player's record and opens a case for a moderator when a player's window crosses the threshold
(``fairplay.screen``, docs/fair-play.md).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.fairplay import screen
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Return how many finished games it read, screened and failed, and the cases opened."""
    try:
        done = screen.run()
    finally:
        publish_metrics()
    logger.info("fair-play screening", extra={"done": done})
    return {"done": done}
