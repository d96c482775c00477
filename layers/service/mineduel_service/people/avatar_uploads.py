"""A player's avatar in three steps: ask for an upload (``POST /v1/me/avatar``), upload the image
straight to S3 with the presigned form, then ask the server to take it (``PUT /v1/me/avatar``).

The bytes never pass through the API (API Gateway and Lambda cap bodies, and paying a function to
stream images would be waste). S3 itself holds the upload to the form's terms: one key made for
this request, the declared content type, at most ``MAX_BYTES``, within a few minutes. Only on
``PUT`` does the server look at what arrived, and only what passes ``avatar_images.check`` is
stored (re-encoded, under its content hash) and set on the profile, conditioned on the profile's
version. An upload that fails the check is deleted and the profile keeps the avatar it had.

Which upload is the player's current one is kept in a small item beside the profile, replaced by
each new request, so ``PUT`` takes no body and can never be pointed at anybody else's upload.
Uploads nobody takes lapse after a day: the item by TTL, the object by the bucket's lifecycle rule.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import timedelta
from typing import Any

from botocore.exceptions import ClientError

from ..contract.people import AvatarUploadRequest
from ..platform import auth, aws, clock
from ..platform.errors import Refusal
from ..platform.observability import count
from ..ratings.model import PlayerRating
from . import store
from .avatar_images import MAX_BYTES, check, too_large
from .avatars import OBJECT_CACHE, UPLOAD_PREFIX, bucket, object_key
from .errors import AvatarUploadNotFound
from .identity import account_only
from .players import own_profile, profile_view
from .profiles import Profile

UPLOAD_FORM_S = 300
"""How long the presigned upload form works."""
UPLOAD_KEPT_S = 86400
"""How long an upload nobody took is remembered (the bucket's lifecycle rule: one day)."""
ATTEMPTS = 3


def request_upload(caller: auth.Caller, request: AvatarUploadRequest | None) -> dict[str, Any]:
    """``POST /v1/me/avatar``: a presigned S3 POST to a key made for this request alone."""
    account_only(caller)
    content_type = (request or AvatarUploadRequest()).content_type
    key = f"{UPLOAD_PREFIX}{caller.player_id}/{uuid.uuid4().hex}"
    form = aws.s3().generate_presigned_post(
        bucket(),
        key,
        Fields={"Content-Type": content_type},
        Conditions=[
            {"Content-Type": content_type},
            ["content-length-range", 1, MAX_BYTES],
        ],
        ExpiresIn=UPLOAD_FORM_S,
    )
    now = clock.now()
    store.put_upload(caller.player_id, key, now, UPLOAD_KEPT_S)
    return {
        "upload": {"url": form["url"], "fields": dict(form["fields"])},
        "expires_at": clock.iso(now + timedelta(seconds=UPLOAD_FORM_S)),
        "max_bytes": MAX_BYTES,
        "content_type": content_type,
    }


def accept_upload(caller: auth.Caller) -> dict[str, Any]:
    """``PUT /v1/me/avatar``: check the uploaded bytes; if they pass, store the clean image and
    make it the avatar. The profile with its new ``avatar_url``."""
    account_only(caller)
    key = store.current_upload(caller.player_id)
    if key is None:
        raise AvatarUploadNotFound(
            "There is no upload to take: ask for one with POST /v1/me/avatar, upload the image "
            "with the form it returns, then call this again."
        )
    size, data = _uploaded(key)
    try:
        if size > MAX_BYTES:
            raise too_large(size)
        image = check(data)
    except Refusal:
        _forget(caller, key)
        count("AvatarsRefused")
        raise
    avatar_id = hashlib.sha256(image.data).hexdigest()
    aws.s3().put_object(
        Bucket=bucket(),
        Key=object_key(avatar_id),
        Body=image.data,
        ContentType=image.content_type,
        CacheControl=OBJECT_CACHE,
    )
    try:
        stored = store.StoredAvatar(avatar_id, image.content_type, image.width, image.height)
        profile, ratings = _set_avatar(caller, key, stored)
    finally:
        _delete_object(key)
    count("AvatarsAccepted")
    return profile_view(profile, ratings, own=True)


def _uploaded(key: str) -> tuple[int, bytes]:
    """The upload's size and bytes (404 when nothing was uploaded). Past ``MAX_BYTES`` (which S3
    refuses on AWS) nothing more than one byte over the limit is read."""
    try:
        found = aws.s3().get_object(Bucket=bucket(), Key=key)
    except ClientError as exc:
        # Without s3:ListBucket (which this function is not given), S3 answers a missing key
        # with 403 rather than 404; the key is under the prefix it may read, so both mean
        # that nothing has been uploaded there.
        if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404", "AccessDenied"):
            raise AvatarUploadNotFound(
                "Nothing has been uploaded yet: send the image with the form from "
                "POST /v1/me/avatar (it works for a few minutes), then call this again."
            ) from None
        raise
    body = found["Body"]
    try:
        size = int(found.get("ContentLength", 0))
        data = body.read(MAX_BYTES + 1) if size <= MAX_BYTES else b""
    finally:
        body.close()
    return max(size, len(data)), data


def _set_avatar(
    caller: auth.Caller, key: str, avatar: store.StoredAvatar
) -> tuple[Profile, dict[str, PlayerRating]]:
    """Point the profile at the stored avatar and retire the upload, in one transaction
    conditioned on the profile's version and on the upload still being the current one."""

    def attempt() -> tuple[Profile, dict[str, PlayerRating]]:
        profile, ratings = own_profile(caller)
        updated = profile.evolve(avatar=avatar.avatar_id, version=profile.version + 1)
        store.save_avatar(updated, profile, avatar, key)
        return updated, ratings

    return store.until_saved(attempt, ATTEMPTS)


def _forget(caller: auth.Caller, key: str) -> None:
    """Delete a refused upload and its item (unless a newer upload replaced the item)."""
    _delete_object(key)
    store.forget_upload(caller.player_id, key)


def _delete_object(key: str) -> None:
    aws.s3().delete_object(Bucket=bucket(), Key=key)
