"""What one seat sees, in the shape the bot decides from: ``SeatView``.

The bot is a pure function of what its seat sees: the public board, the public counters, the
game's options, and that seat's own private knowledge (in windows-duel, the cells it guessed
wrong, which are safe). ``SeatView.from_state`` builds it from ``GameState.seen_by(seat)``, so
another seat's private part never reaches it; ``mineduel analyze`` builds it from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..geometry import to_row_col
from ..mineseeker import may_bomb  # the rules' own legality test, not a copy of it
from ..state import GameState
from .position import Position


@dataclass(frozen=True)
class SeatView:
    """A seat's view of a game: enough for every variant's bot, nothing hidden.

    ``mines_by_seat`` are the public mine counters (mineseeker's "behind"); ``may_bomb`` whether
    this seat's bomb is unused and allowed now (mineseeker; False elsewhere).
    """

    variant: str
    position: Position
    seat: int
    seats_in: int
    mines_by_seat: tuple[int, ...] = ()
    may_bomb: bool = False

    @classmethod
    def from_state(cls, state: GameState, seat: int) -> SeatView:
        """The view of ``seat`` (normally ``state.turn``) from a game state."""
        seen = state.seen_by(seat)
        variant = state.settings.variant
        return cls(
            variant=variant,
            position=Position.from_state(seen, seat),
            seat=seat,
            seats_in=len(state.seats_in),
            mines_by_seat=tuple(s.mines for s in state.seats),
            may_bomb=variant == "mineseeker" and may_bomb(state, seat),
        )

    def row_col(self, cell: int) -> tuple[int, int]:
        """``(row, col)`` of a cell index on this board."""
        return to_row_col(self.position.width, cell)
