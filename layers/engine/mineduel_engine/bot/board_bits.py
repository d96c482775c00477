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
from itertools import compress
from operator import getitem

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
    powers: tuple[int, ...]  # ``powers[c]`` is ``1 << c``, kept: looked up, not built each time

    def dilate(self, cells: int) -> int:
        """``cells`` and every neighbour of one of them (eight shifts, no loop over cells)."""
        width = self.width
        tall = cells | (cells << width) | (cells >> width)
        wide = tall | ((tall << 1) & self.not_first_col) | ((tall >> 1) & self.not_last_col)
        return wide & self.full

    def counts(self, cells: int) -> Planes:
        """For every cell at once, how many cells of its 3 x 3 block (itself included) are in
        ``cells`` (0 to 9), as four bit planes.

        At a cell not in ``cells`` that is its neighbours in ``cells``: what the single rule
        reads at an open number (never itself covered or flagged). The block is summed in two
        passes, each row's three cells (one full adder) and then three rows (two-bit adders):
        27 integer operations, where summing the eight neighbours took 41. The row past the
        board's last holds that row's counts from below, not cleared: every reader takes the
        counts at cells of the board (two operations a call fewer, at about 5% of one).
        """
        if not cells:
            return ZERO
        width = self.width
        left = (cells << 1) & self.not_first_col  # each cell's left neighbour's bit
        right = (cells >> 1) & self.not_last_col
        t = cells ^ left
        h0, h1 = t ^ right, (cells & left) | (t & right)  # the row of three, 0 to 3
        u0, u1 = h0 << width, h1 << width  # the row above's count
        d0, d1 = h0 >> width, h1 >> width  # the row below's
        t = h0 ^ u0
        b0, k0 = t ^ d0, (h0 & u0) | (t & d0)  # ones, and a carry of two
        t = h1 ^ u1
        v, k1 = t ^ d1, (h1 & u1) | (t & d1)  # twos, and a carry of four
        k2 = v & k0
        return b0, v ^ k0, k1 ^ k2, k1 & k2


Planes = tuple[int, int, int, int]
"""A small number (0 to 15) per cell: bit ``i`` of every cell's number is in plane ``i``."""

ZERO: Planes = (0, 0, 0, 0)


@lru_cache(maxsize=16)
def grid(width: int, height: int) -> Grid:
    """The cell sets of a board size (cached: a game's boards all share one)."""
    table = neighbours(width, height)
    around = tuple(mask_of(cells) for cells in table)
    size = width * height
    first = mask_of(r * width for r in range(height))
    last = mask_of(r * width + width - 1 for r in range(height))
    full = (1 << size) - 1
    powers = tuple(1 << cell for cell in range(size))
    return Grid(width, height, around, full, full & ~first, full & ~last, powers)


FIELD = 5
"""Bits per number in a packed count (``components``): four for a number from 0 to 15, one
guard bit above."""


def mask_of(cells: Iterable[int]) -> int:
    """The set of ``cells`` as bits."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def cells_of(mask: int) -> list[int]:
    """The cells of ``mask``, in index order.

    A sparse set is walked bit by bit from the top (``bit_length`` finds the highest one, and
    its bit is taken away with a power of two from a table below cell 256: one operation on a
    board-wide integer a cell, where isolating the lowest, ``mask & -mask``, takes three). A
    dense one below cell 256 (a 16x16 board's) is read a byte at a time: each byte's cells
    are looked up as bytes (``_byte_cells``), joined and listed, all in C, half the time of
    picking the binary digits by ``compress``, which is what a set reaching past cell 255
    still gets.
    """
    if mask.bit_count() > DENSE:
        top = mask.bit_length()
        if top <= TABLE_CELLS:
            return list(_cell_bytes(mask, top))
        return list(compress(_INDEXES, bin(mask)[:1:-1].encode().translate(_ONES)))
    found = []
    try:
        while mask:
            top = mask.bit_length() - 1
            found.append(top)
            mask ^= _POWERS[top]  # (a stored power: ``1 << top`` builds a board-wide integer)
    except IndexError:  # a cell past the table's (a board larger than 16 x 16): by shifts
        mask ^= 1 << top
        while mask:
            top = mask.bit_length() - 1
            found.append(top)
            mask ^= 1 << top
    found.reverse()
    return found


def each_cell(mask: int) -> Iterable[int]:
    """The cells of ``mask`` in index order, for a caller that only iterates them once (the
    table of chances: ``dict.fromkeys``): a dense set below cell 256 is handed over as the
    bytes ``cells_of`` joins (iterating bytes gives the same small integers), not listed first.
    About 8,000 of a solve's 970,000 machine instructions on real play's 3 to 12 group boards."""
    if mask.bit_count() > DENSE:
        top = mask.bit_length()
        if top <= TABLE_CELLS:
            return _cell_bytes(mask, top)
    return cells_of(mask)


def _cell_bytes(mask: int, top: int) -> bytes:
    """The cells of ``mask`` (its highest bit below ``top``, at most cell 255) as bytes: each
    byte's cells looked up (``_byte_cells``) and joined, all in C."""
    return b"".join(map(getitem, _byte_cells(), mask.to_bytes((top + 7) >> 3, "little")))


DENSE = 20
"""Sets of more cells than this are read a byte at a time, or through their binary digits
(``cells_of``)."""

TABLE_CELLS = 256
"""The cells ``cells_of`` reads by byte table: a cell's index must fit in a byte."""

_POWERS = tuple(1 << cell for cell in range(TABLE_CELLS))
"""``1 << cell`` for the cells of a 16 x 16 board (about 14 kB): looked up, not built a cell."""

_ONES = bytes.maketrans(b"01", b"\x00\x01")
_INDEXES = range(1 << 16)  # more cells than any board has


@lru_cache(maxsize=1)
def _byte_cells() -> tuple[tuple[bytes, ...], ...]:
    """Per byte of a set below cell 256 (``j``, cells ``8j`` to ``8j + 7``), per value of that
    byte, its cells as bytes. Built when a dense set is first read (about a millisecond, some
    360 kB), each byte position's table translated from the first one's."""
    first = tuple(bytes(i for i in range(8) if value >> i & 1) for value in range(256))
    tables = [first]
    ramp = bytes(range(256))
    for j in range(8, TABLE_CELLS, 8):
        shift = ramp[j:] + ramp[:j]  # x -> x + j, for the cells of byte j / 8
        tables.append(tuple(cells.translate(shift) for cells in first))
    return tuple(tables)


def marks(backwards: bytes, table: bytes) -> int:
    """The cells of a board whose character ``table`` marks (``mark_table``): ``backwards`` is
    the board string (one ASCII character per cell) encoded and reversed, last cell first
    (``reversed_board``).

    The bytes are translated to binary digits by the 256-entry table and read by ``int``: two
    C loops, no Python one (a ``str.translate`` looks each character up in a dict, twice as
    slow). The caller builds its tables once (a cached look-up per call cost a seventh of it).
    """
    return int(backwards.translate(table), 2) if backwards else 0


def reversed_board(text: str) -> bytes:
    """A board string as ``marks`` reads it (the positions' strings are ASCII)."""
    return text.encode("ascii")[::-1]


def mark_table(chars: bytes) -> bytes:
    """``marks``' table for the characters ``chars``: a 1 for each of them, a 0 for the rest."""
    return bytes(0x31 if byte in chars else 0x30 for byte in range(256))
