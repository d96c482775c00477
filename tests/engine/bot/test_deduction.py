"""The deduction's bit arithmetic against the plain reading of its rules, cell by cell.

``Grid.counts`` sums a 3 x 3 block in two passes of bitwise adders and ``deduce`` runs the
single rule board-wide in rounds (mines first, then the safe cells the new mines imply); both
are checked here against a loop over cells: the block counted cell by cell, and the single
rule applied to one number at a time until nothing changes. Hypothesis draws the boards.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mineduel_engine.bot.board_bits import grid
from mineduel_engine.bot.deduction import Inconsistent, deduce
from mineduel_engine.bot.position import Position
from mineduel_engine.geometry import neighbours

sizes = st.tuples(st.integers(1, 9), st.integers(1, 9))


@given(sizes, st.data())
def test_block_counts_are_each_cells_block_counted_one_by_one(
    size: tuple[int, int], data: st.DataObject
) -> None:
    width, height = size
    cells = width * height
    chosen = data.draw(st.integers(0, (1 << cells) - 1))
    planes = grid(width, height).counts(chosen)
    table = neighbours(width, height)
    for c in range(cells):
        block = [c, *table[c]]
        expected = sum(chosen >> n & 1 for n in block)
        assert sum((plane >> c & 1) << i for i, plane in enumerate(planes)) == expected
    # nothing past the row after the board (the last row's counts from below, left for the
    # readers to mask)
    assert all(plane >> (cells + width) == 0 for plane in planes)


def single_rule(position: Position) -> tuple[set[int], set[int]] | None:
    """The cells one number alone proves mine or safe, and those the proved cells let the
    others prove, a number at a time until nothing changes; None when a number cannot be met."""
    table = position.table
    cells = position.cells
    mines = {c for c, ch in enumerate(cells) if ch == "A"}
    safe: set[int] = set()
    changed = True
    while changed:
        changed = False
        for c, ch in enumerate(cells):
            if not ch.isdigit():
                continue
            unknown = [n for n in table[c] if cells[n] == "." and n not in mines | safe]
            need = int(ch) - sum(1 for n in table[c] if n in mines)
            if not 0 <= need <= len(unknown):
                return None
            if unknown and need in (0, len(unknown)):
                (safe if need == 0 else mines).update(unknown)
                changed = True
    return {c for c in mines if cells[c] == "."}, safe


@st.composite
def boards(draw: st.DrawFn) -> Position:
    """A board true to a hidden layout (some cells open, some mines flagged), or, one time in
    four, any characters at all (often impossible; every digit, so boards with and without
    the numbers of 4 and up, whose bit plane ``deduce`` reads only when one is shown)."""
    width, height = draw(sizes)
    cells = width * height
    if draw(st.integers(0, 3)) == 0:
        chars = draw(st.sampled_from(["...0123A", "...012345678A"]))
        shown = draw(st.lists(st.sampled_from(chars), min_size=cells, max_size=cells))
        return Position(width, height, shown.count("A") + shown.count("."), tuple(shown))
    mined = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    opened = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    flagged = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    table = neighbours(width, height)
    board = []
    for c in range(cells):
        if mined[c]:
            board.append("A" if flagged[c] else ".")
        elif opened[c]:
            board.append(str(sum(mined[n] for n in table[c])))
        else:
            board.append(".")
    return Position(width, height, sum(mined), tuple(board))


@given(boards())
def test_deduce_settles_what_the_single_rule_proves_number_by_number(position: Position) -> None:
    expected = single_rule(position)
    if expected is None:
        with pytest.raises(Inconsistent):
            deduce(position)
        return
    settled = deduce(position)
    mines, safe = expected
    assert settled.mines == sum(1 << c for c in mines)
    assert settled.safe == sum(1 << c for c in safe)
    table = position.table
    unsettled = settled.covered & ~settled.known
    for k, n in enumerate(settled.numbers):
        hidden = [m for m in table[n] if unsettled >> m & 1]
        assert hidden and settled.hidden[k] == sum(1 << m for m in hidden)
        flagged = sum(1 for m in table[n] if position.is_flag(m) or settled.mines >> m & 1)
        assert settled.needs[k] == int(position.cells[n]) - flagged
    live = {n for n, ch in enumerate(position.cells) if ch.isdigit()}
    live = {n for n in live if any(unsettled >> m & 1 for m in table[n])}
    assert settled.numbers == sorted(live)


def test_a_cell_both_mine_and_safe_is_refused() -> None:
    # The 1 at the left is full with its one covered cell; the 0 at the right then has a mine.
    position = Position(3, 1, 1, tuple("1.0"))
    with pytest.raises(Inconsistent):
        deduce(position)
