"""A task the local stack repeats in a daemon thread until it stops: the TTL process runs its
one round on a timer (what AWS runs for the stack on its own)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable


class Repeating:
    """Runs ``task`` every ``interval_s`` seconds in a daemon thread; a round that raises is
    logged (``failed`` on ``log``) and the next one runs as usual."""

    def __init__(
        self,
        name: str,
        interval_s: float,
        task: Callable[[], object],
        log: logging.Logger,
        failed: str,
    ) -> None:
        self._interval = interval_s
        self._task = task
        self._log = log
        self._failed = failed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self._task()
            except Exception:
                self._log.exception(self._failed)

    def start(self) -> None:
        """Start repeating (once)."""
        self._thread.start()

    def stop(self) -> None:
        """Stop after the current round."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
