"""DynamoDB's TTL process for the embedded moto, which stores a table's TTL and never deletes.

Connections, subscriptions, idempotency records, rate-limit counters and leaderboard pages all
carry ``expires_ttl`` (template.yaml's ``TimeToLiveSpecification``): on AWS, DynamoDB deletes
them once it has passed, and the stack stays the size of what is live. :class:`TtlProcess`
does the same locally (``moto_patch.delete_expired``): every ``SWEEP_S`` seconds of real time,
and at once whenever the stack's clock is moved forward (``POST /_local/clock``), it deletes the
items whose TTL has passed by the stack's clock, each deletion a ``REMOVE`` stream record by the
DynamoDB service (which the live fan-out acts on, as on AWS), and trims the streams to their 24
hours. DynamoDB deletes an expired item within a few days (typically much sooner); here it is
within a minute, which is within what AWS may do.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from . import moto_patch

LOG = logging.getLogger("mineduel-local.ttl")
SWEEP_S = 60.0


class TtlProcess:
    """Deletes expired items on a timer, in a daemon thread, holding moto between two calls."""

    def __init__(
        self,
        locked: Callable[[], AbstractContextManager[None]],
        now: Callable[[], datetime],
        interval_s: float = SWEEP_S,
    ) -> None:
        self._locked = locked
        self._now = now
        self._interval = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="local-ttl", daemon=True)
        self.deleted = 0
        """How many items it has deleted so far."""

    def sweep(self) -> int:
        """Delete what has expired and trim the streams now; how many items were deleted."""
        now = self._now()
        with self._locked():
            deleted = moto_patch.delete_expired(now)
            moto_patch.trim_streams(now)
        self.deleted += deleted
        return deleted

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.sweep()
            except Exception:
                LOG.exception("TTL sweep failed")

    def start(self) -> TtlProcess:
        """Sweep every ``interval_s`` seconds in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after the current sweep."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
