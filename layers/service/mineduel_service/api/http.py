"""The HTTP edge shared by the API functions: the resolver, error mapping, body limits.

One place turns every failure into an RFC 9457 problem details answer: the service's and the
engine's refusals through ``problems.PROBLEMS``, pydantic validation as 400 (malformed JSON) or
422 (with ``errors``), anything unexpected as a bare 500 whose message says nothing about the
game. Bodies over the configured size are refused with 413, and bodies not sent as JSON with
415, before anything parses them.

Who is calling is settled here too, from the ``Authorization`` header: ``credential`` (what the
token says, an account's verified by its signature) for requests on a game, which check it
against the game's seats; ``caller`` (a guest also checked against its stored item) for the
others. Use cases get these typed identities, never the bearer string.

A handler takes Powertools' names from here (``Response``, and ``Body``, ``Query``, ``Header``,
``Path`` for its parameters), never from Powertools: the edge's package replaces Powertools'
``event_handler`` package by one that loads a module at a time (``powertools``), and a handler
importing Powertools first would load the whole package before it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from typing import Any, cast

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, content_types
from aws_lambda_powertools.event_handler import Response as Response  # noqa: PLC0414  (for handlers)
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.event_handler.openapi.params import Body as Body  # noqa: PLC0414
from aws_lambda_powertools.event_handler.openapi.params import Header as Header  # noqa: PLC0414
from aws_lambda_powertools.event_handler.openapi.params import Path as Path  # noqa: PLC0414
from aws_lambda_powertools.event_handler.openapi.params import Query as Query  # noqa: PLC0414
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_engine.errors import EngineError

from ..contract.problems import ErrorOut, GatewayMessageOut
from ..platform import auth
from ..platform.config import get_config
from ..platform.errors import Refusal, Unauthorized
from ..platform.observability import logger, publish_metrics
from . import problems
from .problems import PROBLEM_JSON, ApiError

Handler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]

_ERROR_STATUSES = {
    400: "Malformed request (not JSON).",
    401: "No or bad credentials.",
    403: "Not allowed (not your seat, not your turn).",
    404: "No such game.",
    409: "Conflict (stale expected_move, cell already open, game not active).",
    413: "Body too large.",
    415: "The body is not sent as application/json.",
    422: "Well-formed but invalid.",
    503: "A service the request needs cannot be reached right now (an account token's keys); "
    "retry.",
}
ERRORS: dict[int, Any] = {
    status: {
        "description": description,
        "content": {PROBLEM_JSON: {"model": ErrorOut}},
    }
    for status, description in _ERROR_STATUSES.items()
}
ERRORS[413] = {
    "description": "Body too large: over the function's limit (problem details, "
    "`body-too-large`), or over API Gateway's 10 MB, which the gateway answers itself with "
    '`{"message": "Request Entity Too Large"}` before any function runs.',
    "content": {
        PROBLEM_JSON: {"model": ErrorOut},
        content_types.APPLICATION_JSON: {"model": GatewayMessageOut},
    },
}
"""The OpenAPI ``responses`` of every route: the problem details body of each error status.
(The 500 is documented by the document's generator, ``mineduel.openapi.generate``: Powertools
puts its own response-validation schema there, which these functions never send.)"""

TOKEN: list[dict[str, list[str]]] = [{"bearer": []}]
"""OpenAPI ``security`` of a route that needs a token (a guest's or an account's)."""
TOKEN_OPTIONAL: list[dict[str, list[str]]] = [{"bearer": []}, {}]
"""OpenAPI ``security`` of a route that reads a token when one is sent, and answers without."""

ETAG_HEADERS: dict[str, Any] = {
    "ETag": {
        "description": "The version of what was read; send it back in `If-None-Match` to be "
        "told 304 while it is unchanged.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "`no-cache`: keep the answer, but ask again (with `If-None-Match`).",
        "schema": {"type": "string"},
    },
}
NOT_MODIFIED: Any = {
    "description": "Not modified: `If-None-Match` names the current `ETag`; no body.",
    "headers": ETAG_HEADERS,
    "content": {},
}

THROTTLED: Any = {  # (Any: a route's responses are Powertools' own TypedDict)
    "description": "Too many requests: API Gateway's throttle of the route answers "
    '`{"message": "Too Many Requests"}` before any function runs.',
    "content": {content_types.APPLICATION_JSON: {"model": GatewayMessageOut}},
}
LIMITED: Any = {
    "description": "Too many requests: this route limits each address (problem details, "
    "`too-many-requests`, with `Retry-After`), and API Gateway's throttle of the route answers "
    '`{"message": "Too Many Requests"}` before any function runs.',
    "content": {
        PROBLEM_JSON: {"model": ErrorOut},
        content_types.APPLICATION_JSON: {"model": GatewayMessageOut},
    },
    "headers": {
        "Retry-After": {
            "description": "Seconds until the address may try again (the function's own limit).",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}


def unavailable(description: str) -> Any:
    """A route's 503 whose refusal says when to try again (problem details with
    ``Retry-After``), in place of ``ERRORS``' 503."""
    return {
        "description": description,
        "content": {PROBLEM_JSON: {"model": ErrorOut}},
        "headers": {
            "Retry-After": {
                "description": "Seconds after which the same request may succeed.",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    }


def responses(
    status: int,
    model: type[Any],
    description: str,
    *,
    limited: bool = False,
    headers: dict[str, Any] | None = None,
) -> dict[int, Any]:
    """A route's OpenAPI ``responses``: its success status and model (with ``headers``),
    ``ERRORS`` and the 429 (``limited``: the route limits each address too, and says when to
    retry).

    Powertools drops the success response it would infer from the return annotation as soon
    as ``responses=`` is given, so each route names it here.
    """
    success: dict[str, Any] = {
        "description": description,
        "content": {content_types.APPLICATION_JSON: {"model": model}},
    }
    if headers:
        success["headers"] = headers
    return {status: success, **ERRORS, 429: LIMITED if limited else THROTTLED}


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[Any]:
    """A JSON response."""
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=body,
        headers=headers or {},
    )


def error_response(error: ApiError, instance: str | None = None) -> Response[Any]:
    """The problem details answer for ``error`` (``instance``: the request's path)."""
    return Response(
        status_code=error.status,
        content_type=PROBLEM_JSON,
        body=json.dumps(error.body(instance), separators=(",", ":")),
        headers=dict(error.headers or {}),
    )


def new_app() -> APIGatewayHttpResolver:
    """A resolver that validates with pydantic and answers every failure as problem details."""
    app = APIGatewayHttpResolver(enable_validation=True, response_validation_error_http_code=500)
    for kind, handler in _EXCEPTION_HANDLERS:
        app.exception_handler(kind)(_answering(app, handler))
    return app


def _answering(
    app: APIGatewayHttpResolver, handler: Callable[[Any], ApiError]
) -> Callable[[Any], Response[Any]]:
    """An exception handler that answers ``handler``'s error for the request being served."""

    def answer(exc: Any) -> Response[Any]:
        return error_response(handler(exc), _path(app))

    return answer


def _path(app: APIGatewayHttpResolver) -> str | None:
    try:
        return str(app.current_event.raw_path)
    except Exception:
        return None


def _refusal(exc: Refusal) -> ApiError:
    answer = problems.problem_of(exc)
    if answer.status >= 500:  # the service's own failure (or one it depends on), never the caller's
        logger.error("request failed", extra={"code": exc.code})
    return answer


def _engine_error(exc: EngineError) -> ApiError:
    return problems.problem_of(exc)


def _invalid(exc: RequestValidationError) -> ApiError:
    return validation_error(exc.errors())


def _content_type(exc: RequestUnsupportedContentType) -> ApiError:
    return problems.unsupported_media_type()


def _bad_response(exc: ResponseValidationError) -> ApiError:
    logger.error("response failed its own model", extra={"errors": len(exc.errors())})
    return problems.internal()


def _no_route(exc: NotFoundError) -> ApiError:
    return problems.no_such_route()


def _unexpected(exc: Exception) -> ApiError:
    # Only the exception's type is logged: messages of AWS or library errors are not ours to
    # vouch for, and nothing hidden may reach a log line.
    logger.error("unexpected failure", extra={"exception": type(exc).__name__})
    return problems.internal()


_EXCEPTION_HANDLERS: list[tuple[type[Exception], Callable[[Any], ApiError]]] = [
    (Refusal, _refusal),
    (EngineError, _engine_error),
    (RequestValidationError, _invalid),
    (RequestUnsupportedContentType, _content_type),
    (ResponseValidationError, _bad_response),
    (NotFoundError, _no_route),
    (Exception, _unexpected),
]


def validation_error(found: Any) -> ApiError:
    """400 for a body that is not JSON, else 422 with one detail per problem (no input echoed)."""
    items = list(found)
    if any(p.get("type") == "json_invalid" for p in items):
        return problems.malformed("The body is not valid JSON.")
    details = [
        {
            "loc": [str(part) for part in p.get("loc", ())],
            "msg": str(p.get("msg", "invalid value")),
            "type": str(p.get("type", "value_error")),
        }
        for p in items
    ]
    where = ", ".join(".".join(d["loc"][1:] or d["loc"]) for d in details[:3])
    return problems.invalid_request(f"Fix these fields and send again: {where or 'body'}.", details)


def body_problem(event: dict[str, Any], limit: int) -> ApiError | None:
    """Why a request body cannot be accepted, checked before anything parses it: too large
    (413), not sent as JSON (415), not base64 when flagged so, not UTF-8, not JSON, or nested
    too deeply (400)."""
    body = event.get("body")
    if not body:
        return None
    if event.get("isBase64Encoded"):
        try:
            raw = base64.b64decode(str(body), validate=True)
        except (binascii.Error, ValueError):
            return problems.malformed("The body is marked base64 but is not.")
    else:
        raw = str(body).encode("utf-8", errors="surrogatepass")
    if len(raw) > limit:
        return problems.too_large(limit)
    method = str(event.get("requestContext", {}).get("http", {}).get("method", "")).upper()
    if method not in _BODY_METHODS:
        return None
    if not _is_json(_header_of(event, "content-type")):
        return problems.unsupported_media_type()
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return problems.malformed("The body is not UTF-8 text.")
    except (ValueError, RecursionError):
        return problems.malformed("The body is not valid JSON (or is nested too deeply).")
    if isinstance(parsed, list):
        # No body of this API is an array; the resolver would quietly take its first element.
        return problems.invalid_request(
            "Send a JSON object as the body, not an array.",
            [{"loc": ["body"], "msg": "Input should be an object", "type": "model_type"}],
        )
    return None


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def _header_of(event: dict[str, Any], name: str) -> str | None:
    for key, value in (event.get("headers") or {}).items():
        if key.lower() == name:
            return str(value)
    return None


def _json_content_type(event: dict[str, Any]) -> dict[str, Any]:
    """The event with any JSON media type (any case, ``+json``) named ``application/json``,
    the one name the resolver parses; media types are case-insensitive."""
    headers = event.get("headers") or {}
    for key, value in headers.items():
        if key.lower() == "content-type" and _is_json(str(value)):
            return {**event, "headers": {**headers, key: "application/json"}}
    return event


def _is_json(content_type: str | None) -> bool:
    """``application/json`` or any ``+json`` type, whatever its parameters (``charset``)."""
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


def lambda_handler_for(app: APIGatewayHttpResolver) -> Handler:
    """The Lambda entry point of an API function: size limit, logging, tracing, metrics."""

    @logger.inject_lambda_context(
        correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False, clear_state=True
    )
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        try:
            problem = body_problem(event, get_config().max_body_bytes)
            if problem is not None:
                return _raw(problem, event.get("rawPath"))
            return app.resolve(_json_content_type(event), context)
        finally:
            publish_metrics()

    return cast(Handler, handler)


def _raw(error: ApiError, instance: str | None) -> dict[str, Any]:
    return {
        "statusCode": error.status,
        "headers": {"Content-Type": PROBLEM_JSON, **(error.headers or {})},
        "body": json.dumps(error.body(instance)),
        "isBase64Encoded": False,
    }


def token(app: APIGatewayHttpResolver) -> str | None:
    """The caller's bearer token, if any (401 for an Authorization header of another shape).
    Only the edge holds it: use cases get what it proves (``verified``, ``credential``)."""
    return auth.bearer(dict(app.current_event.headers or {}))


def verified(bearer: str | None) -> auth.Credential | None:
    """Who a bearer token says the caller is, or None for no token; 401 for one that is not
    valid. A read that anybody may make checks the token only after it found what it reads,
    so an unknown game is 404 whatever the token (``functions/get_game``)."""
    return None if bearer is None else auth.credential(bearer)


def optional_credential(app: APIGatewayHttpResolver) -> auth.Credential | None:
    """Who the caller's token says they are, or None when no token is sent; 401 for a token
    that is not valid."""
    return verified(token(app))


def credential(app: APIGatewayHttpResolver) -> auth.Credential:
    """Who the caller's token says they are (an account's verified, a guest's parsed, to be
    checked against the game's seat); 401 without one."""
    found = optional_credential(app)
    if found is None:
        raise Unauthorized()
    return found


def caller(app: APIGatewayHttpResolver) -> auth.Caller:
    """The verified caller (a guest also checked against its stored item: one read); 401
    without a valid token."""
    return _authenticate(credential(app))


def optional_caller(app: APIGatewayHttpResolver) -> auth.Caller | None:
    """The verified caller, or None when no token is sent."""
    found = optional_credential(app)
    return None if found is None else _authenticate(found)


def _authenticate(found: auth.Credential) -> auth.Caller:
    """``people.identity.authenticate``, imported on first use: requests on a game (a commit,
    a resignation) check the credential against the game's seat instead, and never load it."""
    from ..people.identity import authenticate  # noqa: PLC0415

    return authenticate(found)


def source_ip(app: APIGatewayHttpResolver) -> str | None:
    """The address API Gateway saw the request come from (not a header the client wrote)."""
    return app.current_event.request_context.http.source_ip or None


def header(app: APIGatewayHttpResolver, name: str) -> str | None:
    """A request header, case-insensitively."""
    lowered = name.lower()
    for key, value in (app.current_event.headers or {}).items():
        if key.lower() == lowered:
            return str(value)
    return None


def etag(body: Any) -> str:
    """A strong ETag of a response body (same body, same tag)."""
    digest = hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")
    ).hexdigest()
    return f'"{digest[:32]}"'


def etag_matches(if_none_match: str | None, tag: str) -> bool:
    """True when an ``If-None-Match`` header names ``tag`` (or is ``*``)."""
    if not if_none_match:
        return False
    candidates = [part.strip().removeprefix("W/") for part in if_none_match.split(",")]
    return "*" in candidates or tag in candidates
