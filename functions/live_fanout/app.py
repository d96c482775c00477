"""The table's stream -> subscribers' sockets and the stack's bus (``live.fanout``), and
paired seeks -> their owners' sockets and the bus (``pairing.announce``).

Triggered by DynamoDB Streams (filtered to game items, subscriptions, lapsed connections and
seeks becoming paired); never raises for one record's failure, so a batch is never retried
into duplicate messages. One reader of the stream for both: a stream's shards take two
readers at most.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.live import fanout
from mineduel_service.pairing import announce
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """What the batch caused: messages sent, connections found gone, bus events put."""
    records = event.get("Records") or []
    try:
        report = fanout.handle(records)
        report.merge(announce.handle(records))
    finally:
        publish_metrics()
    logger.debug("fan-out", extra={"report": asdict(report)})
    return asdict(report)
