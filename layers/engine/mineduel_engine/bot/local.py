"""Local counting: the mine chance each numbered neighbour alone suggests.

This is the ``easy`` level's view of the board: every open number spreads its missing mines
evenly over its covered neighbours, and a cell takes the highest such share it receives (cells
next to no number take the global density). It spots sure mines and sure-safe cells that a
single number proves, nothing more subtle.
"""

from __future__ import annotations

from .position import Position


def local_chances(position: Position) -> dict[int, float]:
    """Chance per covered cell, judged one number at a time (sure mines come out as 1.0)."""
    covered = position.covered
    density = position.mines_left / len(covered) if covered else 0.0
    best: dict[int, float] = {}
    safe: set[int] = set()
    for cell, ch in enumerate(position.cells):
        number = position.number(cell)
        if number is None or ch == "0":
            continue
        hidden = [n for n in position.table[cell] if position.is_covered(n)]
        if not hidden:
            continue
        missing = number - sum(1 for n in position.table[cell] if position.is_flag(n))
        share = missing / len(hidden)
        for n in hidden:
            if share <= 0.0:
                safe.add(n)
            best[n] = max(best.get(n, 0.0), share)
    return {c: 0.0 if c in safe else best.get(c, density) for c in covered}
