"""The exact probability engine against brute-force enumeration on small boards.

The reference enumerates every mine layout; Hypothesis draws boards true to a hidden layout
(numbers next to covered cells in any pattern, some mines flagged) and arbitrary ones (often
inconsistent, which the engine must refuse exactly when no layout fits).
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine.bot.position import Position
from mineduel_engine.bot.probability import (
    Budget,
    Counts,
    Inconsistent,
    TooHard,
    outcomes,
    reveal,
    solve,
)
from mineduel_engine.geometry import neighbours


def layouts(position: Position) -> list[frozenset[int]]:
    """Every set of covered cells that could hold the remaining mines, numbers and flags fitting."""
    numbers = [
        (cell, position.number(cell), position.table[cell])
        for cell in range(len(position.cells))
        if position.number(cell) is not None
    ]
    found = []
    for combo in combinations(position.covered, position.mines_left):
        mines = frozenset(combo)
        if all(
            sum(1 for n in around if n in mines or position.is_flag(n)) == number
            for _, number, around in numbers
        ):
            found.append(mines)
    return found


def chances(position: Position) -> dict[int, float] | None:
    """Share of layouts with a mine on each covered cell (None when nothing fits)."""
    found = layouts(position)
    if not found:
        return None
    return {c: sum(1 for m in found if c in m) / len(found) for c in position.covered}


def brute_number_chances(position: Position, cell: int) -> dict[int, float]:
    """Given ``cell`` is safe, the chance of each number it would show."""
    around = position.table[cell]
    flags = sum(1 for n in around if position.is_flag(n))
    tally: dict[int, int] = {}
    for mines in layouts(position):
        if cell in mines:
            continue
        shown = flags + sum(1 for n in around if n in mines)
        tally[shown] = tally.get(shown, 0) + 1
    total = sum(tally.values())
    return {k: v / total for k, v in tally.items()}


@st.composite
def consistent_positions(draw: st.DrawFn, max_side: int = 5) -> Position:
    """A board as real play could show it: numbers true to a hidden layout, some mines flagged.

    Cells open at random (not by flood fill), so numbers may sit next to covered cells in any
    pattern, which exercises more of the counting than real play does.
    """
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    size = width * height
    mines = draw(st.sets(st.integers(0, size - 1), max_size=size))
    table = neighbours(width, height)
    cells = []
    for cell in range(size):
        if cell in mines:
            cells.append(draw(st.sampled_from("..AB")))
        elif draw(st.booleans()):
            cells.append(str(sum(1 for n in table[cell] if n in mines)))
        else:
            cells.append(".")
    return Position(width, height, len(mines), tuple(cells))


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """A small board with arbitrary numbers and a mine count that fits: often inconsistent."""
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    cells = draw(
        st.lists(st.sampled_from(".....0123A"), min_size=width * height, max_size=width * height)
    )
    covered = cells.count(".")
    flags = cells.count("A")
    mines = flags + draw(st.integers(0, covered))
    return Position(width, height, mines, tuple(cells))


def assert_matches_brute_force(position: Position) -> None:
    expected = chances(position)
    if expected is None:
        with pytest.raises(Inconsistent):
            solve(position)
        return
    solution = solve(position)
    assert solution.weight == len(layouts(position))
    assert set(solution.mine) == set(position.covered)
    for cell, chance in expected.items():
        assert solution.mine[cell] == pytest.approx(chance, abs=1e-12)
    assert set(solution.certain_mines) == {c for c, p in expected.items() if p == 1.0}
    assert set(solution.certain_safe) == {c for c, p in expected.items() if p == 0.0}


@settings(max_examples=400, deadline=None)
@given(consistent_positions())
def test_consistent_boards_match_brute_force(position: Position) -> None:
    assert_matches_brute_force(position)


@settings(max_examples=300, deadline=None)
@given(any_positions())
def test_arbitrary_boards_match_or_are_refused(position: Position) -> None:
    assert_matches_brute_force(position)


def test_global_count_weighs_the_unconstrained_cells() -> None:
    # A 1 in the corner of a 3x3 board, 2 mines: the 1's three neighbours share one mine, so
    # the five far cells share the other; layouts: 3 * 5 = 15.
    position = Position.from_board(3, 3, 2, ["1..", "...", "..."])
    solution = solve(position)
    assert solution.weight == 15
    assert solution.mine[1] == pytest.approx(1 / 3)
    assert solution.mine[8] == pytest.approx(1 / 5)


def test_flagged_cells_are_known_mines() -> None:
    position = Position.from_board(3, 1, 2, ["A2."])
    solution = solve(position)
    assert solution.mine == {2: 1.0}
    assert solution.certain_mines == (2,)


def test_long_frontier_is_counted_without_exploding() -> None:
    # A row of numbers between two covered rows, 60 columns long, true to a fixed layout:
    # plain backtracking faces about 2^120 paths; the frontier programme a handful of states.
    width = 60
    mines = {c for c in range(width) if c % 7 in (1, 3)} | {
        2 * width + c for c in range(0, width, 5)
    }
    table = neighbours(width, 3)
    middle = "".join(str(sum(1 for n in table[width + c] if n in mines)) for c in range(width))
    position = Position.from_board(width, 3, len(mines), ["." * width, middle, "." * width])
    solution = solve(position)
    assert solution.weight > 1
    assert sum(solution.mine.values()) == pytest.approx(len(mines))
    assert any(0.0 < p < 1.0 for p in solution.mine.values())


@settings(max_examples=200, deadline=None)
@given(consistent_positions(max_side=4), st.data())
def test_number_chances_match_brute_force(position: Position, data: st.DataObject) -> None:
    solution = solve(position)
    maybe_safe = [c for c in position.covered if solution.mine[c] < 1.0]
    if not maybe_safe:
        return
    cell = data.draw(st.sampled_from(maybe_safe))
    expected = brute_number_chances(position, cell)
    counts: Counts = {}
    for other in maybe_safe:  # a shared cache of component counts must change nothing
        outcomes(position, other, base=solution, counts=counts)
    found = outcomes(position, cell, base=solution, counts=counts)
    assert {k: pytest.approx(v, abs=1e-12) for k, v in expected.items()} == {
        k: p for k, p, _ in found
    }
    for number, _, after in found:
        direct = solve(reveal(position, cell, number))
        assert after.weight == direct.weight
        assert after.mine == pytest.approx(direct.mine, abs=1e-12)


# Open numbers on a diagonal lattice over a 16x16 board: one wide component the programme counts
# in several thousand terms (past the bounded listing), as the hard positions of real play do.
LATTICE = [
    "2..1..1..2..2...",
    "..3..2..1..4..2.",
    "....3..2..3..2..",
    "1..3...........1",
    ".....4..1..2..1.",
    ".2..2..1..2..1..",
    "1..2..3........1",
    "..4..1.....2..1.",
    "....1..2..1.....",
    "2.....1..1......",
    "..1..1..2..4..3.",
    ".1.....1.....2..",
    "1..2.....3..2..1",
    ".....4..1..2..2.",
    "....1..1..1.....",
    "......2..1..1...",
]


def test_a_budget_stops_exactly_where_the_count_would_pass_it() -> None:
    """A step stops as soon as its terms pass what is left, which is where the whole step
    would have overdrawn the budget anyway: the same boards pass and fail as before."""
    position = Position.from_board(16, 16, 51, LATTICE[:9] + ["." * 16] * 7)
    roomy = Budget(10**9)
    exact = solve(position, roomy)
    used = 10**9 - roomy.left
    assert used > 1000
    assert solve(position, Budget(used)).mine == exact.mine
    with pytest.raises(TooHard):
        solve(position, Budget(used - 1))
