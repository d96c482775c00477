"""The delivery function: notices from the queue to players' browsers and devices.

For each queued message (one notice for one player, ``outbox.Message``):

1. read the player's preferences and subscriptions (one ``Query``); nothing to do when the
   player has none, or turned this type off (``settings.notify``);
2. take the notice (``store.claim``): a notice is delivered at most once, however often its
   stream record or message arrives;
3. send the payload (JSON, at most 3 KB: docs/api.md) to each subscription: Web Push to a
   browser (``webpush``), SNS to a device (``mobile``). A push service that says the
   subscription is gone (404/410; SNS: the endpoint is disabled) ends it there and then; one
   that asks to be tried later gets a retry of this notice for those subscriptions alone,
   after a delay (``outbox.retry``), and the dead-letter queue once retries are used up.

A message whose handling raises (DynamoDB, Parameter Store unreachable) is reported failed
(``batchItemFailures``): SQS makes it visible again after the queue's visibility timeout and
moves it to the dead-letter queue after ``maxReceiveCount`` receipts (template.yaml).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..platform import clock
from ..platform.config import get_config
from ..platform.observability import count, logger
from . import mobile, store, webpush
from .endpoints import check_endpoint
from .notices import Notice
from .outbox import Message, retry
from .store import PushSubscription


@dataclass
class DeliveryReport:
    """What one batch of messages did (returned by the handler, read by tests)."""

    sent: int = 0
    gone: int = 0
    retried: int = 0
    refused: int = 0
    muted: int = 0
    duplicates: int = 0
    failures: list[str] = field(default_factory=list)
    """The SQS message ids to be delivered again (``batchItemFailures``)."""


def handle(records: Iterable[dict[str, Any]]) -> DeliveryReport:
    """Deliver one batch of SQS records."""
    report = DeliveryReport()
    for record in records:
        message_id = str(record.get("messageId", ""))
        try:
            deliver(Message.parse(str(record["body"])), message_id, report)
        except Exception as exc:
            report.failures.append(message_id)
            count("NotificationFailures")
            logger.error("notification not delivered", extra={"error": type(exc).__name__})
    for name, value in (
        ("NotificationsSent", report.sent),
        ("PushSubscriptionsGone", report.gone),
        ("NotificationsRefused", report.refused),
    ):
        if value:
            count(name, value)
    return report


def payload_of(notice: Notice) -> dict[str, Any]:
    """What the browser's service worker and the apps receive (docs/api.md): public facts,
    the words to show, and the link to the web client's screen."""
    base = get_config().web_app_url
    return {
        "type": notice.type,
        "game_id": notice.game_id,
        "move_count": notice.move_count,
        "deadline": notice.deadline,
        "title": notice.title,
        "body": notice.body,
        "url": f"{base}/{notice.path}" if base else notice.path,
    }


def encoded(payload: dict[str, Any]) -> bytes:
    """The payload as UTF-8 JSON within ``webpush.MAX_PAYLOAD_BYTES`` (a body too long for
    it is shortened: the link and the facts always fit)."""
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if len(data) <= webpush.MAX_PAYLOAD_BYTES:
        return data
    short = {**payload, "body": str(payload["body"])[:200] + "…"}
    return json.dumps(short, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def wants(settings: dict[str, Any] | None, notice_type: str) -> bool:
    """The player's choice for this type (every type is on until turned off)."""
    chosen = (settings or {}).get("notify") or {}
    return bool(chosen.get(notice_type, True))


def deliver(message: Message, message_id: str, report: DeliveryReport) -> None:
    """Deliver one message; see the module docstring."""
    notice = message.notice
    profile, subs = store.player_push(notice.player_id)
    if message.only is not None:
        subs = [s for s in subs if s.subscription_id in message.only]
    if not subs:
        return
    if not wants(profile.settings if profile else None, notice.type):
        report.muted += 1
        count("NotificationsMuted")
        return
    now = clock.now()
    if message.attempt == 0 and not store.claim(notice.player_id, notice.key, message_id, now):
        report.duplicates += 1
        count("NotificationsDuplicate")
        return
    payload = payload_of(notice)
    again: list[str] = []
    for sub in subs:
        # The VAPID JWT's expiry is checked by the push service against its own clock: the
        # wall clock's time, not the service's (which the local stack can move on).
        outcome = _send(sub, notice, payload, time.time())
        if outcome == "sent":
            report.sent += 1
        elif outcome == "gone":
            report.gone += 1
            _end(sub)
        elif outcome == "retry":
            again.append(sub.subscription_id)
        else:
            report.refused += 1
            logger.warning("push refused", extra={"kind": sub.kind, "type": notice.type})
    if again:
        report.retried += len(again)
        retry(message, again)


def _send(sub: PushSubscription, notice: Notice, payload: dict[str, Any], now: float) -> str:
    if sub.kind == "web":
        try:
            check_endpoint(sub.endpoint, allow_loopback=get_config().push_allow_loopback)
        except Exception:
            return "refused"  # stored before a stricter rule: never requested
        answer = webpush.send(
            webpush.WebSubscription(sub.endpoint, sub.p256dh, sub.auth),
            encoded(payload),
            ttl_s=notice.ttl_s,
            urgency=notice.urgency,
            topic=notice.topic,
            now=now,
        )
        return answer.outcome
    return mobile.publish(sub.endpoint_arn, notice, payload)


def _end(sub: PushSubscription) -> None:
    """The push service disowned the subscription: it goes (its SNS endpoint too)."""
    store.remove(sub)
    if sub.kind != "web":
        try:
            mobile.unregister(sub.endpoint_arn)
        except Exception as exc:
            logger.warning("platform endpoint not deleted", extra={"error": type(exc).__name__})
