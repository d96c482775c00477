"""Count one component's mine layouts exactly, by mine total, with each group's mines.

For a component (``components.Part``) the result (``Counted``) holds ``totals[t]``, the number
of cell-level layouts with ``t`` mines that meet every number, and per group ``marginals[g][t]``,
the sum over those layouts of the group's mines. The global mine count only weighs totals, so
these two are all the combination needs, and they depend on the component alone (a look-ahead
board that shares the component reuses them).

**The frontier programme.** Groups are taken in a narrow order (``ordering``); the state after
a group is the remaining need of every number of the component, packed into one integer with
one five-bit field per number (``components``: four bits for the need, at most 8, and a guard
bit). A group's move is then a subtraction of ``m`` times its ``touch`` and its checks are
masks: a need going negative clears its guard bit, and a number left needing more than the
cells still to come can give it fails one comparison done for all numbers at once (what each
number can still get is itself one packed integer per step, so a finished number must reach
0). States that agree on every open number are one state, however the numbers are spread over
the board.

Each state carries its layouts by mine total as one big integer, coefficient ``t`` in bits
``t*w .. t*w+w-1`` (Kronecker substitution; ``w`` is wide enough that no coefficient spills
over). Taking ``m`` mines in a group of ``s`` cells is then ``poly * C(s, m) << m*w``: one
multiplication and one shift, however many totals the state holds.

A backward sweep counts, per state, the completions by their mines; one product of a state's
forward and backward polynomials per state gives every group's mines by total. So all the
marginals come from one forward and one backward sweep.

**Listing.** A component that fits few layouts (most on real boards) is cheaper listed outright
by a bounded depth-first search through the same packed states, forward only: a layout
carries its ways and every group's mines packed one field a group, and a finished layout
adds their product to its total's sum (few layouts: one product and one sum each, where
returning each step's completions cost a polynomial product and sum per step). Past
``LISTED_NODES`` steps the listing gives up and the programme counts it. Its
groups come lowest number first (``ordering.lowest_first``: each number's last group fixes
its mines) past ``SMALL`` groups; past ``LISTED_GROUPS`` only a component whose branching
groups have few choices between them is listed (``SPREAD``), from whichever end of its
numbers leaves the fewer choices (``ordering.listing_order``).

**Closed forms.** One, two or three groups need no search: a lone group's numbers fix its
mines; of two groups one touches a number the other does not, which fixes both (at most one
way); of three, one group's mines are enumerated and the other two solved as a pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from operator import mul
from typing import Any

from .budget import Budget
from .components import Part
from .ordering import frontier_order, listing_order, lowest_first

NEED_MASK = 15
GUARD = 16

LISTED_NODES = 500
"""Components are first listed outright, layout by layout (cheaper than the programme when
few layouts fit, as on most boards); past this many search steps the listing gives up and the
programme counts the component instead, so a wide component costs at most this much extra.
(200 before its steps got cheaper; with ``SPREAD`` at 512 rather than 256, the count of real
play's components 1.163 -> 1.199 times main's, the stress boards' 1.056 -> 1.059,
interleaved; 400 and 1024 were no better: 1.177 and 1.059. 500 since the pair rule starts
past 20 groups: ``SPREAD_FIRST``.)"""

WIDE = 12
"""A state's polynomial costs one more work unit per move for every ``2**WIDE`` bits it holds
(long polynomials, on boards with many mines, make each move's arithmetic slower)."""
PRODUCT = 9
"""The backward sweep's product of two polynomials costs a unit per ``2**PRODUCT`` bits."""

NODE_COST = 3
"""One search step of the listing, in work units (``budget``)."""
LONE_COST = 3
"""A component of one group, in work units."""
PAIR_COST = 4
"""A component of two groups, in work units."""
TRIPLE_COST = 8
"""A component of three groups, in work units, and one more per choice of its first group."""

SMALL = 6
"""Components of at most this many groups are listed in cell order: lowest number first
(``ordering.lowest_first``) takes 16% fewer steps on them but its sort costs more than that
(real play's 3 to 6 groups, interleaved against main: 1.12x in cell order, 1.05x sorted)."""

SORTED = 8
"""The listing's order (``ordering.lowest_first``, one sort in C) costs a work unit per this
many groups. Past ``LISTED_GROUPS`` groups it is ``ordering.listing_order``, which picks
the end of the numbers to start from: 37% fewer search steps on real play's components of
13 to 20 groups, so their count 1.19 times faster in total (interleaved, fastest of 9); on 7
to 12 groups, 2% fewer steps did not pay for the pick (0.95 times as fast)."""

LISTED_GROUPS = 12
"""Components of up to this many groups are listed first (most fit few layouts)."""

SPREAD_GROUPS = 20
SPREAD = 512
SPREAD_FIRST = 8
"""Components of ``LISTED_GROUPS`` to ``SPREAD_GROUPS`` groups are listed only when the
choices of their branching groups (those that finish no number, in the listing's order)
multiply to at most ``SPREAD``, and, tested first for nothing, when the groups less the
numbers (a number is finished by one group, the others branch, with two choices or more)
are at most ``SPREAD_FIRST``; the rest go straight to the programme: they seldom fit few
layouts, and a listing that gives up is work thrown away on the boards that cost most. (Of
real play's and the stress boards' components of 12 to 20 groups, 67 of 69 within 256
fit 200 steps, 26 of 70 past it. With ``SPREAD`` at 256 and 200 steps, their count,
interleaved: real play's 13 to 20 groups 4.44 -> 3.62 ms, the stress boards' 13.88 -> 14.26
ms; with ``SPREAD_FIRST`` at 8, 4.38 -> 3.26 and 12.67 -> 13.51 ms; ``LISTED_NODES``.)

``SPREAD_FIRST`` 6 -> 8 and ``LISTED_NODES`` 300 -> 500 once the pair rule started past 20
groups (it used to shrink these components first): of real play's components of 13 to 26
groups, those the listing finishes it counts 1.4 to 3 times faster than the programme (21
to 100 us against 56 to 137), and many with 7 or 8 branching groups fit few layouts. Whole
solves of real play's boards whose largest component has 13 to 26 groups: 1.04 to 1.06
times faster in total, median 1.00 to 1.03 (interleaved, fastest of 7, three runs); stress
boards level (1.00). ``SPREAD_FIRST`` at 10 or no bound: real play 1.03 to 1.07, stress
0.98 and 0.94; ``SPREAD`` at 1024: no better.)"""


@dataclass(slots=True)
class Counted:
    """A component's count (module docstring): per group its cells and their number; every
    layout holds ``low`` mines or more, ``totals[k]`` of them ``low + k`` (empty when none
    fits); ``marginals[g][k]`` group ``g``'s mines summed over those. Counted from ``low``, not
    from 0: the combination then multiplies no leading zeros, and a component whose layouts
    all hold the same number of mines is one count per group."""

    cells: list[list[int]]
    sizes: list[int]
    low: int
    totals: list[int]
    marginals: list[list[int]]


ROWS = tuple(tuple(comb(n, m) for m in range(n + 1)) for n in range(9))
"""``C(n, m)`` for every group size a board with eight neighbours per cell has (a group's cells
all touch one number): 45 small integers, made at import in microseconds."""


@lru_cache(maxsize=16)
def binomials(n: int) -> tuple[int, ...]:
    """``C(n, m)`` for ``m`` in ``0..n``."""
    return ROWS[n] if n < len(ROWS) else tuple(comb(n, m) for m in range(n + 1))


def count(part: Part, limit: int, budget: Budget | None = None) -> Counted:
    """Every layout of ``part`` with at most ``limit`` mines, by total and group."""
    groups = len(part.sigs)
    if groups > 3:
        if groups <= SMALL:  # (in cell order: no sort)
            listed = _listed(part, range(groups), limit, budget)
        elif groups <= LISTED_GROUPS:
            order = lowest_first(part.touch, part.fields.bit_length())
            listed = _listed(part, order, limit, budget, groups // SORTED)
        # (each number is finished by one group: the others branch, two choices or more)
        elif groups <= SPREAD_GROUPS and groups - part.fields.bit_count() <= SPREAD_FIRST:
            listed = _listed(part, listing_order(part), limit, budget, groups // SORTED, SPREAD)
        else:
            listed = None
        if listed is not None:
            return listed
        return _programme(part, frontier_order(part, budget), limit, budget)
    if groups == 1:
        if budget is not None:
            budget.spend(LONE_COST)
        return _lone(part, limit)
    if groups == 2:
        if budget is not None:
            budget.spend(PAIR_COST)
        return _pair(part, limit)
    return _triple(part, limit, budget)


def _lone(part: Part, limit: int) -> Counted:
    """A group alone in its component: every one of its numbers fixes its mine count."""
    size = part.sizes[0]
    fields = part.fields
    need = (part.needs >> ((fields & -fields).bit_length() - 1)) & NEED_MASK
    if part.needs != need * fields or need > size or need > limit:
        return Counted(part.cells, part.sizes, 0, [], [[]])
    ways = binomials(size)[need]
    return Counted(part.cells, part.sizes, need, [ways], [[need * ways]])


def _pair(part: Part, limit: int) -> Counted:
    """Two groups: one of them touches a number the other does not (their numbers differ),
    which fixes its mines; the other's then follow from any of its numbers, so there is at
    most one way to share the mines, checked against every number at once (the needs are
    exactly the two groups' mines times their fields: no field carries into the next)."""
    (a, b), (size_a, size_b) = part.touch, part.sizes
    needs = part.needs
    own = a & ~b
    if own:
        mines_a = (needs >> ((own & -own).bit_length() - 1)) & NEED_MASK
        mines_b = ((needs - mines_a * a) >> ((b & -b).bit_length() - 1)) & NEED_MASK
    else:  # (then b touches a number a does not)
        own = b & ~a
        mines_b = (needs >> ((own & -own).bit_length() - 1)) & NEED_MASK
        mines_a = ((needs - mines_b * b) >> ((a & -a).bit_length() - 1)) & NEED_MASK
    total = mines_a + mines_b
    if needs != mines_a * a + mines_b * b or mines_a > size_a or mines_b > size_b or total > limit:
        return Counted(part.cells, part.sizes, 0, [], [[], []])
    ways = binomials(size_a)[mines_a] * binomials(size_b)[mines_b]
    return Counted(part.cells, part.sizes, total, [ways], [[mines_a * ways], [mines_b * ways]])


def _triple(part: Part, limit: int, budget: Budget | None) -> Counted:
    """Three groups: one of them (``e``) is chosen, with a number of its own if one has (its
    mines are then fixed), and for each of its mines the other two follow in closed form as
    in ``_pair`` (they differ, so one touches a number the other does not): a loop of at most
    9 steps and few layouts, where the listing's machinery cost more than the count."""
    touch, sizes = part.touch, part.sizes
    a, b, c = touch
    if a & ~(b | c) or not (b & ~(a | c) or c & ~(a | b)):
        e, p, q = 0, 1, 2
    elif b & ~(a | c):
        e, p, q = 1, 0, 2
    else:
        e, p, q = 2, 0, 1
    te, tp, tq = touch[e], touch[p], touch[q]
    size_e, size_p, size_q = sizes[e], sizes[p], sizes[q]
    needs = part.needs
    guards = part.fields << 4
    own = te & ~(tp | tq)
    if own:
        first = (needs >> ((own & -own).bit_length() - 1)) & NEED_MASK
        choices = range(first, first + 1) if first <= size_e else range(0)
    else:
        choices = range(size_e + 1)
    # the pair's solving number: one p touches and q does not, or the other way round
    own = tp & ~tq
    by_p = bool(own)
    if not by_p:
        own = tq & ~tp
    solve = (own & -own).bit_length() - 1
    low_p = (tp & -tp).bit_length() - 1
    low_q = (tq & -tq).bit_length() - 1
    rows_e, rows_p, rows_q = binomials(size_e), binomials(size_p), binomials(size_q)
    found: list[tuple[int, int, int, int, int]] = []  # (total, ways, mines of e, p, q)
    for mines_e in choices:
        x = (needs | guards) - mines_e * te
        if x & guards != guards:  # a need below 0: more mines in e only make it worse
            break
        rest = x ^ guards
        if by_p:
            mines_p = (rest >> solve) & NEED_MASK
            mines_q = ((rest - mines_p * tp) >> low_q) & NEED_MASK
        else:
            mines_q = (rest >> solve) & NEED_MASK
            mines_p = ((rest - mines_q * tq) >> low_p) & NEED_MASK
        if rest != mines_p * tp + mines_q * tq or mines_p > size_p or mines_q > size_q:
            continue
        total = mines_e + mines_p + mines_q
        if total <= limit:
            ways = rows_e[mines_e] * rows_p[mines_p] * rows_q[mines_q]
            found.append((total, ways, mines_e, mines_p, mines_q))
    if budget is not None:
        budget.spend(TRIPLE_COST + len(choices))
    if not found:
        return Counted(part.cells, sizes, 0, [], [[], [], []])
    if len(found) == 1:
        total, ways, mines_e, mines_p, mines_q = found[0]
        marginals = [[0], [0], [0]]
        marginals[e][0] = mines_e * ways
        marginals[p][0] = mines_p * ways
        marginals[q][0] = mines_q * ways
        return Counted(part.cells, sizes, total, [ways], marginals)
    low = min(found)[0]
    span = max(found)[0] - low + 1
    totals = [0] * span
    in_e, in_p, in_q = [0] * span, [0] * span, [0] * span
    for total, ways, mines_e, mines_p, mines_q in found:
        k = total - low
        totals[k] += ways
        in_e[k] += mines_e * ways
        in_p[k] += mines_p * ways
        in_q[k] += mines_q * ways
    marginals = [in_e, in_e, in_e]
    marginals[e], marginals[p], marginals[q] = in_e, in_p, in_q
    return Counted(part.cells, sizes, low, totals, marginals)


Step = tuple[int, int, int, int, tuple[int, ...]]
"""A group's move, precomputed: (cells, its touch, what each number can still get after it
with every guard bit set, the shift of a number it finishes or -1, the binomials of its
cells)."""


def _steps(part: Part, order: list[int]) -> tuple[list[Step], int, int]:
    """The moves of ``order``'s groups, the guard bits of the component's numbers, and each
    number's cells (its groups' cells)."""
    touch, sizes = part.touch, part.sizes
    ones = part.fields
    guards = ones << 4
    room = fits = sum(map(mul, sizes, touch))  # per number, the cells of its groups to come
    rows = ROWS
    steps: list[Step] = []
    for g in order:
        t = touch[g]
        size = sizes[g]
        room -= size * t
        capped = room | guards
        finished = (t << 4) & ~((capped - ones) & guards)  # touched, and nothing to come
        close = (finished & -finished).bit_length() - 5 if finished else -1
        weights = rows[size] if size < 9 else binomials(size)
        steps.append((size, t, capped, close, weights))
    return steps, guards, fits


Record = list[tuple[int, int, list[tuple[int, int]]]]
"""One step of the programme: per state with a feasible move, (state, its counts, its
feasible (mines, next state) moves)."""
Closing = list[tuple[int, int, int, int]]
"""A step whose group finishes a number: per state with its one move, (state, its counts,
the mines, the next state), flat (no tuple of moves to build and walk)."""


def _programme(part: Part, order: list[int], limit: int, budget: Budget | None) -> Counted:
    """Count ``part`` by the frontier programme over ``order`` (module docstring)."""
    steps, guards, fits = _steps(part, order)
    cells = sum(part.sizes)
    width = cells + 4  # a coefficient is below 8 * 2**cells: it never reaches the next one
    cap_bits = (limit + 1) * width
    if budget is not None:
        budget.spend(len(steps) * 4)
    if ((fits | guards) - part.needs) & guards != guards:  # a number needs more than it has
        return Counted(part.cells, part.sizes, 0, [], [[] for _ in order])
    layer: dict[int, int] = {part.needs: 1}
    branching = _MOVES.get(width) or _moves(width)
    if len(branching) <= max(part.sizes):  # (only with more than 8 neighbours a cell)
        branching = _moves(width, max(part.sizes))
    records: list[Record] = []
    closings: list[Closing] = []
    so_far = 0
    longest = 1  # the longest polynomial of the layer, in bits
    for size, touch, capped, close, weights in steps:
        nxt: dict[int, int] = {}
        record: Record = []
        # a move's arithmetic grows with the polynomial: a unit more per 2**WIDE bits (the
        # longest of the step's, read once in C rather than per state)
        heavy = 1 + (longest >> WIDE)
        closing: Closing = []
        if close >= 0:  # one choice per state, the need of the number the group finishes
            for state, poly in layer.items():
                m = (state >> close) & NEED_MASK  # (never past its cells: the room)
                if not m:  # its number already met: the state goes on as it is
                    if (capped - state) & guards != guards:
                        continue
                    closing.append((state, poly, 0, state))
                    old = nxt.get(state)
                    nxt[state] = poly if old is None else old + poly
                    continue
                x = (state | guards) - m * touch
                new = x ^ guards
                # a need below 0 clears its guard bit in x; one past the room, in the difference
                if (capped - new) & x & guards != guards:
                    continue
                closing.append((state, poly, m, new))
                value = (poly * weights[m]) << (m * width)
                old = nxt.get(new)
                nxt[new] = value if old is None else old + value
            spent = heavy * (len(layer) + len(closing))  # (a state, and its move if any)
        else:
            room = budget.left if budget is not None else -1
            # a step that cannot pass what is left, even with every move of every state (a
            # state and at most size + 1 moves), is spent at its end; only one that could is
            # checked state by state, to stop as soon as it passes
            checked = room >= 0 and heavy * len(layer) * (size + 2) > room
            spent = moved = 0
            table = branching[size]  # (each move's mines, binomial and shift)
            for state, poly in layer.items():
                # no mines here: every need stays, so only the room can fail
                if (capped - state) & guards == guards:
                    moves: list[tuple[int, int]] = [(0, state)]
                    old = nxt.get(state)
                    nxt[state] = poly if old is None else old + poly
                else:
                    moves = []
                x = (state | guards) - touch
                for m, w, shift in table:
                    if x & guards != guards:
                        break
                    new = x ^ guards
                    x -= touch
                    if (capped - new) & guards != guards:
                        continue
                    moves.append((m, new))
                    value = (poly * w) << shift
                    old = nxt.get(new)
                    nxt[new] = value if old is None else old + value
                if moves:
                    record.append((state, poly, moves))  # (a list of its own per state)
                    moved += len(moves)
                if checked:
                    spent += heavy * (1 + len(moves))
                    if spent > room:
                        _overdraw(budget, spent)
            if not checked:
                spent = heavy * (len(layer) + moved)
        so_far += size
        longest = max(map(int.bit_length, nxt.values()), default=0)
        if so_far > limit and longest > cap_bits:  # (only then can a total pass the cap)
            cap_mask = (1 << cap_bits) - 1
            nxt = {state: poly & cap_mask for state, poly in nxt.items()}
            longest = max(map(int.bit_length, nxt.values()), default=0)
        if budget is not None:
            budget.spend(spent)
        records.append(record)
        closings.append(closing)
        layer = nxt
    final = layer.get(0, 0)
    sums = _backward(steps, records, closings, width, limit, budget)
    return _unpacked(part, order, final, sums, width)


def _backward(
    steps: list[Step],
    records: list[Record],
    closings: list[Closing],
    width: int,
    limit: int,
    budget: Budget | None,
) -> list[int]:
    """Per step, its group's mines by total (Kronecker polynomials, as the forward counts)."""
    cap_bits = (limit + 1) * width
    back: dict[int, int] = {0: 1}
    sums = [0] * len(steps)
    after = 0  # cells of the groups after this step
    for i in range(len(steps) - 1, -1, -1):
        size = steps[i][0]
        weights = steps[i][4]
        here: dict[int, int] = {}
        total = 0
        closing = closings[i]
        spent = 2 * len(closing)  # (a state and its move)
        for state, poly, m, new in closing:
            ahead = back.get(new)
            if not ahead:
                continue
            if not m:
                here[state] = ahead
                continue
            ways = (ahead * weights[m]) << (m * width)
            here[state] = ways
            mined = ways * m
            total += poly * mined
            spent += (poly.bit_length() + mined.bit_length()) >> PRODUCT
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
                spent += (poly.bit_length() + mined.bit_length()) >> PRODUCT
        after += size
        if after > limit and max(map(int.bit_length, here.values()), default=0) > cap_bits:
            cap_mask = (1 << cap_bits) - 1  # (only then can a total pass the cap)
            here = {state: ways & cap_mask for state, ways in here.items()}
        if budget is not None:
            budget.spend(spent)
        sums[i] = total
        back = here
    return sums


def _unpacked(part: Part, order: list[int], final: int, sums: list[int], width: int) -> Counted:
    """The ``Counted`` of a component from its Kronecker polynomials: ``final`` (layouts by
    total) and, per step of ``order``, its group's mines by total. No coefficient spills
    into the next, so the lowest and highest set bits of ``final`` fall in its lowest and
    highest nonzero totals; only the totals between are read."""
    if not final:
        return Counted(part.cells, part.sizes, 0, [], [[] for _ in order])
    low = ((final & -final).bit_length() - 1) // width
    top = (final.bit_length() - 1) // width
    mask = (1 << width) - 1  # (the programme's sums may hold totals past the cap)
    by_group: list[list[int]] = [[]] * len(order)
    if low == top:  # one total (most components): one shift per group
        shift = low * width
        # (one per step, so of one length: no ``strict=``, whose keyword costs a zip 240 ns)
        for total, g in zip(sums, order):  # noqa: B905
            by_group[g] = [(total >> shift) & mask]
        return Counted(part.cells, part.sizes, low, [final >> shift], by_group)
    if top - low < 3:  # two or three totals (most of the rest): no comprehension to call
        one = low * width
        two = one + width
        if top == low + 1:
            for total, g in zip(sums, order):  # noqa: B905
                by_group[g] = [(total >> one) & mask, (total >> two) & mask]
            return Counted(
                part.cells, part.sizes, low, [(final >> one) & mask, final >> two], by_group
            )
        three = two + width
        for total, g in zip(sums, order):  # noqa: B905
            by_group[g] = [(total >> one) & mask, (total >> two) & mask, (total >> three) & mask]
        totals = [(final >> one) & mask, (final >> two) & mask, final >> three]
        return Counted(part.cells, part.sizes, low, totals, by_group)
    shifts = range(low * width, (top + 1) * width, width)
    for total, g in zip(sums, order):  # noqa: B905
        by_group[g] = [(total >> s) & mask for s in shifts]
    return Counted(part.cells, part.sizes, low, [(final >> s) & mask for s in shifts], by_group)


Moves = list[tuple[tuple[int, int, int], ...]]
"""Per group size, a branching group's moves in the programme (``_moves``)."""
_MOVES: dict[int, Moves] = {}
"""The programme's moves by coefficient width (``_moves``), kept across components: a board's
components have a few widths, a process seldom more than a hundred (cleared past 128, a few
kB each)."""


def _moves(width: int, top: int = 0) -> Moves:
    """Per group size, the ``(m, C(s, m), m*width)`` triples of a programme step's moves from
    ``m = 1`` at ``width``: a move then looks up no binomial and works out no shift. Sizes to
    8 (a group's cells all touch one number) or ``top``; only those to 8 are kept."""
    branching = []
    for size in range(max(len(ROWS) - 1, top) + 1):
        row = binomials(size)
        branching.append(tuple((m, row[m], m * width) for m in range(1, size + 1)))
    if top < len(ROWS):
        if len(_MOVES) >= 128:
            _MOVES.clear()
        _MOVES[width] = branching
    return branching


def _overdraw(budget: Budget | None, units: int) -> None:
    """Spend ``units`` the budget does not have: raises ``TooHard``."""
    if budget is not None:
        budget.spend(units)


def _walked(step: Any, state: int, ways: int, mines: int, packed: int) -> None:
    """What ``_listed``'s search is rebound to once it is done (breaking its cycle)."""


class _TooMany(Exception):
    """The listing of a component passed ``LISTED_NODES`` search steps."""


def _branches(top: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A branching group's moves by its size, to ``top``: ``(m, C(n, m))`` from ``m = 1``."""
    return tuple(tuple(enumerate(binomials(n)))[1:] for n in range(top + 1))


BRANCHES = _branches(len(ROWS) - 1)
"""``_branches`` for the group sizes a board with eight neighbours a cell has (to 8)."""


def _choices(step: Any) -> int:
    """The choices of a listing's branching steps (from ``step`` on), multiplied."""
    choices = 1
    while step is not None:
        if step[2] < 0:  # (no number to close: it branches, one choice more than its moves)
            choices *= len(step[3]) + 1
        step = step[5]
    return choices


def _listed(
    part: Part,
    order: Sequence[int],
    limit: int,
    budget: Budget | None,
    ordered: int = 0,
    spread: int = 0,
    rows: Sequence[tuple[int, ...]] = ROWS,
    branches: Sequence[tuple[tuple[int, int], ...]] = BRANCHES,
) -> Counted | None:
    """Every layout of the component by a bounded depth-first search over ``order``, or None
    when there are too many to list (``LISTED_NODES`` search steps; module docstring) or,
    with a ``spread``, when the choices of its branching groups multiply past it (``SPREAD``).
    ``ordered``: the work units finding ``order`` took, spent with the search's. ``rows`` and
    ``branches``: each group size's binomials and branching moves (sizes to 8, so a group
    of more cells, on a board with more than 8 neighbours a cell, starts again with longer
    ones: no size is checked per group).

    The search only goes forward: a finished layout adds its ways times its mines, packed in
    one integer, to its total's sum (the lowest field of ``width`` bits counts the layout,
    then one field a step holds that step's mines), so every group's mines are summed by one
    product and one sum a layout (where each step returned its completions by total, a
    polynomial product and sum a step: real play's components of 4 to 20 groups 1.03 times
    faster counted, 4 to 6% fewer instructions). A group that finishes a number (its mines
    are that number's need) is taken in the same call, so only a branching group's choices
    call deeper, and a layout closes as soon as every need is met (the groups after hold no
    mines). Each step holds the next, so none is looked up. The mine cap is not checked per
    step: totals past it are dropped at the end (it binds on 1 of real play's 739 listed
    components, and a check costs every step)."""
    touch, sizes = part.touch, part.sizes
    guards = part.fields << 4
    cells = sum(sizes)
    width = cells + 4  # a field's sum is below 8 * 2**cells: it never reaches the next one
    step: Any = None  # (each step holds the next; the last group's holds None)
    # per number, the cells of the groups after this one (from the last group back), and
    # two guard bits (a state carries its guard bits: ``walk``)
    capped = guards << 1
    later = 0  # the numbers of the groups after this one
    unit = 1 << len(order) * width  # (the last step's field)
    try:
        for g in reversed(order):
            t = touch[g]
            size = sizes[g]
            finished = t & ~later  # touched, and nothing to come
            later |= t
            if finished:  # its mines are fixed: the need of the highest number it finishes
                # (of any: where two it finishes differ, the step's check fails all the same)
                step = (t, capped, finished.bit_length() - 1, rows[size], unit, step)
            else:
                step = (t, capped, -1, branches[size], unit, step)
            capped += size * t
            unit >>= width
    except IndexError:  # (a group of more than 8 cells)
        top = max(sizes)
        rows = [binomials(n) for n in range(top + 1)]
        return _listed(part, order, limit, budget, ordered, spread, rows, _branches(top))
    if spread and _choices(step) > spread:
        if budget is not None:
            budget.spend(len(order) + ordered)  # (the order and the steps, thrown away)
        return None
    if (capped - guards - part.needs) & guards != guards:  # a number needs more than it has
        return Counted(part.cells, sizes, 0, [], [[] for _ in order])
    found = [0] * (cells + 2)  # per mine total, its layouts' packed sums (and a 0)
    nodes = LISTED_NODES

    def walk(step: Any, state: int, ways: int, mines: int, packed: int) -> None:
        # (``state`` holds its guard bits, so a move is one subtraction, and ``capped`` a
        # guard more, so ``capped - state`` is the room left less the needs, as it was;
        # never called with every need met: the caller closes the layout instead)
        nonlocal nodes
        while True:
            nodes -= 1  # (checked where the search branches: a run of other steps is short)
            touch, capped, close, moves, unit, step = step
            if close >= 0:  # the group finishes a number: its mines are that number's need
                m = (state >> close) & 15  # (NEED_MASK; never past its cells: the room)
                if m:
                    x = state - m * touch
                    ways *= moves[m]
                    mines += m
                    packed += m * unit
                    if x == guards:  # every number met: the groups after hold none, one way
                        found[mines] += ways * packed  # (a need below 0 clears its guard)
                        return
                    # a need below 0 clears its guard bit in x; past the room, the difference
                    if (capped - x) & x & guards != guards:
                        return
                    state = x
                elif (capped - state) & guards != guards:  # none: only the room can fail
                    return
                continue
            if nodes < 0:
                raise _TooMany
            x = state - touch
            for m, w in moves:
                if x & guards != guards:
                    break
                if x == guards:  # every number met: no more mines here, none after
                    found[mines + m] += ways * w * (packed + m * unit)
                    break
                if (capped - x) & guards == guards:
                    walk(step, x, ways * w, mines + m, packed + m * unit)
                x -= touch
            # no mines here, taken last in this call: every need stays, only the room can fail
            if (capped - state) & guards != guards:
                return

    try:
        if part.needs:
            walk(step, part.needs | guards, 1, 0, 1)
        else:  # every need met: no mines, one way
            found[0] = 1
    except _TooMany:
        return None
    finally:
        # ``walk`` calls itself through its closure, a reference cycle that only the garbage
        # collector would free (with the steps it holds: 14 objects a solve at the median of
        # real play, so a collection every few dozen solves); rebinding the name frees it now
        walk = _walked
        if budget is not None:
            budget.spend(NODE_COST * (LISTED_NODES - nodes) + ordered)
    if limit < cells:  # fewer mines left than cells: the totals past the cap are dropped
        found = [*found[: limit + 1], 0]
    return _gathered(part, order, found, width)


def _gathered(part: Part, order: Sequence[int], found: list[int], width: int) -> Counted:
    """The ``Counted`` of a listing's packed sums by mine total (``_listed``): in each, its
    layouts in the lowest field of ``width`` bits, then each step's mines summed over them.
    ``found`` ends in a 0, so the highest total is found going up from the lowest (most
    components hold one to three totals; going down from the cells' count cost more)."""
    low = 0
    for sums in found:
        if sums:
            break
        low += 1
    else:
        return Counted(part.cells, part.sizes, 0, [], [[] for _ in order])
    top = low
    while found[top + 1]:
        top += 1
    if any(found[top + 1 :]):  # (a total with no layout between two with some: seldom)
        top = len(found) - 1
        while not found[top]:
            top -= 1
    mask = (1 << width) - 1
    by_group: list[list[int]] = [[]] * len(order)
    if top == low:  # one total (most components)
        sums = found[low]
        for g in order:
            sums >>= width
            by_group[g] = [sums & mask]
        return Counted(part.cells, part.sizes, low, [found[low] & mask], by_group)
    if top == low + 1:  # two (most of the rest)
        one = found[low]
        two = found[top]
        totals = [one & mask, two & mask]
        for g in order:
            one >>= width
            two >>= width
            by_group[g] = [one & mask, two & mask]
        return Counted(part.cells, part.sizes, low, totals, by_group)
    if top == low + 2:  # three (written out: a comprehension is a call)
        one = found[low]
        two = found[low + 1]
        three = found[top]
        totals = [one & mask, two & mask, three & mask]
        for g in order:
            one >>= width
            two >>= width
            three >>= width
            by_group[g] = [one & mask, two & mask, three & mask]
        return Counted(part.cells, part.sizes, low, totals, by_group)
    rows = found[low : top + 1]
    totals = [sums & mask for sums in rows]
    shift = 0
    for g in order:
        shift += width
        by_group[g] = [(sums >> shift) & mask for sums in rows]
    return Counted(part.cells, part.sizes, low, totals, by_group)
