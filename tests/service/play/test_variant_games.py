"""The three games through the API: each one played to the end against the bot and between
people, verified offline; the variants' refusals; and the secrecy of windows-duel's wrong
guesses, which no other viewer can tell until the game ends."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_engine import Field, verify_document
from mineduel_service.games import store
from mineduel_service.platform import crypto
from mineduel_service.platform.config import get_config
from mineduel_service.platform.observability import logger

from mineduel.cli import main as mineduel
from mineduel.testing.players import next_action

if TYPE_CHECKING:
    from conftest import Api

VARIANTS = ("mine-duel", "mineseeker", "windows-duel")


@pytest.fixture
def api(served_api: Api) -> Api:
    """One stack for the whole module (people need the served one): the moto server."""
    return served_api


def _play(api: Api, tokens: dict[int, str], game: dict[str, Any]) -> dict[str, Any]:
    """Play for the seats in ``tokens`` with the engine's bot on what each is shown, to the end."""
    while game["status"] == "active":
        seat = game["turn"]["seat"]
        token = tokens[seat]
        shown = api.call("GET", f"/v1/games/{game['game_id']}", token=token).body
        body = next_action(shown, seat, level="medium")
        reply = api.call("POST", f"/v1/games/{game['game_id']}/moves", token=token, body=body)
        assert reply.status == 200, reply.body
        game = reply.body["game"]
    return game


def _verified_offline(api: Api, game_id: str, tmp_path: Path) -> dict[str, Any]:
    doc = api.call("GET", f"/v1/games/{game_id}/verify").body
    assert doc["verdict"]["ok"] is True, doc["verdict"]
    assert verify_document(doc).ok
    path = tmp_path / f"{game_id}.json"
    path.write_text(json.dumps(doc))
    assert mineduel(["verify", str(path)]) == 0
    return dict(doc)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_guest_plays_each_variant_against_the_bot_to_a_verified_end(
    api: Api, variant: str, tmp_path: Path
) -> None:
    token = api.guest()
    game = api.bot_game(token, variant=variant, bot_level="medium")
    assert game["variant"] == variant
    size = {"mine-duel": 16, "mineseeker": 16, "windows-duel": 11}[variant]
    assert (game["width"], game["height"]) == (size, size)
    ended = _play(api, {0: token}, game)
    assert ended["status"] == "finished" and ended["seed"] is not None
    doc = _verified_offline(api, game["game_id"], tmp_path)
    assert doc["variant"] == variant
    if variant == "mineseeker":
        assert doc["options"] == {"bomb_when_behind": False}
        assert {"bomb_used"} <= set(ended["seats"][0])
    if variant == "windows-duel":
        assert {"score"} <= set(ended["seats"][0])
        assert ended["result"]["reason"] == "field-done"


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_people_play_each_variant(served_api: Api, variant: str, tmp_path: Path) -> None:
    api = served_api
    host, guest = api.player(f"{variant[:4]}-host"), api.player(f"{variant[:4]}-guest")
    created = api.call(
        "POST",
        "/v1/games",
        token=host,
        body={"variant": variant, "bots": 0, "invite": [f"{variant[:4]}-guest"]},
    )
    assert created.status == 201, created.body
    joined = api.call("POST", f"/v1/games/{created.body['game_id']}/join", token=guest)
    assert joined.status == 200 and joined.body["status"] == "active", joined.body
    ended = _play(api, {0: host, 1: guest}, joined.body)
    assert ended["status"] == "finished"
    _verified_offline(api, ended["game_id"], tmp_path)
    history = api.call("GET", "/v1/me/games", token=guest, query={"status": "finished"}).body
    assert ended["game_id"] in [g["game_id"] for g in history["games"]]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "minesweeper"}, 422, "unknown-variant"),
        ({"variant": "mineseeker", "seats": 3, "bots": 2}, 422, "invalid-settings"),
        ({"variant": "mine-duel", "bomb_when_behind": True}, 422, "bad-option"),
        ({"variant": "windows-duel", "options": {"bomb_when_behind": False}}, 422, "bad-option"),
        ({"variant": "mineseeker", "options": {"speed": True}}, 422, "bad-option"),
        ({"variant": "mineseeker", "bomb_when_behind": "yes"}, 422, "invalid-request"),
    ],
)
def test_bad_variant_settings_are_refused_at_creation(
    api: Api, body: dict[str, Any], status: int, code: str
) -> None:
    reply = api.call("POST", "/v1/games", token=api.guest(), body=body)
    assert (reply.status, reply.error_code) == (status, code), reply.body


def test_an_action_the_variant_does_not_have_is_bad_action(api: Api) -> None:
    token = api.guest()
    for variant, action in (
        ("mine-duel", "bomb"),
        ("windows-duel", "tap"),
        ("mineseeker", "guess"),
    ):
        game = api.bot_game(token, variant=variant)
        reply = api.commit(token, game["game_id"], 0, 0, 0, action=action)
        assert (reply.status, reply.error_code) == (422, "bad-action"), reply.body


def test_a_second_bomb_and_a_bomb_while_ahead_are_refused(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, variant="mineseeker", bot_level="easy")
    # The bomb hands the bot the turn with 25 cells opened, from which it may win the game at
    # once (2 or 3 boards in 1,000): bomb a cell after which, on the known field, it goes on.
    known = api.field(game["game_id"])
    row, col = next(
        cell
        for cell in [(8, 8), (3, 12), (12, 3), (12, 12)]
        if not api.after(game["game_id"], known, *cell, "bomb")[0].finished
    )
    first = api.commit(token, game["game_id"], row, col, 0, action="bomb")
    assert first.status == 200, first.body
    assert first.body["moves"][0]["result"] == "bomb"
    assert first.body["game"]["seats"][0]["bomb_used"] is True
    now = first.body["game"]
    assert now["status"] == "active" and now["turn"]["seat"] == 0, now
    again = api.commit(token, game["game_id"], 3, 3, now["move_count"], action="bomb")
    assert (again.status, again.error_code) == (409, "bomb-used")
    behind = api.bot_game(token, variant="mineseeker", bomb_when_behind=True)
    assert behind["options"] == {"bomb_when_behind": True}
    level = api.commit(token, behind["game_id"], 8, 8, 0, action="bomb")  # 0-0: not behind
    assert (level.status, level.error_code) == (409, "bomb-not-behind")


# ------------------------------------------------------------------------------ secrecy
def _field(game_id: str) -> Field:
    record = store.get_game(game_id)
    assert record is not None
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    s = record.settings
    return Field.from_seed(seed, game_id, record.client_seeds, s.width, s.height, s.mines)


def _safe_covered(field: Field, board: list[str], skip: int = 0) -> tuple[int, int]:
    found = [
        (r, c)
        for r, line in enumerate(board)
        for c, ch in enumerate(line)
        if ch == "." and not field.is_mine(r * field.width + c)
    ]
    return found[skip]


def _others_see(api: Api, game_id: str, tokens: list[str | None]) -> list[Any]:
    """Everything the other viewers get: each read's body and headers (ETag included)."""
    seen: list[Any] = []
    for token in tokens:
        for path in ("", "/moves", "/verify"):
            reply = api.call("GET", f"/v1/games/{game_id}{path}", token=token)
            seen.append((path, reply.status, reply.body, reply.headers.get("etag")))
    return seen


def _move_guess_to(game_id: str, n: int, cell: tuple[int, int]) -> None:
    """Rewrite where the wrong guess of move ``n`` was, in the log and in its seat's private
    part: a twin of the game that differs only in what no other viewer may know."""
    config = get_config()
    table = boto3.client("dynamodb", region_name=config.region)
    items = table.query(
        TableName=config.table_name,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :moves)",
        ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":moves": {"S": "MOVE#"}},
    )["Items"]
    item = next(i for i in items if any(m["n"] == n for m in store.moves_of(i)))
    moves = store.moves_of(item)
    move = next(m for m in moves if m["n"] == n)
    move["row"], move["col"] = cell
    item["moves"] = {"S": json.dumps(moves, separators=(",", ":"))}
    table.put_item(TableName=config.table_name, Item=item)
    record = store.get_game(game_id)
    assert record is not None
    parts = [list(record.state.private[i].wrong_guesses) for i in range(2)]
    width = record.settings.width
    parts[move["seat"]] = [cell[0] * width + cell[1]]
    from mineduel_engine.state import SeatPrivate  # noqa: PLC0415

    state = record.state.evolve(private=tuple(SeatPrivate(tuple(p)) for p in parts))
    store.write_game(record.evolve(state=state), record)


def test_nobody_but_its_seat_can_tell_where_a_wrong_guess_was_until_the_end(
    served_api: Api,
) -> None:
    api = served_api
    guesser, opponent = api.player("wd-guesser"), api.player("wd-opponent")
    spectator = api.player("wd-spectator")
    game = api.call(
        "POST", "/v1/games", token=guesser, body={"variant": "windows-duel", "bots": 0}
    ).body
    game_id = game["game_id"]
    api.call("POST", f"/v1/games/{game_id}/join", token=opponent)
    field = _field(game_id)
    board = api.call("GET", f"/v1/games/{game_id}").body["board"]
    row, col = _safe_covered(field, board)
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    logger.addHandler(handler)
    try:
        guess = api.commit(
            guesser, game_id, row, col, 0, action="guess", headers={"idempotency-key": "g-1"}
        )
    finally:
        logger.removeHandler(handler)
    assert guess.status == 200, guess.body
    (move,) = [m for m in guess.body["moves"] if m["n"] == 1]
    assert (move["result"], move["points"], move["row"], move["col"]) == ("miss", -2, row, col)
    assert guess.body["game"]["board"][row][col] == "?"  # the guesser sees it
    # Nothing of the cell went to a log line or the idempotency record.
    assert f'"row": {row}' not in buffer.getvalue() and '"row"' not in buffer.getvalue()
    config = get_config()
    idem = boto3.client("dynamodb", region_name=config.region).scan(TableName=config.table_name)
    for item in idem["Items"]:
        if item["pk"]["S"].startswith("IDEM#"):
            assert "row" not in json.dumps(item) and "col" not in json.dumps(item)

    others = [opponent, spectator, None]
    before = _others_see(api, game_id, others)
    for path, status, body, _etag in before:
        assert status == 200
        text = json.dumps(body)
        assert "?" not in text  # no board shows it
        moves = body.get("moves", []) if isinstance(body, dict) else []
        for m in moves:
            if m["n"] == 1:
                assert m["row"] is None and m["col"] is None, path
    mine = api.call("GET", f"/v1/games/{game_id}/moves", token=guesser).body["moves"]
    assert (mine[0]["row"], mine[0]["col"]) == (row, col)

    # A twin game where the wrong guess was elsewhere looks exactly the same to the others,
    # ETags included: they cannot tell where it was.
    elsewhere = _safe_covered(field, board, skip=1)
    _move_guess_to(game_id, 1, elsewhere)
    assert _others_see(api, game_id, others) == before
    assert (
        api.call("GET", f"/v1/games/{game_id}", token=guesser).body["board"][elsewhere[0]][
            elsewhere[1]
        ]
        == "?"
    )

    # Once the game is over, everything is public.
    api.call("POST", f"/v1/games/{game_id}/resign", token=opponent)
    public = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert (public[0]["row"], public[0]["col"]) == elsewhere
