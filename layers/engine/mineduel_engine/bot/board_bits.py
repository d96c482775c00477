"""A board's cells as the bits of one integer, and the grid arithmetic on such sets.

The probability engine works on sets of cells (a number's covered neighbours, the cells
settled as mines, a group). As Python integers, bit ``c`` standing for cell ``c``, every union,
intersection and count is one C-level operation on a few machine words, instead of a loop over
cells: on a 16x16 board a set is four 64-bit words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..geometry import neighbours


@dataclass(frozen=True, slots=True)
class Grid:
    """A ``width`` x ``height`` board's cell sets: ``around[c]`` is cell ``c``'s neighbours."""

    width: int
    height: int
    around: tuple[int, ...]
    full: int  # every cell
    not_first_col: int  # every cell but those of column 0
    not_last_col: int  # every cell but those of the last column

    def dilate(self, cells: int) -> int:
        """``cells`` and every neighbour of one of them (eight shifts, no loop over cells)."""
        width = self.width
        tall = cells | (cells << width) | (cells >> width)
        wide = tall | ((tall << 1) & self.not_first_col) | ((tall >> 1) & self.not_last_col)
        return wide & self.full


@lru_cache(maxsize=16)
def grid(width: int, height: int) -> Grid:
    """The cell sets of a board size (cached: a game's boards all share one)."""
    table = neighbours(width, height)
    around = tuple(mask_of(cells) for cells in table)
    size = width * height
    first = mask_of(r * width for r in range(height))
    last = mask_of(r * width + width - 1 for r in range(height))
    full = (1 << size) - 1
    return Grid(width, height, around, full, full & ~first, full & ~last)


def mask_of(cells: Iterable[int]) -> int:
    """The set of ``cells`` as bits."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def cells_of(mask: int) -> list[int]:
    """The cells of ``mask``, in index order.

    A sparse set is walked bit by bit; a dense one byte by byte, each byte's cells read from a
    table (a 16x16 board's set is 32 bytes, however many cells it holds).
    """
    if mask.bit_count() > DENSE:
        found: list[int] = []
        data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
        rows = _byte_rows(len(data))
        for row, byte in zip(rows, data):
            if byte:
                found += row[byte]
        return found
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


DENSE = 12
"""Sets of more cells than this are read byte by byte (``cells_of``)."""

_ROWS: list[tuple[tuple[int, ...], ...]] = []


def _byte_rows(count: int) -> list[tuple[tuple[int, ...], ...]]:
    """Per byte ``b`` of a set, the cells each of its 256 values stands for (built as needed)."""
    while len(_ROWS) < count:
        base = 8 * len(_ROWS)
        _ROWS.append(
            tuple(tuple(base + i for i in range(8) if value >> i & 1) for value in range(256))
        )
    return _ROWS


def marks(text: str, chars: str) -> int:
    """The cells of a board string (one character per cell) whose character is in ``chars``.

    The string is translated to binary digits and read by ``int``: two C loops, no Python one.
    ``text`` may only hold characters of ``BOARD_CHARS``.
    """
    return int(text.translate(_table(chars))[::-1], 2) if text else 0


BOARD_CHARS = "0123456789.ABCDabcd?"
"""Every character a board string passed to ``marks`` may hold."""


@lru_cache(maxsize=16)
def _table(chars: str) -> dict[int, str]:
    return {ord(ch): "1" if ch in chars else "0" for ch in BOARD_CHARS}
