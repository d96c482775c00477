"""Count one component's mine layouts exactly, by mine total, with each group's mines.

For a component (``components.Part``) the result (``Counted``) holds ``totals[t]``, the number
of cell-level layouts with ``t`` mines that meet every number, and per group ``marginals[g][t]``,
the sum over those layouts of the group's mines. The global mine count only weighs totals, so
these two are all the combination needs, and they depend on the component alone (a look-ahead
board that shares the component reuses them).

**The frontier programme.** Groups are taken in a narrow order (``ordering``); the state after
a group is the remaining need of every *open* number (touched, not yet finished). States are
packed into one integer, five bits per open number (four for the need, at most 8, and a guard
bit), so a group's move is a subtraction and its checks are masks: a need going negative
clears its guard bit, and a number left needing more than the cells still to come can give it
fails one comparison done for all numbers at once. A finished number's field must reach 0, and
its slot is then free for a number opened later.

Each state carries its layouts by mine total as one big integer, coefficient ``t`` in bits
``t*w .. t*w+w-1`` (Kronecker substitution; ``w`` is wide enough that no coefficient spills
over). Taking ``m`` mines in a group of ``s`` cells is then ``poly * C(s, m) << m*w``: one
multiplication and one shift, however many totals the state holds.

A backward sweep counts, per state, the completions by their mines; one product of a state's
forward and backward polynomials per state gives every group's mines by total. So all the
marginals come from one forward and one backward sweep.

**Listing.** A component that fits few layouts (most on real boards) is cheaper listed outright
by a bounded depth-first search: past ``LISTED_NODES`` search steps the listing gives up and
the programme counts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from .budget import Budget
from .components import Part
from .ordering import frontier_order

FIELD = 5
"""Bits per open number in a packed state: four for its need (at most 8), one guard bit."""
NEED_MASK = 15
GUARD = 16

LISTED_NODES = 200
"""Components are first listed outright, layout by layout (cheaper than the programme when
few layouts fit, as on most boards); past this many search steps the listing gives up and the
programme counts the component instead, so a wide component costs at most this much extra."""

LISTED_GROUPS = 12
"""Larger components go straight to the programme: they seldom fit few layouts, and a listing
that gives up is work thrown away on exactly the boards that cost most."""


@dataclass(slots=True)
class Counted:
    """A component's count (module docstring): per group its cells (bits) and their number;
    ``totals[t]`` layouts with ``t`` mines; ``marginals[g][t]`` group ``g``'s mines summed
    over them."""

    cells: list[int]
    sizes: list[int]
    totals: list[int]
    marginals: list[list[int]]


@lru_cache(maxsize=16)
def binomials(n: int) -> tuple[int, ...]:
    """``C(n, m)`` for ``m`` in ``0..n``."""
    return tuple(comb(n, m) for m in range(n + 1))


def count(part: Part, limit: int, budget: Budget | None = None) -> Counted:
    """Every layout of ``part`` with at most ``limit`` mines, by total and group."""
    if len(part.sigs) == 1:
        return _lone(part, limit)
    if len(part.sigs) <= LISTED_GROUPS:
        listed = _listed(part, limit, budget)
        if listed is not None:
            return listed
    return _programme(part, frontier_order(part, budget), limit, budget)


def _lone(part: Part, limit: int) -> Counted:
    """A group alone in its component: every one of its numbers fixes its mine count."""
    size = part.sizes[0]
    needs = set(part.needs.values())
    need = needs.pop()
    if needs or need > min(size, limit):
        return Counted(part.cells, part.sizes, [], [[]])
    ways = comb(size, need)
    return Counted(part.cells, part.sizes, [0] * need + [ways], [[0] * need + [need * ways]])


Step = tuple[int, int, int, int, int]
"""A group's move, precomputed: (cells, needs added for the numbers it opens, one per number
it touches, the shift of a number it finishes or -1, what each open number can still get)."""


def _plan(part: Part, order: list[int]) -> tuple[list[Step], int]:
    """The programme's steps for ``order``, and the guard bits of every slot used."""
    numbers, sizes, needs = part.numbers, part.sizes, part.needs
    last: dict[int, int] = {}
    remaining = dict.fromkeys(needs, 0)
    for i, g in enumerate(order):
        for n in numbers[g]:
            last[n] = i
            remaining[n] += sizes[g]
    slot: dict[int, int] = {}
    free: list[int] = []
    slots = 0
    plan: list[Step] = []
    for i, g in enumerate(order):
        size = sizes[g]
        add = touch = 0
        close = -1
        closing = []
        for n in numbers[g]:
            s = slot.get(n)
            if s is None:
                if free:
                    s = free.pop()
                else:
                    s = slots
                    slots += 1
                slot[n] = s
                add += needs[n] << (FIELD * s)
            touch += 1 << (FIELD * s)
            remaining[n] -= size
            if last[n] == i:
                close = FIELD * s
                closing.append(n)
        for n in closing:
            free.append(slot.pop(n))
        cap = 0
        for n, s in slot.items():
            cap += min(remaining[n], NEED_MASK) << (FIELD * s)
        plan.append((size, add, touch, close, cap))
    guards = sum(GUARD << (FIELD * s) for s in range(slots))
    return plan, guards


Record = list[tuple[int, int, list[tuple[int, int]]]]
"""One step of the programme: (state, its counts, its feasible (mines, next state) moves)."""


def _programme(part: Part, order: list[int], limit: int, budget: Budget | None) -> Counted:
    """Count ``part`` by the frontier programme over ``order`` (module docstring)."""
    plan, guards = _plan(part, order)
    cells = sum(part.sizes)
    width = cells + 4  # a coefficient is below 8 * 2**cells: it never reaches the next one
    cap_mask = (1 << ((limit + 1) * width)) - 1
    if budget is not None:
        budget.spend(len(plan) * 4)
    layer: dict[int, int] = {0: 1}
    records: list[Record] = []
    so_far = 0
    for size, add, touch, close, cap in plan:
        weights = binomials(size)
        high_touch = touch << 4
        capped = cap | guards
        nxt: dict[int, int] = {}
        record: Record = []
        room = budget.left if budget is not None else -1
        spent = 0
        for state, poly in layer.items():
            ext = state + add
            guarded = ext | guards
            moves: list[tuple[int, int]] = []
            if close >= 0:
                m = (ext >> close) & NEED_MASK
                if m <= size:
                    x = guarded - m * touch
                    if x & high_touch == high_touch:
                        new = x ^ guards
                        if (capped - new) & guards == guards:
                            moves.append((m, new))
            else:
                x = guarded
                for m in range(size + 1):
                    if x & high_touch != high_touch:
                        break
                    new = x ^ guards
                    if (capped - new) & guards == guards:
                        moves.append((m, new))
                    x -= touch
            record.append((state, poly, moves))
            for m, new in moves:
                value = (poly * weights[m]) << (m * width) if m else poly
                old = nxt.get(new)
                nxt[new] = value if old is None else old + value
            spent += 1 + len(moves)
            if spent > room >= 0:
                _overdraw(budget, spent)
        so_far += size
        if so_far > limit:
            nxt = {state: poly & cap_mask for state, poly in nxt.items()}
        if budget is not None:
            budget.spend(spent)
        records.append(record)
        layer = nxt
    final = layer.get(0, 0)
    mask = (1 << width) - 1
    totals = [(final >> (t * width)) & mask for t in range(min(limit, cells) + 1)]
    while totals and not totals[-1]:
        totals.pop()
    marginals = _backward(plan, records, width, limit, budget)
    low = next((t for t, c in enumerate(totals) if c), len(totals))
    by_group: list[list[int]] = [[]] * len(order)
    for i, g in enumerate(order):
        total = marginals[i]
        by_group[g] = [0] * low + [(total >> (t * width)) & mask for t in range(low, len(totals))]
    return Counted(part.cells, part.sizes, totals, by_group)


def _backward(
    plan: list[Step], records: list[Record], width: int, limit: int, budget: Budget | None
) -> list[int]:
    """Per step, its group's mines by total (Kronecker polynomials, as the forward counts)."""
    cap_mask = (1 << ((limit + 1) * width)) - 1
    back: dict[int, int] = {0: 1}
    sums = [0] * len(plan)
    after = 0  # cells of the groups after this step
    for i in range(len(plan) - 1, -1, -1):
        size = plan[i][0]
        weights = binomials(size)
        here: dict[int, int] = {}
        total = 0
        spent = 0
        for state, poly, moves in records[i]:
            ways = mined = 0
            for m, new in moves:
                ahead = back.get(new)
                if ahead is None:
                    continue
                if m:
                    value = (ahead * weights[m]) << (m * width)
                    ways += value
                    mined += value * m
                else:
                    ways += ahead
            spent += 1 + len(moves)
            if ways:
                here[state] = ways
            if mined:
                total += poly * mined
        after += size
        if after > limit:
            here = {state: ways & cap_mask for state, ways in here.items()}
        if budget is not None:
            budget.spend(spent)
        sums[i] = total
        back = here
    return sums


def _overdraw(budget: Budget | None, units: int) -> None:
    """Spend ``units`` the budget does not have: raises ``TooHard``."""
    if budget is not None:
        budget.spend(units)


class _TooMany(Exception):
    """The listing of a component passed ``LISTED_NODES`` search steps."""


def _listed(part: Part, limit: int, budget: Budget | None) -> Counted | None:
    """Every mine count per group that meets the component's numbers, with its layouts, or
    None when there are too many to list (``LISTED_NODES``).

    Depth-first over the groups in breadth-first order, so a number's groups come close
    together: each group's mine count is bounded by what its numbers still need and by how
    many cells are left to give it, and a number is met exactly at its last group. Each
    search step is one work unit.
    """
    sigs, sizes = part.sigs, part.sizes
    order = _breadth_first(sigs)
    slot = {n: k for k, n in enumerate(part.needs)}
    rem = list(part.needs.values())
    room = [0] * len(rem)
    for g in order:
        for n in part.numbers[g]:
            room[slot[n]] += sizes[g]
    spec: list[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]] = []
    for g in order:
        size = sizes[g]
        ks = [slot[n] for n in part.numbers[g]]
        for k in ks:
            room[k] -= size
        spec.append((size, binomials(size), tuple((k, room[k]) for k in ks)))
    depth = len(order)
    mines = [0] * depth
    top = min(limit, sum(rem))
    totals = [0] * (top + 1)
    by_step = [[0] * (top + 1) for _ in range(depth)]
    nodes = LISTED_NODES

    def walk(i: int, total: int, ways: int) -> None:
        nonlocal nodes
        if i == depth:
            totals[total] += ways
            for j, m in enumerate(mines):
                if m:
                    by_step[j][total] += m * ways
            return
        nodes -= 1
        if nodes < 0:
            raise _TooMany
        size, weights, ks = spec[i]
        high = limit - total
        if size < high:  # noqa: PLR1730 (a branch is cheaper than min() in this hot loop)
            high = size
        low = 0
        for k, after in ks:
            r = rem[k]
            if r < high:  # noqa: PLR1730
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
        mines[i] = 0

    try:
        walk(0, 0, 1)
    except _TooMany:
        return None
    finally:
        if budget is not None:
            budget.spend(LISTED_NODES - max(nodes, 0))
    while totals and not totals[-1]:
        totals.pop()
    by_group: list[list[int]] = [[]] * depth
    for j, g in enumerate(order):
        by_group[g] = by_step[j][: len(totals)]
    return Counted(part.cells, part.sizes, totals, by_group)


def _breadth_first(sigs: list[int]) -> list[int]:
    """The groups in breadth-first order from the first, layer by layer of shared numbers."""
    order = [0]
    reached = sigs[0]
    rest = list(range(1, len(sigs)))
    while rest:
        layer = [g for g in rest if sigs[g] & reached] or rest  # (a part is connected)
        rest = [g for g in rest if not sigs[g] & reached] if layer is not rest else []
        for g in layer:
            reached |= sigs[g]
        order += layer
    return order
