"""The sample events in ``events/`` are what the functions really receive: each one, sent as it
is, gets the answer its route gives to exactly that request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from mineduel_service.platform import scheduling

if TYPE_CHECKING:
    from conftest import Api

EVENTS = Path(__file__).resolve().parents[3] / "events"
# The samples name a game that does not exist and a guest token nobody issued.
EXPECTED = {
    "guests_post.json": (201, None),
    "games_post.json": (401, "unauthorized"),
    "games_join_post.json": (401, "unauthorized"),
    "games_get.json": (404, "game-not-found"),
    "moves_post.json": (404, "game-not-found"),
    "resign_post.json": (404, "game-not-found"),
    "games_timeout_post.json": (404, "game-not-found"),
    "me_get.json": (401, "unauthorized"),
    "me_put.json": (401, "unauthorized"),
    "me_games_get.json": (401, "unauthorized"),
    "me_invites_get.json": (401, "unauthorized"),
    "me_claim_post.json": (401, "unauthorized"),
    "players_get.json": (404, "player-not-found"),
    "player_games_get.json": (404, "player-not-found"),
    "lobby_get.json": (200, None),
    "games_decline_post.json": (401, "unauthorized"),
    "games_delete.json": (401, "unauthorized"),
    "games_rematch_post.json": (404, "game-not-found"),
    "games_summary_get.json": (404, "game-not-found"),
    "moves_get.json": (404, "game-not-found"),
    "verify_get.json": (404, "game-not-found"),
    "leaderboards_get.json": (200, None),
    "me_avatar_post.json": (401, "unauthorized"),
    "me_avatar_put.json": (401, "unauthorized"),
    "avatars_get.json": (404, "avatar-not-found"),
    "share_get.json": (404, None),  # the HTML page that says there is no such game
    "no_route.json": (405, "method-not-allowed"),  # GET /v1/games: that path takes POST
    "games_analysis_get.json": (404, "game-not-found"),
    "daily_get.json": (401, "unauthorized"),
    "daily_play_post.json": (401, "unauthorized"),
    "daily_table_get.json": (404, "day-not-found"),
    "player_games_export_get.json": (404, "player-not-found"),
    "exports_get.json": (200, None),
    "games_spectators_delete.json": (404, "game-not-found"),
    "push_vapid_key_get.json": (200, None),
    "push_subscriptions_post.json": (401, "unauthorized"),
    "push_subscriptions_get.json": (401, "unauthorized"),
    "push_subscriptions_delete.json": (401, "unauthorized"),
    "seeks_post.json": (401, "unauthorized"),
    "seeks_get.json": (200, None),
    "seek_get.json": (401, "unauthorized"),
    "seek_delete.json": (401, "unauthorized"),
    "fair_play_get.json": (401, "unauthorized"),
    "moderation_cases_get.json": (401, "unauthorized"),
    "moderation_case_post.json": (401, "unauthorized"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_sample_as_it_is(api: Api, name: str) -> None:
    event = json.loads((EVENTS / name).read_text())
    route = ("ANY", "$default") if event["routeKey"] == "$default" else event["routeKey"].split()
    logical_id = next(
        fn.logical_id
        for r, fn in api.stack.template.routes()
        if (r.method, r.path) == (route[0], route[1])
    )
    raw = api.invoker.invoke(logical_id, event)
    status, code = EXPECTED[name]
    assert raw["statusCode"] == status, raw
    if code is not None:
        assert json.loads(raw["body"])["error"]["code"] == code


def test_every_route_has_a_sample() -> None:
    names = {p.name for p in EVENTS.glob("*.json")}
    schedule_inputs = {
        "expire_turn.json",
        "sweep_deadlines.json",
        "leaderboard_snapshot.json",
        "daily_housekeeping.json",
        "monthly_export.json",
        "fair_play_screen.json",
    }
    live = {"live_connect.json", "live_message.json", "live_disconnect.json", "live_fanout.json"}
    notify = {"notify_deliver.json", "push_platforms.json"}
    deployment = {"daily_preparation.json"}  # CloudFormation's request (tests/service/daily)
    assert set(EXPECTED) | schedule_inputs | live | notify | deployment == names


def test_the_websocket_samples_as_they_are(api: Api) -> None:
    connect = json.loads((EVENTS / "live_connect.json").read_text())
    # The sample's guest token was never issued: the handshake is refused.
    assert api.invoker.invoke("LiveConnectFunction", connect)["statusCode"] == 401
    anonymous = {**connect, "queryStringParameters": None}
    assert api.invoker.invoke("LiveConnectFunction", anonymous)["statusCode"] == 200
    message = json.loads((EVENTS / "live_message.json").read_text())
    answer = api.invoker.invoke("LiveMessageFunction", message)
    assert json.loads(answer["body"])["code"] == "game-not-found"  # the sample's game
    disconnect = json.loads((EVENTS / "live_disconnect.json").read_text())
    assert api.invoker.invoke("LiveDisconnectFunction", disconnect)["statusCode"] == 200


def test_the_stream_sample_is_a_batch_the_fanout_takes(api: Api) -> None:
    batch = json.loads((EVENTS / "live_fanout.json").read_text())
    report = api.invoker.invoke("LiveFanoutFunction", batch)
    assert report == {
        "sent": 0,
        "gone": 0,
        "failed": 0,
        "bus_events": 0,
        "notices": 0,
        "events": [],
    }


def test_the_queue_sample_is_a_batch_the_delivery_takes(api: Api) -> None:
    """The sample's player has no subscription: nothing is sent, nothing is to be retried."""
    batch = json.loads((EVENTS / "notify_deliver.json").read_text())
    answer = api.invoker.invoke("NotifyDeliverFunction", batch)
    assert answer["batchItemFailures"] == []
    assert answer["report"]["sent"] == 0


def test_the_expiry_sample_is_a_schedule_input(api: Api) -> None:
    sample = json.loads((EVENTS / "expire_turn.json").read_text())
    assert set(sample) == set(scheduling.expiry_input("g", 0, "d"))
    assert api.expire(sample) == "ignored"  # the sample's game does not exist
    token = api.guest()
    game = api.bot_game(token)
    delivered = {**sample, "game_id": game["game_id"], "move_count": 0}
    delivered["deadline"] = game["turn"]["deadline"]
    assert api.expire(delivered) == "early"


def test_the_sweeper_sample_is_its_schedule_input(api: Api) -> None:
    sample = json.loads((EVENTS / "sweep_deadlines.json").read_text())
    schedule = api.stack.template.resources["SweepSchedule"]["Properties"]
    assert json.loads(schedule["Target"]["Input"]) == sample
    result = api.invoker.invoke("SweepDeadlinesFunction", sample)
    deadlines = {
        "timed-out",
        "bots-moved",
        "warned",
        "stale",
        "early",
        "raced",
        "ignored",
        "failed",
    }
    assert set(result["outcomes"]) <= deadlines | {"results-applied", "results-failed"}


def test_the_snapshot_sample_is_its_schedule_input(api: Api) -> None:
    sample = json.loads((EVENTS / "leaderboard_snapshot.json").read_text())
    schedule = api.stack.template.resources["LeaderboardSnapshotSchedule"]["Properties"]
    assert json.loads(schedule["Target"]["Input"]) == sample
    result = api.invoker.invoke("LeaderboardSnapshotFunction", sample)
    assert set(result["variants"]) == {"mine-duel"}


@pytest.mark.parametrize(
    ("sample", "schedule", "function"),
    [
        ("daily_housekeeping.json", "DailyHousekeepingSchedule", "DailyHousekeepingFunction"),
        ("monthly_export.json", "MonthlyExportSchedule", "MonthlyExportFunction"),
        ("fair_play_screen.json", "FairPlayScreenSchedule", "FairPlayScreenFunction"),
    ],
)
def test_the_daily_and_export_samples_are_their_schedule_inputs(
    api: Api, sample: str, schedule: str, function: str
) -> None:
    event = json.loads((EVENTS / sample).read_text())
    properties = api.stack.template.resources[schedule]["Properties"]
    assert json.loads(properties["Target"]["Input"]) == event
    assert properties["Target"]["Arn"] == {"Fn::GetAtt": [function, "Arn"]}
    result = api.invoker.invoke(function, event)
    assert isinstance(result, dict)
