"""Pushing from the stream: one message to one live connection, entries onto the stack's bus,
and the tally of what a batch of stream records caused.

The game fan-out (``fanout``) and quick pairing's announcements (``pairing.announce``) both
send through here, so a connection found gone is dropped, and a failed send or bus entry is
counted, the same way for every message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..platform import aws
from ..platform.config import get_config
from ..platform.observability import count, logger
from .listeners import listened
from .store import drop_connection

MAX_BUS_ENTRIES = 10  # PutEvents takes 10 entries a call


@dataclass
class FanoutReport:
    """What one batch of stream records caused (returned by the handler, read by tests)."""

    sent: int = 0
    gone: int = 0
    failed: int = 0
    bus_events: int = 0
    notices: int = 0
    events: list[str] = field(default_factory=list)

    def merge(self, other: FanoutReport) -> None:
        """Add ``other``'s counts and events to these."""
        self.sent += other.sent
        self.gone += other.gone
        self.failed += other.failed
        self.bus_events += other.bus_events
        self.notices += other.notices
        self.events.extend(other.events)


def send(connection_id: str, message: dict[str, Any], report: FanoutReport) -> bool:
    """Post one message to one connection; a gone connection is removed there and then."""
    data = json.dumps(message, separators=(",", ":")).encode("utf-8")
    try:
        aws.connections().post_to_connection(ConnectionId=connection_id, Data=data)
    except aws.client_error() as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        if code in ("GoneException", "410"):
            report.gone += 1
            drop_connection(connection_id)
            return False
        report.failed += 1
        logger.warning("push failed", extra={"error": code})
        return False
    report.sent += 1
    return True


def put_bus_events(entries: list[dict[str, Any]], report: FanoutReport) -> None:
    """Put the entries some rule on the stack's bus listens for (``listeners``), ten a call."""
    bus = get_config().event_bus_name
    if not entries or not bus:
        return
    entries = listened(entries, bus)
    for start in range(0, len(entries), MAX_BUS_ENTRIES):
        batch = [{**e, "EventBusName": bus} for e in entries[start : start + MAX_BUS_ENTRIES]]
        try:
            answer = aws.events().put_events(Entries=batch)  # type: ignore[arg-type]
        except Exception as exc:
            report.failed += len(batch)
            count("BusEventFailures", len(batch))
            logger.error("bus events not put", extra={"error": type(exc).__name__})
            continue
        failed = int(answer.get("FailedEntryCount", 0))
        report.bus_events += len(batch) - failed
        if failed:
            count("BusEventFailures", failed)
