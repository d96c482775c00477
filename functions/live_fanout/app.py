"""The table's stream -> subscribers' sockets and the stack's bus (``live.fanout``).

Triggered by DynamoDB Streams (filtered to game items, subscriptions and lapsed connections);
never raises for one record's failure, so a batch is never retried into duplicate messages.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.live import fanout
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """What the batch caused: messages sent, connections found gone, bus events put."""
    try:
        report = fanout.handle(event.get("Records") or [])
    finally:
        publish_metrics()
    logger.debug("fan-out", extra={"report": asdict(report)})
    return asdict(report)
