"""Every five minutes: the daily duel's housekeeping; and once, as the stack is deployed, its
preparation (the custom resource ``DailyPreparation``).

Commits the coming months' keys and the coming days ahead, rebuilds the tables of the days still
open, closes the days that are over (their seeds published in every game of the day) and
publishes the key of a month that is over.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.daily import housekeeping, preparation
from mineduel_service.platform.custom_resources import is_request
from mineduel_service.platform.observability import logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Return the days whose tables were rebuilt, closed or still waiting, and months published;
    for CloudFormation's request, the answer sent to it."""
    if is_request(event):
        try:
            return preparation.handle(event)
        finally:
            publish_metrics()
    try:
        done = housekeeping.housekeeping()
    finally:
        publish_metrics()
    logger.info("daily housekeeping", extra=done)
    return done
