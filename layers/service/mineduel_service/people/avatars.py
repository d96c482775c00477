"""Stored avatars: where each one lives, the item that says it exists, and the link that serves it.

A checked avatar is stored in the private bucket under ``avatars/<id>``, where the id is the
SHA-256 of its bytes: the same picture is one object however many players use it, and an id can
never come to name a different picture, so its object may be cached for good. The table keeps one
small item per stored avatar (``store``), written in the same transaction that sets it on a
profile, so ``GET /v1/avatars/{id}`` knows an id with one read and needs no S3 call at all: the
presigned link is computed locally and the bucket is never listed.
"""

from __future__ import annotations

import re

from ..platform import aws
from ..platform.config import ConfigError, get_config
from .errors import AvatarNotFound
from .store import avatar_exists

AVATAR_ID = re.compile(r"^[0-9a-f]{64}$")
AVATAR_PREFIX = "avatars/"
UPLOAD_PREFIX = "uploads/"
LINK_S = 900
"""How long a presigned link to an avatar works."""
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


def link(avatar_id: str) -> str:
    """``GET /v1/avatars/{id}``: a short-lived presigned link to the stored image (the edge
    redirects to it); ``AvatarNotFound`` for an id that names none."""
    if not AVATAR_ID.fullmatch(avatar_id):
        raise AvatarNotFound()
    if not avatar_exists(avatar_id):
        raise AvatarNotFound()
    return aws.s3().generate_presigned_url(
        "get_object",
        Params={"Bucket": bucket(), "Key": object_key(avatar_id)},
        ExpiresIn=LINK_S,
    )
