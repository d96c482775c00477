"""CloudFormation's custom resource protocol, the answer half: a request names a presigned
``ResponseURL``, and the stack waits (up to an hour) until the function PUTs its answer there.

A request without a ``ResponseURL`` is the local stack's: it invokes the function with the same
event as it provisions the template and reads the answer the function returns.
"""

from __future__ import annotations

import json
from typing import Any

RESPONSE_TIMEOUT_S = 10.0


def is_request(event: object) -> bool:
    """Whether ``event`` is a custom resource request (not a schedule's input)."""
    return isinstance(event, dict) and event.get("RequestType") in ("Create", "Update", "Delete")


def answer(
    event: dict[str, Any],
    *,
    physical_id: str,
    reason: str | None = None,
    data: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Answer the request (``SUCCESS``, or ``FAILED`` with a ``reason``) at its ``ResponseURL``;
    the answer sent."""
    sent: dict[str, Any] = {
        "Status": "FAILED" if reason else "SUCCESS",
        "PhysicalResourceId": physical_id,
        "StackId": event.get("StackId"),
        "RequestId": event.get("RequestId"),
        "LogicalResourceId": event.get("LogicalResourceId"),
        "Data": data or {},
    }
    if reason:
        sent["Reason"] = reason
    url = event.get("ResponseURL")
    if url:
        _put(str(url), sent)
    return sent


def _put(url: str, sent: dict[str, Any]) -> None:
    """PUT the answer to CloudFormation's presigned URL (an empty content type, as it asks)."""
    import urllib3  # noqa: PLC0415  (only a deployment's requests need it)

    body = json.dumps(sent).encode("utf-8")
    urllib3.request(
        "PUT",
        url,
        body=body,
        headers={"Content-Type": "", "Content-Length": str(len(body))},
        timeout=RESPONSE_TIMEOUT_S,
        retries=urllib3.Retry(total=3, backoff_factor=0.5),
    )
