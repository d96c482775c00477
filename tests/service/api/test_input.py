"""Bad input of every kind gets a clear 4xx in docs/api.md's error shape, never a 5xx."""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mineduel_service.platform import clock
from mineduel_service.platform.config import get_config

if TYPE_CHECKING:
    from conftest import Api, Reply

MISSING_GAME = "00000000-0000-4000-8000-000000000000"


PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "code", "error"}


def assert_problem(status: int, headers: dict[str, str], body: Any) -> None:
    """An RFC 9457 problem details answer, with the API's code and the old error object."""
    assert headers.get("content-type") == "application/problem+json"
    assert set(body) - {"errors"} == PROBLEM_KEYS, body
    assert body["status"] == status
    code = body["code"]
    assert isinstance(code, str) and code == code.lower()
    assert body["type"] == f"urn:mineduel:problem:{code}"
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"].endswith(".")
    assert body["error"]["code"] == code and body["error"]["message"] == body["detail"]


def assert_error(reply: Reply, status: int, code: str | None = None) -> None:
    assert reply.status == status, reply.body
    assert_problem(status, reply.headers, reply.body)
    if code is not None:
        assert reply.body["code"] == code


@pytest.fixture
def game(api: Api) -> tuple[str, str]:
    token = api.guest()
    return token, api.bot_game(token)["game_id"]


def test_malformed_json_is_400(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    reply = api.call("POST", f"/v1/games/{game_id}/moves", token=token, raw_body="{row: 1")
    assert_error(reply, 400, "malformed-request")


def test_an_oversized_body_is_413(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    body = json.dumps({"row": 1, "col": 1, "expected_move": 0, "pad": "x" * 20_000})
    reply = api.call("POST", f"/v1/games/{game_id}/moves", token=token, raw_body=body)
    assert_error(reply, 413, "body-too-large")


@pytest.mark.parametrize(
    "body",
    [
        {"row": 16, "col": 0, "expected_move": 0},
        {"row": -1, "col": 0, "expected_move": 0},
        {"row": 99999999999999999999, "col": 0, "expected_move": 0},
        {"row": "1", "col": 0, "expected_move": 0},
        {"row": 1.5, "col": 0, "expected_move": 0},
        {"row": True, "col": 0, "expected_move": 0},
        {"col": 0, "expected_move": 0},
        {"row": 1, "col": 0},
        {"row": 1, "col": 0, "expected_move": 0, "action": "bomb"},
        {"row": 1, "col": 0, "expected_move": 0, "client_seed": "no|pipes"},
        {"row": 1, "col": 0, "expected_move": 0, "client_seed": "x" * 65},
        [1, 2, 3],
        "tap",
        None,
    ],
)
def test_invalid_commits_are_422(api: Api, game: tuple[str, str], body: Any) -> None:
    token, game_id = game
    raw = json.dumps(body)
    reply = api.call("POST", f"/v1/games/{game_id}/moves", token=token, raw_body=raw)
    assert_error(reply, 422)
    if reply.error_code == "invalid-request":
        assert reply.body["error"]["details"]


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 5},
        {"seats": 1},
        {"bots": 2, "seats": 2},
        {"variant": "chess"},
        {"bot_level": "grandmaster"},
        {"move_deadline_s": 59},
        {"move_deadline_s": 604801},
        {"rated": "yes"},
        {"invite": "bob"},
    ],
)
def test_invalid_games_are_4xx(api: Api, body: dict[str, Any]) -> None:
    token = api.guest()
    reply = api.call("POST", "/v1/games", token=token, body=body)
    assert 400 <= reply.status < 500
    assert_error(reply, reply.status)


def test_guests_play_bots_only(api: Api) -> None:
    token = api.guest()
    reply = api.call("POST", "/v1/games", token=token, body={"bots": 0})
    assert_error(reply, 403, "guests-play-bots-only")
    reply = api.call("POST", "/v1/games", token=token, body={"rated": True})
    assert_error(reply, 422, "unrated-seat")


@pytest.mark.parametrize(
    "auth",
    [None, "garbage", "mdg1.short.secret", "a.b.c", "Basic abc"],
)
def test_bad_credentials_are_401(api: Api, auth: str | None) -> None:
    headers = {"authorization": auth} if auth and " " in auth else None
    token = None if auth is None or " " in auth else auth
    reply = api.call("POST", "/v1/games", token=token, body={}, headers=headers)
    assert_error(reply, 401)


def test_a_forged_guest_token_is_401_or_403(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    forged = token[:-4] + "AAAA"
    assert_error(api.call("POST", "/v1/games", token=forged, body={}), 401)
    assert_error(api.commit(forged, game_id, 0, 0, 0), 401)
    stranger = api.guest()
    assert_error(api.commit(stranger, game_id, 0, 0, 0), 403, "not-your-seat")


def test_unknown_games_are_404(api: Api) -> None:
    token = api.guest()
    for path in (MISSING_GAME, "not-a-uuid", "x" * 300):
        assert_error(api.call("GET", f"/v1/games/{path}"), 404, "game-not-found")
        assert_error(api.call("GET", f"/v1/games/{path}/moves"), 404, "game-not-found")
        assert_error(api.call("GET", f"/v1/games/{path}/verify"), 404, "game-not-found")
        assert_error(api.commit(token, path, 0, 0, 0), 404, "game-not-found")
        assert_error(api.call("POST", f"/v1/games/{path}/resign", token=token), 404)


@pytest.mark.parametrize("after", ["-1", "x", "1e3", "100001"])
def test_a_bad_after_is_422(api: Api, game: tuple[str, str], after: str) -> None:
    _, game_id = game
    reply = api.call("GET", f"/v1/games/{game_id}/moves", query={"after": after})
    assert_error(reply, 422)


def test_refused_moves_keep_the_game(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    # A known mine: the turn stays with the guest and the bot does not move (after a tap on an
    # unknown cell it may win the game at once, about 1 time in 1,000, and every refusal below
    # would then be game-not-active).
    known = api.field(game_id)
    row, col = divmod(next(c for c in range(256) if known.is_mine(c)), 16)
    first = api.commit(token, game_id, row, col, 0)
    assert first.status == 200
    n = first.body["game"]["move_count"]
    assert_error(api.commit(token, game_id, row, col, n), 409, "cell-not-covered")
    assert_error(api.commit(token, game_id, 6, 6, 0), 409, "stale-move")
    assert_error(
        api.commit(token, game_id, 6, 6, n, client_seed="late"), 422, "client-seed-too-late"
    )
    assert api.call("GET", f"/v1/games/{game_id}").body == first.body["game"]


def test_get_sends_an_etag_and_honours_if_none_match(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    first = api.call("GET", f"/v1/games/{game_id}")
    tag = first.headers["etag"]
    same = api.call("GET", f"/v1/games/{game_id}", headers={"If-None-Match": tag})
    assert same.status == 304 and same.body is None and same.headers["etag"] == tag
    api.commit(token, game_id, 9, 9, 0)
    changed = api.call("GET", f"/v1/games/{game_id}", headers={"If-None-Match": tag})
    assert changed.status == 200 and changed.headers["etag"] != tag


def test_unknown_routes_are_404(api: Api) -> None:
    logical_id, event = api.event("GET", f"/v1/games/{MISSING_GAME}")
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/v1/nothing"
    raw = api.invoker.invoke(logical_id, event)
    assert raw["statusCode"] == 404
    assert json.loads(raw["body"])["error"]["code"] == "no-such-route"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["row", "col", "expected_move", "action", "client_seed", "x"]),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=json_values)
def test_any_json_commit_body_gets_a_4xx_or_a_move(
    api: Api, game: tuple[str, str], body: Any
) -> None:
    token, game_id = game
    reply = api.call("POST", f"/v1/games/{game_id}/moves", token=token, raw_body=json.dumps(body))
    assert reply.status < 500, reply.body
    if reply.status != 200:
        assert_error(reply, reply.status)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=200))
def test_any_bytes_as_a_body_get_a_4xx(api: Api, raw: bytes) -> None:
    token = api.guest()
    reply = api.call("POST", "/v1/games", token=token, raw_body=raw.decode("latin-1"))
    assert reply.status < 500, reply.body


def test_a_deeply_nested_body_is_400(api: Api) -> None:
    token = api.guest()
    reply = api.call("POST", "/v1/games", token=token, raw_body="[" * 8000 + "]" * 8000)
    assert_error(reply, 400, "malformed-request")


@pytest.mark.parametrize(
    "body", [b"\xff\xfe{}", b"not json", b"{}" + b" " * 20_000], ids=["utf8", "json", "size"]
)
def test_base64_bodies_are_checked_like_any_other(api: Api, body: bytes) -> None:
    token = api.guest()
    logical_id, event = api.event("POST", "/v1/games", token=token, raw_body="{}")
    event["body"] = base64.b64encode(body).decode()
    event["isBase64Encoded"] = True
    raw = api.invoker.invoke(logical_id, event)
    status = 413 if len(body) > 16384 else 400
    assert raw["statusCode"] == status
    headers = {k.lower(): v for k, v in raw["headers"].items()}
    assert_problem(status, headers, json.loads(raw["body"]))


def test_an_expired_guest_token_is_401(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    clock.advance(get_config().guest_token_ttl_s + 1)
    assert_error(api.call("POST", "/v1/games", token=token, body={}), 401, "unauthorized")
    assert_error(api.commit(token, game_id, 0, 0, 0), 401, "unauthorized")
    assert_error(api.call("POST", f"/v1/games/{game_id}/resign", token=token), 401)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_body_not_sent_as_json_is_415(api: Api, content_type: str) -> None:
    token = api.guest()
    logical_id, event = api.event("POST", "/v1/games", token=token, raw_body="{}")
    if content_type:
        event["headers"]["content-type"] = content_type
    else:
        del event["headers"]["content-type"]
    raw = api.invoker.invoke(logical_id, event)
    assert raw["statusCode"] == 415
    headers = {k.lower(): v for k, v in raw["headers"].items()}
    body = json.loads(raw["body"])
    assert_problem(415, headers, body)
    assert body["code"] == "unsupported-media-type" and "application/json" in body["detail"]


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON"])
def test_json_with_parameters_or_any_case_is_json(api: Api, content_type: str) -> None:
    token = api.guest()
    reply = api.call(
        "POST", "/v1/games", token=token, body={}, headers={"content-type": content_type}
    )
    assert reply.status == 201, reply.body


def test_validation_problems_list_each_field(api: Api, game: tuple[str, str]) -> None:
    token, game_id = game
    reply = api.commit(token, game_id, -1, 99, 0)
    assert_error(reply, 422, "invalid-request")
    fields = {tuple(e["loc"][1:]) for e in reply.body["errors"]}
    assert fields == {("row",), ("col",)}
    assert reply.body["instance"] == f"/v1/games/{game_id}/moves"
