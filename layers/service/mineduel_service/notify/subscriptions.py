"""A player's browsers and devices for notifications: ``/v1/me/push-subscriptions``.

Accounts only (a guest is 403 ``accounts-only``). A browser subscribes with what
``PushSubscription.toJSON()`` gives: its endpoint (only ``https`` on a known push service,
``endpoints``) and keys (checked to be a P-256 point and a 16-byte secret); a phone with its
APNs or FCM token, which becomes an SNS platform endpoint. The same endpoint or token again
is the same subscription (200, its keys replaced); a new one is 201, and the eleventh is 409
``too-many-subscriptions``. An endpoint or token is one player's at a time: the browser or
phone someone else signs in on and subscribes is theirs from then on, and no longer tells the
player before (``store.add``). The list never shows keys or tokens.
"""

from __future__ import annotations

from typing import Any

from ..contract.push import PushSubscriptionRequest
from ..people.identity import account_only
from ..platform import auth, clock, pagination
from ..platform.config import get_config
from . import mobile, store
from .endpoints import check_endpoint, push_service
from .errors import PushKeysInvalid, PushKindUnavailable, SubscriptionNotFound
from .store import PushSubscription
from .webpush import check_keys


def view(sub: PushSubscription) -> dict[str, Any]:
    """What the player sees of a subscription."""
    return {
        "subscription_id": sub.subscription_id,
        "kind": sub.kind,
        "created_at": sub.created_at,
        "updated_at": sub.updated_at,
        "push_service": push_service(sub.endpoint) if sub.kind == "web" else None,
    }


def add(caller: auth.Caller, request: PushSubscriptionRequest) -> tuple[dict[str, Any], bool]:
    """``POST /v1/me/push-subscriptions``: the subscription, and whether it is new."""
    player_id = account_only(caller).player_id
    now = clock.iso(clock.now())
    if request.kind == "web":
        if request.endpoint is None or request.keys is None:  # the model refuses it first
            raise PushKeysInvalid()
        endpoint = check_endpoint(request.endpoint, allow_loopback=get_config().push_allow_loopback)
        try:
            check_keys(request.keys.p256dh, request.keys.auth)
        except ValueError:
            raise PushKeysInvalid() from None
        sub = PushSubscription(
            player_id=player_id,
            subscription_id=store.subscription_id("web", endpoint),
            kind="web",
            created_at=now,
            updated_at=now,
            endpoint=endpoint,
            p256dh=request.keys.p256dh.rstrip("="),
            auth=request.keys.auth.rstrip("="),
        )
        return view(sub), store.add(sub)
    kind = request.kind
    if request.device_token is None:  # the model refuses it first
        raise PushKindUnavailable()
    mobile.application_arn(kind)  # 422 before anything is made, on a stack without it
    arn = mobile.register(kind, request.device_token, player_id)
    sub = PushSubscription(
        player_id=player_id,
        subscription_id=store.subscription_id(kind, request.device_token),
        kind=kind,
        created_at=now,
        updated_at=now,
        device_token=request.device_token,
        endpoint_arn=arn,
    )
    return view(sub), store.add(sub)


LIST = "push-subscriptions"
"""The list's name in its cursors (``platform.pagination``)."""


def list_page(caller: auth.Caller, cursor: str | None, limit: int) -> dict[str, Any]:
    """``GET /v1/me/push-subscriptions``: a page of at most ``limit``, in id order."""
    player_id = account_only(caller).player_id
    position = pagination.decode(LIST, cursor)
    after = None if position is None else position.get("after")
    if position is not None and (not isinstance(after, str) or not 0 < len(after) < 64):
        raise pagination.bad_cursor()
    found, last = store.subscriptions_page(player_id, limit, after)
    following = None if last is None else pagination.encode(LIST, {"after": last})
    return {"subscriptions": [view(s) for s in found], "next": following}


def remove(caller: auth.Caller, subscription_id: str) -> None:
    """``DELETE /v1/me/push-subscriptions/{subscription_id}`` (a device's SNS endpoint too)."""
    player_id = account_only(caller).player_id
    sub = store.get_subscription(player_id, subscription_id) if len(subscription_id) < 64 else None
    if sub is None or not store.remove(sub):
        raise SubscriptionNotFound()
    if sub.kind != "web":
        mobile.unregister(sub.endpoint_arn)
