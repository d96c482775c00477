"""Exact mine probabilities for a public board, under the global mine count.

Every mine layout consistent with the open numbers, the flags (known mines) and the number of
mines still covered is equally likely, so a cell's chance is the share of layouts with a mine
there. Counting layouts one by one explodes, so the count is organised:

1. **Deduction** (``deduction``): cells that one number, or two overlapping numbers, prove
   mine or safe are settled first. Purely local and sound, so it changes no count.
2. **Groups and components** (``components``): covered cells touching exactly the same
   numbers are interchangeable; groups linked by shared numbers form components, independent
   except through the global mine count.
3. **Counting** (``counting``): each component's layouts by mine total, with each group's
   mines, listed outright when few fit or counted by the frontier programme over a narrow
   order (``ordering``), in exact integers.
4. **Combination** (here): a component total ``t`` is worth
   ``sum_j others(j) * C(U, left - F - t - j)`` (``U`` cells touching no number, ``F`` the mines
   of components whose every layout holds the same number, ``others`` the other components
   convolved); each group's chance is its mines by total weighed by that worth. Cells touching
   no number share the rest.

All counting is in Python integers, so the chances are exact up to the final division (a
correctly rounded float), and "certain" means exactly certain. Every part spends from an
optional ``Budget`` (``budget``): past it, ``TooHard``, never a long wait.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb
from operator import itemgetter, mul

from .board_bits import cells_of, each_cell, grid
from .budget import Budget, TooHard
from .components import Part, Shape, split
from .counting import Counted, count
from .deduction import Inconsistent, Settled, deduce
from .position import Position

__all__ = [
    "Budget",
    "Counts",
    "Inconsistent",
    "Settled",
    "Solution",
    "Summary",
    "TooHard",
    "deduce",
    "number_chances",
    "outcome_summaries",
    "outcomes",
    "reveal",
    "solve",
    "solve_settled",
    "summarize_settled",
]

Poly = list[int]
"""Layout counts by mine total: ``poly[t]`` layouts hold ``t`` mines."""

PAIRS_FROM = 20
"""Components of more groups than this get the pair rule (``deduction``) before they are
counted: it splits them and settles cells, which pays on large ones; smaller ones are counted
outright (listed, up to ``counting.SPREAD_GROUPS`` = 20 groups, or by the programme), which
finds the same cells for less. (12 until the listing took components of 13 to 20 groups: at 20
real play's boards whose largest component has 13 to 26 groups are 1.16 times faster at the
median and 1.11 in total, interleaved fastest of 9; past 26 groups 1.03 / 1.02, stress 1.03 /
1.03; 18 to 24 within 1% of 20, 30 slower past 26 groups.)"""

COMBINE_COST = 35
"""Work units per component combined (and once for the free cells), ``budget``."""
SUMMARY_COST = 20
"""The same when only a ``Summary`` is wanted (no per-cell table to build)."""

_first = itemgetter(0)
"""A list's first item (a fixed component's marginals hold one total)."""


@dataclass(frozen=True)
class Solution:
    """Exact chances for a position: ``mine[cell]`` for covered cells; ``weight`` layouts.

    ``settled`` is the deduction it was counted from, kept so look-ahead boards can start
    from it instead of reading the board anew.
    """

    mine: dict[int, float]
    certain_mines: tuple[int, ...]
    certain_safe: tuple[int, ...]
    weight: int
    settled: Settled = field(repr=False, compare=False)
    shape: Shape = field(repr=False, compare=False, default=([], 0))

    def __init__(
        self,
        mine: dict[int, float],
        certain_mines: tuple[int, ...],
        certain_safe: tuple[int, ...],
        weight: int,
        settled: Settled,
        shape: Shape = ([], 0),
    ) -> None:
        # Written out (``Position.__init__``): one update of the instance's dict, not six
        # ``object.__setattr__`` calls; every solve builds one.
        vars(self).update(
            mine=mine,
            certain_mines=certain_mines,
            certain_safe=certain_safe,
            weight=weight,
            settled=settled,
            shape=shape,
        )


Counts = dict[tuple[int, frozenset[tuple[int, int]]], Counted]
"""Component counts by (mine cap, the component's numbers as (cells, need)): a component is
fixed by its numbers, so boards that share one (look-ahead boards) count it once."""


def solve(
    position: Position, budget: Budget | None = None, counts: Counts | None = None
) -> Solution:
    """Exact mine chance of every covered cell; raise ``Inconsistent`` if nothing fits.

    With a ``budget``, raise ``TooHard`` rather than count past it. ``counts``, if given, keeps
    component counts for other boards of the same caller.
    """
    return solve_settled(deduce(position, budget), budget, counts)


def solve_settled(
    settled: Settled, budget: Budget | None = None, counts: Counts | None = None
) -> Solution:
    """Count a board from its deduction (see ``solve``)."""
    result = _Chances()
    weight, shape = _combine(settled, budget, counts, result, None)
    return Solution(
        result.mine,
        tuple(sorted(result.certain)),
        tuple(sorted(result.safe)),
        weight,
        settled,
        shape,
    )


@dataclass(frozen=True)
class Summary:
    """What a look-ahead needs of a board, without every cell's chance: its layouts
    (``weight``), how many cells are certain mines, and the highest chance below certainty
    (0.0 when there is none). Exactly what ``Solution`` would say, for less work."""

    weight: int
    certain_mines: int
    best: float


def summarize_settled(
    settled: Settled,
    budget: Budget | None = None,
    counts: Counts | None = None,
    base: tuple[Shape, int] | None = None,
) -> Summary:
    """``solve_settled``'s answer in short (``Summary``); ``base`` as for ``split``."""
    result = _Tally()
    weight, _ = _combine(settled, budget, counts, result, base)
    return Summary(weight, result.certain, result.best)


def _combine(
    settled: Settled,
    budget: Budget | None,
    counts: Counts | None,
    result: _Chances | _Tally,
    base: tuple[Shape, int] | None,
) -> tuple[int, Shape]:
    """Count and combine a board's components, handing every cell's chance to ``result``;
    return the number of layouts and the board's shape (``components.split``)."""
    shape = split(settled, budget, base)
    parts, frontier = shape
    wide = 0  # the numbers of the components the pair rule is worth on
    for part in parts:
        if len(part.sigs) > PAIRS_FROM:
            wide |= part.numbers
    if wide:
        at = settled.index
        known = settled.known
        if settled.pairs([at[n] for n in cells_of(wide)], budget):
            # only the components near a cell the pairs settled are grouped again
            shape = split(settled, budget, (shape, settled.known & ~known))
            parts, frontier = shape
    left = settled.mines_left - settled.mines.bit_count()
    if left < 0:
        raise Inconsistent("the numbers need more mines than are left")
    comps = [_counted(settled, part, left, budget, counts) for part in parts]
    free_cells = settled.covered & ~frontier & ~settled.known
    free = free_cells.bit_count()
    if budget is not None:
        budget.spend(result.cost * (1 + len(comps)))
    # A component whose every layout holds the same number of mines is independent of the
    # rest: its chances are its own, and it only shifts and scales the global count.
    fixed_mines, fixed_ways = 0, 1
    fixed: list[Counted] = []
    varying: list[Counted] = []
    low = 0  # the fewest mines the varying components hold together
    for comp in comps:
        totals = comp.totals
        if len(totals) == 1:  # (totals start and end with a nonzero count)
            fixed.append(comp)
            fixed_mines += comp.low
            fixed_ways *= totals[0]
        elif totals:
            varying.append(comp)
            low += comp.low
        else:
            raise Inconsistent("no mine layout fits the board and the mine count")
    rest = left - fixed_mines
    if low > rest:
        raise Inconsistent("no mine layout fits the board and the mine count")
    # everything[k]: the layouts of the varying components together with low + k mines
    top = rest - low  # the most mines the free cells can hold
    others_of, everything = _others(varying, top)
    bottom = top - len(everything) + 1  # the fewest
    if bottom > free:
        raise Inconsistent("no mine layout fits the board and the mine count")
    # ways[k]: the layouts of the free cells when the components hold low + k mines, in
    # proportion (C(free, top - k) times divisor / C(free, bottom): every chance is a ratio of
    # sums linear in them, so the same rational and the same correctly rounded float, and
    # small integers keep every product and division on one or two machine words)
    ways, divisor = _binomial_ratios(free, bottom, len(everything))
    scaled = sum(map(mul, everything, ways))
    if scaled == 0:
        raise Inconsistent("no mine layout fits the board and the mine count")
    loose, spread = 0, 1  # no free cells: the table's first chance is a placeholder
    if free:
        # each free cell holds a mine in C(free - 1, rest - t - 1) = C(free, rest - t) * (rest - t)
        # / free of the free layouts
        loose = sum(map(mul, map(mul, everything, ways), range(top, bottom - 1, -1)))
        spread = scaled * free
    result.add_free(settled.covered, free_cells, loose, spread)  # first: the table starts here
    result.add_known(settled.mines, settled.safe)
    if fixed:
        result.add_fixed(fixed)
    if len(varying) == 1:  # its totals are worth the free cells' layouts alone
        comp = varying[0]
        result.add_groups(comp, ways, scaled)
    else:
        # (the zips here pair lists of one length, and pass no ``strict=True``: a keyword
        # argument sends ``zip`` down its slow path, 380 against 140 ns a call, a few a
        # component)
        for comp, others in zip(varying, others_of):  # noqa: B905
            # worth[k]: the layouts of everything else when this component holds low + k mines
            # (where it has no layout its marginals are 0, so the worth there is never read;
            # past the cap it is 0, and a shorter list weighs the same)
            if len(others) == 2:  # (the others, two totals: each worth is two terms)
                first, second = others
                after = ways[1:]
                after.append(0)  # (past the cap)
                worth = [first * a + second * b for a, b in zip(ways, after)]  # noqa: B905
                del worth[len(comp.totals) :]
            else:
                worth = [sum(map(mul, others, ways[k:])) for k in range(len(comp.totals))]
            result.add_groups(comp, worth, scaled)
    return comb(free, bottom) * scaled // divisor * fixed_ways, shape


def _weighed(weights: list[int], marginals: list[list[int]]) -> list[int]:
    """Each group's mines by total (``marginals``, of a component) weighed by ``weights`` by
    total and summed (over the totals both hold), written out for two or three totals (most
    components): a ``sum`` over a ``map`` per group cost more than the terms."""
    size = len(marginals[0])  # (every group's marginals run over the component's totals)
    if size == len(weights):
        if size == 2:
            first, second = weights
            return [first * a + second * b for a, b in marginals]
        if size == 3:
            first, second, third = weights
            return [first * a + second * b + third * c for a, b, c in marginals]
    return [sum(map(mul, weights, mined)) for mined in marginals]


class _Chances:
    """The chances as they are found: per cell, and the cells found certain either way
    (``_combine`` starts the table with ``add_free``, then hands the cells deduction settled to
    ``add_known``, the components of one total to ``add_fixed`` and a component's groups at a
    time to ``add_groups``, and takes ``cost`` work units per component)."""

    __slots__ = ("certain", "mine", "safe")
    cost = COMBINE_COST

    def __init__(self) -> None:
        self.mine: dict[int, float] = {}
        self.certain: list[int] = []
        self.safe: list[int] = []

    def add_free(self, covered: int, cells: int, numerator: int, denominator: int) -> None:
        """Every ``covered`` cell (bits) at the chance of the free ``cells``, the cells touching
        no number: ``numerator / denominator`` each.

        The table is one dict built over every covered cell at once (in index order), and the
        cells of the numbers are then overwritten: an overwrite costs about two thirds of an
        insert, and building smaller dicts for the known cells and merging them cost more.
        With no free cell the chance is a placeholder every cell's own chance replaces.
        """
        self.mine = dict.fromkeys(each_cell(covered), numerator / denominator)
        if cells and numerator in (denominator, 0):
            (self.certain if numerator else self.safe).extend(cells_of(cells))

    def add_groups(self, comp: Counted, weights: list[int], scale: int) -> None:
        """A component's groups at once: every cell of group ``g`` is a mine with chance
        ``numerators[g] / (scale * sizes[g])``, its numerator its mines by total weighed by
        ``weights`` (``_weighed``)."""
        self._put(comp.cells, comp.sizes, _weighed(weights, comp.marginals), scale)

    def add_fixed(self, comps: list[Counted]) -> None:
        """The components whose layouts all hold the same number of mines: each group's
        chance is its mines over its cells, read from its count as it stands (no list of
        numerators built per component)."""
        for comp in comps:
            self._put(comp.cells, comp.sizes, map(_first, comp.marginals), comp.totals[0])

    def _put(
        self, groups: list[list[int]], sizes: list[int], numerators: Iterable[int], scale: int
    ) -> None:
        """Every cell of ``groups[g]`` a mine with chance ``numerators[g] / (scale *
        sizes[g])`` (one call per component, not per group: a call costs what a group does)."""
        mine = self.mine
        certain = self.certain
        safe = self.safe
        for cells, size, numerator in zip(groups, sizes, numerators):  # noqa: B905
            denominator = scale * size
            chance = numerator / denominator
            for cell in cells:  # (a group is a few cells: a loop beats building a dict)
                mine[cell] = chance
            if numerator == denominator:
                certain.extend(cells)
            elif not numerator:
                safe.extend(cells)

    def add_known(self, mines: int, safe: int) -> None:
        """The cells deduction settled (bits): certain mines, and certain safe cells."""
        mine = self.mine
        if mines:
            found = cells_of(mines)
            for cell in found:
                mine[cell] = 1.0
            self.certain.extend(found)
        if safe:
            found = cells_of(safe)
            for cell in found:
                mine[cell] = 0.0
            self.safe.extend(found)


class _Tally:
    """The summary of the chances as they are found (``Summary``): no per-cell table."""

    __slots__ = ("best", "certain")
    cost = SUMMARY_COST

    def __init__(self) -> None:
        self.certain = 0
        self.best = 0.0

    def add_groups(self, comp: Counted, weights: list[int], scale: int) -> None:
        """A component's groups at once (``_Chances.add_groups``)."""
        for size, numerator in zip(comp.sizes, _weighed(weights, comp.marginals)):  # noqa: B905
            self._count(size, numerator, scale * size)

    def add_fixed(self, comps: list[Counted]) -> None:
        """The components of one total each (``_Chances.add_fixed``)."""
        for comp in comps:
            scale = comp.totals[0]
            for size, mined in zip(comp.sizes, map(_first, comp.marginals)):  # noqa: B905
                self._count(size, mined, scale * size)

    def add_known(self, mines: int, safe: int) -> None:
        """The cells deduction settled (bits): certain mines, and certain safe cells."""
        self.certain += mines.bit_count()

    def add_free(self, covered: int, cells: int, numerator: int, denominator: int) -> None:
        """The free cells (bits; ``_Chances.add_free``), if any."""
        if cells:
            self._count(cells.bit_count(), numerator, denominator)

    def _count(self, cells: int, numerator: int, denominator: int) -> None:
        if numerator == denominator:
            self.certain += cells
        else:
            chance = numerator / denominator
            if self.best < chance < 1.0:  # (as ``Solution``: a chance rounding to 1 is not best)
                self.best = chance


def _counted(
    settled: Settled,
    part: Part,
    limit: int,
    budget: Budget | None,
    counts: Counts | None,
) -> Counted:
    """A component's count: kept on the part itself (a look-ahead board keeps the parts no
    change reaches), else from ``counts`` when a board before had the same component."""
    kept = part.counted
    if kept is not None and kept[0] == limit and isinstance(kept[1], Counted):
        return kept[1]
    if counts is None or len(part.sigs) == 1:
        found = count(part, limit, budget)
    else:
        key = (limit, part.key(settled))
        found = counts.get(key) or count(part, limit, budget)
        counts[key] = found
    part.counted = (limit, found)
    return found


def _others(varying: list[Counted], rest: int) -> tuple[list[Poly], Poly]:
    """Per component, the others convolved, and every component together (by mine total
    above the components' lowest, ``Counted.low``, capped at ``rest`` above it). With more
    than two, each one's others are the whole divided by it:
    one product and one division per component, not prefix and suffix products."""
    if len(varying) < 2:
        return [[1]] * len(varying), varying[0].totals[: rest + 1] if varying else [1]
    if len(varying) == 2:
        first, second = varying[0].totals, varying[1].totals
        return [second, first], _convolve(first, second, rest)
    everything = varying[0].totals[: rest + 1]
    for comp in varying[1:]:
        everything = _convolve(everything, comp.totals, rest)
    return [_quotient(everything, comp.totals) for comp in varying], everything


def _convolve(a: Poly, b: Poly, limit: int) -> Poly:
    """The product of two polynomials, capped at degree ``limit``: term by term, the shorter
    one outside. The polynomials here are short (two to four totals on most boards), where
    a sum in C per coefficient over two slices cost more than the terms (2.6 against 1.0 us
    for two of two, and still 31 against 17 us for 19 by 22); a factor of two totals is one
    pass over the other."""
    if len(a) < len(b):
        a, b = b, a
    if len(b) == 2:  # (most components have two totals)
        low, high = b
        before = 0
        out = []
        for x in a:
            out.append(x * low + before * high)
            before = x
        out.append(before * high)
    else:
        out = [0] * (len(a) + len(b) - 1)
        for i, y in enumerate(b):
            for j, x in enumerate(a, i):
                out[j] += x * y
    del out[limit + 1 :]
    return out


def _quotient(whole: Poly, factor: Poly) -> Poly:
    """``q`` with ``q * factor == whole`` on every coefficient ``whole`` holds, when ``whole``
    is ``factor`` times a polynomial, capped: synthetic division from the lowest coefficient,
    each step an exact integer division (``whole``'s cap only drops coefficients no step
    reaches), term by term as ``_convolve``."""
    low = 0
    while not factor[low]:  # (a component's count starts at a nonzero total: never here)
        low += 1
    lead = factor[low]
    found: Poly = []
    if len(factor) - low == 2:  # (two totals: one term a step)
        step = factor[low + 1]
        value = 0
        for c in whole[low:]:
            value = (c - step * value) // lead
            found.append(value)
        return found
    tail = factor[low + 1 :]
    for n in range(len(whole) - low):
        value = whole[n + low]
        for j, f in enumerate(tail[:n], 1):
            value -= f * found[n - j]
        found.append(value // lead)
    return found


def _binomial_ratios(n: int, bottom: int, length: int) -> tuple[list[int], int]:
    """``row`` and ``divisor`` with ``C(n, bottom + length - 1 - i) = row[i] * C(n, bottom) /
    divisor`` for ``i`` in ``0..length-1`` (``bottom <= n``): from ``C(n, bottom)`` each step up
    is a factor ``(n - k) / (k + 1)``, so ``row[i]`` is the product of the numerators up to
    its total and the denominators past it, and ``divisor`` of every denominator; small
    integers, where the binomials of about 200 free cells run to 140 bits."""
    if length < 3:  # (one or two totals: most boards)
        return ([1], 1) if length == 1 else ([n - bottom, bottom + 1], bottom + 1)
    ups = [1]  # ups[m]: (n - bottom) (n - bottom - 1) ... m factors (0 past n, as C is)
    up = 1
    for j in range(length - 1):
        up *= n - bottom - j
        ups.append(up)
    row = [0] * length
    down = 1  # the denominators of the steps past the total
    for m in range(length - 1, 0, -1):
        row[length - 1 - m] = ups[m] * down
        down *= bottom + m
    row[length - 1] = down
    return row, down


def reveal(position: Position, cell: int, number: int) -> Position:
    """The position after covered ``cell`` opens showing ``number`` (no flood fill)."""
    cells = list(position.cells)
    cells[cell] = str(number)
    safe = position.safe - {cell}
    return Position(position.width, position.height, position.mines, tuple(cells), safe)


def outcomes(
    position: Position,
    cell: int,
    budget: Budget | None = None,
    base: Solution | None = None,
    counts: Counts | None = None,
) -> list[tuple[int, float, Solution]]:
    """If covered ``cell`` is safe: each number it could show, its chance, and the board then.

    The chance of number ``k`` is the share of safe-at-``cell`` layouts that give ``k``, which is
    the layout count of the board with ``cell`` opened as ``k``. ``base``, the position's own
    solution if the caller has it, saves reading the board again.
    """
    settled = (base or solve(position, budget, counts)).settled
    around = grid(position.width, position.height).around[cell]
    low = (around & (settled.flags | settled.mines)).bit_count()
    unknown = (around & settled.covered & ~settled.known).bit_count()
    found: list[tuple[int, Solution]] = []
    for number in range(low, low + unknown + 1):
        try:
            after = settled.revealed(cell, number, budget)
            found.append((number, solve_settled(after, budget, counts)))
        except Inconsistent:
            continue
    total = sum(solution.weight for _, solution in found)
    if total == 0:
        raise Inconsistent(f"cell {cell} cannot be safe")
    return [(number, solution.weight / total, solution) for number, solution in found]


def outcome_summaries(
    position: Position,
    cell: int,
    budget: Budget | None,
    base: Solution,
    counts: Counts | None = None,
) -> list[tuple[int, float, Summary]]:
    """``outcomes`` in short: each number ``cell`` could show, its chance, and the board then
    as a ``Summary`` (what a look-ahead weighs), from the position's own solution ``base``."""
    settled = base.settled
    around = grid(position.width, position.height).around[cell]
    low = (around & (settled.flags | settled.mines)).bit_count()
    unknown = (around & settled.covered & ~settled.known).bit_count()
    found: list[tuple[int, Summary]] = []
    for number in range(low, low + unknown + 1):
        try:
            after = settled.revealed(cell, number, budget)
            changed = (1 << cell) | (after.known & ~settled.known)
            found.append((number, summarize_settled(after, budget, counts, (base.shape, changed))))
        except Inconsistent:
            continue
    total = sum(summary.weight for _, summary in found)
    if total == 0:
        raise Inconsistent(f"cell {cell} cannot be safe")
    return [(number, summary.weight / total, summary) for number, summary in found]


def number_chances(position: Position, cell: int) -> dict[int, float]:
    """Given covered ``cell`` is safe, the exact chance of each number it would show."""
    return {number: chance for number, chance, _ in outcomes(position, cell)}
