"""DynamoDB capacity from the calls themselves: item sizes → read and write request units.

The sizes follow DynamoDB's documented rules (attribute names count; strings are UTF-8
bytes; numbers about one byte per two significant digits plus one; binary is its length;
lists and maps add 3 bytes plus 1 per element). Units follow the on-demand rules: a read is
one unit per 4 KB strongly consistent (half that eventually consistent, twice that in a
transaction); a write is one unit per 1 KB, twice that in a transaction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

READ_BLOCK = 4096
WRITE_BLOCK = 1024


def value_size(value: Mapping[str, Any]) -> int:
    """Bytes one typed attribute value (``{"S": ...}``, ``{"N": ...}``, ...) takes."""
    (kind, raw), *_ = value.items()
    if kind == "S":
        return len(str(raw).encode("utf-8"))
    if kind == "N":
        digits = str(raw).lstrip("-").replace(".", "").lstrip("0") or "0"
        return (len(digits) + 1) // 2 + 1
    if kind == "B":
        return len(raw)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(str(x).encode("utf-8")) for x in raw)
    if kind == "NS":
        return sum(value_size({"N": x}) for x in raw)
    if kind == "BS":
        return sum(len(x) for x in raw)
    if kind == "L":
        return 3 + sum(value_size(x) + 1 for x in raw)
    if kind == "M":
        return 3 + sum(len(k.encode("utf-8")) + value_size(v) + 1 for k, v in raw.items())
    raise ValueError(f"unknown attribute type {kind}")


def item_size(item: Mapping[str, Mapping[str, Any]]) -> int:
    """Bytes a whole item takes (names plus values)."""
    return sum(len(name.encode("utf-8")) + value_size(value) for name, value in item.items())


def read_units(size: int, *, consistent: bool, transactional: bool = False) -> float:
    """Read units for one item of ``size`` bytes (a missing item still costs one block)."""
    blocks = max(1, math.ceil(size / READ_BLOCK))
    if transactional:
        return 2.0 * blocks
    return float(blocks) if consistent else blocks / 2


def write_units(size: int, *, transactional: bool = False) -> float:
    """Write request units for writing one item of ``size`` bytes."""
    blocks = max(1, math.ceil(size / WRITE_BLOCK))
    return 2.0 * blocks if transactional else float(blocks)


def query_read_units(items: Iterable[Mapping[str, Any]], *, consistent: bool) -> float:
    """A Query or Scan is charged on the summed size of what it read, not item by item."""
    return read_units(sum(item_size(i) for i in items), consistent=consistent)
