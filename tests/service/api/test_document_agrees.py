"""The OpenAPI document and the server agree on what a request may hold.

Integers: in OpenAPI 3.1 ``37.0`` is an integer (JSON has one number type), so the server
takes a number without a fraction as that integer and refuses ``37.5``, ``true`` and ``"37"``.
Enumerations the service checks itself (``bot_level``, ``action``) are listed in the document
from the same constants. A body is a JSON object: an array is refused, not read by its first
element.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from mineduel_engine.bot import BOT_LEVELS
from mineduel_service.contract.models import ACTIONS

from mineduel.openapi.generate import build
from mineduel.template import load_template

if TYPE_CHECKING:
    from conftest import Api


@pytest.fixture(scope="module")
def schemas() -> dict[str, Any]:
    components: dict[str, Any] = build(load_template())["components"]["schemas"]
    return components


def test_the_document_lists_the_enumerations_the_server_checks(schemas: dict[str, Any]) -> None:
    assert schemas["CreateGameRequest"]["properties"]["bot_level"]["enum"] == list(BOT_LEVELS)
    assert schemas["CommitRequest"]["properties"]["action"]["enum"] == list(ACTIONS)
    assert {"tap", "bomb", "guess", "reveal"} == set(ACTIONS)
    for name in ("row", "col", "expected_move"):
        assert schemas["CommitRequest"]["properties"][name]["type"] == "integer"


def test_a_whole_number_written_with_a_fraction_is_that_integer(api: Api) -> None:
    token = api.guest()
    raw = '{"bots": 1.0, "seats": 2.0, "move_deadline_s": 120.0}'
    created = api.call("POST", "/v1/games", token=token, raw_body=raw)
    assert created.status == 201, created.body
    game = created.body
    assert (len(game["seats"]), game["move_deadline_s"]) == (2, 120)
    assert isinstance(game["move_deadline_s"], int)
    body = '{"row": 7.0, "col": 7e0, "expected_move": 0.0, "action": "tap"}'
    moved = api.call("POST", f"/v1/games/{game['game_id']}/moves", token=token, raw_body=body)
    assert moved.status == 200, moved.body
    first = moved.body["moves"][0]
    assert (first["row"], first["col"]) == (7, 7)
    assert json.dumps(first["row"]) == "7"


@pytest.mark.parametrize(
    "value", ["7.5", "true", '"7"', "1e300", "-1.0", "NaN", "Infinity", "[7]", "null"]
)
def test_what_is_not_a_whole_number_in_range_is_422(api: Api, value: str) -> None:
    token = api.guest()
    game = api.bot_game(token)
    body = f'{{"row": {value}, "col": 7, "expected_move": 0}}'
    reply = api.call("POST", f"/v1/games/{game['game_id']}/moves", token=token, raw_body=body)
    assert reply.status == 422, reply.body
    assert reply.error_code == "invalid-request"
    assert reply.body["error"]["details"][0]["loc"] == ["body", "row"]


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/{game}/moves"])
def test_an_array_body_is_refused_not_read_by_its_first_element(api: Api, path: str) -> None:
    token = api.guest()
    game = api.bot_game(token)
    valid = {"row": 7, "col": 7, "expected_move": 0}
    raw = json.dumps([valid if "moves" in path else {}, {"x": 1}])
    reply = api.call("POST", path.format(game=game["game_id"]), token=token, raw_body=raw)
    assert reply.status == 422, reply.body
    assert reply.error_code == "invalid-request"
    assert api.call("GET", f"/v1/games/{game['game_id']}").body["move_count"] == 0


@pytest.mark.parametrize(
    ("content_type", "status"),
    [
        ("multipart/form-data", 415),  # without a boundary: once a server error
        ("multipart/form-data; boundary=x", 415),
        ("application/x-www-form-urlencoded", 415),
        ("text/plain", 415),
        ("application/json; charset=utf-8", 201),
        ("Application/JSON", 201),
    ],
)
def test_a_body_is_json_or_415(api: Api, content_type: str, status: int) -> None:
    token = api.guest()
    reply = api.call(
        "POST", "/v1/games", token=token, raw_body="{}", headers={"content-type": content_type}
    )
    assert reply.status == status, reply.body
    if status == 415:
        assert reply.error_code == "unsupported-media-type"


@pytest.mark.parametrize(("after", "status"), [("0", 200), ("0.0", 200), ("0.5", 422), ("x", 422)])
def test_a_query_integer_is_read_the_same_way(api: Api, after: str, status: int) -> None:
    token = api.guest()
    game = api.bot_game(token)
    path = f"/v1/games/{game['game_id']}/moves"
    assert api.call("GET", path, token=token, query={"after": after}).status == status
