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


BOMB_SIDE = 5
"""mineseeker's bomb opens a 5 x 5 square."""


def square_origin(
    width: int, height: int, row: int, col: int, side: int = BOMB_SIDE
) -> tuple[int, int]:
    """Top-left ``(row, col)`` of the ``side`` x ``side`` square centred on ``(row, col)``,
    the centre moved inwards so the square lies inside the board (on a board narrower than
    ``side``, the square is cut to the board)."""
    half = side // 2
    top = max(0, min(row - half, height - side))
    left = max(0, min(col - half, width - side))
    return top, left


def bomb_square(width: int, height: int, row: int, col: int, side: int = BOMB_SIDE) -> list[int]:
    """Cell indexes of the bomb's square aimed at ``(row, col)``, in index order."""
    top, left = square_origin(width, height, row, col, side)
    return [
        r * width + c
        for r in range(top, min(height, top + side))
        for c in range(left, min(width, left + side))
    ]
