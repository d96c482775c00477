"""WebSocket ``$connect``: a client opens a live connection with ``?token=`` (or none, to watch).

A token that is not valid refuses the handshake (401); a valid one, or none, is stored with the
connection id (docs/live.md).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_service.api import live as edge
from mineduel_service.live import sockets
from mineduel_service.platform.errors import Refusal
from mineduel_service.platform.observability import count, logger, publish_metrics


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """200 accepts the connection; 401 refuses it."""
    connection_id = str(event["requestContext"]["connectionId"])
    token = (event.get("queryStringParameters") or {}).get("token") or None
    try:
        sockets.connect(connection_id, edge.caller(token))
    except Refusal as exc:
        logger.info("live connection refused", extra={"code": exc.code})
        return edge.handshake_refusal(exc)
    finally:
        count("LiveConnections")
        publish_metrics()
    return {"statusCode": 200}
