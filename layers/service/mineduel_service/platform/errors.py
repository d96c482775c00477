"""Refusals: what the service says when it will not do what was asked, in its own words.

A refusal has a stable kebab-case ``code`` (its class's, the same for every occurrence: clients
branch on it, docs/api.md lists them) and one ``message`` a person can act on. Each domain names
its own refusals (``games.errors``, ``play.errors``, ...) as subclasses of one of the kinds
below, which say what sort of "no" it is; none of them knows HTTP. The edge (``api.problems``)
maps every kind to a status, a problem type and a title, in one table.

Messages are written by the service or come from engine refusals, which never mention hidden
cells, so no refusal can carry the seed or the field.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Refusal(Exception):
    """A request the service refuses: ``code`` says which refusal, ``message`` why."""

    code: str = "refused"
    """The refusal's stable name (a class attribute: the same for every occurrence)."""
    default_message: ClassVar[str] = ""

    def __init__(self, message: str | None = None, details: list[dict[str, Any]] | None = None):
        self.message = message if message is not None else self.default_message
        super().__init__(self.message)
        self.details = details


# ---------------------------------------------------------------------------- the kinds
class Malformed(Refusal):
    """The request cannot be read (a cursor that is not one of ours, a body that is no JSON)."""


class Unauthenticated(Refusal):
    """The caller did not prove who they are (no token, a bad or expired one)."""


class NotAllowed(Refusal):
    """The caller is known, but may not do this (not their seat, not their turn, a guest)."""


class NotFound(Refusal):
    """What the request names does not exist (or is not the caller's to see)."""


class Conflict(Refusal):
    """The state is not what the request assumed (the game moved on, a name is taken)."""


class TooLarge(Refusal):
    """What was sent is over the limit."""


class Unsupported(Refusal):
    """What was sent is of a type the service does not take."""


class Invalid(Refusal):
    """Well-formed, but not something that can be done (a bad option, a date that is none)."""


class TooManyRequests(Refusal):
    """The caller's address used up its allowance for now; ``retry_after_s`` says when the next
    one starts."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class Unavailable(Refusal):
    """Something the request needs cannot be reached right now; the same request may succeed
    later (after ``retry_after_s``, when the refusal knows it: the answer's ``Retry-After``)."""

    retry_after_s: int | None = None


class Fault(Refusal):
    """The service cannot do it because something on its side is wrong (never the caller's
    doing); nothing was changed."""


# ---------------------------------------------------------------------------- shared refusals
class Unauthorized(Unauthenticated):
    """No token, or one that is not valid."""

    code = "unauthorized"
    default_message = "Send a valid token in the Authorization header."
