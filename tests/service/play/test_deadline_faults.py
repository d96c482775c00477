"""Faults on the way to a deadline: each is injected into the real AWS calls (moto behind
botocore), and the game still ends on time, within the sweeper's period, exactly once. The games
are between two accounts: only a turn on which another person waits has a schedule to lose.

- the Scheduler call after a commit fails (Scheduler unavailable);
- the expiry function raises on its deliveries (KMS unavailable), so Lambda retries it and sends
  the delivery to its on-failure queue;
- the process dies between the game's write and its schedule call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.awsrequest import AWSResponse
from mineduel_service.games import store
from mineduel_service.platform import aws, clock, crypto, scheduling
from mineduel_service.platform.config import get_config

from mineduel.local.invoke import Invoker
from mineduel.local.lambda_service import LocalLambda

if TYPE_CHECKING:
    from conftest import Api

DEADLINE_S = 60
SWEEP_PERIOD_S = 60


class ProcessDied(BaseException):
    """Stands for the Lambda process dying: nothing in the service catches it."""


def _unavailable(**_: Any) -> tuple[AWSResponse, dict[str, Any]]:
    """The answer of a service having an outage (a 503), given before the request is sent:
    botocore raises it to the caller as the ``ClientError`` AWS would cause."""
    status = 503
    parsed = {
        "Error": {"Code": "ServiceUnavailable", "Message": "injected outage"},
        "ResponseMetadata": {"HTTPStatusCode": status},
    }
    return AWSResponse("https://unavailable", status, {}, None), parsed


@contextmanager
def fault(client: Any, event: str, handler: Callable[..., Any]) -> Iterator[None]:
    """``handler`` on one of the service's own clients' botocore events, for the block."""
    client.meta.events.register_first(event, handler, unique_id=f"fault-{event}")
    try:
        yield
    finally:
        client.meta.events.unregister(event, unique_id=f"fault-{event}")


def _die(**_: Any) -> None:
    raise ProcessDied


def _timeouts(game_id: str) -> list[dict[str, Any]]:
    """The timeouts in the stored log (read from the store: a read through the API would
    itself record a passed deadline)."""
    return [m for m in store.list_moves(game_id) if m["action"] == "timeout"]


def _stored(game_id: str) -> Any:
    record = store.get_game(game_id)
    assert record is not None
    return record


def _turn_schedules(game_id: str) -> list[str]:
    scheduler = boto3.client("scheduler", region_name=get_config().region)
    pages = scheduler.get_paginator("list_schedules").paginate(
        GroupName=get_config().schedule_group, NamePrefix=f"turn-{game_id}-"
    )
    return [s["Name"] for page in pages for s in page["Schedules"]]


def _ends_on_time_exactly_once(api: Api, game_id: str, deadline: str) -> None:
    """After the deadline, within one sweeper period, the seat to move is out, once."""
    record = _stored(game_id)
    assert record.status == "active" and record.deadline == deadline
    clock.advance((clock.parse_iso(deadline) - clock.now()).total_seconds() + SWEEP_PERIOD_S)
    first = api.sweep()
    assert first.get("timed-out", 0) >= 1, first
    after = _stored(game_id)
    assert record.state.turn is not None and after.state.seats[record.state.turn].out
    # One write timed the seat out; counting the result the timeout ended is one more.
    counted = after.status == "finished" and bool(after.player_seats) and not after.results_pending
    assert after.version == record.version + (2 if counted else 1)
    # Any later path changes nothing: another sweep, a late delivery, a read.
    api.sweep()
    late = {"game_id": game_id, "move_count": record.state.move_count, "deadline": deadline}
    assert api.expire(late) in {"ignored", "stale"}
    api.call("GET", f"/v1/games/{game_id}")
    assert _stored(game_id).version == after.version
    assert len(_timeouts(game_id)) == 1


def test_a_failed_schedule_call_after_a_commit_is_covered_by_the_sweeper(
    served_api: Api, log_output: Any
) -> None:
    api = served_api
    (token, _bob), game = api.people_game("fail-alice", "fail-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    with fault(aws.scheduler(), "before-call.scheduler.CreateSchedule", _unavailable):
        reply = api.commit(token, game_id, 8, 8, 0)
    assert reply.status == 200, reply.body  # the move is stored; the schedule is not
    after = reply.body["game"]
    assert f"turn-{game_id}-{after['move_count']}" not in _turn_schedules(game_id)
    assert "schedule not updated" in log_output.getvalue()
    _ends_on_time_exactly_once(api, game_id, after["turn"]["deadline"])


def test_an_expiry_function_that_raises_is_retried_dead_lettered_and_swept(
    served_api: Api,
) -> None:
    api = served_api
    _, game = api.people_game("raise-alice", "raise-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    deadline = game["turn"]["deadline"]
    delivery = {"game_id": game_id, "move_count": 0, "deadline": deadline}
    clock.advance(DEADLINE_S)
    lambdas = LocalLambda(api.stack, Invoker(api.stack).invoke)
    crypto.clear_cache()  # nothing decrypted before may stand in for KMS here
    with fault(aws.kms(), "before-call.kms.Decrypt", _unavailable):
        delivered = lambdas.invoke_async(get_config().expiry_function_arn, delivery)
    assert delivered is False  # three attempts (Lambda's two retries), all failed
    sqs = boto3.client("sqs", region_name=get_config().region)
    queue = api.stack.ref("ExpiryFailureQueue")
    [message] = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10)["Messages"]
    record = json.loads(message["Body"])
    assert record["requestPayload"] == delivery
    assert record["requestContext"]["condition"] == "RetriesExhausted"
    assert record["requestContext"]["approximateInvokeCount"] == 3
    assert _timeouts(game_id) == []
    clock.reset()
    _ends_on_time_exactly_once(api, game_id, deadline)


def test_a_process_that_dies_between_the_write_and_the_schedule_call(served_api: Api) -> None:
    api = served_api
    (token, _bob), game = api.people_game("die-alice", "die-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    key = {"idempotency-key": "crash-1"}
    with (
        fault(aws.scheduler(), "before-call.scheduler.CreateSchedule", _die),
        pytest.raises(ProcessDied),
    ):
        api.commit(token, game_id, 8, 8, 0, headers=key)
    record = _stored(game_id)
    assert record.state.move_count >= 1  # written before the process died
    assert f"turn-{game_id}-{record.state.move_count}" not in _turn_schedules(game_id)
    # The client retries with the same key: the first answer, nothing played twice.
    retry = api.commit(token, game_id, 8, 8, 0, headers=key)
    assert retry.status == 200
    assert retry.body["game"]["move_count"] == record.state.move_count
    assert _stored(game_id).version == record.version
    assert record.deadline is not None
    _ends_on_time_exactly_once(api, game_id, record.deadline)


def test_undeliverable_schedules_go_to_the_dead_letter_queue(served_api: Api) -> None:
    """Scheduler's side: a schedule whose target cannot be invoked ends in the DLQ; the game
    it was for is ended by the sweeper."""
    from mineduel.local.stack import scheduler_for  # noqa: PLC0415

    api = served_api
    _, game = api.people_game("dlq-alice", "dlq-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    deadline = game["turn"]["deadline"]
    config = get_config()
    scheduler = boto3.client("scheduler", region_name=config.region)
    scheduling.disarm(game_id, 0)
    wrong = config.expiry_function_arn.replace("ExpireTurn", "NoSuchFunction")
    scheduler.create_schedule(
        Name=scheduling.schedule_name(game_id, 0),
        GroupName=config.schedule_group,
        ScheduleExpression=scheduling.at_expression(clock.parse_iso(deadline)),
        FlexibleTimeWindow={"Mode": "OFF"},
        ActionAfterCompletion="DELETE",
        Target={
            "Arn": wrong,
            "RoleArn": config.scheduler_role_arn,
            "Input": json.dumps(scheduling.expiry_input(game_id, 0, deadline)),
            "RetryPolicy": {"MaximumRetryAttempts": 0, "MaximumEventAgeInSeconds": 60},
            "DeadLetterConfig": {"Arn": config.schedule_dlq_arn},
        },
    )
    loop = scheduler_for(api.stack, LocalLambda(api.stack, Invoker(api.stack).invoke))
    clock.advance(DEADLINE_S)
    assert scheduling.schedule_name(game_id, 0) in loop.tick()
    sqs = boto3.client("sqs", region_name=config.region)
    queue = api.stack.ref("ScheduleDeadLetterQueue")
    messages = sqs.receive_message(
        QueueUrl=queue, MaxNumberOfMessages=10, MessageAttributeNames=["All"]
    )["Messages"]
    mine = [m for m in messages if json.loads(m["Body"]).get("game_id") == game_id]
    assert len(mine) == 1
    assert mine[0]["MessageAttributes"]["TARGET_ARN"]["StringValue"] == wrong
    assert _timeouts(game_id) == []
    clock.reset()
    _ends_on_time_exactly_once(api, game_id, deadline)
