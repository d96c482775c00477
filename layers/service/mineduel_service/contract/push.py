"""Request and response models of notifications (``/v1/push/vapid-key``,
``/v1/me/push-subscriptions``)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from .base import RequestModel as _Request
from .base import ResponseModel as _Response

PushKind = Literal["web", "apns", "fcm"]
BASE64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class PushKeysIn(_Request):
    """A browser's keys (``PushSubscription.toJSON().keys``), base64url."""

    p256dh: str = Field(min_length=80, max_length=100, pattern=BASE64URL)
    auth: str = Field(min_length=16, max_length=32, pattern=BASE64URL)


class PushSubscriptionRequest(_Request):
    """``POST /v1/me/push-subscriptions``: a browser's ``PushSubscription.toJSON()`` with
    ``"kind": "web"`` (its ``expirationTime`` is ignored), or a device's token with
    ``"kind": "apns"`` or ``"fcm"``. The document says which fields each kind needs
    (``oneOf``), so a client generated from it cannot send a body the server refuses."""

    model_config = ConfigDict(
        strict=True,
        extra="ignore",
        defer_build=True,
        json_schema_extra={
            "oneOf": [
                {
                    # Only what tells the kinds apart, and that the fields are not null: their
                    # own schemas are the model's (inline copies here make generators emit the
                    # keys' model twice).
                    "properties": {
                        "kind": {"const": "web"},
                        "endpoint": {"not": {"type": "null"}},
                        "keys": {"not": {"type": "null"}},
                    },
                    "required": ["kind", "endpoint", "keys"],
                },
                {
                    "properties": {
                        "kind": {"enum": ["apns", "fcm"]},
                        "device_token": {"not": {"type": "null"}},
                    },
                    "required": ["kind", "device_token"],
                },
            ]
        },
    )

    kind: PushKind
    endpoint: str | None = Field(
        default=None,
        min_length=1,
        max_length=2048,
        description="web: the push service's URL for this browser (https on a known push "
        "service, else 422 push-endpoint-not-allowed)",
    )
    keys: PushKeysIn | None = None
    device_token: str | None = Field(
        default=None,
        min_length=1,
        max_length=4096,
        pattern=r"^[A-Za-z0-9_:.\-]+$",
        description="apns, fcm: the device token the platform gave the app",
    )

    @model_validator(mode="after")
    def _fits_kind(self) -> PushSubscriptionRequest:
        if self.kind == "web" and (self.endpoint is None or self.keys is None):
            raise ValueError("a web subscription needs endpoint and keys")
        if self.kind != "web" and self.device_token is None:
            raise ValueError("a mobile subscription needs device_token")
        return self


class PushSubscriptionOut(_Response):
    """One browser or device the caller's notifications go to (never its keys)."""

    subscription_id: str
    kind: PushKind
    created_at: str
    updated_at: str
    push_service: str | None = Field(
        default=None, description="web: the host of the browser's push service"
    )


class PushSubscriptionsOut(_Response):
    """Every browser and device of the caller's (at most 10: one page)."""

    subscriptions: list[PushSubscriptionOut]
    next: str | None = None


class VapidKeyOut(_Response):
    """The application server key (RFC 8292) a browser subscribes with."""

    public_key: str = Field(description="base64url, an uncompressed P-256 point (65 bytes)")
