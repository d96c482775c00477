"""An embedded moto server on a free loopback port, one request at a time.

moto's backends are plain Python objects without locks: two concurrent ``TransactWriteItems``
on the same item can both pass their condition checks. DynamoDB itself serializes conflicting
writes, so to keep the local stack honest the moto side is serialized here, with one lock around
the whole WSGI app. The handlers stay concurrent, as Lambda's would be: only AWS is serialized.

moto keeps its state in process-wide backends, shared by every moto server and ``mock_aws`` in
the process; an :class:`EmbeddedMoto` therefore starts from, and leaves behind, an empty AWS
(moto's own ``/moto-api/reset``), so one stack never sees another's tables. It runs the patched
moto (``moto_patch``: transactions that cost what they touch, a stream that keeps 24 hours,
TTL), and :meth:`EmbeddedMoto.locked` lets the local stack work on moto's backends directly
(the TTL process) between two AWS calls, never during one. In front of it all, the web client's
CORS contract (``browser_cors``): the page's calls to Cognito never depend on how a moto release
answers a preflight.
"""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import BaseWSGIServer, make_server

from . import moto_patch
from .browser_cors import BrowserCors
from .serving import serve_in_thread

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class SerializedApp:
    """A WSGI app that runs the wrapped app, body included, under one lock."""

    def __init__(self, app: WsgiApp) -> None:
        self._app = app
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        with self.lock:
            chunks = self._app(environ, start_response)
            try:
                return [b"".join(chunks)]
            finally:
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()


class _QuietHandler(MotoRequestHandler):
    """moto's request handler without an access line per AWS call (the API logs its own)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Successful calls are not worth a line; errors still go through ``log_error``."""


class EmbeddedMoto:
    """moto's server app behind :class:`SerializedApp`, served from a daemon thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        moto_patch.install()
        app = SerializedApp(DomainDispatcherApplication(create_backend_app))
        self._app = app
        self.browser = BrowserCors(app)
        """The web client's CORS contract: :meth:`BrowserCors.allow` its origins."""
        self._server: BaseWSGIServer = make_server(
            host, port, self.browser, threaded=True, request_handler=_QuietHandler
        )
        self._thread = serve_in_thread(self._server, "moto-server", start=False)

    @property
    def endpoint_url(self) -> str:
        """The URL to give boto3 (``AWS_ENDPOINT_URL``)."""
        return f"http://{self._server.host}:{self._server.port}"

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold moto between two AWS calls (to work on its backends in this thread)."""
        with self._app.lock:
            yield

    def start(self) -> EmbeddedMoto:
        """Serve an empty AWS in the background (the socket is bound: requests can start now)."""
        self._thread.start()
        self.reset()
        return self

    def reset(self) -> None:
        """Forget every resource (all of moto's backends in this process)."""
        url = f"{self.endpoint_url}/moto-api/reset"  # always http://127.0.0.1:<port>
        request = urllib.request.Request(url, method="POST")  # noqa: S310
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            answer.read()

    def stop(self) -> None:
        """Empty moto, stop serving and release the port."""
        self.reset()
        self._server.shutdown()
        self._thread.join()
        self._server.server_close()
