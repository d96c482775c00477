"""Racing commits for one turn: exactly one lands, the rest get 409, nothing is half-written.

The handlers run concurrently in threads against a moto server; only moto's side is
serialized (it is not thread-safe), exactly as DynamoDB serializes conflicting writes.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import boto3
from mineduel_engine import rules_for
from mineduel_service.games import store
from mineduel_service.platform import dynamo
from mineduel_service.platform.config import get_config

if TYPE_CHECKING:
    from conftest import Api, Reply

RACERS = 8


def _race(api: Api, token: str, game_id: str, cells: list[tuple[int, int]]) -> list[Reply]:
    barrier = threading.Barrier(len(cells))

    def one(cell: tuple[int, int]) -> Reply:
        barrier.wait()
        return api.commit(token, game_id, cell[0], cell[1], 0)

    with ThreadPoolExecutor(max_workers=len(cells)) as pool:
        return list(pool.map(one, cells))


def _logged_moves(game_id: str) -> list[dict]:
    """Every move in the game's log items (each write's moves are one item)."""
    return [move for item in _move_items(game_id) for move in store.moves_of(item)]


def _move_items(game_id: str) -> list[dict]:
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    answer = dynamodb.query(
        TableName=get_config().table_name,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :m)",
        ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":m": {"S": "MOVE#"}},
        ConsistentRead=True,
    )
    return answer["Items"]


def test_of_racing_commits_for_one_turn_exactly_one_lands(served_api: Api) -> None:
    token = served_api.guest()
    game = served_api.bot_game(token, bot_level="easy")
    game_id = game["game_id"]
    cells = [
        (r, c) for r, c in [(0, 0), (15, 15), (0, 15), (15, 0), (7, 7), (8, 8), (3, 12), (12, 3)]
    ]
    replies = _race(served_api, token, game_id, cells[:RACERS])

    statuses = sorted(r.status for r in replies)
    assert statuses.count(200) == 1, statuses
    assert all(r.status == 409 for r in replies if r.status != 200), [r.body for r in replies]
    codes = [r.error_code for r in replies if r.status == 409]
    assert set(codes) <= {"move-conflict", "stale-move"}

    winner = next(r for r in replies if r.status == 200)
    final = served_api.call("GET", f"/v1/games/{game_id}")
    assert final.body == winner.body["game"]
    logged = _logged_moves(game_id)
    assert len(_move_items(game_id)) == 1  # one write landed
    assert len(logged) == final.body["move_count"] == len(winner.body["moves"])


def test_racing_retries_with_one_idempotency_key_play_once(served_api: Api) -> None:
    token = served_api.guest()
    game = served_api.bot_game(token, bot_level="easy")
    game_id = game["game_id"]
    barrier = threading.Barrier(RACERS)

    def one(_: int) -> Reply:
        barrier.wait()
        return served_api.commit(token, game_id, 5, 5, 0, headers={"Idempotency-Key": "tap-1"})

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        replies = list(pool.map(one, range(RACERS)))
    assert {r.status for r in replies} == {200}, [r.body for r in replies]
    assert all(r.body == replies[0].body for r in replies)
    assert len(_logged_moves(game_id)) == replies[0].body["game"]["move_count"]


def test_the_store_lands_exactly_one_of_racing_transactions(served_api: Api) -> None:
    """Below the handlers: the same pre-image written concurrently with different outcomes."""
    token = served_api.guest()
    game_id = served_api.bot_game(token, bot_level="easy")["game_id"]
    before = store.get_game(game_id)
    assert before is not None
    rules = rules_for(before.settings.variant)
    outcomes = []
    for seat_out in range(RACERS):
        state, move = rules.eliminate(before.state, 0 if seat_out % 2 else 1, "resign")
        after = before.evolve(state=state, status="finished")
        outcomes.append((after, [{**move.to_dict(), "at": "2026-11-29T12:00:00Z"}]))
    barrier = threading.Barrier(RACERS)

    def write(outcome: tuple) -> str:
        barrier.wait()
        try:
            store.write_game(outcome[0], before, outcome[1])
        except dynamo.WriteConflict as conflict:
            assert conflict.failed(0) or "ConditionalCheckFailed" in conflict.reasons
            return "lost"
        return "landed"

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        results = list(pool.map(write, outcomes))
    assert results.count("landed") == 1, results
    stored = store.get_game(game_id)
    assert stored is not None and stored.version == before.version + 1
    items = _move_items(game_id)
    assert len(items) == 1 and stored.state.move_count == 1
