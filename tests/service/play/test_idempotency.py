"""Idempotency-Key: a retry with the same body gets the first answer and plays nothing."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import boto3
from mineduel_service.platform.config import get_config

if TYPE_CHECKING:
    from conftest import Api


def _items() -> list[dict]:
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    return dynamodb.scan(TableName=get_config().table_name)["Items"]


def _idempotency_items(*tokens: str) -> list[dict]:
    """The idempotency records (refused requests' keys) of the guests holding ``tokens``."""
    players = tuple(f"IDEM#guest-{token.split('.')[1]}#" for token in tokens)
    return [i for i in _items() if i["pk"]["S"].startswith(players)]


def _marked_log_items(*game_ids: str) -> list[dict]:
    """The games' log items that carry a request's Idempotency-Key (its first answer)."""
    games = {f"GAME#{g}" for g in game_ids}
    return [
        i
        for i in _items()
        if i["pk"]["S"] in games and i["sk"]["S"].startswith("MOVE#") and "key" in i
    ]


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
    # the first answer rides on the log item of the request's moves: no item of its own
    assert len(_marked_log_items(game_id)) == 1
    assert _idempotency_items(token) == []


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
    (mark_a,), (mark_b,) = _marked_log_items(game_a), _marked_log_items(game_b)
    assert mark_a["key"] != mark_b["key"]  # the same key, two callers: two marks


def test_a_replayed_finished_game_gets_its_seed_back_but_the_record_never_holds_it(
    api: Api,
) -> None:
    token = api.guest()
    game = api.bot_game(token)
    game_id = game["game_id"]
    # Tap the first covered cell, move after move, until a commit ends the game.
    expected = requests = 0
    reply = None
    cells = [(r, c) for r in range(16) for c in range(16)]
    board = game["board"]
    while True:
        row, col = next((r, c) for r, c in cells if board[r][c] == ".")
        key = {"Idempotency-Key": f"k{expected}"}
        reply = api.commit(token, game_id, row, col, expected, headers=key)
        requests += 1
        assert reply.status == 200, reply.body
        if reply.body["game"]["status"] == "finished":
            break
        board, expected = reply.body["game"]["board"], reply.body["game"]["move_count"]
    replay = api.commit(token, game_id, row, col, expected, headers=key)
    assert replay.status == 200 and replay.body == reply.body
    assert replay.body["game"]["seed"] is not None
    # What is kept of each key is a mark on the log items of its moves, never an answer: no
    # seed anywhere but in the game item it was always in.
    seed = replay.body["game"]["seed"]
    marked = _marked_log_items(game_id)
    assert len(marked) == requests  # every write of the game was one keyed request's
    for item in marked:
        assert set(item) == {"pk", "sk", "first", "n", "moves", "key", "fp"}
        assert seed not in json.dumps(item)
    assert _idempotency_items(token) == []


def test_a_bad_idempotency_key_is_422(api: Api) -> None:
    token = api.guest()
    game_id = api.bot_game(token)["game_id"]
    reply = api.commit(token, game_id, 1, 1, 0, headers={"Idempotency-Key": "x" * 300})
    assert reply.status == 422 and reply.error_code == "bad-idempotency-key"


def test_a_retry_after_later_moves_gets_the_first_answer_and_a_new_key_on_it_is_stale(
    api: Api,
) -> None:
    """The first answer is found from the position the request was committed on: a retry
    after the caller played on answers as the first time (the game as it stands now), and a
    request with another key on that old position is refused as stale, playing nothing."""
    token = api.guest()
    game_id = api.bot_game(token)["game_id"]
    known = api.field(game_id)
    mines = [c for c in range(16 * 16) if known.is_mine(c)]
    first = api.commit(token, game_id, *divmod(mines[0], 16), 0, headers={"Idempotency-Key": "a"})
    assert first.status == 200 and len(first.body["moves"]) == 1  # a mine: the turn stays
    later = api.commit(token, game_id, *divmod(mines[1], 16), 1, headers={"Idempotency-Key": "b"})
    assert later.status == 200 and later.body["game"]["move_count"] == 2
    retry = api.commit(token, game_id, *divmod(mines[0], 16), 0, headers={"Idempotency-Key": "a"})
    assert retry.status == 200
    assert retry.body["moves"] == first.body["moves"]
    assert retry.body["game"]["move_count"] == 2
    stale = api.commit(token, game_id, *divmod(mines[0], 16), 0, headers={"Idempotency-Key": "c"})
    assert (stale.status, stale.error_code) == (409, "stale-move")
    reused = api.commit(token, game_id, *divmod(mines[2], 16), 0, headers={"Idempotency-Key": "a"})
    assert (reused.status, reused.error_code) == (422, "idempotency-key-reused")
    assert api.call("GET", f"/v1/games/{game_id}").body["move_count"] == 2
