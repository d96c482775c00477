"""Avatars: a presigned upload straight to S3 (moto's server, over real HTTP), then the server
checks the bytes; good pictures become the avatar under their content hash, bad uploads are
refused with a clear error, deleted, and never replace a good avatar. Served by a redirect to
a short-lived presigned link."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import random
import struct
import urllib.request
import zlib
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.exceptions import ClientError
from mineduel_service.api import headers
from mineduel_service.people import avatar_images, avatars
from mineduel_service.platform.config import get_config
from PIL import Image

from mineduel.local.upload_form import post_form

if TYPE_CHECKING:
    from conftest import Api

AVATAR_PATH = "/v1/me/avatar"


@pytest.fixture
def api(served_api: Api) -> Api:
    """Accounts need the pool's signing keys over HTTP, and uploads need S3 over HTTP: these
    tests run on the moto server."""
    return served_api


def picture(
    kind: str = "PNG",
    size: tuple[int, int] = (64, 64),
    *,
    colour: tuple[int, int, int] = (40, 120, 200),
    noise: bool = False,
    **options: Any,
) -> bytes:
    """An image made here, in ``kind``'s format (noise makes it large and incompressible)."""
    image = Image.new("RGB", size, colour)
    if noise:
        generator = random.Random(7)
        image = Image.frombytes("RGB", size, generator.randbytes(size[0] * size[1] * 3))
    out = io.BytesIO()
    image.save(out, format=kind, **options)
    return out.getvalue()


def s3() -> Any:
    return boto3.client("s3", region_name=get_config().region)


def keys(prefix: str) -> list[str]:
    listed = s3().list_objects_v2(Bucket=get_config().avatar_bucket, Prefix=prefix)
    return [o["Key"] for o in listed.get("Contents", [])]


def ask(api: Api, token: str, content_type: str | None = None) -> dict[str, Any]:
    body = None if content_type is None else {"content_type": content_type}
    reply = api.call("POST", AVATAR_PATH, token=token, body=body)
    assert reply.status == 200, reply.body
    return dict(reply.body)


def upload(api: Api, token: str, data: bytes, content_type: str = "image/png") -> dict[str, Any]:
    """Steps one and two: ask for a form, send the bytes to S3 with it."""
    form = ask(api, token, content_type)
    sent = post_form(
        form["upload"]["url"], form["upload"]["fields"], data, content_type=content_type
    )
    assert sent.status in (200, 201, 204), sent.body
    return form


def take(api: Api, token: str) -> Any:
    """Step three."""
    return api.call("PUT", AVATAR_PATH, token=token)


def set_avatar(api: Api, token: str, data: bytes, content_type: str = "image/png") -> str:
    upload(api, token, data, content_type)
    reply = take(api, token)
    assert reply.status == 200, reply.body
    return str(reply.body["avatar_url"])


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310  (moto on loopback)
        return answer.status, answer.headers.get("content-type", ""), answer.read()


# ------------------------------------------------------------------------------ the form
def test_the_upload_form_is_for_one_key_one_type_256_kb_and_a_few_minutes(api: Api) -> None:
    token = api.player("formed")
    player_id = api.call("GET", "/v1/me", token=token).body["player_id"]
    first, second = ask(api, token, "image/webp"), ask(api, token)
    fields = first["upload"]["fields"]
    assert fields["key"].startswith(f"uploads/{player_id}/")
    assert fields["key"] != second["upload"]["fields"]["key"]
    assert fields["Content-Type"] == "image/webp"
    assert second["upload"]["fields"]["Content-Type"] == "image/png"  # the default
    assert first["max_bytes"] == 256 * 1024
    assert first["upload"]["url"].endswith(f"/{get_config().avatar_bucket}")
    policy = json.loads(base64.b64decode(fields["policy"]))
    conditions = policy["conditions"]
    assert ["content-length-range", 1, 256 * 1024] in conditions
    assert {"Content-Type": "image/webp"} in conditions
    assert {"key": fields["key"]} in conditions
    assert {"bucket": get_config().avatar_bucket} in conditions
    assert policy["expiration"][:16] == first["expires_at"][:16]  # five minutes from now


def test_only_png_jpeg_or_webp_may_be_declared(api: Api) -> None:
    token = api.player("declarer")
    reply = api.call("POST", AVATAR_PATH, token=token, body={"content_type": "image/gif"})
    assert (reply.status, reply.error_code) == (422, "invalid-request")


def test_guests_and_strangers_get_no_upload(api: Api) -> None:
    guest = api.guest()
    for method in ("POST", "PUT"):
        assert api.call(method, AVATAR_PATH, token=guest).error_code == "accounts-only"
        assert api.call(method, AVATAR_PATH).status == 401


# ------------------------------------------------------------------------------ accepted
@pytest.mark.parametrize(
    ("kind", "content_type"),
    [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")],
)
def test_an_uploaded_picture_becomes_the_avatar_and_is_served_by_a_redirect(
    api: Api, kind: str, content_type: str
) -> None:
    name = f"pic-{kind.lower()}"
    token = api.player(name)
    data = picture(kind, (96, 80), colour=(len(kind) * 30, 90, 10))
    upload(api, token, data, content_type)
    assert len(keys("uploads/")) >= 1
    taken = take(api, token)
    assert taken.status == 200, taken.body
    url = taken.body["avatar_url"]
    avatar_id = url.removeprefix("/v1/avatars/")
    assert avatars.AVATAR_ID.fullmatch(avatar_id)
    assert api.call("GET", "/v1/me", token=token).body["avatar_url"] == url
    assert api.call("GET", f"/v1/players/{name}").body["avatar_url"] == url
    assert not [k for k in keys("uploads/") if taken.body["player_id"] in k], "upload kept"

    stored = s3().get_object(Bucket=get_config().avatar_bucket, Key=f"avatars/{avatar_id}")
    body = stored["Body"].read()
    assert hashlib.sha256(body).hexdigest() == avatar_id  # content-addressed
    assert stored["ContentType"] == content_type
    assert "immutable" in stored["CacheControl"]
    with Image.open(io.BytesIO(body)) as image:
        assert (image.format, image.size) == (kind, (96, 80))

    served = api.call("GET", url)
    assert served.status == 302
    assert served.headers["cache-control"] == f"public, max-age={headers.AVATAR_REDIRECT_CACHE_S}"
    location = served.headers["location"]
    assert "X-Amz-Signature=" in location and f"X-Amz-Expires={avatars.LINK_S}" in location
    status, served_type, image_bytes = fetch(location)
    assert (status, served_type, image_bytes) == (200, content_type, body)


def test_what_is_stored_is_a_clean_copy_without_metadata(api: Api) -> None:
    token = api.player("private")
    exif = Image.Exif()
    exif[0x010F] = "SecretCameraMaker"
    exif[0x0112] = 6  # shot sideways: stored upright
    data = picture("JPEG", (80, 40), exif=exif, comment=b"my-home-address")
    assert b"SecretCameraMaker" in data and b"my-home-address" in data
    avatar_id = set_avatar(api, token, data, "image/jpeg").rsplit("/", 1)[1]
    stored = s3().get_object(Bucket=get_config().avatar_bucket, Key=f"avatars/{avatar_id}")
    body = stored["Body"].read()
    assert b"SecretCameraMaker" not in body and b"my-home-address" not in body
    with Image.open(io.BytesIO(body)) as image:
        assert image.size == (40, 80)
        assert not image.getexif()


def test_the_same_picture_is_stored_once_for_everybody(api: Api) -> None:
    data = picture("PNG", (50, 50), colour=(1, 2, 3))
    first = set_avatar(api, api.player("twin-a"), data)
    second = set_avatar(api, api.player("twin-b"), data)
    assert first == second


def test_an_upload_not_yet_sent_can_still_be_sent_and_taken(api: Api) -> None:
    token = api.player("patient")
    assert take(api, token).error_code == "avatar-upload-not-found"  # never asked
    form = ask(api, token)
    missing = take(api, token)
    assert (missing.status, missing.error_code) == (404, "avatar-upload-not-found")
    assert "Nothing has been uploaded" in missing.body["error"]["message"]
    sent = post_form(form["upload"]["url"], form["upload"]["fields"], picture())
    assert sent.status == 204
    assert take(api, token).status == 200
    again = take(api, token)  # the upload was used up
    assert (again.status, again.error_code) == (404, "avatar-upload-not-found")


def test_only_the_latest_form_counts(api: Api) -> None:
    token = api.player("changer")
    old = ask(api, token)
    ask(api, token)  # asked again: the first form is no longer the current upload
    post_form(old["upload"]["url"], old["upload"]["fields"], picture())
    assert take(api, token).error_code == "avatar-upload-not-found"


# ------------------------------------------------------------------------------ refused
def _gif() -> bytes:
    return picture("GIF")


def _too_large() -> bytes:
    data = picture("PNG", (400, 400), noise=True)
    assert len(data) > avatar_images.MAX_BYTES
    return data


def _random_bytes() -> bytes:
    return random.Random(3).randbytes(3000)


def _truncated_png() -> bytes:
    return picture("PNG", (200, 200), noise=True)[:4000]


def _text_pretending() -> bytes:
    return b"\x89PNG\r\n\x1a\n<script>alert(1)</script>"


def _png_claiming(width: int, height: int) -> bytes:
    """A real small PNG whose header (IHDR, its CRC made right) claims ``width`` x ``height``:
    big enough that Pillow's decompression-bomb check would fire before the side check."""
    data = bytearray(picture("PNG", (32, 32)))
    assert data[12:16] == b"IHDR"
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header (SOF0) claims ``width`` x ``height``."""
    data = bytearray(picture("JPEG", (32, 32)))
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


BAD_UPLOADS = [
    ("gif", _gif, 415, "avatar-unsupported-type"),
    ("svg", lambda: b'<svg xmlns="http://www.w3.org/2000/svg"/>', 415, "avatar-unsupported-type"),
    ("too-large", _too_large, 413, "avatar-too-large"),
    ("random-bytes", _random_bytes, 422, "avatar-not-an-image"),
    ("truncated", _truncated_png, 422, "avatar-not-an-image"),
    ("png-header-then-text", _text_pretending, 422, "avatar-not-an-image"),
    ("tiny", lambda: picture("PNG", (8, 8)), 422, "avatar-bad-dimensions"),
    ("huge", lambda: picture("PNG", (4000, 20)), 422, "avatar-bad-dimensions"),
    ("png-bomb-header", lambda: _png_claiming(100_000, 100_000), 422, "avatar-bad-dimensions"),
    ("jpeg-bomb-header", lambda: _jpeg_claiming(65_000, 65_000), 422, "avatar-bad-dimensions"),
]


@pytest.mark.parametrize(
    ("label", "make", "status", "code"), BAD_UPLOADS, ids=[b[0] for b in BAD_UPLOADS]
)
def test_a_bad_upload_is_refused_deleted_and_never_replaces_a_good_avatar(
    api: Api, label: str, make: Any, status: int, code: str
) -> None:
    token = api.player(f"bad-{label}"[:20])
    good = set_avatar(api, token, picture("PNG", (32, 32), colour=(9, 9, 9)))
    form = upload(api, token, make())
    refused = take(api, token)
    assert (refused.status, refused.error_code) == (status, code), refused.body
    assert refused.body["error"]["message"].endswith(".")
    assert api.call("GET", "/v1/me", token=token).body["avatar_url"] == good
    assert form["upload"]["fields"]["key"] not in keys("uploads/")
    assert take(api, token).error_code == "avatar-upload-not-found"  # nothing left to take


def test_unknown_avatars_are_404(api: Api) -> None:
    for avatar_id in ("0" * 64, "not-an-id", "A" * 64):
        reply = api.call("GET", f"/v1/avatars/{avatar_id}")
        assert (reply.status, reply.error_code) == (404, "avatar-not-found")


# ------------------------------------------------------------------------------ together
def test_the_avatar_shows_in_the_summary_of_a_finished_game(api: Api) -> None:
    token = api.player("summary-face")
    url = set_avatar(api, token, picture("WEBP", (64, 64), colour=(200, 0, 100)), "image/webp")
    game = api.bot_game(token)
    assert api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token).status == 200
    summary = api.call("GET", f"/v1/games/{game['game_id']}/summary").body
    assert [s["avatar_url"] for s in summary["seats"]] == [url, None]


def test_a_name_change_between_reading_and_writing_the_profile_is_kept(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The avatar is written conditioned on the profile's version: when the profile changes
    after it was read (here: the player renames themself at that very moment), the write is
    refused, the profile read again, and both changes land."""
    from mineduel_service.contract.models import UpdateMeRequest  # noqa: PLC0415
    from mineduel_service.people import avatar_uploads  # noqa: PLC0415
    from mineduel_service.people import players as people  # noqa: PLC0415
    from mineduel_service.people.identity import authenticate  # noqa: PLC0415
    from mineduel_service.platform import auth  # noqa: PLC0415

    from mineduel.local.invoke import running  # noqa: PLC0415

    token = api.player("racing-face")
    upload(api, token, picture("PNG", (40, 40), colour=(5, 50, 150)))
    reads: list[int] = []
    read_profile = avatar_uploads.own_profile

    def read_then_rename(caller: Any) -> Any:
        profile, ratings = read_profile(caller)
        reads.append(profile.version)
        if len(reads) == 1:  # the rename is another request, to the profile function
            with running("ProfileFunction", api.stack):
                caller = authenticate(auth.credential(token))
                people.update_me(caller, UpdateMeRequest(username="raced-face"))
        return profile, ratings

    monkeypatch.setattr(avatar_uploads, "own_profile", read_then_rename)
    taken = take(api, token)
    monkeypatch.undo()
    assert taken.status == 200, taken.body
    assert reads == [reads[0], reads[0] + 1]  # the first write lost, the second read anew
    me = api.call("GET", "/v1/me", token=token).body
    assert (me["username"], me["avatar_url"]) == ("raced-face", taken.body["avatar_url"])


def test_an_upload_replaced_while_it_is_taken_is_not_set(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write is also conditioned on the upload still being the player's current one: a new
    form asked for at that moment wins, and the picture being taken is not set."""
    from mineduel_service.people import avatar_uploads  # noqa: PLC0415

    token = api.player("replaced-face")
    good = set_avatar(api, token, picture("PNG", (32, 32), colour=(2, 2, 2)))
    form = upload(api, token, picture("PNG", (34, 34)))
    read_profile = avatar_uploads.own_profile

    def read_then_ask_again(caller: Any) -> Any:
        profile = read_profile(caller)
        ask(api, token)
        return profile

    monkeypatch.setattr(avatar_uploads, "own_profile", read_then_ask_again)
    refused = take(api, token)
    monkeypatch.undo()
    assert (refused.status, refused.error_code) == (409, "avatar-upload-replaced")
    assert api.call("GET", "/v1/me", token=token).body["avatar_url"] == good
    assert form["upload"]["fields"]["key"] not in keys("uploads/")


def test_a_failed_write_leaves_the_old_avatar_and_no_upload_behind(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DynamoDB refusing the transaction (here: the profile changing on every attempt) ends in
    a clear 409, the profile untouched and the upload object gone."""
    from mineduel_service.platform import dynamo  # noqa: PLC0415

    token = api.player("unlucky-face")
    good = set_avatar(api, token, picture("PNG", (32, 32), colour=(1, 1, 1)))
    form = upload(api, token, picture("PNG", (33, 33)))

    def always_conflicting(items: Any) -> None:
        raise dynamo.WriteConflict(["ConditionalCheckFailed", "None", "None"])

    monkeypatch.setattr(dynamo, "transact", always_conflicting)
    refused = take(api, token)
    monkeypatch.undo()
    assert (refused.status, refused.error_code) == (409, "profile-conflict")
    assert api.call("GET", "/v1/me", token=token).body["avatar_url"] == good
    assert form["upload"]["fields"]["key"] not in keys("uploads/")


def test_the_bucket_is_private_encrypted_and_lets_uploads_lapse(api: Api) -> None:
    name = get_config().avatar_bucket
    client = s3()
    block = client.get_public_access_block(Bucket=name)["PublicAccessBlockConfiguration"]
    assert all(block.values()) and len(block) == 4
    encryption = client.get_bucket_encryption(Bucket=name)["ServerSideEncryptionConfiguration"]
    assert encryption["Rules"][0]["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    rules = client.get_bucket_lifecycle_configuration(Bucket=name)["Rules"]
    assert [(r["Filter"]["Prefix"], r["Expiration"]["Days"]) for r in rules] == [("uploads/", 1)]
    with pytest.raises(ClientError):
        client.get_bucket_website(Bucket=name)
