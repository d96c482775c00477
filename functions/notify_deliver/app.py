"""The notification queue -> players' browsers (Web Push) and devices (SNS): ``notify.delivery``.

Triggered by SQS (the queue the fan-out fills); answers the messages to try again
(``batchItemFailures``, the event source's ``ReportBatchItemFailures``), never raises for one.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.notify import delivery
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The messages to deliver again, and (for tests and logs) what the batch did."""
    try:
        report = delivery.handle(event.get("Records") or [])
    finally:
        publish_metrics()
    logger.debug("delivery", extra={"report": asdict(report)})
    return {
        "batchItemFailures": [{"itemIdentifier": m} for m in report.failures],
        "report": asdict(report),
    }
