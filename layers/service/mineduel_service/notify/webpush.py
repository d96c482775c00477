"""Web Push, by the standards: one encrypted message to one browser's push service.

- RFC 8291 (``aes128gcm``): the payload is encrypted for the browser's key (``p256dh``) and
  secret (``auth``) with a fresh sender key pair and salt per message, in one record
  (RFC 8188), so only that browser can read it; the push service sees only ciphertext. Written
  with ``cryptography``'s primitives (ECDH, HKDF, AES-GCM): the one library the layer already
  has, and the few lines RFC 8291 section 3.4 spells out.
- RFC 8292 (VAPID): every request carries ``Authorization: vapid t=<JWT>, k=<public key>``,
  the JWT (ES256) signed with the stack's private key for the push service's origin.
- RFC 8030: ``POST`` to the subscription's endpoint with ``TTL`` (how long the push service
  keeps it for an offline device), ``Urgency`` and ``Topic`` (a newer message of the same
  topic replaces one still held). The push service's answer decides what follows: 201 sent;
  404 or 410, the subscription is gone (the caller removes it); 429 or a 5xx, try again later;
  anything else, refused (counted and logged, not retried).

Only endpoints ``endpoints.check_endpoint`` allows are requested, redirects are never
followed, and a request takes at most ``CONNECT_TIMEOUT_S`` + ``READ_TIMEOUT_S``: a slow push
service delays only the delivery of its own messages, never a move (the delivery runs behind
a queue, docs/notifications.md).

The one module outside the HTTP edge that reads HTTP statuses: they are the push services'
answers to our requests, not answers of ours (``tests/test_service_imports.py`` names it).
"""

from __future__ import annotations

import os
import struct
import threading
from dataclasses import dataclass
from typing import Literal

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import vapid
from .endpoints import origin_of

RECORD_SIZE = 4096
"""RFC 8188's record size: the whole payload fits one record (at most 3 KB, docs/api.md)."""
MAX_PAYLOAD_BYTES = 3072
CONNECT_TIMEOUT_S = 2.0
READ_TIMEOUT_S = 4.0
GONE_STATUSES = frozenset({404, 410})
RETRY_STATUSES = frozenset({408, 425, 429})

Outcome = Literal["sent", "gone", "retry", "refused"]


class PayloadTooLarge(ValueError):
    """A payload over ``MAX_PAYLOAD_BYTES`` (never sent)."""


@dataclass(frozen=True)
class WebSubscription:
    """Where and for whom: a browser's endpoint and its keys (base64url, as the browser gave)."""

    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Answer:
    """What the push service said: the outcome, its status (0: no answer at all)."""

    outcome: Outcome
    status: int


def check_keys(p256dh: str, auth: str) -> None:
    """``ValueError`` unless ``p256dh`` is an uncompressed P-256 point and ``auth`` 16 bytes."""
    point = vapid.b64url_decode(p256dh)
    if len(point) != 65 or point[0] != 4:
        raise ValueError("p256dh is not an uncompressed P-256 point")
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    if len(vapid.b64url_decode(auth)) != 16:
        raise ValueError("auth is not 16 bytes")


def encrypt(
    plaintext: bytes,
    p256dh: str,
    auth: str,
    *,
    sender: ec.EllipticCurvePrivateKey | None = None,
    salt: bytes | None = None,
) -> bytes:
    """The ``aes128gcm`` message body of RFC 8291 section 4 (``sender`` and ``salt`` are fresh
    unless given: only tests give them, to check the RFC's own example)."""
    if len(plaintext) > MAX_PAYLOAD_BYTES:
        raise PayloadTooLarge(f"{len(plaintext)} bytes")
    receiver_bytes = vapid.b64url_decode(p256dh)
    receiver = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), receiver_bytes)
    secret = vapid.b64url_decode(auth)
    sender = sender or ec.generate_private_key(ec.SECP256R1())
    sender_bytes = vapid.public_bytes(sender.public_key())
    salt = salt or os.urandom(16)
    shared = sender.exchange(ec.ECDH(), receiver)
    # RFC 8291 section 3.4: the input keying material binds both public keys and the secret.
    key_info = b"WebPush: info\x00" + receiver_bytes + sender_bytes
    ikm = HKDF(algorithm=hashes.SHA256(), length=32, salt=secret, info=key_info).derive(shared)
    # RFC 8188 section 2.2 and 2.3: the content encryption key and the nonce.
    cek = HKDF(
        algorithm=hashes.SHA256(), length=16, salt=salt, info=b"Content-Encoding: aes128gcm\x00"
    ).derive(ikm)
    nonce = HKDF(
        algorithm=hashes.SHA256(), length=12, salt=salt, info=b"Content-Encoding: nonce\x00"
    ).derive(ikm)
    record = plaintext + b"\x02"  # the last (only) record's delimiter, no padding
    ciphertext = AESGCM(cek).encrypt(nonce, record, None)
    header = salt + struct.pack("!IB", RECORD_SIZE, len(sender_bytes)) + sender_bytes
    return header + ciphertext


_pool_lock = threading.Lock()
_pools: dict[str, object] = {}


def _http() -> object:
    """One connection pool per environment (push services are few: connections are reused)."""
    with _pool_lock:
        if "pool" not in _pools:
            import urllib3  # noqa: PLC0415  (the delivery function alone sends)

            _pools["pool"] = urllib3.PoolManager(
                num_pools=8,
                maxsize=4,
                timeout=urllib3.Timeout(connect=CONNECT_TIMEOUT_S, read=READ_TIMEOUT_S),
                retries=False,  # no redirect followed, no retry here: the queue retries
            )
        return _pools["pool"]


def send(
    subscription: WebSubscription,
    payload: bytes,
    *,
    ttl_s: int,
    urgency: str,
    topic: str,
    now: float,
) -> Answer:
    """Encrypt ``payload`` for the subscription and ``POST`` it to its push service."""
    body = encrypt(payload, subscription.p256dh, subscription.auth)
    headers = {
        "TTL": str(ttl_s),
        "Urgency": urgency,
        "Topic": topic,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Authorization": vapid.authorization(origin_of(subscription.endpoint), now),
    }
    pool = _http()
    try:
        response = pool.request(  # type: ignore[attr-defined]
            "POST", subscription.endpoint, body=body, headers=headers, redirect=False
        )
    except Exception:
        return Answer("retry", 0)  # no answer (timeout, connection refused): try again later
    return Answer(outcome_of(int(response.status)), int(response.status))


def outcome_of(status: int) -> Outcome:
    """What a push service's answer means for the message (RFC 8030 sections 5 and 8)."""
    if 200 <= status < 300:
        return "sent"
    if status in GONE_STATUSES:
        return "gone"
    if status in RETRY_STATUSES or status >= 500:
        return "retry"
    return "refused"
