"""The cost benchmark's instruments: DynamoDB's size rules, call metering on moto, the writes of
the table's secondary indexes, and the live fan-out fed from the stream in the cost scenario."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from mineduel.benchmarks.capacity import item_size, read_units, value_size, write_units
from mineduel.benchmarks.cost import README, README_FIGURES
from mineduel.benchmarks.indexes import TableModel
from mineduel.benchmarks.metering import Meter


def test_sizes_follow_dynamodbs_rules() -> None:
    assert item_size({"id": {"S": "abc"}}) == 5
    assert value_size({"S": "é"}) == 2
    assert value_size({"N": "123"}) == 3
    assert value_size({"N": "-0.05"}) == 2
    assert value_size({"B": b"\x00" * 10}) == 10
    assert value_size({"BOOL": True}) == 1
    assert value_size({"L": [{"S": "ab"}, {"NULL": True}]}) == 3 + (2 + 1) + (1 + 1)
    assert value_size({"M": {"k": {"S": "v"}}}) == 3 + 1 + 1 + 1


@pytest.mark.parametrize(
    ("size", "consistent", "transactional", "units"),
    [
        (0, True, False, 1.0),
        (4096, True, False, 1.0),
        (4097, True, False, 2.0),
        (100, False, False, 0.5),
        (5000, False, True, 4.0),
    ],
)
def test_read_units_round_up_per_4_kb(
    size: int, consistent: bool, transactional: bool, units: float
) -> None:
    assert read_units(size, consistent=consistent, transactional=transactional) == units


def test_write_units_round_up_per_kb_and_double_in_a_transaction() -> None:
    assert write_units(1) == 1.0
    assert write_units(1025) == 2.0
    assert write_units(1400, transactional=True) == 4.0


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    properties = {
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    }
    with mock_aws():
        meter = Meter({"t": TableModel.from_properties(properties)})
        client = boto3.client("dynamodb")
        client.create_table(TableName="t", BillingMode="PAY_PER_REQUEST", **properties)
        yield meter, client


def test_calls_are_charged_to_the_request_measured_in_their_thread(table: Any) -> None:
    meter, client = table
    big = {"pk": {"S": "g"}, "body": {"S": "x" * 1500}}
    client.put_item(TableName="t", Item={"pk": {"S": "ignored"}})

    with meter.measure("write") as sample:
        client.transact_write_items(TransactItems=[{"Put": {"TableName": "t", "Item": big}}])
        other = threading.Thread(
            target=lambda: client.get_item(TableName="t", Key={"pk": {"S": "g"}})
        )
        other.start()
        other.join()
    with meter.measure("read") as read:
        client.get_item(TableName="t", Key={"pk": {"S": "g"}}, ConsistentRead=True)
        client.get_item(TableName="t", Key={"pk": {"S": "nothing"}})

    assert sample.operations() == {"DynamoDB:TransactWriteItems": 1}
    assert sample.dynamodb_writes() == 1
    assert sample.write_units == 4.0  # 1.5 KB: two blocks, doubled in a transaction
    assert read.operations() == {"DynamoDB:GetItem": 2}
    assert read.read_units == 1.0 + 0.5
    assert [s.label for s in meter.samples] == ["write", "read"]


def test_every_cost_figure_the_readme_states_is_found_wherever_its_lines_break() -> None:
    text = README.read_text(encoding="utf-8")
    found = {name: pattern.search(text) for name, pattern in README_FIGURES.items()}
    assert all(found.values()), [name for name, match in found.items() if match is None]
    for name, match in found.items():
        assert match is not None
        stated = match.group(1)
        float(stated)  # a figure, not a stray dot
        # the same sentence with a line break between every two words reads the same figure
        again = README_FIGURES[name].search(match.group(0).replace(" ", "\n"))
        assert again is not None
        assert again.group(1) == stated
