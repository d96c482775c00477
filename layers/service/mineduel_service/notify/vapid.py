"""The stack's VAPID key pair (RFC 8292): who signs every Web Push request, made once.

Browsers subscribe with the public key (``GET /v1/push/vapid-key``) and their push service
accepts only requests signed with its private key, so the pair must stay the same for the
stack's life: a new one would strand every subscription. It lives in Parameter Store:
``<VAPID_PARAMETER>/private``, a ``SecureString`` encrypted with the stack's KMS key (the raw
32-byte P-256 scalar, base64url), and ``<VAPID_PARAMETER>/public`` (the uncompressed point,
base64url; public, so a plain ``String``).

Made on the first ``GET /v1/push/vapid-key``, race-safe: the route makes a pair and puts the
private parameter without overwriting; of two racing, exactly one put lands and the loser uses
the winner's public key. Only the winner writes the public parameter (derived from what it
stored). The route reads the public parameter alone and never decrypts the private one; the
delivery function only reads the private one (a browser subscribed with the public key before
anything is pushed to it). Each execution environment reads them once (cached).
"""

from __future__ import annotations

import base64
import threading
import time
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from ..platform import aws
from ..platform.config import get_config
from ..platform.observability import count, logger
from .errors import PushKeyUnavailable

JWT_LIFETIME_S = 12 * 3600
"""RFC 8292 section 2: a token at most 24 hours; push services cache a valid one."""
RACE_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)
"""How long a loser of the first-use race waits, in turn, for the winner's public key."""


class _KeyCache:
    """``public`` (str) and ``private`` (the key), once read in this environment."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        with self._lock:
            return self._found.get(name)

    def put(self, name: str, value: Any) -> None:
        with self._lock:
            self._found[name] = value

    def clear(self) -> None:
        with self._lock:
            self._found.clear()


_cache = _KeyCache()


def b64url(data: bytes) -> str:
    """Unpadded base64url (what Web Push uses throughout)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Decode base64url with or without padding (``ValueError`` if it is not base64url)."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    """The uncompressed point (65 bytes, ``0x04 || X || Y``)."""
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@dataclass(frozen=True)
class _Names:
    private: str
    public: str


def _names() -> _Names:
    base = get_config().vapid_parameter
    if not base:
        raise PushKeyUnavailable("This server has no VAPID key configured.")
    return _Names(f"{base}/private", f"{base}/public")


def public_key() -> str:
    """The application server key browsers subscribe with (base64url, uncompressed P-256)."""
    cached = _cache.get("public")
    if cached is not None:
        return str(cached)
    names = _names()
    found = _read(names.public, decrypt=False)
    if found is None:
        made = _make(names)
        found = made if made is not None else _wait_for(names.public)
    _cache.put("public", found)
    return found


def private_key() -> ec.EllipticCurvePrivateKey:
    """The key every Web Push request is signed with. Only the public route makes the pair:
    a browser subscribes with the public key first, so by the time anything is pushed, the
    pair exists (``PushKeyUnavailable`` otherwise: the message is retried)."""
    cached: ec.EllipticCurvePrivateKey | None = _cache.get("private")
    if cached is not None:
        return cached
    raw = _read(_names().private, decrypt=True)
    if raw is None:
        raise PushKeyUnavailable()
    key = _from_raw(raw)
    _cache.put("private", key)
    return key


def forget() -> None:
    """Drop the cached pair (tests, and a stack whose parameters were replaced)."""
    _cache.clear()


def _from_raw(raw: str) -> ec.EllipticCurvePrivateKey:
    scalar = int.from_bytes(b64url_decode(raw), "big")
    return ec.derive_private_key(scalar, ec.SECP256R1())


def _read(name: str, *, decrypt: bool) -> str | None:
    try:
        answer = aws.ssm().get_parameter(Name=name, WithDecryption=decrypt)
    except Exception as exc:
        if _code(exc) == "ParameterNotFound":
            return None
        logger.error("VAPID key not read", extra={"error": type(exc).__name__})
        raise PushKeyUnavailable() from None
    return str(answer["Parameter"]["Value"])


def _make(names: _Names) -> str | None:
    """Make the pair and store it; its public key, or None when another made one first."""
    key = ec.generate_private_key(ec.SECP256R1())
    raw = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    public = b64url(public_bytes(key.public_key()))
    try:
        aws.ssm().put_parameter(
            Name=names.private,
            Value=raw,
            Type="SecureString",
            KeyId=get_config().seed_key_id,
            Overwrite=False,
            Description="The stack's VAPID private key (Web Push, RFC 8292); made once.",
        )
    except Exception as exc:
        if _code(exc) == "ParameterAlreadyExists":
            return None  # another environment won the race: its pair stands
        logger.error("VAPID key not stored", extra={"error": type(exc).__name__})
        raise PushKeyUnavailable() from None
    aws.ssm().put_parameter(
        Name=names.public,
        Value=public,
        Type="String",
        Overwrite=True,
        Description="The stack's VAPID public key: browsers subscribe with it.",
    )
    count("VapidKeysMade")
    return public


def _wait_for(name: str) -> str:
    """The winner's public key, once it has written it."""
    for pause in RACE_WAITS:
        time.sleep(pause)
        found = _read(name, decrypt=False)
        if found is not None:
            return found
    raise PushKeyUnavailable()


def _code(exc: Exception) -> str:
    response: Any = getattr(exc, "response", None) or {}
    return str(response.get("Error", {}).get("Code", ""))


def authorization(audience: str, now: float) -> str:
    """The ``Authorization`` header of a push request to the push service at ``audience``
    (its origin): ``vapid t=<JWT>, k=<public key>`` (RFC 8292 section 3)."""
    from py_vapid import Vapid02  # noqa: PLC0415  (the delivery function alone signs)

    claims = {"aud": audience, "exp": int(now) + JWT_LIFETIME_S, "sub": _contact()}
    signed: dict[str, str] = Vapid02(private_key()).sign(claims)
    return signed["Authorization"]


def _contact() -> str:
    contact = get_config().push_contact
    return contact or "mailto:push@localhost"
