"""The hidden field: where the mines are and the number every safe cell shows.

A field is never stored and never sent while a game runs; it is derived from the seed
(``fairness``) whenever the rules need it, and published only once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import MalformedRecord
from .fairness import derive_mines
from .geometry import neighbours

MINE_CHAR = "*"


@dataclass(frozen=True)
class Field:
    """Mine positions on a ``width`` x ``height`` board, with every cell's number precomputed."""

    width: int
    height: int
    mines: frozenset[int]
    numbers: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size = self.width * self.height
        if any(not 0 <= cell < size for cell in self.mines):
            raise ValueError("a mine lies outside the field")
        table = neighbours(self.width, self.height)
        # Each mine adds one to its neighbours: 8 steps a mine rather than 8 a cell.
        counts = [0] * size
        for cell in self.mines:
            for n in table[cell]:
                counts[n] += 1
        for cell in self.mines:
            counts[cell] = -1
        object.__setattr__(self, "numbers", tuple(counts))

    @classmethod
    def from_cells(cls, width: int, height: int, mines: Iterable[int]) -> Field:
        """Build a field from mine cell indexes."""
        return cls(width, height, frozenset(mines))

    @classmethod
    def from_picture(cls, rows: Sequence[str]) -> Field:
        """Build a field from a picture: ``*`` a mine, any other character safe.

        For tests, docs and examples, where a field drawn as text is easier to read than cell
        indexes. Unlike ``from_strings`` it takes no numbers: they are computed.
        """
        if not rows or any(len(row) != len(rows[0]) for row in rows):
            raise MalformedRecord("field rows must be non-empty and of equal length")
        joined = "".join(rows)
        return cls(
            len(rows[0]), len(rows), frozenset(i for i, ch in enumerate(joined) if ch == MINE_CHAR)
        )

    @classmethod
    def from_seed(
        cls,
        server_seed: bytes,
        game_id: str,
        client_seeds: Sequence[str],
        width: int,
        height: int,
        mines: int,
    ) -> Field:
        """Derive a game's field by protocol ``mineduel/v1``."""
        cells = derive_mines(server_seed, game_id, client_seeds, width, height, mines)
        return cls(width, height, frozenset(cells))

    @classmethod
    def from_strings(cls, rows: Sequence[str]) -> Field:
        """Parse published rows (``*`` a mine, ``0``-``8`` elsewhere); numbers must agree."""
        parsed = cls.from_picture(rows)
        if parsed.to_strings() != list(rows):
            raise MalformedRecord("field rows hold a character or number that does not fit")
        return parsed

    def is_mine(self, cell: int) -> bool:
        """True when ``cell`` hides a mine."""
        return cell in self.mines

    def to_strings(self) -> list[str]:
        """Rows as published after the game: ``*`` for a mine, the number elsewhere."""
        chars = [MINE_CHAR if n < 0 else str(n) for n in self.numbers]
        return ["".join(chars[r * self.width : (r + 1) * self.width]) for r in range(self.height)]
