"""The order in which a component's groups are counted: few numbers open at once.

The counting programme (``counting``) carries, after each group, one state per combination of
the open numbers' remaining needs; a number is open from its first group to its last. So the
order decides the cost: along a board's frontier a sweep from one end to the other keeps two or
three numbers open, a careless order dozens.

- Breadth-first from a far end of the component, found by two level-by-level sweeps
  (Cuthill-McKee style): along a frontier line this walks it end to end. The far end is the
  one found from the far end of the first group's sweep, so the walk goes the way the groups
  are numbered (cell order) and a group's neighbours, taken in index order, come in the order
  of the walk: walked the other way, the same lines cost the programme 30% more work (the
  components of 13 to 26 groups of 300 real-play positions: ordering and counting them took
  28,097 work units after the old two sweeps, 21,738 now).
- Tangled components (cells opened here and there) also try a greedy order that always takes
  the group leaving the fewest numbers open, and keep whichever order costs less.
- The listing (``counting``), which follows one layout at a time and holds no states, wants
  instead each group's mines fixed as early as possible: ``lowest_first`` takes the groups by
  their lowest number, so each number's last group comes right after its others and takes
  what the number still needs (no choice to branch on); for components of more than 12
  groups ``listing_order`` takes the numbers from the other end (``highest_first``) when
  that end's number has the fewer ways to be met.

Every try spends from the budget (the sweeps by their groups and checks, each weighing of an
order, each greedy step by the groups it weighs: ``SWEEP_COST`` and below), so the ordering
is bounded like the counting it serves, at about the same time per unit.
"""

from __future__ import annotations

from itertools import accumulate, repeat
from math import comb
from operator import and_, mul, or_

from .board_bits import FIELD, cells_of
from .budget import Budget
from .components import Part

GREEDY_FROM = 12
"""Components with at least this many groups also try the greedy order and keep the better."""

NARROW = 7
"""A sweep order holding at most this many numbers open at once is kept as it is: counting it
is already cheap, cheaper than looking for a better order (from 5 to 7: ordering and counting
the components of 13 groups or more of 300 real-play positions took 36.4 -> 33.2 ms, of 100
stress boards 182 -> 176 ms, fastest of 5, interleaved)."""

LARGE = 30
TRIES_FROM_LARGE = 2
"""Components of ``LARGE`` groups or more (rare, and the costly ones) try the greedy order
from this many starts (the first group of the sweep and its last). Six starts cost more than
the better orders they found saved: on the components of 30 groups or more of 300 real-play
positions and 100 stress boards, ordering and counting took 21.4 and 170 ms with six, 14.8
and 137 ms with three, 13.1 and 122 ms with two (fastest of 5, interleaved)."""


def frontier_order(part: Part, budget: Budget | None = None) -> list[int]:
    """An order of ``part``'s groups that keeps few numbers open (module docstring)."""
    sigs = part.touch  # (each group's numbers, a bit each in few machine words: fast to test)
    count = len(sigs)
    if count <= 2:
        return list(range(count))
    # a far end of the component (the last group reached from the first), then the far end
    # from that one, and breadth-first from there: the walk goes the way the groups are
    # numbered (cell order), so each group's neighbours come in the order of the walk
    end, checks = far_end(sigs, 0)
    start, more = far_end(sigs, end)
    order, most = breadth_first(sigs, start)
    if budget is not None:
        budget.spend(SWEEP_COST * count + (checks + more + most) // CHECKS)
    if count < GREEDY_FROM:
        return order
    widest, spread = _weighed(part, order, budget)
    if widest <= NARROW:
        return order
    numbers = [cells_of(sig) for sig in part.sigs]
    touching: dict[int, list[int]] = {}
    for g, ns in enumerate(numbers):
        for n in ns:
            touching.setdefault(n, []).append(g)
    if budget is not None:
        budget.spend(TABLE_COST * count)
    best, best_cost = order, (widest, spread)
    starts = TRIES_FROM_LARGE if count >= LARGE else 1
    for i in range(starts):  # greedy runs from spread-out starts along the sweep
        first = order[i * (count - 1) // max(1, starts - 1)] if starts > 1 else order[0]
        tried = _greedy(part, touching, first, budget)
        cost = _weighed(part, tried, budget)
        if cost < best_cost:
            best, best_cost = tried, cost
    return best


def far_end(sigs: list[int], start: int) -> tuple[int, int]:
    """A group as far from ``start`` as any (the last one reached, level by level), and how
    many checks that took: one pass over the groups not reached yet per level, each check
    one AND with the numbers the level before opened."""
    rest = list(range(len(sigs)))
    del rest[start]
    last = start
    fresh = seen = sigs[start]
    checks = 0
    while rest:
        checks += len(rest)
        left = []
        reached = 0
        for h in rest:
            sig = sigs[h]
            if sig & fresh:
                reached |= sig
                last = h
            else:
                left.append(h)
        rest = left
        fresh = reached & ~seen
        seen |= reached
    return last, checks


def breadth_first(sigs: list[int], start: int) -> tuple[list[int], int]:
    """The groups breadth-first from ``start`` (each group's unseen neighbours, those sharing
    a number with it, in index order), and how many checks that took: a pass over the groups
    not reached yet per group taken, each check one AND of two signatures (cheaper than
    walking per-number tables of groups, which must be built first)."""
    rest = list(range(len(sigs)))
    del rest[start]
    order = [start]
    checks = 0
    for g in order:
        sig = sigs[g]
        checks += len(rest)
        left = []
        for h in rest:
            if sigs[h] & sig:
                order.append(h)
            else:
                left.append(h)
        if not left:
            break
        rest = left
    return order, checks


def lowest_first(touch: list[int], span: int) -> list[int]:
    """The groups by their lowest number (numbers in cell order), and among those of one
    number the ones reaching higher numbers first: each number's last group is then the one
    that finishes it, as early as the sweep allows, and its mines are fixed by the number, so
    a listing over this order branches least (on the components of 2 to 12 groups of 300
    real-play positions 7 to 8% fewer search steps than breadth-first from the first group,
    18% fewer than cell order). ``span``: the bits of the packed fields (every ``touch`` is
    below ``2**span``). One key per group, ``lowest * 2**span - touch``, sorted in C (keys
    made by a loop: a comprehension is a call, about 1,000 machine instructions more on 7 to
    11 groups; chains of ``map`` were 1.3 to 1.5 times slower than a comprehension).
    """
    keys: list[int] = []
    for t in touch:
        keys.append(((t & -t) << span) - t)
    return sorted(range(len(touch)), key=keys.__getitem__)


def highest_first(touch: list[int], span: int) -> list[int]:
    """``lowest_first`` with the numbers taken the other way (from the last in cell order):
    the groups by their highest number, highest first, and among those of one number the ones
    reaching lower numbers first, so each number's last group is again the one that finishes
    it. One key per group, ``(span - highest) * 2**span + lowest``, sorted in C."""
    keys: list[int] = []
    for t in touch:  # (a loop: ``lowest_first``)
        keys.append(((span - t.bit_length()) << span) + (t & -t))
    return sorted(range(len(touch)), key=keys.__getitem__)


def listing_order(part: Part) -> list[int]:
    """The listing's order: lowest number first from whichever end of the numbers' cell order
    has the fewer ways to meet its number, ``C(cells, need)`` (``lowest_first`` or
    ``highest_first``). The listing then starts where the numbers leave the fewest choices
    and prunes early: on real play's components of 13 to 20 groups that it lists, 37% fewer
    search steps than from the first number (8% on the stress boards), 2% on 7 to 12 groups
    (7% on stress). Each number's cells, one packed sum over the groups (a number has at most
    8 cells, so no field carries into the next)."""
    touch = part.touch
    span = part.fields.bit_length()
    cells = sum(map(mul, part.sizes, touch))
    needs = part.needs
    top = span - 1  # (the last field starts at the highest bit of the fields)
    first = comb(cells & _FIELD_MASK, needs & _NEED_MASK)
    last = comb((cells >> top) & _FIELD_MASK, (needs >> top) & _NEED_MASK)
    return highest_first(touch, span) if last < first else lowest_first(touch, span)


_FIELD_MASK = (1 << FIELD) - 1
_NEED_MASK = (1 << (FIELD - 1)) - 1


def _weighed(part: Part, order: list[int], budget: Budget | None) -> tuple[int, int]:
    """``width`` of ``order``, spent from the budget (``WIDTH_COST`` per group)."""
    if budget is not None:
        budget.spend(WIDTH_COST * len(order))
    return width(part, order)


POW3 = [3**k for k in range(64)]

SWEEP_COST = 2
CHECKS = 8
TABLE_COST = 2
WIDTH_COST = 1
GREEDY_COST = 2
"""Work units (``budget``): per group for the three sweeps, and one per ``CHECKS`` groups
they test (``far_end``, ``breadth_first``); per group for the greedy order's tables of
numbers and their groups; per group each time an order is weighed (``width``); per group a
greedy step weighs, and 1 more per step. The sweeps measured 0.9 us a group and 0.1 us a
check (1,123 components of 3 groups or more of 300 real-play positions and 100 stress boards,
fastest of 5, when the programme ran at 0.66 us a unit), so that they run at 0.57 to 0.68 us
a unit, like the programme; the weighing at 0.74 us a group (179 components of 13 groups or
more, when the programme ran at 0.54 to 0.63 us a unit; 1.5 us a group, 2 units, before its
passes were C-level), the greedy steps at 6.3 us a step of 4.9 candidates (a unit about
0.75 us)."""

BOTH = (1 << 24) + (1 << 20)
INDEX = (1 << 20) - 1
"""A greedy candidate's key (``_greedy``): ``BOTH`` per number it closes, its index in the
bits ``INDEX`` covers (fewer than a million groups)."""


def width(part: Part, order: list[int]) -> tuple[int, int]:
    """How costly an order is: the most numbers it holds open at once, then the sum over
    steps of 3 to the numbers open (the programme's states grow about that fast).

    A number is open at a step when one of its groups came at or before it and one comes at
    or after it: the AND of the running ORs of the signatures from the front and from the
    back, every pass a C-level ``accumulate`` or ``map`` (a loop over the steps in Python
    cost 1.2 us a group)."""
    sigs = list(map(part.touch.__getitem__, order))  # (a bit a number, in few machine words)
    ahead = list(accumulate(reversed(sigs), or_))
    ahead.reverse()
    counts = list(map(int.bit_count, map(and_, accumulate(sigs, or_), ahead)))
    return max(counts), sum(map(POW3.__getitem__, map(min, counts, repeat(63))))


def _greedy(
    part: Part, touching: dict[int, list[int]], first: int, budget: Budget | None
) -> list[int]:
    """From ``first``, repeatedly take the group that leaves the fewest numbers open (ties:
    the one that closes most, then the lowest index)."""
    sigs = part.sigs
    left = {n: len(gs) for n, gs in touching.items()}
    once = 0  # numbers with one group left
    for n, c in left.items():
        if c == 1:
            once |= 1 << n
    active = 0
    rest = set(range(len(sigs)))
    frontier: set[int] = set()
    order: list[int] = []
    g = first
    while True:
        order.append(g)
        rest.discard(g)
        frontier.discard(g)
        sig = sigs[g]
        fresh = sig & ~active
        active |= sig
        bits = sig
        while bits:
            low = bits & -bits
            bits ^= low
            n = low.bit_length() - 1
            c = left[n] - 1
            left[n] = c
            if c == 1:
                once |= low
            elif c == 0:
                once &= ~low
                active &= ~low
        while fresh:  # groups next to a number just opened join the frontier
            low = fresh & -fresh
            fresh ^= low
            n = low.bit_length() - 1
            if left[n]:
                frontier.update(h for h in touching[n] if h in rest)
        if not rest:
            break
        pool = frontier or rest
        if budget is not None:
            budget.spend(GREEDY_COST * len(pool) + 1)
        opened = ~active
        # the numbers it leaves open, then the most it closes, then the lowest index, as one
        # integer (open - closed in the bits from 24, -closed from 20, the index below: a
        # group touches at most 8 numbers), not a tuple per candidate; the smallest is taken
        # in one C-level ``min`` over a list, and the index read back from its low 20 bits
        g = (
            min(
                [
                    ((sigs[h] & opened).bit_count() << 24) - (sigs[h] & once).bit_count() * BOTH + h
                    for h in pool
                ]
            )
            & INDEX
        )
    return order
