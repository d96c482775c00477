"""Stored avatars: where each one lives, the item that says it exists, and the link that serves it.

A checked avatar is stored in the private bucket under ``avatars/<id>``, where the id is the
SHA-256 of its bytes: the same picture is one object however many players use it, and an id can
never come to name a different picture, so its object may be cached for good. The table keeps one
small item per stored avatar (``AVATAR#<id>``), written in the same transaction that sets it on a
profile, so ``GET /v1/avatars/{id}`` knows an id with one read and needs no S3 call at all: the
presigned link is computed locally and the bucket is never listed.
"""

from __future__ import annotations

import re
from typing import Any

from ..platform import aws, clock
from ..platform.config import ConfigError, get_config
from ..platform.errors import ApiError

AVATAR_ID = re.compile(r"^[0-9a-f]{64}$")
AVATAR_PREFIX = "avatars/"
UPLOAD_PREFIX = "uploads/"
LINK_S = 900
"""How long a presigned link to an avatar works."""
REDIRECT_CACHE_S = 600
"""How long a client or CDN may keep the redirect: less than ``LINK_S``, so a cached redirect
always leads to a link that still works."""
OBJECT_CACHE = "public, max-age=31536000, immutable"


def bucket() -> str:
    """The avatar bucket's name (only the avatar functions are given one)."""
    name = get_config().avatar_bucket
    if not name:
        raise ConfigError("environment variable AVATAR_BUCKET is not set")
    return name


def object_key(avatar_id: str) -> str:
    """Where a stored avatar lives in the bucket."""
    return f"{AVATAR_PREFIX}{avatar_id}"


def avatar_key(avatar_id: str) -> dict[str, Any]:
    """The stored avatar's item key."""
    return {"pk": {"S": f"AVATAR#{avatar_id}"}, "sk": {"S": "AVATAR"}}


def avatar_put(avatar_id: str, content_type: str, width: int, height: int) -> dict[str, Any]:
    """A transaction's ``Put`` of the item that records a stored avatar (the same id always
    describes the same bytes, so writing it again changes nothing that matters)."""
    return {
        "Put": {
            "TableName": get_config().table_name,
            "Item": {
                **avatar_key(avatar_id),
                "content_type": {"S": content_type},
                "width": {"N": str(width)},
                "height": {"N": str(height)},
                "stored_at": {"S": clock.iso(clock.now())},
            },
        }
    }


def avatar_not_found() -> ApiError:
    """404: no stored avatar has that id."""
    return ApiError(404, "avatar-not-found", "There is no avatar with that id.")


def link(avatar_id: str) -> str:
    """``GET /v1/avatars/{id}``: a short-lived presigned link to the stored image; 404 for an
    id that names none."""
    if not AVATAR_ID.fullmatch(avatar_id):
        raise avatar_not_found()
    found = (
        aws.dynamodb()
        .get_item(TableName=get_config().table_name, Key=avatar_key(avatar_id), ConsistentRead=True)
        .get("Item")
    )
    if found is None:
        raise avatar_not_found()
    return aws.s3().generate_presigned_url(
        "get_object",
        Params={"Bucket": bucket(), "Key": object_key(avatar_id)},
        ExpiresIn=LINK_S,
    )


def redirect_headers(location: str) -> dict[str, str]:
    """The redirect's headers: where, and for how long it may be reused."""
    return {"Location": location, "Cache-Control": f"public, max-age={REDIRECT_CACHE_S}"}
