"""No response, log line or stored record of a running game holds the seed or a covered cell.

The test opens the seed itself (through KMS, as the commit function does) to know exactly
what must not appear, plays part of a game through every route with debug logging on, and then
searches every answer, every log line and every stored item of that game.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import zlib
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_engine import Field, Move, Settings, public_board
from mineduel_service.platform import crypto
from mineduel_service.platform.config import get_config
from mineduel_service.platform.observability import logger

if TYPE_CHECKING:
    from conftest import Api, Reply


def _readable(item: dict[str, Any]) -> dict[str, Any]:
    """An item as text, the game's compressed body decompressed (so secrets could be seen in
    it), the seed ciphertext left out."""
    readable = {k: v for k, v in item.items() if k != "seed_ct"}
    if "B" in item.get("body", {}):
        readable["body"] = zlib.decompress(bytes(item["body"]["B"])).decode("utf-8")
    return readable


def _items(game_id: str, guest_player: str) -> list[dict[str, Any]]:
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    items = dynamodb.scan(TableName=get_config().table_name)["Items"]
    return [
        i
        for i in items
        if i["pk"]["S"] == f"GAME#{game_id}" or i["pk"]["S"].startswith(f"IDEM#{guest_player}#")
    ]


def _secrets(seed: bytes, token: str, field: Field) -> list[str]:
    return [
        seed.hex(),
        seed.hex().upper(),
        base64.b64encode(seed).decode(),
        token,
        token.split(".")[2],
        *[row for row in field.to_strings() if "*" in row],
    ]


def test_a_running_game_leaks_nothing(
    api: Api,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    log_output: io.StringIO,
) -> None:
    previous_level = logger.log_level
    logger.setLevel(logging.DEBUG)
    caplog.set_level(logging.DEBUG)
    try:
        token = api.guest()
        replies: list[Reply] = []
        game = api.bot_game(token, bot_level="medium")
        game_id = game["game_id"]
        # Taps on known mines keep the turn, so the bot moves only once, after the one safe tap
        # (a number: one cell opened): from a board of four flags and one number it cannot
        # take the 26 mines a win needs, and the trail stays a running game's.
        known = api.field(game_id, ["abc", ""])
        mines = [cell for cell in range(256) if known.is_mine(cell)]
        safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
        headers = {"Idempotency-Key": "leak-1"}
        first = divmod(mines[0], 16)
        replies.append(api.commit(token, game_id, *first, 0, client_seed="abc", headers=headers))
        replies.append(api.commit(token, game_id, *first, 0, client_seed="abc", headers=headers))
        for cell in [*mines[1:4], safe]:
            current = api.call("GET", f"/v1/games/{game_id}").body
            assert current["status"] == "active" and current["turn"]["seat"] == 0, current
            replies.append(api.commit(token, game_id, *divmod(cell, 16), current["move_count"]))
        assert replies[-1].status == 200 and len(replies[-1].body["moves"]) > 1, replies[-1].body
        replies.append(api.commit(token, game_id, 0, 0, 0))  # stale: an error answer
        replies.append(api.commit(token, game_id, 99, 0, 0))  # out of range
        replies.append(api.call("GET", f"/v1/games/{game_id}"))
        replies.append(api.call("GET", f"/v1/games/{game_id}/moves"))
        replies.append(api.call("GET", f"/v1/games/{game_id}/verify"))
    finally:
        logger.setLevel(previous_level)

    final = api.call("GET", f"/v1/games/{game_id}").body
    assert final["status"] == "active"
    player = f"guest-{token.split('.')[1]}"
    items = _items(game_id, player)
    game_item = next(i for i in items if i["sk"]["S"] == "GAME")
    seed = crypto.decrypt_seed(bytes(game_item["seed_ct"]["B"]), game_id)
    settings = Settings.for_variant("mine-duel", seats=2)
    client_seeds = [s["client_seed"] for s in final["seats"]]
    field = Field.from_seed(seed, game_id, client_seeds, 16, 16, 51)
    forbidden = _secrets(seed, token, field)

    captured = capsys.readouterr()
    logs = captured.out + captured.err + caplog.text + log_output.getvalue()
    assert '"message":"game created"' in log_output.getvalue()
    stored_text = json.dumps([_readable(i) for i in items], default=str)
    answers = json.dumps([r.body for r in replies])
    for secret in forbidden:
        assert secret not in logs
        assert secret not in stored_text
        assert secret not in answers
    assert seed not in json.dumps(items, default=repr).encode()

    # Covered cells: every board anywhere is exactly what the logged moves made public.
    moves = [Move.from_dict(m) for m in api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]]
    public = public_board(settings, moves)
    stored_state = json.loads(_readable(game_item)["body"])["state"]
    assert stored_state["board"] == public == final["board"]
    assert final["seed"] is None and final["field"] is None
    for reply in replies:
        body = reply.body or {}
        game_view = body.get("game", body)
        if isinstance(game_view, dict) and "board" in game_view:
            assert game_view["seed"] is None and game_view["field"] is None
            assert all(
                ch == "." or public[r][c] == ch
                for r, row in enumerate(game_view["board"])
                for c, ch in enumerate(row)
            )
    # And the public board agrees with the field wherever it shows something.
    numbers = field.numbers
    for r, row in enumerate(public):
        for c, ch in enumerate(row):
            if ch.isdigit():
                assert numbers[r * 16 + c] == int(ch)
            elif ch != ".":
                assert field.is_mine(r * 16 + c)


def test_a_ciphertext_copied_into_another_game_does_not_decrypt(api: Api) -> None:
    token = api.guest()
    first = api.bot_game(token)["game_id"]
    second = api.bot_game(token)["game_id"]
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    table = get_config().table_name

    def item(game_id: str) -> dict[str, Any]:
        key = {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}
        return dynamodb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]

    stolen = bytes(item(first)["seed_ct"]["B"])
    assert len(crypto.decrypt_seed(stolen, first)) == 32
    with pytest.raises(crypto.SeedUnavailable):
        crypto.decrypt_seed(stolen, second)

    # Planted into the other game's item, it makes that game refuse to play, writing nothing.
    planted = item(second)
    planted["seed_ct"] = {"B": stolen}
    dynamodb.put_item(TableName=table, Item=planted)
    reply = api.commit(token, second, 0, 0, 0)
    assert reply.status == 500 and reply.error_code == "seed-unavailable"
    assert api.call("GET", f"/v1/games/{second}/moves").body == {"moves": []}
    assert api.call("GET", f"/v1/games/{second}").body["move_count"] == 0


def test_events_are_not_logged_even_when_the_environment_asks(
    api: Api, monkeypatch: pytest.MonkeyPatch, log_output: io.StringIO
) -> None:
    monkeypatch.setenv("POWERTOOLS_LOGGER_LOG_EVENT", "true")
    token = api.guest()
    game = api.bot_game(token)
    api.commit(token, game["game_id"], 1, 1, 0, headers={"Idempotency-Key": "log-check"})
    logged = log_output.getvalue()
    assert '"message":"game created"' in logged
    assert token not in logged and token.split(".")[2] not in logged
    assert "authorization" not in logged.lower() and "idempotency" not in logged.lower()
