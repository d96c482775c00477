"""A game's schedule that is already gone is set again by the next write on the game.

EventBridge Scheduler deletes a one-time schedule once it has invoked its target
(``ActionAfterCompletion: DELETE``), and it invokes Lambda asynchronously: the expiry function,
or a commit or resignation racing the deadline, usually finds no schedule to update. Each of
them then creates it (the update's ``ResourceNotFoundException`` fallback), so the next turn
still has its deadline. Here the schedule is deleted by hand, as Scheduler would have.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import boto3
from mineduel_service import clock, scheduling
from mineduel_service.config import get_config

if TYPE_CHECKING:
    from conftest import Api

DEADLINE_S = 120


def _scheduler() -> Any:
    return boto3.client("scheduler", region_name=get_config().region)


def _delete_schedule(game_id: str) -> None:
    """What Scheduler does once the schedule has fired."""
    _scheduler().delete_schedule(
        Name=scheduling.schedule_name(game_id), GroupName=get_config().schedule_group
    )


def _schedule_input(game_id: str) -> dict[str, Any]:
    schedule = _scheduler().get_schedule(
        Name=scheduling.schedule_name(game_id), GroupName=get_config().schedule_group
    )
    return dict(json.loads(schedule["Target"]["Input"]))


def test_a_commit_sets_a_schedule_that_already_fired_again(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    _delete_schedule(game["game_id"])
    moved = api.commit(token, game["game_id"], 8, 8, 0).body["game"]
    assert moved["status"] == "active"
    assert _schedule_input(game["game_id"]) == {
        "game_id": game["game_id"],
        "move_count": moved["move_count"],
        "deadline": moved["turn"]["deadline"],
    }


def test_an_expiry_delivery_that_finds_its_schedule_gone_sets_it_again(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    delivery = _schedule_input(game["game_id"])
    _delete_schedule(game["game_id"])
    clock.advance(DEADLINE_S - 10)  # delivered early: the turn is not over yet
    assert api.expire(delivery) == "early"
    assert _schedule_input(game["game_id"]) == delivery


def test_a_resignation_sets_the_next_turns_schedule_even_if_the_old_one_fired(
    served_api: Api,
) -> None:
    alice, bob = served_api.account("alice"), served_api.account("bob")
    game = served_api.call(
        "POST", "/v1/games", token=alice, body={"seats": 3, "bots": 1, "move_deadline_s": 300}
    ).body
    game_id = game["game_id"]
    assert served_api.call("POST", f"/v1/games/{game_id}/join", token=bob).status == 200
    _delete_schedule(game_id)
    after = served_api.call("POST", f"/v1/games/{game_id}/resign", token=alice).body
    assert after["status"] == "active"  # bob and the bot play on
    assert _schedule_input(game_id) == {
        "game_id": game_id,
        "move_count": after["move_count"],
        "deadline": after["turn"]["deadline"],
    }
