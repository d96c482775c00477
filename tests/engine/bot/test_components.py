"""Grouping (``components.split``): the cells a part leaves for later, and the regrouping of
a board derived from another.

A part's cells as bits are not kept when it is grouped (a plain solve never reads them): a
board derived from it (a look-ahead board, or the board after the pair rule) works them out
from the shape's frontier and the part's numbers. Both are held here against what grouping
the derived board from scratch gives. Hypothesis draws boards true to a hidden layout.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine.bot.board_bits import mask_of
from mineduel_engine.bot.components import Part, split
from mineduel_engine.bot.deduction import Inconsistent, Settled, deduce
from mineduel_engine.bot.position import Position
from mineduel_engine.geometry import neighbours


@st.composite
def boards(draw: st.DrawFn, largest: int = 8, one_in: int = 2) -> Position:
    """A board true to a hidden layout, up to ``largest`` cells a side, about one cell in
    ``one_in`` opened at random (no flood fill): opened rarely, its numbers lie far apart, so
    many components, met in cell order in every interleaving."""
    width = draw(st.integers(2, largest))
    height = draw(st.integers(2, largest))
    size = width * height
    mined = draw(st.sets(st.integers(0, size - 1), max_size=size // 3))
    table = neighbours(width, height)
    cells = []
    for cell in range(size):
        if cell not in mined and draw(st.integers(0, one_in - 1)) == 0:
            cells.append(str(sum(1 for n in table[cell] if n in mined)))
        else:
            cells.append(".")
    return Position(width, height, len(mined), tuple(cells))


def grouped(parts: list[Part]) -> set[tuple[tuple[int, ...], ...]]:
    """The parts as sets of their groups' cells (the order parts come in is no answer)."""
    return {tuple(tuple(cells) for cells in part.cells) for part in parts}


@settings(max_examples=200, deadline=None)
@given(boards(), st.data())
def test_a_derived_board_regroups_as_grouping_it_afresh_would(
    position: Position, data: st.DataObject
) -> None:
    try:
        settled = deduce(position)
    except Inconsistent:
        return
    shape = split(settled)
    parts, frontier = shape
    for part in parts:
        assert part.area is None  # not worked out until a derived board asks
    if not frontier:
        return
    cell = data.draw(st.sampled_from([c for part in parts for g in part.cells for c in g]))
    number = data.draw(st.integers(0, 8))
    try:
        after = settled.revealed(cell, number)
    except Inconsistent:
        return
    changed = (1 << cell) | (after.known & ~settled.known)
    derived, derived_frontier = split(after, None, (shape, changed))
    fresh, fresh_frontier = split(after)
    assert derived_frontier == fresh_frontier
    assert grouped(derived) == grouped(fresh)
    for part in parts:  # each part's cells, now worked out, are its groups' cells
        if part.area is not None:
            assert part.area == mask_of(c for g in part.cells for c in g)


def plainly(settled: Settled) -> list[tuple[list[int], list[list[int]], list[int], int, int, int]]:
    """The components as read off the board one cell and one number at a time: a group per set
    of open numbers around a frontier cell (in the order first met, cell by cell), groups
    sharing a number in one component (union-find), components in the order of their last
    groups; per component its signatures, cells, packed touches, numbers, ones and needs."""
    area = settled.grid
    unsettled = settled.covered & ~settled.known
    size = area.width * area.height
    table = neighbours(area.width, area.height)
    active = [
        n
        for n in range(size)
        if settled.shown >> n & 1 and any(unsettled >> c & 1 for c in table[n])
    ]
    groups: dict[frozenset[int], list[int]] = {}
    for cell in range(size):
        around = frozenset(n for n in table[cell] if n in active)
        if unsettled >> cell & 1 and around:
            groups.setdefault(around, []).append(cell)
    keys = list(groups)
    root = list(range(len(keys)))

    def find(g: int) -> int:
        while root[g] != g:
            g = root[g]
        return g

    for g, key in enumerate(keys):
        for h in range(g):
            if key & keys[h]:
                root[find(h)] = find(g)
    members: dict[int, list[int]] = {}
    for g in range(len(keys)):
        members.setdefault(find(g), []).append(g)
    found = []
    for ids in sorted(members.values(), key=lambda ids: ids[-1]):
        numbers = sorted(set().union(*(keys[g] for g in ids)))
        field = {n: 32**i for i, n in enumerate(numbers)}
        found.append(
            (
                [mask_of(keys[g]) for g in ids],
                [groups[keys[g]] for g in ids],
                [sum(field[n] for n in keys[g]) for g in ids],
                mask_of(numbers),
                sum(field.values()),
                sum(settled.needs[settled.index[n]] * field[n] for n in numbers),
            )
        )
    return found


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards(), boards(16, 4)))
def test_grouping_matches_a_plain_reading_of_the_board(position: Position) -> None:
    try:
        settled = deduce(position)
    except Inconsistent:
        return
    parts, _ = split(settled)
    assert [
        (part.sigs, part.cells, part.touch, part.numbers, part.fields, part.needs) for part in parts
    ] == plainly(settled)
    for part in parts:
        assert part.sizes == [len(cells) for cells in part.cells]
