"""The local SQS trigger sleeps while nothing is sent: an idle stack once received from every
queue ten times a second (6.7% of a core with nobody playing). It backs off between empty
receives, and a send to the embedded moto wakes it at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from mineduel.local.moto_server import EmbeddedMoto
from mineduel.local.queues import IDLE_POLL_S, QueuePoller

REGION = "us-east-1"
IDLE_S = 3.0
"""Long enough for the back-off to reach its longest pause (0.1 + 0.2 + 0.4 + 0.8 + 1.6 s)."""


@pytest.fixture(scope="module")
def moto() -> Iterator[EmbeddedMoto]:
    server = EmbeddedMoto().start()
    yield server
    server.stop()


def test_an_idle_poller_backs_off_and_a_send_wakes_it(
    moto: EmbeddedMoto, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "AWS_ENDPOINT_URL": moto.endpoint_url,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
    }.items():
        monkeypatch.setenv(name, value)
    sqs: Any = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="notices")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    bodies: list[str] = []
    delivered = threading.Event()

    def deliver(function: str, event: dict[str, Any]) -> None:
        assert function == "NotifyDeliverFunction"
        bodies.extend(record["body"] for record in event["Records"])
        delivered.set()

    poller = QueuePoller("NotifyDeliverFunction", url, arn, REGION, deliver)
    receives: list[object] = []
    poller._client.meta.events.register(
        "before-call.sqs.ReceiveMessage", lambda **_: receives.append(None)
    )
    poller.start()
    try:
        threading.Event().wait(IDLE_S)
        assert 3 <= len(receives) <= 6, receives  # at 0.1 s apart it would be 30
        sqs.send_message(QueueUrl=url, MessageBody="your turn")
        assert delivered.wait(IDLE_POLL_S * 0.75), "the send did not wake the poller"
        assert bodies == ["your turn"]
    finally:
        poller.stop()
    assert not sqs.receive_message(QueueUrl=url).get("Messages")  # delivered, then deleted
