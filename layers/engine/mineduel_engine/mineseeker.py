"""Rules of ``mineseeker``: mine-duel for 2 seats, plus one bomb per seat.

A tap is mine-duel's tap. The bomb is aimed at any cell: it opens the 5 x 5 square centred
there, the centre moved inwards so the square lies inside the board. Every covered mine in the
square is flagged for the bomber; every covered safe cell in it opens, and a 0 among them floods
its blank region as usual. The bomb ends the turn, even if it found mines. With the creation
option ``bomb_when_behind`` only a seat with fewer mines than the other may bomb.

A majority of the mines (26 of 51) wins at once (mine-duel's "out of reach" with two seats);
every mine flagged with equal scores is a draw. Places go by mines alone.
"""

from __future__ import annotations

from .errors import BombNotBehind, BombUsed
from .field import Field
from .geometry import bomb_square
from .mine_duel import MineDuel
from .moves import Move
from .rules import register
from .settings import SEAT_LETTERS
from .state import COVERED, GameState, SeatState
from .turns import as_row_col, check_seat_may_move, flood, next_seat, on_board


class MineSeeker(MineDuel):
    """The ``mineseeker`` rule set."""

    variant = "mineseeker"
    actions = frozenset({"tap", "bomb"})

    def play(
        self, state: GameState, field: Field, seat: int, action: str, row: int, col: int
    ) -> tuple[GameState, Move]:
        """A tap (as mine-duel) or the seat's one bomb aimed at ``(row, col)``."""
        check_seat_may_move(state, seat, action, self.actions)
        if action == "tap":
            return self.tap(state, field, seat, row, col)
        return self.bomb(state, field, seat, row, col)

    def bomb(
        self, state: GameState, field: Field, seat: int, row: int, col: int
    ) -> tuple[GameState, Move]:
        """Flag every covered mine of the square for ``seat``, open every covered safe cell
        (a 0 floods), use the seat's bomb and pass the turn."""
        s = state.settings
        on_board(state, row, col)
        check_bomb_allowed(state, seat)
        cells = list(state.cells)
        square = bomb_square(s.width, s.height, row, col)
        mines = [c for c in square if cells[c] == COVERED and field.is_mine(c)]
        for cell in mines:
            cells[cell] = SEAT_LETTERS[seat]
        opened: dict[int, int] = {}
        for cell in square:
            if cells[cell] == COVERED and cell not in opened:
                for spot, number in flood(field, cells, cell):
                    opened[spot] = number
                    cells[spot] = str(number)
        seats = list(state.seats)
        old = seats[seat]
        seats[seat] = SeatState(old.mines + len(mines), old.safe_taps, old.out, True, old.score)
        n = state.move_count + 1
        move = Move(
            n,
            seat,
            "bomb",
            row,
            col,
            "bomb",
            opened=as_row_col(s.width, sorted(opened.items())),
            flagged=tuple(divmod(c, s.width) for c in mines),
        )
        after = state.evolve(
            cells=tuple(cells), seats=tuple(seats), turn=next_seat(seats, seat), move_count=n
        )
        return self.settle(after), move

    @staticmethod
    def rank(seat: SeatState) -> tuple[int, ...]:
        """Places by mines alone: equal scores share first place (a draw)."""
        return (-seat.mines,)

    # ``apply_to_cells`` is mine-duel's: a bomb's record lists its flags and opened cells as a
    # tap's does, so the public board is built from it the same way.


def check_bomb_allowed(state: GameState, seat: int) -> None:
    """Refuse a second bomb, or (with ``bomb_when_behind``) a bomb by a seat not behind."""
    me = state.seats[seat]
    if me.bomb_used:
        raise BombUsed(f"seat {seat} has already used its bomb")
    if state.settings.option("bomb_when_behind"):
        others = [s.mines for i, s in enumerate(state.seats) if i != seat and not s.out]
        if not others or me.mines >= min(others):
            raise BombNotBehind(
                f"seat {seat} may bomb only when behind ({me.mines} mines, the other seat "
                f"{max(others, default=0)})"
            )


def may_bomb(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may use its bomb now (unused, and behind if the option asks it)."""
    try:
        check_bomb_allowed(state, seat)
    except (BombUsed, BombNotBehind):
        return False
    return True


MINESEEKER = register(MineSeeker())
