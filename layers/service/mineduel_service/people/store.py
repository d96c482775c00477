"""The people domain's items, and the one module that reads and writes them:

- the profile, ``PLAYER#<id>`` / ``PROFILE``: the username, avatar, settings and statistics
  as JSON in ``body``, and the ``version`` every write is conditioned on (two of a player's
  games ending at once, or a game ending while they rename, can never both count on the
  same read);
- the username, ``USERNAME#<name, case-folded>`` / ``USERNAME``: which player holds a name,
  so a name is unique without regard to case; taken and freed only in the profile's own
  transaction;
- the guest, ``GUEST#<token hash>`` / ``GUEST``: a guest's player id, when its token expires
  (also the item's TTL) and, once an account claimed its games, ``claimed_by``;
- the stored avatar, ``AVATAR#<id>`` / ``AVATAR``: that the picture exists (its type and
  size), so serving it needs one read and no S3 call;
- the pending avatar upload, beside the profile (``AVATAR#UPLOAD``): which upload is the
  player's current one (TTL: a day).

Other domains that write a profile in their own transaction (a result counted, a moderator's
decision, a guest's claim) take its operation from here (``profile_put``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, TypeVar

from ..platform import clock, dynamo, keys
from ..ratings.model import PlayerRating
from ..ratings.store import parse_rating
from .errors import AvatarUploadReplaced, GuestAlreadyClaimed, ProfileConflict, UsernameTaken
from .profiles import Profile, Stats, merged_settings

Ratings = dict[tuple[str, str], PlayerRating]
"""Rating items by (player id, variant)."""
T = TypeVar("T")


# ---------------------------------------------------------------------------- profiles
def profile_item(profile: Profile) -> dict[str, Any]:
    """The profile's DynamoDB item."""
    body: dict[str, Any] = {
        "kind": profile.kind,
        "created_at": profile.created_at,
        "username": profile.username,
        "avatar": profile.avatar,
        "settings": profile.settings,
        "stats": asdict(profile.stats),
        "claimed_by": profile.claimed_by,
    }
    if profile.restricted:
        body["restricted"] = True
    return {
        **keys.profile(profile.player_id),
        "version": {"N": str(profile.version)},
        "body": {"S": json.dumps(body, separators=(",", ":"))},
    }


def parse_profile(player_id: str, item: dict[str, Any]) -> Profile:
    """A profile from its item."""
    body = json.loads(item["body"]["S"])
    return Profile(
        player_id=player_id,
        kind=body["kind"],
        created_at=body["created_at"],
        username=body.get("username"),
        avatar=body.get("avatar"),
        settings=merged_settings(body.get("settings") or {}, {}),
        stats=Stats(**body.get("stats", {})),
        version=int(item["version"]["N"]),
        claimed_by=body.get("claimed_by"),
        restricted=bool(body.get("restricted", False)),
    )


def get_profile(player_id: str) -> Profile | None:
    """The player's profile (consistent read); None before the player's first game or visit."""
    found = dynamo.get(keys.profile(player_id))
    return parse_profile(player_id, found) if found else None


def get_profiles(player_ids: list[str]) -> dict[str, Profile]:
    """Several profiles in one consistent ``BatchGetItem`` (missing ones left out)."""
    wanted = list(dict.fromkeys(player_ids))
    if not wanted:
        return {}
    found: dict[str, Profile] = {}
    for item in dynamo.batch_get([keys.profile(p) for p in wanted]):
        player_id = keys.player_id_of(item)
        found[player_id] = parse_profile(player_id, item)
    return found


def profiles_and_ratings(
    player_ids: Sequence[str], variants: Sequence[str]
) -> tuple[dict[str, Profile], Ratings]:
    """The players' profiles and their rating items in ``variants``, in one consistent
    ``BatchGetItem`` (missing ones left out): what a profile page shows, and what counting a
    game's result rewrites, read together so both are of one moment."""
    wanted = [keys.profile(p) for p in player_ids]
    wanted += [keys.rating(p, v) for p in player_ids for v in variants]
    profiles: dict[str, Profile] = {}
    ratings: Ratings = {}
    for item in dynamo.batch_get(wanted):
        player_id = keys.player_id_of(item)
        if item["sk"]["S"] == keys.PROFILE_SK:
            profiles[player_id] = parse_profile(player_id, item)
        else:
            rating = parse_rating(item)
            ratings[(rating.player_id, rating.variant)] = rating
    return profiles, ratings


def profile_put(profile: Profile, previous: Profile | None) -> dict[str, Any]:
    """A transaction's ``Put`` of ``profile``, conditioned on ``previous`` being what is stored
    (its version), or on there being no profile yet."""
    return dynamo.versioned_put_op(
        profile_item(profile), None if previous is None else previous.version
    )


def create_profile(profile: Profile) -> None:
    """Store a player's first profile (one transaction, as every profile write is);
    ``WriteConflict`` when one was stored meanwhile."""
    dynamo.transact([profile_put(profile, None)])


def save_profile(
    profile: Profile, previous: Profile, *, with_ops: Sequence[dict[str, Any]] = ()
) -> None:
    """Write ``profile`` over ``previous`` with ``with_ops`` (another domain's items that follow
    it), in one transaction. A new username (not merely a change of case) is taken and the old
    one freed in the same transaction, so a name is never held by two players nor lost in
    between: ``UsernameTaken`` when another player holds it; ``WriteConflict`` when the profile
    (or an item of ``with_ops``) changed since it was read."""
    ops = [profile_put(profile, previous)]
    claims = _new_name(previous.username, profile.username)
    if claims and profile.username:
        ops.append(_username_claim(profile.username, profile.player_id))
        if previous.username:
            ops.append(_username_release(previous.username, profile.player_id))
    ops.extend(with_ops)
    try:
        dynamo.transact(ops)
    except dynamo.WriteConflict as exc:
        if claims and exc.failed(1):
            raise UsernameTaken() from None
        raise


def save_profiles(changes: Sequence[tuple[Profile, Profile | None]]) -> None:
    """Write each ``(profile, previous)`` of ``changes`` in one transaction, each conditioned on
    its ``previous`` (or on there being none): all or nothing (a guest's statistics merged
    into an account's, and the guest's closed). ``WriteConflict`` when one changed."""
    dynamo.transact([profile_put(profile, previous) for profile, previous in changes])


def until_saved(
    attempt: Callable[[], T],
    attempts: int,
    exhausted: Callable[[], Exception] = ProfileConflict,
) -> T:
    """Run ``attempt`` (read the profile, decide, save conditioned on what was read) again
    while its write finds the profile changed meanwhile, at most ``attempts`` times; then
    raise ``exhausted()`` (``ProfileConflict`` unless the use case names its own). A refusal
    ``attempt`` raises goes through at once."""
    return dynamo.read_modify_write(attempt, attempts, exhausted)


def _new_name(before: str | None, after: str | None) -> bool:
    """Whether ``after`` is a name to take: one, and not ``before`` in another case."""
    return bool(after) and (before or "").casefold() != (after or "").casefold()


# ---------------------------------------------------------------------------- usernames
def owner_of(username: str) -> str | None:
    """The player id that owns ``username`` (any case), or None."""
    found = dynamo.get(keys.username(username))
    return found["player_id"]["S"] if found else None


def _username_claim(username: str, player_id: str) -> dict[str, Any]:
    """A transaction's ``Put`` that takes ``username`` for ``player_id`` (fails if taken)."""
    return dynamo.new_item_op(
        {**keys.username(username), "player_id": {"S": player_id}, "username": {"S": username}}
    )


def _username_release(username: str, player_id: str) -> dict[str, Any]:
    """A transaction's ``Delete`` that frees ``username`` (only if ``player_id`` holds it)."""
    return dynamo.delete_op(
        keys.username(username), condition="player_id = :p", values={":p": {"S": player_id}}
    )


# ---------------------------------------------------------------------------- guests
@dataclass(frozen=True)
class Guest:
    """A stored guest."""

    player_id: str
    expires_at: int
    claimed_by: str | None = None


def put_guest(token_hash: str, player_id: str, expires_at: int) -> None:
    """Store a guest under its token hash (never the token); TTL removes it after expiry."""
    dynamo.put(
        {
            **keys.guest(token_hash),
            "player_id": {"S": player_id},
            "expires_ttl": {"N": str(expires_at)},
        },
        condition="attribute_not_exists(pk)",
    )


def get_guest(token_hash: str) -> Guest | None:
    """The guest whose token hashes to ``token_hash``."""
    item = dynamo.get(keys.guest(token_hash))
    if not item:
        return None
    claimed = item.get("claimed_by")
    return Guest(
        player_id=item["player_id"]["S"],
        expires_at=int(item["expires_ttl"]["N"]),
        claimed_by=claimed["S"] if claimed else None,
    )


def mark_claimed(token_hash: str, account_id: str) -> None:
    """Mark the guest as claimed by ``account_id`` (again by the same account is fine);
    ``GuestAlreadyClaimed`` when another account claimed it first."""
    try:
        dynamo.update(
            keys.guest(token_hash),
            "SET claimed_by = :account",
            condition=(
                "attribute_exists(pk)"
                " AND (attribute_not_exists(claimed_by) OR claimed_by = :account)"
            ),
            values={":account": {"S": account_id}},
        )
    except dynamo.WriteConflict:
        raise GuestAlreadyClaimed() from None


# ---------------------------------------------------------------------------- avatars
@dataclass(frozen=True)
class StoredAvatar:
    """A checked picture as stored: its id (the SHA-256 of its bytes) and what it is."""

    avatar_id: str
    content_type: str
    width: int
    height: int


def avatar_exists(avatar_id: str) -> bool:
    """Whether an avatar of this id is stored (one read of its item)."""
    return dynamo.get(keys.avatar(avatar_id)) is not None


def _avatar_put(avatar: StoredAvatar) -> dict[str, Any]:
    """A transaction's ``Put`` of the item that records a stored avatar (the same id always
    describes the same bytes, so writing it again changes nothing that matters)."""
    return dynamo.put_op(
        {
            **keys.avatar(avatar.avatar_id),
            "content_type": {"S": avatar.content_type},
            "width": {"N": str(avatar.width)},
            "height": {"N": str(avatar.height)},
            "stored_at": {"S": clock.iso(clock.now())},
        }
    )


def put_upload(player_id: str, upload_key: str, now: datetime, kept_s: int) -> None:
    """Make ``upload_key`` the player's current upload (replacing any earlier one), remembered
    for ``kept_s`` seconds (TTL)."""
    dynamo.put(
        {
            **keys.avatar_upload(player_id),
            "upload_key": {"S": upload_key},
            "requested_at": {"S": clock.iso(now)},
            "expires_ttl": {"N": str(int(now.timestamp()) + kept_s)},
        }
    )


def current_upload(player_id: str) -> str | None:
    """The key of the player's current upload, or None when they asked for none (or it
    lapsed)."""
    pending = dynamo.get(keys.avatar_upload(player_id))
    return None if pending is None else str(pending["upload_key"]["S"])


def _retire_upload(player_id: str, upload_key: str) -> dict[str, Any]:
    """A transaction's ``Delete`` of the upload item, only while ``upload_key`` is current."""
    return dynamo.delete_op(
        keys.avatar_upload(player_id),
        condition="upload_key = :key",
        values={":key": {"S": upload_key}},
    )


def save_avatar(profile: Profile, previous: Profile, avatar: StoredAvatar, upload_key: str) -> None:
    """Point the profile at the stored avatar, record the avatar and retire the upload, in one
    transaction conditioned on the profile's version (``WriteConflict``) and on the upload
    still being the current one (``AvatarUploadReplaced``)."""
    ops = [
        profile_put(profile, previous),
        _avatar_put(avatar),
        _retire_upload(profile.player_id, upload_key),
    ]
    try:
        dynamo.transact(ops)
    except dynamo.WriteConflict as exc:
        if exc.failed(2):
            raise AvatarUploadReplaced() from None
        raise


def forget_upload(player_id: str, upload_key: str) -> None:
    """Retire the upload item, unless a newer upload replaced it meanwhile."""
    with contextlib.suppress(dynamo.WriteConflict):
        dynamo.transact([_retire_upload(player_id, upload_key)])
