"""API Gateway's WebSocket API for the local stack: a real WebSocket server, the template's routes.

moto has no socket server, and its management API accepts any connection id and never answers
``GoneException``. So the local stack serves both itself, from template.yaml:

- a WebSocket server (the ``websockets`` package) on its own port: a handshake runs the
  ``$connect`` route's function (a status other than 200 refuses it, as API Gateway does), each
  text frame runs ``$default`` (its answer is sent back when the route has a route response),
  and a closed socket runs ``$disconnect``, each with API Gateway's WebSocket event shape;
- the management API's REST form (``POST``/``GET``/``DELETE /@connections/{id}``), which
  reaches those sockets: a connection that is not open is ``410 GoneException``, as on AWS. The
  stack points the functions' client at it (``AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI``), as
  it does for Lambda's Invoke API.

Routes are read from the template: each ``AWS::ApiGatewayV2::Route``'s ``RouteKey`` and target
integration, whose ``IntegrationUri`` names the function (``${Function.Arn}``).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from mineduel.template import Template, TemplateError

from .http_events import HttpRequest, HttpResponse, serve_one
from .serving import serve_in_thread

LOG = logging.getLogger("mineduel-local.websocket")
ROUTE_TYPE = "AWS::ApiGatewayV2::Route"
API_TYPE = "AWS::ApiGatewayV2::Api"
STAGE_TYPE = "AWS::ApiGatewayV2::Stage"
ROUTE_RESPONSE_TYPE = "AWS::ApiGatewayV2::RouteResponse"
MANAGEMENT_PATH = re.compile(r"^/(?:@|%40)connections/(?P<id>[^/]+)$")
MAX_FRAME_BYTES = 32 * 1024  # API Gateway's WebSocket frame quota
SEND_TIMEOUT_S = 5.0
_FUNCTION_IN_URI = re.compile(r"\$\{([A-Za-z0-9]+)\.Arn\}")

Invoke = Callable[[str, dict[str, Any]], Any]


@dataclass(frozen=True)
class WebSocketRoutes:
    """The template's WebSocket API: route key -> function, and which routes answer."""

    functions: dict[str, str]
    responding: frozenset[str]
    api_id: str
    stage: str

    @classmethod
    def from_template(cls, template: Template, api_id: str, stage: str) -> WebSocketRoutes:
        """Read the routes of the template's (one) WebSocket API."""
        resources = template.resources
        functions: dict[str, str] = {}
        by_logical: dict[str, str] = {}
        for logical_id, route in template.resources_of_type(ROUTE_TYPE).items():
            props = route.get("Properties", {})
            target = props.get("Target", {})
            text = target.get("Fn::Sub", "") if isinstance(target, dict) else str(target)
            found = re.search(r"integrations/\$\{([A-Za-z0-9]+)\}", str(text))
            if not found:
                raise TemplateError(f"{logical_id}: Target must be integrations/${{Integration}}")
            uri = resources[found.group(1)]["Properties"]["IntegrationUri"]
            function = _FUNCTION_IN_URI.search(json.dumps(uri))
            if not function:
                raise TemplateError(f"{found.group(1)}: IntegrationUri names no function")
            functions[str(props["RouteKey"])] = function.group(1)
            by_logical[logical_id] = str(props["RouteKey"])
        responding = {
            by_logical[r["Properties"]["RouteId"]["Ref"]]
            for r in template.resources_of_type(ROUTE_RESPONSE_TYPE).values()
        }
        return cls(functions, frozenset(responding), api_id, stage)


def connection_id() -> str:
    """An id shaped like API Gateway's (base64 of 10 random bytes)."""
    return base64.b64encode(secrets.token_bytes(10)).decode("ascii")


class LiveGateway:
    """The WebSocket server and the management API over its open connections."""

    def __init__(self, routes: WebSocketRoutes, invoke: Invoke) -> None:
        self._routes = routes
        self._invoke = invoke
        self._open: dict[str, ServerConnection] = {}
        self._connected_at: dict[str, float] = {}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: Server | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # ------------------------------------------------------------------ lifecycle
    def start(self, host: str = "127.0.0.1", port: int = 0) -> LiveGateway:
        """Serve on ``host:port`` (0: a free port) in a thread of its own; ``url`` says where."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._server = loop.run_until_complete(self._serve(host, port))
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            sock = next(iter(self._server.sockets))
            bound_host, bound_port = sock.getsockname()[:2]
            self.url = f"ws://{bound_host}:{bound_port}"
            ready.set()
            loop.run_until_complete(self._server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=run, name="local-websocket", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self

    async def _serve(self, host: str, port: int) -> Server:
        return await serve(
            self._connection,
            host,
            port,
            process_request=self._handshake,
            max_size=MAX_FRAME_BYTES,
        )

    def stop(self) -> None:
        """Close every connection and stop serving."""
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return
        loop.call_soon_threadsafe(server.close)
        if self._thread is not None:
            self._thread.join(timeout=10)

    # ------------------------------------------------------------------ routes
    async def _handshake(self, connection: ServerConnection, request: Request) -> Response | None:
        """``$connect``: runs before the handshake completes; anything but 200 refuses it."""
        cid = connection_id()
        connection.live_id = cid  # type: ignore[attr-defined]
        event = self._event("$connect", "CONNECT", cid, request=request)
        result = await self._run("$connect", event)
        status = int((result or {}).get("statusCode", 500)) if isinstance(result, dict) else 500
        if status != 200:
            body = (
                str((result or {}).get("body") or "Forbidden") if isinstance(result, dict) else ""
            )
            return connection.respond(status if status >= 400 else 500, body + "\n")
        with self._lock:
            self._open[cid] = connection
            self._connected_at[cid] = time.time()
        return None

    async def _connection(self, connection: ServerConnection) -> None:
        cid: str = connection.live_id  # type: ignore[attr-defined]
        code, reason = 1000, ""
        try:
            async for frame in connection:
                binary = isinstance(frame, bytes)
                body = base64.b64encode(frame).decode() if isinstance(frame, bytes) else frame
                event = self._event("$default", "MESSAGE", cid, body=body, binary=binary)
                result = await self._run("$default", event)
                if "$default" in self._routes.responding and isinstance(result, dict):
                    answer = result.get("body")
                    if answer:
                        await connection.send(str(answer))
        except ConnectionClosed:
            pass
        finally:
            if connection.close_code is not None:
                code, reason = connection.close_code, connection.close_reason or ""
            with self._lock:
                self._open.pop(cid, None)
                self._connected_at.pop(cid, None)
            event = self._event("$disconnect", "DISCONNECT", cid)
            event["requestContext"]["disconnectStatusCode"] = code
            event["requestContext"]["disconnectReason"] = reason
            await self._run("$disconnect", event)

    async def _run(self, route: str, event: dict[str, Any]) -> Any:
        """Invoke the route's function off the event loop (handlers block on AWS calls)."""
        function = self._routes.functions.get(route)
        if function is None:
            return {"statusCode": 200} if route != "$default" else None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(None, self._invoke, function, event)
        except Exception:
            LOG.exception("%s raised: API Gateway would report an internal error", function)
            return {"statusCode": 500}

    def _event(
        self,
        route: str,
        kind: str,
        cid: str,
        *,
        request: Request | None = None,
        body: str | None = None,
        binary: bool = False,
    ) -> dict[str, Any]:
        """API Gateway's WebSocket event for ``route`` (the fields handlers may read)."""
        now = datetime.now(UTC)
        context: dict[str, Any] = {
            "routeKey": route,
            "eventType": kind,
            "messageDirection": "IN",
            "stage": self._routes.stage,
            "connectionId": cid,
            "apiId": self._routes.api_id,
            "domainName": f"{self._routes.api_id}.execute-api.localhost",
            "requestId": str(uuid.uuid4()),
            "extendedRequestId": str(uuid.uuid4()),
            "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "requestTimeEpoch": int(now.timestamp() * 1000),
            "connectedAt": int(self._connected_at.get(cid, now.timestamp()) * 1000),
            "identity": {"sourceIp": "127.0.0.1"},
        }
        event: dict[str, Any] = {"requestContext": context, "isBase64Encoded": binary}
        if kind == "MESSAGE":
            context["messageId"] = base64.b64encode(secrets.token_bytes(6)).decode()
            event["body"] = body
        if request is not None:
            headers = _headers(request.headers)
            event["headers"] = headers
            event["multiValueHeaders"] = {k: [v] for k, v in headers.items()}
            query = parse_qs(urlsplit(request.path).query)
            if query:
                event["queryStringParameters"] = {k: v[-1] for k, v in query.items()}
                event["multiValueQueryStringParameters"] = query
            context["identity"]["userAgent"] = headers.get("User-Agent", "")
        return event

    # ------------------------------------------------------------------ management API
    def post(self, cid: str, data: bytes) -> bool:
        """Send ``data`` on connection ``cid``; False when it is not open (gone)."""
        with self._lock:
            connection = self._open.get(cid)
        if connection is None or self._loop is None:
            return False
        text = data.decode("utf-8", errors="replace")
        future = asyncio.run_coroutine_threadsafe(connection.send(text), self._loop)
        try:
            future.result(timeout=SEND_TIMEOUT_S)
        except (ConnectionClosed, FutureTimeout):
            return False
        return True

    def close(self, cid: str) -> bool:
        """Close connection ``cid``; False when it is not open."""
        with self._lock:
            connection = self._open.get(cid)
        if connection is None or self._loop is None:
            return False
        asyncio.run_coroutine_threadsafe(connection.close(), self._loop)
        return True

    def open_connections(self) -> list[str]:
        """The ids of the open connections."""
        with self._lock:
            return list(self._open)

    def handle(self, request: HttpRequest) -> HttpResponse | None:
        """The management API's REST calls, or None when the request is not one."""
        found = MANAGEMENT_PATH.match(request.path)
        if found is None:
            return None
        cid = unquote(found.group("id"))
        method = request.method.upper()
        if method == "POST":
            if len(request.body or b"") > MAX_FRAME_BYTES:
                return _error(413, "PayloadTooLargeException", "The message is too large.")
            if self.post(cid, request.body or b""):
                return HttpResponse(200, [("content-type", "application/json")], b"{}")
            return _gone()
        with self._lock:
            is_open = cid in self._open
            connected = self._connected_at.get(cid, 0.0)
        if not is_open:
            return _gone()
        if method == "GET":
            at = datetime.fromtimestamp(connected, UTC).isoformat()
            body = {"connectedAt": at, "identity": {"sourceIp": "127.0.0.1"}, "lastActiveAt": at}
            return HttpResponse(
                200, [("content-type", "application/json")], json.dumps(body).encode()
            )
        if method == "DELETE":
            self.close(cid)
            return HttpResponse(204, [], b"")
        return _error(405, "MethodNotAllowed", "Use POST, GET or DELETE on a connection.")


def _headers(headers: Headers) -> dict[str, str]:
    return {name: value for name, value in headers.raw_items()}


def _error(status: int, kind: str, message: str) -> HttpResponse:
    body = json.dumps({"message": message}).encode("utf-8")
    return HttpResponse(
        status, [("content-type", "application/json"), ("x-amzn-errortype", kind)], body
    )


def _unknown_operation() -> HttpResponse:
    return _error(404, "UnknownOperationException", "Unknown operation.")


def _gone() -> HttpResponse:
    return _error(410, "GoneException", "The connection is not open.")


class _EndpointHandler(BaseHTTPRequestHandler):
    server: _EndpointServer
    protocol_version = "HTTP/1.1"

    def _serve(self) -> None:
        serve_one(self, self.server.gateway.handle, _unknown_operation)

    def do_POST(self) -> None:
        """PostToConnection."""
        self._serve()

    def do_GET(self) -> None:
        """GetConnection."""
        self._serve()

    def do_DELETE(self) -> None:
        """DeleteConnection."""
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the functions log for themselves."""


class _EndpointServer(ThreadingHTTPServer):
    daemon_threads = True
    gateway: LiveGateway


@contextmanager
def management_endpoint(gateway: LiveGateway) -> Iterator[str]:
    """Serve only the management API of ``gateway`` on a free loopback port; yields its URL
    (for in-process test stacks, which have no local API server to carry it)."""
    server = _EndpointServer(("127.0.0.1", 0), _EndpointHandler)
    server.gateway = gateway
    thread = serve_in_thread(server, "live-management")
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
