"""Groups and components: the shape of what is left to count once deduction is done.

Covered cells that touch exactly the same open numbers are interchangeable: they form a
*group*, and only how many mines a group holds matters (``C(size, m)`` layouts inside it). A
cell's numbers are simply its neighbours among the numbers still open, so a group's key (its
*signature*) is one AND of two cell sets. Groups linked through shared numbers form
*components*, independent of one another except through the global mine count; they are
found by merging the groups' number sets, no walk over cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board_bits import cells_of
from .budget import Budget
from .deduction import Settled


@dataclass(slots=True)
class Part:
    """One component: per group its numbers (``sigs``: the numbers' cells as bits, and
    ``numbers``: the same as a list), its cells (bits) and their count; ``needs`` maps each
    number's cell to the mines it still lacks.
    """

    sigs: list[int]
    numbers: list[list[int]]
    cells: list[int]
    sizes: list[int]
    needs: dict[int, int]

    def key(self, settled: Settled) -> frozenset[tuple[int, int]]:
        """What fixes the component's count: its numbers' cell sets and needs."""
        index, hidden = settled.index, settled.hidden
        return frozenset((hidden[index[n]], need) for n, need in self.needs.items())

    def touching(self) -> dict[int, list[int]]:
        """Per number (its cell), the groups next to it, in order."""
        found: dict[int, list[int]] = {n: [] for n in self.needs}
        for g, numbers in enumerate(self.numbers):
            for n in numbers:
                found[n].append(g)
        return found


def split(settled: Settled, budget: Budget | None = None) -> tuple[list[Part], int]:
    """The components of a settled board, and every covered cell next to an open number."""
    hidden, numbers, needs = settled.hidden, settled.numbers, settled.needs
    active = frontier = 0
    for k, h in enumerate(hidden):
        if h:
            active |= 1 << numbers[k]
            frontier |= h
    if not frontier:
        return [], 0
    around = settled.grid.around
    by_sig: dict[int, int] = {}
    for cell in cells_of(frontier):
        sig = around[cell] & active
        by_sig[sig] = by_sig.get(sig, 0) | (1 << cell)
    linked: list[int] = []  # the numbers of each component so far
    for sig in by_sig:
        kept = []
        for found in linked:
            if found & sig:
                sig |= found
            else:
                kept.append(found)
        kept.append(sig)
        linked = kept
    if budget is not None:
        budget.spend(frontier.bit_count() + len(by_sig) * (1 + len(linked)))
    index = settled.index
    parts: list[Part] = []
    for numbers_mask in linked:
        sigs = [sig for sig in by_sig if sig & numbers_mask]
        cells = [by_sig[sig] for sig in sigs]
        parts.append(
            Part(
                sigs,
                [cells_of(sig) for sig in sigs],
                cells,
                [c.bit_count() for c in cells],
                {n: needs[index[n]] for n in cells_of(numbers_mask)},
            )
        )
    return parts, frontier
