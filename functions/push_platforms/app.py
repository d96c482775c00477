"""The custom resource ``Custom::PushPlatformApplication``: the stack's SNS platform
applications for APNs and FCM, created, updated and deleted for CloudFormation
(``notify.platforms``; CloudFormation has no resource type of its own for them)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.notify import platforms
from mineduel_service.platform.observability import logger


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Apply the request and answer CloudFormation at its ResponseURL (never raises: a
    custom resource that never answers holds the stack for an hour)."""
    return platforms.handle(event)
