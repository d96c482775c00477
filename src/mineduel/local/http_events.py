"""Translate between HTTP and Lambda's HTTP API payload format 2.0, as API Gateway does.

The handlers are the deployed ones, unchanged, so the local stack must hand them exactly what
API Gateway would: lower-cased headers with repeats joined by commas, cookies moved out of the
headers into ``cookies``, ``X-Forwarded-For``/``-Proto``/``-Port`` added, the raw and the parsed
query string, ``pathParameters``, a ``requestContext`` with ``http.method``/``path``/``sourceIp``
and the ``routeKey``, and a body that is text for textual content types and base64 otherwise.
On the way back, the handler's ``statusCode``/``headers``/``cookies``/``multiValueHeaders``/
``isBase64Encoded`` become HTTP; a result without ``statusCode`` is a 200 JSON body, as HTTP API
documents for format 2.0.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl

from .routing import Match

LOCAL_ACCOUNT_ID = "123456789012"
LOCAL_API_ID = "local"
_TEXTUAL = ("application/json", "application/xml", "application/x-www-form-urlencoded", "+json")


@dataclass(frozen=True)
class HttpRequest:
    """What arrived on the socket: method, path, raw query string, headers (in order), body."""

    method: str
    path: str
    query: str = ""
    headers: Sequence[tuple[str, str]] = ()
    body: bytes = b""
    source_ip: str = "127.0.0.1"
    protocol: str = "HTTP/1.1"

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or None."""
        lowered = name.lower()
        return next((v for n, v in self.headers if n.lower() == lowered), None)


@dataclass(frozen=True)
class HttpResponse:
    """What goes back on the socket. ``headers`` may repeat a name (``Set-Cookie``)."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


def serve_one(
    handler: BaseHTTPRequestHandler,
    handle: Callable[[HttpRequest], HttpResponse | None],
    unknown: Callable[[], HttpResponse],
) -> None:
    """Read the request ``handler`` is serving, let ``handle`` answer it (``unknown()`` when
    it does not know the operation) and write the answer back: what the local stack's small
    AWS endpoints (the Lambda Invoke API, the WebSocket management API) share."""
    length = int(handler.headers.get("content-length") or 0)
    request = HttpRequest(
        method=handler.command,
        path=handler.path.split("?", 1)[0],
        headers=list(handler.headers.items()),
        body=handler.rfile.read(length) if length else b"",
    )
    response = handle(request) or unknown()
    handler.send_response(response.status)
    for name, value in response.headers:
        handler.send_header(name, value)
    handler.send_header("content-length", str(len(response.body)))
    handler.end_headers()
    handler.wfile.write(response.body)


def _is_textual(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind.startswith("text/") or any(kind.endswith(t) or kind == t for t in _TEXTUAL)


def _joined(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    joined: dict[str, str] = {}
    for name, value in pairs:
        joined[name] = f"{joined[name]},{value}" if name in joined else value
    return joined


def to_event(request: HttpRequest, match: Match, now: datetime | None = None) -> dict[str, Any]:
    """The payload-2.0 event API Gateway would send the route's function for ``request``."""
    when = (now or datetime.now(UTC)).astimezone(UTC)
    lowered = [(name.lower(), value) for name, value in request.headers]
    cookies = [
        part.strip()
        for name, value in lowered
        if name == "cookie"
        for part in value.split(";")
        if part.strip()
    ]
    headers = _joined([(n, v) for n, v in lowered if n != "cookie"])
    host = headers.get("host", "127.0.0.1")
    # API Gateway tells the function how it was reached; the local server speaks plain HTTP.
    earlier = headers.get("x-forwarded-for")
    headers["x-forwarded-for"] = f"{earlier}, {request.source_ip}" if earlier else request.source_ip
    headers["x-forwarded-proto"] = "http"
    headers["x-forwarded-port"] = host.rpartition(":")[2] if ":" in host else "80"
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": match.route.route_key,
        "rawPath": request.path,
        "rawQueryString": request.query,
        "headers": headers,
        "requestContext": {
            "accountId": LOCAL_ACCOUNT_ID,
            "apiId": LOCAL_API_ID,
            "domainName": host,
            "domainPrefix": host.split(".", 1)[0],
            "http": {
                "method": request.method.upper(),
                "path": request.path,
                "protocol": request.protocol,
                "sourceIp": request.source_ip,
                "userAgent": headers.get("user-agent", ""),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": match.route.route_key,
            "stage": "$default",
            "time": when.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "timeEpoch": int(when.timestamp() * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = cookies
    if request.query:
        event["queryStringParameters"] = _joined(parse_qsl(request.query, keep_blank_values=True))
    if match.path_parameters:
        event["pathParameters"] = dict(match.path_parameters)
    if request.body:
        if _is_textual(headers.get("content-type", "application/json")):
            try:
                event["body"] = request.body.decode("utf-8")
            except UnicodeDecodeError:
                event["body"] = base64.b64encode(request.body).decode("ascii")
                event["isBase64Encoded"] = True
        else:
            event["body"] = base64.b64encode(request.body).decode("ascii")
            event["isBase64Encoded"] = True
    return event


def from_result(result: Any) -> HttpResponse:
    """The HTTP response API Gateway would make of a function's payload-2.0 ``result``."""
    if not (isinstance(result, Mapping) and "statusCode" in result):
        body = json.dumps(result).encode("utf-8")
        return HttpResponse(200, [("content-type", "application/json")], body)
    headers: list[tuple[str, str]] = [
        (str(name), str(value)) for name, value in (result.get("headers") or {}).items()
    ]
    seen = {name.lower() for name, _ in headers}
    for name, values in (result.get("multiValueHeaders") or {}).items():
        if name.lower() in seen:
            continue
        headers.extend((str(name), str(value)) for value in values)
    headers.extend(("set-cookie", str(cookie)) for cookie in result.get("cookies") or ())
    raw = result.get("body")
    if raw is None:
        body = b""
    elif result.get("isBase64Encoded"):
        body = base64.b64decode(raw)
    else:
        body = (raw if isinstance(raw, str) else json.dumps(raw)).encode("utf-8")
    return HttpResponse(int(result["statusCode"]), headers, body)


def gateway_error(status: int, message: str) -> HttpResponse:
    """API Gateway's own answer when no function is reached (``{"message": "Not Found"}``)."""
    body = json.dumps({"message": message}).encode("utf-8")
    return HttpResponse(status, [("content-type", "application/json")], body)
