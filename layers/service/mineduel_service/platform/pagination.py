"""Opaque cursors for every list: a page's ``next`` is a cursor that the client sends back
as ``cursor=`` to get the following page, and null on the last page.

A cursor is URL-safe base64 of a small JSON object (DynamoDB's ``LastEvaluatedKey``, or an
offset into a sorted list). Clients must not read or build them: the shape may change. A
cursor that does not decode, or that names another list, is refused (``BadCursor``).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .errors import Malformed

MAX_CURSOR_CHARS = 2048
DEFAULT_LIMIT = 20
MAX_LIMIT = 100


def encode(kind: str, position: dict[str, Any]) -> str:
    """The cursor of ``position`` in the list ``kind``."""
    text = json.dumps({"k": kind, "p": position}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode(kind: str, cursor: str | None) -> dict[str, Any] | None:
    """The position a cursor of the list ``kind`` stands for; None for no cursor."""
    if cursor is None or cursor == "":
        return None
    try:
        if len(cursor) > MAX_CURSOR_CHARS:
            raise ValueError("too long")
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
        if not isinstance(data, dict) or data.get("k") != kind or not isinstance(data["p"], dict):
            raise ValueError("not this list's cursor")
    except (ValueError, KeyError, UnicodeError, binascii.Error):
        raise bad_cursor() from None
    position: dict[str, Any] = data["p"]
    return position


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
