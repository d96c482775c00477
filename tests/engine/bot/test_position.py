"""``Position``: the board checks its constructor makes, and the frozen value it stays.

The constructor is written out (one update of the instance's dict rather than a frozen
dataclass's ``object.__setattr__`` per field), so what the generated one gave is held here:
the refusals, equality and hashing on the fields, no assignment afterwards.
"""

from __future__ import annotations

import dataclasses

import pytest
from mineduel_engine.bot.position import Position


def test_a_position_keeps_its_fields_its_text_and_its_flags() -> None:
    position = Position(3, 2, 3, tuple("1A.2b."), frozenset({2}))
    assert (position.width, position.height, position.mines) == (3, 2, 3)
    assert position.cells == tuple("1A.2b.")
    assert position.safe == frozenset({2})
    assert position.text == "1A.2b."
    assert position.flagged == 2
    assert position.mines_left == 1
    assert position.covered == [2, 5]


def test_equal_boards_are_equal_and_hash_alike() -> None:
    first = Position(2, 1, 1, (".", "1"))
    second = Position(2, 1, 1, (".", "1"))
    assert first == second
    assert hash(first) == hash(second)
    assert first != Position(2, 1, 1, (".", "1"), frozenset({0}))
    assert first.public() is first
    assert Position(2, 1, 1, (".", "1"), frozenset({0})).public() == first
    assert repr(first) == "Position(width=2, height=1, mines=1, cells=('.', '1'), safe=frozenset())"


def test_a_position_cannot_be_changed() -> None:
    position = Position(2, 1, 1, (".", "1"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.mines = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("width", "height", "mines", "cells", "safe", "message"),
    [
        (2, 2, 1, ("1", "."), frozenset(), "width and height"),
        (2, 1, 1, ("1", ".."), frozenset(), "width and height"),
        (2, 1, 1, ("1", "x"), frozenset(), "unknown character"),
        (2, 1, 1, ("1", "é"), frozenset(), "unknown character"),
        (2, 1, 1, ("1", "."), frozenset({0}), "must be covered"),
        (2, 1, 1, ("1", "."), frozenset({5}), "must be covered"),
        (2, 1, 2, ("1", "."), frozenset(), "mine count"),
        (2, 1, 0, ("A", "."), frozenset(), "mine count"),
    ],
)
def test_a_board_that_cannot_be_is_refused(
    width: int, height: int, mines: int, cells: tuple[str, ...], safe: frozenset[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Position(width, height, mines, cells, safe)
