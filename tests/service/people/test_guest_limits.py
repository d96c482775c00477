"""POST /v1/guests, the one route without credentials, admits a few guests per address a minute.

On moto, through the real handler: the limit comes from template.yaml (the function's
``GUEST_LIMIT_PER_MINUTE``), the count is one conditional DynamoDB update per request, a
refusal is 429 ``too-many-requests`` with ``Retry-After``, and a new minute starts afresh.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import boto3
from mineduel_service.platform import clock, keys, limits
from mineduel_service.platform.config import get_config

from mineduel.template import load_template

if TYPE_CHECKING:
    from conftest import Api


def _start_of_a_window() -> None:
    """Move the clock to the first second of a minute window, so a test never straddles two."""
    seconds = clock.now().timestamp()
    clock.advance(limits.WINDOW_S - seconds % limits.WINDOW_S)


def test_the_limit_is_the_templates(api: Api) -> None:
    guests = load_template().functions["GuestsFunction"]
    assert int(guests.environment["GUEST_LIMIT_PER_MINUTE"]) == get_config().guest_limit_per_minute


def test_an_address_gets_its_limit_then_429_with_retry_after(api: Api) -> None:
    _start_of_a_window()
    address, other = api.new_address(), api.new_address()
    limit = get_config().guest_limit_per_minute
    for _ in range(limit):
        assert api.call("POST", "/v1/guests", source_ip=address).status == 201
    clock.advance(20)
    refused = api.call("POST", "/v1/guests", source_ip=address)
    assert refused.status == 429
    assert refused.error_code == "too-many-requests"
    assert 30 <= int(refused.headers["retry-after"]) <= 40  # the rest of the minute window
    assert "token" not in refused.body
    assert api.call("POST", "/v1/guests", source_ip=other).status == 201

    clock.advance(int(refused.headers["retry-after"]))  # the next window
    assert api.call("POST", "/v1/guests", source_ip=address).status == 201


def test_ipv6_addresses_count_by_their_64_network(api: Api) -> None:
    _start_of_a_window()
    limit = get_config().guest_limit_per_minute
    for host in range(limit):
        reply = api.call("POST", "/v1/guests", source_ip=f"2001:db8:1:2::{host + 1:x}")
        assert reply.status == 201
    assert api.call("POST", "/v1/guests", source_ip="2001:db8:1:2:ffff::9").status == 429
    assert api.call("POST", "/v1/guests", source_ip="2001:db8:1:3::1").status == 201
    assert limits.address_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert limits.address_of("2001:db8:1:2:abcd::1") == "2001:db8:1:2::/64"
    assert limits.address_of("not an address") == "unknown"


def test_a_guest_costs_one_counter_update_and_one_put_and_a_refusal_only_the_update(
    api: Api, dynamodb_calls: Counter[str]
) -> None:
    _start_of_a_window()
    address = api.new_address()
    assert api.call("POST", "/v1/guests", source_ip=address).status == 201
    assert dynamodb_calls == {"UpdateItem": 1, "PutItem": 1}
    for _ in range(get_config().guest_limit_per_minute - 1):
        api.call("POST", "/v1/guests", source_ip=address)
    dynamodb_calls.clear()
    assert api.call("POST", "/v1/guests", source_ip=address).status == 429
    assert dynamodb_calls == {"UpdateItem": 1}


def test_the_counter_is_one_item_per_address_and_minute_that_expires(api: Api) -> None:
    _start_of_a_window()
    address = api.new_address()
    for _ in range(3):
        api.call("POST", "/v1/guests", source_ip=address)
    window = int(clock.now().timestamp()) // limits.WINDOW_S
    config = get_config()
    item = boto3.client("dynamodb", region_name=config.region).get_item(
        TableName=config.table_name, Key=keys.limit_counter("guests", address, window)
    )["Item"]
    assert item["hits"] == {"N": "3"}
    expires = int(item["expires_ttl"]["N"])
    assert expires == (window + 1) * limits.WINDOW_S + limits.KEEP_S
