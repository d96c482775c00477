"""docs/openapi.json: generated from the handlers' models, valid, complete, and not drifted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from mineduel.local.openapi import OpenApiConflict, build, merge, render
from mineduel.local.template import load_template

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
    template_routes = {(r.method.lower(), r.path) for r, _ in load_template().routes()}
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
