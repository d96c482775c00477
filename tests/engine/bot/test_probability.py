"""The exact probability engine against brute-force enumeration on small boards.

The reference enumerates every mine layout; Hypothesis draws boards true to a hidden layout
(numbers next to covered cells in any pattern, some mines flagged) and arbitrary ones (often
inconsistent, which the engine must refuse exactly when no layout fits).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations, product
from math import comb, prod
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine import rules_for
from mineduel_engine.bot import counting, probability
from mineduel_engine.bot.board_bits import FIELD
from mineduel_engine.bot.components import Part, split
from mineduel_engine.bot.counting import Counted
from mineduel_engine.bot.deduction import deduce
from mineduel_engine.bot.ordering import frontier_order
from mineduel_engine.bot.position import FLAG_CHARS, Position
from mineduel_engine.bot.probability import (
    Budget,
    Counts,
    Inconsistent,
    Solution,
    TooHard,
    outcome_summaries,
    outcomes,
    reveal,
    solve,
)
from mineduel_engine.geometry import neighbours
from mineduel_engine.sample_games import play_bot_game


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


METHODS = ("listing", "programme")


@contextmanager
def only(method: str) -> Iterator[None]:
    """Count every component of two groups or more by one method only: the listing (never
    giving up) or the frontier programme, so each is held to the references on its own."""
    saved = counting.LISTED_GROUPS, counting.LISTED_NODES, counting.SPREAD_GROUPS
    if method == "listing":
        counting.LISTED_GROUPS, counting.LISTED_NODES = 10**6, 10**9
    else:
        counting.LISTED_GROUPS = counting.SPREAD_GROUPS = 1
    try:
        yield
    finally:
        counting.LISTED_GROUPS, counting.LISTED_NODES, counting.SPREAD_GROUPS = saved


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=150, deadline=None)
@given(position=consistent_positions())
def test_each_counting_method_matches_brute_force(method: str, position: Position) -> None:
    with only(method):
        assert_matches_brute_force(position)


@settings(max_examples=150, deadline=None)
@given(consistent_positions(max_side=4), st.data())
def test_look_ahead_summaries_are_the_solutions_in_short(
    position: Position, data: st.DataObject
) -> None:
    """``outcome_summaries`` (boards kept in part from the base, weighed in short) says exactly
    what ``outcomes`` (every board counted in full) says."""
    solution = solve(position)
    maybe_safe = [c for c in position.covered if solution.mine[c] < 1.0]
    if not maybe_safe:
        return
    cell = data.draw(st.sampled_from(maybe_safe))
    assert_summaries_agree(position, solution, cell)


def assert_summaries_agree(position: Position, solution: Solution, cell: int) -> None:
    short = outcome_summaries(position, cell, None, solution, {})
    full = outcomes(position, cell, None, solution)
    assert [(n, p) for n, p, _ in short] == [(n, p) for n, p, _ in full]
    for (_, _, summary), (_, _, after) in zip(short, full, strict=True):
        rest = [p for p in after.mine.values() if p < 1.0]
        assert summary.weight == after.weight
        assert summary.certain_mines == len(after.certain_mines)
        assert summary.best == (max(rest) if rest else 0.0)


def real_positions(games: int = 2, every: int = 3) -> list[Position]:
    """Positions of hard-bot games (the boards real play reaches), flags as known mines."""
    found = []
    for k in range(games):
        game = play_bot_game(f"probability-{k}")
        state = rules_for("mine-duel").new_game(game.settings)
        rules = rules_for("mine-duel")
        for i, move in enumerate(game.moves):
            if i % every == 0:
                found.append(Position.from_state(state))
            state, _ = rules.play(state, game.field, move.seat, "tap", move.row or 0, move.col or 0)
    return found


def test_look_ahead_summaries_agree_on_real_boards() -> None:
    for position in real_positions(1, 7):
        solution = solve(position)
        ranked = sorted(solution.mine, key=lambda c: (-solution.mine[c], c))
        for cell in [c for c in ranked if solution.mine[c] < 1.0][:4]:
            assert_summaries_agree(position, solution, cell)


def reference_chances(position: Position) -> dict[int, Fraction]:
    """An independent exact reference for boards of a few dozen frontier cells: each component
    of frontier cells enumerated cell by cell (no groups, no programme), combined with the free
    cells by binomials, in exact fractions."""
    numbers = [
        (cell, need, [n for n in position.table[cell] if position.is_covered(n)])
        for cell in range(len(position.cells))
        if (number := position.number(cell)) is not None
        and (need := number - sum(1 for n in position.table[cell] if position.is_flag(n))) >= 0
    ]
    constraints = [(need, hidden) for _, need, hidden in numbers if hidden]
    frontier = sorted({c for _, hidden in constraints for c in hidden})
    touching: dict[int, list[int]] = {c: [] for c in frontier}
    for k, (_, hidden) in enumerate(constraints):
        for c in hidden:
            touching[c].append(k)
    comps: list[list[int]] = []
    seen: set[int] = set()
    for start in frontier:
        if start in seen:
            continue
        comp, queue = [], [start]
        seen.add(start)
        while queue:
            c = queue.pop()
            comp.append(c)
            for k in touching[c]:
                for d in constraints[k][1]:
                    if d not in seen:
                        seen.add(d)
                        queue.append(d)
        comps.append(sorted(comp))
    tallies = [(comp, _enumerate(comp, constraints, touching)) for comp in comps]
    free = [c for c in position.covered if c not in touching]
    totals: dict[int, int] = {0: 1}
    for _, by_total in tallies:
        nxt: dict[int, int] = {}
        for a, ca in totals.items():
            for b, row in by_total.items():
                nxt[a + b] = nxt.get(a + b, 0) + ca * row[-1]
        totals = nxt
    left_mines = position.mines_left
    weight = sum(c * comb(len(free), left_mines - t) for t, c in totals.items() if t <= left_mines)
    chances: dict[int, Fraction] = {}
    for i, (comp, by_total) in enumerate(tallies):
        others: dict[int, int] = {0: 1}
        for j, (_, other) in enumerate(tallies):
            if j != i:
                nxt = {}
                for a, ca in others.items():
                    for b, row in other.items():
                        nxt[a + b] = nxt.get(a + b, 0) + ca * row[-1]
                others = nxt
        for x, c in enumerate(comp):
            mined = sum(
                row[x] * co * comb(len(free), left_mines - t - o)
                for t, row in by_total.items()
                for o, co in others.items()
                if t + o <= left_mines
            )
            chances[c] = Fraction(mined, weight)
    loose = sum(
        c * comb(len(free) - 1, left_mines - t - 1) for t, c in totals.items() if t < left_mines
    )
    for c in free:
        chances[c] = Fraction(loose, weight)
    return chances


def _enumerate(
    comp: list[int], constraints: list[tuple[int, list[int]]], touching: dict[int, list[int]]
) -> dict[int, list[int]]:
    """Every layout of one component of frontier cells, cell by cell: per mine total, how
    often each cell holds a mine, and (last) how many layouts there are."""
    ks = sorted({k for c in comp for k in touching[c]})
    left = {k: constraints[k][0] for k in ks}
    room = {k: len(constraints[k][1]) for k in ks}
    by_total: dict[int, list[int]] = {}
    mines: list[int] = []

    def walk(i: int) -> None:
        if i == len(comp):
            if all(v == 0 for v in left.values()):
                row = by_total.setdefault(len(mines), [0] * (len(comp) + 1))
                row[-1] += 1
                for c in mines:
                    row[comp.index(c)] += 1
            return
        c = comp[i]
        for mine in (0, 1):
            if any(left[k] - mine < 0 or left[k] - mine > room[k] - 1 for k in touching[c]):
                continue
            for k in touching[c]:
                left[k] -= mine
                room[k] -= 1
            if mine:
                mines.append(c)
            walk(i + 1)
            if mine:
                mines.pop()
            for k in touching[c]:
                left[k] += mine
                room[k] += 1

    walk(0)
    return by_total


@pytest.mark.parametrize("method", METHODS)
def test_real_boards_match_an_independent_reference(method: str) -> None:
    """Positions of hard-bot games, flagged and flag-free (65 boards, frontiers of up to 33
    cells, components of up to 16 groups), against the cell-by-cell reference: within 1e-12."""
    with only(method):
        _check_against_reference()


def _check_against_reference() -> None:
    checked = 0
    for position in real_positions(2, 5):
        flag_free = Position(
            16, 16, 51, tuple("." if ch in FLAG_CHARS else ch for ch in position.cells)
        )
        for board in (position, flag_free):
            settled = deduce(board)
            parts, frontier = split(settled)
            if max((len(p.cells) for p in parts), default=0) > 25 or frontier.bit_count() > 60:
                continue
            if any(sum(p.sizes) > 22 for p in parts):
                continue
            expected = reference_chances(board)  # about 65 boards pass the filter
            found = solve(board).mine
            assert set(found) == set(board.covered)
            assert max(abs(found[c] - float(p)) for c, p in expected.items()) < 1e-12
            checked += 1
    assert checked >= 60


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        # as ``Counted`` holds them: from the fewest mines (``low``, 0 here) to the most, each end
        # a layout
        st.lists(st.integers(0, 10**15), min_size=1, max_size=9).filter(lambda p: p[0] and p[-1]),
        min_size=0,
        max_size=6,
    ),
    st.integers(0, 40),
)
def test_each_components_others_are_the_product_of_the_others(
    totals: list[list[int]], rest: int
) -> None:
    """``_others`` (synthetic division of the whole by each component when there are three or
    more) against the product of the other components taken directly, on the coefficients the
    combination reads (those up to ``rest`` less the component's lowest total)."""
    comps = [Counted([], [], 0, poly, []) for poly in totals]
    others_of, everything = probability._others(comps, rest)
    whole = [1]
    for poly in totals:
        whole = _product(whole, poly)
    assert everything == whole[: rest + 1]
    for i, comp in enumerate(totals):
        direct = [1]
        for j, poly in enumerate(totals):
            if j != i:
                direct = _product(direct, poly)
        low = next(t for t, c in enumerate(comp) if c)
        reach = len(everything) - low  # the others' coefficients a total of the component meets
        padded = direct + [0] * reach  # (a product's coefficients past its degree are 0)
        assert (others_of[i] + [0] * reach)[:reach] == padded[:reach]


def _product(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def separate_clusters(mines: set[int]) -> Position:
    """A 12x4 board, every cell covered but pairs of numbers in the second row at columns 1-2,
    5-6 and 9-10 (true to ``mines``): three components of three groups each, apart, and a
    row of free cells below."""
    width = 12
    table = neighbours(width, 4)
    cells = ["."] * (4 * width)
    for col in (1, 2, 5, 6, 9, 10):
        cell = width + col
        cells[cell] = str(sum(1 for n in table[cell] if n in mines))
    return Position(width, 4, len(mines) + 2, tuple(cells))


@pytest.mark.parametrize(
    "mines",
    [
        {4, 7, 26, 33, 35},
        {9, 12, 15, 20, 26, 30, 33},
        {3, 6, 8, 24, 26, 28, 32, 35},
        {0, 2, 4, 9, 15, 31},
    ],
)
def test_several_varying_components_match_the_reference(mines: set[int]) -> None:
    """Boards whose components each hold more than one mine total, so the combination
    divides the whole by each component (``_quotient``): exact against the reference (two
    more mines than the layout, somewhere in the free row)."""
    position = separate_clusters(mines)
    settled = deduce(position)
    parts, _ = split(settled)
    left = settled.mines_left - settled.mines.bit_count()
    varying = [p for p in parts if sum(1 for c in counting.count(p, left).totals if c) > 1]
    assert len(varying) >= 3
    expected = reference_chances(position)
    found = solve(position)
    assert set(found.mine) == set(position.covered)
    assert max(abs(found.mine[c] - float(p)) for c, p in expected.items()) < 1e-12


def test_a_components_packed_needs_hold_only_its_own_numbers() -> None:
    """The packed state of a component has one field per number of the component, in cell
    order, however far along the board its numbers lie (a few machine words per state)."""
    position = Position.from_board(16, 3, 4, ["." * 16, "." * 14 + "11", "." * 16])
    settled = deduce(position)
    (part,) = split(settled)[0]
    assert part.fields == (1 << FIELD) | 1  # two numbers: fields 0 and 1, not cells 30 and 31
    assert part.needs == part.fields  # each needs one mine
    assert all(t & ~part.fields == 0 for t in part.touch)


def brute_count(part: Part, limit: int) -> tuple[int, list[int], list[list[int]]]:
    """A component's count by every choice of mines per group (``C(size, m)`` layouts each):
    the layouts meeting every number, with at most ``limit`` mines, as ``Counted`` says them
    (the lowest total, then totals and each group's mines from it)."""
    by_total: dict[int, int] = {}
    mined: dict[tuple[int, int], int] = {}
    for choice in product(*(range(size + 1) for size in part.sizes)):
        total = sum(choice)
        if (
            total > limit
            or sum(m * t for m, t in zip(choice, part.touch, strict=True)) != part.needs
        ):
            continue  # (a field sums to at most 8: no carry, so equal integers are equal needs)
        ways = prod(comb(size, m) for size, m in zip(part.sizes, choice, strict=True))
        by_total[total] = by_total.get(total, 0) + ways
        for g, m in enumerate(choice):
            mined[g, total] = mined.get((g, total), 0) + m * ways
    if not by_total:
        return 0, [], [[] for _ in part.sizes]
    low, top = min(by_total), max(by_total)
    span = range(low, top + 1)
    return (
        low,
        [by_total.get(t, 0) for t in span],
        [[mined.get((g, t), 0) for t in span] for g in range(len(part.sizes))],
    )


@settings(max_examples=200, deadline=None)
@given(consistent_positions(), st.integers(0, 25))
def test_every_counting_method_counts_a_component_from_its_fewest_mines(
    position: Position, limit: int
) -> None:
    """Each way to count a component (the lone group, two or three groups in closed form,
    the listing, the programme) gives the count of every choice of mines per group, capped
    at ``limit``, from its lowest total: ``Counted.low`` is the fewest mines a layout holds,
    and the totals start and end with a layout (what the combination relies on to tell
    fixed components from varying ones)."""
    settled = deduce(position)
    for part in split(settled)[0]:
        expected = brute_count(part, limit)
        counts = [counting.count(part, limit)]
        if len(part.sigs) > 1:
            with only("listing"):  # (never giving up)
                listed = counting._listed(part, list(range(len(part.sigs))), limit, None)
            assert listed is not None
            counts += [listed, counting._programme(part, frontier_order(part), limit, None)]
        for found in counts:
            assert (found.low, found.totals, found.marginals) == expected
            assert not found.totals or (found.totals[0] and found.totals[-1])


# A position of real play (hard against medium) whose components the listing counts.
LISTED = [
    "2.2..1000002...2",
    ".4..11122102.43.",
    "..3......1123.21",
    ".23.3.23....22..",
    "..23..2...2....2",
    "1......2..1.1..2",
    "....1........3..",
    "................",
    "..........42....",
    "............21..",
    ".............2..",
    "...........12...",
    ".............1..",
    "................",
    ".........11.....",
    ".........1......",
]


def test_a_solve_leaves_nothing_for_the_garbage_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing's search calls itself through its closure, a reference cycle; it is broken
    when the listing ends, so a solve's objects are freed as it returns, not piled up for the
    collector (a collection every few solves, with whatever it holds)."""
    listed: list[bool] = []
    real = counting._listed

    def spy(*args: Any, **kwargs: Any) -> Counted | None:
        found = real(*args, **kwargs)
        listed.append(found is not None)
        return found

    monkeypatch.setattr(counting, "_listed", spy)
    position = Position.from_board(16, 16, 51, LISTED)
    gc.collect()
    gc.disable()
    try:
        solve(position)
        assert listed and all(listed)  # (the listing ran, and finished)
        assert gc.collect() == 0
    finally:
        gc.enable()
