"""The HTTP edge shared by the API functions: the resolver, error mapping, body limits.

One place maps every failure to api.md's error shape: ``ApiError`` as it is, pydantic
validation as 400 (malformed JSON) or 422 (with ``details``), engine refusals by kind, anything
unexpected as a bare 500 whose message says nothing about the game. Bodies over the configured
size (413), of another media type than JSON (415) or that are arrays (422) are refused before
anything parses them.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any, cast

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from mineduel_engine.errors import EngineError

from . import auth, errors
from .config import get_config
from .models import ErrorOut, ThrottledOut
from .observability import logger, publish_metrics, tracer

Handler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]

_ERROR_STATUSES = {
    400: "Malformed request (not JSON).",
    401: "No or bad credentials.",
    403: "Not allowed (not your seat, not your turn).",
    404: "No such game.",
    409: "Conflict (stale expected_move, cell already open, game not active).",
    413: "Body too large.",
    415: "A body not sent as application/json.",
    422: "Well-formed but invalid.",
}
ERRORS: dict[int, Any] = {
    status: {
        "description": description,
        "content": {content_types.APPLICATION_JSON: {"model": ErrorOut}},
    }
    for status, description in _ERROR_STATUSES.items()
}
"""The OpenAPI ``responses`` of every route: api.md's error shape for each 4xx."""

THROTTLED: dict[str, Any] = {
    "description": "Too many requests: API Gateway's throttle of the route answers "
    '`{"message": "Too Many Requests"}` before any function runs.',
    "content": {content_types.APPLICATION_JSON: {"model": ThrottledOut}},
}
LIMITED: dict[str, Any] = {
    **THROTTLED,
    "description": THROTTLED["description"] + " This route also limits each address: "
    "`too-many-requests` in the error shape, with `Retry-After`.",
    "headers": {
        "Retry-After": {
            "description": "Seconds until the address may try again (the function's own limit).",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}


def responses(
    status: int, model: type[Any], description: str, *, limited: bool = False
) -> dict[int, Any]:
    """A route's OpenAPI ``responses``: its success status and model, ``ERRORS`` and the 429
    (``limited``: the route limits each address too, and says when to retry).

    Powertools drops the success response it would infer from the return annotation as soon
    as ``responses=`` is given, so each route names it here.
    """
    return {
        status: {
            "description": description,
            "content": {content_types.APPLICATION_JSON: {"model": model}},
        },
        **ERRORS,
        429: LIMITED if limited else THROTTLED,
    }


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[Any]:
    """A JSON response."""
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=body,
        headers=headers or {},
    )


def error_response(error: errors.ApiError) -> Response[Any]:
    """api.md's error shape for ``error``, with the headers it carries."""
    return json_response(error.status, error.body(), error.headers)


def new_app() -> APIGatewayHttpResolver:
    """A resolver that validates with pydantic and answers every failure in api.md's shape."""
    app = APIGatewayHttpResolver(enable_validation=True, response_validation_error_http_code=500)
    for kind, handler in _EXCEPTION_HANDLERS:
        app.exception_handler(kind)(handler)
    return app


def _api_error(exc: errors.ApiError) -> Response[Any]:
    if exc.status >= 500:
        logger.error("request failed", extra={"code": exc.code})
    return error_response(exc)


def _engine_error(exc: EngineError) -> Response[Any]:
    return error_response(errors.from_engine(exc))


def _invalid(exc: RequestValidationError) -> Response[Any]:
    return error_response(validation_error(exc.errors()))


def _content_type(exc: RequestUnsupportedContentType) -> Response[Any]:
    return error_response(_not_json())


def _not_json() -> errors.ApiError:
    return errors.ApiError(415, "unsupported-media-type", "Send the body as application/json.")


def _bad_response(exc: ResponseValidationError) -> Response[Any]:
    logger.error("response failed its own model", extra={"errors": len(exc.errors())})
    return error_response(_internal())


def _no_route(exc: NotFoundError) -> Response[Any]:
    return error_response(errors.ApiError(404, "no-such-route", "There is no such endpoint."))


def _unexpected(exc: Exception) -> Response[Any]:
    # Only the exception's type is logged: messages of AWS or library errors are not ours to
    # vouch for, and nothing hidden may reach a log line.
    logger.error("unexpected failure", extra={"exception": type(exc).__name__})
    return error_response(_internal())


_EXCEPTION_HANDLERS: list[tuple[type[Exception], Callable[[Any], Response[Any]]]] = [
    (errors.ApiError, _api_error),
    (EngineError, _engine_error),
    (RequestValidationError, _invalid),
    (RequestUnsupportedContentType, _content_type),
    (ResponseValidationError, _bad_response),
    (NotFoundError, _no_route),
    (Exception, _unexpected),
]


def _internal() -> errors.ApiError:
    return errors.ApiError(500, "internal-error", "Something went wrong on our side; try again.")


def validation_error(problems: Any) -> errors.ApiError:
    """400 for a body that is not JSON, else 422 with one detail per problem (no input echoed)."""
    items = list(problems)
    if any(p.get("type") == "json_invalid" for p in items):
        return errors.malformed("The body is not valid JSON.")
    details = [
        {
            "loc": [str(part) for part in p.get("loc", ())],
            "msg": str(p.get("msg", "invalid value")),
            "type": str(p.get("type", "value_error")),
        }
        for p in items
    ]
    where = ", ".join(".".join(d["loc"][1:] or d["loc"]) for d in details[:3])
    return errors.invalid(
        "invalid-request", f"Fix these fields and send again: {where or 'body'}.", details
    )


def body_problem(event: dict[str, Any], limit: int) -> errors.ApiError | None:
    """Why a request body cannot be accepted, checked before anything parses it: too large
    (413), sent as another media type than JSON (415), not base64 when flagged so, not UTF-8,
    not JSON, or nested too deeply (400), or an array (422)."""
    body = event.get("body")
    if not body:
        return None
    if event.get("isBase64Encoded"):
        try:
            raw = base64.b64decode(str(body), validate=True)
        except (binascii.Error, ValueError):
            return errors.malformed("The body is marked base64 but is not.")
    else:
        raw = str(body).encode("utf-8", errors="surrogatepass")
    if len(raw) > limit:
        return errors.too_large(limit)
    method = str(event.get("requestContext", {}).get("http", {}).get("method", "")).upper()
    if method not in _BODY_METHODS:
        return None
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type not in ("", "application/json"):
        # The resolver would try form or multipart parsing (a multipart body without a
        # boundary even fails it): every body of this API is JSON.
        return _not_json()
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return errors.malformed("The body is not UTF-8 text.")
    except (ValueError, RecursionError):
        return errors.malformed("The body is not valid JSON (or is nested too deeply).")
    if isinstance(parsed, list):
        # No body of this API is an array; the resolver would quietly take its first element.
        return errors.invalid(
            "invalid-request",
            "Send a JSON object as the body, not an array.",
            [{"loc": ["body"], "msg": "Input should be an object", "type": "model_type"}],
        )
    return None


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def lambda_handler_for(app: APIGatewayHttpResolver) -> Handler:
    """The Lambda entry point of an API function: size limit, logging, tracing, metrics."""

    @logger.inject_lambda_context(
        correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False, clear_state=True
    )
    @tracer.capture_lambda_handler(capture_response=False)
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        try:
            problem = body_problem(event, get_config().max_body_bytes)
            if problem is not None:
                return _raw(problem)
            return app.resolve(_lower_media_type(event), context)
        finally:
            publish_metrics()

    return cast(Handler, handler)


def _lower_media_type(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` with its content type in lower case (media types ignore case; the resolver
    would not recognise ``Application/JSON``)."""
    headers = event.get("headers")
    if not isinstance(headers, dict):
        return event
    fixed = {k: v.lower() if k.lower() == "content-type" else v for k, v in headers.items()}
    return {**event, "headers": fixed} if fixed != headers else event


def _raw(error: errors.ApiError) -> dict[str, Any]:
    return {
        "statusCode": error.status,
        "headers": {"Content-Type": content_types.APPLICATION_JSON},
        "body": json.dumps(error.body()),
        "isBase64Encoded": False,
    }


def token(app: APIGatewayHttpResolver) -> str | None:
    """The caller's bearer token, if any."""
    return auth.bearer(dict(app.current_event.headers or {}))


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


def etag_matches(if_none_match: str | None, tag: str) -> bool:
    """True when an ``If-None-Match`` header names ``tag`` (or is ``*``)."""
    if not if_none_match:
        return False
    candidates = [part.strip().removeprefix("W/") for part in if_none_match.split(",")]
    return "*" in candidates or tag in candidates
