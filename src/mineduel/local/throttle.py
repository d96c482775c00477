"""HTTP API's route throttling, from the template's ``DefaultRouteSettings`` and ``RouteSettings``.

API Gateway throttles each route with a token bucket: ``ThrottlingBurstLimit`` tokens at most,
refilled at ``ThrottlingRateLimit`` per second; a request that finds the bucket empty is
answered by the gateway itself, ``429 {"message": "Too Many Requests"}``, and no function runs.
A route's own settings (in the API's ``RouteSettings`` under its route key, or in its event's
``RouteSettings``) override the API's defaults field by field. The local stack keeps one bucket
per route the same way, on this machine's monotonic clock (not the service's movable one), so
a client that hammers a route meets the same 429 locally as it will on AWS.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mineduel.template import Template

HTTP_API_TYPE = "AWS::Serverless::HttpApi"
# What a route gets for a field its settings leave out: the account's own default quota.
ACCOUNT_RATE = 10_000.0
ACCOUNT_BURST = 5_000


@dataclass(frozen=True)
class Limits:
    """One route's throttle: a steady rate (requests per second) and a burst (bucket size)."""

    rate: float
    burst: int


class TokenBucket:
    """Starts full; each request takes a token; tokens come back at ``rate`` a second."""

    def __init__(self, limits: Limits, now: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._now = now
        self._tokens = float(limits.burst)
        self._stamp = now()
        self._lock = threading.Lock()

    def take(self) -> bool:
        """True if the request may pass (a token was taken), False if it is throttled."""
        with self._lock:
            moment = self._now()
            refill = (moment - self._stamp) * self.limits.rate
            self._tokens = min(float(self.limits.burst), self._tokens + refill)
            self._stamp = moment
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            return False


class RouteThrottle:
    """A bucket per route key; routes without any limit are never throttled."""

    def __init__(
        self, limits: Mapping[str, Limits], now: Callable[[], float] = time.monotonic
    ) -> None:
        self._buckets = {key: TokenBucket(value, now) for key, value in limits.items()}

    def limits(self, route_key: str) -> Limits | None:
        """The throttle of ``route_key`` (``"POST /v1/guests"``), if it has one."""
        bucket = self._buckets.get(route_key)
        return bucket.limits if bucket is not None else None

    def admit(self, route_key: str) -> bool:
        """Whether a request on ``route_key`` passes the gateway's throttle now."""
        bucket = self._buckets.get(route_key)
        return bucket is None or bucket.take()

    @classmethod
    def from_template(
        cls, template: Template, now: Callable[[], float] = time.monotonic
    ) -> RouteThrottle:
        """Every route's limits, from the HTTP API's settings and the routes' own events."""
        api: dict[str, Any] = next(
            (r.get("Properties", {}) for r in template.resources_of_type(HTTP_API_TYPE).values()),
            {},
        )
        parameters = template.parameter_defaults
        defaults = _settings(api.get("DefaultRouteSettings"), parameters)
        per_route = api.get("RouteSettings") or {}
        limits: dict[str, Limits] = {}
        for route, function in template.routes():
            key = f"{route.method.upper()} {route.path}"
            merged = {**defaults, **_settings(per_route.get(key), parameters)}
            for event in function.properties.get("Events", {}).values():
                props = event.get("Properties", {})
                if event.get("Type") == "HttpApi" and (
                    str(props.get("Method", "")).upper(),
                    props.get("Path"),
                ) == (route.method.upper(), route.path):
                    merged.update(_settings(props.get("RouteSettings"), parameters))
            if "ThrottlingRateLimit" in merged or "ThrottlingBurstLimit" in merged:
                limits[key] = Limits(
                    rate=float(merged.get("ThrottlingRateLimit", ACCOUNT_RATE)),
                    burst=int(merged.get("ThrottlingBurstLimit", ACCOUNT_BURST)),
                )
        return cls(limits, now)


def _settings(value: Any, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The throttle settings of ``value``, a ``!Ref`` to a parameter read as its default."""
    if not isinstance(value, Mapping):
        return {}
    keys = ("ThrottlingRateLimit", "ThrottlingBurstLimit")
    found = {}
    for key in keys:
        if key not in value:
            continue
        setting = value[key]
        if isinstance(setting, Mapping) and "Ref" in setting:
            setting = parameters[setting["Ref"]]
        found[key] = setting
    return found
