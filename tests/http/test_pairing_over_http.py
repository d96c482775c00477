"""Quick pairing over real HTTP on the local stack (``make run``), as an independent client
would race it: eight signed-in accounts send ``POST /v1/seeks`` at one instant, round after
round, and every round makes exactly four games, each of two of them, nobody left out and
nobody paired twice. The interpreter switches threads far more often than by default while it
runs, so the requests' DynamoDB calls interleave as much as they can.

The seeks are read back from the table, not through ``GET /v1/seeks/{id}``: that route tries
an open seek for pairing again, and would hide a seek the race had left open.
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from mineduel_service.games import store as games
from mineduel_service.pairing import store

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, Reply

pytestmark = pytest.mark.http
SEEKERS = 8
ROUNDS = 3
SWITCH_INTERVAL_S = 1e-5


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0)
    yield running
    running.stop()


@pytest.fixture
def frequent_switches() -> Iterator[None]:
    saved = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(saved)


def _ok(reply: Reply, *statuses: int) -> dict[str, Any]:
    assert reply.status in statuses, reply.body[:400]
    found: dict[str, Any] = reply.json()
    return found


def _race(clients: list[ApiClient], body: dict[str, Any]) -> list[Reply]:
    """Every client seeks at the same instant, each from a thread of its own."""
    barrier = threading.Barrier(len(clients))
    replies: list[Reply | None] = [None] * len(clients)

    def seek(n: int) -> None:
        barrier.wait()
        replies[n] = clients[n].call("POST", "/v1/seeks", body)

    threads = [threading.Thread(target=seek, args=(n,)) for n in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(reply is not None for reply in replies)
    return [reply for reply in replies if reply is not None]


def test_eight_accounts_racing_over_http_make_four_games_a_round(
    stack: RunningStack, frequent_switches: None
) -> None:
    clients = [signed_in(stack, f"racer{n}") for n in range(SEEKERS)]
    ids = [str(_ok(c.call("GET", "/v1/me"), 200)["player_id"]) for c in clients]
    body = {"move_deadline_s": 3600, "rated": True, "rating_range": [1400, 1600]}
    games_seen: set[str] = set()
    for _ in range(ROUNDS):
        replies = _race(clients, body)
        answers = [_ok(reply, 200, 201) for reply in replies]
        # every game has an answer that names it (200); a 201 was open when it was answered
        assert sum(reply.status == 200 for reply in replies) >= SEEKERS // 2
        assert all(
            a["status"] == "open" for r, a in zip(replies, answers, strict=True) if r.status == 201
        )
        stored = [store.get_seek(ids[n], answers[n]["seek_id"]) for n in range(SEEKERS)]
        assert [s.status if s else None for s in stored] == ["paired"] * SEEKERS
        per_game = Counter(s.game_id for s in stored if s)
        assert len(per_game) == SEEKERS // 2 and set(per_game.values()) == {2}
        for game_id, _pair in per_game.items():
            assert game_id is not None and game_id not in games_seen
            games_seen.add(game_id)
            record = games.get_game(game_id)
            assert record is not None and record.status == "active" and record.rated
            owners = {s.player_id for s in stored if s and s.game_id == game_id}
            assert set(record.player_seats.values()) == owners and len(owners) == 2
        for n, (reply, answer) in enumerate(zip(replies, answers, strict=True)):
            if reply.status == 200:  # paired at once: the answer names its own game
                found = stored[n]
                assert found is not None and answer["game_id"] == found.game_id
        # nobody is left looking
        listed = _ok(clients[0].call("GET", "/v1/seeks?variant=mine-duel"), 200)["seeks"]
        assert [s for s in listed if s["move_deadline_s"] == 3600] == []
    for client in clients:  # each player sits in one game a round
        mine = _ok(client.call("GET", "/v1/me/games?status=active"), 200)["games"]
        assert len({g["game_id"] for g in mine} & games_seen) == ROUNDS
