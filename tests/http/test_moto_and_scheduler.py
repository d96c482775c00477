"""The embedded moto server (serialized) and the scheduler loop, on a real moto server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from mineduel.local.moto_server import EmbeddedMoto
from mineduel.local.scheduler import SchedulerLoop, due_time

GROUP = "turns"
TARGET = "arn:aws:lambda:us-east-1:123456789012:function:stack-ExpireTurn"
START = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def moto() -> Iterator[EmbeddedMoto]:
    server = EmbeddedMoto().start()
    yield server
    server.stop()


def _client(moto: EmbeddedMoto, service: str) -> Any:
    return boto3.client(  # type: ignore[call-overload]
        service,
        endpoint_url=moto.endpoint_url,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def test_concurrent_conditional_writes_on_the_embedded_moto_have_one_winner(
    moto: EmbeddedMoto,
) -> None:
    ddb = _client(moto, "dynamodb")
    ddb.create_table(
        TableName="race",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.put_item(TableName="race", Item={"pk": {"S": "g"}, "v": {"N": "0"}})
    outcomes: list[str] = []
    barrier = threading.Barrier(16)

    def contender(index: int) -> None:
        client = _client(moto, "dynamodb")
        barrier.wait()
        try:
            client.transact_write_items(
                TransactItems=[
                    {
                        "Update": {
                            "TableName": "race",
                            "Key": {"pk": {"S": "g"}},
                            "UpdateExpression": "SET v = :next, w = :who",
                            "ConditionExpression": "v = :seen",
                            "ExpressionAttributeValues": {
                                ":seen": {"N": "0"},
                                ":next": {"N": "1"},
                                ":who": {"N": str(index)},
                            },
                        }
                    }
                ]
            )
            outcomes.append("won")
        except ClientError as exc:
            outcomes.append(exc.response["Error"]["Code"])

    threads = [threading.Thread(target=contender, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("won") == 1
    assert set(outcomes) == {"won", "TransactionCanceledException"}


def test_due_time_reads_one_time_expressions_in_their_time_zone() -> None:
    assert due_time("at(2026-11-29T12:00:00)") == START
    assert due_time("at(2026-11-29T13:00:00)", "Europe/Paris") == START
    assert due_time("rate(5 minutes)") is None


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _schedule(scheduler: Any, name: str, at: datetime, payload: dict[str, Any]) -> None:
    scheduler.create_schedule(
        Name=name,
        GroupName=GROUP,
        ScheduleExpression=f"at({at.strftime('%Y-%m-%dT%H:%M:%S')})",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={
            "Arn": TARGET,
            "RoleArn": "arn:aws:iam::123456789012:role/r",
            "Input": json.dumps(payload),
        },
        ActionAfterCompletion="DELETE",
    )


def _names(scheduler: Any) -> set[str]:
    return {s["Name"] for s in scheduler.list_schedules(GroupName=GROUP)["Schedules"]}


def test_the_loop_fires_what_is_due_by_the_clock_then_deletes_it(moto: EmbeddedMoto) -> None:
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name=GROUP)
    scheduler.create_schedule_group(Name="other")
    clock = _Clock()
    fired: list[tuple[str, dict[str, Any]]] = []
    loop = SchedulerLoop(scheduler, GROUP, clock, lambda arn, event: fired.append((arn, event)))

    _schedule(scheduler, "late", START + timedelta(seconds=90), {"game_id": "b"})
    _schedule(scheduler, "soon", START + timedelta(seconds=60), {"game_id": "a"})
    assert loop.tick() == []

    clock.now = START + timedelta(seconds=60)
    assert loop.tick() == ["soon"]
    assert fired == [(TARGET, {"game_id": "a"})]
    assert _names(scheduler) == {"late"}

    clock.now = START + timedelta(days=1)
    loop.start()
    try:
        assert loop.run_now() == ["late"]
        assert loop.run_now() == []
    finally:
        loop.stop()
    assert fired[-1] == (TARGET, {"game_id": "b"})
    assert _names(scheduler) == set()


def test_a_failing_target_is_retried_then_dropped(moto: EmbeddedMoto) -> None:
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="flaky")
    calls: list[dict[str, Any]] = []

    def fire(arn: str, event: dict[str, Any]) -> None:
        calls.append(event)
        raise RuntimeError("target down")

    loop = SchedulerLoop(scheduler, "flaky", lambda: START + timedelta(hours=1), fire)
    scheduler.create_schedule(
        Name="x",
        GroupName="flaky",
        ScheduleExpression="at(2026-11-29T12:00:00)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": TARGET, "RoleArn": "arn:aws:iam::123456789012:role/r", "Input": "{}"},
        ActionAfterCompletion="DELETE",
    )
    assert loop.tick() == []
    assert loop.tick() == []
    assert loop.tick() == ["x"]
    assert len(calls) == 3
    assert scheduler.list_schedules(GroupName="flaky")["Schedules"] == []


def test_a_schedule_its_target_set_again_is_kept_for_the_next_deadline(
    moto: EmbeddedMoto,
) -> None:
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="rearm")
    clock = _Clock()
    fired: list[dict[str, Any]] = []

    def fire(arn: str, event: dict[str, Any]) -> None:
        fired.append(event)
        if event["turn"] == 1:  # the expiry function points the schedule at the next turn
            scheduler.update_schedule(
                Name="g",
                GroupName="rearm",
                ScheduleExpression="at(2026-11-29T12:05:00)",
                FlexibleTimeWindow={"Mode": "OFF"},
                Target={
                    "Arn": TARGET,
                    "RoleArn": "arn:aws:iam::123456789012:role/r",
                    "Input": json.dumps({"turn": 2}),
                },
                ActionAfterCompletion="DELETE",
            )

    loop = SchedulerLoop(scheduler, "rearm", clock, fire)
    scheduler.create_schedule(
        Name="g",
        GroupName="rearm",
        ScheduleExpression="at(2026-11-29T12:01:00)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={
            "Arn": TARGET,
            "RoleArn": "arn:aws:iam::123456789012:role/r",
            "Input": json.dumps({"turn": 1}),
        },
        ActionAfterCompletion="DELETE",
    )
    clock.now = START + timedelta(minutes=1)
    assert loop.tick() == ["g"]
    assert {s["Name"] for s in scheduler.list_schedules(GroupName="rearm")["Schedules"]} == {"g"}
    clock.now = START + timedelta(minutes=5)
    assert loop.tick() == ["g"]
    assert fired == [{"turn": 1}, {"turn": 2}]
    assert scheduler.list_schedules(GroupName="rearm")["Schedules"] == []
