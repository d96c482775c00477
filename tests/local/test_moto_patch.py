"""The moto patch (``mineduel.local.moto_patch``): transactions that cost what they touch and
leave the table and its stream alone when cancelled, a stream that keeps 24 hours, iterators
that expire, TTL that deletes, and writes that can be waited for.

Each test talks to moto through boto3 (``mock_aws``) as the service does.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.dynamodb.models import dynamodb_backends
from moto.dynamodb.models.table import Table

from mineduel.local import moto_patch

REGION = "us-east-1"
TABLE = "patched"


class Clock:
    """A clock the test moves (the local stack's clock, in miniature)."""

    def __init__(self) -> None:
        self.at = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock() -> Iterator[Clock]:
    moto_patch.install()
    found = Clock()
    moto_patch.configure(found)
    yield found
    moto_patch.configure(None)


@pytest.fixture
def ddb(clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Current botocore's account-based DynamoDB endpoints are not moto's (the stack sets this).
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(
            TableName=TABLE,
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        )
        client.update_time_to_live(
            TableName=TABLE,
            TimeToLiveSpecification={"AttributeName": "expires_ttl", "Enabled": True},
        )
        yield client


def _table() -> Table:
    table: Table = dynamodb_backends["123456789012"][REGION].tables[TABLE]
    return table


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _stream() -> tuple[Any, str, str]:
    streams = boto3.client("dynamodbstreams", region_name=REGION)
    arn = streams.list_streams(TableName=TABLE)["Streams"][0]["StreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    return streams, arn, shard


def _iterator(kind: str = "LATEST") -> tuple[Any, str]:
    streams, arn, shard = _stream()
    found = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType=kind)
    return streams, found["ShardIterator"]


def _read(streams: Any, iterator: str) -> tuple[list[dict[str, Any]], str]:
    answer = streams.get_records(ShardIterator=iterator)
    return answer["Records"], answer["NextShardIterator"]


def _set_n(pk: str, sk: str, n: int) -> dict[str, Any]:
    """A transaction's ``Update`` setting ``n`` on one item."""
    return {
        "Update": {
            "TableName": TABLE,
            "Key": _key(pk, sk),
            "UpdateExpression": "SET n = :n",
            "ExpressionAttributeValues": {":n": {"N": str(n)}},
        }
    }


def _cancelled(ddb: Any) -> None:
    """A transaction that updates one item, puts a new one, deletes a third, and fails on a
    fourth's condition: it must change nothing."""
    with pytest.raises(ClientError) as refused:
        ddb.transact_write_items(
            TransactItems=[
                _set_n("A", "1", 99),
                {"Put": {"TableName": TABLE, "Item": {**_key("A", "new"), "n": {"N": "1"}}}},
                {"Delete": {"TableName": TABLE, "Key": _key("A", "2")}},
                {
                    "ConditionCheck": {
                        "TableName": TABLE,
                        "Key": _key("B", "1"),
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
            ]
        )
    assert refused.value.response["Error"]["Code"] == "TransactionCanceledException"


def test_a_cancelled_transaction_changes_nothing_and_keeps_the_table_and_its_stream(
    ddb: Any,
) -> None:
    ddb.put_item(TableName=TABLE, Item={**_key("A", "1"), "n": {"N": "1"}})
    ddb.put_item(TableName=TABLE, Item={**_key("A", "2"), "n": {"N": "2"}})
    table, shard = _table(), _table().stream_shard
    streams, iterator = _iterator()

    _cancelled(ddb)

    assert _table() is table and table.stream_shard is shard
    items = ddb.query(
        TableName=TABLE,
        KeyConditionExpression="pk = :a",
        ExpressionAttributeValues={":a": {"S": "A"}},
    )["Items"]
    assert sorted((i["sk"]["S"], i["n"]["N"]) for i in items) == [("1", "1"), ("2", "2")]
    records, iterator = _read(streams, iterator)
    assert records == []  # the cancelled Put, Update and Delete never reached the stream

    ddb.put_item(TableName=TABLE, Item={**_key("A", "3"), "n": {"N": "3"}})
    records, _ = _read(streams, iterator)  # the same iterator still sees the next write
    assert [(r["eventName"], r["dynamodb"]["Keys"]["sk"]["S"]) for r in records] == [
        ("INSERT", "3")
    ]


def test_a_transaction_copies_the_items_it_names_never_a_table(
    ddb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(50):
        ddb.put_item(TableName=TABLE, Item={**_key("P", str(n)), "n": {"N": str(n)}})

    def refuse(self: Table, memo: Any) -> Table:
        raise AssertionError("a whole table was deep-copied")

    monkeypatch.setattr(Table, "__deepcopy__", refuse, raising=False)
    ddb.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {**_key("P", "x"), "n": {"N": "1"}}}},
            {"Delete": {"TableName": TABLE, "Key": _key("P", "0")}},
        ]
    )
    _cancelled(ddb)
    assert ddb.get_item(TableName=TABLE, Key=_key("P", "x"))["Item"]["n"] == {"N": "1"}
    assert "Item" not in ddb.get_item(TableName=TABLE, Key=_key("P", "0"))


def test_a_successful_transaction_writes_each_change_once_to_the_stream(ddb: Any) -> None:
    ddb.put_item(TableName=TABLE, Item={**_key("A", "1"), "n": {"N": "1"}})
    streams, iterator = _iterator()
    ddb.transact_write_items(
        TransactItems=[
            _set_n("A", "1", 2),
            {"Put": {"TableName": TABLE, "Item": {**_key("A", "2"), "n": {"N": "1"}}}},
        ]
    )
    records, _ = _read(streams, iterator)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["sk"]["S"]) for r in records] == [
        ("MODIFY", "1"),
        ("INSERT", "2"),
    ]
    assert records[0]["dynamodb"]["OldImage"]["n"] == {"N": "1"}
    kept = _table().stream_shard.items  # type: ignore[union-attr]
    assert all(moto_patch.PACKED in r.__dict__ for r in kept)  # a day of them is kept: packed


def test_an_update_that_creates_an_item_writes_one_insert(ddb: Any) -> None:
    streams, iterator = _iterator()
    update = {
        "UpdateExpression": "SET n = :n",
        "ExpressionAttributeValues": {":n": {"N": "7"}},
    }
    ddb.update_item(TableName=TABLE, Key=_key("U", "1"), **update)
    ddb.transact_write_items(
        TransactItems=[{"Update": {"TableName": TABLE, "Key": _key("U", "2"), **update}}]
    )
    ddb.update_item(TableName=TABLE, Key=_key("U", "1"), **update)  # exists now: a MODIFY
    records, _ = _read(streams, iterator)
    assert [(r["eventName"], r["dynamodb"]["NewImage"].get("n")) for r in records] == [
        ("INSERT", {"N": "7"}),
        ("INSERT", {"N": "7"}),
        ("MODIFY", {"N": "7"}),
    ]


def test_stream_writes_are_signalled_once_a_transaction_succeeds(ddb: Any) -> None:
    seen: list[str] = []
    stop = moto_patch.on_stream_write(seen.append)
    try:
        _cancelled(ddb)
        assert seen == []
        ddb.put_item(TableName=TABLE, Item=_key("A", "9"))
        assert seen == [TABLE]
    finally:
        stop()


def test_the_stream_keeps_24_hours_by_the_stacks_clock(ddb: Any, clock: Clock) -> None:
    ddb.put_item(TableName=TABLE, Item=_key("old", "1"))
    streams, early = _iterator("TRIM_HORIZON")
    clock.at += timedelta(hours=24, seconds=1)
    ddb.put_item(TableName=TABLE, Item=_key("new", "1"))

    _, horizon = _iterator("TRIM_HORIZON")
    records, _ = _read(streams, horizon)
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records] == ["new"]
    with pytest.raises(ClientError) as trimmed:
        _read(streams, early)
    assert trimmed.value.response["Error"]["Code"] == "TrimmedDataAccessException"

    clock.at += timedelta(hours=25)
    assert moto_patch.trim_streams(clock()) == 1  # an idle stream is trimmed by the sweep
    assert _table().stream_shard.items == []  # type: ignore[union-attr]


def test_shard_iterators_expire_after_15_minutes_and_are_dropped(
    ddb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(moto_patch, "_monotonic", lambda: now[0])
    streams, iterator = _iterator()
    for _ in range(20):
        _, iterator = _read(streams, iterator)
    backend = next(iter(_table_streams_backends()))
    assert len(backend.shard_iterators) == 21
    now[0] += 15 * 60 + 1
    with pytest.raises(ClientError) as expired:
        _read(streams, iterator)
    assert expired.value.response["Error"]["Code"] == "ExpiredIteratorException"
    assert len(backend.shard_iterators) == 0
    with pytest.raises(ClientError) as unknown:
        _read(streams, "arn:aws:dynamodb:us-east-1:123456789012:table/patched/stream/x|1|nope")
    assert unknown.value.response["Error"]["Code"] == "ExpiredIteratorException"


def _table_streams_backends() -> Iterator[Any]:
    from moto.dynamodbstreams.models import dynamodbstreams_backends  # noqa: PLC0415

    yield dynamodbstreams_backends["123456789012"][REGION]


def test_ttl_deletes_expired_items_as_the_dynamodb_service(ddb: Any, clock: Clock) -> None:
    now = int(clock().timestamp())
    ddb.put_item(TableName=TABLE, Item={**_key("T", "past"), "expires_ttl": {"N": str(now - 1)}})
    ddb.put_item(TableName=TABLE, Item={**_key("T", "soon"), "expires_ttl": {"N": str(now + 60)}})
    ancient = now - 6 * 365 * 86400
    ddb.put_item(TableName=TABLE, Item={**_key("T", "ancient"), "expires_ttl": {"N": str(ancient)}})
    ddb.put_item(TableName=TABLE, Item={**_key("T", "text"), "expires_ttl": {"S": "1"}})
    ddb.put_item(TableName=TABLE, Item=_key("T", "none"))
    streams, iterator = _iterator()

    assert moto_patch.delete_expired(clock()) == 1

    left = ddb.query(
        TableName=TABLE,
        KeyConditionExpression="pk = :t",
        ExpressionAttributeValues={":t": {"S": "T"}},
    )["Items"]
    assert sorted(i["sk"]["S"] for i in left) == ["ancient", "none", "soon", "text"]
    records, _ = _read(streams, iterator)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["sk"]["S"]) for r in records] == [
        ("REMOVE", "past")
    ]
    assert records[0]["userIdentity"] == {
        "Type": "Service",
        "PrincipalId": "dynamodb.amazonaws.com",
    }
    assert records[0]["dynamodb"]["OldImage"]["sk"] == {"S": "past"}

    clock.at += timedelta(seconds=61)
    assert moto_patch.delete_expired(clock()) == 1
    assert "Item" not in ddb.get_item(TableName=TABLE, Key=_key("T", "soon"))


def test_reads_of_missing_keys_leave_no_partition_behind_after_a_sweep(
    ddb: Any, clock: Clock
) -> None:
    for n in range(5):
        ddb.get_item(TableName=TABLE, Key=_key(f"missing-{n}", "x"))
    moto_patch.delete_expired(clock())
    assert not any(str(h.value).startswith("missing-") for h in _table().items)


def test_queries_answer_as_moto_does_reading_only_what_they_need(ddb: Any) -> None:
    ddb.update_table(
        TableName=TABLE,
        AttributeDefinitions=[
            {"AttributeName": "g", "AttributeType": "S"},
            {"AttributeName": "n", "AttributeType": "N"},
        ],
        GlobalSecondaryIndexUpdates=[
            {
                "Create": {
                    "IndexName": "by-g",
                    "KeySchema": [
                        {"AttributeName": "g", "KeyType": "HASH"},
                        {"AttributeName": "n", "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "ALL"},
                }
            }
        ],
    )
    for pk in ("A", "B", "C"):
        for n in (3, 1, 2):
            item = {**_key(pk, f"s{n}"), "n": {"N": str(10 * n + ord(pk))}, "g": {"S": "all"}}
            ddb.put_item(TableName=TABLE, Item=item)

    def query(**extra: Any) -> list[str]:
        answer = ddb.query(TableName=TABLE, **extra)
        return [f"{i['pk']['S']}{i['sk']['S']}" for i in answer["Items"]]

    b = {"KeyConditionExpression": "pk = :b", "ExpressionAttributeValues": {":b": {"S": "B"}}}
    assert query(**b) == ["Bs1", "Bs2", "Bs3"]
    assert query(**b, ScanIndexForward=False, Limit=2) == ["Bs3", "Bs2"]
    assert query(**b, ExclusiveStartKey=_key("B", "s1")) == ["Bs2", "Bs3"]
    assert query(
        KeyConditionExpression="pk = :b AND begins_with(sk, :s)",
        ExpressionAttributeValues={":b": {"S": "B"}, ":s": {"S": "s2"}},
    ) == ["Bs2"]
    assert (
        query(KeyConditionExpression="pk = :z", ExpressionAttributeValues={":z": {"S": "Z"}}) == []
    )
    by_g = query(
        IndexName="by-g",
        KeyConditionExpression="g = :g",
        ExpressionAttributeValues={":g": {"S": "all"}},
    )
    assert by_g == ["As1", "Bs1", "Cs1", "As2", "Bs2", "Cs2", "As3", "Bs3", "Cs3"]
    assert len(_table().all_items()) == 9  # outside a query: every item, as moto lists them


def test_a_sparse_index_is_read_from_its_items_until_the_table_is_written(ddb: Any) -> None:
    """The items holding an index's key are listed once and kept until a write: every write
    path (put, update in place, delete, a cancelled transaction's restore) makes the next query
    list them again, so a query never misses an item or returns one that left the index."""
    ddb.update_table(
        TableName=TABLE,
        AttributeDefinitions=[{"AttributeName": "due", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[
            {
                "Create": {
                    "IndexName": "by-due",
                    "KeySchema": [{"AttributeName": "due", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"},
                }
            }
        ],
    )
    for n in range(30):  # most items are not in the sparse index
        ddb.put_item(TableName=TABLE, Item={**_key("P", f"{n:02}"), "n": {"N": str(n)}})
    ddb.put_item(TableName=TABLE, Item={**_key("G", "1"), "due": {"S": "s0"}})

    def due(shard: str = "s0") -> list[str]:
        answer = ddb.query(
            TableName=TABLE,
            IndexName="by-due",
            KeyConditionExpression="due = :s",
            ExpressionAttributeValues={":s": {"S": shard}},
        )
        return sorted(f"{i['pk']['S']}{i['sk']['S']}" for i in answer["Items"])

    assert due() == ["G1"]
    kept = getattr(_table(), moto_patch.HOLDING)["due"][1]
    assert [item.attrs["pk"].value for item in kept] == ["G"]  # the one item holding it
    assert due("s1") == [] and getattr(_table(), moto_patch.HOLDING)["due"][1] is kept

    set_due = {"UpdateExpression": "SET due = :s", "ExpressionAttributeValues": {":s": {"S": "s0"}}}
    ddb.update_item(TableName=TABLE, Key=_key("P", "03"), **set_due)  # in place
    assert due() == ["G1", "P03"]
    ddb.update_item(TableName=TABLE, Key=_key("G", "1"), UpdateExpression="REMOVE due")
    assert due() == ["P03"]
    ddb.put_item(TableName=TABLE, Item={**_key("P", "04"), "due": {"S": "s0"}})
    assert due() == ["P03", "P04"]
    ddb.delete_item(TableName=TABLE, Key=_key("P", "03"))
    assert due() == ["P04"]
    before = getattr(_table(), moto_patch.HOLDING)["due"][1]
    with pytest.raises(ClientError):  # sets due on P05, then fails: P05 is put back as it was
        ddb.transact_write_items(
            TransactItems=[
                {"Update": {"TableName": TABLE, "Key": _key("P", "05"), **set_due}},
                {
                    "ConditionCheck": {
                        "TableName": TABLE,
                        "Key": _key("Z", "1"),
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
            ]
        )
    assert due() == ["P04"]
    assert getattr(_table(), moto_patch.HOLDING)["due"][1] is not before  # listed again


def test_get_records_answers_what_motos_serializer_answers(
    ddb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    streams, iterator = _iterator()
    every_type = {
        **_key("T", "all"),
        "s": {"S": "text"},
        "n": {"N": "12.5"},
        "b": {"B": b"\x00\x01binary"},
        "ss": {"SS": ["a", "b"]},
        "ns": {"NS": ["1", "2"]},
        "bs": {"BS": [b"x", b"y"]},
        "m": {"M": {"inner": {"L": [{"S": "x"}, {"N": "1"}, {"BOOL": True}, {"NULL": True}]}}},
        "expires_ttl": {"N": str(int(datetime(2029, 6, 1, tzinfo=UTC).timestamp()))},
    }
    ddb.put_item(TableName=TABLE, Item=every_type)
    moto_patch.delete_expired(datetime(2030, 1, 1, tzinfo=UTC))  # a REMOVE with userIdentity
    ours = streams.get_records(ShardIterator=iterator)
    monkeypatch.setattr(
        moto_patch.DynamoDBStreamsHandler,
        "get_records",
        moto_patch._original_get_records_response,
    )
    theirs = streams.get_records(ShardIterator=iterator)
    assert [r["eventName"] for r in ours["Records"]] == ["INSERT", "REMOVE"]
    for mine, moto_s in zip(ours["Records"], theirs["Records"], strict=True):
        # DynamoDB Streams rounds the creation time down to the second; moto keeps milliseconds
        when = moto_s["dynamodb"].pop("ApproximateCreationDateTime")
        assert mine["dynamodb"].pop("ApproximateCreationDateTime") == when.replace(microsecond=0)
        assert mine == moto_s
    assert ours["Records"][0]["dynamodb"]["NewImage"]["b"] == {"B": b"\x00\x01binary"}


def test_the_installed_moto_is_the_release_the_patch_was_written_for() -> None:
    """The patch leans on moto's internals: the lock pins the release it was reviewed against,
    and any other release (an upgrade of the lock, a hand install) is named here until the patch
    is reviewed again and ``MOTO_VERSION`` moved with the pin."""
    installed = version("moto")
    assert installed == moto_patch.MOTO_VERSION, (
        f"moto {installed} is installed; the local stack's patch was written for "
        f"{moto_patch.MOTO_VERSION}: review src/mineduel/local/moto_patch.py against it "
        "(docs/local.md, The moto patch), then move MOTO_VERSION and the pin in pyproject.toml"
    )
    pin = f"]=={moto_patch.MOTO_VERSION}"
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert any(pin in line for line in pyproject.splitlines() if '"moto[' in line)
