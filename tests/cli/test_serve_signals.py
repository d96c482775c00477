"""``mineduel serve`` stops cleanly on every SIGTERM and SIGINT, however many come and how fast.

The real command runs as a subprocess (the embedded moto, as ``make run`` starts it) once per
kind of stop: one signal, or two sent back to back (the second lands while the first is being
handled, which is how a handler that takes a lock deadlocks). Every run must exit 0 within a few
seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from mineduel.local.stop_signals import StopSignals

pytestmark = pytest.mark.http
STARTUP_S = 120
STOP_S = 8.0
PARALLEL = 2
# Every kind once: each start of the real command costs seconds of CPU, and the race a doubled
# signal can lose (a second one landing inside the handler of the first) is also driven hard,
# in-process, by the burst test below on the very StopSignals the command waits on.
SCENARIOS: list[tuple[signal.Signals, ...]] = [
    (signal.SIGTERM,),
    (signal.SIGINT,),
    (signal.SIGTERM, signal.SIGTERM),
    (signal.SIGINT, signal.SIGINT),
    (signal.SIGINT, signal.SIGTERM),
    (signal.SIGTERM, signal.SIGINT),
]


@dataclass(frozen=True)
class Run:
    """How one run of ``mineduel serve`` ended."""

    signals: tuple[signal.Signals, ...]
    code: int | None
    stop_s: float
    output: str

    @property
    def clean(self) -> bool:
        return self.code == 0 and "Traceback" not in self.output and "Stopping" in self.output

    def describe(self) -> str:
        names = "+".join(s.name for s in self.signals)
        tail = self.output[-300:]
        return f"{names}: exit {self.code} after {self.stop_s:.1f} s; output ends {tail!r}"


def _serve_and_stop(signals: tuple[signal.Signals, ...]) -> Run:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["PORT"] = "0"
    process = subprocess.Popen(
        [sys.executable, "-m", "mineduel.cli", "serve", "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    up = threading.Event()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if "MineDuel local stack on" in line:
                up.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        if not up.wait(STARTUP_S):
            return Run(signals, None, 0.0, "never printed its banner: " + "".join(lines))
        sent = time.monotonic()
        for signum in signals:
            process.send_signal(signum)
        try:
            code: int | None = process.wait(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            code = None
        stopped = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        reader.join(timeout=5)
    return Run(signals, code, stopped, "".join(lines))


def test_serve_exits_0_promptly_on_every_stop_signal_single_or_doubled() -> None:
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        runs = list(pool.map(_serve_and_stop, SCENARIOS))
    failed = [run.describe() for run in runs if not run.clean]
    assert not failed, f"{len(failed)} of {len(runs)} runs did not stop cleanly:\n" + "\n".join(
        failed
    )


def test_stop_signals_wakes_the_waiter_at_once_and_survives_a_burst() -> None:
    previous = signal.getsignal(signal.SIGINT)
    stops = StopSignals().install()
    try:
        assert stops.wait(timeout=0.05) is None

        def burst() -> None:
            for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGTERM, signal.SIGINT):
                os.kill(os.getpid(), signum)

        started = time.monotonic()
        threading.Timer(0.1, burst).start()
        assert stops.wait(timeout=10) in (signal.SIGTERM, signal.SIGINT)
        assert time.monotonic() - started < 5
        deadline = time.monotonic() + 5
        while signal.SIGINT not in stops.received and time.monotonic() < deadline:
            time.sleep(0.01)  # the handler runs between bytecodes of this (main) thread
        # Equal signals still pending when the next one lands are merged, by the OS and Python.
        assert set(stops.received) == {signal.SIGTERM, signal.SIGINT}
    finally:
        stops.close()
    assert signal.getsignal(signal.SIGINT) is previous
