"""WebSocket ``$default``: a client's message (subscribe, unsubscribe, ping), answered on the
same socket through the route's response (docs/live.md)."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.live import sockets
from mineduel_service.platform.observability import logger


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """200 with the answer as the body: ``subscribed``, ``unsubscribed``, ``pong`` or ``error``."""
    body = event.get("body")
    if body is not None and event.get("isBase64Encoded"):
        body = None  # a binary frame: not a message of the protocol
    answer = sockets.message(str(event["requestContext"]["connectionId"]), body)
    if answer.get("type") == "error":
        logger.info("live message refused", extra={"code": answer.get("code")})
    return {"statusCode": 200, "body": json.dumps(answer, separators=(",", ":"))}
