"""The one account maker: accounts in a stack's user pool, for the tests and the benchmarks.

moto's Cognito sends no mail, so an account is made with the admin API (created, its password
set permanently) and then signed in the way a client does (``USER_PASSWORD_AUTH``). Players
sign in with their email: ``<name>@example.com``.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

import boto3

from .api_client import ApiClient, http_transport

if TYPE_CHECKING:
    from mineduel.local.stack import RunningStack

PASSWORD = "Correct-Horse-42"  # noqa: S105  (a local test account's password)


def sign_in(
    cognito: Any,
    user_pool_id: str,
    client_id: str,
    name: str,
    *,
    password: str = PASSWORD,
    use: str = "IdToken",
) -> str:
    """A token (``use``: ``IdToken`` or ``AccessToken``) for ``<name>@example.com`` in the
    pool, made on first use; ``cognito`` is a boto3 ``cognito-idp`` client for that pool."""
    email = f"{name}@example.com"
    try:
        cognito.admin_create_user(UserPoolId=user_pool_id, Username=email, MessageAction="SUPPRESS")
        cognito.admin_set_user_password(
            UserPoolId=user_pool_id, Username=email, Password=password, Permanent=True
        )
    except cognito.exceptions.UsernameExistsException:
        pass
    tokens = cognito.initiate_auth(
        ClientId=client_id,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": password},
    )["AuthenticationResult"]
    return str(tokens[use])


def id_token(stack: RunningStack, name: str, password: str = PASSWORD) -> str:
    """An id token for ``<name>@example.com`` on a running local stack."""
    env = stack.provisioned.merged_environment()
    cognito = boto3.client(
        "cognito-idp", region_name=stack.provisioned.region, endpoint_url=stack.endpoint_url
    )
    return sign_in(
        cognito, env["USER_POOL_ID"], env["USER_POOL_CLIENT_ID"], name, password=password
    )


def signed_in(stack: RunningStack, name: str, *, username: bool = True) -> ApiClient:
    """A client signed in as ``<name>@example.com``; with ``username`` (the default) it has
    also taken the username ``name`` (``PUT /v1/me``), as a player must to be invited."""
    client = ApiClient(http_transport(stack.url), id_token(stack, name))
    if username:
        reply = client.call("PUT", "/v1/me", {"username": name})
        if reply.status != 200:
            raise RuntimeError(
                f"PUT /v1/me for {name!r} answered {reply.status}: {reply.body[:400]!r}"
            )
    return client


def new_guest(stack: RunningStack) -> ApiClient:
    """A client that has become a new guest (``POST /v1/guests``) on a running local stack."""
    client = ApiClient(http_transport(stack.url))
    client.become_guest()
    return client


def claims_of(token: str) -> dict[str, Any]:
    """A token's claims, unverified (a test's own look at what it was given)."""
    payload = token.split(".")[1]
    decoded: dict[str, Any] = json.loads(
        base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    )
    return decoded
