"""The API's errors: a status, a kebab-case code and one sentence a person can act on.

Every refusal anywhere in the service is an ``ApiError``; ``http`` turns it into an RFC 9457
problem details body (``application/problem+json``): ``type`` (``urn:mineduel:problem:<code>``),
``title``, ``status``, ``detail``, ``instance`` (the request's path), with the ``code`` and,
for clients written before problem details, the old ``{"error": {"code", "message"}}`` as
extension members (docs/api.md, "Errors"). Messages are written here or from engine refusals,
which never mention hidden cells, so no error can carry the seed or the field.
"""

from __future__ import annotations

from typing import Any

from mineduel_engine import errors as engine

PROBLEM_TYPE_PREFIX = "urn:mineduel:problem:"
PROBLEM_JSON = "application/problem+json"


class ApiError(Exception):
    """A refusal with its HTTP status and docs/api.md error code."""

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
        self.headers = dict(headers or {})  # sent with the answer (``Retry-After`` on a 429)

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


def unauthorized(message: str = "Send a valid token in the Authorization header.") -> ApiError:
    """401: no or bad credentials."""
    return ApiError(401, "unauthorized", message)


def forbidden(code: str, message: str) -> ApiError:
    """403: the caller may not do this."""
    return ApiError(403, code, message)


def not_found(message: str = "There is no such game.") -> ApiError:
    """404: no such game (also for games the caller may not see)."""
    return ApiError(404, "game-not-found", message)


def conflict(code: str, message: str) -> ApiError:
    """409: the game is not in the state the request assumed."""
    return ApiError(409, code, message)


def invalid(code: str, message: str, details: list[dict[str, Any]] | None = None) -> ApiError:
    """422: well-formed but invalid."""
    return ApiError(422, code, message, details)


def too_large(limit: int) -> ApiError:
    """413: the body is over the limit."""
    return ApiError(413, "body-too-large", f"Send a request body of at most {limit} bytes.")


_ENGINE_REFUSALS: list[tuple[type[engine.EngineError], int, str]] = [
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
]


def from_engine(exc: engine.EngineError) -> ApiError:
    """Map an engine refusal to its API error (its message names only public things)."""
    for kind, status, code in _ENGINE_REFUSALS:
        if isinstance(exc, kind):
            return ApiError(status, code, _sentence(str(exc)))
    return ApiError(422, "illegal-move", _sentence(str(exc)))


def _sentence(text: str) -> str:
    text = text.strip() or "The move is not allowed"
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."
