"""A player's push subscriptions, as items of the player's partition (docs/data-model.md).

- ``PLAYER#<id>`` / ``PUSH#<subscription id>``: one browser (``web``: its endpoint and keys)
  or one device (``apns``/``fcm``: its token and SNS platform endpoint). The id is derived
  from the kind and the endpoint or token, so the same browser or device subscribing again
  finds its own item (the same subscription, new keys replacing the old);
- ``PLAYER#<id>`` / ``PUSH``: how many there are. Adding one is a transaction with that count,
  conditioned on it being under ``MAX_SUBSCRIPTIONS``, so the limit holds however many
  requests race; removing one takes the count down in the same way;
- ``PLAYER#<id>`` / ``NOTIFIED#<notice key>``: a notice taken for delivery (at most once),
  lapsing by TTL;
- ``PUSHADDR#<subscription id>`` / ``OWNER``: whose the endpoint or token is. One player's at
  a time: when someone else signs in on a browser or phone and subscribes it, it is taken from
  the player who had it (their subscription goes), so it never tells two accounts' news. Every
  subscription is written in one transaction with it, conditioned on it naming nobody else.

The profile sorts right before them (``PROFILE`` < ``PUSH`` < ``PUSH#...``): the delivery
reads a player's preferences and subscriptions in one ``Query`` (``player_push``).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from ..people.profiles import Profile
from ..people.store import parse_profile
from ..platform import clock, dynamo, keys
from .errors import SubscriptionConflict, TooManySubscriptions
from .vapid import b64url

MAX_SUBSCRIPTIONS = 10
ADD_ATTEMPTS = 8
"""Looks at an address before a subscription gives up racing for it: each lost look means
another player's subscription of it landed meanwhile (two racing settle within two looks)."""
NOTIFIED_TTL = timedelta(days=30)

Kind = Literal["web", "apns", "fcm"]
KINDS: tuple[Kind, ...] = ("web", "apns", "fcm")


@dataclass(frozen=True)
class PushSubscription:
    """One browser or device that a player's notifications go to."""

    player_id: str
    subscription_id: str
    kind: Kind
    created_at: str
    updated_at: str
    endpoint: str = ""
    """A browser's Web Push endpoint (``web``)."""
    p256dh: str = ""
    auth: str = ""
    device_token: str = ""
    """A device's APNs or FCM token (``apns``/``fcm``)."""
    endpoint_arn: str = ""
    """The SNS platform endpoint of the device token."""

    def evolve(self, **changes: Any) -> PushSubscription:
        return replace(self, **changes)


def subscription_id(kind: Kind, address: str) -> str:
    """The id of the subscription of ``address`` (an endpoint or a device token): the same
    address is always the same subscription."""
    digest = hashlib.sha256(f"{kind}\n{address}".encode()).digest()
    return b64url(digest[:16])


def _item(sub: PushSubscription) -> dict[str, Any]:
    item: dict[str, Any] = {
        **keys.push_subscription(sub.player_id, sub.subscription_id),
        "kind": {"S": sub.kind},
        "created_at": {"S": sub.created_at},
        "updated_at": {"S": sub.updated_at},
    }
    for name in ("endpoint", "p256dh", "auth", "device_token", "endpoint_arn"):
        value = getattr(sub, name)
        if value:
            item[name] = {"S": value}
    return item


def parse_subscription(item: dict[str, Any]) -> PushSubscription:
    """A subscription from its item."""

    def text(name: str) -> str:
        return str(item.get(name, {}).get("S", ""))

    return PushSubscription(
        player_id=keys.player_id_of(item),
        subscription_id=str(item["sk"]["S"]).removeprefix(keys.PUSH_SK),
        kind=text("kind"),  # type: ignore[arg-type]
        created_at=text("created_at"),
        updated_at=text("updated_at"),
        endpoint=text("endpoint"),
        p256dh=text("p256dh"),
        auth=text("auth"),
        device_token=text("device_token"),
        endpoint_arn=text("endpoint_arn"),
    )


def get_subscription(player_id: str, sub_id: str) -> PushSubscription | None:
    """One of the player's subscriptions (consistent read)."""
    found = dynamo.get(keys.push_subscription(player_id, sub_id))
    return parse_subscription(found) if found else None


def subscriptions_page(
    player_id: str, limit: int, after: str | None = None
) -> tuple[list[PushSubscription], str | None]:
    """A page of the player's subscriptions in id order, after the one ``after`` names, and
    the id the next page starts after (None on the last page). One consistent ``Query`` of
    ``limit`` + 1 items: the one more only tells whether a page follows, so the last page
    never hands out a cursor to an empty one."""
    partition = keys.player_partition(player_id)
    start = keys.push_subscription(player_id, after) if after is not None else None
    items, _ = dynamo.query_page(
        "pk = :pk AND begins_with(sk, :push)",
        {":pk": {"S": partition}, ":push": {"S": keys.PUSH_SK}},
        consistent=True,
        limit=limit + 1,
        start=start,
    )
    page = [parse_subscription(item) for item in items[:limit]]
    return page, page[-1].subscription_id if len(items) > limit else None


def player_push(player_id: str) -> tuple[Profile | None, list[PushSubscription]]:
    """The player's profile (their preferences) and subscriptions, in one eventually
    consistent ``Query`` from the profile to the last subscription."""
    low, high = keys.push_range()
    profile: Profile | None = None
    subs: list[PushSubscription] = []
    for item in dynamo.query(
        "pk = :pk AND sk BETWEEN :low AND :high",
        {
            ":pk": {"S": keys.player_partition(player_id)},
            ":low": {"S": low},
            ":high": {"S": high},
        },
    ):
        sk = str(item["sk"]["S"])
        if sk == keys.PROFILE_SK:
            profile = parse_profile(player_id, item)
        elif sk.startswith(keys.PUSH_SK):
            subs.append(parse_subscription(item))
    return profile, subs


def owner_of(subscription_id: str) -> str | None:
    """The player whose endpoint or token this is now (consistent read)."""
    found = dynamo.get(keys.push_owner(subscription_id))
    return str(found["player_id"]["S"]) if found else None


def add(sub: PushSubscription) -> bool:
    """Store a new subscription, or the newer keys of one the player has (the same endpoint
    or token); True when it is new. An endpoint or token that was another player's (someone
    else signed in on that browser or phone) is taken from them first. ``TooManySubscriptions``
    when a new one would be the eleventh; ``SubscriptionConflict`` when other requests claimed
    the address every time this one looked (a retry then finds it settled)."""
    claim_address = dynamo.put_op(
        {**keys.push_owner(sub.subscription_id), "player_id": {"S": sub.player_id}},
        condition="attribute_not_exists(pk) OR player_id = :me",
        values={":me": {"S": sub.player_id}},
    )
    for _ in range(ADD_ATTEMPTS):
        owner = owner_of(sub.subscription_id)
        if owner is not None and owner != sub.player_id:
            _take_from(owner, sub.subscription_id)
        existing = get_subscription(sub.player_id, sub.subscription_id)
        try:
            if existing is not None:
                newer = _item(sub.evolve(created_at=existing.created_at))
                dynamo.transact(
                    [dynamo.put_op(newer, condition="attribute_exists(pk)"), claim_address]
                )
                return False
            dynamo.transact(
                [
                    dynamo.new_item_op(_item(sub)),
                    dynamo.update_op(
                        keys.push_count(sub.player_id),
                        "ADD subscriptions :one",
                        condition="attribute_not_exists(subscriptions) OR subscriptions < :max",
                        values={":one": {"N": "1"}, ":max": {"N": str(MAX_SUBSCRIPTIONS)}},
                    ),
                    claim_address,
                ]
            )
            return True
        except dynamo.WriteConflict as exc:
            if existing is None and exc.failed(1):
                raise TooManySubscriptions() from None
            # It came or went meanwhile (the same browser subscribing twice at once), or
            # another player took the address: look again.
    raise SubscriptionConflict()


def _take_from(owner: str, subscription_id: str) -> None:
    """The address is someone else's now: the subscription of the player who had it goes
    (its SNS endpoint stays: the device is the new player's)."""
    theirs = get_subscription(owner, subscription_id)
    if theirs is not None:
        remove(theirs)
    else:  # an owner item whose subscription went without it
        _release(owner, subscription_id)


def remove(sub: PushSubscription) -> bool:
    """Remove a subscription and count it out (one transaction), then let its address go
    (unless another player holds it already); False when it was gone."""
    try:
        dynamo.transact(
            [
                dynamo.delete_op(
                    keys.push_subscription(sub.player_id, sub.subscription_id),
                    condition="attribute_exists(pk)",
                ),
                dynamo.update_op(
                    keys.push_count(sub.player_id),
                    "ADD subscriptions :minus",
                    condition="subscriptions > :zero",
                    values={":minus": {"N": "-1"}, ":zero": {"N": "0"}},
                ),
            ]
        )
    except dynamo.WriteConflict as exc:
        if exc.failed(0):
            return False
        if not exc.failed(1):
            raise
        # a count out of step (never below zero): the item still goes
        dynamo.delete(keys.push_subscription(sub.player_id, sub.subscription_id))
    _release(sub.player_id, sub.subscription_id)
    return True


def _release(player_id: str, subscription_id: str) -> None:
    """Delete the address's owner item if it still names ``player_id`` (one conditional
    ``DeleteItem``; someone who took it since keeps it)."""
    with contextlib.suppress(dynamo.WriteConflict):
        dynamo.delete(
            keys.push_owner(subscription_id),
            condition="player_id = :me",
            values={":me": {"S": player_id}},
        )


def claim(player_id: str, notice_key: str, message_id: str, now: datetime) -> bool:
    """Take a notice for delivery, at most once (one conditional ``PutItem``): False when it
    was taken already by another message (a stream record delivered twice, a message the
    queue delivered twice). The same message taken again (its earlier attempt failed before
    anything was sent) may go on."""
    item = {
        **keys.notified(player_id, notice_key),
        "message_id": {"S": message_id},
        "expires_ttl": {"N": str(int((now + NOTIFIED_TTL).timestamp()))},
    }
    try:
        dynamo.put(
            item,
            condition="attribute_not_exists(pk) OR message_id = :message",
            values={":message": {"S": message_id}},
        )
    except dynamo.WriteConflict:
        return False
    return True


def now_iso() -> str:
    return clock.iso(clock.now())
