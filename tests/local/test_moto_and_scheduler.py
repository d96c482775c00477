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
from mineduel.local.scheduler import SchedulerLoop, due_time, rate_period, role_allows_invoke

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


def _schedule(
    scheduler: Any, name: str, at: datetime, payload: dict[str, Any], group: str = GROUP
) -> None:
    scheduler.create_schedule(
        Name=name,
        GroupName=group,
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
    loop = SchedulerLoop(scheduler, [GROUP], clock, lambda arn, event: fired.append((arn, event)))

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


def test_what_a_clock_move_made_due_is_reported_even_if_the_loops_own_tick_fired_it(
    moto: EmbeddedMoto,
) -> None:
    """The loop ticks on its own too (a schedule written wakes it): a tick of its own that
    starts after the clock moved fires what the move made due, and the tick a caller then asks
    for finds nothing. Asked with a mark taken before the move, the loop reports it all the
    same (the local clock's answer, ``/_local/clock``, is such a call)."""
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="marked")
    clock = _Clock()
    loop = SchedulerLoop(scheduler, ["marked"], clock, lambda arn, event: None)
    _schedule(scheduler, "turn", START + timedelta(seconds=60), {}, "marked")
    mark = loop.mark()
    clock.now = START + timedelta(seconds=61)
    assert loop.tick() == ["turn"]  # the loop's own tick, between the move and the request
    assert loop.run_now() == []  # what the request's own tick fired: nothing
    assert loop.run_now(since=mark) == ["turn"]
    assert loop.run_now(since=loop.mark()) == []


def test_a_one_time_schedule_kept_after_completion_never_fires_again(moto: EmbeddedMoto) -> None:
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="kept")
    fired: list[dict[str, Any]] = []
    loop = SchedulerLoop(scheduler, ["kept"], lambda: START, lambda a, e: fired.append(e))
    scheduler.create_schedule(
        Name="once",
        GroupName="kept",
        ScheduleExpression="at(2026-11-29T11:00:00)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": TARGET, "RoleArn": "arn:aws:iam::123456789012:role/r", "Input": "{}"},
        ActionAfterCompletion="NONE",
    )
    assert loop.tick() == ["once"]
    assert loop.tick() == []
    assert len(fired) == 1
    assert [s["Name"] for s in scheduler.list_schedules(GroupName="kept")["Schedules"]] == ["once"]


def test_a_rate_schedule_fires_every_period_by_the_clock(moto: EmbeddedMoto) -> None:
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="house")
    clock = _Clock()
    fired: list[dict[str, Any]] = []
    loop = SchedulerLoop(scheduler, ["house"], clock, lambda a, e: fired.append(e))
    scheduler.create_schedule(
        Name="sweep",
        GroupName="house",
        ScheduleExpression="rate(1 minute)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": TARGET, "RoleArn": "arn:aws:iam::123456789012:role/r", "Input": "{}"},
    )
    assert loop.tick() == []  # first seen now: due a minute later
    clock.now = START + timedelta(seconds=59)
    assert loop.tick() == []
    clock.now = START + timedelta(seconds=60)
    assert loop.tick() == ["sweep"]
    assert loop.tick() == []
    clock.now = START + timedelta(minutes=10)  # a jump: the missed runs are one run
    assert loop.tick() == ["sweep"]
    assert loop.tick() == []
    assert len(fired) == 2
    assert rate_period("rate(2 hours)") == timedelta(hours=2)
    assert rate_period("at(2026-11-29T12:00:00)") is None


def test_an_undeliverable_schedule_is_retried_then_dead_lettered(moto: EmbeddedMoto) -> None:
    """Scheduler's retry policy and dead-letter queue: a target that does not exist."""
    scheduler = _client(moto, "scheduler")
    scheduler.create_schedule_group(Name="flaky")
    attempts: list[dict[str, Any]] = []
    letters: list[tuple[str, str, dict[str, str]]] = []

    def deliver(arn: str, event: dict[str, Any]) -> None:
        attempts.append(event)
        raise LookupError(arn)

    loop = SchedulerLoop(
        scheduler,
        ["flaky"],
        lambda: START + timedelta(hours=1),
        deliver,
        dead_letter=lambda arn, body, attrs: letters.append((arn, body, attrs)),
    )
    scheduler.create_schedule(
        Name="x",
        GroupName="flaky",
        ScheduleExpression="at(2026-11-29T12:00:00)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={
            "Arn": TARGET,
            "RoleArn": "arn:aws:iam::123456789012:role/r",
            "Input": '{"game_id": "g"}',
            "RetryPolicy": {"MaximumRetryAttempts": 2, "MaximumEventAgeInSeconds": 3600},
            "DeadLetterConfig": {"Arn": "arn:aws:sqs:us-east-1:123456789012:dlq"},
        },
        ActionAfterCompletion="DELETE",
    )
    assert loop.tick() == []
    assert loop.tick() == []
    assert loop.tick() == ["x"]
    assert len(attempts) == 3
    assert scheduler.list_schedules(GroupName="flaky")["Schedules"] == []
    [(arn, body, attrs)] = letters
    assert arn.endswith(":dlq") and json.loads(body) == {"game_id": "g"}
    assert attrs["ERROR_CODE"] == "LookupError" and attrs["TARGET_ARN"] == TARGET


def test_a_role_that_may_not_invoke_the_target_is_a_failed_delivery(moto: EmbeddedMoto) -> None:
    iam = _client(moto, "iam")
    iam.create_role(RoleName="narrow", AssumeRolePolicyDocument="{}")
    iam.put_role_policy(
        RoleName="narrow",
        PolicyName="p",
        PolicyDocument=json.dumps(
            {
                "Version": "2012-10-17",
                "Statement": [
                    {"Effect": "Allow", "Action": "lambda:InvokeFunction", "Resource": TARGET}
                ],
            }
        ),
    )
    role = "arn:aws:iam::123456789012:role/narrow"
    assert role_allows_invoke(iam, role, TARGET)
    assert not role_allows_invoke(iam, role, TARGET.replace("ExpireTurn", "Other"))
    assert not role_allows_invoke(iam, "arn:aws:iam::123456789012:role/missing", TARGET)
