"""Deadlines: one schedule per turn on which another person waits (none against bots: the
sweeper ends those turns from a coarse key, never early); expiry is idempotent; every path that
sees a passed deadline records it once (schedules, the sweeper, claims, late commits and
resignations, reads)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.games import store
from mineduel_service.platform import clock, scheduling
from mineduel_service.platform.config import get_config
from mineduel_service.platform.keys import deadline_shards
from mineduel_service.platform.keys import game as game_key

if TYPE_CHECKING:
    from conftest import Api

DEADLINE_S = 120


def _scheduler() -> Any:
    return boto3.client("scheduler", region_name=get_config().region)


def _schedule(game_id: str, move_count: int) -> dict[str, Any] | None:
    client = _scheduler()
    try:
        return dict(
            client.get_schedule(
                Name=scheduling.schedule_name(game_id, move_count),
                GroupName=get_config().schedule_group,
            )
        )
    except client.exceptions.ResourceNotFoundException:
        return None


def _schedules_of(game_id: str) -> list[str]:
    pages = (
        _scheduler()
        .get_paginator("list_schedules")
        .paginate(GroupName=get_config().schedule_group, NamePrefix=f"turn-{game_id}-")
    )
    return sorted(s["Name"] for page in pages for s in page["Schedules"])


def _schedule_input(game_id: str, move_count: int) -> dict[str, Any]:
    schedule = _schedule(game_id, move_count)
    assert schedule is not None
    return dict(json.loads(schedule["Target"]["Input"]))


def _fire(api: Api, game_id: str, move_count: int) -> str:
    """Deliver a turn's schedule input, as Scheduler would."""
    return api.expire(_schedule_input(game_id, move_count))


def _set_index_key(game_id: str, due_at: str) -> None:
    """Put the game in the index at ``due_at`` without a write of the game (as a stale entry of
    the eventually consistent index would show it)."""
    boto3.client("dynamodb", region_name=get_config().region).update_item(
        TableName=get_config().table_name,
        Key=game_key(game_id),
        UpdateExpression="SET due_at = :due",
        ExpressionAttributeValues={":due": {"S": due_at}},
    )


def _stored(game_id: str) -> Any:
    record = store.get_game(game_id)
    assert record is not None
    return record


def _game(api: Api, game_id: str) -> dict[str, Any]:
    reply = api.call("GET", f"/v1/games/{game_id}")
    assert reply.status == 200, reply.body
    return dict(reply.body)


def test_every_turn_gets_a_schedule_of_its_own_and_the_last_is_deleted_at_the_end(
    served_api: Api,
) -> None:
    api = served_api
    (token, _bob), game = api.people_game("turns-alice", "turns-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    schedule = _schedule(game_id, 0)
    assert schedule is not None
    assert schedule["ScheduleExpression"] == f"at({game['turn']['deadline'][:-1]})"
    assert schedule["ScheduleExpressionTimezone"] == "UTC"
    assert schedule["ActionAfterCompletion"] == "DELETE"
    assert schedule["Target"]["Arn"] == get_config().expiry_function_arn
    assert schedule["Target"]["RoleArn"] == get_config().scheduler_role_arn
    assert schedule["Target"]["DeadLetterConfig"]["Arn"] == get_config().schedule_dlq_arn
    assert _schedule_input(game_id, 0) == {
        "game_id": game_id,
        "move_count": 0,
        "deadline": game["turn"]["deadline"],
    }
    clock.advance(30)
    reply = api.commit(token, game_id, 0, 0, 0)
    assert reply.status == 200
    after = reply.body["game"]
    # The new turn has its own schedule; the old one is untouched (it will fire as stale).
    assert _schedule_input(game_id, after["move_count"]) == {
        "game_id": game_id,
        "move_count": after["move_count"],
        "deadline": after["turn"]["deadline"],
    }
    assert _schedule_input(game_id, 0)["deadline"] == game["turn"]["deadline"]
    assert after["turn"]["deadline"] > game["turn"]["deadline"]
    api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    assert _schedule(game_id, after["move_count"]) is None  # the live one is gone


def test_expiry_after_the_deadline_puts_the_seat_out_once(served_api: Api) -> None:
    api = served_api
    _, game = api.people_game("once-alice", "once-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    delivery = _schedule_input(game_id, 0)
    clock.advance(DEADLINE_S + 1)
    assert api.expire(delivery) == "timed-out"
    after = _game(api, game_id)
    assert after["status"] == "finished"
    assert after["result"] == {"reason": "timeout", "winner": 1, "places": [2, 1]}
    log = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert [(m["seat"], m["action"]) for m in log] == [(0, "timeout")]
    # Repeated delivery, and the sweeper after it: nothing changes.
    assert api.expire(delivery) == "ignored"
    assert api.expire({}) == "ignored"
    assert _game(api, game_id) == after


def test_an_early_delivery_changes_nothing(served_api: Api) -> None:
    api = served_api
    _, game = api.people_game("early-alice", "early-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    delivery = _schedule_input(game_id, 0)
    clock.advance(DEADLINE_S - 10)
    assert api.expire(delivery) == "early"
    assert _game(api, game_id) == game


def test_a_stale_delivery_changes_nothing_and_the_current_turn_keeps_its_schedule(
    served_api: Api,
) -> None:
    api = served_api
    (token, _bob), game = api.people_game("stale-alice", "stale-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    stale = _schedule_input(game_id, 0)
    moved = api.commit(token, game_id, 8, 8, 0).body["game"]
    clock.advance(DEADLINE_S - 5)  # past the stale deadline, not the new one
    assert api.expire(stale) == "stale"
    assert _game(api, game_id) == moved
    clock.advance(10)
    assert _fire(api, game_id, moved["move_count"]) == "timed-out"


def test_a_due_bot_game_is_played_on_from_a_schedule_a_minute_ahead(served_api: Api) -> None:
    """A schedule must name a future time: an already-due deadline fires a minute later."""
    api = served_api
    token = api.guest()
    game = api.bot_game(token, move_deadline_s=DEADLINE_S)
    record = store.get_game(game["game_id"])
    assert record is not None
    due = record.evolve(deadline=clock.iso(clock.now()))
    store.write_game(due, record)
    scheduling.arm(due.game_id, 7, clock.iso(clock.now()))
    # (the wall clock may tick to the next second between arming and this line)
    lead = clock.now() + timedelta(seconds=scheduling.MIN_LEAD_S)
    expected = {scheduling.at_expression(lead - timedelta(seconds=s)) for s in (0, 1)}
    schedule = _schedule(due.game_id, 7)
    assert schedule is not None
    assert schedule["ScheduleExpression"] in expected


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"game_id": "nope"},
        {"game_id": 5, "move_count": "x", "deadline": None},
        {"game_id": "g", "move_count": 3},
        [],
    ],
)
def test_malformed_deliveries_are_ignored(served_api: Api, event: Any) -> None:
    assert served_api.expire(event) == "ignored"


def test_a_commit_after_the_deadline_puts_the_seat_out_without_expiry(served_api: Api) -> None:
    api = served_api
    (token, _bob), game = api.people_game("late-alice", "late-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    clock.advance(DEADLINE_S)
    late = api.commit(token, game_id, 3, 3, 0)
    assert late.status == 409 and late.error_code == "deadline-passed"
    after = _game(api, game_id)
    assert after["status"] == "finished" and after["result"]["reason"] == "timeout"
    assert after["board"] == game["board"]  # the late tap opened nothing
    # The schedule firing afterwards changes nothing, and it was deleted with the game's end.
    assert api.expire(_schedule_input_or(game_id, 0, game)) == "ignored"
    assert _game(api, game_id) == after
    assert _schedules_of(game_id) == []


def _schedule_input_or(game_id: str, move_count: int, game: dict[str, Any]) -> dict[str, Any]:
    return {"game_id": game_id, "move_count": move_count, "deadline": game["turn"]["deadline"]}


def _three_seats(api: Api, deadline_s: int = 60) -> tuple[str, str, str, dict[str, Any]]:
    """Two accounts and a bot, all seated: the game is active, seat 0 to move."""
    alice, bob = api.account("exp-alice"), api.account("exp-bob")
    created = api.call(
        "POST",
        "/v1/games",
        token=alice,
        body={"seats": 3, "bots": 1, "move_deadline_s": deadline_s},
    )
    assert created.status == 201, created.body
    game_id = created.body["game_id"]
    joined = api.call("POST", f"/v1/games/{game_id}/join", token=bob)
    assert joined.status == 200 and joined.body["status"] == "active", joined.body
    return alice, bob, game_id, joined.body


def test_a_seat_that_is_not_to_move_claims_the_passed_deadline(served_api: Api) -> None:
    alice, bob, game_id, game = _three_seats(served_api)
    early = served_api.call("POST", f"/v1/games/{game_id}/timeout", token=bob)
    assert early.status == 409 and early.error_code == "deadline-not-passed"
    clock.advance(61)
    claimed = served_api.call("POST", f"/v1/games/{game_id}/timeout", token=bob)
    assert claimed.status == 200, claimed.body
    after = claimed.body
    assert after["seats"][0]["out"] and after["turn"]["seat"] == 1
    assert after["move_count"] == 1
    # Claimed twice: the deadline now running is bob's own, not passed.
    again = served_api.call("POST", f"/v1/games/{game_id}/timeout", token=alice)
    assert again.status == 409 and again.error_code == "deadline-not-passed"
    # The schedule of the claimed turn fires later: stale, nothing changes.
    assert served_api.expire(_schedule_input_or(game_id, 0, game)) == "stale"
    assert _game(served_api, game_id) == after


def test_a_claim_among_three_people_gives_the_next_turn_its_schedule(served_api: Api) -> None:
    """The claimed turn's successor has a person waiting on it (the third), so its own schedule;
    the claimed turn's schedule is left to fire, stale."""
    (_alice, bob, _carol), game = served_api.people_game(
        "claim3-alice", "claim3-bob", "claim3-carol", move_deadline_s=60
    )
    game_id = game["game_id"]
    clock.advance(61)
    claimed = served_api.call("POST", f"/v1/games/{game_id}/timeout", token=bob)
    assert claimed.status == 200, claimed.body
    after = claimed.body
    assert after["seats"][0]["out"] and after["turn"]["seat"] == 1 and after["move_count"] == 1
    assert _schedules_of(game_id) == [f"turn-{game_id}-0", f"turn-{game_id}-1"]
    assert _schedule_input(game_id, 1) == {
        "game_id": game_id,
        "move_count": 1,
        "deadline": after["turn"]["deadline"],
    }
    assert served_api.expire(_schedule_input(game_id, 0)) == "stale"
    clock.advance(61)
    assert _fire(served_api, game_id, 1) == "timed-out"


def test_a_late_commit_from_another_seat_records_the_timeout_and_is_refused(
    served_api: Api,
) -> None:
    _alice, bob, game_id, _ = _three_seats(served_api)
    clock.advance(61)
    late = served_api.commit(bob, game_id, 0, 0, 0)
    assert late.status == 409 and late.error_code == "turn-timed-out"
    after = _game(served_api, game_id)
    assert after["seats"][0]["out"] and after["turn"]["seat"] == 1 and after["move_count"] == 1
    played = served_api.commit(bob, game_id, 0, 0, 1)
    assert played.status == 200, played.body


def test_a_read_after_the_deadline_shows_the_game_timed_out(served_api: Api) -> None:
    """No waiting on the schedule: reading the game records the timeout."""
    _alice, _bob, game_id, _ = _three_seats(served_api)
    clock.advance(61)
    seen = _game(served_api, game_id)
    assert seen["seats"][0]["out"] and seen["turn"]["seat"] == 1
    moves = served_api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert [(m["seat"], m["action"]) for m in moves] == [(0, "timeout")]


def test_scenario_three_seats_each_turn_times_out_in_turn(served_api: Api) -> None:
    """Three accounts, 60 s deadlines: each missed turn is recorded by its own schedule (the
    others wait for it), and the game ends with the third alone."""
    _, game = served_api.people_game("each-a", "each-b", "each-c", move_deadline_s=60)
    game_id = game["game_id"]
    clock.advance(61)
    assert _fire(served_api, game_id, 0) == "timed-out"
    first = _game(served_api, game_id)
    assert first["turn"]["seat"] == 1 and first["status"] == "active"
    clock.advance(61)
    assert _fire(served_api, game_id, first["move_count"]) == "timed-out"
    ended = _game(served_api, game_id)
    assert ended["status"] == "finished"
    assert ended["result"] == {"reason": "timeout", "winner": 2, "places": [3, 2, 1]}


def test_the_sweeper_ends_games_whose_schedule_never_fired(served_api: Api) -> None:
    _alice, _bob, game_id, _ = _three_seats(served_api)
    # The schedule is lost (deleted), as if its creation had failed.
    scheduling.disarm(game_id, 0)
    clock.advance(61)
    outcomes = served_api.sweep()
    assert outcomes.get("timed-out", 0) >= 1
    record = store.get_game(game_id)
    assert record is not None and record.state.seats[0].out
    # Swept again: this game is not due any more.
    clock.advance(1)
    assert game_id not in _due_ids()


def _due_ids() -> set[str]:
    until = clock.iso(clock.now())
    return {g for shard in deadline_shards() for g in store.due_games(shard, until)}


def test_only_games_with_a_running_clock_are_in_the_deadline_index(served_api: Api) -> None:
    api = served_api
    (token, _bob), game = api.people_game("index-alice", "index-bob", move_deadline_s=DEADLINE_S)
    clock.advance(DEADLINE_S + 1)
    assert game["game_id"] in _due_ids()
    api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
    assert game["game_id"] not in _due_ids()


def test_every_read_of_a_game_records_its_passed_deadline(served_api: Api) -> None:
    """The move log, the Verification document and the summary are reads of the game too."""
    api = served_api
    for path in ("moves", "verify", "summary"):
        token = api.guest()
        game = api.bot_game(token, move_deadline_s=60)
        clock.advance(61)
        reply = api.call("GET", f"/v1/games/{game['game_id']}/{path}")
        assert reply.status == 200, reply.body
        record = store.get_game(game["game_id"])
        assert record is not None and record.status == "finished"
        assert [m["action"] for m in store.list_moves(game["game_id"])] == ["timeout"]
        clock.reset()


def test_a_claim_that_ends_the_game_publishes_the_seed_and_counts_the_result(
    served_api: Api,
) -> None:
    api = served_api
    alice, bob = api.player("claim-end-a"), api.player("claim-end-b")
    body = {"bots": 0, "move_deadline_s": 60}
    game = api.call("POST", "/v1/games", token=alice, body=body).body
    api.call("POST", f"/v1/games/{game['game_id']}/join", token=bob)
    record = store.get_game(game["game_id"])
    assert record is not None and record.deadline is not None
    clock.advance((clock.parse_iso(record.deadline) - clock.now()).total_seconds() + 1)
    ended = api.call("POST", f"/v1/games/{game['game_id']}/timeout", token=bob)
    assert ended.status == 200, ended.body
    assert ended.body["status"] == "finished" and ended.body["seed"] is not None
    assert ended.body["result"] == {"reason": "timeout", "winner": 1, "places": [2, 1]}
    assert _schedules_of(game["game_id"]) == []
    stats = api.call("GET", "/v1/me", token=bob).body["stats"]
    assert stats["wins"] == 1


SWEPT_DEADLINE_S = 600  # a game against the bot: its key is rounded up to a bucket of 60 s


def test_a_turn_nobody_waits_for_has_no_schedule_and_the_sweeper_ends_it_never_early(
    served_api: Api,
) -> None:
    api = served_api
    token = api.guest()
    game_id = api.bot_game(token, move_deadline_s=SWEPT_DEADLINE_S)["game_id"]
    # A known safe cell showing a number: the bot replies from a board of one number, too
    # little to take the 26 mines a win needs from (a tap on an unknown cell may flood a region
    # the bot wins the game from, and a mine would not hand it the turn).
    known = api.field(game_id)
    safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    moved = api.commit(token, game_id, *divmod(safe, 16), 0)
    assert moved.status == 200 and moved.body["moves"][-1]["seat"] == 1, moved.body
    assert _schedules_of(game_id) == []  # neither created nor (at the end) deleted
    record = _stored(game_id)
    assert record.status == "active" and record.state.turn == 0 and not record.someone_waits
    assert record.sweep_bucket_s == 60
    deadline = clock.parse_iso(record.deadline)
    key = api.deadline_key(game_id)
    assert key is not None and key == record.due_key
    late = (clock.parse_iso(key) - deadline).total_seconds()
    assert 0 <= late < record.sweep_bucket_s  # never early, at most one bucket late
    assert clock.parse_iso(key).timestamp() % record.sweep_bucket_s == 0
    # A look at the game before its deadline (a stale entry of the index) changes nothing:
    # the sweeper acts on the game's own deadline and leaves it for a later look.
    clock.advance((deadline - clock.now()).total_seconds() - 10)
    _set_index_key(game_id, clock.iso(clock.now()))
    assert api.sweep().get("early", 0) >= 1
    assert _stored(game_id).version == record.version
    _set_index_key(game_id, key)
    clock.advance((deadline - clock.now()).total_seconds())
    if clock.parse_iso(key) - clock.now() >= timedelta(seconds=5):
        # At its deadline, the game's key is still ahead: the sweeper does not see it yet.
        assert game_id not in _due_ids()
        api.sweep()
        assert _stored(game_id).status == "active"
    clock.advance((clock.parse_iso(key) - clock.now()).total_seconds())
    assert game_id in _due_ids()
    assert api.sweep().get("timed-out", 0) >= 1
    ended = _stored(game_id)
    assert ended.status == "finished" and ended.state.result is not None
    assert ended.state.result.reason == "timeout" and ended.state.result.winner == 1
    [timeout] = [m for m in store.list_moves(game_id) if m["action"] == "timeout"]
    assert deadline <= clock.parse_iso(key) <= clock.parse_iso(timeout["at"]) <= clock.now()
    assert api.deadline_key(game_id) is None and _schedules_of(game_id) == []


def test_commits_within_one_bucket_leave_the_index_key_unchanged(served_api: Api) -> None:
    """Against the bot, every commit moves the deadline, but not the index key while the
    deadline stays in one bucket: DynamoDB then writes nothing to the index."""
    api = served_api
    token = api.guest()
    deadline_s = 3000  # under an hour (no warning): a bucket of 300 s
    game_id = api.bot_game(token, move_deadline_s=deadline_s, bot_level="easy")["game_id"]
    bucket = _stored(game_id).sweep_bucket_s
    assert bucket == 300
    # Start a second into a bucket of the deadlines to come, so the commits all fall in it.
    ahead = int((clock.now() + timedelta(seconds=deadline_s)).timestamp())
    clock.advance((-ahead) % bucket + 1)
    client = boto3.client("dynamodb", region_name=get_config().region)

    # Each commit taps a known mine: the turn stays with the guest, so the game goes on
    # whatever the field (a safe tap would hand the bot turns it might win the game with).
    known = api.field(game_id)
    mines = iter(c for c in range(256) if known.is_mine(c))

    def commit() -> tuple[str, str]:
        record = _stored(game_id)
        cell, width = next(mines), record.settings.width
        reply = api.commit(token, game_id, cell // width, cell % width, record.state.move_count)
        assert reply.status == 200, reply.body
        assert reply.body["game"]["status"] == "active"
        item = client.get_item(TableName=get_config().table_name, Key=game_key(game_id))
        return item["Item"]["deadline"]["S"], item["Item"]["due_at"]["S"]

    committed = []
    for _ in range(3):
        committed.append(commit())
        clock.advance(2)
    deadlines, keys = [d for d, _ in committed], {k for _, k in committed}
    assert len(set(deadlines)) == 3  # each commit moved the exact deadline...
    assert len(keys) == 1  # ...and none moved the index key
    (key,) = keys
    assert max(deadlines) <= key and api.deadline_key(game_id) == key
    # A commit whose deadline falls in the next bucket moves the key by one bucket.
    clock.advance(bucket)
    deadline, moved = commit()
    assert moved == clock.iso(clock.parse_iso(key) + timedelta(seconds=bucket)) >= deadline
    # Where a person waits, the key is the exact deadline, moved by every commit.
    (alice, _bob), game = api.people_game("bucket-alice", "bucket-bob", move_deadline_s=deadline_s)
    clock.advance(2)
    after = api.commit(alice, game["game_id"], 8, 8, 0).body["game"]
    assert (
        api.deadline_key(game["game_id"]) == after["turn"]["deadline"] != game["turn"]["deadline"]
    )


def test_a_turn_loses_its_schedule_when_the_other_person_leaves(served_api: Api) -> None:
    """Two accounts and a bot: every person's turn has its schedule while the other person
    waits; once one resigns, the last person's turns are left to the sweeper."""
    api = served_api
    (alice, bob), game = api.people_game(
        "leave-alice", "leave-bob", bots=1, move_deadline_s=DEADLINE_S
    )
    game_id = game["game_id"]
    assert _schedules_of(game_id) == [f"turn-{game_id}-0"]  # alice to move, bob waits
    # Alice opens a known safe cell showing a number: bob's turn, alice waits (a tap on an
    # unknown cell might flood a region the bot, moving once bob is out, wins the game from).
    known = api.field(game_id)
    safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    moved = api.commit(alice, game_id, *divmod(safe, 16), 0).body["game"]
    assert moved["turn"]["seat"] == 1  # a person's turn, the other waits
    current = f"turn-{game_id}-{moved['move_count']}"
    assert _schedules_of(game_id) == sorted([f"turn-{game_id}-0", current])
    assert _schedule_input(game_id, moved["move_count"])["deadline"] == moved["turn"]["deadline"]
    assert api.deadline_key(game_id) == moved["turn"]["deadline"]  # exact: someone waits
    resigned = api.call("POST", f"/v1/games/{game_id}/resign", token=bob)
    assert resigned.status == 200, resigned.body
    record = _stored(game_id)
    assert record.status == "active" and record.state.turn == 0 and not record.someone_waits
    # The turn bob waited on lost its schedule; the new one has none; the earlier, stale one
    # is left to fire (and change nothing) as ever.
    assert _schedules_of(game_id) == [f"turn-{game_id}-0"]
    assert api.expire(_schedule_input(game_id, 0)) == "stale"
    key = api.deadline_key(game_id)
    assert key is not None and key == record.due_key and key >= record.deadline
    clock.advance((clock.parse_iso(key) - clock.now()).total_seconds())
    assert api.sweep().get("timed-out", 0) >= 1
    ended = _stored(game_id)
    assert ended.status == "finished" and ended.state.result is not None
    assert (ended.state.result.reason, ended.state.result.winner) == ("timeout", 2)


def test_a_keyed_late_commit_keeps_its_refusal_for_a_retry(served_api: Api) -> None:
    """A refused request's key is an item of its own (nothing of it is in the log): a retry
    with the same key gets the same refusal, and plays nothing."""
    api = served_api
    (token, _bob), game = api.people_game("keyed-alice", "keyed-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    clock.advance(DEADLINE_S)
    key = {"Idempotency-Key": "late-1"}
    late = api.commit(token, game_id, 3, 3, 0, headers=key)
    assert (late.status, late.error_code) == (409, "deadline-passed")
    retry = api.commit(token, game_id, 3, 3, 0, headers=key)
    assert (retry.status, retry.error_code) == (409, "deadline-passed")
    assert retry.body == late.body
    assert _game(api, game_id)["board"] == game["board"]


def test_the_verification_document_lets_anybody_check_the_move_times(served_api: Api) -> None:
    """The finished game's document names its ``move_deadline_s`` and dates every move, so the
    verdict checks each move against its turn's deadline: the server's own log passes, and the
    same log with a move dated after its deadline fails on its own."""
    from mineduel_engine.verify import verify_document  # noqa: PLC0415

    api = served_api
    (alice, _bob), game = api.people_game("times-alice", "times-bob", move_deadline_s=DEADLINE_S)
    game_id = game["game_id"]
    field = api.field(game_id)
    mines = [divmod(cell, field.width) for cell in sorted(field.mines)[:2]]
    for n, (row, col) in enumerate(mines):
        clock.advance(30)
        assert api.commit(alice, game_id, row, col, n).status == 200  # a mine: alice goes on
    clock.advance(DEADLINE_S + 1)
    assert api.expire(_schedule_input(game_id, 2)) == "timed-out"
    doc = api.call("GET", f"/v1/games/{game_id}/verify").body
    assert doc["status"] == "finished" and doc["move_deadline_s"] == DEADLINE_S
    assert [m["action"] for m in doc["moves"]] == ["tap", "tap", "timeout"]
    assert doc["verdict"] == {"checked": True, "ok": True, "problems": []}
    late = json.loads(json.dumps(doc))
    late["moves"][1]["at"] = late["moves"][2]["at"]  # the second mine, dated at the timeout
    verdict = verify_document(late)
    assert not verdict.ok and any("deadline" in p for p in verdict.problems), verdict
