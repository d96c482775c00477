"""On the local stack, Cognito's tokens follow the local clock as the API's expiry check does:
moving the clock an hour (``POST /_local/clock``) expires a token, and a refresh then gives
tokens that the API accepts, as on AWS."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import boto3
import pytest

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import PASSWORD, id_token
from mineduel.testing.api_client import ApiClient, http_transport

pytestmark = pytest.mark.http


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0, poll_schedules=False)
    yield running
    running.stop()


def _claims(token: str) -> dict[str, int]:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def test_an_hour_of_local_clock_expires_a_token_and_a_refresh_gives_one_the_api_takes(
    stack: RunningStack,
) -> None:
    id_token(stack, "clocky")  # makes the account
    env = stack.provisioned.merged_environment()
    cognito = boto3.client(
        "cognito-idp", region_name=stack.provisioned.region, endpoint_url=stack.endpoint_url
    )
    tokens = cognito.initiate_auth(
        ClientId=env["USER_POOL_CLIENT_ID"],
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": "clocky@example.com", "PASSWORD": PASSWORD},
    )["AuthenticationResult"]
    before = ApiClient(http_transport(stack.url), tokens["AccessToken"])
    assert before.call("GET", "/v1/me").status == 200

    # An hour and a minute: the API allows 30 seconds of clock skew past ``exp``.
    moved = ApiClient(http_transport(stack.url), None).call(
        "POST", "/_local/clock", {"advance_s": 3660}
    )
    assert moved.status == 200
    assert before.call("GET", "/v1/me").status == 401

    fresh = cognito.initiate_auth(
        ClientId=env["USER_POOL_CLIENT_ID"],
        AuthFlow="REFRESH_TOKEN_AUTH",
        AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]},
    )["AuthenticationResult"]
    old, new = _claims(tokens["AccessToken"]), _claims(fresh["AccessToken"])
    assert new["iat"] - old["iat"] >= 3660  # stamped by the local clock
    assert new["exp"] - new["iat"] == 3600
    after = ApiClient(http_transport(stack.url), fresh["AccessToken"])
    assert after.call("GET", "/v1/me").status == 200
    # Still good most of an hour later, as a refreshed token is on AWS.
    ApiClient(http_transport(stack.url), None).call("POST", "/_local/clock", {"advance_s": 3000})
    assert after.call("GET", "/v1/me").status == 200
