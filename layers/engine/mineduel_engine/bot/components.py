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
    # A constraint's cells are its number's covered neighbours not settled (``deduction``
    # keeps them so), so the numbers still open and the cells they touch are two dilations,
    # not a pass over every constraint.
    unsettled = settled.covered & ~(settled.mines | settled.safe)
    active = settled.shown & dilate(unsettled)
    if not active:
        return [], 0
    frontier = dilate(active) & unsettled
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
    get = by_sig.get
    for cell in cells_of(todo):
        sig = around[cell] & active
        group = get(sig)
        if group is None:
            by_sig[sig] = [cell]
        else:
            group.append(cell)
    linked: list[int] = []  # the numbers of each component so far
    for sig in by_sig:
        apart = []
        for found in linked:
            if found & sig:
                sig |= found  # noqa: PLW2901 (the group's numbers grow into its component's)
            else:
                apart.append(found)
        apart.append(sig)
        linked = apart
    if budget is not None:  # about a third of a unit per cell and group merged (``budget``)
        budget.spend((todo.bit_count() + len(by_sig) * (1 + len(linked))) // 3)
    parts = kept
    needs, index = settled.needs, settled.index
    alone = len(linked) == 1
    for mask in linked:
        if alone:
            sigs = list(by_sig)
            cells = list(by_sig.values())
        else:
            sigs = [sig for sig in by_sig if sig & mask]
            cells = [by_sig[sig] for sig in sigs]
        # the component's own packed fields: its numbers in cell order, one field each, so a
        # state is a few machine words however far along the board its numbers lie
        unit: dict[int, int] = {}
        needed = 0
        bit = 1
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            unit[low] = bit
            needed |= needs[index[low.bit_length() - 1]] * bit
            bit <<= FIELD
        touch = []
        for sig in sigs:
            packed = unit.get(sig)  # a group next to one number (the frontier's edges)
            if packed is None:
                packed = 0
                while sig:
                    low = sig & -sig
                    sig ^= low  # noqa: PLW2901 (the signature is taken apart bit by bit)
                    packed |= unit[low]
            touch.append(packed)
        parts.append(
            Part(
                sigs,
                cells,
                list(map(len, cells)),
                touch,
                mask,
                (bit - 1) // _FIELD_ONES,  # a 1 in each field: (32**k - 1) / 31
                needed,
                None,  # its cells, as bits: only a look-ahead board needs them (above)
            )
        )
    return parts, frontier
