"""Exact mine probabilities for a public board, under the global mine count.

Every mine layout consistent with the open numbers, the flags (known mines) and the number of
mines still covered is equally likely, so a cell's chance is the share of layouts with a mine
there. Counting layouts one by one explodes, so the count is organised:

1. Covered cells that touch the same open numbers are interchangeable: they form a *group*, and
   only how many mines a group holds matters (``C(size, m)`` layouts inside it).
2. Groups linked through shared numbers form *components*; components are independent except
   through the global mine count.
3. Each component is counted by a *frontier dynamic programme*: groups are taken in a
   bandwidth-reducing order, and the state is the remaining need of the numbers that are
   open (touched but not yet finished). Layouts are tallied by mine total, as exact integers.
   Most components on real boards fit few layouts, so each is first *listed* by a bounded
   depth-first search (cheaper than setting the programme up); past ``LISTED_NODES`` search
   steps the listing gives up and the programme counts it.
4. Components and the cells that touch no number (*unconstrained*) are combined with binomial
   weights: a component total ``t`` is worth ``sum_j others(j) * C(unconstrained, left - t - j)``.
   A backward pass with that weight folded in gives every group's expected mine count, so all
   marginals come from one forward and one backward sweep.

All counting is in Python integers, so the chances are exact up to the final division (a
correctly rounded float), and "certain" means exactly certain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from math import comb
from typing import NamedTuple

from ..state import COVERED
from .position import FLAG_CHARS, NUMBER_CHARS, Position

NUMBERS = NUMBER_CHARS
DIGITS = {str(d): d for d in range(9)}

Poly = list[int]
"""Layout counts by mine total: ``poly[t]`` layouts hold ``t`` mines."""


class Inconsistent(ValueError):
    """No mine layout fits the board (a number or the mine count cannot be met)."""


class TooHard(RuntimeError):
    """Counting would pass the caller's budget of programme terms (only with a budget)."""


SETUP_COST = 100
"""A board's reading and grouping, in programme terms (it takes about as long as 100)."""


class Budget:
    """Work a caller can afford, in programme terms: a state's count of layouts by mine total
    is one term per total (a board's setup counts ``SETUP_COST`` plus one per group).

    Counting is exact or it stops: passing the budget raises ``TooHard``, so a pathological
    board costs a bounded amount of work instead of a timeout. No clock is read: the same
    board and budget always give the same answer.
    """

    def __init__(self, terms: int) -> None:
        self.left = terms

    def spend(self, terms: int) -> None:
        """Take ``terms`` from the budget; raise ``TooHard`` once it is overdrawn."""
        self.left -= terms
        if self.left < 0:
            raise TooHard("the board needs more counting than the budget allows")


class Group(NamedTuple):
    """Covered cells touching exactly the same open numbers (``constraints``)."""

    cells: tuple[int, ...]
    constraints: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many cells the group holds."""
        return len(self.cells)


@dataclass(frozen=True)
class Constraints:
    """The numbers' demands on covered cells, grouped.

    ``needs[k]`` is how many mines number ``k`` still lacks among its covered neighbours.
    ``unconstrained`` are covered cells next to no open number.
    """

    needs: tuple[int, ...]
    groups: tuple[Group, ...]
    unconstrained: tuple[int, ...]
    mines_left: int
    mines: tuple[int, ...] = ()
    safe: tuple[int, ...] = ()
    cells_of: tuple[set[int], ...] = ()  # per number: its covered cells still open


def constraints_of(position: Position) -> Constraints:
    """Read the numbers' demands off a position; raise ``Inconsistent`` if one cannot be met.

    Cells that pairs of numbers alone prove mine or safe are settled first (``Deduction``):
    that is sound whatever the global count, and it cuts the components the programme counts.
    """
    return grouped(deduce(position))


def deduce(position: Position) -> Deduction:
    """Every number's demand on its covered neighbours, with what they alone settle.

    Numbers that need none or all of their cells are settled in bulk first, by set arithmetic:
    on real boards most covered cells next to numbers are such known mines (flags or not), and
    taking them out one at a time through ``Deduction.settle`` is most of a board's setup.
    """
    cells = position.cells
    table = position.table
    spots = range(len(cells))
    covered = set(compress(spots, map(COVERED.__eq__, cells)))
    flags = set(compress(spots, map(FLAG_CHARS.__contains__, cells))) if position.flagged else set()
    sets: list[set[int]] = []
    needs: list[int] = []
    mines: set[int] = set()
    safe: set[int] = set(position.safe)  # covered cells the seat knows are safe
    for cell in compress(spots, map(NUMBERS.__contains__, cells)):
        around = table[cell]
        hidden = covered.intersection(around)
        need = DIGITS[cells[cell]]
        if flags:
            need -= len(flags.intersection(around))
        size = len(hidden)
        if not 0 <= need <= size:
            raise Inconsistent(f"the number at cell {cell} cannot be met")
        if hidden:
            sets.append(hidden)
            needs.append(need)
            if need == 0:
                safe |= hidden
            elif need == size:
                mines |= hidden
    if not mines.isdisjoint(safe):
        raise Inconsistent("a cell must be both a mine and safe")
    known = mines | safe
    by_cell: dict[int, list[int]] = {}
    trivial: list[int] = []  # numbers that need none or all of their cells
    pending: list[int] = []
    for k, hidden in enumerate(sets):
        if not known.isdisjoint(hidden):
            need = needs[k] - len(mines.intersection(hidden))
            hidden.difference_update(known)
            needs[k] = need
            if not 0 <= need <= len(hidden):
                raise Inconsistent("the numbers cannot all be met")
            if not hidden:
                continue
            if need in (0, len(hidden)):
                trivial.append(k)
            else:
                pending.append(k)
        else:
            pending.append(k)
        for n in hidden:  # as ``_index``, inline: every number passes here
            around_n = by_cell.get(n)
            if around_n is None:
                by_cell[n] = [k]
            else:
                around_n.append(k)
    settled = Deduction(sets, needs, covered, position.mines_left, by_cell)
    settled.mines, settled.safe = mines, safe
    settled.queue.extend(trivial)
    settled.queued.update(trivial)
    settled.pending.extend(pending)
    settled.waiting.update(pending)
    settled.run()
    return settled


def _index(table: dict[int, list[int]], cells: set[int], number: int) -> None:
    """Note in ``table`` (cell -> numbers) that ``number`` touches each of ``cells``."""
    for n in cells:
        if n in table:
            table[n].append(number)
        else:
            table[n] = [number]


def grouped(settled: Deduction) -> Constraints:
    """Group the cells the numbers still leave open (``Constraints``)."""
    sets, needs = settled.sets, settled.needs
    touching: dict[int, list[int]] = {}
    kept: list[int] = []
    cells_of: list[set[int]] = []
    for k, hidden in enumerate(sets):
        if not hidden:
            if needs[k]:
                raise Inconsistent("a number lacks mines no covered cell can give")
            continue
        _index(touching, hidden, len(kept))
        kept.append(needs[k])
        cells_of.append(hidden)
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell in sorted(touching):
        by_signature.setdefault(tuple(touching[cell]), []).append(cell)
    groups = tuple(Group(tuple(cells), sig) for sig, cells in by_signature.items())
    known = settled.mines | settled.safe
    unconstrained = tuple(sorted(settled.covered.difference(touching, known)))
    left = settled.mines_left - len(settled.mines)
    if left < 0:
        raise Inconsistent("the numbers need more mines than are left")
    return Constraints(
        tuple(kept),
        groups,
        unconstrained,
        left,
        tuple(sorted(settled.mines)),
        tuple(sorted(settled.safe)),
        tuple(cells_of),
    )


def _pair_settles(need_a: int, size_a: int, need_b: int, size_b: int, inner: int) -> bool:
    """Whether the overlap bounds of two numbers (sizes only) settle a cell or contradict."""
    only_a, only_b = size_a - inner, size_b - inner
    low = max(0, need_a - only_a, need_b - only_b)
    high = min(inner, need_a, need_b)
    return (
        low > high
        or not (only_a or only_b)
        or (only_a > 0 and (need_a - high == only_a or need_a == low))
        or (only_b > 0 and (need_b - high == only_b or need_b == low))
        or (low == high and low in (0, inner))
    )


class Deduction:
    """Settle cells that one number, or two overlapping numbers, prove mine or safe.

    For numbers A and B sharing cells I, the mines in I lie between
    ``max(0, need_A - |A - I|, need_B - |B - I|)`` and ``min(|I|, need_A, need_B)``; from
    those bounds the cells of ``A - I`` (and ``B - I``, and I itself) are sometimes all mines or
    all safe. Settled cells leave every number's set (a mine lowers its need), and the numbers
    touched are looked at again, until nothing changes. Purely local, hence exact.
    """

    def __init__(
        self,
        sets: list[set[int]],
        needs: list[int],
        covered: set[int],
        mines_left: int,
        by_cell: dict[int, list[int]],
    ) -> None:
        self.sets = sets
        self.needs = needs
        self.covered = covered
        self.mines_left = mines_left
        self.mines: set[int] = set()
        self.safe: set[int] = set()
        self.by_cell = by_cell  # cell -> the numbers whose sets hold it
        self.queue: list[int] = []  # numbers that need none or all of their cells
        self.queued: set[int] = set()
        self.pending: list[int] = []  # numbers to try the pair rule on
        self.waiting: set[int] = set()

    @property
    def known(self) -> set[int]:
        """Cells settled as mine or safe."""
        return self.mines | self.safe

    def revealed(self, position: Position, cell: int, number: int) -> Deduction:
        """A settled copy for the board where covered ``cell`` opens showing ``number``.

        What was settled stays settled (more information never undoes a sound deduction), so
        only the new number and the numbers around ``cell`` are worked again: far cheaper
        than reading the whole board anew.
        """
        if cell in self.mines:
            raise Inconsistent(f"cell {cell} is a certain mine")
        copy = Deduction.__new__(Deduction)
        copy.sets = [set(hidden) for hidden in self.sets]
        copy.needs = list(self.needs)
        copy.covered = self.covered - {cell}
        copy.mines_left = self.mines_left
        copy.mines = set(self.mines)
        copy.safe = set(self.safe)
        copy.by_cell = {n: list(ks) for n, ks in self.by_cell.items()}
        copy.queue, copy.queued, copy.pending, copy.waiting = [], set(), [], set()
        around = position.table[cell]
        need = number - sum(1 for n in around if position.is_flag(n) or n in self.mines)
        known = self.known
        hidden = {n for n in around if n in copy.covered and n not in known}
        copy.settle([cell], mine=False)
        copy.safe.discard(cell)  # it is open now, no longer a covered safe cell
        k = len(copy.sets)
        copy.sets.append(hidden)
        copy.needs.append(need)
        for n in hidden:
            copy.by_cell.setdefault(n, []).append(k)
        copy.classify(k)
        copy.run()
        return copy

    def run(self) -> None:
        """Work the queues until no cell can be settled: numbers that need none or all of
        their cells first (cheap), then pairs of numbers sharing at least two cells."""
        sets, needs, queue, pending = self.sets, self.needs, self.queue, self.pending
        while queue or pending:
            if queue:
                k = queue.pop()
                self.queued.discard(k)
                hidden = sets[k]
                if hidden:
                    self.settle(list(hidden), mine=needs[k] > 0)
                continue
            k = pending.pop()
            self.waiting.discard(k)
            hidden = sets[k]
            if not hidden:
                continue
            shared: dict[int, int] = {}
            for n in hidden:
                for j in self.by_cell[n]:
                    shared[j] = shared.get(j, 0) + 1
            need = needs[k]
            for j in sorted(shared):
                # numbers sharing one cell settle nothing a single number would not
                if (
                    j != k
                    and shared[j] > 1
                    and sets[j]
                    and _pair_settles(need, len(hidden), needs[j], len(sets[j]), shared[j])
                ):
                    self.pair(k, j)

    def classify(self, k: int) -> None:
        """Queue number ``k`` to settle its cells if it needs none or all of them, else for
        the pair rule; refuse a number that can no longer be met."""
        hidden = self.sets[k]
        if not hidden:
            return
        need = self.needs[k]
        if need == 0 or need == len(hidden):
            if k not in self.queued:
                self.queued.add(k)
                self.queue.append(k)
        elif not 0 < need < len(hidden):
            raise Inconsistent("the numbers cannot all be met")
        elif k not in self.waiting:
            self.waiting.add(k)
            self.pending.append(k)

    def pair(self, a: int, b: int) -> bool:
        """Apply the overlap bounds to numbers ``a`` and ``b``; True if a cell was settled."""
        set_a, set_b = self.sets[a], self.sets[b]
        if not set_a or not set_b:
            return False
        inner = set_a & set_b
        only_a, only_b = set_a - inner, set_b - inner
        need_a, need_b = self.needs[a], self.needs[b]
        low = max(0, need_a - len(only_a), need_b - len(only_b))
        high = min(len(inner), need_a, need_b)
        if low > high:
            raise Inconsistent("two numbers contradict each other")
        if not only_a and not only_b:  # the same cells: one number is enough
            self.sets[b] = set()
            self.needs[b] = 0
            return False
        found = False
        for part, need in ((only_a, need_a), (only_b, need_b)):
            if part and need - high == len(part):
                self.settle(list(part), mine=True)
                found = True
            elif part and need - low == 0:
                self.settle(list(part), mine=False)
                found = True
        if low == high and inner and low in (0, len(inner)):
            self.settle(list(inner), mine=low > 0)
            found = True
        return found

    def settle(self, cells: list[int], mine: bool) -> None:
        """Record ``cells`` as mines or safe, take them out of every number, and look at
        the numbers they touched again."""
        mines, safe, sets, needs = self.mines, self.safe, self.sets, self.needs
        queue, queued, pending, waiting = self.queue, self.queued, self.pending, self.waiting
        into = mines if mine else safe
        for n in cells:
            if n in mines or n in safe:
                continue
            into.add(n)
            for j in self.by_cell.pop(n, ()):
                hidden = sets[j]
                if not hidden:  # a duplicate number, already dropped
                    continue
                hidden.discard(n)
                if mine:
                    needs[j] -= 1
                need, size = needs[j], len(hidden)
                if need in (0, size):  # as ``classify``, inline: this is the hot loop
                    if size and j not in queued:
                        queued.add(j)
                        queue.append(j)
                elif not 0 < need < size:
                    raise Inconsistent("the numbers cannot all be met")
                elif j not in waiting:
                    waiting.add(j)
                    pending.append(j)


def components(system: Constraints) -> list[list[int]]:
    """Indexes of groups, split into components linked by shared numbers, each listed
    breadth-first from its lowest group (the order ``_listed`` walks it in)."""
    groups = system.groups
    by_constraint: dict[int, list[int]] = {}
    for g, group in enumerate(groups):
        for k in group.constraints:
            found = by_constraint.get(k)
            if found is None:
                by_constraint[k] = [g]
            else:
                found.append(g)
    seen = [False] * len(groups)
    split: list[list[int]] = []
    for start in range(len(groups)):
        if seen[start]:
            continue
        seen[start] = True
        order = [start]
        for g in order:
            for k in groups[g].constraints:
                for h in by_constraint[k]:
                    if not seen[h]:
                        seen[h] = True
                        order.append(h)
        split.append(order)
    return split


GREEDY_FROM = 12
"""Components with at least this many groups also try the greedy order and keep the better."""

NARROW = 5
"""A sweep order holding at most this many numbers open at once is kept as it is: counting it
is already cheap, cheaper than looking for a better order."""

LARGE = 30
TRIES_FROM_LARGE = 6
"""Components of ``LARGE`` groups or more (rare, and the costly ones) try the greedy order
from this many starts: ordering is cheap next to counting a wide frontier."""


def frontier_order(system: Constraints, members: Sequence[int]) -> list[int]:
    """Order a component's groups so few numbers are open at once.

    Breadth-first from a far end of the component, found by two sweeps (Cuthill-McKee
    style): along a board's frontier this walks the line end to end. Tangled components (cells
    opened here and there) also try a greedy order that always takes the group leaving the
    fewest numbers open, and keep whichever order holds fewer open at its widest.
    """
    if len(members) == 1:
        return list(members)
    by_constraint: dict[int, list[int]] = {}
    for g in members:
        for k in system.groups[g].constraints:
            by_constraint.setdefault(k, []).append(g)

    def sweep(start: int) -> list[int]:
        seen = {start}
        order = [start]
        for g in order:
            for k in system.groups[g].constraints:
                for h in by_constraint[k]:
                    if h not in seen:
                        seen.add(h)
                        order.append(h)
        return order

    order = sweep(sweep(min(members))[-1])
    if len(members) < GREEDY_FROM or _width(system, order)[0] <= NARROW:
        return order
    tries = [order]
    starts = TRIES_FROM_LARGE if len(members) >= LARGE else 1
    for i in range(starts):  # greedy runs from spread-out starts along the sweep
        first = order[i * (len(order) - 1) // max(1, starts - 1)] if starts > 1 else order[0]
        tries.append(
            _greedy_order(system, [first, *(g for g in order if g != first)], by_constraint)
        )
    return min(tries, key=lambda o: _width(system, o))


def _greedy_order(
    system: Constraints, start: list[int], by_constraint: dict[int, list[int]]
) -> list[int]:
    """Repeatedly take the group that leaves the fewest numbers open (ties: closes most)."""
    left = {k: len(gs) for k, gs in by_constraint.items()}
    done: set[int] = set()
    active: set[int] = set()
    order = [start[0]]
    rest = set(start[1:])
    while True:
        g = order[-1]
        done.add(g)
        for k in system.groups[g].constraints:
            left[k] -= 1
            active.add(k)
            if left[k] == 0:
                active.discard(k)
        if not rest:
            return order
        frontier = {h for k in active for h in by_constraint[k] if h in rest} or rest

        def cost(h: int) -> tuple[int, int, int]:
            ks = system.groups[h].constraints
            opened = sum(1 for k in ks if k not in active)
            closed = sum(1 for k in ks if left[k] == 1)
            return (opened - closed, -closed, h)

        best = min(frontier, key=cost)
        rest.discard(best)
        order.append(best)


def _width(system: Constraints, order: Sequence[int]) -> tuple[int, int]:
    """How costly an order is: the most numbers it holds open at once, then the sum over
    steps of 3 to the numbers open (the programme's states grow about that fast)."""
    last: dict[int, int] = {}
    for i, g in enumerate(order):
        for k in system.groups[g].constraints:
            last[k] = i
    active: set[int] = set()
    widest = 0
    spread = 0
    for i, g in enumerate(order):
        active.update(system.groups[g].constraints)
        widest = max(widest, len(active))
        spread += 3 ** len(active)
        active = {k for k in active if last[k] > i}
    return widest, spread


@dataclass(slots=True)
class _Step:
    """One group's move through the programme, precomputed."""

    size: int
    opens: tuple[int, ...]  # needs appended to the state before this group
    touched: tuple[int, ...]  # state slots (after appending) this group counts towards
    closing: tuple[int, ...]  # touched slots whose number is finished by this group
    keep: tuple[tuple[int, bool], ...]  # (slot, touched) kept in the next state
    capacity: tuple[int, ...]  # per kept slot: cells still to come that can serve it


def _steps(system: Constraints, order: Sequence[int]) -> list[_Step]:
    last: dict[int, int] = {}
    for i, g in enumerate(order):
        for k in system.groups[g].constraints:
            last[k] = i
    remaining: dict[int, int] = {}
    for g in order:
        for k in system.groups[g].constraints:
            remaining[k] = remaining.get(k, 0) + system.groups[g].size
    active: list[int] = []
    steps: list[_Step] = []
    for i, g in enumerate(order):
        group = system.groups[g]
        present = set(active)
        opens = [k for k in group.constraints if k not in present]
        layout = active + opens
        slot = {k: j for j, k in enumerate(layout)}
        for k in group.constraints:
            remaining[k] -= group.size
        touched = tuple(slot[k] for k in group.constraints)
        closing = tuple(slot[k] for k in group.constraints if last[k] == i)
        active = [k for k in layout if last[k] != i]
        keep = tuple((slot[k], k in group.constraints) for k in active)
        capacity = tuple(remaining[k] for k in active)
        steps.append(
            _Step(
                group.size, tuple(system.needs[k] for k in opens), touched, closing, keep, capacity
            )
        )
    return steps


def _moves(step: _Step, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Feasible (mines in this group, next state) pairs from ``state``."""
    ext = state + step.opens if step.opens else state
    top = step.size
    for j in step.touched:
        top = min(top, ext[j])
    low = 0
    if step.closing:
        low = ext[step.closing[0]]
        if low > top or any(ext[j] != low for j in step.closing):
            return []
        top = low
    result = []
    for m in range(low, top + 1):
        nxt = tuple([ext[j] - m if hit else ext[j] for j, hit in step.keep])
        for v, cap in zip(nxt, step.capacity):  # noqa: B905 (same length by construction)
            if v > cap:
                break
        else:
            result.append((m, nxt))
    return result


Transitions = list[tuple[tuple[int, ...], Poly, list[tuple[int, tuple[int, ...]]]]]
"""One step of the programme: (state, its counts, its feasible (mines, next state) moves)."""


@dataclass(slots=True)
class Component:
    """One component's count: the programme's steps, kept for the backward sweep.

    ``cells[i]`` are the cells of the ``i``-th group counted, so a count can serve another
    board with the same component (look-ahead boards share most of theirs).
    """

    cells: list[tuple[int, ...]]
    steps: list[_Step]
    transitions: list[Transitions]
    totals: Poly
    layouts: list[tuple[tuple[int, ...], int]] | None = None  # small ones: (mines per group, ways)


def count_component(
    system: Constraints, members: Sequence[int], limit: int, budget: Budget | None = None
) -> Component:
    """Run the forward programme over one component, totals capped at ``limit`` mines."""
    if len(members) == 1:
        return _lone_group(system, members[0], limit)
    listed = _listed(system, members, limit, budget) if len(members) <= LISTED_GROUPS else None
    if listed is not None:
        return listed
    order = frontier_order(system, sorted(members))  # as ever, whatever order they come in
    steps = _steps(system, order)
    layer: dict[tuple[int, ...], Poly] = {(): [1]}
    transitions: list[Transitions] = []
    for step in steps:
        weights = [comb(step.size, m) for m in range(step.size + 1)]
        nxt: dict[tuple[int, ...], Poly] = {}
        record: Transitions = []
        # The step's terms so far (they only grow): once past what the budget has left, the
        # step would overdraw it anyway, so it stops there rather than after a costly step.
        grown = 0
        room = budget.left if budget is not None else -1
        for state, poly in layer.items():
            moves = _moves(step, state)
            record.append((state, poly, moves))
            for m, new_state in moves:
                w = weights[m]
                target = nxt.get(new_state)
                size = min(len(poly) + m, limit + 1)
                if target is None:
                    target = nxt[new_state] = [0] * size
                    grown += size
                    if grown > room >= 0:
                        _overdraw(budget, grown)
                elif len(target) < size:
                    grown += size - len(target)
                    target.extend([0] * (size - len(target)))
                for t in range(size - m):
                    if poly[t]:
                        target[t + m] += poly[t] * w
        transitions.append(record)
        layer = nxt
        if budget is not None:
            budget.spend(sum(map(len, nxt.values())))
    cells = [system.groups[g].cells for g in order]
    return Component(cells, steps, transitions, layer.get((), []))


def _overdraw(budget: Budget | None, terms: int) -> None:
    """Spend ``terms`` the budget does not have: raises ``TooHard``."""
    if budget is not None:
        budget.spend(terms)


LISTED_NODES = 200
"""Components are first listed outright, layout by layout (cheaper than the programme when
few layouts fit, as on most boards); past this many search steps the listing gives up and the
programme counts the component instead, so a wide component costs at most this much extra."""


LISTED_GROUPS = 12
"""Larger components go straight to the programme: they seldom fit few layouts, and a listing
that gives up is work thrown away on exactly the boards that cost most."""


class _TooMany(Exception):
    """The listing of a component passed ``LISTED_NODES`` search steps."""


def _listed(
    system: Constraints, members: Sequence[int], limit: int, budget: Budget | None = None
) -> Component | None:
    """Every mine count per group that meets the component's numbers, with its layouts, or
    None when there are too many to list (``LISTED_NODES``).

    Depth-first over the groups in breadth-first order, so a number's groups come close
    together: each group's mine count is bounded by what its numbers still need and by how
    many cells are left to give it, and a number is met exactly at its last group. Each
    search step is one programme term of the ``budget``.
    """
    groups = system.groups
    order = members  # breadth-first already (``components``)
    needs = system.needs
    rem = {k: needs[k] for g in order for k in groups[g].constraints}
    room = dict.fromkeys(rem, 0)
    for g in order:
        for k in groups[g].constraints:
            room[k] += len(groups[g].cells)
    spec: list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]] = []
    for g in order:
        size = len(groups[g].cells)
        ks = groups[g].constraints
        for k in ks:
            room[k] -= size
        spec.append((size, tuple((k, room[k]) for k in ks), _binomials(size, size)))
    depth = len(spec)
    mines = [0] * depth
    layouts: list[tuple[tuple[int, ...], int]] = []
    # every group touches a number, so the mines are at most the numbers' needs together
    totals: Poly = [0] * (min(limit, sum(rem.values())) + 1)
    nodes = LISTED_NODES

    def walk(i: int, total: int, ways: int) -> None:
        nonlocal nodes
        if i == depth:
            layouts.append((tuple(mines), ways))
            totals[total] += ways
            return
        nodes -= 1
        if nodes < 0:
            raise _TooMany
        size, ks, weights = spec[i]
        high = min(size, limit - total)
        low = 0
        for k, after in ks:
            r = rem[k]
            if r < high:  # noqa: PLR1730 (a branch is cheaper than min() in this hot loop)
                high = r
            if r - after > low:  # noqa: PLR1730
                low = r - after
        for m in range(low, high + 1):
            for k, _ in ks:
                rem[k] -= m
            mines[i] = m
            walk(i + 1, total + m, ways * weights[m])
            for k, _ in ks:
                rem[k] += m

    try:
        walk(0, 0, 1)
    except _TooMany:
        return None
    finally:
        if budget is not None:
            budget.spend(LISTED_NODES - max(nodes, 0))
    while totals and not totals[-1]:
        totals.pop()
    return Component([groups[g].cells for g in order], [], [], totals, layouts)


def _lone_group(system: Constraints, g: int, limit: int) -> Component:
    """A group alone in its component: every one of its numbers fixes its mine count."""
    group = system.groups[g]
    needs = {system.needs[k] for k in group.constraints}
    need = needs.pop()
    if needs or need > min(group.size, limit):
        return Component([group.cells], [], [], [])
    return Component([group.cells], [], [], [0] * need + [comb(group.size, need)])


def _convolve(a: Poly, b: Poly, limit: int) -> Poly:
    out = [0] * min(len(a) + len(b) - 1, limit + 1)
    for i, x in enumerate(a):
        if x:
            for j in range(min(len(b), len(out) - i)):
                out[i + j] += x * b[j]
    return out


def _marginals(comp: Component, weight: Poly) -> list[int]:
    """Backward sweep: per group (as ``comp.cells``), the weighted count of its mines.

    ``weight[t]`` is what a component total ``t`` is worth once the rest of the board is
    counted; the sweep carries, per state and mines-so-far ``a``, the weighted count of every
    completion, so a group's expected mines come out as dot products with the forward counts.
    """
    if comp.layouts is not None:
        sums = [0] * len(comp.cells)
        for mines, ways in comp.layouts:
            worth = ways * weight[sum(mines)]
            for i, m in enumerate(mines):
                sums[i] += m * worth
        return sums
    back: dict[tuple[int, ...], Poly] = {(): weight}
    sums = [0] * len(comp.steps)
    for i in range(len(comp.steps) - 1, -1, -1):
        weights = [comb(comp.steps[i].size, m) for m in range(comp.steps[i].size + 1)]
        here: dict[tuple[int, ...], Poly] = {}
        total = 0
        for state, poly, moves in comp.transitions[i]:
            vec = [0] * len(poly)
            for m, new_state in moves:
                ahead = back.get(new_state)
                if ahead is None:
                    continue
                w = weights[m]
                for a in range(min(len(poly), len(ahead) - m)):
                    value = ahead[a + m]
                    if value:
                        vec[a] += w * value
                        if m and poly[a]:
                            total += poly[a] * m * w * value
            here[state] = vec
        sums[i] = total
        back = here
    return sums


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
    settled: Deduction = field(repr=False, compare=False)


Counts = dict[tuple[int, frozenset[tuple[frozenset[int], int]]], Component]
"""Component counts by (mine cap, the component's numbers as (cells, need)): a component is
fixed by its numbers, so boards that share one (look-ahead boards) count it once."""


def solve(
    position: Position, budget: Budget | None = None, counts: Counts | None = None
) -> Solution:
    """Exact mine chance of every covered cell; raise ``Inconsistent`` if nothing fits.

    With a ``budget``, raise ``TooHard`` rather than count past it. ``counts``, if given, keeps
    component counts for other boards of the same caller.
    """
    return solve_settled(deduce(position), budget, counts)


def solve_settled(
    settled: Deduction, budget: Budget | None = None, counts: Counts | None = None
) -> Solution:
    """Count a board from its deduction (see ``solve``)."""
    system = grouped(settled)
    left = system.mines_left
    if budget is not None:
        budget.spend(SETUP_COST + len(system.groups))
    comps = [_counted(system, m, left, budget, counts) for m in components(system)]
    free = len(system.unconstrained)
    mine: dict[int, float] = dict.fromkeys(system.mines, 1.0)
    mine.update(dict.fromkeys(system.safe, 0.0))
    certain: list[int] = list(system.mines)
    safe: list[int] = list(system.safe)
    # A component whose every layout holds the same number of mines is independent of the
    # rest: its chances are its own, and it only shifts and scales the global count.
    fixed_mines, fixed_ways = 0, 1
    varying: list[Component] = []
    for comp in comps:
        nonzero = [t for t, c in enumerate(comp.totals) if c]
        if len(nonzero) != 1:
            if not nonzero:
                raise Inconsistent("no mine layout fits the board and the mine count")
            varying.append(comp)
            continue
        t = nonzero[0]
        fixed_mines += t
        fixed_ways *= comp.totals[t]
        if len(comp.cells) == 1:  # one group: its chance is need/size
            cells = comp.cells[0]
            _record(mine, certain, safe, cells, t, len(cells))
            continue
        marker = [0] * t + [1]
        for cells, total in zip(comp.cells, _marginals(comp, marker), strict=True):
            _record(mine, certain, safe, cells, total, comp.totals[t] * len(cells))
    rest = left - fixed_mines
    if rest < 0:
        raise Inconsistent("no mine layout fits the board and the mine count")
    ways = _binomials(free, rest)
    # prefix[i] counts varying components before i, suffix[i] those from i on, by mine total
    prefix: list[Poly] = [[1]]
    for comp in varying:
        prefix.append(_convolve(prefix[-1], comp.totals, rest))
    suffix: list[Poly] = [[1]]
    for comp in reversed(varying):
        suffix.append(_convolve(suffix[-1], comp.totals, rest))
    suffix.reverse()
    everything = prefix[-1]
    scaled = sum(c * ways[rest - t] for t, c in enumerate(everything))
    if scaled == 0:
        raise Inconsistent("no mine layout fits the board and the mine count")
    weight = scaled * fixed_ways
    for index, comp in enumerate(varying):
        others = _convolve(prefix[index], suffix[index + 1], rest)
        spread = [(j, c) for j, c in enumerate(others) if c]
        worth = [
            sum(c * ways[rest - t - j] for j, c in spread if j <= rest - t)
            if n and t <= rest
            else 0
            for t, n in enumerate(comp.totals)
        ]
        for cells, total in zip(comp.cells, _marginals(comp, worth), strict=True):
            _record(mine, certain, safe, cells, total, scaled * len(cells))
    if free:
        fewer = _binomials(free - 1, rest)
        loose = sum(c * fewer[rest - t - 1] for t, c in enumerate(everything) if rest > t)
        _record(mine, certain, safe, system.unconstrained, loose * free, scaled * free)
    return Solution(mine, tuple(sorted(certain)), tuple(sorted(safe)), weight, settled)


def _counted(
    system: Constraints,
    members: Sequence[int],
    limit: int,
    budget: Budget | None,
    counts: Counts | None,
) -> Component:
    """A component's count, from ``counts`` when a board before had the same component."""
    if counts is None or len(members) == 1:
        return count_component(system, members, limit, budget)
    numbers = {k for g in members for k in system.groups[g].constraints}
    key = (limit, frozenset((frozenset(system.cells_of[k]), system.needs[k]) for k in numbers))
    found = counts.get(key)
    if found is None:
        found = counts[key] = count_component(system, members, limit, budget)
    return found


@lru_cache(maxsize=256)
def _binomials(n: int, upto: int) -> tuple[int, ...]:
    """``C(n, x)`` for ``x`` in ``0..upto`` (the same rows recur across a game's boards)."""
    return tuple(comb(n, x) for x in range(upto + 1))


def _record(
    mine: dict[int, float],
    certain: list[int],
    safe: list[int],
    cells: Sequence[int],
    numerator: int,
    denominator: int,
) -> None:
    mine.update(dict.fromkeys(cells, numerator / denominator))
    if numerator == denominator:
        certain.extend(cells)
    elif numerator == 0:
        safe.extend(cells)


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
    around = position.table[cell]
    low = sum(1 for n in around if position.is_flag(n) or n in settled.mines)
    known = settled.known
    unknown = sum(1 for n in around if n in settled.covered and n not in known)
    found: list[tuple[int, Solution]] = []
    for number in range(low, low + unknown + 1):
        try:
            after = settled.revealed(position, cell, number)
            found.append((number, solve_settled(after, budget, counts)))
        except Inconsistent:
            continue
    total = sum(solution.weight for _, solution in found)
    if total == 0:
        raise Inconsistent(f"cell {cell} cannot be safe")
    return [(number, solution.weight / total, solution) for number, solution in found]


def number_chances(position: Position, cell: int) -> dict[int, float]:
    """Given covered ``cell`` is safe, the exact chance of each number it would show."""
    return {number: chance for number, chance, _ in outcomes(position, cell)}
