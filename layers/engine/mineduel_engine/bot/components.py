"""Groups and components: the shape of what is left to count once deduction is done.

Covered cells that touch exactly the same open numbers are interchangeable: they form a
*group*, and only how many mines a group holds matters (``C(size, m)`` layouts inside it). A
cell's numbers are simply its neighbours among the numbers still open, so a group's key (its
*signature*) is one AND of two cell sets. Groups linked through shared numbers form
*components*, independent of one another except through the global mine count; they are
found by merging the groups' number sets, no walk over cells.

For the counting, a component's numbers are also written as *packed counts*: one five-bit
field per number of the component, numbered in cell order (``board_bits.FIELD``), so a state
is a few machine words wherever on the board the numbers lie (fields at the numbers' board
cells made every state a 1,280-bit integer on a 16x16 board, and counting twice as slow). A
group then touches its numbers through one integer (1 in each of their fields), so taking
``m`` mines in it is one subtraction from the numbers' remaining needs, whatever its shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board_bits import FIELD, cells_of
from .budget import Budget
from .deduction import Settled


@dataclass(slots=True)
class Part:
    """One component.

    Per group: ``sigs`` its numbers (their cells, as bits), ``cells`` its cells, ``sizes``
    their count, ``touch`` its numbers as packed fields (1 in each). For the component:
    ``numbers`` its numbers (cells, as bits), ``fields`` the same packed, ``needs`` each
    number's remaining need in its field.
    """

    sigs: list[int]
    cells: list[list[int]]
    sizes: list[int]
    touch: list[int]
    numbers: int
    fields: int
    needs: int
    area: int | None  # every cell of the component, as bits, once asked for (``split``)
    token: frozenset[tuple[int, int]] | None = None
    counted: tuple[int, object] | None = None  # (mine cap, its count), kept with the part

    def key(self, settled: Settled) -> frozenset[tuple[int, int]]:
        """What fixes the component's count: its numbers' cell sets and needs (worked out
        once: a look-ahead board that keeps the component keeps this too)."""
        if self.token is None:
            index, hidden, needs = settled.index, settled.hidden, settled.needs
            self.token = frozenset(
                (hidden[k], needs[k]) for k in (index[n] for n in cells_of(self.numbers))
            )
        return self.token


_FIELD_ONES = (1 << FIELD) - 1
"""``(2**FIELD)**k - 1`` over this is ``k`` ones, one in each of ``k`` fields (the lowest
bit of each)."""

Shape = tuple[list["Part"], int]
"""A board's components and its frontier (every covered cell next to an open number)."""


def split(
    settled: Settled, budget: Budget | None = None, base: tuple[Shape, int] | None = None
) -> Shape:
    """The components of a settled board, and every covered cell next to an open number.

    ``base`` is the shape of a board this one was derived from, with the cells that changed
    between them (a look-ahead board: one cell opened, and what that settled): its
    components far from every change are kept as they are, and only the rest is grouped.
    """
    area = settled.grid
    dilate = area.dilate
    frontier = settled.frontier
    if frontier is None:
        # A constraint's cells are its number's covered neighbours not settled (``deduction``
        # keeps them so), so the numbers still open and the cells they touch are two
        # dilations, not a pass over every constraint.
        unsettled = settled.covered & ~(settled.mines | settled.safe)
        active = settled.shown & dilate(unsettled)
        frontier = dilate(active) & unsettled
    else:  # as ``deduce`` left them: its numbers are the open ones
        active = settled.shown
    if not active:
        return [], 0
    kept: list[Part] = []
    todo = frontier
    if base is not None:
        (old_parts, old_frontier), changed = base
        near = dilate(changed)  # the changed cells and every cell next to one
        for part in old_parts:
            own = part.area
            if own is None:  # worked out the first time a board derived from it asks
                # (a plain solve never does): every frontier cell next to one of its numbers
                # is its own, so its cells are its shape's frontier next to its numbers
                own = part.area = old_frontier & dilate(part.numbers)
            if (part.numbers | own) & near:  # a number or cell of it may have changed
                continue
            kept.append(part)
            todo &= ~own
        if not todo:
            return kept, frontier
    around = area.around
    by_sig: dict[int, list[int]] = {}
    setdefault = by_sig.setdefault
    # one look-up a cell (a signature is a board-wide integer, hashed digit by digit each
    # time; a spare empty list costs less than hashing a new group's key twice)
    for cell in cells_of(todo):
        setdefault(around[cell] & active, []).append(cell)
    # The groups are linked in cell order, and most touch only the component met last, or
    # no component yet (a new one): two ANDs tell them apart from the rest, which walk the
    # components (each in the order last touched) as every group once did.
    linked: list[int] = []  # the numbers of each component but the last
    last = rest = 0  # the numbers of the last component met; of the others together
    for sig in by_sig:
        if not sig & rest:
            if sig & last or not last:
                last |= sig
            else:
                linked.append(last)
                rest |= last
                last = sig
            continue
        linked.append(last)
        apart = []
        rest = 0
        for found in linked:
            if found & sig:
                sig |= found  # noqa: PLW2901 (the group's numbers grow into its component's)
            else:
                apart.append(found)
                rest |= found
        linked = apart
        last = sig
    linked.append(last)
    if budget is not None:  # about a third of a unit per cell and group merged (``budget``)
        budget.spend((todo.bit_count() + len(by_sig) * (1 + len(linked))) // 3)
    parts = kept
    needs, index = settled.needs, settled.index
    powers = area.powers
    # Each component's numbers get their packed fields (in cell order, counted down from the
    # highest) and point to the component's lists, by their cell index + 1 (a small integer,
    # hashed at once, read off a signature by ``bit_length`` without building a new board-wide
    # integer), so each group joins its component in one look-up, not one AND per component:
    # an operation on a board-wide integer costs about three on small ones.
    unit: dict[int, int] = {}  # a number's cell index + 1 -> its field in its component
    owner: dict[int, tuple[list[int], list[list[int]], list[int], list[int]]] = {}
    shapes = []
    for mask in linked:
        lists: tuple[list[int], list[list[int]], list[int], list[int]] = ([], [], [], [])
        count = mask.bit_count()
        bit = top_bit = 1 << (FIELD * (count - 1))
        needed = 0
        rest = mask
        while rest:
            top = rest.bit_length()
            rest ^= powers[top - 1]
            unit[top] = bit
            owner[top] = lists
            needed |= needs[index[top - 1]] * bit
            bit >>= FIELD
        shapes.append((lists, mask, needed, top_bit))
    for sig, group in by_sig.items():
        top = sig.bit_length()
        sigs, cells, touch, sizes = owner[top]
        sigs.append(sig)
        cells.append(group)
        sizes.append(len(group))
        packed = unit[top]
        count = sig.bit_count()
        if count > 1:  # (most groups of the frontier's edges touch one number)
            sig ^= powers[top - 1]  # noqa: PLW2901 (the signature is taken apart bit by bit)
            while count > 2:  # (the last number is read off without taking it away)
                top = sig.bit_length()
                packed |= unit[top]
                sig ^= powers[top - 1]  # noqa: PLW2901
                count -= 1
            packed |= unit[sig.bit_length()]
        touch.append(packed)
    for (sigs, cells, touch, sizes), mask, needed, top_bit in shapes:
        parts.append(
            Part(
                sigs,
                cells,
                sizes,
                touch,
                mask,
                ((top_bit << FIELD) - 1) // _FIELD_ONES,  # a 1 in each field: (32**k - 1) / 31
                needed,
                None,  # its cells, as bits: only a look-ahead board needs them (above)
            )
        )
    return parts, frontier
