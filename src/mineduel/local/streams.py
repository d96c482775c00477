"""DynamoDB Streams -> Lambda for the local stack: what an event source mapping does.

moto keeps a table's stream (``dynamodbstreams``) but never invokes a function with it. This
poller does, for each function of the template with a ``DynamoDB`` event:

- it reads every shard of the stream from where it started (``StartingPosition: LATEST``, as
  the template says) and hands the new records to the function in one event per batch (at most
  ``BatchSize``), in Lambda's record format (binary attributes base64-encoded,
  ``ApproximateCreationDateTime`` in epoch seconds, ``userIdentity`` as Lambda spells it);
- it reads when the stream is written: with the embedded moto, the moto patch tells it
  (:meth:`StreamPoller.wake`, from ``mineduel.local.moto_patch.on_stream_write``), and it
  sleeps otherwise, reading once every ``SAFETY_POLL_S`` in case; with an endpoint of your
  own it polls, every ``interval_s`` while records come and backing off to ``MAX_BACKOFF_S``
  while none do;
- it applies the event's ``FilterCriteria`` first (exact values, ``prefix`` and nested keys:
  what the template uses), so the function sees what it would see on AWS;
- a function that raises gets the same batch again, up to ``MaximumRetryAttempts``, then the
  batch is skipped (logged), as Lambda does without an on-failure destination;
- an iterator that expired (15 minutes unused) is replaced by one after the last record read;
  one that points at records the stream no longer keeps (24 hours) starts again at the oldest
  kept, as Lambda's mapping does.

Needs ``AWS_ACCOUNT_ID_ENDPOINT_MODE=disabled`` with current botocore, whose account-based
DynamoDB endpoints moto does not answer (the stack sets it).
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

import boto3
from botocore.exceptions import ClientError

from .template import Template

LOG = logging.getLogger("mineduel-local.streams")
DEFAULT_BATCH = 100
DEFAULT_RETRIES = 2
SAFETY_POLL_S = 30.0
"""Told of every write, the poller still reads this often (and so keeps its iterators fresh)."""
MAX_BACKOFF_S = 2.0
"""Not told of writes (an endpoint of your own), it polls at most this far apart when idle."""

Deliver = Callable[[str, dict[str, Any]], Any]
"""Invoke a function (logical id) synchronously with an event; raises if the function failed."""


def matches(pattern: Any, value: Any) -> bool:
    """Whether ``value`` (a record as Lambda sees it) matches an event filter ``pattern``."""
    if isinstance(pattern, dict):
        if not isinstance(value, dict):
            return False
        return all(matches(sub, value.get(key)) for key, sub in pattern.items())
    if isinstance(pattern, list):
        return any(_one_of(choice, value) for choice in pattern)
    return bool(pattern == value)


def _one_of(choice: Any, value: Any) -> bool:
    if isinstance(choice, dict) and "prefix" in choice:
        return isinstance(value, str) and value.startswith(str(choice["prefix"]))
    return bool(choice == value)


def lambda_record(record: dict[str, Any], stream_arn: str, region: str) -> dict[str, Any]:
    """A boto3 stream record in the shape Lambda's event carries it."""
    change = dict(record["dynamodb"])
    for image in ("Keys", "NewImage", "OldImage"):
        if image in change:
            change[image] = {name: _json_value(v) for name, v in change[image].items()}
    when = change.get("ApproximateCreationDateTime")
    if isinstance(when, datetime):
        change["ApproximateCreationDateTime"] = int(when.timestamp())
    found = {
        "eventID": record.get("eventID"),
        "eventName": record.get("eventName"),
        "eventVersion": record.get("eventVersion", "1.1"),
        "eventSource": "aws:dynamodb",
        "awsRegion": region,
        "dynamodb": change,
        "eventSourceARN": stream_arn,
    }
    identity = record.get("userIdentity")
    if identity:  # GetRecords' Identity shape; Lambda's event spells it in camel case
        found["userIdentity"] = {
            "type": identity.get("Type", identity.get("type")),
            "principalId": identity.get("PrincipalId", identity.get("principalId")),
        }
    return found


def _json_value(value: dict[str, Any]) -> dict[str, Any]:
    (kind, raw), *_ = value.items()
    if kind == "B":
        return {"B": base64.b64encode(bytes(raw)).decode("ascii")}
    if kind == "BS":
        return {"BS": [base64.b64encode(bytes(b)).decode("ascii") for b in raw]}
    if kind == "M":
        return {"M": {k: _json_value(v) for k, v in raw.items()}}
    if kind == "L":
        return {"L": [_json_value(v) for v in raw]}
    return {kind: raw}


class StreamPoller:
    """Feeds one function from one table stream; :meth:`run_now` drains it at once."""

    def __init__(
        self,
        function: str,
        stream_arn: str,
        region: str,
        deliver: Deliver,
        filters: list[Any] | None = None,
        batch_size: int = DEFAULT_BATCH,
        retries: int = DEFAULT_RETRIES,
        interval_s: float = 0.05,
    ) -> None:
        self.function = function
        self._arn = stream_arn
        self._region = region
        self._deliver = deliver
        self._filters = filters or []
        self._batch = batch_size
        self._retries = retries
        self._interval = interval_s
        self._told_of_writes = False
        self._client = boto3.client("dynamodbstreams", region_name=region)
        self._iterators: dict[str, str | None] = {}
        self._last_read: dict[str, str] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._written = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stream-poller", daemon=True)
        self.polls = 0
        """How many times the stream was read (``GetRecords`` calls), for the tests."""
        self._subscribe_shards("LATEST")

    @property
    def table_name(self) -> str:
        """The table whose stream this is (``arn:...:table/NAME/stream/...``)."""
        return self._arn.split(":", 5)[5].split("/")[1]

    def _subscribe_shards(self, position: Literal["LATEST", "TRIM_HORIZON"]) -> None:
        shards = self._client.describe_stream(StreamArn=self._arn)["StreamDescription"]["Shards"]
        for shard in shards:
            if shard["ShardId"] not in self._iterators:
                self._iterators[shard["ShardId"]] = self._iterator(shard["ShardId"], position)

    def _iterator(
        self,
        shard: str,
        position: Literal["LATEST", "TRIM_HORIZON", "AFTER_SEQUENCE_NUMBER"],
        after: str | None = None,
    ) -> str:
        extra = {"SequenceNumber": after} if after is not None else {}
        answer = self._client.get_shard_iterator(
            StreamArn=self._arn, ShardId=shard, ShardIteratorType=position, **extra
        )
        return str(answer["ShardIterator"])

    def wake(self) -> None:
        """The stream was written: read it now (and from now on, sleep until told)."""
        self._told_of_writes = True
        self._written.set()

    def run_now(self) -> int:
        """Read every shard and deliver what is new; how many records were delivered."""
        with self._lock:
            delivered = 0
            for shard, start in list(self._iterators.items()):
                iterator = start
                while iterator:
                    answer = self._read(shard, iterator)
                    iterator = answer.get("NextShardIterator")
                    self._iterators[shard] = iterator
                    if answer["Records"]:
                        self._last_read[shard] = answer["Records"][-1]["dynamodb"]["SequenceNumber"]
                    records = [
                        lambda_record(dict(r), self._arn, self._region) for r in answer["Records"]
                    ]
                    wanted = [r for r in records if self._wanted(r)]
                    if wanted:
                        self._deliver_batch(wanted)
                        delivered += len(wanted)
                    if not answer["Records"]:
                        break  # read to its end, what the deliveries themselves wrote included
            return delivered

    def _read(self, shard: str, iterator: str) -> dict[str, Any]:
        """One ``GetRecords``, replacing an iterator that expired or points at trimmed data."""
        self.polls += 1
        try:
            return dict(self._client.get_records(ShardIterator=iterator, Limit=self._batch))
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code")
            if code == "ExpiredIteratorException":
                last = self._last_read.get(shard)
                fresh = (
                    self._iterator(shard, "AFTER_SEQUENCE_NUMBER", last)
                    if last is not None
                    else self._iterator(shard, "LATEST")
                )
            elif code == "TrimmedDataAccessException":
                LOG.error("%s: records were trimmed before they were read", self.function)
                fresh = self._iterator(shard, "TRIM_HORIZON")
            else:
                raise
            return dict(self._client.get_records(ShardIterator=fresh, Limit=self._batch))

    def _wanted(self, record: dict[str, Any]) -> bool:
        return not self._filters or any(matches(f, record) for f in self._filters)

    def _deliver_batch(self, records: list[dict[str, Any]]) -> None:
        for attempt in range(self._retries + 1):
            try:
                self._deliver(self.function, {"Records": records})
                return
            except Exception:
                LOG.exception("%s failed on a stream batch (attempt %d)", self.function, attempt)
        LOG.error("%s: a batch of %d records skipped after retries", self.function, len(records))

    def _run(self) -> None:
        pause = self._interval
        while not self._stop.is_set():
            self._written.wait(SAFETY_POLL_S if self._told_of_writes else pause)
            self._written.clear()
            if self._stop.is_set():
                return
            try:
                delivered = self.run_now()
            except Exception:
                LOG.exception("stream poll failed")
                delivered = 0
            # Not told of writes: poll fast while records come, back off while none do.
            pause = self._interval if delivered else min(pause * 2, MAX_BACKOFF_S)

    def start(self) -> StreamPoller:
        """Poll in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop polling after the current poll."""
        self._stop.set()
        self._written.set()
        if self._thread.is_alive():
            self._thread.join()


def stream_pollers(
    template: Template, stream_arn_of: Callable[[Any], str], region: str, deliver: Deliver
) -> list[StreamPoller]:
    """A poller for every ``DynamoDB`` event of the template's functions."""
    found = []
    for logical_id, fn in template.functions.items():
        for event in fn.properties.get("Events", {}).values():
            if event.get("Type") != "DynamoDB":
                continue
            props = event["Properties"]
            filters = [
                json.loads(f["Pattern"]) for f in props.get("FilterCriteria", {}).get("Filters", [])
            ]
            found.append(
                StreamPoller(
                    logical_id,
                    stream_arn_of(props["Stream"]),
                    region,
                    deliver,
                    filters,
                    int(props.get("BatchSize", DEFAULT_BATCH)),
                    int(props.get("MaximumRetryAttempts", DEFAULT_RETRIES)),
                )
            )
    return found
