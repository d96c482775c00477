"""The WebSocket edge: who opens a live connection (``?token=``), and the status that refuses
the handshake when the token is not valid (docs/live.md)."""

from __future__ import annotations

from ..people.identity import authenticate
from ..platform import auth
from ..platform.errors import Refusal
from .problems import problem_of


def caller(token: str | None) -> auth.Caller | None:
    """The verified caller of a ``$connect`` (None: no token, an anonymous spectator); a
    ``Refusal`` for a token that is not valid."""
    return authenticate(auth.credential(token)) if token else None


def handshake_refusal(exc: Refusal) -> dict[str, object]:
    """The ``$connect`` answer that refuses the connection: the refusal's status, its message."""
    answer = problem_of(exc)
    return {"statusCode": answer.status, "body": answer.message}
