"""Accounts on the local stack's user pool, for the end-to-end tests and the benchmarks.

moto's Cognito sends no mail, so an account is made with the admin API (created, its password
set permanently) and then signed in the way a client does (``USER_PASSWORD_AUTH``).
"""

from __future__ import annotations

import boto3

from .client import ApiClient, http_transport
from .stack import RunningStack

PASSWORD = "Correct-Horse-42"  # noqa: S105  (a local test account's password)


def id_token(stack: RunningStack, name: str, password: str = PASSWORD) -> str:
    """An id token for ``<name>@example.com`` (the account is made on first use)."""
    email = f"{name}@example.com"
    env = stack.provisioned.merged_environment()
    cognito = boto3.client(
        "cognito-idp", region_name=stack.provisioned.region, endpoint_url=stack.endpoint_url
    )
    pool, app = env["USER_POOL_ID"], env["USER_POOL_CLIENT_ID"]
    try:
        cognito.admin_create_user(UserPoolId=pool, Username=email, MessageAction="SUPPRESS")
        cognito.admin_set_user_password(
            UserPoolId=pool, Username=email, Password=password, Permanent=True
        )
    except cognito.exceptions.UsernameExistsException:
        pass
    tokens = cognito.initiate_auth(
        ClientId=app,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": password},
    )["AuthenticationResult"]
    return str(tokens["IdToken"])


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
