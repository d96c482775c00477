"""Count what each API request costs in AWS calls, with botocore's own event hooks.

Hooks on the default boto3 session (the one the service's clients come from) see every call
with its parameters (``before-parameter-build``) and its parsed answer (``after-call``). A call
is charged to the request being measured in the same thread, so the scheduler's own polling or
the benchmark's bookkeeping is never counted. DynamoDB capacity is worked out from the calls:
reads from the items returned; writes from each written item as it stood right before the call
and right after it (``ItemImages``), which gives both the table's units (the larger of the two
images, as DynamoDB bills a write) and the units of each global secondary index the write
touched (``indexes``).
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

from mineduel.local.invoke import RUNNING

from .capacity import item_size, query_read_units, read_units, write_units
from .indexes import Item, TableModel

_READS = {"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"}
_WRITES = {
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
}


@dataclass
class Written:
    """One item a write call wrote: where, and the item right before and right after the call
    (None: no item)."""

    table: str
    key: dict[str, Any]
    transactional: bool
    before: Item | None
    after: Item | None = None


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
    written: list[Written] = field(default_factory=list)
    answered: bool = False


@dataclass
class Sample:
    """One measured request: its AWS calls, wall time and DynamoDB units."""

    label: str
    calls: list[Call] = field(default_factory=list)
    seconds: float = 0.0
    read_units: float = 0.0
    write_units: float = 0.0
    """The table's own write units (items written, doubled in transactions)."""
    index_units: dict[str, float] = field(default_factory=dict)
    """Write units of each global secondary index the request's writes touched."""
    moves: int = 0
    ended: bool = False
    """A commit that ended its game (it also applies the game's result)."""
    meter_seconds: float = 0.0
    """Time the meter itself took inside the request (reading items' images): not the
    handler's."""

    @property
    def index_write_units(self) -> float:
        """Write units of all the table's global secondary indexes."""
        return float(sum(self.index_units.values()))

    @property
    def all_write_units(self) -> float:
        """Everything the request's writes are billed: the table's units and its indexes'."""
        return self.write_units + self.index_write_units

    def own_seconds(self) -> float:
        """The handler's own time: wall time less the time its AWS calls (and the meter's
        reads) took here."""
        spent = sum(c.seconds for c in self.calls) + self.meter_seconds
        return max(self.seconds - spent, 0.0)

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
    """Registers the hooks once; :meth:`measure` charges calls to one request.

    ``tables`` (physical table name -> its keys and indexes: ``indexes.physical_tables``) must
    name every table a measured request writes: the meter reads the written items by their
    keys and works out their indexes' writes from the template's declaration."""

    def __init__(self, tables: dict[str, TableModel] | None = None) -> None:
        self._local = threading.local()
        self.tables: dict[str, TableModel] = dict(tables or {})
        self._images = ItemImages(self.tables)
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
            started = time.perf_counter()
            if call.service == "DynamoDB":
                call.written = self._images.before(call.operation, params)
            call.started = time.perf_counter()
            sample.meter_seconds += call.started - started
            sample.calls.append(call)

    def _after(self, model: Any, parsed: dict[str, Any], **_: Any) -> None:
        sample = self._current()
        if sample is not None and sample.calls and sample.calls[-1].operation == model.name:
            call = sample.calls[-1]
            call.parsed = parsed
            answered = time.perf_counter()
            call.seconds = answered - call.started
            self._images.after(call)
            sample.meter_seconds += time.perf_counter() - answered

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
                self._images.after(call)  # a call that raised before its answer: read now
                sample.read_units += _read_cost(call)
                for written in call.written:
                    sample.write_units += _table_units(written)
                    table = self.tables[written.table]
                    for index, units in table.index_write_units(
                        written.before, written.after
                    ).items():
                        sample.index_units[index] = sample.index_units.get(index, 0.0) + units
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


def _table_units(written: Written) -> float:
    """A write is billed on the larger of the item before and after it (a delete on the item it
    removed; a write that changed nothing, such as a failed condition, on the item as it is), as
    AWS's "Capacity unit consumption for write operations" says for PutItem, UpdateItem and
    DeleteItem (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html)."""
    size = max(item_size(written.before or {}), item_size(written.after or {}))
    return write_units(size, transactional=written.transactional)


def _has_key(item: dict[str, Any], key: dict[str, Any]) -> bool:
    return all(item.get(name) == value for name, value in key.items())


class ItemImages:
    """Reads each item a write call writes right before the call and right after it.

    Reading the backend, rather than replaying what the meter saw written, gives the exact
    images whoever wrote the item before (an unmeasured request, the sweeper, another function)
    and needs no evaluator of update expressions. The reads go through a client of a boto3
    session of their own, which the meter's hooks are not registered on: they are never
    charged to the request, and the time they take is taken out of its time
    (``Sample.meter_seconds``); nor are they the running function's calls (the local stack's
    IAM audit does not count them as such)."""

    def __init__(self, tables: dict[str, TableModel]) -> None:
        self._tables = tables
        self._client: Any = None

    def before(self, operation: str, params: dict[str, Any]) -> list[Written]:
        """The items ``operation`` will write, each with its image now (empty for a call that
        writes nothing)."""
        targets: list[tuple[str, dict[str, Any], bool]] = []
        if operation == "PutItem":
            targets.append((params["TableName"], params["Item"], False))
        elif operation in ("UpdateItem", "DeleteItem"):
            targets.append((params["TableName"], params["Key"], False))
        elif operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, body),) = entry.items()
                if kind in ("Put", "Update", "Delete"):
                    targets.append((body["TableName"], body.get("Item") or body["Key"], True))
        elif operation == "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    ((_, body),) = request.items()
                    targets.append((table, body.get("Item") or body["Key"], False))
        found = []
        for table, item_or_key, transactional in targets:
            key = self._model(table).key_of(item_or_key)
            found.append(Written(table, key, transactional, self._read(table, key)))
        return found

    def after(self, call: Call) -> None:
        """Read the call's written items as they are now (once per call)."""
        if call.answered:
            return
        call.answered = True
        for written in call.written:
            written.after = self._read(written.table, written.key)

    def _model(self, table: str) -> TableModel:
        try:
            return self._tables[table]
        except KeyError:
            raise KeyError(
                f"the meter does not know the table {table!r}: pass its keys and indexes "
                "(indexes.tables_of) to Meter"
            ) from None

    def _read(self, table: str, key: dict[str, Any]) -> Item | None:
        if self._client is None:
            self._client = boto3.session.Session().client("dynamodb")
        outside = RUNNING.set(None)  # the meter's read, not the running function's (IAM audit)
        try:
            answer = self._client.get_item(TableName=table, Key=key, ConsistentRead=True)
        finally:
            RUNNING.reset(outside)
        item: Item | None = answer.get("Item")
        return item


def median_ms(samples: list[Sample]) -> float:
    """Median wall time of ``samples`` in milliseconds."""
    return statistics.median(s.seconds for s in samples) * 1000
