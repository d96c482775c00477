""" "Time almost up": at 80% of a turn of an hour or more, once both sides have moved, the player
to move gets exactly one warning (a push message and TurnAlmostUp on the stack's bus), without
a second Scheduler call per commit (and without any against the bot: the sweeper warns, late by
at most a tenth of the turn, never early); every deadline guarantee holds around it."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.games import store
from mineduel_service.platform import clock, keys, scheduling
from mineduel_service.platform.config import get_config
from websockets.sync.client import connect

from mineduel.local.invoke import Invoker
from mineduel.local.lambda_service import LocalLambda
from mineduel.local.stack import scheduler_for

if TYPE_CHECKING:
    from conftest import Api

HOUR = 3600


def _scheduler() -> Any:
    return boto3.client("scheduler", region_name=get_config().region)


def _schedules(game_id: str) -> dict[str, dict[str, Any]]:
    client, group = _scheduler(), get_config().schedule_group
    pages = client.get_paginator("list_schedules").paginate(
        GroupName=group, NamePrefix=f"turn-{game_id}-"
    )
    names = [s["Name"] for page in pages for s in page["Schedules"]]
    return {n: dict(client.get_schedule(Name=n, GroupName=group)) for n in names}


def _version(game_id: str) -> int:
    record = store.get_game(game_id)
    assert record is not None
    return record.version


def _to_first_turn_after_all_moved(api: Api, tokens: list[str], game_id: str) -> Any:
    """Tap, as whichever person is to move (bots reply by themselves), until every seat has
    moved and it is seat 0's turn again. Each tap opens a known safe cell showing a number: the
    turn passes, and a bot replies from numbers alone, too little to win from (after taps on
    unknown cells a bot won at once up to about 1 time in 1,000, and the game was over)."""
    known = api.field(game_id)
    for _ in range(40):
        record = store.get_game(game_id)
        assert record is not None and record.status == "active"
        seats = set(range(len(record.seats)))
        if set(record.seats_moved) == seats and record.state.turn == 0:
            return record
        cell = next(
            i
            for i, c in enumerate(record.state.cells)
            if c == "." and not known.is_mine(i) and known.numbers[i] > 0
        )
        width = record.settings.width
        token = tokens[record.state.turn]
        reply = api.commit(token, game_id, cell // width, cell % width, record.state.move_count)
        assert reply.status == 200, reply.body
    raise AssertionError("not every seat moved")


@pytest.fixture
def bus_queue(served_api: Api) -> Any:
    config = get_config()
    sqs = boto3.client("sqs", region_name=config.region)
    events = boto3.client("events", region_name=config.region)
    bus = served_api.stack.ref("GameEventBus")
    url = sqs.create_queue(QueueName="turn-warnings-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]
    pattern = json.dumps({"source": ["mineduel.game"], "detail-type": ["TurnAlmostUp"]})
    events.put_rule(Name="warnings", EventBusName=bus, EventPattern=pattern)
    events.put_targets(
        Rule="warnings", EventBusName=bus, Targets=[{"Id": "q", "Arn": arn["QueueArn"]}]
    )

    def drain() -> list[dict[str, Any]]:
        found = []
        for _ in range(3):
            got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
            for message in got.get("Messages", []):
                found.append(json.loads(message["Body"]))
                sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        return found

    return drain


def test_one_warning_per_turn_by_its_one_schedule_then_the_deadline(
    served_api: Api, bus_queue: Any
) -> None:
    api = served_api
    loop = scheduler_for(api.stack, LocalLambda(api.stack, Invoker(api.stack).invoke))
    tokens, game = api.people_game("warn-alice", "warn-bob", move_deadline_s=HOUR)
    token, game_id = tokens[0], game["game_id"]
    first = _schedules(game_id)
    assert list(first) == [f"turn-{game_id}-0"]
    assert "warning" not in json.loads(
        first[f"turn-{game_id}-0"]["Target"]["Input"]
    )  # nobody moved
    record = _to_first_turn_after_all_moved(api, tokens, game_id)
    assert record.deadline is not None
    warn_at = clock.parse_iso(record.deadline) - timedelta(seconds=HOUR * 0.2)
    assert record.warning_at == clock.iso(warn_at)
    assert record.due_at == record.warning_at  # the sweeper looks at the warning time first
    name = scheduling.schedule_name(game_id, record.state.move_count)
    schedule = _schedules(game_id)[name]  # the turn's one schedule, armed by the commit
    assert json.loads(schedule["Target"]["Input"]) == {
        "game_id": game_id,
        "move_count": record.state.move_count,
        "deadline": record.deadline,
        "warning": True,
    }
    assert schedule["ScheduleExpression"] == scheduling.at_expression(warn_at)
    # Earlier turns' schedules are left to fire, stale (a warned one, seconds before this one).
    stale = set(_schedules(game_id)) - {name}
    feed = api.stream()
    with connect(f"{api.live.url}/?token={token}", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
        assert json.loads(ws.recv(timeout=10))["type"] == "subscribed"
        clock.advance((warn_at - clock.now()).total_seconds() - 5)
        assert set(loop.tick()) <= stale  # not yet
        clock.advance(5)
        fired = set(loop.tick())
        assert name in fired and fired - {name} <= stale
        warned = store.get_game(game_id)
        assert warned is not None and warned.warned_for == record.deadline
        assert warned.version == record.version + 1
        assert warned.due_at == record.deadline and warned.warning_at is None
        after = _schedules(game_id)
        deadline_name = scheduling.schedule_name(
            game_id, record.state.move_count, after_warning=True
        )
        assert name not in after  # completed and deleted
        assert json.loads(after[deadline_name]["Target"]["Input"]) == {
            "game_id": game_id,
            "move_count": record.state.move_count,
            "deadline": record.deadline,
        }
        feed.run_now()
        message = json.loads(ws.recv(timeout=10))
        assert message["event"] == "warning" and message["move_count"] == record.state.move_count
        # Exactly once: a retried delivery, the sweeper and a read change nothing more.
        retried = {**json.loads(schedule["Target"]["Input"])}
        assert api.expire(retried) == "warned"
        assert "warned" not in api.sweep()
        api.call("GET", f"/v1/games/{game_id}")
        again = store.get_game(game_id)
        assert again is not None and again.version == warned.version
        feed.run_now()
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.3)
        # The deadline schedule ends the turn on time.
        clock.advance(HOUR * 0.2)
        assert deadline_name in loop.tick()  # (the housekeeping schedules fire too)
        ended = store.get_game(game_id)
        assert ended is not None and ended.status == "finished"
        assert ended.state.result is not None and ended.state.result.reason == "timeout"
        feed.run_now()
        assert json.loads(ws.recv(timeout=10))["event"] == "timeout"
    warnings = [e for e in bus_queue() if e["detail"]["game_id"] == game_id]
    assert len(warnings) == 1
    detail = warnings[0]["detail"]
    assert detail["seat"] == 0 and detail["player_kind"] == "account"
    assert detail["turn"] == {"seat": 0, "deadline": record.deadline}
    assert _schedules(game_id) == {}  # nothing left to fire


def test_the_sweeper_gives_a_warning_whose_schedule_was_lost(served_api: Api) -> None:
    api = served_api
    # Turns of an hour: an account's token lasts an hour, and is needed after the warning.
    tokens, game = api.people_game("lost-alice", "lost-bob", move_deadline_s=HOUR)
    token, game_id = tokens[0], game["game_id"]
    record = _to_first_turn_after_all_moved(api, tokens, game_id)
    name = scheduling.schedule_name(game_id, record.state.move_count)
    _scheduler().delete_schedule(Name=name, GroupName=get_config().schedule_group)
    assert record.warning_at is not None
    clock.advance((clock.parse_iso(record.warning_at) - clock.now()).total_seconds())
    assert api.sweep().get("warned") == 1
    warned = store.get_game(game_id)
    assert warned is not None and warned.warned_for == record.deadline
    deadline_name = scheduling.schedule_name(game_id, record.state.move_count, after_warning=True)
    assert deadline_name in _schedules(game_id) and name not in _schedules(game_id)
    # A game that ends after the warning deletes the deadline schedule, not the spent one
    # (earlier turns' schedules are left to fire, stale, as ever).
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=token).status == 200
    assert deadline_name not in _schedules(game_id)


def test_short_turns_and_first_moves_get_no_warning(served_api: Api) -> None:
    api = served_api
    tokens, game = api.people_game("short-alice", "short-bob", move_deadline_s=HOUR - 1)
    game_id = game["game_id"]
    record = _to_first_turn_after_all_moved(api, tokens, game_id)
    assert record.warning_at is None and record.due_at == record.deadline
    name = scheduling.schedule_name(game_id, record.state.move_count)
    assert "warning" not in json.loads(_schedules(game_id)[name]["Target"]["Input"])


def test_against_the_bot_the_sweeper_warns_once_never_early(served_api: Api) -> None:
    """Nobody waits for a turn against the bot: no schedule; the sweeper gives the warning
    from the game's coarse index key, never before the warning time, and only once."""
    api = served_api
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy", move_deadline_s=2 * HOUR)["game_id"]
    record = _to_first_turn_after_all_moved(api, [token], game_id)
    assert not record.someone_waits and _schedules(game_id) == {}
    assert record.warning_at is not None and record.due_key is not None
    warn_at, key = clock.parse_iso(record.warning_at), clock.parse_iso(record.due_key)
    bucket = record.sweep_bucket_s
    assert bucket == 720  # a tenth of the turn
    assert warn_at <= key < warn_at + timedelta(seconds=bucket)
    # Up to the warning time, sweeps change nothing, even one that finds the game listed (a
    # stale entry of the eventually consistent index): it is left for a later look.
    clock.advance((warn_at - clock.now()).total_seconds() - 10)
    api.sweep()
    assert _version(game_id) == record.version
    boto3.client("dynamodb", region_name=get_config().region).update_item(
        TableName=get_config().table_name,
        Key=keys.game(game_id),
        UpdateExpression="SET due_at = :due",
        ExpressionAttributeValues={":due": {"S": clock.iso(clock.now())}},
    )
    outcomes = api.sweep()
    assert "warned" not in outcomes and outcomes.get("early", 0) >= 1
    unchanged = store.get_game(game_id)
    assert unchanged is not None and unchanged.version == record.version
    assert unchanged.warned_for is None
    store.write_game(unchanged, unchanged)  # the key back
    # At the key, the sweeper warns; then never again for this turn.
    clock.advance((key - clock.now()).total_seconds())
    assert api.sweep().get("warned", 0) >= 1
    warned = store.get_game(game_id)
    assert warned is not None and warned.warned_for == record.deadline
    assert warned.version == record.version + 2
    api.sweep()
    assert _version(game_id) == warned.version  # once
    assert _schedules(game_id) == {}  # no deadline schedule either: the sweeper ends the turn
    assert warned.due_key is not None and warned.due_key >= record.deadline
    clock.advance((clock.parse_iso(warned.due_key) - clock.now()).total_seconds())
    assert api.sweep().get("timed-out", 0) >= 1
    ended = store.get_game(game_id)
    assert ended is not None and ended.status == "finished"
    assert ended.state.result is not None and ended.state.result.reason == "timeout"


def test_a_warned_turn_loses_its_deadline_schedule_when_the_other_person_leaves(
    served_api: Api,
) -> None:
    api = served_api
    loop = scheduler_for(api.stack, LocalLambda(api.stack, Invoker(api.stack).invoke))
    tokens, game = api.people_game("left-alice", "left-bob", bots=1, move_deadline_s=HOUR)
    game_id = game["game_id"]
    record = _to_first_turn_after_all_moved(api, tokens, game_id)
    assert record.someone_waits and record.warning_at is not None
    name = scheduling.schedule_name(game_id, record.state.move_count)
    deadline_name = scheduling.schedule_name(game_id, record.state.move_count, after_warning=True)
    clock.advance((clock.parse_iso(record.warning_at) - clock.now()).total_seconds())
    assert name in loop.tick()
    assert deadline_name in _schedules(game_id)
    resigned = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens[1])
    assert resigned.status == 200, resigned.body
    after = store.get_game(game_id)
    assert after is not None and after.status == "active" and not after.someone_waits
    assert after.warned_for == after.deadline == record.deadline  # still warned, same deadline
    left = _schedules(game_id)
    assert deadline_name not in left  # deleted: nobody waits on this turn any more
    assert not [n for n in left if n.startswith(f"turn-{game_id}-{after.state.move_count}")]
