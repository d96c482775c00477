"""Write units of a table's global secondary indexes, from an item as it was and as it is.

A table write also writes every global secondary index whose entry for the item it changes,
and each such index write is billed on top of the table's own units. The rules, as AWS's
"Global secondary indexes" page gives them under *Write capacity units*
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes):

- an item that gets the index's key attributes (a new item, or an update that sets the last
  one of them) enters the index: one write of the index entry;
- an item that loses one of them (an update that removes it, or a delete) leaves the index:
  one write;
- a change of an index key attribute's value (from A to B) is a delete and a put: two writes;
- a change of a projected attribute only (the index keys unchanged): one write;
- a write that changes none of these costs the index nothing (sparse indexes cost only what
  enters or leaves them).

Each write is one unit per KB of the index entry (the table's primary key, the index's keys and
the projected attributes), like a table write. A transaction doubles the units of the table's
own items (it prepares and commits each); the index is maintained from the committed item as
for any other write, so its units are not doubled.

The indexes are read from template.yaml (``AWS::DynamoDB::Table`` resources): key attributes,
projection type and included attributes; the items' images come from the meter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mineduel.local.provision import LocalStack
from mineduel.template import Template

from .capacity import item_size, write_units

TABLE_TYPE = "AWS::DynamoDB::Table"
Item = Mapping[str, Mapping[str, Any]]
"""An item in the DynamoDB client's typed form (``{"name": {"S": "..."}}``)."""


@dataclass(frozen=True)
class SecondaryIndex:
    """One global secondary index: its key attributes and what it projects."""

    name: str
    keys: tuple[str, ...]
    projection: str  # KEYS_ONLY, INCLUDE or ALL
    included: frozenset[str] = frozenset()

    def entry(self, item: Item | None, table_keys: tuple[str, ...]) -> dict[str, Any] | None:
        """The index's entry for ``item``, or None when the item is not in the index (it lacks
        one of the index's key attributes: the index is sparse)."""
        if item is None or any(key not in item for key in self.keys):
            return None
        if self.projection == "ALL":
            return dict(item)
        kept = set(table_keys) | set(self.keys)
        if self.projection == "INCLUDE":
            kept |= self.included
        return {name: value for name, value in item.items() if name in kept}

    def write_units(
        self, before: Item | None, after: Item | None, table_keys: tuple[str, ...]
    ) -> float:
        """Units this index consumes for a write that turned ``before`` into ``after`` (None:
        no item), by the rules in the module docstring."""
        old, new = self.entry(before, table_keys), self.entry(after, table_keys)
        if old is None and new is None:
            return 0.0
        if old is None:
            return write_units(item_size(new or {}))
        if new is None:
            return write_units(item_size(old))
        if any(old[key] != new[key] for key in self.keys):
            return write_units(item_size(old)) + write_units(item_size(new))
        if old != new:
            return write_units(max(item_size(old), item_size(new)))
        return 0.0


@dataclass(frozen=True)
class TableModel:
    """A table's primary key and its global secondary indexes, as the template declares them."""

    keys: tuple[str, ...]
    indexes: tuple[SecondaryIndex, ...] = ()

    @classmethod
    def from_properties(cls, properties: Mapping[str, Any]) -> TableModel:
        """From an ``AWS::DynamoDB::Table``'s properties (or CreateTable's arguments)."""
        indexes = tuple(
            SecondaryIndex(
                name=str(gsi["IndexName"]),
                keys=_key_names(gsi["KeySchema"]),
                projection=str(gsi["Projection"]["ProjectionType"]),
                included=frozenset(gsi["Projection"].get("NonKeyAttributes", [])),
            )
            for gsi in properties.get("GlobalSecondaryIndexes", [])
        )
        return cls(keys=_key_names(properties["KeySchema"]), indexes=indexes)

    def key_of(self, item: Item) -> dict[str, Any]:
        """The primary key of ``item`` (or of a key)."""
        return {name: item[name] for name in self.keys}

    def index_write_units(self, before: Item | None, after: Item | None) -> dict[str, float]:
        """Units per index for a write that turned ``before`` into ``after`` (indexes the write
        did not touch are left out)."""
        found = {}
        for index in self.indexes:
            units = index.write_units(before, after, self.keys)
            if units:
                found[index.name] = units
        return found


def _key_names(schema: list[Mapping[str, Any]]) -> tuple[str, ...]:
    order = {"HASH": 0, "RANGE": 1}
    return tuple(str(k["AttributeName"]) for k in sorted(schema, key=lambda k: order[k["KeyType"]]))


def tables_of(template: Template) -> dict[str, TableModel]:
    """Every DynamoDB table of the template, by logical id."""
    return {
        logical_id: TableModel.from_properties(resource["Properties"])
        for logical_id, resource in template.resources_of_type(TABLE_TYPE).items()
    }


def physical_tables(stack: LocalStack) -> dict[str, TableModel]:
    """Every table of a provisioned stack, by the name its functions write it under."""
    return {stack.ref(logical_id): model for logical_id, model in tables_of(stack.template).items()}
