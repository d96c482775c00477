"""CloudFormation's side of a custom resource, for tests: the presigned ``ResponseURL`` a
function answers at, served on a local port, with every answer it received."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ResponseUrl:
    """A local HTTP server taking CloudFormation's PUTs; ``answers`` in arrival order."""

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []
        answers = self.answers

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self) -> None:
                answers.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/answer?X-Amz-Signature=x"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@contextlib.contextmanager
def response_url() -> Iterator[ResponseUrl]:
    """A ``ResponseUrl`` for the ``with`` block, shut down after it."""
    found = ResponseUrl()
    try:
        yield found
    finally:
        found.server.shutdown()
        found.server.server_close()
