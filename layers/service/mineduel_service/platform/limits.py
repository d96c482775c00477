"""A per-address limit for the one route anyone may call without credentials (``POST /v1/guests``).

API Gateway's route throttle (template.yaml) caps the route as a whole, for every caller
together; this caps one address, so a single client in a loop cannot fill the table with
guests or starve everybody else of the route's share. An address has one counter item per
minute window, raised by one conditional ``UpdateItem`` (``ADD``) that is refused once the
window's limit is reached: nothing is read first, concurrent requests cannot overshoot, and the
item expires by TTL. Refused callers get 429 ``too-many-requests`` with ``Retry-After`` (the
seconds until the window ends).

An IPv6 client usually holds a whole /64, so IPv6 addresses count by their /64 network; the
address is the one API Gateway saw (``requestContext.http.sourceIp``), never a header the
client could write.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import datetime

from botocore.exceptions import ClientError

from . import aws, clock
from .config import get_config
from .errors import ApiError

WINDOW_S = 60
KEY_PREFIX = "LIMIT#"
# Counter items outlive their window a little (TTL deletion is lazy and may lag anyway; the
# window is part of the key, so an old item never counts against a new window).
KEEP_S = 3600


class TooManyRequests(ApiError):
    """429: the address used up its window; ``Retry-After`` says when the next one starts."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            429,
            "too-many-requests",
            f"Too many new guests from your address; try again in {retry_after_s} s.",
            headers={"Retry-After": str(retry_after_s)},
        )
        self.retry_after_s = retry_after_s


def address_of(source_ip: str | None) -> str:
    """What one client is counted by: its IPv4 address, or its IPv6 /64 network."""
    try:
        address = ipaddress.ip_address((source_ip or "").strip())
    except ValueError:
        return "unknown"  # never on AWS, which always sends sourceIp; such callers share one count
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def counter_key(scope: str, address: str, window: int) -> dict[str, dict[str, str]]:
    """The counter item of ``address`` for ``scope`` in minute ``window`` (epoch seconds // 60)."""
    return {"pk": {"S": f"{KEY_PREFIX}{scope}#{address}#{window}"}, "sk": {"S": "LIMIT"}}


def admit(scope: str, source_ip: str | None, limit: int, now: datetime | None = None) -> None:
    """Count one request of ``source_ip`` against ``scope``; raise 429 past ``limit`` a minute."""
    moment = (now or clock.now()).timestamp()
    window = int(moment // WINDOW_S)
    ends = (window + 1) * WINDOW_S
    try:
        aws.dynamodb().update_item(
            TableName=get_config().table_name,
            Key=counter_key(scope, address_of(source_ip), window),
            UpdateExpression="ADD hits :one SET expires_ttl = :ttl",
            ConditionExpression="attribute_not_exists(hits) OR hits < :limit",
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":limit": {"N": str(limit)},
                ":ttl": {"N": str(ends + KEEP_S)},
            },
        )
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
            raise TooManyRequests(max(1, math.ceil(ends - moment))) from None
        raise


def admit_guest(source_ip: str | None) -> None:
    """``POST /v1/guests``: at most ``GUEST_LIMIT_PER_MINUTE`` new guests per address a minute."""
    admit("guests", source_ip, get_config().guest_limit_per_minute)
