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


def test_a_board_string_is_the_same_position_as_its_characters() -> None:
    from_string = Position(3, 2, 3, "1A.2b.")
    from_tuple = Position(3, 2, 3, tuple("1A.2b."))
    assert from_string == from_tuple
    assert hash(from_string) == hash(from_tuple)
    assert from_string.text == "1A.2b."
    assert from_string.cells[4] == "b"
    assert (from_string.flagged, from_string.covered) == (2, [2, 5])
    assert Position.from_board(3, 2, 3, ["1A.", "2b."]) == from_tuple


def test_a_seats_own_wrong_guess_is_a_covered_cell_it_knows_safe() -> None:
    position = Position.from_board(3, 1, 1, ["1?."])
    assert position.safe == frozenset({1})
    assert position.text == "1.."
    assert Position.from_board(3, 1, 1, ["1.."]).safe == frozenset()


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
