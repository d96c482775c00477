"""SQS -> Lambda for the local stack: what an SQS event source mapping does.

moto keeps queues (delays, visibility timeouts, redrive to a dead-letter queue after
``maxReceiveCount`` receipts) but never invokes a function from one. This poller does, for
each function of the template with an ``SQS`` event:

- it receives up to ``BatchSize`` (at most 10) messages as soon as one is sent (the moto patch
  tells it: ``on_queue_write``), with every attribute, and invokes the function with them in
  Lambda's record format (``messageId``,
  ``receiptHandle``, ``body``, ``attributes``, ``eventSource: aws:sqs``, ...);
- a function that returns deletes its batch, except the messages it names in
  ``batchItemFailures`` when the event says ``FunctionResponseTypes: [ReportBatchItemFailures]``;
  a function that raises deletes nothing. What is not deleted becomes visible again after the
  queue's visibility timeout, and moto moves it to the dead-letter queue after
  ``maxReceiveCount`` receipts: Lambda's and SQS's own semantics, with real time (moto's).

Receives never wait (``WaitTimeSeconds`` 0): the local stack serializes moto, and a long poll
would hold every other AWS call. With nothing sent the poller backs off from ``BUSY_POLL_S`` to
``IDLE_POLL_S`` between receives: a message that becomes visible on its own (a visibility
timeout running out, a delay) is still received within that, and an idle stack no longer
spends a tenth of a core receiving nothing ten times a second from each queue.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import boto3

from mineduel.template import Template

from . import moto_patch

LOG = logging.getLogger("mineduel-local.queues")
MAX_BATCH = 10
BUSY_POLL_S = 0.1
IDLE_POLL_S = 2.0

Deliver = Callable[[str, dict[str, Any]], Any]
"""Invoke a function (logical id) synchronously with an event; raises if the function failed."""


def lambda_record(message: dict[str, Any], queue_arn: str, region: str) -> dict[str, Any]:
    """A received SQS message in the shape Lambda's event carries it."""
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message["Body"],
        "attributes": dict(message.get("Attributes") or {}),
        "messageAttributes": dict(message.get("MessageAttributes") or {}),
        "md5OfBody": message.get("MD5OfBody", ""),
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": region,
    }


class QueuePoller:
    """Feeds one function from one queue; :meth:`run_now` drains what is visible at once."""

    def __init__(
        self,
        function: str,
        queue_url: str,
        queue_arn: str,
        region: str,
        deliver: Deliver,
        *,
        batch_size: int = MAX_BATCH,
        partial_failures: bool = False,
    ) -> None:
        self.function = function
        self._url = queue_url
        self._arn = queue_arn
        self._region = region
        self._deliver = deliver
        self._batch = max(1, min(MAX_BATCH, batch_size))
        self._partial = partial_failures
        self._client = boto3.client("sqs", region_name=region)
        self._lock = threading.Lock()
        self._sent = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="queue-poller", daemon=True)
        self._unlisten: Callable[[], None] | None = None

    def wake(self) -> None:
        """Something was sent (or made visible): receive now. Only signals (moto's thread)."""
        self._sent.set()

    def _run(self) -> None:
        pause = BUSY_POLL_S
        while not self._stop.is_set():
            woken = self._sent.wait(pause)
            if self._stop.is_set():
                return
            self._sent.clear()
            try:
                delivered = self.run_now()
            except Exception:
                LOG.exception("queue poll failed")
                delivered = 0
            pause = BUSY_POLL_S if woken or delivered else min(IDLE_POLL_S, pause * 2)

    def run_now(self) -> int:
        """Receive and deliver until the queue shows nothing more; how many messages were
        delivered (successfully or not)."""
        with self._lock:
            delivered = 0
            while True:
                answer = self._client.receive_message(
                    QueueUrl=self._url,
                    MaxNumberOfMessages=self._batch,
                    WaitTimeSeconds=0,
                    AttributeNames=["All"],
                    MessageAttributeNames=["All"],
                )
                messages: list[dict[str, Any]] = [dict(m) for m in answer.get("Messages") or []]
                if not messages:
                    return delivered
                delivered += len(messages)
                self._deliver_batch(messages)

    def _deliver_batch(self, messages: list[dict[str, Any]]) -> None:
        records = [lambda_record(m, self._arn, self._region) for m in messages]
        try:
            result = self._deliver(self.function, {"Records": records})
        except Exception:
            LOG.exception("%s failed on a batch of %d messages", self.function, len(records))
            return  # nothing deleted: each comes back after the visibility timeout
        failed: set[str] = set()
        if self._partial and isinstance(result, dict):
            failed = {
                str(item.get("itemIdentifier"))
                for item in result.get("batchItemFailures") or []
                if isinstance(item, dict)
            }
        done: list[Any] = [
            {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
            for i, m in enumerate(messages)
            if m["MessageId"] not in failed
        ]
        if done:
            self._client.delete_message_batch(QueueUrl=self._url, Entries=done)

    def start(self) -> QueuePoller:
        """Poll in a daemon thread, woken by every send to this process's moto."""
        self._unlisten = moto_patch.on_queue_write(self.wake)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop polling after the current poll."""
        if self._unlisten is not None:
            self._unlisten()
        self._stop.set()
        self._sent.set()
        if self._thread.is_alive():
            self._thread.join()


def queue_pollers(
    template: Template,
    queue_of: Callable[[Any], tuple[str, str]],
    region: str,
    deliver: Deliver,
) -> list[QueuePoller]:
    """A poller for every ``SQS`` event of the template's functions; ``queue_of`` gives a
    queue's URL and ARN from the event's ``Queue`` expression."""
    found = []
    for logical_id, fn in template.functions.items():
        for event in fn.properties.get("Events", {}).values():
            if event.get("Type") != "SQS":
                continue
            props = event["Properties"]
            url, arn = queue_of(props["Queue"])
            found.append(
                QueuePoller(
                    logical_id,
                    url,
                    arn,
                    region,
                    deliver,
                    batch_size=int(props.get("BatchSize", MAX_BATCH)),
                    partial_failures="ReportBatchItemFailures"
                    in (props.get("FunctionResponseTypes") or []),
                )
            )
    return found
