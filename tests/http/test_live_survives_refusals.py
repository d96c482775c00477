"""Live push keeps working after any refused transaction, on the local stack.

A guest plays the bot with a socket subscribed to the game: a commit's message arrives. Then a
transaction of another kind is cancelled by its condition (and the test checks moto did roll
one back), and the guest's next commit's message must still arrive. Before the moto patch, moto
swapped a copy of the whole table in when a transaction failed: the stream trigger went on
reading the old table's stream, and no socket received anything until a restart.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from mineduel.local import moto_patch
from mineduel.local.accounts import signed_in
from mineduel.local.client import ApiClient, Reply, http_transport, next_tap
from mineduel.local.stack import RunningStack

pytestmark = pytest.mark.http
RACE_ATTEMPTS = 10


def _guest(stack: RunningStack) -> ApiClient:
    client = ApiClient(http_transport(stack.url))
    client.become_guest()
    return client


@contextlib.contextmanager
def _subscribe(stack: RunningStack, client: ApiClient, game_id: str) -> Iterator[ClientConnection]:
    with connect(f"{stack.live.url}/?token={client.token}", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
        assert json.loads(ws.recv(timeout=10))["type"] == "subscribed"
        yield ws


def _move_arrives(ws: ClientConnection, client: ApiClient, game: dict[str, Any]) -> dict[str, Any]:
    """Commit on ``game``; the socket is told of it within ten seconds. The game after it."""
    row, col = next_tap(game, "easy")
    after: dict[str, Any] = client.commit(game, row, col).ok()["game"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=10))
        if message.get("event") in ("move", "finished") and message["game_id"] == game["game_id"]:
            assert message["move_count"] <= after["move_count"]
            if message["move_count"] == after["move_count"]:
                return after
    raise AssertionError("the commit's message never arrived")


def _at_once(*calls: Callable[[], Reply]) -> list[Reply]:
    """Send the calls at one instant; their answers in order."""
    replies: list[Reply | None] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(index: int) -> None:
        barrier.wait()
        replies[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r for r in replies if r is not None]


def _racing(race: Callable[[], list[Reply]]) -> None:
    """Run ``race`` until moto cancels one of its transactions (it may also lose on a read)."""
    for _ in range(RACE_ATTEMPTS):
        before = moto_patch.rolled_back
        replies = race()
        assert sorted(r.status for r in replies)[0] == 200, [r.body[:200] for r in replies]
        if moto_patch.rolled_back > before:
            return
    raise AssertionError(f"no transaction was cancelled in {RACE_ATTEMPTS} races")


def taken_username(stack: RunningStack) -> None:
    signed_in(stack, "TakenFirst")
    second = signed_in(stack, "TakenSecond", username=False)
    reply = second.call("PUT", "/v1/me", {"username": "TakenFirst"})
    assert reply.status == 409 and reply.json()["code"] == "username-taken"


def a_21st_subscription(stack: RunningStack) -> None:
    guest = _guest(stack)
    games = [guest.create_game(bots=1, bot_level="easy")["game_id"] for _ in range(21)]
    with connect(f"{stack.live.url}/?token={guest.token}", open_timeout=10) as ws:
        for game_id in games:
            ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
        answers = [json.loads(ws.recv(timeout=10)) for _ in games]
    assert [a["type"] for a in answers[:20]] == ["subscribed"] * 20
    assert answers[20].get("code") == "too-many-subscriptions", answers[20]


def a_lost_join_race(stack: RunningStack) -> None:
    host = signed_in(stack, "JoinHost")
    racers = [signed_in(stack, f"Joiner{n}") for n in range(2)]

    def race() -> list[Reply]:
        game_id = host.call("POST", "/v1/games", {"bots": 0}).ok(201)["game_id"]
        path = f"/v1/games/{game_id}/join"
        replies = _at_once(*[lambda c=c: c.call("POST", path, {}) for c in racers])
        assert sorted(r.status for r in replies) == [200, 409]
        return replies

    _racing(race)


def a_lost_commit_race(stack: RunningStack) -> None:
    guest = _guest(stack)

    def race() -> list[Reply]:
        game = guest.create_game(bots=1, bot_level="easy")
        cells = [(r, c) for r, line in enumerate(game["board"]) for c, ch in enumerate(line)]
        (r1, c1), (r2, c2) = cells[0], cells[-1]
        replies = _at_once(lambda: guest.commit(game, r1, c1), lambda: guest.commit(game, r2, c2))
        assert sorted(r.status for r in replies) == [200, 409]
        return replies

    _racing(race)


def a_lost_resign_race(stack: RunningStack) -> None:
    guest = _guest(stack)

    def race() -> list[Reply]:
        path = f"/v1/games/{guest.create_game(bots=1, bot_level='easy')['game_id']}/resign"
        replies = _at_once(lambda: guest.call("POST", path), lambda: guest.call("POST", path))
        assert sorted(r.status for r in replies) == [200, 409]
        return replies

    _racing(race)


def a_lost_daily_duel_race(stack: RunningStack) -> None:
    def race() -> list[Reply]:
        guest = _guest(stack)
        replies = _at_once(*[lambda: guest.call("POST", "/v1/daily/play")] * 2)
        assert sorted(r.status for r in replies) == [201, 409]
        return [Reply(200, r.headers, r.body) if r.status == 201 else r for r in replies]

    _racing(race)


REFUSALS: dict[str, Callable[[RunningStack], None]] = {
    "a taken username": taken_username,
    "a 21st subscription": a_21st_subscription,
    "a lost join race": a_lost_join_race,
    "a lost commit race": a_lost_commit_race,
    "a lost resignation race": a_lost_resign_race,
    "a lost race for the daily duel": a_lost_daily_duel_race,
}


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_live_push_survives_a_refused_transaction(stack: RunningStack, kind: str) -> None:
    player = _guest(stack)
    game = player.create_game(bots=1, bot_level="easy")
    with _subscribe(stack, player, game["game_id"]) as ws:
        game = _move_arrives(ws, player, game)
        before = moto_patch.rolled_back
        REFUSALS[kind](stack)
        assert moto_patch.rolled_back > before, f"{kind}: no transaction was cancelled"
        if game["status"] == "active":
            _move_arrives(ws, player, game)
            return
    fresh = player.create_game(bots=1, bot_level="easy")  # the first tap ended the game
    with _subscribe(stack, player, fresh["game_id"]) as again:
        _move_arrives(again, player, fresh)
