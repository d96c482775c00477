"""Opaque cursors for every list: a page's ``next`` is a cursor that the client sends back
as ``cursor=`` to get the following page, and null on the last page.

A cursor is URL-safe base64 of a small JSON object (DynamoDB's ``LastEvaluatedKey``, or an
offset into a sorted list), a dot, and an HMAC-SHA256 tag (16 bytes) of the list's name and that
object, keyed with the stack's ``CURSOR_KEY``. Clients must not read or build them: the shape
may change. A cursor whose tag does not match (changed, forged, or given out by another list or
another stack) is a 400, so no position the server did not hand out ever reaches a query (on
DynamoDB, a start key outside the query's partition would otherwise be a ValidationException).
Signing costs no AWS call: the key is in the function's environment (template.yaml's
``CursorKey`` secret, read at deploy time).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from typing import Any

from .config import ConfigError, get_config
from .errors import Malformed

MAX_CURSOR_CHARS = 2048
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
TAG_BYTES = 16


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _tag(kind: str, body: str) -> str:
    key = get_config().cursor_key
    if not key:
        raise ConfigError("environment variable CURSOR_KEY is not set")
    message = f"{kind}\n{body}".encode()
    return _b64(hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()[:TAG_BYTES])


def encode(kind: str, position: dict[str, Any]) -> str:
    """The cursor of ``position`` in the list ``kind``."""
    body = _b64(json.dumps(position, separators=(",", ":"), sort_keys=True).encode("utf-8"))
    return f"{body}.{_tag(kind, body)}"


def decode(kind: str, cursor: str | None) -> dict[str, Any] | None:
    """The position a cursor of the list ``kind`` stands for; None for no cursor."""
    if cursor is None or cursor == "":
        return None
    try:
        if len(cursor) > MAX_CURSOR_CHARS:
            raise ValueError("too long")
        body, _, tag = cursor.partition(".")
        if not hmac.compare_digest(tag.encode("ascii"), _tag(kind, body).encode("ascii")):
            raise ValueError("not a cursor this list gave out")
        data = json.loads(base64.urlsafe_b64decode((body + "=" * (-len(body) % 4)).encode()))
        if not isinstance(data, dict):
            raise ValueError("not a position")
    except (ValueError, UnicodeError, binascii.Error):
        raise bad_cursor() from None
    return data


class BadCursor(Malformed):
    """The cursor is not one this list gave out."""

    code = "bad-cursor"
    default_message = "The cursor is not valid here; start again without a cursor."


def bad_cursor() -> BadCursor:
    """The cursor is not one this list gave out."""
    return BadCursor()


def dynamo_key(position: dict[str, Any] | None) -> dict[str, Any] | None:
    """A ``LastEvaluatedKey`` carried in a cursor, checked to be string attributes only."""
    if position is None:
        return None
    key = position.get("key")
    if not isinstance(key, dict) or not all(
        isinstance(v, str) and isinstance(k, str) for k, v in key.items()
    ):
        raise bad_cursor()
    return {name: {"S": value} for name, value in key.items()}


def key_position(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """A cursor position from DynamoDB's ``LastEvaluatedKey`` (string attributes)."""
    if not last:
        return None
    return {"key": {name: value["S"] for name, value in last.items()}}
