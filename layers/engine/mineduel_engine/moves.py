"""The move log's records: what each move did, in the shape api.md publishes.

A move's ``opened`` list is canonical: sorted by ``(row, col)``, so any reimplementation of the
flood fill produces the same record. Times (``at``) belong to the service, not to the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from .errors import MalformedRecord

Action = Literal["tap", "resign", "timeout"]
TapResult = Literal["mine", "safe"]
ACTIONS: tuple[str, ...] = ("tap", "resign", "timeout")
ELIMINATIONS: tuple[str, ...] = ("resign", "timeout")


@dataclass(frozen=True)
class Move:
    """One entry of the log: a tap, or a seat going out (resignation or missed deadline)."""

    n: int
    seat: int
    action: Action
    row: int | None = None
    col: int | None = None
    result: TapResult | None = None
    opened: tuple[tuple[int, int, int], ...] = ()
    flagged: tuple[tuple[int, int], ...] = ()

    @property
    def is_elimination(self) -> bool:
        """True for a resignation or a timeout, which put the seat out."""
        return self.action in ELIMINATIONS

    def to_dict(self) -> dict[str, Any]:
        """The api.md ``Move`` object (without ``at``, which the service adds)."""
        return {
            "n": self.n,
            "seat": self.seat,
            "action": self.action,
            "row": self.row,
            "col": self.col,
            "result": self.result,
            "opened": [list(cell) for cell in self.opened],
            "flagged": [list(cell) for cell in self.flagged],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """Parse an api.md ``Move`` object, refusing anything off its documented shape."""
        try:
            n, seat, action = data["n"], data["seat"], data["action"]
            if not (_is_int(n) and _is_int(seat)) or action not in ACTIONS:
                raise MalformedRecord(f"move {n!r}: bad n, seat or action")
            row, col, result = data.get("row"), data.get("col"), data.get("result")
            if action == "tap":
                if not (_is_int(row) and _is_int(col)) or result not in ("mine", "safe"):
                    raise MalformedRecord(f"move {n}: a tap needs row, col and a result")
            elif row is not None or col is not None or result is not None:
                raise MalformedRecord(f"move {n}: a {action} has no cell and no result")
            opened = _int_tuples(data.get("opened"), 3, n)
            flagged = _int_tuples(data.get("flagged"), 2, n)
        except (KeyError, TypeError) as exc:
            raise MalformedRecord(f"move record is incomplete: {exc}") from None
        return cls(
            n=n,
            seat=seat,
            action=cast(Action, action),
            row=row,
            col=col,
            result=cast("TapResult | None", result),
            opened=cast("tuple[tuple[int, int, int], ...]", opened),
            flagged=cast("tuple[tuple[int, int], ...]", flagged),
        )


def _is_int(value: object) -> bool:
    """An integer and not a bool (``type(x) is int`` is exact and fast on this hot path)."""
    return type(value) is int


def _int_tuples(value: object, size: int, n: object) -> tuple[tuple[int, ...], ...]:
    """A list of ``size``-integer lists as tuples; missing or null is empty.

    Checked in whole-list passes rather than cell by cell: the verifier parses every cell of
    every move, and this is most of its parsing time.
    """
    if value is None:
        return ()
    if type(value) is list or type(value) is tuple:
        cells = [tuple(c) for c in value if type(c) is list or type(c) is tuple]
        if len(cells) == len(value) and all(
            [len(c) == size and all([type(x) is int for x in c]) for c in cells]
        ):
            return tuple(cells)
    raise MalformedRecord(f"move {n}: expected lists of {size} integers, got {value!r}")
