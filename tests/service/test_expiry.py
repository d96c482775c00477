"""Deadlines: one schedule per game at the deadline; expiry is idempotent; late commits lose."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service import clock, scheduling
from mineduel_service.config import get_config

if TYPE_CHECKING:
    from conftest import Api

DEADLINE_S = 120


def _schedule(game_id: str) -> dict[str, Any] | None:
    client = boto3.client("scheduler", region_name=get_config().region)
    try:
        return dict(
            client.get_schedule(
                Name=scheduling.schedule_name(game_id), GroupName=get_config().schedule_group
            )
        )
    except client.exceptions.ResourceNotFoundException:
        return None


def _schedule_input(game_id: str) -> dict[str, Any]:
    schedule = _schedule(game_id)
    assert schedule is not None
    return dict(json.loads(schedule["Target"]["Input"]))


def _fire(api: Api, game_id: str) -> str:
    """Deliver the game's current schedule input, as Scheduler would."""
    return api.expire(_schedule_input(game_id))


def test_the_schedule_follows_every_turn_and_is_deleted_at_the_end(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    schedule = _schedule(game_id)
    assert schedule is not None
    assert schedule["ScheduleExpression"] == f"at({game['turn']['deadline'][:-1]})"
    assert schedule["ScheduleExpressionTimezone"] == "UTC"
    assert schedule["ActionAfterCompletion"] == "DELETE"
    assert schedule["Target"]["Arn"] == get_config().expiry_function_arn
    assert schedule["Target"]["RoleArn"] == get_config().scheduler_role_arn
    assert _schedule_input(game_id) == {
        "game_id": game_id,
        "move_count": 0,
        "deadline": game["turn"]["deadline"],
    }
    clock.advance(30)
    reply = api.commit(token, game_id, 0, 0, 0)
    assert reply.status == 200
    after = reply.body["game"]
    assert _schedule_input(game_id)["move_count"] == after["move_count"]
    assert _schedule_input(game_id)["deadline"] == after["turn"]["deadline"]
    assert after["turn"]["deadline"] > game["turn"]["deadline"]
    api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    assert _schedule(game_id) is None


def test_expiry_after_the_deadline_puts_the_seat_out_once(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    delivery = _schedule_input(game_id)
    clock.advance(DEADLINE_S + 1)
    assert api.expire(delivery) == "timed-out"
    after = api.call("GET", f"/v1/games/{game_id}").body
    assert after["status"] == "finished"
    assert after["result"] == {"reason": "timeout", "winner": 1, "places": [2, 1]}
    log = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert [(m["seat"], m["action"]) for m in log] == [(0, "timeout")]
    # Repeated delivery: nothing changes.
    assert api.expire(delivery) == "ignored"
    assert api.call("GET", f"/v1/games/{game_id}").body == after
    assert _schedule(game_id) is None


def test_an_early_delivery_changes_nothing_and_keeps_the_schedule(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    delivery = _schedule_input(game_id)
    clock.advance(DEADLINE_S - 10)
    assert api.expire(delivery) == "early"
    assert api.call("GET", f"/v1/games/{game_id}").body == game
    assert _schedule_input(game_id) == delivery


def test_a_stale_delivery_changes_nothing(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    stale = _schedule_input(game_id)
    moved = api.commit(token, game_id, 8, 8, 0).body["game"]
    clock.advance(DEADLINE_S + 1)  # past the stale deadline, and past the new one as well
    assert api.expire(stale) == "stale"
    assert api.call("GET", f"/v1/games/{game_id}").body == moved
    assert _schedule_input(game_id)["move_count"] == moved["move_count"]
    # Re-armed for an overdue turn: a minute ahead, never in the past.
    # (the wall clock may tick to the next second between the re-arming and this line)
    lead = clock.now() + timedelta(seconds=scheduling.MIN_LEAD_S)
    expected = {scheduling.at_expression(lead - timedelta(seconds=s)) for s in (0, 1)}
    assert _schedule(game_id)["ScheduleExpression"] in expected
    # The current delivery does time the seat out.
    assert _fire(api, game_id) == "timed-out"


@pytest.mark.parametrize(
    "event",
    [{}, {"game_id": "nope"}, {"game_id": 5, "move_count": "x", "deadline": None}, []],
)
def test_malformed_deliveries_are_ignored(api: Api, event: Any) -> None:
    assert api.expire(event) == "ignored"


def test_a_commit_after_the_deadline_puts_the_seat_out_without_expiry(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    clock.advance(DEADLINE_S)
    late = api.commit(token, game_id, 3, 3, 0)
    assert late.status == 409 and late.error_code == "deadline-passed"
    after = api.call("GET", f"/v1/games/{game_id}").body
    assert after["status"] == "finished" and after["result"]["reason"] == "timeout"
    assert after["board"] == game["board"]  # the late tap opened nothing
    # The schedule firing afterwards changes nothing.
    assert (
        api.expire({"game_id": game_id, "move_count": 0, "deadline": game["turn"]["deadline"]})
        == "ignored"
    )
    assert api.call("GET", f"/v1/games/{game_id}").body == after
