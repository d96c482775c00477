"""docs/openapi.json: generated from the handlers' models, valid, complete, and not drifted:
good operation ids, tags, security per route, the headers of caching and retries, the real 500,
an example for every request and answer (each one valid), and no schema nobody uses."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mineduel_engine import verify_document
from mineduel_engine.analysis import analyze_document
from mineduel_engine.daily import day_seed
from mineduel_engine.fairness import commitment
from openapi_spec_validator import validate

from mineduel.openapi import generate as openapi
from mineduel.openapi.examples import (
    ANALYSIS,
    DAILY_TABLE_CLOSED,
    VERIFICATION_DAILY,
    VERIFICATION_FINISHED,
    VERIFICATION_RUNNING,
)
from mineduel.openapi.generate import TAGS, OpenApiConflict, build, merge, operations, render
from mineduel.template import load_template

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
REGENERATE = "make openapi"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return build(load_template())


def test_the_committed_document_is_what_the_code_generates(document: dict[str, Any]) -> None:
    assert render(document) == COMMITTED.read_text(encoding="utf-8"), (
        f"docs/openapi.json is stale: regenerate it with `{REGENERATE}`"
    )


def test_it_is_a_valid_openapi_3_document(document: dict[str, Any]) -> None:
    validate(document)
    assert document["openapi"].startswith("3.")


def test_it_describes_exactly_the_routes_the_template_gives_api_gateway(
    document: dict[str, Any],
) -> None:
    template_routes = {
        (r.method.lower(), r.path) for r, _ in load_template().routes() if r.path != "$default"
    }
    documented = {(method, path) for path, item in document["paths"].items() for method in item}
    assert documented == template_routes
    assert not any(path.startswith("/_local") for _, path in template_routes)


def test_requests_are_described_by_the_models_the_handlers_validate_with(
    document: dict[str, Any],
) -> None:
    commit = document["paths"]["/v1/games/{game_id}/moves"]["post"]
    body = commit["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/CommitRequest"}
    fields = document["components"]["schemas"]["CommitRequest"]["properties"]
    assert {"row", "col", "expected_move", "action", "client_seed"} <= set(fields)
    game = document["components"]["schemas"]["GameOut"]["properties"]
    assert {"game_id", "board", "commitment", "seed", "turn", "result"} <= set(game)


def test_merging_refuses_two_different_schemas_under_one_name() -> None:
    def part(kind: str) -> dict[str, Any]:
        return {
            "openapi": "3.1.0",
            "paths": {},
            "components": {"schemas": {"Thing": {"type": kind}}},
        }

    assert merge([("A", part("string")), ("B", part("string"))], set())["components"][
        "schemas"
    ] == {"Thing": {"type": "string"}}
    with pytest.raises(OpenApiConflict):
        merge([("A", part("string")), ("B", part("integer"))], set())


SUCCESS = {
    ("post", "/v1/guests"): ("201", "GuestOut"),
    ("post", "/v1/games"): ("201", "GameOut"),
    ("post", "/v1/games/{game_id}/join"): ("200", "GameOut"),
    ("get", "/v1/games/{game_id}"): ("200", "GameOut"),
    ("post", "/v1/games/{game_id}/moves"): ("200", "CommitOut"),
    ("post", "/v1/games/{game_id}/resign"): ("200", "GameOut"),
    ("get", "/v1/games/{game_id}/moves"): ("200", "MovesOut"),
    ("get", "/v1/games/{game_id}/verify"): ("200", "VerificationOut"),
    ("delete", "/v1/games/{game_id}/spectators"): ("200", "GameOut"),
    ("get", "/v1/games/{game_id}/analysis"): ("200", "AnalysisOut"),
    ("get", "/v1/daily"): ("200", "DailyOut"),
    ("post", "/v1/daily/play"): ("201", "GameOut"),
    ("get", "/v1/daily/{date}/table"): ("200", "DailyTableOut"),
    ("get", "/v1/exports"): ("200", "ExportsOut"),
    ("get", "/v1/push/vapid-key"): ("200", "VapidKeyOut"),
    ("post", "/v1/me/push-subscriptions"): ("201", "PushSubscriptionOut"),
    ("get", "/v1/me/push-subscriptions"): ("200", "PushSubscriptionsOut"),
}


@pytest.mark.parametrize(("route", "expected"), SUCCESS.items(), ids=str)
def test_every_route_documents_its_success_answer_and_the_error_shape(
    document: dict[str, Any], route: tuple[str, str], expected: tuple[str, str]
) -> None:
    method, path = route
    status, model = expected
    answers = document["paths"][path][method]["responses"]
    schema = answers[status]["content"]["application/json"]["schema"]
    assert schema == {"$ref": f"#/components/schemas/{model}"}
    for error in ("400", "401", "404", "422"):
        error_schema = answers[error]["content"]["application/problem+json"]["schema"]
        assert error_schema == {"$ref": "#/components/schemas/ErrorOut"}


# (operation id, tag, security: "token", "optional" or "none") of every route.
ROUTES = {
    ("post", "/v1/guests"): ("createGuest", "accounts", "none"),
    ("post", "/v1/games"): ("createGame", "games", "token"),
    ("post", "/v1/games/{game_id}/join"): ("joinGame", "games", "token"),
    ("get", "/v1/games/{game_id}"): ("getGame", "games", "optional"),
    ("delete", "/v1/games/{game_id}"): ("cancelGame", "games", "token"),
    ("post", "/v1/games/{game_id}/decline"): ("declineInvitation", "games", "token"),
    ("post", "/v1/games/{game_id}/rematch"): ("createRematch", "games", "token"),
    ("post", "/v1/games/{game_id}/resign"): ("resignGame", "games", "token"),
    ("post", "/v1/games/{game_id}/timeout"): ("claimTimeout", "games", "token"),
    ("get", "/v1/games/{game_id}/summary"): ("getGameSummary", "games", "none"),
    ("post", "/v1/games/{game_id}/moves"): ("commitMove", "moves", "token"),
    ("get", "/v1/games/{game_id}/moves"): ("listMoves", "moves", "optional"),
    ("get", "/v1/games/{game_id}/verify"): ("getVerification", "verification", "none"),
    ("get", "/v1/me"): ("getMe", "accounts", "token"),
    ("put", "/v1/me"): ("updateMe", "accounts", "token"),
    ("get", "/v1/me/games"): ("listMyGames", "accounts", "token"),
    ("get", "/v1/me/invites"): ("listMyInvitations", "accounts", "token"),
    ("post", "/v1/me/claim"): ("claimGuest", "accounts", "token"),
    ("get", "/v1/players/{username}"): ("getPlayer", "players", "none"),
    ("get", "/v1/players/{username}/games"): ("listPlayerGames", "players", "none"),
    ("get", "/v1/lobby"): ("listLobby", "lobby", "none"),
    ("get", "/v1/leaderboards/{variant}"): ("getLeaderboard", "leaderboards", "optional"),
    ("post", "/v1/me/avatar"): ("requestAvatarUpload", "avatars", "token"),
    ("put", "/v1/me/avatar"): ("acceptAvatarUpload", "avatars", "token"),
    ("get", "/v1/avatars/{avatar_id}"): ("getAvatar", "avatars", "none"),
    ("get", "/share/{game_id}"): ("getSharePage", "sharing", "none"),
    ("delete", "/v1/games/{game_id}/spectators"): ("turnOffSpectators", "games", "token"),
    ("get", "/v1/games/{game_id}/analysis"): ("getGameAnalysis", "analysis", "none"),
    ("get", "/v1/daily"): ("getDaily", "daily", "optional"),
    ("post", "/v1/daily/play"): ("playDaily", "daily", "token"),
    ("get", "/v1/daily/{date}/table"): ("getDailyTable", "daily", "none"),
    ("get", "/v1/players/{username}/games/export"): ("exportPlayerGames", "exports", "none"),
    ("get", "/v1/exports"): ("listExports", "exports", "none"),
    ("get", "/v1/push/vapid-key"): ("getVapidKey", "notifications", "none"),
    ("post", "/v1/me/push-subscriptions"): ("addPushSubscription", "notifications", "token"),
    ("get", "/v1/me/push-subscriptions"): ("listPushSubscriptions", "notifications", "token"),
    ("delete", "/v1/me/push-subscriptions/{subscription_id}"): (
        "deletePushSubscription",
        "notifications",
        "token",
    ),
    ("post", "/v1/seeks"): ("createSeek", "pairing", "token"),
    ("get", "/v1/seeks"): ("listSeeks", "pairing", "optional"),
    ("get", "/v1/seeks/{seek_id}"): ("getSeek", "pairing", "token"),
    ("delete", "/v1/seeks/{seek_id}"): ("cancelSeek", "pairing", "token"),
    ("get", "/v1/players/{username}/fair-play"): ("getFairPlay", "fair-play", "token"),
    ("get", "/v1/moderation/cases"): ("listCases", "fair-play", "token"),
    ("post", "/v1/moderation/cases/{case_id}"): ("decideCase", "fair-play", "token"),
}
SECURITY = {"token": [{"bearer": []}], "optional": [{"bearer": []}, {}], "none": None}


def test_every_route_has_its_operation_id_tag_and_security(document: dict[str, Any]) -> None:
    found = {
        (method, path): (op["operationId"], op.get("tags"), op.get("security"))
        for method, path, op in operations(document)
    }
    assert set(found) == set(ROUTES)
    for route, (operation_id, tag, security) in ROUTES.items():
        assert found[route] == (operation_id, [tag], SECURITY[security]), route
    ids = [operation_id for operation_id, _, _ in found.values()]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i) for i in ids), ids
    assert "security" not in document  # no blanket "optional": each route says what it needs
    assert [tag["name"] for tag in document["tags"]] == [tag["name"] for tag in TAGS]
    assert {tag for _, tag, _ in ROUTES.values()} == {tag["name"] for tag in TAGS}


def test_caching_and_retries_are_documented(document: dict[str, Any]) -> None:
    read = document["paths"]["/v1/games/{game_id}"]["get"]
    assert [p["name"] for p in read["parameters"] if p["in"] == "header"] == ["If-None-Match"]
    assert set(read["responses"]["200"]["headers"]) == {"ETag", "Cache-Control"}
    assert read["responses"]["304"]["headers"]["ETag"]
    assert read["responses"]["304"].get("content", {}) == {}
    commit = document["paths"]["/v1/games/{game_id}/moves"]["post"]
    [key] = [p for p in commit["parameters"] if p["in"] == "header"]
    assert key["name"] == "Idempotency-Key" and key["required"] is False
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255)
    assert "bad-idempotency-key" in key["description"]


def test_the_500_is_the_body_the_functions_and_the_gateway_really_send(
    document: dict[str, Any],
) -> None:
    for _, _, operation in operations(document):
        content = operation["responses"]["500"]["content"]
        assert content == {
            "application/problem+json": content["application/problem+json"],
            "application/json": content["application/json"],
        }
        assert content["application/problem+json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorOut"
        }
        assert content["application/json"]["schema"] == {
            "$ref": "#/components/schemas/GatewayMessageOut"
        }
    assert "ResponseValidationError" not in document["components"]["schemas"]


def test_the_gateways_own_answers_are_documented_beside_the_functions(
    document: dict[str, Any],
) -> None:
    """413 and 429 may come from API Gateway itself, as ``{"message"}``, which no function
    can shape; the guests route's own 429 is problem details with ``Retry-After``."""
    problem, gateway = "#/components/schemas/ErrorOut", "#/components/schemas/GatewayMessageOut"
    for method, path, operation in operations(document):
        answers = operation["responses"]
        too_large = {k: v["schema"]["$ref"] for k, v in answers["413"]["content"].items()}
        assert too_large["application/json"] == gateway, (method, path)
        throttled = {k: v["schema"]["$ref"] for k, v in answers["429"]["content"].items()}
        if operation["operationId"] == "createGuest":
            assert throttled == {"application/problem+json": problem, "application/json": gateway}
            assert "Retry-After" in answers["429"]["headers"]
        else:
            assert throttled == {"application/json": gateway}, (method, path)


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value.rsplit("/", 1)[1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_no_schema_is_unused(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    used = set(_refs(document["paths"])) | {
        name for schema in schemas.values() for name in _refs(schema)
    }
    assert set(schemas) == used
    assert not {"HTTPValidationError", "ValidationError"} & set(schemas)


def _media(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for method, path, operation in operations(document):
        body = operation.get("requestBody")
        for media_type, media in (body or {}).get("content", {}).items():
            yield f"{method} {path} request {media_type}", media
        for status, answer in operation["responses"].items():
            for media_type, media in answer.get("content", {}).items():
                yield f"{method} {path} {status} {media_type}", media


def test_every_request_and_answer_has_examples_that_fit_its_schema(
    document: dict[str, Any],
) -> None:
    count = 0
    for where, media in _media(document):
        assert media.get("examples"), f"{where}: no examples"
        schema = {**media["schema"], "components": document["components"]}
        validator = Draft202012Validator(schema)
        for name, example in media["examples"].items():
            errors = [e.message for e in validator.iter_errors(example["value"])]
            assert not errors, f"{where}, example {name!r}: {errors[:3]}"
            count += 1
    assert count > 100


def test_try_it_out_sends_bodies_that_work_for_a_new_guest(document: dict[str, Any]) -> None:
    """The first example is what Swagger UI fills in: a game against the bot and a tap on the
    centre on move 0, not a body made up from the schema (``"invite": ["string"]`` is 422)."""
    create = document["paths"]["/v1/games"]["post"]["requestBody"]["content"]
    first = next(iter(create["application/json"]["examples"].values()))["value"]
    assert first in ({}, {"bots": 1})
    commit = document["paths"]["/v1/games/{game_id}/moves"]["post"]["requestBody"]["content"]
    first = next(iter(commit["application/json"]["examples"].values()))["value"]
    assert first == {"row": 7, "col": 7, "expected_move": 0}


def test_the_verification_example_is_a_fair_game() -> None:
    verdict = verify_document(VERIFICATION_FINISHED)
    assert verdict.checked and verdict.ok, verdict.problems
    daily = verify_document(VERIFICATION_DAILY)
    assert daily.ok, daily.problems
    checked = {result.name for result in daily.results}
    assert {"daily-field", "daily-month-key", "daily-day-seed", "chain-head"} <= checked


def test_the_verification_schema_names_every_field_a_verifier_reads(
    document: dict[str, Any],
) -> None:
    """Every key of every Verification example (a finished game, a running one, a daily one of
    a month that is over) is a property of the schema, described, and the ones every document
    carries are required: a verifier written from the document alone finds all it needs."""
    schema = document["components"]["schemas"]["VerificationOut"]
    properties = schema["properties"]
    for example in (VERIFICATION_FINISHED, VERIFICATION_RUNNING, VERIFICATION_DAILY):
        assert set(example) <= set(properties), set(example) - set(properties)
    assert {"options", "seats", "field_id", "daily", "move_count", "chain"} <= set(properties)
    assert {"options", "seats", "moves", "move_count", "chain"} <= set(schema["required"])
    assert not {"field_id", "daily", "move_deadline_s"} & set(schema["required"])
    for name in ("options", "seats", "field_id", "daily", "move_count", "chain"):
        assert properties[name].get("description"), name
    daily = document["components"]["schemas"]["DailyProofOut"]["properties"]
    assert set(VERIFICATION_DAILY["daily"]) == set(daily)
    seat = document["components"]["schemas"]["VerificationSeatOut"]["properties"]
    assert all(set(s) <= set(seat) for s in VERIFICATION_DAILY["seats"])
    examples = document["paths"]["/v1/games/{game_id}/verify"]["get"]["responses"]["200"]
    shown = examples["content"]["application/json"]["examples"]
    assert {"finished", "running", "daily"} <= set(shown)


def test_a_players_export_is_documented_as_ndjson_pages(document: dict[str, Any]) -> None:
    export = document["paths"]["/v1/players/{username}/games/export"]["get"]
    page = export["responses"]["200"]
    assert set(page["content"]) == {"application/x-ndjson"}
    assert set(page["headers"]) == {"Link", "X-Next-Cursor", "X-Games"}
    first = next(iter(page["content"]["application/x-ndjson"]["examples"].values()))["value"]
    lines = first.splitlines()
    assert lines and all(verify_document(json.loads(line)).ok for line in lines)
    for error in ("400", "404", "422"):
        assert set(export["responses"][error]["content"]) == {"application/problem+json"}


def test_the_daily_examples_keep_their_promises() -> None:
    """The closed day's seed is the one its month key gives, and both match their
    commitments: the example shows what a reader can check."""
    key = bytes.fromhex(DAILY_TABLE_CLOSED["month_key"])
    seed = day_seed(key, DAILY_TABLE_CLOSED["date"])
    assert seed.hex() == DAILY_TABLE_CLOSED["seed"]
    assert commitment(seed) == DAILY_TABLE_CLOSED["commitment"]
    assert commitment(key) == DAILY_TABLE_CLOSED["month_commitment"]


def test_the_analysis_example_is_the_engines_analysis_of_the_example_game() -> None:
    assert analyze_document(VERIFICATION_FINISHED) == ANALYSIS


def test_regenerating_writes_the_document_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make openapi`` replaces the file only once the whole document is built: a failure
    (here a route without examples) leaves the committed document as it was, never empty."""
    target = tmp_path / "openapi.json"
    target.write_text("the previous document\n", encoding="utf-8")

    def no_examples(*args: Any) -> dict[str, Any]:
        raise KeyError("someRoute 200: no examples for schema 'SomethingOut'")

    monkeypatch.setattr(openapi, "build", no_examples)
    with pytest.raises(KeyError):
        openapi.main(["--output", str(target)])
    assert target.read_text(encoding="utf-8") == "the previous document\n"
    assert [p.name for p in tmp_path.iterdir()] == ["openapi.json"]

    monkeypatch.setattr(openapi, "build", lambda template: {"openapi": "3.1.0"})
    openapi.main(["--output", str(target)])
    assert target.read_text(encoding="utf-8") == openapi.render({"openapi": "3.1.0"})
    assert [p.name for p in tmp_path.iterdir()] == ["openapi.json"]


def test_every_schema_describes_its_fields(document: dict[str, Any]) -> None:
    """No component is an empty ``{}`` (a model whose serializer hides its fields from the
    document, as a wrap ``model_serializer`` does): a client generator would type it as a bare
    dict."""
    schemas = document["components"]["schemas"]
    empty = [name for name, schema in schemas.items() if not schema.get("properties")]
    assert not empty
    move = schemas["MoveOut"]
    assert {"points", "auto_opened", "chain"} <= set(move["properties"])
    assert not {"points", "auto_opened", "chain"} & set(move["required"])
