"""The local stack's HTTP face: the API's routes plus ``/openapi.json``, ``/docs``, the clock and
the client configuration (``/_local/config``).

:class:`LocalApi` turns one :class:`HttpRequest` into one :class:`HttpResponse` and knows no
sockets, so it can be read (and reasoned about) as API Gateway's behaviour alone;
:func:`make_http_server` puts it behind the standard library's threading HTTP server, one thread
per connection, so requests reach the handlers concurrently as they would reach Lambda.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from mineduel_service.api.problems import PROBLEM_JSON, ApiError

from . import swagger, webclient
from .cors import Cors
from .http_events import HttpRequest, HttpResponse, from_result, gateway_error, to_event
from .lambda_service import LocalLambda
from .routing import Router
from .throttle import RouteThrottle
from .websocket import LiveGateway

# Not under "mineduel": that logger is Powertools' (service name), which would stamp our lines
# with whatever function ran last in this thread.
LOG = logging.getLogger("mineduel-local")
MAX_PAYLOAD_BYTES = 10 * 1024 * 1024  # HTTP API's request payload quota
CLOCK_PATH = "/_local/clock"
CONFIG_PATH = "/_local/config"
OPENAPI_PATH = "/openapi.json"
DOCS_PATH = "/docs"
WEB_CONFIG_PATH = "/config.json"
# The methods an HTTP API route can have; any other method gets a 405 in the API's error shape.
GATEWAY_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")

Invoke = Callable[[str, dict[str, Any]], Any]


@dataclass(frozen=True)
class LocalClock:
    """The local stack's hold on the service's clock and on the scheduler loop it drives."""

    now: Callable[[], datetime]
    advance: Callable[[float], Any]
    mark: Callable[[], int]
    """A mark in the scheduler loop's record of what it fired, taken before the clock moves."""
    fire_due: Callable[[int], list[str]]
    """Fire what is due now; every schedule fired since the mark (the loop's own ticks too)."""


def _json(
    status: int,
    payload: Any,
    extra: list[tuple[str, str]] | None = None,
    content_type: str = "application/json",
) -> HttpResponse:
    body = json.dumps(payload).encode("utf-8")
    return HttpResponse(status, [("content-type", content_type), *(extra or [])], body)


def _local_error(
    status: int,
    code: str,
    message: str,
    extra: list[tuple[str, str]] | None = None,
    path: str | None = None,
) -> HttpResponse:
    """An error of the local stack itself, in the API's problem details shape."""
    body = ApiError(status, code, message).body(path)
    return _json(status, body, extra, PROBLEM_JSON)


class LocalApi:
    """API Gateway for the template's HTTP API, and the local-only extras around it."""

    def __init__(
        self,
        router: Router,
        invoke: Invoke,
        openapi_document: Callable[[], bytes],
        clock: LocalClock,
        cors: Cors | None = None,
        lambdas: LocalLambda | None = None,
        client_config: Mapping[str, str] | None = None,
        throttle: RouteThrottle | None = None,
        live: LiveGateway | None = None,
    ) -> None:
        self._router = router
        self._lambdas = lambdas
        self._invoke = invoke
        self._openapi = openapi_document
        self._clock = clock
        self._cors = cors
        self._client_config = dict(client_config or {})
        self._throttle = throttle
        self._live = live

    def clock_now(self) -> datetime:
        """The stack's clock (the service's, which ``POST /_local/clock`` moves)."""
        return self._clock.now()

    @property
    def throttle(self) -> RouteThrottle | None:
        """The gateway's route throttles (None: nothing is throttled)."""
        return self._throttle

    def handle(self, request: HttpRequest) -> HttpResponse:
        """Answer one request as the deployed API would, or from a local-only extra."""
        if request.method not in GATEWAY_METHODS:
            return self._unknown_method(request)
        local = self._local(request)
        if local is not None:
            return local
        if self._cors is None:
            return self._gateway(request)
        preflight = self._cors.preflight(request)
        if preflight is not None:
            return preflight
        return self._cors.decorate(request, self._gateway(request))

    def _unknown_method(self, request: HttpRequest) -> HttpResponse:
        """405 in the API's error shape, with the methods the path does have in ``Allow``.

        (A known method on a path routed for other methods only goes to the ``$default``
        route, as on AWS: HTTP API matches a route by method and path together.)
        """
        allowed = self.methods_for(request.path)
        method = request.method[:32]
        message = (
            f"{method} is not a method of this API; this path takes {', '.join(allowed)}."
            if allowed
            else f"{method} is not a method of this API, and nothing is routed at this path."
        )
        answer = _local_error(
            405, "method-not-allowed", message, [("allow", ", ".join(allowed))], request.path
        )
        return self._cors.decorate(request, answer) if self._cors is not None else answer

    def methods_for(self, path: str) -> list[str]:
        """The methods ``path`` answers to (routes, local extras, CORS preflight), sorted."""
        found = {
            method
            for method in GATEWAY_METHODS
            if self._router.match(method, path, fallback=False) is not None
        } | _local_methods(path)
        if found and self._cors is not None:
            found.add("OPTIONS")
        return sorted(found)

    def _gateway(self, request: HttpRequest) -> HttpResponse:
        match = self._router.match(request.method, request.path)
        if match is None:
            return gateway_error(404, "Not Found")
        if self._throttle is not None and not self._throttle.admit(match.route.route_key):
            return gateway_error(429, "Too Many Requests")
        event = to_event(request, match, self._clock.now())
        try:
            result = self._invoke(match.route.function, event)
        except Exception:
            LOG.exception("%s raised: Lambda would report an error", match.route.function)
            return gateway_error(500, "Internal Server Error")
        return from_result(result)

    def _local(self, request: HttpRequest) -> HttpResponse | None:
        method, path = request.method.upper(), request.path.rstrip("/") or "/"
        if method == "GET" and path == OPENAPI_PATH:
            return HttpResponse(200, [("content-type", "application/json")], self._openapi())
        if method == "GET" and path == WEB_CONFIG_PATH and self._client_config:
            return _json(200, {**self._client_config, "api_url": ""})
        if method == "GET" and path.count("/") == 1:  # the web client's files, at the top
            found = webclient.asset(path)
            if found is not None:
                content, content_type = found
                headers = [("content-type", content_type), ("cache-control", "no-cache")]
                return HttpResponse(200, headers, content)
        if method == "GET" and path == DOCS_PATH:
            body = swagger.page(OPENAPI_PATH, DOCS_PATH).encode("utf-8")
            return HttpResponse(200, [("content-type", "text/html; charset=utf-8")], body)
        if method == "GET" and path.startswith(DOCS_PATH + "/"):
            found = swagger.asset(path[len(DOCS_PATH) + 1 :])
            if found is None:
                return gateway_error(404, "Not Found")
            content, content_type = found
            return HttpResponse(200, [("content-type", content_type)], content)
        if path == CLOCK_PATH:
            return self._clock_request(request)
        if path == CONFIG_PATH:
            return self._config_request(request)
        if self._live is not None:
            answer = self._live.handle(request)
            if answer is not None:
                return answer
        if self._lambdas is not None:
            return self._lambdas.handle(request)
        return None

    def _config_request(self, request: HttpRequest) -> HttpResponse:
        """``GET``: where the stack's AWS is and which user pool and app client to sign in with.

        Readable from any origin, so a web client served elsewhere can find the pool.
        """
        if request.method.upper() != "GET":
            return _local_error(405, "method-not-allowed", "Use GET on the local configuration.")
        if not self._client_config:
            return gateway_error(404, "Not Found")
        return _json(200, self._client_config, [("access-control-allow-origin", "*")])

    def _clock_request(self, request: HttpRequest) -> HttpResponse:
        """``GET`` reads the clock; ``POST {"advance_s": N}`` moves it on and fires what is due."""
        if request.method.upper() == "GET":
            return _json(200, {"now": _iso(self._clock.now()), "fired": []})
        if request.method.upper() != "POST":
            return _local_error(
                405,
                "method-not-allowed",
                "Use GET or POST on the local clock.",
                [("allow", "GET, POST")],
            )
        try:
            payload = json.loads(request.body or b"{}")
            seconds = payload["advance_s"]
        except (ValueError, KeyError, TypeError):
            return _local_error(400, "malformed", 'Send a JSON body like {"advance_s": 90}.')
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not math.isfinite(seconds)
            or seconds < 0
        ):
            return _local_error(
                422, "invalid-advance", "advance_s must be a number of seconds >= 0."
            )
        mark = self._clock.mark()
        self._clock.advance(float(seconds))
        fired = self._clock.fire_due(mark)
        return _json(200, {"now": _iso(self._clock.now()), "advanced_s": seconds, "fired": fired})


def _local_methods(path: str) -> set[str]:
    """The methods the local-only extras answer on ``path``."""
    path = path.rstrip("/") or "/"
    if path == CLOCK_PATH:
        return {"GET", "POST"}
    if path in (OPENAPI_PATH, "/", DOCS_PATH, WEB_CONFIG_PATH) or path.startswith(DOCS_PATH + "/"):
        return {"GET"}
    if path.count("/") == 1 and webclient.asset(path) is not None:
        return {"GET"}
    return set()


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


class _Handler(BaseHTTPRequestHandler):
    """Reads a request off the socket, lets :class:`LocalApi` answer it, writes the answer."""

    server: _Server
    protocol_version = "HTTP/1.1"

    def _serve(self) -> None:
        started = time.perf_counter()
        parts = urlsplit(self.path)
        body = self._body()
        if body is None:
            self.close_connection = True
            self._write(gateway_error(413, "Request Entity Too Large"))
            return
        request = HttpRequest(
            method=self.command,
            path=parts.path or "/",
            query=parts.query,
            headers=[(n, v) for n, v in self.headers.items() if n.lower() != "transfer-encoding"],
            body=body,
            source_ip=self.client_address[0],
            protocol=self.request_version,
        )
        response = self.server.api.handle(request)
        self._write(response)
        LOG.info(
            "%s %s -> %d (%.0f ms)",
            self.command,
            self.path,
            response.status,
            (time.perf_counter() - started) * 1000,
        )

    def _body(self) -> bytes | None:
        """The request body (sized or chunked); None when it exceeds HTTP API's quota."""
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            chunks: list[bytes] = []
            size = 0
            while chunk_size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                size += chunk_size
                if size > MAX_PAYLOAD_BYTES:
                    return None
                chunks.append(self.rfile.read(chunk_size))
                self.rfile.readline()
            while self.rfile.readline().strip():  # trailers, up to the blank line
                pass
            return b"".join(chunks)
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_PAYLOAD_BYTES:
            return None
        return self.rfile.read(length) if length else b""

    def _write(self, response: HttpResponse) -> None:
        self.send_response(response.status)
        for name, value in response.headers:
            if name.lower() not in ("content-length", "connection"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    def __getattr__(self, name: str) -> Any:
        """Every method reaches :meth:`_serve` (``do_BREW`` too): :class:`LocalApi` answers
        unknown ones with a JSON 405, where the standard library would send an HTML 501."""
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The ``Date`` header by the stack's clock, not the machine's: deadlines are the
        server's times, and clients read the server's clock off this header (docs/api.md,
        "Times"), so after ``POST /_local/clock`` it must move with them, as API Gateway's
        follows the clock its functions read."""
        if timestamp is None:
            timestamp = self.server.api.clock_now().timestamp()
        return formatdate(timestamp, usegmt=True)

    def log_message(self, format: str, *args: Any) -> None:
        """Access lines go through :data:`LOG` (see :meth:`_serve`), not raw stderr."""
        LOG.debug(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default backlog of 5 resets a burst of concurrent clients
    api: LocalApi


def make_http_server(api: LocalApi, host: str, port: int) -> ThreadingHTTPServer:
    """A bound (not yet serving) threading HTTP server for ``api``; port 0 picks a free one."""
    server = _Server((host, port), _Handler)
    server.api = api
    return server
