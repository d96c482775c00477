"""A narrow patch of moto 5.2 for the local stack and the tests: what DynamoDB does, moto doesn't.

:func:`install` applies it (once; it is idempotent) to the moto in this process: the local
stack's embedded moto server and the tests' ``mock_aws``. Nothing in site-packages is edited,
and a moto other than 5.2 is refused, since the patch leans on its internals. Each part, and why:

1. **A transaction costs what it touches.** moto's ``transact_write_items`` deep-copies every
   table it names, once per item, before applying anything, and on failure swaps the copies in:
   a commit then costs in proportion to everything ever written (a stack used for an hour sat at
   gigabytes), and the table object that replaces the original has a new stream, so whoever reads
   the stream by the old shard (the local stream trigger) never sees another record. Here moto's
   own implementation still runs unchanged, but the table "backups" it takes are the tables
   themselves (the module's ``copy.deepcopy`` is given a Table back as it is), and this wrapper
   snapshots only the items the transaction names (a deep copy of each, or "absent") and, if the
   transaction fails in any way, puts them back in place and removes the transaction's stream
   records. So the table object and its stream stay the same, and a cancelled transaction writes
   nothing to the stream, as on DynamoDB.
2. **The stream keeps 24 hours.** DynamoDB Streams keeps a record for 24 hours; moto keeps every
   record forever. Here records older than 24 hours by :func:`configure`'s clock (the local
   stack's clock, which ``POST /_local/clock`` moves) are trimmed from the shard, which then
   starts at the oldest record kept; an iterator pointing before it gets
   ``TrimmedDataAccessException``, as on AWS. A day of records is kept packed (compressed), a
   twentieth of moto's nested dicts of both images.
3. **Shard iterators expire.** moto keeps every shard iterator it ever issued (one more per
   ``GetRecords``). DynamoDB Streams' expire 15 minutes after they are issued; here too, and an
   expired or unknown one gets ``ExpiredIteratorException`` (moto raised a KeyError: a 500).
4. **TTL deletes.** moto stores a table's TTL setting and never deletes anything.
   :func:`delete_expired` deletes the items whose TTL attribute (a number, epoch seconds) has
   passed, as DynamoDB's TTL process does (which does it within a few days of the expiry; items
   expired more than five years ago are ignored, as DynamoDB ignores them), each deletion a
   ``REMOVE`` stream record whose ``userIdentity`` is the DynamoDB service, as on AWS. The local
   stack calls it on a timer and when its clock moves (``mineduel.local.ttl``).
5. **Writes can be waited for.** :func:`on_stream_write`, :func:`on_schedule_write` and
   :func:`on_queue_write` register a callback run after a stream record is written (once a
   transaction has succeeded), a schedule created, updated or deleted, or a message sent to a
   queue or made visible again, so the local stream trigger, Scheduler loop and SQS pollers
   sleep until something happens instead of asking moto many times a second.
6. **A query costs what it reads.** moto answers every ``Query`` by listing and sorting every
   item of the table, then keeping the partition asked for: a game's query cost in proportion
   to all the games ever played, and the deadline sweeper's forty index queries a minute
   seconds of CPU after a few dozen games. Here a query of the table itself reads only its
   partition, and a query of an index keeps, without sorting the table, the items whose index
   key has the value asked for (moto then checks and sorts those as before, so the answer is
   the same). The items that hold an index's key attribute at all are kept with the table
   until its next write (every write path counts one: a put, an update, a delete, a cancelled
   transaction's restore), so on an idle stack the sweeper's forty queries of two sparse
   indexes a minute read the few items in them, not every item of the table each time.
9. **An update that creates an item is one INSERT.** moto's ``UpdateItem`` on a missing key
   puts the bare key first, then applies the update: two INSERT records, the first with only
   the key (the fan-out would see an item with no attributes). Here the bare key's record is
   not written, as DynamoDB writes one record per change.
8. **What is thrown away is freed.** moto records every instance of its models in a list kept
   until a reset (for ``/moto-api/data.json``): every DynamoDB item it ever made (each copy a
   query or transaction takes too), every stream record, every shard iterator, so nothing the
   patch trims or expires was ever freed. Items, stream records and shard iterators are not
   recorded here (they are not listed in ``/moto-api/data.json`` any more).
10. **GetRecords answers in what its records already are.** A stream record is kept in the
   API's own JSON shape; moto's generic response serializer walked every attribute of both
   images again for each ``GetRecords`` (most of its cost). Here the answer is that JSON, the
   creation time in epoch seconds and binary values in base64, as DynamoDB Streams sends them.
7. **A request finds its service without listing moto's package.** moto's server lists (and
   stats) its own package directory on every request to find the service, and lists a response
   class's methods on every request to find the action; both are taken once here.

The proposal to fix (1) to (3) in moto itself is in docs/local.md.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle
import threading
import time
import types
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import moto
from moto import backends as moto_backends
from moto.core import responses as moto_responses
from moto.core import utils as moto_utils
from moto.core.exceptions import JsonRESTError
from moto.dynamodb import models as dynamodb_models
from moto.dynamodb.models import DynamoDBBackend, dynamodb_backends
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import StreamRecord, StreamShard, Table
from moto.dynamodbstreams.models import DynamoDBStreamsBackend, ShardIterator
from moto.dynamodbstreams.responses import DynamoDBStreamsHandler
from moto.scheduler.models import EventBridgeSchedulerBackend
from moto.sqs.models import SQSBackend

SUPPORTED = "5.2."
MOTO_VERSION = "5.2.6"
"""The release this patch was written for and tested with: the lock pins it (pyproject.toml), and
a test fails when another is installed. Other 5.2 releases are still patched (``install``), but
until the patch is reviewed against one, only this release is known to behave."""
QUEUE_WRITES = (
    "send_message",
    "send_message_batch",
    "change_message_visibility",
    "change_message_visibility_batch",
)
"""What makes a message receivable now (``send_message_batch`` calls ``send_message``: one
batch may tell a listener more than once, which only wakes a poller that is awake already)."""
STREAM_RETENTION = timedelta(hours=24)
ITERATOR_LIFETIME_S = 15 * 60
TTL_IDENTITY = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
"""A TTL deletion's ``userIdentity``, as DynamoDB Streams' GetRecords answers it."""
TTL_IGNORED_AFTER = timedelta(days=5 * 365)
"""DynamoDB's TTL ignores an expiry more than five years in the past (a milliseconds value
mistaken for seconds, say)."""

Clock = Callable[[], datetime]
WRITTEN_AT = "mineduel_written_at"
"""The attribute a stream record gets: when it was written, by the stack's clock."""
ISSUED_AT = "mineduel_issued_at"
"""The attribute a shard iterator gets: when it was issued (monotonic seconds)."""
SEQUENCE = "mineduel_sequence"
"""The attribute a stream record gets: its sequence number (read without unpacking it)."""
PACKED = "mineduel_packed"
"""Where a stream record keeps its packed ``record``."""


def _system_clock() -> datetime:
    return datetime.now(UTC)


_now: Clock = _system_clock
_installed = False
_install_lock = threading.Lock()
_monotonic: Callable[[], float] = time.monotonic
"""The clock shard iterators expire by (real time: they are the transport's, not the game's)."""
_stream_listeners: list[Callable[[str], None]] = []
_schedule_listeners: list[Callable[[], None]] = []
_queue_listeners: list[Callable[[], None]] = []
_in_transaction = threading.local()
rolled_back = 0
"""How many transactions this process's moto refused and rolled back (read by the tests)."""


class TrimmedDataAccessException(JsonRESTError):
    """DynamoDB Streams: the iterator points before the oldest record the shard keeps."""

    code = 400

    def __init__(self) -> None:
        super().__init__(
            "TrimmedDataAccessException",
            "The operation attempted to read past the oldest stream record in a shard.",
        )


class ExpiredIteratorException(JsonRESTError):
    """DynamoDB Streams: the shard iterator expired (15 minutes) or was never issued."""

    code = 400

    def __init__(self) -> None:
        super().__init__("ExpiredIteratorException", "Iterator expired. Get a new one.")


def configure(now: Clock | None = None) -> None:
    """Use ``now`` as the clock of stream retention (the system clock when None)."""
    global _now  # noqa: PLW0603  (one clock for the process's moto, as moto's state is)
    _now = now or _system_clock


def on_stream_write(callback: Callable[[str], None]) -> Callable[[], None]:
    """Call ``callback(table_name)`` after each stream write; returns the unregistering call.

    It runs inside moto's request: it must only signal (set an event), never call AWS."""
    _stream_listeners.append(callback)
    return lambda: _discard(_stream_listeners, callback)


def on_schedule_write(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback()`` after a schedule is created, updated or deleted (same rules)."""
    _schedule_listeners.append(callback)
    return lambda: _discard(_schedule_listeners, callback)


def on_queue_write(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback()`` after a message is sent to any queue or made visible again (same
    rules): the local SQS pollers sleep until then instead of receiving ten times a second."""
    _queue_listeners.append(callback)
    return lambda: _discard(_queue_listeners, callback)


def _discard(listeners: list[Any], callback: Any) -> None:
    if callback in listeners:
        listeners.remove(callback)


# ---------------------------------------------------------------- 1. transactions
def _deepcopy_keeping_tables(value: Any, memo: Any = None, _nil: Any = None) -> Any:
    """``copy.deepcopy``, except that a whole Table comes back as it is (its transaction
    "backup"): what moto's DynamoDB backend module calls as ``copy.deepcopy``."""
    if isinstance(value, Table):
        return value
    return copy.deepcopy(value, memo)


def _copy_keeping_tables() -> types.ModuleType:
    """The ``copy`` module as moto's DynamoDB backend module sees it after the patch."""
    module = types.ModuleType("copy")
    module.__dict__.update(copy.__dict__)
    module.deepcopy = _deepcopy_keeping_tables  # type: ignore[attr-defined]
    return module


_Snapshot = tuple[Table, DynamoType, DynamoType | None, Item | None]


def _key_of(table: Table, op_type: str, op: dict[str, Any]) -> tuple[DynamoType, Any] | None:
    attrs = op.get("Item") if op_type == "Put" else op.get("Key")
    if not isinstance(attrs, dict) or table.hash_key_attr not in attrs:
        return None
    hash_value = DynamoType(attrs[table.hash_key_attr])
    if table.range_key_attr is None:
        return hash_value, None
    if table.range_key_attr not in attrs:
        return None
    return hash_value, DynamoType(attrs[table.range_key_attr])


def _stored(table: Table, hash_value: DynamoType, range_value: DynamoType | None) -> Item | None:
    """The item at a key, read without moto's ``defaultdict`` adding an empty partition."""
    items: Any = table.items
    found = items.get(hash_value)
    if range_value is None or found is None:
        return cast("Item | None", found)
    return cast("Item | None", found.get(range_value))


def _snapshots(backend: DynamoDBBackend, transact_items: Any) -> list[_Snapshot]:
    """A deep copy of every item the transaction names (None where there is none yet)."""
    taken: list[_Snapshot] = []
    for entry in transact_items if isinstance(transact_items, list) else []:
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        op_type, op = next(iter(entry.items()))
        table = backend.tables.get(str(op.get("TableName"))) if isinstance(op, dict) else None
        if table is None:
            continue
        try:
            key = _key_of(table, op_type, op)
        except Exception:  # a malformed key: moto refuses it before it writes anything
            key = None
        if key is not None:
            current = _stored(table, *key)
            taken.append((table, key[0], key[1], copy.deepcopy(current)))
    return taken


def _restore(snapshots: list[_Snapshot], marks: dict[int, tuple[StreamShard, int]]) -> None:
    """Put every named item back as it was (the last snapshot of a key first-taken wins) and
    drop the stream records written since ``marks``."""
    for table, hash_value, range_value, before in reversed(snapshots):
        items: Any = table.items
        if range_value is None:
            if before is None:
                items.pop(hash_value, None)
            else:
                items[hash_value] = before
            continue
        partition = items.get(hash_value)
        if before is not None:
            items[hash_value][range_value] = before
        elif partition is not None:
            partition.pop(range_value, None)
            if not partition:
                del items[hash_value]
    for table in {id(table): table for table, *_ in snapshots}.values():
        _written(table)
    for shard, first_new in marks.values():
        while shard.items and _sequence(shard.items[-1]) >= first_new:
            shard.items.pop()  # the transaction's own records: the newest ones


def _sequence(record: Any) -> int:
    found = getattr(record, SEQUENCE, None)
    if found is None:
        return int(record.record["dynamodb"]["SequenceNumber"])
    return int(found)


def _next_sequence(shard: StreamShard) -> int:
    return int(shard.starting_sequence_number) + len(shard.items)


_original_transact = DynamoDBBackend.transact_write_items


def _transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    """moto's transaction, snapshotting and restoring only the items it names."""
    snapshots = _snapshots(self, transact_items)
    marks = {
        id(table.stream_shard): (table.stream_shard, _next_sequence(table.stream_shard))
        for table, *_ in snapshots
        if table.stream_shard is not None
    }
    pending: set[str] = set()
    _in_transaction.pending = pending
    try:
        _original_transact(self, transact_items)
    except BaseException:
        global rolled_back  # noqa: PLW0603  (a count for the whole process, as moto's state is)
        _restore(snapshots, marks)
        rolled_back += 1
        raise
    finally:
        _in_transaction.pending = None
    for table_name in pending:
        _notify_stream(table_name)


# ---------------------------------------------------------------- 2. stream retention
_original_add = StreamShard.add
_original_get = StreamShard.get


def _add(self: StreamShard, old: Item | None, new: Item | None) -> None:
    """moto's add, the record stamped with the stack's clock (and, for a TTL deletion, its
    ``userIdentity``) and packed; then old records trimmed, and the listeners told (after the
    transaction, when in one)."""
    if getattr(_creating_update, "bare_key_next", False) and old is None:
        _creating_update.bare_key_next = False  # the bare key UpdateItem puts first: no record
        return
    count = len(self.items)
    _original_add(self, old, new)
    now = _now()
    if len(self.items) > count:
        record = self.items[-1]
        setattr(record, WRITTEN_AT, now)
        if getattr(_ttl_deletion, "active", False):
            record.record["userIdentity"] = dict(TTL_IDENTITY)
        _pack(record)
    trim(self, now)
    pending = getattr(_in_transaction, "pending", None)
    if pending is not None:
        pending.add(self.table.name)
    else:
        _notify_stream(self.table.name)


class _PackedRecord:
    """``StreamRecord.record``, kept packed once the record is complete.

    moto keeps each record as nested dicts of both images, tens of kilobytes for a game item,
    and DynamoDB Streams keeps records for a day: packed (pickled, then zlib at its fastest
    level) a record takes a twentieth of that, and is unpacked when read (once, by the trigger).
    Until it is packed (while moto's ``StreamRecord.__init__`` fills it in) it is the dict."""

    def __get__(self, record: Any, owner: type | None = None) -> Any:
        if record is None:
            return self
        packed = record.__dict__.get(PACKED)
        if packed is None:
            return record.__dict__["record"]
        return pickle.loads(zlib.decompress(packed))  # noqa: S301  (moto's own record)

    def __set__(self, record: Any, value: Any) -> None:
        record.__dict__.pop(PACKED, None)
        record.__dict__["record"] = value


def _pack(record: Any) -> None:
    raw = record.__dict__.pop("record")
    setattr(record, SEQUENCE, int(raw["dynamodb"]["SequenceNumber"]))
    record.__dict__[PACKED] = zlib.compress(pickle.dumps(raw, protocol=5), 1)


def trim(shard: StreamShard, now: datetime) -> int:
    """Drop the records older than the retention; how many were dropped."""
    cutoff = now - STREAM_RETENTION
    dropped = 0
    for record in shard.items:
        if getattr(record, WRITTEN_AT, now) >= cutoff:
            break
        dropped += 1
    if dropped:
        del shard.items[:dropped]
        shard.starting_sequence_number += dropped
    return dropped


def _get(self: StreamShard, start: int, quantity: int) -> list[dict[str, Any]]:
    """moto's read, refusing an iterator that points before the oldest record kept."""
    if start < self.starting_sequence_number:
        raise TrimmedDataAccessException()
    return _original_get(self, start, quantity)


def _notify_stream(table_name: str) -> None:
    for listener in list(_stream_listeners):
        listener(table_name)


_original_update_item = DynamoDBBackend.update_item
_creating_update = threading.local()


def _update_item(
    self: DynamoDBBackend, table_name: str, key: Any, *args: Any, **kwargs: Any
) -> Any:
    """moto's UpdateItem; when it creates the item, the bare key it puts first writes no
    stream record (the update's own INSERT, with the whole new item, follows)."""
    table = self.get_table(table_name)
    try:
        hash_value, range_value = self.get_keys_value(table, key)
        missing = _stored(table, hash_value, range_value) is None
    except Exception:  # a malformed key: moto refuses it before it writes anything
        missing = False
    _creating_update.bare_key_next = missing
    try:
        return _original_update_item(self, table_name, key, *args, **kwargs)
    finally:
        _creating_update.bare_key_next = False
        _written(table)  # (it changes an item in place: no put, no delete)


# ---------------------------------------------------------------- 3. shard iterators
_original_iterator_init = ShardIterator.__init__


def _iterator_init(self: ShardIterator, *args: Any, **kwargs: Any) -> None:
    _original_iterator_init(self, *args, **kwargs)
    setattr(self, ISSUED_AT, _monotonic())


def _expired(iterator: ShardIterator, now: float) -> bool:
    return now - float(getattr(iterator, ISSUED_AT, now)) > ITERATOR_LIFETIME_S


def _prune_iterators(backend: DynamoDBStreamsBackend) -> None:
    """Drop the expired iterators (the dict is in the order they were issued)."""
    now = _monotonic()
    iterators = backend.shard_iterators
    while iterators:
        oldest = next(iter(iterators))
        if not _expired(iterators[oldest], now):
            break
        del iterators[oldest]


_original_get_shard_iterator = DynamoDBStreamsBackend.get_shard_iterator


def _get_shard_iterator(self: DynamoDBStreamsBackend, *args: Any, **kwargs: Any) -> Any:
    _prune_iterators(self)
    return _original_get_shard_iterator(self, *args, **kwargs)


def _get_records(self: DynamoDBStreamsBackend, iterator_arn: str, limit: int) -> dict[str, Any]:
    """moto's GetRecords, with DynamoDB Streams' answer for an expired or unknown iterator."""
    _prune_iterators(self)
    iterator = self.shard_iterators.get(iterator_arn)
    if iterator is None or _expired(iterator, _monotonic()):
        raise ExpiredIteratorException()
    answer: dict[str, Any] = iterator.get(limit)
    return answer


_original_get_records_response = DynamoDBStreamsHandler.get_records


def _get_records_response(self: Any) -> str:
    """``DynamoDBStreamsHandler.get_records``: the records as the JSON they already are."""
    limit = self._get_param("Limit")
    answer = self.backend.get_records(self._get_param("ShardIterator"), limit or 1000)
    return json.dumps(answer, default=_wire_value, separators=(",", ":"))


def _wire_value(value: Any) -> Any:
    """What JSON cannot hold, as the API sends it: times in whole epoch seconds (rounded down,
    as DynamoDB Streams' ``ApproximateCreationDateTime`` is), binary in base64."""
    if isinstance(value, datetime):
        return int(value.timestamp())
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not JSON")


# ---------------------------------------------------------------- 4. TTL
def _backends() -> Iterator[DynamoDBBackend]:
    for regions in list(dynamodb_backends.values()):
        yield from list(regions.values())


def delete_expired(now: datetime) -> int:
    """Delete every item whose TTL has passed by ``now``, in every table with TTL enabled, as
    DynamoDB's TTL does (a REMOVE stream record by the DynamoDB service for each); also drop
    the empty partitions moto leaves behind after reads of missing keys. Returns how many
    items were deleted. Call it under the lock that serializes moto."""
    deleted = 0
    epoch = now.timestamp()
    oldest = (now - TTL_IGNORED_AFTER).timestamp()
    for backend in _backends():
        for table in list(backend.tables.values()):
            attribute = table.ttl.get("AttributeName")
            enabled = table.ttl.get("TimeToLiveStatus") == "ENABLED" and attribute
            stored_items: Any = table.items
            for hash_value, stored in list(stored_items.items()):
                items = stored if table.range_key_attr is not None else {None: stored}
                if not items:
                    del stored_items[hash_value]
                    continue
                if not enabled:
                    continue
                for range_value, item in list(items.items()):
                    if _expires_by(item, str(attribute), oldest, epoch):
                        _delete_by_ttl(table, hash_value, range_value)
                        deleted += 1
                if table.range_key_attr is not None and not stored_items.get(hash_value):
                    stored_items.pop(hash_value, None)
    return deleted


def _expires_by(item: Item, attribute: str, oldest: float, epoch: float) -> bool:
    value = item.attrs.get(attribute)
    if value is None or value.type != "N":
        return False
    try:
        expiry = float(value.value)
    except (TypeError, ValueError):
        return False
    return oldest <= expiry <= epoch


_ttl_deletion = threading.local()


def _delete_by_ttl(table: Table, hash_value: DynamoType, range_value: Any) -> None:
    _ttl_deletion.active = True
    try:
        table.delete_item(hash_value, range_value)
    finally:
        _ttl_deletion.active = False


def trim_streams(now: datetime) -> int:
    """Trim every stream to the retention by ``now``; how many records were dropped."""
    dropped = 0
    for backend in _backends():
        for table in list(backend.tables.values()):
            if table.stream_shard is not None:
                dropped += trim(table.stream_shard, now)
    return dropped


# ---------------------------------------------------------------- 5. schedule and queue writes
def _notifying(
    method: Callable[..., Any], listeners: list[Callable[[], None]]
) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        for listener in list(listeners):
            listener()
        return result

    wrapper.__wrapped__ = method  # type: ignore[attr-defined]
    wrapper.__doc__ = method.__doc__
    return wrapper


# ---------------------------------------------------------------- 6. queries
_original_query = Table.query
_original_all_items = Table.all_items
_query_scope = threading.local()


def _query(self: Table, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
    """moto's query, telling ``all_items`` what it really needs (see :func:`_all_items`)."""
    index_name = kwargs.get("index_name") if "index_name" in kwargs else _positional_index(args)
    if index_name:
        equal = [(name, value.type, value.value) for name, value in _hash_conditions(kwargs)]
        _query_scope.scope = (self, None, equal)
    else:
        _query_scope.scope = (self, hash_key, [])
    try:
        return _original_query(self, hash_key, *args, **kwargs)
    finally:
        _query_scope.scope = None


def _positional_index(args: tuple[Any, ...]) -> Any:
    # Table.query(hash_key, range_comparison, range_objs, limit, exclusive_start_key,
    #             scan_index_forward, projection_expressions, index_name, ...)
    return args[6] if len(args) > 6 else None


def _hash_conditions(kwargs: dict[str, Any]) -> list[tuple[str, DynamoType]]:
    found = kwargs.get("hash_key_conditions") or []
    return [(str(name), value) for name, value in found if isinstance(value, DynamoType)]


def _all_items(self: Table) -> list[Item]:
    """Inside a query of the table: the partition's items only, sorted as moto sorts them;
    inside a query of an index: the items whose index key attributes have the values asked
    for (compared as stored, before moto compares them its own way), unsorted (moto sorts the
    matches by the index's keys itself)."""
    scope = getattr(_query_scope, "scope", None)
    if scope is None or scope[0] is not self:
        return _original_all_items(self)
    _, hash_key, equal = scope
    stored: Any = self.items
    if hash_key is None:
        return [item for item in _holding(self, equal) if _has_values(item, equal)]
    found = stored.get(hash_key)
    if found is None:
        return []
    if self.range_key_attr is None:
        return [found]
    return sorted(found.values(), key=lambda item: item.range_key)


WRITES = "mineduel_writes"
"""The attribute a table gets: how many writes it has had (every write path adds one)."""
HOLDING = "mineduel_holding"
"""The attribute a table gets: per attribute name, (its writes then, the items holding it)."""


def _holding(table: Table, equal: list[tuple[str, str, Any]]) -> list[Item]:
    """Every item of ``table`` that holds the first attribute of ``equal`` (all of them when
    there is none), as of the table's last write: listed once, then kept until a write."""
    stored: Any = table.items
    every: Any = (
        stored.values()
        if table.range_key_attr is None
        else (item for partition in stored.values() for item in partition.values())
    )
    if not equal:
        return list(every)
    name = equal[0][0]
    writes = getattr(table, WRITES, 0)
    kept: dict[str, tuple[int, list[Item]]] = getattr(table, HOLDING, None) or {}
    found = kept.get(name)
    if found is not None and found[0] == writes:
        return found[1]
    holding = [item for item in every if name in item.attrs]
    kept[name] = (writes, holding)
    setattr(table, HOLDING, kept)
    return holding


def _written(table: Table) -> None:
    """Count a write to ``table`` (what ``_holding`` kept for it is then stale)."""
    setattr(table, WRITES, getattr(table, WRITES, 0) + 1)


def _counting_writes(method: Callable[..., Any]) -> Callable[..., Any]:
    """``Table.put_item`` or ``Table.delete_item``, counting a write (``_written``) each call."""

    def wrapper(self: Table, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        finally:
            _written(self)

    wrapper.__wrapped__ = method  # type: ignore[attr-defined]
    return wrapper


def _has_values(item: Item, equal: list[tuple[str, str, Any]]) -> bool:
    for name, kind, value in equal:
        found = item.attrs.get(name)
        if found is None or found.type != kind or found.value != value:
            return False
    return True


# ---------------------------------------------------------------- 7. the server's dispatch
_MODULES: tuple[str, ...] = ()


def _list_of_moto_modules() -> tuple[str, ...]:
    return _MODULES


_method_names: dict[object, list[str]] = {}
_original_method_names: Callable[[object], list[str]] = moto_utils.method_names_from_class


def _method_names_from_class(clazz: object) -> list[str]:
    found = _method_names.get(clazz)
    if found is None:
        found = _method_names[clazz] = list(_original_method_names(clazz))
    return found


# ---------------------------------------------------------------- 8. untracked instances
UNTRACKED: tuple[type, ...] = (Item, StreamRecord, ShardIterator)
"""The moto models made per request, whose instances moto would otherwise keep forever."""


def _untracked_new(cls: type, *args: Any, **kwargs: Any) -> Any:
    """``BaseModel.__new__`` without recording the instance."""
    return object.__new__(cls)


# ---------------------------------------------------------------- install
def install() -> None:
    """Apply the patch to this process's moto (once)."""
    global _installed  # noqa: PLW0603
    with _install_lock:
        if _installed:
            return
        if not moto.__version__.startswith(SUPPORTED):
            raise RuntimeError(
                f"mineduel.local.moto_patch is written against moto {SUPPORTED}x internals and "
                f"moto {moto.__version__} is installed: review the patch (docs/local.md) before "
                "changing moto's version in pyproject.toml."
            )
        dynamodb_models.copy = _copy_keeping_tables()  # type: ignore[attr-defined]
        DynamoDBBackend.transact_write_items = _transact_write_items  # type: ignore[method-assign]
        for model in UNTRACKED:
            model.__new__ = staticmethod(_untracked_new)  # type: ignore[assignment]
        StreamRecord.record = _PackedRecord()  # type: ignore[assignment]
        StreamShard.add = _add  # type: ignore[method-assign]
        DynamoDBBackend.update_item = _update_item  # type: ignore[method-assign]
        StreamShard.get = _get  # type: ignore[method-assign]
        ShardIterator.__init__ = _iterator_init  # type: ignore[method-assign]
        DynamoDBStreamsBackend.get_shard_iterator = _get_shard_iterator  # type: ignore[method-assign]
        DynamoDBStreamsBackend.get_records = _get_records  # type: ignore[method-assign]
        DynamoDBStreamsHandler.get_records = _get_records_response  # type: ignore[assignment]
        Table.query = _query  # type: ignore[method-assign]
        Table.all_items = _all_items  # type: ignore[method-assign]
        Table.put_item = _counting_writes(Table.put_item)  # type: ignore[method-assign]
        Table.delete_item = _counting_writes(Table.delete_item)  # type: ignore[method-assign]
        global _MODULES  # noqa: PLW0603
        _MODULES = tuple(moto_backends.list_of_moto_modules())
        moto_backends.list_of_moto_modules = _list_of_moto_modules
        moto_responses.method_names_from_class = _method_names_from_class  # type: ignore[attr-defined]
        for name in ("create_schedule", "update_schedule", "delete_schedule"):
            setattr(
                EventBridgeSchedulerBackend,
                name,
                _notifying(getattr(EventBridgeSchedulerBackend, name), _schedule_listeners),
            )
        for name in QUEUE_WRITES:
            setattr(SQSBackend, name, _notifying(getattr(SQSBackend, name), _queue_listeners))
        _installed = True
