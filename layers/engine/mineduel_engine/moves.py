"""The move log's records: what each move did, in the shape docs/api.md publishes.

A move's ``opened``, ``flagged`` and ``auto_opened`` lists are canonical: sorted by
``(row, col)``, so any reimplementation of the rules produces the same record. Times (``at``)
belong to the service, not to the rules.

One kind of move is partly private: a windows-duel wrong guess (``guess`` with result
``miss``). Everybody may know that it happened; only its seat may know where, until the game
ends. So a move has two renderings:

- ``to_record()``: the whole record, for the game's own log (storage) and for a finished game's
  Verification document;
- ``view(viewer, finished)``: what ``viewer`` (a seat, or None for a spectator) may see: on
  another seat's wrong guess in a running game, ``row`` and ``col`` are null.

``to_dict()`` is the spectators' view of a running game (``view(None, False)``): the rendering
a caller gets without naming a viewer is the one that can leak nothing. For every move that is
not a wrong guess (all of mine-duel's and mineseeker's) all three are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from .errors import MalformedRecord

Action = Literal["tap", "bomb", "guess", "reveal", "resign", "timeout"]
MoveResult = Literal["mine", "safe", "bomb", "miss"]
TapResult = MoveResult  # the name this type had when ``tap`` was the only action
ACTIONS: tuple[str, ...] = ("tap", "bomb", "guess", "reveal", "resign", "timeout")
ELIMINATIONS: tuple[str, ...] = ("resign", "timeout")
RESULTS_OF: dict[str, tuple[str, ...]] = {
    "tap": ("mine", "safe"),
    "bomb": ("bomb",),
    "guess": ("mine", "miss"),
    "reveal": ("safe", "mine"),
}
"""The results each cell action can have."""

Cells3 = tuple[tuple[int, int, int], ...]
Cells2 = tuple[tuple[int, int], ...]

_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class Move:
    """One entry of the log: an action on a cell, or a seat going out (resign or timeout).

    ``points`` and ``auto_opened`` belong to windows-duel (None and empty elsewhere, and then
    left out of the dict renderings, so other variants' records keep their shape).
    """

    n: int
    seat: int
    action: Action
    row: int | None = None
    col: int | None = None
    result: MoveResult | None = None
    opened: Cells3 = ()
    flagged: Cells2 = ()
    points: int | None = None
    auto_opened: Cells3 = ()

    @classmethod
    def tap(
        cls,
        n: int,
        seat: int,
        row: int,
        col: int,
        result: MoveResult,
        opened: Cells3 = (),
        flagged: Cells2 = (),
    ) -> Move:
        """A tap's record, built in one step (the hot path of every move and replay: a frozen
        dataclass sets its ten fields one by one)."""
        move = _new(cls)
        _set(
            move,
            "__dict__",
            {
                "n": n,
                "seat": seat,
                "action": "tap",
                "row": row,
                "col": col,
                "result": result,
                "opened": opened,
                "flagged": flagged,
                "points": None,
                "auto_opened": (),
            },
        )
        return move

    @property
    def is_elimination(self) -> bool:
        """True for a resignation or a timeout, which put the seat out."""
        return self.action in ELIMINATIONS

    @property
    def is_private(self) -> bool:
        """True for a wrong guess: where it was is its seat's secret until the game ends."""
        return self.action == "guess" and self.result == "miss"

    def to_record(self) -> dict[str, Any]:
        """The whole docs/api.md ``Move`` (without ``at``, which the service adds): for the log."""
        record: dict[str, Any] = {
            "n": self.n,
            "seat": self.seat,
            "action": self.action,
            "row": self.row,
            "col": self.col,
            "result": self.result,
            "opened": [list(cell) for cell in self.opened],
            "flagged": [list(cell) for cell in self.flagged],
        }
        if self.points is not None:
            record["points"] = self.points
            record["auto_opened"] = [list(cell) for cell in self.auto_opened]
        return record

    def view(self, viewer: int | None, finished: bool) -> dict[str, Any]:
        """The docs/api.md ``Move`` as ``viewer`` may see it (None: a spectator).

        Everything is public once the game is finished; before, another seat's wrong guess shows
        no cell.
        """
        record = self.to_record()
        if self.is_private and not finished and viewer != self.seat:
            record["row"] = record["col"] = None
        return record

    def to_dict(self) -> dict[str, Any]:
        """The spectators' view while the game runs (see the module docstring)."""
        return self.view(None, finished=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """Parse a docs/api.md ``Move`` object, refusing anything off its documented shape.

        A wrong guess may come without its cell (as a running game shows it to the others);
        such a move can be read but not replayed.
        """
        try:
            n, seat, action = data["n"], data["seat"], data["action"]
            if not (_is_int(n) and _is_int(seat)) or action not in ACTIONS:
                raise MalformedRecord(f"move {n!r}: bad n, seat or action")
            row, col, result = data.get("row"), data.get("col"), data.get("result")
            results = RESULTS_OF.get(action)
            if results is not None:
                hidden = action == "guess" and result == "miss" and row is None and col is None
                if result not in results or not (hidden or (_is_int(row) and _is_int(col))):
                    raise MalformedRecord(
                        f"move {n}: a {action} needs row, col and a result ({' or '.join(results)})"
                    )
            elif row is not None or col is not None or result is not None:
                raise MalformedRecord(f"move {n}: a {action} has no cell and no result")
            opened = _int_tuples(data.get("opened"), 3, n)
            flagged = _int_tuples(data.get("flagged"), 2, n)
            points = data.get("points")
            if points is not None and not _is_int(points):
                raise MalformedRecord(f"move {n}: points must be an integer")
            auto_opened = _int_tuples(data.get("auto_opened"), 3, n)
        except (KeyError, TypeError) as exc:
            raise MalformedRecord(f"move record is incomplete: {exc}") from None
        return cls(
            n=n,
            seat=seat,
            action=cast(Action, action),
            row=row,
            col=col,
            result=cast("MoveResult | None", result),
            opened=cast(Cells3, opened),
            flagged=cast(Cells2, flagged),
            points=points,
            auto_opened=cast(Cells3, auto_opened),
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
