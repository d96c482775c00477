"""Every refusal's HTTP answer, decided here: one table from refusals to status, problem type
and title, and the RFC 9457 problem details body (``application/problem+json``).

The domains raise refusals that know nothing of HTTP (``platform.errors``); the engine raises
its own (``mineduel_engine.errors``). ``PROBLEMS`` maps both to a status, first match wins: a
domain refusal by its kind, an engine refusal by its class with the API code it is known by.
The problem ``type`` is ``urn:mineduel:problem:<code>`` and the ``title`` the code in words,
the same for every occurrence; ``detail`` is the refusal's message, ``instance`` the request's
path. The code and, for clients written before problem details, the old
``{"error": {"code", "message"}}`` are extension members (docs/api.md, "Errors").
"""

from __future__ import annotations

from typing import Any

from mineduel_engine import errors as engine

from ..platform import errors

PROBLEM_TYPE_PREFIX = "urn:mineduel:problem:"
PROBLEM_JSON = "application/problem+json"

PROBLEMS: list[tuple[type[Exception], int, str | None]] = [
    # what the service refuses, by kind (the code is the refusal's own)
    (errors.Malformed, 400, None),
    (errors.Unauthenticated, 401, None),
    (errors.NotAllowed, 403, None),
    (errors.NotFound, 404, None),
    (errors.Conflict, 409, None),
    (errors.TooLarge, 413, None),
    (errors.Unsupported, 415, None),
    (errors.Invalid, 422, None),
    (errors.TooManyRequests, 429, None),
    (errors.Fault, 500, None),
    (errors.Unavailable, 503, None),
    # what the engine refuses, by class, with the code the API calls it
    (engine.GameOver, 409, "game-not-active"),
    (engine.NotYourTurn, 403, "not-your-turn"),
    (engine.SeatOut, 403, "seat-out"),
    (engine.UnknownSeat, 403, "not-your-seat"),
    (engine.CellNotCovered, 409, "cell-not-covered"),
    (engine.OffBoard, 422, "off-board"),
    (engine.UnknownAction, 422, "bad-action"),
    (engine.BombUsed, 409, "bomb-used"),
    (engine.BombNotBehind, 409, "bomb-not-behind"),
    (engine.UnknownOption, 422, "bad-option"),
    (engine.BadOptionValue, 422, "bad-option"),
    (engine.UnknownVariant, 422, "unknown-variant"),
    (engine.InvalidSettings, 422, "invalid-settings"),
    (engine.EngineError, 422, "illegal-move"),
]
"""Refusal -> (status, code when the refusal has none of its own). Every ``Refusal`` matches one
of its kinds; any other exception is not a refusal and answers 500 (``api.http``)."""


class ApiError(Exception):
    """An error answer: its status, code, message (the problem's ``detail``), field details and
    headers (``Retry-After`` on a 429, and on a 503 that knows when to come back)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: list[dict[str, Any]] | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = dict(headers or {})

    @property
    def type_uri(self) -> str:
        """The problem type: one URI per code, the same for every occurrence."""
        return f"{PROBLEM_TYPE_PREFIX}{self.code}"

    @property
    def title(self) -> str:
        """The problem type's short summary (the code in words; the same for every occurrence)."""
        return self.code.replace("-", " ").capitalize()

    def body(self, instance: str | None = None) -> dict[str, Any]:
        """The problem details object; ``instance`` is the path of the request it answers."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        problem: dict[str, Any] = {
            "type": self.type_uri,
            "title": self.title,
            "status": self.status,
            "detail": self.message,
        }
        if instance:
            problem["instance"] = instance
        problem["code"] = self.code
        if self.details:
            problem["errors"] = self.details
        problem["error"] = error
        return problem


def problem_of(exc: errors.Refusal | engine.EngineError) -> ApiError:
    """The answer to a refusal of the service or the engine (its message names only public
    things), from ``PROBLEMS``."""
    status, code = next((s, c) for kind, s, c in PROBLEMS if isinstance(exc, kind))
    if isinstance(exc, errors.Refusal):
        retry = (
            exc.retry_after_s
            if isinstance(exc, errors.TooManyRequests | errors.Unavailable)
            else None
        )
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return ApiError(status, exc.code, exc.message, exc.details, headers=headers)
    return ApiError(status, code or "illegal-move", _sentence(str(exc)))


def _sentence(text: str) -> str:
    text = text.strip() or "The move is not allowed"
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


# ---------------------------------------------------------------------------- the edge's own
def malformed(message: str) -> ApiError:
    """400: the request cannot be parsed."""
    return ApiError(400, "malformed-request", message)


def unsupported_media_type() -> ApiError:
    """415: a body that is not sent as JSON."""
    return ApiError(
        415,
        "unsupported-media-type",
        "Send the body as JSON, with the header 'content-type: application/json'.",
    )


def too_large(limit: int) -> ApiError:
    """413: the body is over the limit."""
    return ApiError(413, "body-too-large", f"Send a request body of at most {limit} bytes.")


def invalid_request(message: str, details: list[dict[str, Any]]) -> ApiError:
    """422: the body does not fit its model (one detail per field)."""
    return ApiError(422, "invalid-request", message, details)


def no_such_route() -> ApiError:
    """404: no route has this method and path."""
    return ApiError(404, "no-such-route", "There is no such endpoint.")


def internal() -> ApiError:
    """500: anything unexpected (the message says nothing about the game)."""
    return ApiError(500, "internal-error", "Something went wrong on our side; try again.")
