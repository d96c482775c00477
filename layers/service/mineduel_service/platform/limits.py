"""A per-address limit for the one route anyone may call without credentials (``POST /v1/guests``).

API Gateway's route throttle (template.yaml) caps the route as a whole, for every caller
together; this caps one address, so a single client in a loop cannot fill the table with
guests or starve everybody else of the route's share. An address has one counter item per
minute window, raised by one conditional ``UpdateItem`` (``ADD``) that is refused once the
window's limit is reached: nothing is read first, concurrent requests cannot overshoot, and the
item expires by TTL. Refused callers are told ``too-many-requests`` with the seconds until the
window ends (the edge sends them as ``Retry-After``).

An IPv6 client usually holds a whole /64, so IPv6 addresses count by their /64 network; the
address is the one API Gateway saw (``requestContext.http.sourceIp``), never a header the
client could write.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import datetime

from . import clock, dynamo, errors, keys
from .config import get_config

WINDOW_S = 60
# Counter items outlive their window a little (TTL deletion is lazy and may lag anyway; the
# window is part of the key, so an old item never counts against a new window).
KEEP_S = 3600


class TooManyRequests(errors.TooManyRequests):
    """The address used up its window; ``retry_after_s`` says when the next one starts."""

    code = "too-many-requests"

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            f"Too many new guests from your address; try again in {retry_after_s} s.",
            retry_after_s,
        )


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


def admit(scope: str, source_ip: str | None, limit: int, now: datetime | None = None) -> None:
    """Count one request of ``source_ip`` against ``scope``; ``TooManyRequests`` past ``limit`` a
    minute."""
    moment = (now or clock.now()).timestamp()
    window = int(moment // WINDOW_S)
    ends = (window + 1) * WINDOW_S
    try:
        dynamo.update(
            keys.limit_counter(scope, address_of(source_ip), window),
            "ADD hits :one SET expires_ttl = :ttl",
            condition="attribute_not_exists(hits) OR hits < :limit",
            values={
                ":one": {"N": "1"},
                ":limit": {"N": str(limit)},
                ":ttl": {"N": str(ends + KEEP_S)},
            },
        )
    except dynamo.WriteConflict:
        raise TooManyRequests(max(1, math.ceil(ends - moment))) from None


def admit_guest(source_ip: str | None) -> None:
    """``POST /v1/guests``: at most ``GUEST_LIMIT_PER_MINUTE`` new guests per address a minute."""
    admit("guests", source_ip, get_config().guest_limit_per_minute)
