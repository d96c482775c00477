"""Every five minutes: rebuild each rated variant's leaderboard snapshot.

Reads the sparse ``leaderboard`` index (listed, established players), drops the inactive, ranks
the rest and writes the snapshot that ``GET /v1/leaderboards/{variant}`` reads in one call.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.platform.observability import logger, publish_metrics
from mineduel_service.ratings import leaderboards


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Return, per variant, how many players the snapshot holds and how many left the index."""
    try:
        done = leaderboards.snapshot_all()
    finally:
        publish_metrics()
    logger.info("leaderboard snapshot", extra={"variants": done})
    return {"variants": done}
