"""Fixtures for the service tests: template.yaml provisioned on moto, handlers called with
events built from the real HTTP API v2 samples in ``events/``.

``stack`` runs in-process moto (``mock_aws``); ``served_stack`` runs a moto server whose WSGI
app is serialized by a lock (moto itself is not thread-safe), so handlers can be driven from
many threads at once while AWS's side answers one request at a time, like a real service would
serialize conflicting writes.
"""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import json
import logging
import threading
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
from mineduel_engine import Field, GameState, Move, rules_for
from mineduel_service.games import store
from mineduel_service.platform import aws, clock, keys
from mineduel_service.platform.config import get_config, reset_config
from mineduel_service.platform.observability import logger
from mineduel_service.play import advance
from mineduel_service.play.bots import bot_replies
from moto import mock_aws
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

from mineduel.local.invoke import Invoker
from mineduel.local.lambda_service import LocalLambda, lambda_endpoint
from mineduel.local.provision import LocalStack, provision
from mineduel.local.serving import serve_in_thread
from mineduel.local.stack import live_gateway_for, router_for
from mineduel.local.streams import StreamPoller, stream_pollers
from mineduel.local.websocket import LiveGateway, management_endpoint
from mineduel.testing.accounts import sign_in
from mineduel.testing.fields import field_of
from mineduel.testing.players import play_out

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
REGION = "eu-west-1"


@dataclass
class Reply:
    """A handler's HTTP answer, decoded."""

    status: int
    headers: dict[str, str]
    body: Any
    """Decoded JSON, or the text itself for another content type (the share page's HTML)."""

    @property
    def error_code(self) -> str | None:
        """docs/api.md's error code, when the body is an error."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("code"))
        return None


def load_samples() -> dict[str, dict[str, Any]]:
    """The HTTP API v2 sample events, by route key (``"POST /v1/games/{game_id}/moves"``)."""
    samples = {}
    for path in sorted(EVENTS.glob("*.json")):
        event = json.loads(path.read_text())
        if "routeKey" in event:
            samples[event["routeKey"]] = event
    return samples


class Api:
    """Calls the stack's functions the way API Gateway would, from the sample events."""

    _addresses = itertools.count(1)

    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        self.invoker = Invoker(stack)
        self.samples = load_samples()
        self.router = router_for(stack.template)
        # A token per account and kind, made once per stack (a module's): signing in is a
        # Cognito round trip each time, and the tokens stay good for an hour.
        self.tokens: dict[tuple[str, str], str] = stack.__dict__.setdefault("test_tokens", {})

    def _match(self, method: str, path: str) -> tuple[str, str, dict[str, str]]:
        """The route API Gateway picks, by the local stack's own router (no ``$default``)."""
        found = self.router.match(method, path, fallback=False)
        if found is None:
            raise AssertionError(f"no route for {method} {path}")
        return found.route.path, found.route.function, found.path_parameters

    def event(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        raw_body: str | None = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        query: dict[str, str] | None = None,
        source_ip: str | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """The logical id of the function and the event API Gateway would send it."""
        template, logical_id, params = self._match(method, path)
        event = copy.deepcopy(self.samples[f"{method} {template}"])
        event["rawPath"] = path
        event["requestContext"]["http"]["path"] = path
        event["headers"] = {
            k: v
            for k, v in event["headers"].items()
            if k not in ("authorization", "if-none-match", "idempotency-key", "content-type")
        }
        event.pop("body", None)
        event.pop("queryStringParameters", None)
        event["rawQueryString"] = ""
        if params:
            event["pathParameters"] = params
        else:
            event.pop("pathParameters", None)
        if token is not None:
            event["headers"]["authorization"] = f"Bearer {token}"
        text = raw_body if raw_body is not None else (None if body is None else json.dumps(body))
        if text is not None:
            event["body"] = text
            event["headers"]["content-type"] = "application/json"
            event["headers"]["content-length"] = str(len(text.encode()))
        if query:
            event["queryStringParameters"] = query
            event["rawQueryString"] = urllib.parse.urlencode(query)
        for name, value in (headers or {}).items():
            event["headers"][name.lower()] = value
        if source_ip is not None:
            event["requestContext"]["http"]["sourceIp"] = source_ip
        return logical_id, event

    def call(self, method: str, path: str, **kwargs: Any) -> Reply:
        """Invoke the function behind ``method path`` and decode its answer."""
        logical_id, event = self.event(method, path, **kwargs)
        raw = self.invoker.invoke(logical_id, event)
        text = raw.get("body") or ""
        headers = {k.lower(): v for k, v in (raw.get("headers") or {}).items()}
        media_type = headers.get("content-type", "application/json").split(";")[0].strip()
        is_json = media_type == "application/json" or media_type.endswith("+json")
        return Reply(
            status=int(raw["statusCode"]),
            headers=headers,
            body=(json.loads(text) if is_json else text) if text else None,
        )

    # ---------------------------------------------------------------- conveniences
    @classmethod
    def new_address(cls) -> str:
        """An address no caller has used yet (in the benchmarking range, 198.18.0.0/15)."""
        n = next(cls._addresses)
        return f"198.{18 + n // 65536 % 2}.{n // 256 % 256}.{n % 256}"

    def guest(self) -> str:
        """A fresh guest token, for a client of its own (each address may make only a few)."""
        reply = self.call("POST", "/v1/guests", source_ip=self.new_address())
        assert reply.status == 201, reply.body
        return str(reply.body["token"])

    def bot_game(self, token: str, **body: Any) -> dict[str, Any]:
        """A new game against the bot; returns the Game."""
        reply = self.call("POST", "/v1/games", token=token, body={"bots": 1, **body})
        assert reply.status == 201, reply.body
        return dict(reply.body)

    def field(self, game_id: str, client_seeds: list[str] | None = None) -> Field:
        """The game's field (``mineduel.testing.fields.field_of``): for tests that need a game
        against the bot to go on, a tap on a known mine keeps the turn (the bot does not move),
        where taps on unknown cells hand the bot turns it may win with."""
        return field_of(game_id, client_seeds)

    def after(
        self, game_id: str, field: Field, row: int, col: int, action: str = "tap"
    ) -> tuple[GameState, list[Move]]:
        """The game after the seat to move plays ``action`` at (row, col) on ``field`` and the
        bots reply, as the commit will play them (a bot's choice is a function of the public
        board and the commitment): the state then, and the moves played.

        For tests whose move hands a bot the turn on a board it might win the game from (a bomb
        opens 25 cells; a bot's own openings add up over replies): the test plays a move after
        which, on the known field, the game goes on."""
        record = store.get_game(game_id)
        assert record is not None and record.state.turn is not None
        rules = rules_for(record.settings.variant)

        def play(s: GameState, seat: int, act: str, r: int, c: int) -> tuple[GameState, Move]:
            return rules.play(s, field, seat, act, r, c)

        state, move = play(record.state, record.state.turn, action, row, col)
        kinds = [seat.kind for seat in record.seats]
        level, limit = record.bot_level, advance.MAX_MOVES_PER_WRITE - 1
        state, replies = bot_replies(state, kinds, record.commitment, level, play, limit)
        return state, [move, *replies]

    def deadline_key(self, game_id: str) -> str | None:
        """The game's key in the sweeper's ``deadlines`` index, as the index itself holds it."""
        client = boto3.client("dynamodb", region_name=get_config().region)
        request: dict[str, Any] = {
            "TableName": get_config().table_name,
            "IndexName": keys.DEADLINE_INDEX,
            "KeyConditionExpression": "due_shard = :shard",
            "ExpressionAttributeValues": {":shard": {"S": keys.deadline_shard(game_id)}},
        }
        for page in client.get_paginator("query").paginate(**request):
            for item in page["Items"]:
                if item["pk"]["S"] == f"GAME#{game_id}":
                    return str(item["due_at"]["S"])
        return None

    def people_game(
        self, *names: str, bots: int = 0, **body: Any
    ) -> tuple[list[str], dict[str, Any]]:
        """A running game between the accounts ``names`` (the first creates it, the others
        join it in seat order) and ``bots`` bots in the last seats: the accounts' tokens and
        the Game as the last join left it. Account tokens are verified against the pool's JWKS
        over HTTP: call it on ``served_api``."""
        tokens = [self.account(name) for name in names]
        seats = {"seats": len(names) + bots, "bots": bots, **body}
        created = self.call("POST", "/v1/games", token=tokens[0], body=seats)
        assert created.status == 201, created.body
        game = dict(created.body)
        for token in tokens[1:]:
            joined = self.call("POST", f"/v1/games/{game['game_id']}/join", token=token)
            assert joined.status == 200, joined.body
            game = dict(joined.body)
        assert game["status"] == "active", game
        return tokens, game

    def commit(
        self, token: str, game_id: str, row: int, col: int, expected: int, **extra: Any
    ) -> Reply:
        """Commit a tap."""
        headers = extra.pop("headers", None)
        body = {"row": row, "col": col, "expected_move": expected, "action": "tap", **extra}
        return self.call(
            "POST", f"/v1/games/{game_id}/moves", token=token, body=body, headers=headers
        )

    def play_out(self, token: str, game: dict[str, Any], level: str = "easy") -> dict[str, Any]:
        """Play seat 0 of a game against bots to its end, as the bot of ``level`` would from the
        public view (the bots reply inside each commit); returns the finished Game."""

        def commit(shown: Mapping[str, Any], row: int, col: int) -> Mapping[str, Any]:
            reply = self.commit(token, shown["game_id"], row, col, shown["move_count"])
            assert reply.status == 200, reply.body
            answer: Mapping[str, Any] = reply.body["game"]
            return answer

        return play_out(game, commit, level)

    def account(self, name: str, *, use: str = "IdToken", fresh: bool = False) -> str:
        """A token for the account ``<name>@example.com`` (created on first use) from the
        template's user pool, where players sign in with their email. Tokens are kept for the
        stack; ``fresh`` signs in again (a token issued after, say, joining a group)."""
        config = get_config()
        if fresh or (name, use) not in self.tokens:
            cognito = boto3.client("cognito-idp", region_name=config.region)
            self.tokens[name, use] = sign_in(
                cognito, config.user_pool_id, config.user_pool_client_id, name, use=use
            )
        return self.tokens[name, use]

    def player(self, username: str, *, use: str = "IdToken") -> str:
        """A token for an account that has taken ``username`` (``<username>@example.com``)."""
        token = self.account(username.lower(), use=use)
        reply = self.call("PUT", "/v1/me", token=token, body={"username": username})
        assert reply.status == 200, reply.body
        return token

    def sweep(self) -> dict[str, int]:
        """Run the deadline sweeper once, as its minute schedule would."""
        result = self.invoker.invoke("SweepDeadlinesFunction", {})
        return dict(result["outcomes"])

    @property
    def live(self) -> LiveGateway:
        """The stack's WebSocket API, on a real local WebSocket server."""
        gateway: LiveGateway = self.stack.live  # type: ignore[attr-defined]
        return gateway

    def stream(self) -> StreamPoller:
        """The fan-out's feed from the table's stream, from now on: ``run_now()`` delivers what
        was written since (in the calling thread, through the function, as Lambda would)."""

        def deliver(logical_id: str, event: dict[str, Any]) -> Any:
            return self.invoker.invoke(logical_id, event)

        (poller,) = stream_pollers(self.stack.template, self.stack.resolve, REGION, deliver)
        return poller

    def expire(self, event: dict[str, Any]) -> str:
        """Deliver a schedule's input to the expiry function, by its ARN like Scheduler does."""
        arn = self.stack.environments["CommitMoveFunction"]["EXPIRY_FUNCTION_ARN"]
        return str(self.invoker.invoke_arn(arn, event)["outcome"])


_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "POWERTOOLS_TRACE_DISABLED": "true",
    # moto checks TOTP codes only with this on (one secret for every user), as the local stack's
    # embedded moto does: a wrong authenticator code is refused here as on AWS.
    "MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP": "true",
    # Current botocore's account-based DynamoDB endpoints are not moto's (streams need this).
    "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
}


@contextlib.contextmanager
def _aws_environment() -> Iterator[pytest.MonkeyPatch]:
    """Fake credentials and region, no endpoint left over from elsewhere; all undone after."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE"):
            patch.delenv(name, raising=False)
        for name, value in _CREDENTIALS.items():
            patch.setenv(name, value)
        yield patch
    reset_config()
    clock.reset()


def _export(stack: LocalStack, patch: pytest.MonkeyPatch) -> None:
    for name, value in stack.merged_environment().items():
        patch.setenv(name, value)
    reset_config()


@contextlib.contextmanager
def _with_lambda(stack: LocalStack, patch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lambda's Invoke API for the stack's functions (moto cannot run them), where the
    service's Lambda client finds it; and the WebSocket API on a real local server, with its
    management API where the fan-out's client finds it (moto's would accept any connection)."""
    gateway = live_gateway_for(stack, Invoker(stack).invoke).start()
    stack.live = gateway  # type: ignore[attr-defined]
    try:
        with (
            lambda_endpoint(LocalLambda(stack, Invoker(stack).invoke)) as url,
            management_endpoint(gateway) as management,
        ):
            patch.setenv("AWS_ENDPOINT_URL_LAMBDA", url)
            patch.setenv("AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI", management)
            reset_config()
            yield
    finally:
        gateway.stop()


@pytest.fixture
def log_output() -> Iterator[io.StringIO]:
    """Everything the service's Powertools logger writes during the test, as formatted.

    Its own handler holds the stdout of whichever test imported it first, so capsys alone
    cannot be trusted to see the log lines.
    """
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logger.registered_formatter)
    logger.addHandler(handler)
    yield buffer
    logger.removeHandler(handler)


@pytest.fixture(autouse=True)
def _fresh_clock() -> Iterator[None]:
    """Every test starts on the system clock."""
    clock.reset()
    yield
    clock.reset()


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    """template.yaml provisioned on in-process moto (once per module; tests use fresh games)."""
    with _aws_environment() as patch, mock_aws():
        provisioned = provision(region=REGION)
        _export(provisioned, patch)
        with _with_lambda(provisioned, patch):
            yield provisioned


@pytest.fixture
def api(stack: LocalStack) -> Api:
    """The API, called through the handlers."""
    return Api(stack)


class _Serialized:
    """A WSGI app that handles one request at a time (moto is not thread-safe)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        with self.lock:
            return list(self.app(environ, start_response))


@pytest.fixture(scope="module")
def served_stack() -> Iterator[LocalStack]:
    """template.yaml provisioned on a moto server (threaded HTTP, serialized backend)."""
    server = make_server(
        "127.0.0.1",
        0,
        _Serialized(DomainDispatcherApplication(create_backend_app)),
        threaded=True,
        request_handler=MotoRequestHandler,
    )
    thread = serve_in_thread(server, "moto-server")
    endpoint = f"http://127.0.0.1:{server.server_port}"
    try:
        with _aws_environment() as patch:
            patch.setenv("AWS_ENDPOINT_URL", endpoint)
            # moto's backends are process-wide: start from nothing, whatever ran before.
            reset = urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")  # noqa: S310
            urllib.request.urlopen(reset).close()  # noqa: S310  (our own local http server)
            provisioned = provision(region=REGION)
            _export(provisioned, patch)
            with _with_lambda(provisioned, patch):
                yield provisioned
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture
def served_api(served_stack: LocalStack) -> Api:
    """The API on the served stack."""
    return Api(served_stack)


@pytest.fixture(scope="module")
def served_module_api(served_stack: LocalStack) -> Api:
    """The API on the served stack, for module-scoped fixtures (games several tests share)."""
    return Api(served_stack)


@pytest.fixture
def dynamodb_calls() -> Iterator[Counter[str]]:
    """The DynamoDB operations the service sends during the test, by name (what a request
    costs is counted in calls)."""
    counter: Counter[str] = Counter()

    def count(model: Any, **_: Any) -> None:
        counter[model.name] += 1

    client = aws.dynamodb()
    client.meta.events.register("before-call", count)
    yield counter
    client.meta.events.unregister("before-call", count)
