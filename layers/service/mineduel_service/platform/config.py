"""The functions' configuration, read from the environment that template.yaml sets.

Parsed once, lazily, on first use and never at import time, so the local stack and the tests
can provision resources first and export their names afterwards (``reset_config`` drops the
cache together with the AWS clients built from it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache


class ConfigError(RuntimeError):
    """A required environment variable is missing or malformed."""


@dataclass(frozen=True)
class Config:
    """Everything a function needs to know about its stack."""

    region: str
    table_name: str
    seed_key_id: str
    schedule_group: str
    scheduler_role_arn: str
    expiry_function_arn: str
    schedule_dlq_arn: str
    user_pool_id: str
    user_pool_client_id: str
    guest_token_ttl_s: int
    idempotency_ttl_s: int
    max_body_bytes: int
    cognito_endpoint: str
    guest_limit_per_minute: int = 20
    avatar_bucket: str = ""
    """Only the avatar functions are given the bucket (``AVATAR_BUCKET``); empty elsewhere."""
    export_bucket: str = ""
    """Only the monthly export functions are given their bucket (``EXPORT_BUCKET``)."""
    live_endpoint: str = ""
    """The WebSocket API's management endpoint (``LIVE_API_ENDPOINT``), for the fan-out only."""
    event_bus_name: str = ""
    """The stack's own EventBridge bus (``EVENT_BUS_NAME``), for the fan-out only."""
    web_app_url: str = ""
    """Where the web client is (``WEB_APP_URL``; the share page links back into it); empty: this
    same origin."""
    cursor_key: str = ""
    """The key pagination cursors are signed with (``CURSOR_KEY``), for the list functions only."""

    @property
    def issuer(self) -> str:
        """The ``iss`` claim of the pool's tokens: always the AWS URL, even on a local endpoint."""
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.user_pool_id}"

    @property
    def jwks_url(self) -> str:
        """Where the pool publishes its signing keys (the local endpoint when there is one)."""
        return f"{self.cognito_endpoint.rstrip('/')}/{self.user_pool_id}/.well-known/jwks.json"


def _required(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise ConfigError(f"environment variable {name} is not set")
    return value


def _integer(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"environment variable {name} must be an integer") from None


@cache
def get_config() -> Config:
    """The configuration, parsed from ``os.environ`` on first call."""
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    endpoint = (
        os.environ.get("AWS_ENDPOINT_URL_COGNITO_IDP")
        or os.environ.get("AWS_ENDPOINT_URL")
        or f"https://cognito-idp.{region}.amazonaws.com"
    )
    return Config(
        region=region,
        table_name=_required("TABLE_NAME"),
        seed_key_id=_required("SEED_KEY_ID"),
        schedule_group=_required("SCHEDULE_GROUP"),
        scheduler_role_arn=_required("SCHEDULER_ROLE_ARN"),
        expiry_function_arn=_required("EXPIRY_FUNCTION_ARN"),
        schedule_dlq_arn=_required("SCHEDULE_DLQ_ARN"),
        user_pool_id=_required("USER_POOL_ID"),
        user_pool_client_id=_required("USER_POOL_CLIENT_ID"),
        guest_token_ttl_s=_integer("GUEST_TOKEN_TTL_S", 7 * 86400),
        idempotency_ttl_s=_integer("IDEMPOTENCY_TTL_S", 86400),
        max_body_bytes=_integer("MAX_BODY_BYTES", 16384),
        cognito_endpoint=endpoint,
        guest_limit_per_minute=_integer("GUEST_LIMIT_PER_MINUTE", 20),
        avatar_bucket=os.environ.get("AVATAR_BUCKET", ""),
        export_bucket=os.environ.get("EXPORT_BUCKET", ""),
        live_endpoint=os.environ.get("LIVE_API_ENDPOINT", ""),
        event_bus_name=os.environ.get("EVENT_BUS_NAME", ""),
        web_app_url=os.environ.get("WEB_APP_URL", "").rstrip("/"),
        cursor_key=os.environ.get("CURSOR_KEY", ""),
    )


def reset_config() -> None:
    """Forget the parsed configuration and every client built from it."""
    from . import auth, aws  # noqa: PLC0415  (avoids an import cycle; both read the config)

    get_config.cache_clear()
    aws.reset_clients()
    auth.reset_keys()
