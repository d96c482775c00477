"""WebSocket ``$disconnect``: forget the connection and every subscription of it."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.live import sockets
from mineduel_service.platform.observability import logger


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Always 200 (API Gateway ignores the answer; the socket is closed already)."""
    sockets.disconnect(str(event["requestContext"]["connectionId"]))
    return {"statusCode": 200}
