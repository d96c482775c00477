"""The cost benchmark's secondary index writes: DynamoDB's GSI write rules, applied to the items
as they were before and after each write the meter sees (on moto), and read from the template."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from mineduel.benchmarks.indexes import SecondaryIndex, TableModel, tables_of
from mineduel.benchmarks.metering import Meter
from mineduel.template import load_template

TABLE = "games"
PROPERTIES: dict[str, Any] = {
    "KeySchema": [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ],
    "AttributeDefinitions": [
        {"AttributeName": name, "AttributeType": kind}
        for name, kind in (
            ("pk", "S"),
            ("sk", "S"),
            ("due_shard", "S"),
            ("due_at", "S"),
            ("lb_shard", "S"),
            ("lb_score", "N"),
            ("lobby", "S"),
            ("lobby_at", "S"),
        )
    ],
    "GlobalSecondaryIndexes": [
        {
            "IndexName": "deadlines",
            "KeySchema": [
                {"AttributeName": "due_shard", "KeyType": "HASH"},
                {"AttributeName": "due_at", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
        },
        {
            "IndexName": "board",
            "KeySchema": [
                {"AttributeName": "lb_shard", "KeyType": "HASH"},
                {"AttributeName": "lb_score", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["name"]},
        },
        {
            "IndexName": "lobby",
            "KeySchema": [
                {"AttributeName": "lobby_at", "KeyType": "RANGE"},
                {"AttributeName": "lobby", "KeyType": "HASH"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        },
    ],
}
"""A table as template.yaml declares one (CloudFormation's properties are CreateTable's)."""
MODEL = TableModel.from_properties(PROPERTIES)
KEY = {"pk": {"S": "GAME#1"}, "sk": {"S": "GAME"}}
DUE = {"due_shard": {"S": "D#1"}, "due_at": {"S": "2026-01-01T00:01:00Z"}}


def test_the_model_reads_keys_and_projections_from_the_properties() -> None:
    assert MODEL.keys == ("pk", "sk")
    deadlines, board, lobby = MODEL.indexes
    assert deadlines == SecondaryIndex("deadlines", ("due_shard", "due_at"), "KEYS_ONLY")
    assert board.included == frozenset({"name"})
    assert lobby.keys == ("lobby", "lobby_at")  # HASH first, whatever the order written


def test_the_templates_table_has_its_indexes() -> None:
    (table,) = tables_of(load_template()).values()
    assert table.keys == ("pk", "sk")
    by_name = {index.name: index for index in table.indexes}
    assert by_name["deadlines"].keys == ("due_shard", "due_at")
    assert by_name["deadlines"].projection == "KEYS_ONLY"
    assert by_name["lobby"].projection == "ALL"
    assert by_name["leaderboard"].projection == "INCLUDE"
    assert {"rating", "username"} <= by_name["leaderboard"].included


@pytest.mark.parametrize(
    ("before", "after", "units"),
    [
        ({**KEY, "state": {"S": "a"}}, {**KEY, "state": {"S": "b"}}, {}),  # not in any index
        ({**KEY, **DUE}, {**KEY, **DUE, "state": {"S": "b"}}, {}),  # keys only: key unchanged
        (
            {**KEY, **DUE},
            {**KEY, **DUE, "due_at": {"S": "2026-01-01T00:02:00Z"}},
            {"deadlines": 2.0},  # key changed: a delete and a put
        ),
        ({**KEY}, {**KEY, **DUE}, {"deadlines": 1.0}),  # enters the sparse index
        ({**KEY, **DUE}, {**KEY, "due_at": DUE["due_at"]}, {"deadlines": 1.0}),  # leaves it
        (None, {**KEY, **DUE}, {"deadlines": 1.0}),  # a new item
        ({**KEY, **DUE}, None, {"deadlines": 1.0}),  # deleted
        (None, None, {}),
    ],
)
def test_index_writes_follow_dynamodbs_rules(
    before: dict[str, Any] | None, after: dict[str, Any] | None, units: dict[str, float]
) -> None:
    assert MODEL.index_write_units(before, after) == units


def test_projected_attributes_cost_a_write_and_others_none() -> None:
    listed = {**KEY, "lb_shard": {"S": "B#1"}, "lb_score": {"N": "1500"}, "name": {"S": "ada"}}
    renamed = {**listed, "name": {"S": "ada2"}}
    assert MODEL.index_write_units(listed, renamed) == {"board": 1.0}  # included: projected
    assert MODEL.index_write_units(listed, {**listed, "games": {"N": "3"}}) == {}
    assert MODEL.index_write_units(listed, {**listed, "lb_score": {"N": "1510"}}) == {"board": 2.0}
    waiting = {**KEY, "lobby": {"S": "LOBBY#x"}, "lobby_at": {"S": "t#1"}}
    big = {**waiting, "state": {"S": "x" * 1500}}
    assert MODEL.index_write_units(waiting, {**waiting, "n": {"N": "1"}}) == {"lobby": 1.0}
    assert MODEL.index_write_units(big, {**big, "n": {"N": "1"}}) == {"lobby": 2.0}  # 1.5 KB


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Meter, Any]]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        meter = Meter({TABLE: MODEL})
        client = boto3.client("dynamodb")
        client.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST", **PROPERTIES)
        yield meter, client


def _update(client: Any, expression: str, values: dict[str, Any] | None = None) -> None:
    extra = {"ExpressionAttributeValues": values} if values else {}
    client.update_item(TableName=TABLE, Key=KEY, UpdateExpression=expression, **extra)


def test_the_meter_charges_index_writes_from_the_items_before_and_after(table: Any) -> None:
    meter, client = table
    with meter.measure("create") as create:
        client.put_item(TableName=TABLE, Item={**KEY, **DUE, "state": {"S": "s"}})
    with meter.measure("same key") as same:
        client.update_item(
            TableName=TABLE,
            Key=KEY,
            UpdateExpression="SET #s = :s",
            ExpressionAttributeNames={"#s": "state"},
            ExpressionAttributeValues={":s": {"S": "t"}},
        )
    with meter.measure("moved") as moved:
        _update(client, "SET due_at = :d", {":d": {"S": "2026-01-01T00:05:00Z"}})
    with meter.measure("moved in a transaction") as transaction:
        client.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": TABLE,
                        "Key": KEY,
                        "UpdateExpression": "SET due_at = :d",
                        "ExpressionAttributeValues": {":d": {"S": "2026-01-01T00:09:00Z"}},
                    }
                }
            ]
        )
    with meter.measure("over") as over:
        _update(client, "REMOVE due_shard, due_at")

    assert create.index_units == {"deadlines": 1.0}
    assert create.write_units == 1.0
    assert same.index_units == {}  # KEYS_ONLY, key unchanged: the index is not written
    assert same.operations() == {"DynamoDB:UpdateItem": 1}  # the meter's own reads: not charged
    assert moved.index_units == {"deadlines": 2.0}
    assert transaction.write_units == 2.0  # the table's item: doubled in a transaction
    assert transaction.index_units == {"deadlines": 2.0}  # the index: not doubled
    assert over.index_units == {"deadlines": 1.0}  # leaves the sparse index
    assert over.all_write_units == 2.0


def test_the_image_before_a_write_is_the_backends_not_the_meters(table: Any) -> None:
    """An item written by something the meter did not measure is judged as it really was."""
    meter, client = table
    with meter.measure("create") as create:
        client.put_item(TableName=TABLE, Item=dict(KEY))
    client.put_item(TableName=TABLE, Item={**KEY, **DUE})  # unmeasured: enters the index
    with meter.measure("delete") as delete:
        client.delete_item(TableName=TABLE, Key=KEY)
    with meter.measure("batch") as batch:
        client.batch_write_item(
            RequestItems={
                TABLE: [
                    {"PutRequest": {"Item": {"pk": {"S": f"GAME#{n}"}, "sk": {"S": "GAME"}, **DUE}}}
                    for n in (2, 3)
                ]
            }
        )
    assert create.index_units == {}
    assert delete.index_units == {"deadlines": 1.0}
    assert batch.index_units == {"deadlines": 2.0}
    assert batch.write_units == 2.0


def test_a_write_is_billed_on_the_larger_image(table: Any) -> None:
    meter, client = table
    client.put_item(TableName=TABLE, Item={**KEY, "state": {"S": "x" * 1500}})
    with meter.measure("shrink") as shrink:
        client.put_item(TableName=TABLE, Item=dict(KEY))
    with meter.measure("delete") as delete:
        client.delete_item(TableName=TABLE, Key=KEY)
    assert shrink.write_units == 2.0  # the 1.5 KB item it replaced
    assert delete.write_units == 1.0


def test_a_table_the_meter_was_not_told_about_is_an_error(table: Any) -> None:
    meter, client = table
    client.create_table(TableName="other", BillingMode="PAY_PER_REQUEST", **PROPERTIES)
    with (
        pytest.raises(KeyError, match="does not know the table 'other'"),
        meter.measure("unknown"),
    ):
        client.put_item(TableName="other", Item=dict(KEY))
