"""A Web Push receiver on 127.0.0.1: a push service and a browser in one, for tests and for
trying notifications on the local stack (docs/notifications.md).

It plays both ends the service never sees together: it hands out subscriptions made as a
browser makes them (a fresh P-256 key pair and a 16-byte ``auth`` secret per subscription, in
``PushSubscription.toJSON()``'s shape, with an endpoint ``http://127.0.0.1:<port>/push/<id>``),
and it answers the ``POST`` a push service gets. For each one it checks, independently of the
code that sent it:

- RFC 8292: ``Authorization: vapid t=<JWT>, k=<key>``; ``k`` is the key the server serves
  (``GET /v1/push/vapid-key``), the JWT is ES256-signed by it (checked with ``cryptography``),
  its ``aud`` is this receiver's origin, ``exp`` within the next 24 hours, ``sub`` a contact;
- RFC 8030: ``TTL`` is there, ``Urgency`` and ``Topic`` (when sent) are well-formed;
- RFC 8291: ``Content-Encoding: aes128gcm``, and the body decrypts with the subscription's
  private key and secret (``http_ece``, a library the sender does not use) to a JSON payload.

A push that fails a check is answered 400 or 403 and kept in ``rejected``; one that passes is
kept in ``received`` and answered as the subscription is told to answer (201 by default; 410
for a subscription that is gone; 500 a number of times first). ``http_ece`` comes with the
project's dev dependencies.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from mineduel.local.serving import serve_in_thread

MAX_JWT_LIFETIME_S = 24 * 3600
URGENCIES = ("very-low", "low", "normal", "high")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@dataclass
class Browser:
    """One subscription, as a browser holds it: its private key and secret stay here."""

    token: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str
    answers: list[int] = field(default_factory=list)
    """Statuses to answer in turn before the default (e.g. ``[500]`` fails once)."""
    default: int = 201
    delay_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {
                "p256dh": b64url(_point(self.private_key.public_key())),
                "auth": b64url(self.auth),
            },
        }


@dataclass(frozen=True)
class Push:
    """One push received and checked: who it was for, its headers, claims and payload."""

    token: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any]
    size: int
    at: float


class PushReceiver:
    """See the module docstring. Use as a context manager (it serves on a thread)."""

    def __init__(self, server_key: str | None = None) -> None:
        self.server_key = server_key
        """The VAPID public key pushes must be signed with (base64url); set before pushes come."""
        self._lock = threading.Condition()
        self.browsers: dict[str, Browser] = {}
        self.received: list[Push] = []
        self.rejected: list[str] = []
        self.answered: list[tuple[str, int]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status = receiver._handle(self.path, dict(self.headers.items()), body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self._server.server_address[1])
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = serve_in_thread(self._server, "push-receiver", start=False)

    def __enter__(self) -> PushReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    # ------------------------------------------------------------------ subscriptions
    def subscribe(self) -> Browser:
        """A new subscription, made as a browser makes one."""
        token = secrets.token_urlsafe(16)
        browser = Browser(
            token=token,
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth=secrets.token_bytes(16),
            endpoint=f"{self.origin}/push/{token}",
        )
        with self._lock:
            self.browsers[token] = browser
        return browser

    def pushes(self, browser: Browser) -> list[Push]:
        with self._lock:
            return [p for p in self.received if p.token == browser.token]

    def wait_for(self, browser: Browser, count: int, timeout_s: float = 15.0) -> list[Push]:
        """The browser's pushes once there are at least ``count`` (AssertionError after
        ``timeout_s`` with what came)."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while True:
                found = [p for p in self.received if p.token == browser.token]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"{len(found)} pushes of {count} came within {timeout_s} s "
                        f"(rejected: {self.rejected})"
                    )
                self._lock.wait(left)

    # ------------------------------------------------------------------ a push
    def _handle(self, path: str, headers: dict[str, str], body: bytes) -> int:
        token = path.removeprefix("/push/")
        with self._lock:
            browser = self.browsers.get(token)
        if browser is None:
            return self._reject(404, f"unknown endpoint {path}")
        lowered = {k.lower(): v for k, v in headers.items()}
        try:
            claims = self._check_vapid(lowered.get("authorization", ""))
            self._check_headers(lowered)
            payload = json.loads(self._decrypt(browser, body))
        except ValueError as exc:
            return self._reject(403 if "VAPID" in str(exc) else 400, str(exc))
        if browser.delay_s:
            time.sleep(browser.delay_s)
        with self._lock:
            status = browser.answers.pop(0) if browser.answers else browser.default
            if 200 <= status < 300:
                self.received.append(
                    Push(token, lowered, claims, payload, len(body), time.monotonic())
                )
            self.answered.append((token, status))
            self._lock.notify_all()
        return status

    def _reject(self, status: int, why: str) -> int:
        with self._lock:
            self.rejected.append(why)
            self._lock.notify_all()
        return status

    def _check_vapid(self, authorization: str) -> dict[str, Any]:
        scheme, _, rest = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"VAPID: no vapid Authorization ({authorization[:20]!r})")
        parts = dict(p.strip().split("=", 1) for p in rest.split(",") if "=" in p)
        token, key = parts.get("t", ""), parts.get("k", "")
        if self.server_key is None or key != self.server_key:
            raise ValueError("VAPID: k is not the key the server serves")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
        signed, _, signature = token.rpartition(".")
        header_b64, _, claims_b64 = signed.partition(".")
        header = json.loads(b64url_decode(header_b64))
        if header.get("alg") != "ES256":
            raise ValueError("VAPID: the JWT is not ES256")
        raw = b64url_decode(signature)
        if len(raw) != 64:
            raise ValueError("VAPID: the signature is not 64 bytes (r || s)")
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, signed.encode("ascii"), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("VAPID: the JWT's signature does not verify") from None
        claims: dict[str, Any] = json.loads(b64url_decode(claims_b64))
        if claims.get("aud") != self.origin:
            raise ValueError(f"VAPID: aud {claims.get('aud')!r} is not {self.origin}")
        exp = int(claims.get("exp", 0))
        if not time.time() < exp <= time.time() + MAX_JWT_LIFETIME_S:
            raise ValueError("VAPID: exp is not within the next 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError("VAPID: sub is not a mailto: or https: contact")
        return claims

    @staticmethod
    def _check_headers(headers: dict[str, str]) -> None:
        if headers.get("content-encoding") != "aes128gcm":
            raise ValueError("Content-Encoding is not aes128gcm")
        ttl = headers.get("ttl", "")
        if not ttl.isdigit():
            raise ValueError("no TTL")
        if "urgency" in headers and headers["urgency"] not in URGENCIES:
            raise ValueError("a bad Urgency")
        topic = headers.get("topic")
        if topic is not None and (
            len(topic) > 32 or not all(c.isalnum() or c in "-_" for c in topic)
        ):
            raise ValueError("a bad Topic")

    @staticmethod
    def _decrypt(browser: Browser, body: bytes) -> bytes:
        import http_ece  # noqa: PLC0415  (a dev dependency: the receiver alone needs it)

        try:
            return bytes(
                http_ece.decrypt(
                    body,
                    private_key=browser.private_key,
                    auth_secret=browser.auth,
                    version="aes128gcm",
                )
            )
        except Exception as exc:
            raise ValueError(f"the body does not decrypt: {type(exc).__name__}") from None
