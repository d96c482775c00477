"""Wait for SIGINT or SIGTERM without taking a lock inside the signal handler.

A Python signal handler runs in the main thread between two bytecodes, wherever that thread
is, including inside the very handler it interrupts when a second signal follows the first.
A handler that takes a lock (``threading.Event.set()`` does) can therefore wait forever on a
lock its own thread already holds. So the handler here only appends the signal number to a
list (no lock), and the C-level half of Python's signal handling writes a byte to a socket
(``signal.set_wakeup_fd``) that the main thread waits on with ``select``: the wait ends at
once, however many signals come and however fast.
"""

from __future__ import annotations

import select
import signal
import socket
import time
from collections.abc import Sequence
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_POLL_S = 1.0  # a safety net only: the wakeup socket ends the wait as soon as a signal lands


class StopSignals:
    """Records stop signals from :meth:`install` on; :meth:`wait` returns when one arrived.

    Install from the main thread (Python delivers signals there only).
    """

    def __init__(self, signals: Sequence[signal.Signals] = STOP_SIGNALS) -> None:
        self._signals = tuple(signals)
        self._received: list[int] = []
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_handlers: dict[int, object] = {}
        self._previous_fd = -1
        self._installed = False

    def install(self) -> StopSignals:
        """Route the stop signals here (instead of KeyboardInterrupt or death)."""
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        for signum in self._signals:
            self._previous_handlers[signum] = signal.signal(signum, self._on_signal)
        self._installed = True
        return self

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        # list.append takes no lock that this thread could already hold: safe when re-entered.
        self._received.append(signum)

    @property
    def received(self) -> tuple[int, ...]:
        """Every stop signal recorded so far, in order of arrival."""
        return tuple(self._received)

    def wait(self, timeout: float | None = None) -> int | None:
        """The first stop signal, waiting for one up to ``timeout`` seconds (None: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._received:
            pause = _POLL_S
            if deadline is not None:
                pause = min(pause, deadline - time.monotonic())
                if pause <= 0:
                    return None
            select.select([self._reader], [], [], pause)
            self._drain()
        return self._received[0]

    def _drain(self) -> None:
        try:
            while self._reader.recv(512):
                pass
        except (BlockingIOError, InterruptedError):
            pass

    def close(self, *, ignore_further: bool = False) -> None:
        """Stop recording: put the previous handlers back, or ignore the stop signals from
        now on (a process that is already stopping must not die halfway through by a late one).
        """
        if self._installed:
            for signum, previous in self._previous_handlers.items():
                handler = signal.SIG_IGN if ignore_further else previous
                signal.signal(signum, handler)  # type: ignore[arg-type]
            signal.set_wakeup_fd(self._previous_fd)
            self._installed = False
        self._reader.close()
        self._writer.close()
