"""Rules of ``windows-duel``: 11 x 11, 15 mines, 2 seats, one action a turn, turns alternate.

- ``guess`` a covered cell: a mine there gives +5 and shows as found by the seat (``A``/``B``,
  listed in ``flagged``); no mine gives -2 (result ``miss``) and the cell stays covered. Where a
  wrong guess was is the seat's private knowledge (``SeatPrivate``) until the game ends.
- ``reveal`` a covered cell: safe opens its number (a 0 floods as usual; 0 points, result
  ``safe``); a mine gives -5 and shows as hit by the seat (``a``/``b``, result ``mine``).
- After every action, the last one included, ``auto_reveal`` opens what public information
  already fixes (``auto_opened``).
- The game ends when all the mines are visible (found or hit), reason ``field-done``: more points
  wins, equal points share first place (a draw). Resigning or timing out loses, as everywhere.
"""

from __future__ import annotations

from .auto_reveal import auto_reveal
from .errors import EngineError
from .field import Field
from .moves import Action, Move, MoveResult
from .outcome import Reason
from .rules import register
from .settings import HIT_LETTERS, SEAT_LETTERS, Settings
from .state import GameState, SeatPrivate, SeatState
from .turns import as_row_col, bump, check_seat_may_move, covered_cell, eliminate, flood, next_seat
from .turns import finish as finish_by

FOUND = 5
WRONG_GUESS = -2
HIT = -5


class WindowsDuel:
    """The ``windows-duel`` rule set."""

    variant = "windows-duel"
    actions = frozenset({"guess", "reveal"})

    def new_game(self, settings: Settings) -> GameState:
        """Every cell covered, seat 0 to move, nobody has guessed wrong yet."""
        return GameState.new(settings)

    def play(
        self, state: GameState, field: Field, seat: int, action: str, row: int, col: int
    ) -> tuple[GameState, Move]:
        """A guess or a reveal by ``seat`` on covered ``(row, col)``, then auto-reveal."""
        check_seat_may_move(state, seat, action, self.actions)
        index = covered_cell(state, row, col)
        s = state.settings
        cells = list(state.cells)
        seats = list(state.seats)
        private = state.private
        opened: list[tuple[int, int]] = []
        flagged: tuple[tuple[int, int], ...] = ()
        mine = field.is_mine(index)
        result: MoveResult
        if action == "guess" and mine:
            cells[index] = SEAT_LETTERS[seat]
            seats[seat] = bump(seats[seat], mines=1, score=FOUND)
            result, points, flagged = "mine", FOUND, ((row, col),)
        elif action == "guess":
            seats[seat] = bump(seats[seat], score=WRONG_GUESS)
            result, points = "miss", WRONG_GUESS
            private = _with_wrong_guess(state, seat, index)
        elif mine:
            cells[index] = HIT_LETTERS[seat]
            seats[seat] = bump(seats[seat], score=HIT)
            result, points = "mine", HIT
        else:
            opened = flood(field, cells, index)
            for cell, number in opened:
                cells[cell] = str(number)
            seats[seat] = bump(seats[seat], safe_taps=1)
            result, points = "safe", 0
        auto = auto_reveal(s.width, s.height, s.mines, cells)
        for cell, number in auto:
            if field.numbers[cell] != number:  # sound deduction on a true board cannot differ
                raise EngineError(f"auto-reveal would show cell {cell} wrongly: a bug")
            cells[cell] = str(number)
        n = state.move_count + 1
        kind: Action = "guess" if action == "guess" else "reveal"
        move = Move(
            n,
            seat,
            kind,
            row,
            col,
            result,
            opened=as_row_col(s.width, opened),
            flagged=flagged,
            points=points,
            auto_opened=as_row_col(s.width, auto),
        )
        after = state.evolve(
            cells=tuple(cells),
            seats=tuple(seats),
            turn=next_seat(seats, seat),
            move_count=n,
            private=private,
        )
        return self.settle(after), move

    def eliminate(self, state: GameState, seat: int, reason: str) -> tuple[GameState, Move]:
        """Resign (any time) or time out (on its turn): the other seat wins."""
        return eliminate(state, seat, reason, self.settle, self.rank, points=0)

    def apply_to_cells(self, settings: Settings, cells: list[str], move: Move) -> None:
        """Found mines take the seat's letter, hit mines its lower-case letter, opened and
        auto-opened cells their numbers; a wrong guess changes nothing anybody sees."""
        width = settings.width
        for row, col in move.flagged:
            cells[row * width + col] = SEAT_LETTERS[move.seat]
        if move.action == "reveal" and move.result == "mine" and move.row is not None:
            cells[move.row * width + (move.col or 0)] = HIT_LETTERS[move.seat]
        for row, col, number in (*move.opened, *move.auto_opened):
            cells[row * width + col] = str(number)

    @staticmethod
    def rank(seat: SeatState) -> tuple[int, ...]:
        """Places by points: equal points share first place (a draw)."""
        return (-seat.score,)

    def settle(self, state: GameState) -> GameState:
        """End the game once every mine is visible (found or hit)."""
        if state.finished or state.mines_left > 0:
            return state
        return self.finish(state, "field-done")

    def finish(self, state: GameState, reason: Reason) -> GameState:
        """Close the game with places by points."""
        return finish_by(state, reason, self.rank)


def _with_wrong_guess(state: GameState, seat: int, cell: int) -> tuple[SeatPrivate, ...]:
    """The private parts with ``cell`` added to ``seat``'s wrong guesses (once)."""
    parts = list(state.private) or [SeatPrivate() for _ in state.seats]
    guesses = parts[seat].wrong_guesses
    if cell not in guesses:
        parts[seat] = SeatPrivate((*guesses, cell))
    return tuple(parts)


WINDOWS_DUEL = register(WindowsDuel())
