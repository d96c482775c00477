"""The queue of notifications to deliver (SQS), behind the table's stream.

The fan-out (``live.fanout``) puts the notices a change of a game calls for here, ten to a
``SendMessageBatch``, and returns to the sockets; the delivery function (``delivery``) takes
them from the queue, so a slow or failing push service holds up neither a move nor a live
message. A message is one notice for one player, with the attempt it is on and, for a retry,
the subscriptions still to be reached (``only``); a retry is sent again with a delay
(``RETRY_DELAYS_S``), and one out of attempts goes to the dead-letter queue, which an alarm
watches (template.yaml).

Quick pairing tells its players the same way: ``send(notices.paired(game))`` once the game
is stored (docs/notifications.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..platform import aws
from ..platform.config import get_config
from ..platform.observability import count, logger
from .notices import Notice

BATCH = 10
"""``SendMessageBatch`` takes ten messages a call."""
RETRY_DELAYS_S = (5, 60, 300, 900)
"""The delay before each retry of a notice whose push service asked for one (429, a 5xx,
no answer): four retries within about 20 minutes, then the dead-letter queue."""


@dataclass(frozen=True)
class Message:
    """One queued notification."""

    notice: Notice
    attempt: int = 0
    only: tuple[str, ...] | None = None
    """The subscriptions a retry is for (None: every subscription of the player)."""

    def body(self) -> str:
        data: dict[str, Any] = {"notice": self.notice.to_dict(), "attempt": self.attempt}
        if self.only is not None:
            data["only"] = list(self.only)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def parse(cls, body: str) -> Message:
        data = json.loads(body)
        only = data.get("only")
        return cls(
            notice=Notice.from_dict(data["notice"]),
            attempt=int(data.get("attempt", 0)),
            only=tuple(str(s) for s in only) if only is not None else None,
        )


def send(notices: Sequence[Notice]) -> int:
    """Queue ``notices`` (ten a call); how many were queued. A batch entry SQS refuses is
    tried once more, then counted (``NotificationsNotQueued``) and logged: never raised, the
    fan-out's other work goes on."""
    url = get_config().notify_queue_url
    if not notices or not url:
        return 0
    queued = 0
    for start in range(0, len(notices), BATCH):
        entries = [
            {"Id": str(i), "MessageBody": Message(n).body()}
            for i, n in enumerate(notices[start : start + BATCH])
        ]
        for _ in range(2):
            answer: dict[str, Any]
            try:
                answer = dict(aws.sqs().send_message_batch(QueueUrl=url, Entries=entries))  # type: ignore[arg-type]
            except Exception as exc:
                logger.warning("notifications not queued", extra={"error": type(exc).__name__})
                answer = {"Successful": [], "Failed": [{"Id": e["Id"]} for e in entries]}
            queued += len(answer.get("Successful", []))
            failed = {str(f["Id"]) for f in answer.get("Failed", [])}
            entries = [e for e in entries if e["Id"] in failed]
            if not entries:
                break
        if entries:
            count("NotificationsNotQueued", len(entries))
            logger.error("notifications lost", extra={"count": len(entries)})
    if queued:
        count("NotificationsQueued", queued)
    return queued


def retry(message: Message, only: Sequence[str]) -> bool:
    """Queue ``message`` again for the subscriptions ``only``, after the next delay; False
    when it is out of attempts (then it is in the dead-letter queue)."""
    config = get_config()
    if message.attempt >= len(RETRY_DELAYS_S):
        aws.sqs().send_message(
            QueueUrl=config.notify_dead_letter_url,
            MessageBody=Message(message.notice, message.attempt, tuple(only)).body(),
        )
        count("NotificationsAbandoned")
        return False
    again = Message(message.notice, message.attempt + 1, tuple(only))
    aws.sqs().send_message(
        QueueUrl=config.notify_queue_url,
        MessageBody=again.body(),
        DelaySeconds=RETRY_DELAYS_S[message.attempt],
    )
    count("NotificationsRetried")
    return True
