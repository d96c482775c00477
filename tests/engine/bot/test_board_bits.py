"""``cells_of`` against a plain reading of the bits, on every path it takes.

A set of up to ``DENSE`` cells is walked bit by bit (each bit taken away through a table of
powers below cell ``TABLE_CELLS``, by a shift past it), a denser one below cell ``TABLE_CELLS``
read a byte at a time through the byte tables, and a denser one reaching past it through its
binary digits: the draws cover all of them, and the sets that sit on each boundary.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from mineduel_engine.bot.board_bits import DENSE, TABLE_CELLS, cells_of, mask_of

BOARD_CELLS = 64 * 64  # the largest board any variant may use


def plainly(mask: int) -> list[int]:
    """The cells of ``mask`` read one bit at a time, lowest first."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


@given(st.sets(st.integers(0, BOARD_CELLS - 1), max_size=300))
def test_cells_of_lists_the_bits_of_any_set(cells: set[int]) -> None:
    assert cells_of(mask_of(cells)) == sorted(cells)


@given(st.integers(DENSE + 1, TABLE_CELLS), st.data())
def test_dense_sets_below_the_table_limit_read_by_bytes(count: int, data: st.DataObject) -> None:
    cells = data.draw(st.sets(st.integers(0, TABLE_CELLS - 1), min_size=count, max_size=count))
    mask = mask_of(cells)
    assert cells_of(mask) == plainly(mask) == sorted(cells)


@given(st.sets(st.integers(TABLE_CELLS - 40, TABLE_CELLS + 40), max_size=DENSE))
def test_sparse_sets_across_the_table_of_powers(cells: set[int]) -> None:
    mask = mask_of(cells)
    assert cells_of(mask) == plainly(mask) == sorted(cells)


def test_the_boundaries_of_each_path() -> None:
    every = (1 << TABLE_CELLS) - 1
    assert cells_of(every) == list(range(TABLE_CELLS))  # every table cell, each byte full
    assert cells_of(every << 1) == list(range(1, TABLE_CELLS + 1))  # one past: binary digits
    assert cells_of((1 << (DENSE + 1)) - 1) == list(range(DENSE + 1))  # just dense
    assert cells_of((1 << DENSE) - 1) == list(range(DENSE))  # just sparse
    top = 1 << (TABLE_CELLS - 1)
    assert cells_of(top | ((1 << DENSE) - 1)) == [*range(DENSE), TABLE_CELLS - 1]
    assert cells_of(top | (top << 1)) == [TABLE_CELLS - 1, TABLE_CELLS]  # the last power, one past
    assert cells_of(0) == []
