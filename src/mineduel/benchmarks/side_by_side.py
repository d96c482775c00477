"""Two engines timed on the same positions in turn, and the table row that compares them.

Shared by ``make bench-bot``'s timings (``bot`` on the 16x16/51 sets, ``classic`` on classic
minesweeper's boards), so every table reads its ratios the same way.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

Board = TypeVar("Board")

TABLE_HEAD = (
    "    | set | median ratio (theirs / ours) | p99 ratio | ours faster on | worst ratio |\n"
    "    | --- | --- | --- | --- | --- |"
)
"""The head of the table ``ratio_row`` writes rows of (indented, as the benchmark prints it)."""


def timed(run: Callable[[], object]) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def side_by_side(
    positions: Sequence[Board],
    engines: dict[str, Callable[[Board], object]],
    repeat: int,
) -> dict[str, list[float]]:
    """Per engine, each position's fastest time of ``repeat``: the engines take turns on each
    position (their order alternating), so a burst of load hits both alike."""
    best = {name: [math.inf] * len(positions) for name in engines}
    names = list(engines)
    for r in range(repeat):
        for i, cells in enumerate(positions):
            for name in names if (i + r) % 2 == 0 else reversed(names):
                run = engines[name]
                best[name][i] = min(best[name][i], timed(partial(run, cells)))
    return best


def quantile(samples: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``samples``."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def ratio_row(name: str, ours: Sequence[float], theirs: Sequence[float]) -> str:
    """A row of ``TABLE_HEAD``'s table: per position, their time over ours (above 1, ours is
    faster); the median and p99 also as the two engines' times in ms."""
    ratios = [t / o for t, o in zip(theirs, ours, strict=True)]
    return (
        f"    | {name} | {statistics.median(ratios):.2f} "
        f"({statistics.median(theirs) * 1e3:.3f} / {statistics.median(ours) * 1e3:.3f} ms)"
        f" | {quantile(theirs, 0.99) / quantile(ours, 0.99):.2f} "
        f"({quantile(theirs, 0.99) * 1e3:.2f} / {quantile(ours, 0.99) * 1e3:.2f} ms) | "
        f"{sum(r > 1 for r in ratios) / len(ratios):.0%} | {min(ratios):.2f} |"
    )
