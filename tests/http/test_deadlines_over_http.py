"""The two ways a deadline used to be lost, replayed over HTTP on the local stack, every time,
and how a turn nobody waits for ends without a schedule.

1. Three seats (three accounts), 60 s deadlines: each advance of the clock by 61 s times out
   the seat to move, by its turn's own schedule, until the third is alone and wins.
2. Between two accounts, a commit and a clock advance sent at the same instant: whichever wins,
   the new turn keeps its own schedule and the game ends on time when it passes.
3. Against the bot, nobody waits: no turn has a schedule, and the sweeper (the stack's minute
   schedule) ends the game after its deadline, at most a bucket (here a minute) late.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest

from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, Reply, http_transport
from mineduel.testing.fields import safe_number
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http
ROUNDS = 8


def _advance(client: ApiClient, seconds: int) -> dict[str, Any]:
    return dict(client.call("POST", "/_local/clock", {"advance_s": seconds}).ok())


def test_scenario_1_three_seats_every_missed_turn_is_recorded_on_time(
    stack: RunningStack,
) -> None:
    alice, bob, carol = (
        signed_in(stack, "scenario-alice", username=False),
        signed_in(stack, "scenario-bob", username=False),
        signed_in(stack, "scenario-carol", username=False),
    )
    for _ in range(3):
        game = alice.create_game(seats=3, bots=0, move_deadline_s=60)
        path = f"/v1/games/{game['game_id']}"
        bob.call("POST", f"{path}/join", {}).ok()
        game = carol.call("POST", f"{path}/join", {}).ok()
        assert game["status"] == "active" and game["turn"]["seat"] == 0

        # Each timeout is recorded by its turn's own schedule (reads would record it too, so
        # the clock's answer says which schedules fired).
        assert f"turn-{game['game_id']}-0" in _advance(alice, 61)["fired"]
        first = alice.call("GET", path).ok()
        assert first["seats"][0]["out"] and first["status"] == "active"
        assert first["turn"]["seat"] == 1

        fired = _advance(alice, 61)["fired"]
        assert f"turn-{game['game_id']}-{first['move_count']}" in fired
        second = alice.call("GET", path).ok()
        assert second["status"] == "finished", second
        assert second["result"] == {"reason": "timeout", "winner": 2, "places": [3, 2, 1]}

        fired = _advance(alice, 61)["fired"]  # nothing left to fire for this game
        assert not [name for name in fired if game["game_id"] in name]
        assert alice.call("GET", path).ok() == second
        moves = alice.call("GET", f"{path}/moves").ok()["moves"]
        assert [(m["seat"], m["action"]) for m in moves if m["action"] == "timeout"] == [
            (0, "timeout"),
            (1, "timeout"),
        ]


def _race_commit_and_clock(
    player: ApiClient, clock: ApiClient, game: dict[str, Any]
) -> dict[str, Reply]:
    """Send a commit and a 61 s clock advance at the same instant; both answers."""
    path = f"/v1/games/{game['game_id']}"
    row, col = next_tap(game)
    replies: dict[str, Reply] = {}
    barrier = threading.Barrier(2)

    def commit() -> None:
        barrier.wait()
        body = {"row": row, "col": col, "expected_move": 0}
        replies["commit"] = player.call("POST", f"{path}/moves", body)

    def advance() -> None:
        barrier.wait()
        replies["clock"] = clock.call("POST", "/_local/clock", {"advance_s": 61})

    threads = [threading.Thread(target=commit), threading.Thread(target=advance)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return replies


def test_scenario_2_a_commit_racing_the_clock_never_loses_the_next_deadline(
    stack: RunningStack,
) -> None:
    player = signed_in(stack, "racer-alice", username=False)
    other = signed_in(stack, "racer-bob", username=False)
    clock = ApiClient(http_transport(stack.url))
    for _ in range(ROUNDS):
        game = player.create_game(seats=2, bots=0, move_deadline_s=60)
        path = f"/v1/games/{game['game_id']}"
        game = other.call("POST", f"{path}/join", {}).ok()
        replies = _race_commit_and_clock(player, clock, game)
        assert replies["clock"].status == 200
        assert replies["commit"].status in (200, 409), replies["commit"].body
        now = player.call("GET", path).ok()
        if now["status"] == "active":
            # The commit won: its new turn has its own schedule, which ends it on time.
            fired = _advance(clock, 61)["fired"]
            assert f"turn-{game['game_id']}-{now['move_count']}" in fired
            now = player.call("GET", path).ok()
        assert now["status"] == "finished", now
        assert now["result"]["reason"] == "timeout"


def test_scenario_3_against_the_bot_the_sweeper_ends_the_turn_without_a_schedule(
    stack: RunningStack,
) -> None:
    player = ApiClient(http_transport(stack.url))
    player.become_guest()
    game = player.create_game(move_deadline_s=60)
    path = f"/v1/games/{game['game_id']}"
    game = player.commit(game, *safe_number(game["game_id"])).ok()["game"]
    deadline = game["turn"]["deadline"]
    fired = [*_advance(player, 61)["fired"], *_advance(player, 61)["fired"]]
    assert not [name for name in fired if game["game_id"] in name]  # no turn schedule
    swept_by = _advance(player, 30)["now"]  # a read from now on would record it at this time
    ended = player.call("GET", path).ok()
    assert ended["status"] == "finished" and ended["result"]["reason"] == "timeout"
    (timeout,) = [
        m
        for m in player.call("GET", f"{path}/moves").ok()["moves"]
        if m["seat"] == 0 and m["action"] == "timeout"
    ]
    # The sweeper recorded it (before the read), after the deadline, within a bucket (a minute
    # for 60 s turns) and the sweeper's minute.
    assert deadline <= timeout["at"] < swept_by
    late = datetime.fromisoformat(timeout["at"]) - datetime.fromisoformat(deadline)
    assert late < timedelta(seconds=120)
