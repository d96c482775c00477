"""A public position: what the board shows, read into the shape the bot's arithmetic needs.

The bot is only ever handed public information (the docs/api.md board strings and the mine count),
never a field or a seed, so every type here is built from those alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress

from ..geometry import neighbours
from ..settings import HIT_LETTERS, SEAT_LETTERS
from ..state import COVERED, WRONG_GUESS, GameState

FLAG_CHARS = frozenset(SEAT_LETTERS + HIT_LETTERS)
"""Known mines: flagged or found (upper case) or hit (windows-duel, lower case)."""
NUMBER_CHARS = frozenset("012345678")
_PLAIN = ("012345678" + COVERED).encode()
_FLAGS = "".join(sorted(FLAG_CHARS)).encode()
"""The flags' characters, as bytes (deleting them and ``_PLAIN`` leaves what is unknown)."""


@dataclass(frozen=True)
class Position:
    """A public board: covered cells, open numbers and flagged (known) mines.

    ``cells`` holds one docs/api.md character per cell in index order: a tuple of them (as a
    game's state keeps them) or the board as one string (as ``from_board`` reads it, which then
    needs no joining). Two positions of the same board are equal whichever form they were given
    in (equality reads ``text``). ``mines`` is the total mine
    count of the game; flagged cells are known mines, so ``mines_left`` are still covered.
    ``safe`` are covered cells the seat knows to be safe although the board does not show it
    (its own wrong guesses in windows-duel): empty for everything public.
    """

    width: int
    height: int
    mines: int
    cells: tuple[str, ...] | str = field(compare=False)
    safe: frozenset[int] = frozenset()
    flagged: int = field(init=False, repr=False, compare=False)
    """Known mines (flagged by any seat): counted once, every count of the board reads it."""
    text: str = field(init=False, repr=False)
    """The cells joined into one string: string scans run in C, a tuple's compare objects."""

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        cells: tuple[str, ...] | str,
        safe: frozenset[int] = frozenset(),
    ) -> None:
        """Check the board and keep it with its joined text and its flag count.

        Written out rather than generated: a frozen dataclass sets each field through
        ``object.__setattr__``, seven calls, where one update of the instance's dict does it
        (a position is built for every board the bot weighs).
        """
        # (a board string is kept as it is: joining its characters again cost about 3% of a
        # solve of real play's median board, a 256-element tuple and its join)
        text = cells if isinstance(cells, str) else "".join(cells)
        if len(cells) != width * height or len(text) != len(cells):
            raise ValueError("the board does not match its width and height")
        board = text.encode("ascii", "replace")  # (a character past ASCII becomes "?", unknown)
        marked = board.translate(None, _PLAIN)  # what is left once numbers and covers go:
        if marked.translate(None, _FLAGS):  # flags, or a character no board holds
            raise ValueError("the board holds an unknown character")
        flagged = len(marked)  # (one scan of the board, the second of the few cells left)
        if safe and any(not 0 <= c < len(text) or text[c] != COVERED for c in safe):
            raise ValueError("a cell known to be safe must be covered")
        if not 0 <= mines - flagged <= text.count(COVERED):
            raise ValueError("the mine count does not fit the board")
        vars(self).update(
            width=width,
            height=height,
            mines=mines,
            cells=cells,
            safe=safe,
            flagged=flagged,
            text=text,
        )

    @classmethod
    def from_board(cls, width: int, height: int, mines: int, board: Sequence[str]) -> Position:
        """Read docs/api.md ``board`` rows (``height`` strings of ``width`` characters).

        A ``?`` (a seat's own wrong guess, on its own board) is a covered cell known safe.
        """
        if len(board) != height or any(len(row) != width for row in board):
            raise ValueError(f"the board is not {height} rows of {width} characters")
        joined = "".join(board)
        safe: frozenset[int] = frozenset()
        if WRONG_GUESS in joined:  # (a scan in C; the walk over every cell only when one is)
            safe = frozenset(i for i, ch in enumerate(joined) if ch == WRONG_GUESS)
        return cls(width, height, mines, joined.replace(WRONG_GUESS, COVERED), safe)

    @classmethod
    def from_state(cls, state: GameState, seat: int | None = None) -> Position:
        """The position of a game as ``seat`` sees it (None: the public position).

        A seat's own wrong guesses still covered are known safe to it, and to nobody else.
        """
        s = state.settings
        safe: frozenset[int] = frozenset()
        if seat is not None:
            safe = frozenset(c for c in state.wrong_guesses(seat) if state.cells[c] == COVERED)
        return cls(s.width, s.height, s.mines, state.cells, safe)

    def public(self) -> Position:
        """The same board without the seat's private knowledge (``safe`` emptied)."""
        if not self.safe:
            return self
        return Position(self.width, self.height, self.mines, self.cells)

    @cached_property
    def table(self) -> tuple[tuple[int, ...], ...]:
        """Every cell's neighbours (``geometry.neighbours``), looked up when first asked for:
        the exact engine reads the board as bit sets and never needs it."""
        return neighbours(self.width, self.height)

    @property
    def covered(self) -> list[int]:
        """Covered cells, in index order."""
        return list(compress(range(len(self.text)), map(COVERED.__eq__, self.text)))

    @property
    def mines_left(self) -> int:
        """Mines still under covered cells."""
        return self.mines - self.flagged

    def number(self, cell: int) -> int | None:
        """The number an open cell shows, or None for a covered or flagged cell."""
        ch = self.cells[cell]
        return int(ch) if ch in NUMBER_CHARS else None

    def is_covered(self, cell: int) -> bool:
        """True when ``cell`` is still covered."""
        return self.cells[cell] == COVERED

    def is_flag(self, cell: int) -> bool:
        """True when ``cell`` is a flagged (known) mine."""
        return self.cells[cell] in FLAG_CHARS
