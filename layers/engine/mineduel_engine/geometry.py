"""Cell addressing: index = row * width + col, row 0 at the top, and the 8-neighbourhood."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=16)
def neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Return, for every cell index, the indexes of its (up to 8) neighbours.

    Cached per board size: the tables are tiny and every tap, flood fill and check uses them.
    """
    table: list[tuple[int, ...]] = []
    for row in range(height):
        for col in range(width):
            table.append(
                tuple(
                    r * width + c
                    for r in range(max(0, row - 1), min(height, row + 2))
                    for c in range(max(0, col - 1), min(width, col + 2))
                    if (r, c) != (row, col)
                )
            )
    return tuple(table)


def to_index(width: int, row: int, col: int) -> int:
    """Return the index of cell ``(row, col)``."""
    return row * width + col


def to_row_col(width: int, index: int) -> tuple[int, int]:
    """Return ``(row, col)`` of a cell index."""
    return divmod(index, width)
