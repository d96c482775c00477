"""Every hour: once a month is over, write all its finished games to the export bucket.

One gzip-compressed NDJSON file a month (Verification documents, oldest game first), listed by
``GET /v1/exports``. A month is exported once; a daily month waits until its key is published
(every daily game's seed is then public). ``{"month": "YYYY-MM"}`` exports that month now.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.archive import exports
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Return the month exported (games, bytes, checksum), or null when none was due."""
    try:
        done = exports.monthly(event)
    finally:
        publish_metrics()
    logger.info("monthly export", extra=done)
    return done
