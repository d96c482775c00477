"""Idempotency-Key: a retry with the same body gets the first answer and plays nothing."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import boto3
from mineduel_service.platform.config import get_config

if TYPE_CHECKING:
    from conftest import Api


def _idempotency_items(*tokens: str) -> list[dict]:
    """The idempotency records of the guests holding ``tokens``."""
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    items = dynamodb.scan(TableName=get_config().table_name)["Items"]
    players = tuple(f"IDEM#guest-{token.split('.')[1]}#" for token in tokens)
    return [i for i in items if i["pk"]["S"].startswith(players)]


def test_a_retry_returns_the_first_answer_and_plays_nothing(api: Api) -> None:
    token = api.guest()
    game_id = api.bot_game(token)["game_id"]
    key = {"Idempotency-Key": "c0ffee-1"}
    first = api.commit(token, game_id, 4, 4, 0, headers=key)
    assert first.status == 200
    retry = api.commit(token, game_id, 4, 4, 0, headers=key)
    assert retry.status == 200 and retry.body == first.body
    log = api.call("GET", f"/v1/games/{game_id}/moves")
    assert len(log.body["moves"]) == first.body["game"]["move_count"]
    assert len(_idempotency_items(token)) == 1


def test_same_key_with_another_body_is_422(api: Api) -> None:
    token = api.guest()
    game_id = api.bot_game(token)["game_id"]
    key = {"Idempotency-Key": "c0ffee-2"}
    assert api.commit(token, game_id, 4, 4, 0, headers=key).status == 200
    other = api.commit(token, game_id, 9, 9, 0, headers=key)
    assert other.status == 422 and other.error_code == "idempotency-key-reused"


def test_keys_are_scoped_to_the_caller(api: Api) -> None:
    alice, bob = api.guest(), api.guest()
    game_a = api.bot_game(alice)["game_id"]
    game_b = api.bot_game(bob)["game_id"]
    key = {"Idempotency-Key": "shared-key"}
    a = api.commit(alice, game_a, 2, 2, 0, headers=key)
    b = api.commit(bob, game_b, 2, 2, 0, headers=key)
    assert a.status == b.status == 200
    assert a.body["game"]["game_id"] == game_a and b.body["game"]["game_id"] == game_b
    assert len(_idempotency_items(alice, bob)) == 2


def test_a_replayed_finished_game_gets_its_seed_back_but_the_record_never_holds_it(
    api: Api,
) -> None:
    token = api.guest()
    game = api.bot_game(token)
    game_id = game["game_id"]
    # Tap the first covered cell, move after move, until a commit ends the game.
    expected = 0
    reply = None
    cells = [(r, c) for r in range(16) for c in range(16)]
    board = game["board"]
    while True:
        row, col = next((r, c) for r, c in cells if board[r][c] == ".")
        key = {"Idempotency-Key": f"k{expected}"}
        reply = api.commit(token, game_id, row, col, expected, headers=key)
        assert reply.status == 200, reply.body
        if reply.body["game"]["status"] == "finished":
            break
        board, expected = reply.body["game"]["board"], reply.body["game"]["move_count"]
    replay = api.commit(token, game_id, row, col, expected, headers=key)
    assert replay.status == 200 and replay.body == reply.body
    assert replay.body["game"]["seed"] is not None
    # The records hold what each request did (move numbers), never an answer, so no seed.
    seed = replay.body["game"]["seed"]
    for item in _idempotency_items(token):
        assert set(item) <= {"pk", "sk", "fingerprint", "first", "last", "status", "expires_ttl"}
        assert seed not in json.dumps(item)


def test_a_bad_idempotency_key_is_422(api: Api) -> None:
    token = api.guest()
    game_id = api.bot_game(token)["game_id"]
    reply = api.commit(token, game_id, 1, 1, 0, headers={"Idempotency-Key": "x" * 300})
    assert reply.status == 422 and reply.error_code == "bad-idempotency-key"
