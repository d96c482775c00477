"""Schemathesis against the local stack: generated requests, from the committed OpenAPI document.

Every operation is called with examples generated from the document (valid ones, and invalid
ones the server must refuse), with a valid guest token and, for the routes on a game, half of
the time a real game of that guest (the other half, whatever id was generated). Every answer
must be no server error and match the document: a documented status, its content type, its
schema and headers. A request the document allows must never be refused as malformed (400) or
as failing the server's own request model (422 ``invalid-request``): a client generated from
the document cannot send what the server refuses at its edge.

The document is docs/openapi.json, which other tests hold equal to what the stack serves and
to what the code generates; it is loaded when the module is collected (one test per
operation), and the requests go to a local stack started for this module. The number of
examples per operation is bounded (``EXAMPLES``); the run is deterministic, and a part of the
commits is steered onto the game's move count and a covered cell, so that moves are played and
their answers checked too.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from schemathesis import Case, CheckContext, Response
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.api_client import ApiClient, http_transport

pytestmark = pytest.mark.http
EXAMPLES = 30
DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


@dataclass
class Fuzz:
    """The stack under test, a guest, and a supply of that guest's games."""

    stack: RunningStack
    client: ApiClient
    games: dict[str, str] = field(default_factory=dict)  # operation label -> game id
    real_game: Iterator[bool] = field(default_factory=lambda: itertools.cycle([True, False]))
    playable: Iterator[int] = field(default_factory=lambda: itertools.cycle([0, 1, 2]))

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.client.token}"}

    def game_for(self, label: str) -> str:
        """An active game of the guest's for this operation (a new one once it has ended)."""
        game_id = self.games.get(label)
        if game_id is not None:
            reply = self.client.call("GET", f"/v1/games/{game_id}")
            if reply.status == 200 and reply.json()["status"] == "active":
                return game_id
        game_id = str(self.client.create_game()["game_id"])
        self.games[label] = game_id
        return game_id

    def make_playable(self, game_id: str, body: dict[str, Any]) -> None:
        """Two commits in three name the move count the game is at (not refused as stale),
        and one of those is also a tap on a covered cell of the board (so it is played)."""
        turn = next(self.playable)
        if turn == 0:
            return
        game = self.client.call("GET", f"/v1/games/{game_id}").json()
        body["expected_move"] = game["move_count"]
        if turn == 2:
            covered = [
                (r, c)
                for r, line in enumerate(game["board"])
                for c, ch in enumerate(line)
                if ch == "."
            ]
            body["row"], body["col"] = covered[len(covered) // 2]
            body["action"] = "tap"
            body.pop("client_seed", None)


@pytest.fixture(scope="module")
def fuzz() -> Iterator[Fuzz]:
    running = start_local_stack(port=0)
    client = ApiClient(http_transport(running.url))
    client.become_guest()
    yield Fuzz(running, client)
    running.stop()


CONFIG = schemathesis.Config.from_dict(
    {
        "phases": {
            "examples": {"enabled": True},
            "coverage": {"enabled": False},
            "fuzzing": {"enabled": True},
            "stateful": {"enabled": False},
        },
        "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none"},
        # An invalid request may be refused for any of its faults: a body over the API's limit
        # is 413 before its credentials are looked at (schemathesis's list, plus 413).
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": [
                    "400",
                    "401",
                    "403",
                    "404",
                    "405",
                    "406",
                    "409",
                    "413",
                    "415",
                    "422",
                    "428",
                    "429",
                    "5XX",
                ]
            }
        },
    }
)
schema = schemathesis.openapi.from_path(DOCUMENT, config=CONFIG)


def _positive(case: Case) -> bool:
    """Whether the case was generated to match the document."""
    return case.meta is not None and case.meta.generation.mode.is_positive


def _credentials(case: Case, fuzz: Fuzz) -> dict[str, str] | None:
    """The guest's token, unless the case's headers were made invalid on purpose (its
    ``Authorization`` left out or garbled): then the case is sent as generated, or the token
    would make the invalid request a valid one that the server rightly accepts."""
    header = case.meta.components.get(ParameterLocation.HEADER) if case.meta else None
    if header is not None and not header.mode.is_positive:
        return None
    return fuzz.headers


OPAQUE_VALUES = {"bad-cursor"}
"""Refusals of a value the document can only call a string: a cursor is opaque, and one the
server did not give out is refused (400 ``bad-cursor``), as a stale token would be."""


def documented_input_is_accepted(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """A request the document allows is never refused as malformed or by the request model."""
    if not _positive(case):
        return None
    code = None
    if response.status_code in (400, 422):
        try:
            code = json.loads(response.content)["code"]
        except (ValueError, KeyError, TypeError):
            code = "unreadable"
    if code in OPAQUE_VALUES:
        return None
    if response.status_code == 400 or code == "invalid-request":
        raise AssertionError(
            f"{case.operation.label}: the document allows this request but the server refused "
            f"it with {response.status_code}: {response.content[:300]!r}"
        )
    return None


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
    documented_input_is_accepted,
]


@schema.parametrize()
def test_every_answer_matches_the_document(case: Case, fuzz: Fuzz) -> None:
    path_parameters = case.path_parameters or {}
    if "game_id" in path_parameters and next(fuzz.real_game):
        game_id = fuzz.game_for(case.operation.label)
        path_parameters["game_id"] = game_id
        commit = case.operation.label == "POST /v1/games/{game_id}/moves"
        if commit and _positive(case) and isinstance(case.body, dict):
            fuzz.make_playable(game_id, case.body)  # (an invalid body stays as generated)
    case.call_and_validate(base_url=fuzz.stack.url, headers=_credentials(case, fuzz), checks=CHECKS)
