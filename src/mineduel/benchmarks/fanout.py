"""The live fan-out in the cost of a game: the table's stream fed to its function, metered.

On AWS every write of a game reaches the table's stream, and Lambda's event source mapping
invokes ``LiveFanoutFunction`` with it (docs/live.md). The cost benchmark does what that
mapping does, in its own thread so each of the function's AWS calls is charged to it: after
each measured request it reads the stream records that request produced, keeps those the
template's ``FilterCriteria`` let through (what is filtered out is neither delivered nor
billed), and invokes the function on them, each invocation measured like a request
(``Meter``) and remembered under the request that caused it. Records of writes made outside
any measurement (the benchmark's unmeasured set-up) are read and dropped.

How many invocations: with ``MaximumBatchingWindowInSeconds: 0`` Lambda invokes as soon as
records are there, and one person's game writes once per answered request, seconds apart, so
each write is its own invocation (the upper bound; only writes of many games landing on one
shard within the same poll share a batch). With a batching window the records one request
produced go in one batch (of at most ``BatchSize``). Either way the assumption is printed.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

from mineduel.local.stack import RunningStack
from mineduel.local.streams import stream_pollers

from .metering import Meter, Sample

FUNCTION = "LiveFanoutFunction"
LABEL = "fan-out"
BUS_EVENT_CHUNK = 64 * 1024
"""EventBridge bills each 64 KB chunk of a ``PutEvents`` entry as one event."""


@dataclass(frozen=True)
class Trigger:
    """The event source mapping's batching, from the function's ``DynamoDB`` event."""

    batch_size: int
    window_s: float

    @property
    def records_per_invocation(self) -> int:
        """1 without a batching window (every write its own invocation), else the batch size."""
        return 1 if self.window_s == 0 else self.batch_size

    def describe(self) -> str:
        """The assumption, in words, for the report."""
        settings = f"BatchSize {self.batch_size}, MaximumBatchingWindowInSeconds {self.window_s:g}"
        if self.window_s == 0:
            return f"{settings}: one invocation per write of a game"
        return f"{settings}: the writes of one request in one invocation"


def trigger_of(properties: dict[str, Any]) -> Trigger:
    """The batching of the function's (only) ``DynamoDB`` event, as the template sets it."""
    (event,) = (e for e in properties.get("Events", {}).values() if e.get("Type") == "DynamoDB")
    props = event["Properties"]
    return Trigger(
        batch_size=int(props.get("BatchSize", 100)),
        window_s=float(props.get("MaximumBatchingWindowInSeconds", 0)),
    )


class MeteredFanout:
    """Drives ``LiveFanoutFunction`` from the stack's table stream in the caller's thread."""

    def __init__(self, stack: RunningStack, meter: Meter, logs: io.StringIO | None = None) -> None:
        for running in stack.streams:
            running.stop()  # the stack's own pollers would deliver the same records, unmetered
        self._stack = stack
        self._meter = meter
        template = stack.provisioned.template
        self.trigger = trigger_of(template.functions[FUNCTION].properties)
        (self._poller,) = (
            p
            for p in stream_pollers(
                template, stack.provisioned.resolve, stack.provisioned.region, self._deliver
            )
            if p.function == FUNCTION
        )
        self._logs = logs
        self._cause: str | None = None
        self.caused: dict[str, list[Sample]] = {}
        """The fan-out's invocations by the label of the request whose writes caused them."""
        self.log_bytes = 0
        """What the function printed (its logs), over all its metered invocations, when the
        benchmark's output is captured in ``logs``."""

    def drop_pending(self) -> None:
        """Read the stream up to now and drop what is there (writes nobody measured)."""
        self._cause = None
        self._poller.run_now()

    def after(self, label: str) -> None:
        """Deliver the records of the request just measured under ``label`` (each invocation
        a sample labelled ``fan-out``, kept in ``caused[label]``)."""
        self._cause = label
        try:
            self._poller.run_now()
        finally:
            self._cause = None

    def _deliver(self, _: str, event: dict[str, Any]) -> None:
        if self._cause is None:
            return
        records = event["Records"]
        step = self.trigger.records_per_invocation
        for start in range(0, len(records), step):
            printed = self._logs.tell() if self._logs is not None else 0
            with self._meter.measure(LABEL) as sample:
                self._stack.pool.invoke(FUNCTION, {"Records": records[start : start + step]})
            self.caused.setdefault(self._cause, []).append(sample)
            if self._logs is not None:
                self._logs.seek(printed)
                self.log_bytes += len(self._logs.read().encode("utf-8"))


def entry_bytes(entry: dict[str, Any]) -> int:
    """A ``PutEvents`` entry's size as EventBridge counts it: 14 bytes for a ``Time``, plus the
    UTF-8 bytes of ``Source``, ``DetailType``, ``Detail`` and each of ``Resources``."""
    size = 14 if entry.get("Time") is not None else 0
    for name in ("Source", "DetailType", "Detail"):
        size += len(str(entry.get(name, "")).encode("utf-8"))
    return size + sum(len(str(r).encode("utf-8")) for r in entry.get("Resources", []))


def billed_bus_events(sample: Sample) -> float:
    """Events EventBridge bills for the sample's ``PutEvents`` calls: each accepted entry, one
    per 64 KB chunk (a failed entry is not put, and not billed)."""
    billed = 0.0
    for call in sample.calls:
        if call.service != "EventBridge" or call.operation != "PutEvents":
            continue
        results = (call.parsed or {}).get("Entries", [])
        for index, entry in enumerate(call.params.get("Entries", [])):
            if index < len(results) and results[index].get("ErrorCode"):
                continue
            billed += max(1, math.ceil(entry_bytes(entry) / BUS_EVENT_CHUNK))
    return billed
