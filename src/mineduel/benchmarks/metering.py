"""Count what each API request costs in AWS calls, with botocore's own event hooks.

Hooks on the default boto3 session (the one the service's clients come from) see every call
with its parameters (``before-parameter-build``) and its parsed answer (``after-call``). A call
is charged to the request being measured in the same thread, so the scheduler's own polling or
the benchmark's bookkeeping is never counted. DynamoDB capacity is worked out from the calls:
reads from the items returned, writes from the items as they stand right after the request
(read back, uncounted).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3

from .capacity import item_size, query_read_units, read_units, write_units

_READS = {"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"}
_WRITES = {
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
}


@dataclass
class Call:
    """One AWS API call: service, operation, its parameters and (once answered) its result."""

    service: str
    operation: str
    params: dict[str, Any]
    parsed: dict[str, Any] | None = None
    started: float = 0.0
    seconds: float = 0.0
    """Wall time of the call here (moto over loopback, not AWS's latency)."""


@dataclass
class Sample:
    """One measured request: its AWS calls, wall time and DynamoDB units."""

    label: str
    calls: list[Call] = field(default_factory=list)
    seconds: float = 0.0
    read_units: float = 0.0
    write_units: float = 0.0
    moves: int = 0

    def own_seconds(self) -> float:
        """The handler's own time: wall time less the time its AWS calls took here."""
        return max(self.seconds - sum(c.seconds for c in self.calls), 0.0)

    def operations(self) -> Counter[str]:
        """Calls by ``Service:Operation``."""
        return Counter(f"{c.service}:{c.operation}" for c in self.calls)

    def count(self, service: str, operations: set[str] | None = None) -> int:
        """How many calls to ``service`` (optionally only those ``operations``)."""
        return sum(
            1
            for c in self.calls
            if c.service == service and (operations is None or c.operation in operations)
        )

    def dynamodb_reads(self) -> int:
        """DynamoDB read calls."""
        return self.count("DynamoDB", _READS)

    def dynamodb_writes(self) -> int:
        """DynamoDB write calls (a transaction is one)."""
        return self.count("DynamoDB", _WRITES)


class Meter:
    """Registers the hooks once; :meth:`measure` charges calls to one request."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._sizes = ItemSizes()
        self.samples: list[Sample] = []
        boto3.setup_default_session()
        session = boto3.DEFAULT_SESSION
        if session is None:
            raise RuntimeError("boto3 did not set up its default session")
        session.events.register("before-parameter-build", self._before)
        session.events.register("after-call", self._after)

    def _current(self) -> Sample | None:
        sample: Sample | None = getattr(self._local, "sample", None)
        return sample

    def _before(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        sample = self._current()
        if sample is not None:
            call = Call(model.service_model.service_id, model.name, params)
            call.started = time.perf_counter()
            sample.calls.append(call)

    def _after(self, model: Any, parsed: dict[str, Any], **_: Any) -> None:
        sample = self._current()
        if sample is not None and sample.calls and sample.calls[-1].operation == model.name:
            call = sample.calls[-1]
            call.parsed = parsed
            call.seconds = time.perf_counter() - call.started

    @contextmanager
    def measure(self, label: str) -> Iterator[Sample]:
        """Charge every AWS call made in this thread inside the block to a new sample."""
        sample = Sample(label)
        self._local.sample = sample
        started = time.perf_counter()
        try:
            yield sample
        finally:
            sample.seconds = time.perf_counter() - started
            self._local.sample = None
        for call in sample.calls:
            if call.service == "DynamoDB":
                sample.read_units += _read_cost(call)
                sample.write_units += _write_cost(call, self._sizes)
        self.samples.append(sample)

    def by_label(self) -> dict[str, list[Sample]]:
        """The samples grouped by request type, in first-seen order."""
        grouped: dict[str, list[Sample]] = {}
        for sample in self.samples:
            grouped.setdefault(sample.label, []).append(sample)
        return grouped


def _read_cost(call: Call) -> float:
    answer = call.parsed or {}
    params = call.params
    consistent = bool(params.get("ConsistentRead"))
    if call.operation == "GetItem":
        return read_units(item_size(answer.get("Item", {})), consistent=consistent)
    if call.operation == "BatchGetItem":
        total = 0.0
        for table, request in params["RequestItems"].items():
            returned = answer.get("Responses", {}).get(table, [])
            strong = bool(request.get("ConsistentRead"))
            for key in request["Keys"]:
                item: dict[str, Any] = next((i for i in returned if _has_key(i, key)), {})
                total += read_units(item_size(item), consistent=strong)
        return total
    if call.operation in ("Query", "Scan"):
        return query_read_units(answer.get("Items", []), consistent=consistent)
    if call.operation == "TransactGetItems":
        return sum(
            read_units(item_size(r.get("Item", {})), consistent=True, transactional=True)
            for r in answer.get("Responses", [])
        )
    return 0.0


def _write_cost(call: Call, sizes: ItemSizes) -> float:
    """Write units of one call, from the written items' sizes right after it."""
    params = call.params
    if call.operation in ("PutItem", "UpdateItem", "DeleteItem"):
        return write_units(sizes.now(params["TableName"], _written_key(call.operation, params)))
    if call.operation == "TransactWriteItems":
        total = 0.0
        for entry in params["TransactItems"]:
            ((kind, body),) = entry.items()
            size = sizes.now(body["TableName"], _written_key(kind, body))
            total += write_units(size, transactional=True)
        return total
    if call.operation == "BatchWriteItem":
        total = 0.0
        for table, requests in params["RequestItems"].items():
            for request in requests:
                ((kind, body),) = request.items()
                key = body.get("Key") or body.get("Item", {})
                total += write_units(sizes.now(table, key))
        return total
    return 0.0


def _written_key(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    return dict(body["Item"] if kind in ("Put", "PutItem") else body["Key"])


def _has_key(item: dict[str, Any], key: dict[str, Any]) -> bool:
    return all(item.get(name) == value for name, value in key.items())


class ItemSizes:
    """Reads items back to size them, with a client of its own (made on first use)."""

    def __init__(self) -> None:
        self._client: Any = None
        self._keys: dict[str, list[str]] = {}

    def now(self, table: str, key_or_item: dict[str, Any]) -> int:
        """The item's size now (a deleted item costs its key); read outside any measurement."""
        if self._client is None:
            self._client = boto3.client("dynamodb")
        if table not in self._keys:
            schema = self._client.describe_table(TableName=table)["Table"]["KeySchema"]
            self._keys[table] = [k["AttributeName"] for k in schema]
        key = {name: key_or_item[name] for name in self._keys[table]}
        item = self._client.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
        return item_size(item or key)


def median_ms(samples: list[Sample]) -> float:
    """Median wall time of ``samples`` in milliseconds."""
    return statistics.median(s.seconds for s in samples) * 1000
