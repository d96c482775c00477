"""The local stack's servers each answer from a daemon thread of their own.

``serve_forever`` looks for a shutdown request once per poll interval, and stopping a stack
stops four servers one after another: at the standard library's half second that was two
seconds of every stop (every test module starts and stops one). A tenth of a second costs ten
idle wake-ups a second per server, nothing measurable.
"""

from __future__ import annotations

import threading
from typing import Protocol

SHUTDOWN_POLL_S = 0.1


class _Serving(Protocol):
    def serve_forever(self, poll_interval: float = ...) -> None: ...


def serve_in_thread(server: _Serving, name: str, *, start: bool = True) -> threading.Thread:
    """A daemon thread serving ``server`` until its ``shutdown()`` (started unless told not)."""
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": SHUTDOWN_POLL_S},
        name=name,
        daemon=True,
    )
    if start:
        thread.start()
    return thread
