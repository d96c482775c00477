"""Who is calling: guest tokens (random, stored only as a hash) and Cognito tokens (JWT).

A guest token reads ``mdg1.<player>.<secret>``: the player part names the guest without a
database read, and the SHA-256 of the whole token is what gets compared (against the guest item
when a guest first acts, then against the hash copied into the game's seat), so the commit path
checks a guest with the one read it already makes. Account tokens are verified against the user
pool's published keys (JWKS): signature, issuer, expiry, token use and app client.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from . import clock
from .config import get_config
from .errors import Fault, Unauthorized, Unavailable

GUEST_PREFIX = "mdg1"
MAX_TOKEN_CHARS = 4096
_keys_lock = threading.Lock()
_keys: dict[str, Any] = {}  # url -> joserfc KeySet
_fetched_at: dict[str, float] = {}
JWKS_REFRESH_S = 300.0


class AuthUnavailable(Unavailable):
    """The user pool's signing keys cannot be fetched right now: account tokens cannot be
    checked (the same request may succeed in a moment)."""

    code = "auth-unavailable"
    default_message = "Account sign-in cannot be checked right now; try again."


class AuthMisconfigured(Fault):
    """The function is not configured with a usable user pool."""

    code = "auth-misconfigured"
    default_message = "Account sign-in is not available right now."


@dataclass(frozen=True)
class Credential:
    """What the Authorization header claims, before it is checked against anything."""

    kind: Literal["guest", "account"]
    token: str
    player_id: str
    name: str
    groups: frozenset[str] = frozenset()
    """The account's Cognito groups (``cognito:groups``, in id and access tokens alike), as
    the token says; a change of groups shows in tokens issued after it."""

    @property
    def token_hash(self) -> str:
        """The stored form of the token."""
        return hash_token(self.token)


@dataclass(frozen=True)
class Caller:
    """A verified caller."""

    kind: Literal["guest", "account"]
    player_id: str
    name: str
    token_hash: str | None = None
    expires_at: int | None = None
    groups: frozenset[str] = frozenset()
    """The account's Cognito groups (``moderators``); empty for guests."""


@dataclass(frozen=True)
class GuestToken:
    """A freshly issued guest token; only ``token_hash`` is ever stored."""

    token: str
    player_id: str
    token_hash: str


def hash_token(token: str) -> str:
    """The stored form of a guest token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(a: str | None, b: str | None) -> bool:
    """Constant-time comparison of two token hashes."""
    return a is not None and b is not None and hmac.compare_digest(a, b)


def issue_guest_token() -> GuestToken:
    """A new random guest token and the player it names."""
    player = uuid.uuid4().hex
    token = f"{GUEST_PREFIX}.{player}.{secrets.token_urlsafe(32)}"
    return GuestToken(token=token, player_id=f"guest-{player}", token_hash=hash_token(token))


def guest_name(player_id: str) -> str:
    """A guest's display name."""
    return f"Guest {player_id.removeprefix('guest-')[:6]}"


def bearer(headers: dict[str, str] | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None when there is none."""
    for name, value in (headers or {}).items():
        if name.lower() == "authorization":
            scheme, _, token = value.strip().partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthorized("Send the token as 'Authorization: Bearer <token>'.")
            return token.strip()
    return None


def credential(token: str) -> Credential:
    """Who the token says the caller is: account tokens are verified here, guest tokens are
    only parsed (they are checked against a stored hash by whoever reads the guest or game)."""
    if len(token) > MAX_TOKEN_CHARS:
        raise Unauthorized()
    parts = token.split(".")
    if parts[0] == GUEST_PREFIX:
        if len(parts) != 3 or len(parts[1]) != 32 or not parts[2]:
            raise Unauthorized()
        player_id = f"guest-{parts[1]}"
        return Credential("guest", token, player_id, guest_name(player_id))
    if len(parts) == 3:
        claims = verify_account_token(token)
        name = claims.get("cognito:username") or claims.get("username") or claims["sub"]
        return Credential("account", token, str(claims["sub"]), str(name), _groups(claims))
    raise Unauthorized()


def _groups(claims: dict[str, Any]) -> frozenset[str]:
    """The token's ``cognito:groups`` (a list of names; absent for an account in none)."""
    found = claims.get("cognito:groups")
    if not isinstance(found, list):
        return frozenset()
    return frozenset(str(group) for group in found if isinstance(group, str))


def verify_account_token(token: str) -> dict[str, Any]:
    """The claims of a valid Cognito id or access token of this pool and app client.

    joserfc (and the cryptography it brings) is imported here, on the first account token:
    guests and anonymous reads never pay for it.
    """
    from joserfc import jws, jwt  # noqa: PLC0415
    from joserfc.errors import JoseError  # noqa: PLC0415

    config = get_config()
    try:
        # Refuse what is not even a signed token before fetching any key.
        header = jws.extract_compact(token.encode("ascii")).protected
    except (JoseError, ValueError, UnicodeError):
        raise Unauthorized("The account token is not valid; sign in again.") from None
    if header.get("alg") != "RS256":
        raise Unauthorized("The account token is not valid; sign in again.")
    keys = _key_set(str(header.get("kid", "")))
    try:
        decoded = jwt.decode(token, keys, algorithms=["RS256"])
        registry = jwt.JWTClaimsRegistry(
            now=int(clock.now().timestamp()),
            leeway=30,
            iss={"essential": True, "value": config.issuer},
            exp={"essential": True},
            sub={"essential": True},
        )
        registry.validate(decoded.claims)
    except (JoseError, ValueError):
        raise Unauthorized("The account token is not valid; sign in again.") from None
    claims = decoded.claims
    use = claims.get("token_use")
    audience = claims.get("aud") if use == "id" else claims.get("client_id")
    if use not in ("id", "access") or audience != config.user_pool_client_id:
        raise Unauthorized("The account token is not for this app; sign in again.")
    return claims


def _key_set(kid: str) -> Any:
    """The pool's keys, fetched once per process; fetched again (at most every few minutes) when
    a token names a key id not among them, which is how Cognito's key rotation shows."""
    url = get_config().jwks_url
    with _keys_lock:
        cached = _keys.get(url)
        fetched_at = _fetched_at.get(url, 0.0)
    if cached is not None:
        known = any(key.kid == kid for key in cached.keys)
        if known or time.monotonic() - fetched_at < JWKS_REFRESH_S:
            return cached
    if not url.startswith(("https://", "http://")):
        raise AuthMisconfigured()
    # Imported on the first key fetch, like joserfc: urllib.request brings http.client, ssl
    # and email, and guests' requests (and a warm environment's) never fetch keys.
    import urllib.request  # noqa: PLC0415

    from joserfc.errors import JoseError  # noqa: PLC0415
    from joserfc.jwk import KeySet  # noqa: PLC0415

    try:
        with urllib.request.urlopen(url, timeout=3) as response:  # noqa: S310  (scheme checked)
            keys = KeySet.import_key_set(json.loads(response.read()))
    except (OSError, ValueError, JoseError):
        raise AuthUnavailable() from None
    with _keys_lock:
        _keys[url] = keys
        _fetched_at[url] = time.monotonic()
    return keys


def reset_keys() -> None:
    """Forget fetched signing keys (tests and the local stack switch pools)."""
    with _keys_lock:
        _keys.clear()
        _fetched_at.clear()
