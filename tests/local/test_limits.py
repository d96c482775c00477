"""Limits as a client meets them: the gateway's route throttles from template.yaml, and the
guests function's own limit per address, over real HTTP against the local stack."""

from __future__ import annotations

import threading
import time

import pytest
from mineduel_service.platform import clock, limits

from mineduel.local.stack import RunningStack
from mineduel.local.throttle import ACCOUNT_BURST, Limits, RouteThrottle, TokenBucket
from mineduel.template import load_template
from mineduel.testing.api_client import ApiClient, Reply, http_transport

pytestmark = pytest.mark.http
GUESTS = "POST /v1/guests"


def test_each_route_gets_the_templates_throttle() -> None:
    template = load_template()
    throttle = RouteThrottle.from_template(template)
    api = template.resources["HttpApi"]["Properties"]
    default, own = api["DefaultRouteSettings"], api["RouteSettings"][GUESTS]
    assert throttle.limits(GUESTS) == Limits(
        rate=own["ThrottlingRateLimit"], burst=own["ThrottlingBurstLimit"]
    )
    assert throttle.limits(GUESTS) != throttle.limits("GET /v1/games/{game_id}")
    parameters = template.parameter_defaults  # the defaults are the stack's parameters
    rate = parameters[default["ThrottlingRateLimit"]["Ref"]]
    burst = parameters[default["ThrottlingBurstLimit"]["Ref"]]
    for route, _ in template.routes():
        key = f"{route.method} {route.path}"
        if key != GUESTS:
            assert throttle.limits(key) == Limits(rate=rate, burst=burst)


def test_a_bucket_allows_its_burst_then_its_rate() -> None:
    now = [100.0]
    bucket = TokenBucket(Limits(rate=2.0, burst=3), lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 60  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    unlimited = RouteThrottle({})
    assert all(unlimited.admit("GET /anything") for _ in range(ACCOUNT_BURST + 1))


def _guest_requests(url: str, count: int) -> list[Reply]:
    barrier = threading.Barrier(count)
    replies: list[Reply] = []
    lock = threading.Lock()

    def one() -> None:
        client = ApiClient(http_transport(url))
        barrier.wait()
        reply = client.call("POST", "/v1/guests")
        with lock:
            replies.append(reply)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return replies


def test_a_burst_beyond_the_route_throttle_gets_api_gateways_429_then_the_address_limit(
    stack: RunningStack,
) -> None:
    client = ApiClient(http_transport(stack.url))
    now = clock.parse_iso(client.call("GET", "/_local/clock").json()["now"]).timestamp()
    client.call("POST", "/_local/clock", {"advance_s": 60 - now % 60})  # a fresh minute window
    assert stack.api.throttle is not None
    own = stack.api.throttle.limits(GUESTS)
    assert own is not None

    started = time.monotonic()
    burst = _guest_requests(stack.url, own.burst + 10)
    elapsed = time.monotonic() - started
    throttled = [r for r in burst if r.status == 429]
    admitted = [r for r in burst if r.status == 201]
    assert len(admitted) + len(throttled) == len(burst)
    assert throttled, "nothing was throttled"
    assert all(r.json() == {"message": "Too Many Requests"} for r in throttled)
    assert len(admitted) <= own.burst + own.rate * elapsed + 1

    # Within the route's rate, the address's own limit is what stops it, with Retry-After.
    issued = len(admitted)
    while True:
        time.sleep(1.2 / own.rate)
        reply = client.call("POST", "/v1/guests")
        if reply.status != 201:
            break
        issued += 1
    assert reply.status == 429
    assert reply.json()["error"]["code"] == "too-many-requests"
    assert 1 <= int(reply.headers["retry-after"]) <= limits.WINDOW_S
    limit = stack.provisioned.environments["GuestsFunction"]["GUEST_LIMIT_PER_MINUTE"]
    assert issued == int(limit)
