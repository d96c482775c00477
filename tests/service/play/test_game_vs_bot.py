"""A whole game against the bot, driven through the handlers, then verified offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from mineduel_engine import Field, Move, Settings, public_board, rules_for
from mineduel_engine.bot import choose_move
from mineduel_engine.state import GameState
from mineduel_service.play import advance as turns

from mineduel.cli import main as mineduel
from mineduel.testing.fields import safe_number

if TYPE_CHECKING:
    from conftest import Api


def play_to_the_end(api: Api, token: str, game: dict, level: str = "easy") -> dict:
    """The guest plays with the bot's own public-information policy until the game ends."""
    game_id = game["game_id"]
    settings = Settings.for_variant(game["variant"], seats=len(game["seats"]))
    seen_moves: list[dict] = []
    first = True
    while game["status"] == "active":
        assert game["turn"]["seat"] == 0, "the bot must have moved inside the request"
        state = GameState.from_dict(
            {**game, "seats": game["seats"], "turn": 0, "eliminated": [], "result": None}
        )
        row, col = choose_move(state, game["commitment"], level)
        extra = {"client_seed": "guest-entropy"} if first else {}
        reply = api.commit(token, game_id, row, col, game["move_count"], **extra)
        assert reply.status == 200, reply.body
        first = False
        moves = reply.body["moves"]
        assert moves[0]["seat"] == 0 and (moves[0]["row"], moves[0]["col"]) == (row, col)
        assert all(m["seat"] == 1 for m in moves[1:])
        assert [m["n"] for m in moves] == list(
            range(game["move_count"] + 1, reply.body["game"]["move_count"] + 1)
        )
        seen_moves.extend(moves)
        game = reply.body["game"]
        assert game["board"] == public_board(settings, [Move.from_dict(m) for m in seen_moves])
    return game


def assert_bot_decided_from_public_information(doc: dict, level: str) -> None:
    """Anyone can re-run the bot: at each of its moves, the public state alone gives its cell."""
    settings = Settings.for_variant(doc["variant"], seats=len(doc["client_seeds"]))
    field = Field.from_strings(doc["field"])
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    bot_moves = 0
    for logged in doc["moves"]:
        if logged["seat"] == 1:
            assert choose_move(state, doc["commitment"], level) == (logged["row"], logged["col"])
            bot_moves += 1
        if logged["action"] == "tap":
            state, _ = rules.play(state, field, logged["seat"], "tap", logged["row"], logged["col"])
        else:
            state, _ = rules.eliminate(state, logged["seat"], logged["action"])
    assert bot_moves > 0


def test_whole_game_against_the_bot_then_verify(api: Api, tmp_path: Path) -> None:
    token = api.guest()
    game = api.bot_game(token, bot_level="easy")
    assert game["status"] == "active" and game["seed"] is None and game["field"] is None
    assert [s["kind"] for s in game["seats"]] == ["guest", "bot"]

    final = play_to_the_end(api, token, game)
    game_id = final["game_id"]
    assert final["status"] == "finished" and final["turn"] is None
    assert final["result"]["winner"] in (0, 1)
    assert final["seed"] is not None and len(bytes.fromhex(final["seed"])) == 32
    assert final["seats"][0]["client_seed"] == "guest-entropy"

    log = api.call("GET", f"/v1/games/{game_id}/moves", query={"after": "0"})
    assert log.status == 200
    assert [m["n"] for m in log.body["moves"]] == list(range(1, final["move_count"] + 1))
    tail = api.call("GET", f"/v1/games/{game_id}/moves", query={"after": "3"})
    assert tail.body["moves"] == log.body["moves"][3:]

    doc = api.call("GET", f"/v1/games/{game_id}/verify")
    assert doc.status == 200
    assert doc.body["verdict"]["checked"] is True and doc.body["verdict"]["ok"] is True
    assert doc.body["seed"] == final["seed"]
    # The answer that ended the game lays the field open, as the document does.
    assert final["field"] == doc.body["field"] and len(final["field"]) == 16
    assert sum(row.count("*") for row in final["field"]) == 51
    assert api.call("GET", f"/v1/games/{game_id}").body["field"] == doc.body["field"]
    assert doc.body["client_seeds"] == ["guest-entropy", ""]
    # The log's Move model also names windows-duel's fields, null in mine-duel.
    variant_only = ("points", "auto_opened")
    assert doc.body["moves"] == [
        {k: v for k, v in move.items() if not (k in variant_only and v is None)}
        for move in log.body["moves"]
    ]

    assert_bot_decided_from_public_information(doc.body, level="easy")

    path = tmp_path / "verification.json"
    path.write_text(json.dumps(doc.body))
    assert mineduel(["verify", str(path)]) == 0

    tampered = dict(doc.body, moves=[dict(m) for m in doc.body["moves"]])
    first_tap = next(m for m in tampered["moves"] if m["action"] == "tap")
    first_tap["result"] = "mine" if first_tap["result"] == "safe" else "safe"
    path.write_text(json.dumps(tampered))
    assert mineduel(["verify", str(path)]) != 0


def test_a_running_game_publishes_no_seed_and_an_unchecked_verdict(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token)
    doc = api.call("GET", f"/v1/games/{game['game_id']}/verify")
    assert doc.status == 200
    assert doc.body["seed"] is None and doc.body["field"] is None
    assert doc.body["verdict"]["checked"] is False
    assert doc.body["commitment"] == game["commitment"]


def test_resign_ends_a_bot_game_and_publishes_the_seed(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token)
    reply = api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
    assert reply.status == 200, reply.body
    assert reply.body["status"] == "finished"
    assert reply.body["result"] == {"reason": "resign", "winner": 1, "places": [2, 1]}
    assert reply.body["seed"] is not None
    assert reply.body["field"] is not None  # the field laid open at once, resigned or not
    again = api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
    assert again.status == 409 and again.error_code == "game-not-active"
    doc = api.call("GET", f"/v1/games/{game['game_id']}/verify")
    assert doc.body["verdict"]["ok"] is True, doc.body["verdict"]
    assert doc.body["field"] == reply.body["field"]


def test_bots_left_alone_play_on_to_a_verified_end_in_bounded_writes(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the only human out, three bots finish the game among themselves at once, one
    bounded transaction at a time, in the request that left them alone (the bound is made
    small here so that every game needs several writes)."""
    monkeypatch.setattr(turns, "MAX_MOVES_PER_WRITE", 10)
    token = api.guest()
    game = api.bot_game(token, seats=4, bots=3, bot_level="easy")
    game_id = game["game_id"]
    resigned = api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    assert resigned.status == 200, resigned.body
    current = resigned.body
    assert current["status"] == "finished"
    assert current["result"]["places"][0] == 4
    log = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert len(log) == current["move_count"]
    assert len(log) > 3 * turns.MAX_MOVES_PER_WRITE  # several writes were needed
    doc = api.call("GET", f"/v1/games/{game_id}/verify").body
    assert doc["verdict"]["ok"] is True, doc["verdict"]


def test_every_move_is_chained_and_a_saved_value_proves_the_log_up_to_it(api: Api) -> None:
    from mineduel_engine.chain import link  # noqa: PLC0415

    token = api.guest()
    game = api.bot_game(token, bot_level="easy")
    assert game["chain"] is None  # nothing played yet
    first = api.commit(token, game["game_id"], 0, 0, 0).body
    saved = first["game"]["chain"]  # what a careful client keeps
    assert saved == first["moves"][-1]["chain"]
    api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
    doc = api.call("GET", f"/v1/games/{game['game_id']}/verify").body
    assert doc["verdict"]["ok"], doc["verdict"]
    previous = doc["commitment"]
    for move in doc["moves"]:
        previous = link(previous, move)
        assert move["chain"] == previous
        if move["n"] == first["game"]["move_count"]:
            assert previous == saved  # the log up to the saved value is what the client saw
    log = api.call("GET", f"/v1/games/{game['game_id']}/moves").body["moves"]
    assert [m["chain"] for m in log] == [m["chain"] for m in doc["moves"]]


def test_a_commit_answers_with_every_move_it_caused_however_many_writes(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/api.md: the answer lists every move the request caused. Three bots reply to a tap,
    and with writes bounded to two moves the replies need several writes (the bound is 88 on
    AWS: a request in which bots play more than that is the same case); the answer, and a retry
    with the same Idempotency-Key, list them all, exactly as the log stores them."""
    monkeypatch.setattr(turns, "MAX_MOVES_PER_WRITE", 2)
    token = api.guest()
    game = api.bot_game(token, seats=4, bots=3, bot_level="easy")
    game_id = game["game_id"]
    row, col = safe_number(game_id)
    key = {"Idempotency-Key": "every-move-1"}
    first = api.commit(token, game_id, row, col, 0, headers=key)
    assert first.status == 200, first.body
    answered = first.body["moves"]
    stored = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    assert len(stored) == first.body["game"]["move_count"] >= 4  # a tap, a reply a bot at least
    assert [m["n"] for m in answered] == [m["n"] for m in stored]
    assert [m["chain"] for m in answered] == [m["chain"] for m in stored]
    retry = api.commit(token, game_id, row, col, 0, headers=key)
    assert retry.status == 200, retry.body
    assert [m["chain"] for m in retry.body["moves"]] == [m["chain"] for m in stored]
