"""End to end over real HTTP: the local stack (template.yaml on moto, the real handlers) as a
client sees it. Games are played by a guest against the bot and checked afterwards by the
engine's verifier and by ``mineduel verify URL``; deadlines are made to pass with the local
clock (in a game between two accounts, whose turns have schedules); commits race; retries carry
an Idempotency-Key; reads are conditional.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine import verify_document
from openapi_spec_validator import validate

from mineduel.cli import main as mineduel_main
from mineduel.local.stack import RunningStack
from mineduel.openapi.generate import render
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap, public_state

pytestmark = pytest.mark.http
RACERS = 32
COMMITTED_OPENAPI = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


@pytest.fixture
def guest(stack: RunningStack) -> ApiClient:
    client = ApiClient(http_transport(stack.url))
    client.become_guest()
    return client


def _play_to_the_end(client: ApiClient, game: dict[str, Any], seen: list[bytes]) -> dict[str, Any]:
    """Commit the engine bot's choices for seat 0 until the game ends; every reply in ``seen``."""
    while game["status"] == "active":
        assert game["turn"]["seat"] == 0, "after a commit, the bot has replied"
        row, col = next_tap(game)
        reply = client.commit(game, row, col)
        seen.append(reply.body + json.dumps(reply.headers).encode())
        answer = reply.ok()
        assert answer["moves"][0]["n"] == game["move_count"] + 1
        assert answer["moves"][0]["seat"] == 0
        game = answer["game"]
    return game


def test_a_guest_plays_whole_games_against_the_bot_and_each_verifies(
    stack: RunningStack, guest: ApiClient, capsys: pytest.CaptureFixture[str]
) -> None:
    for _ in range(2):
        game = guest.create_game()
        assert game["status"] == "active"
        assert game["seed"] is None
        assert [s["kind"] for s in game["seats"]] == ["guest", "bot"]
        replies: list[bytes] = []
        finished = _play_to_the_end(guest, game, replies)

        assert finished["status"] == "finished"
        assert finished["result"]["reason"] == "reach"
        seed = finished["seed"]
        assert seed is not None
        assert seed.encode() in replies[-1]
        assert all(seed.encode() not in body for body in replies[:-1]), "seed sent too early"
        path = f"/v1/games/{game['game_id']}"
        log = guest.call("GET", f"{path}/moves?after=0").ok()["moves"]
        assert [m["n"] for m in log] == list(range(1, finished["move_count"] + 1))

        document = guest.call("GET", f"{path}/verify").ok()
        assert document["verdict"] == {"checked": True, "ok": True, "problems": []}
        assert document["moves"] == log
        verdict = verify_document(document)
        assert verdict.ok, verdict.problems
        assert mineduel_main(["verify", f"{stack.url}{path}/verify"]) == 0
        capsys.readouterr()


def test_nothing_hidden_is_served_while_a_game_runs(guest: ApiClient) -> None:
    game = guest.create_game()
    path = f"/v1/games/{game['game_id']}"
    document = guest.call("GET", f"{path}/verify").ok()
    assert document["seed"] is None
    assert document["field"] is None
    assert document["verdict"]["checked"] is False
    assert guest.call("GET", path).ok()["seed"] is None


def test_a_missed_deadline_fires_through_the_clock_and_ends_the_game_against_that_seat(
    stack: RunningStack,
) -> None:
    alice = signed_in(stack, "deadline-alice", username=False)
    game = alice.create_game(seats=2, bots=0, move_deadline_s=60)
    path = f"/v1/games/{game['game_id']}"
    joined = signed_in(stack, "deadline-bob", username=False).call("POST", f"{path}/join", {})
    game = joined.ok()
    early = alice.call("POST", "/_local/clock", {"advance_s": 30}).ok()
    assert not any(name.startswith("turn-") for name in early["fired"])
    assert alice.call("GET", path).ok()["status"] == "active"

    late = alice.call("POST", "/_local/clock", {"advance_s": 31}).ok()
    assert f"turn-{game['game_id']}-0" in late["fired"]
    ended = alice.call("GET", path).ok()
    assert ended["status"] == "finished"
    assert ended["result"]["reason"] == "timeout"
    assert ended["result"]["winner"] == 1
    assert ended["seats"][0]["out"] is True
    last = alice.call("GET", f"{path}/moves?after=0").ok()["moves"][-1]
    assert (last["seat"], last["action"]) == (0, "timeout")

    row, col = next_tap(game)
    refused = alice.commit(game, row, col)
    assert refused.status == 409
    assert refused.json()["error"]["code"]
    assert verify_document(alice.call("GET", f"{path}/verify").ok()).ok


def test_of_32_concurrent_commits_of_one_turn_exactly_one_lands(guest: ApiClient) -> None:
    game = guest.create_game()
    covered = [
        (r, c) for r, line in enumerate(game["board"]) for c, ch in enumerate(line) if ch == "."
    ]
    barrier = threading.Barrier(RACERS)
    statuses: list[int] = []
    lock = threading.Lock()

    def racer(index: int) -> None:
        row, col = covered[index * 7 % len(covered)]
        barrier.wait()
        reply = guest.commit(game, row, col)
        with lock:
            statuses.append(reply.status)

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] + [409] * (RACERS - 1)
    path = f"/v1/games/{game['game_id']}"
    after = guest.call("GET", path).ok()
    log = guest.call("GET", f"{path}/moves?after=0").ok()["moves"]
    assert [m["n"] for m in log] == list(range(1, after["move_count"] + 1))
    assert log[0]["seat"] == 0
    assert after["board"] == public_state(after).board()


def test_an_idempotency_key_retry_returns_the_first_answer_and_plays_nothing(
    guest: ApiClient,
) -> None:
    game = guest.create_game()
    row, col = next_tap(game)
    first = guest.commit(game, row, col, key="tap-1")
    retry = guest.commit(game, row, col, key="tap-1")
    assert first.status == retry.status == 200
    assert retry.json() == first.json()
    path = f"/v1/games/{game['game_id']}"
    now = guest.call("GET", path).ok()
    assert now["move_count"] == first.json()["game"]["move_count"]

    other = guest.commit(game, *_another_covered(now, (row, col)), key="tap-1")
    assert other.status == 422
    assert other.json()["error"]["code"] == "idempotency-key-reused"


def _another_covered(game: dict[str, Any], avoid: tuple[int, int]) -> tuple[int, int]:
    for r, line in enumerate(game["board"]):
        for c, ch in enumerate(line):
            if ch == "." and (r, c) != avoid:
                return r, c
    raise AssertionError("no covered cell left")


def test_reads_send_an_etag_and_answer_304_until_the_game_changes(guest: ApiClient) -> None:
    game = guest.create_game()
    path = f"/v1/games/{game['game_id']}"
    first = guest.call("GET", path)
    etag = first.headers["etag"]
    assert first.status == 200

    same = guest.call("GET", path, headers={"if-none-match": etag})
    assert same.status == 304
    assert same.body == b""
    assert same.headers["etag"] == etag

    guest.commit(game, *next_tap(game)).ok()
    changed = guest.call("GET", path, headers={"if-none-match": etag})
    assert changed.status == 200
    assert changed.headers["etag"] != etag


def test_the_api_document_and_swagger_ui_are_served(stack: RunningStack) -> None:
    client = ApiClient(http_transport(stack.url))
    served = client.call("GET", "/openapi.json").ok()
    validate(served)
    assert render(served) == COMMITTED_OPENAPI.read_text(encoding="utf-8")

    page = client.call("GET", "/docs")
    assert page.status == 200
    assert page.headers["content-type"].startswith("text/html")
    assert b"/openapi.json" in page.body
    assert b'src="/docs/swagger-ui-bundle.js"' in page.body
    asset = client.call("GET", "/docs/swagger-ui-bundle.js")
    assert asset.status == 200
    assert b"SwaggerUIBundle" in asset.body


def test_what_no_route_matches_reaches_the_default_route_in_the_error_shape(
    stack: RunningStack,
) -> None:
    client = ApiClient(http_transport(stack.url))
    for path in ("/v1/nothing", "/v2", "/v1/games/x/moves/y"):
        missing = client.call("GET", path)
        assert missing.status == 404, path
        assert missing.headers["content-type"] == "application/problem+json"
        assert missing.json()["code"] == "no-such-route"
        assert missing.json()["instance"] == path
    assert client.call("GET", "/docs/not-an-asset.js").status == 404  # local-only extras


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("BREW", "/v1/games", "OPTIONS, POST"),
        ("PROPFIND", "/v1/games/x/moves", "GET, OPTIONS, POST"),
        ("TRACE", "/v1/games/x", "DELETE, GET, OPTIONS"),
        ("BREW", "/_local/clock", "GET, OPTIONS, POST"),
        ("get", "/v1/games/x", "DELETE, GET, OPTIONS"),
        ("BREW", "/not/routed", ""),
    ],
)
def test_an_unknown_method_is_a_json_405_with_the_paths_methods_in_allow(
    stack: RunningStack, method: str, path: str, allow: str
) -> None:
    client = ApiClient(http_transport(stack.url))
    reply = client.call(method, path, {"x": 1})
    assert reply.status == 405
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.headers["allow"] == allow
    error = reply.json()["error"]
    assert error["code"] == "method-not-allowed"
    assert method in error["message"]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/v1/games", "OPTIONS, POST"),
        ("GET", "/v1/guests", "OPTIONS, POST"),
        ("PATCH", "/v1/games/x", "DELETE, GET, OPTIONS"),
    ],
)
def test_a_known_method_on_a_path_routed_for_others_is_the_default_routes_405(
    stack: RunningStack, method: str, path: str, allow: str
) -> None:
    client = ApiClient(http_transport(stack.url))
    reply = client.call(method, path)
    assert reply.status == 405
    assert reply.headers["content-type"] == "application/problem+json"
    assert reply.headers["allow"] == allow
    assert reply.json()["code"] == "method-not-allowed"


def test_the_date_header_is_the_stacks_clock_and_moves_with_it(stack: RunningStack) -> None:
    """Clients read the server's clock off ``Date`` (deadlines are its times), so the local
    stack's must follow ``POST /_local/clock`` as the deadlines do."""
    client = ApiClient(http_transport(stack.url))
    reply = client.call("GET", "/_local/clock")
    stamped = parsedate_to_datetime(reply.headers["date"])
    now = datetime.fromisoformat(reply.ok()["now"].replace("Z", "+00:00"))
    assert abs((stamped - now).total_seconds()) <= 1
    moved = client.call("POST", "/_local/clock", {"advance_s": 120})
    after = parsedate_to_datetime(moved.headers["date"])
    assert (after - stamped).total_seconds() >= 120
    game = client.call("POST", "/v1/guests")  # every answer carries it, the API's too
    assert abs((parsedate_to_datetime(game.headers["date"]) - after).total_seconds()) <= 5


@pytest.mark.parametrize(
    ("body", "status"),
    [({"advance_s": -5}, 422), ({"advance_s": "soon"}, 422), ({}, 400), ([1], 400)],
)
def test_the_local_clock_refuses_what_is_not_a_forward_move(
    stack: RunningStack, body: Any, status: int
) -> None:
    client = ApiClient(http_transport(stack.url))
    before = client.call("GET", "/_local/clock").ok()["now"]
    reply = client.call("POST", "/_local/clock", body)
    assert reply.status == status
    assert json.loads(reply.body)["error"]["code"]
    assert client.call("GET", "/_local/clock").ok()["now"] >= before


def test_cors_follows_the_templates_configuration(stack: RunningStack) -> None:
    client = ApiClient(http_transport(stack.url))
    preflight = client.call(
        "OPTIONS",
        "/v1/games/x/moves",
        headers={
            "origin": "http://localhost:5173",
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization,idempotency-key",
        },
    )
    assert preflight.status == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "POST" in preflight.headers["access-control-allow-methods"]
    assert "idempotency-key" in preflight.headers["access-control-allow-headers"]

    read = client.call("POST", "/v1/guests", headers={"origin": "http://localhost:5173"})
    assert read.status == 201
    assert read.headers["access-control-allow-origin"] == "*"
    assert read.headers["access-control-expose-headers"] == "etag,date"


def test_bodies_arrive_chunked_or_sized_and_oversized_ones_are_refused(
    stack: RunningStack, guest: ApiClient
) -> None:
    host, port = stack.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request(
            "POST",
            "/v1/games",
            body=iter([b'{"move_deadline_s"', b": 120}"]),
            headers={
                "authorization": f"Bearer {guest.token}",
                "content-type": "application/json",
            },
            encode_chunked=True,
        )
        answer = connection.getresponse()
        assert answer.status == 201
        assert json.loads(answer.read())["move_deadline_s"] == 120
    finally:
        connection.close()

    with socket.create_connection((host, int(port)), timeout=60) as raw:
        raw.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 11000000\r\n\r\n"
        )
        status_line = raw.makefile("rb").readline()
    assert status_line.split()[1] == b"413"
