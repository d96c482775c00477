"""Rules of ``mine-duel`` (the default variant), for 2 to 4 seats.

A tap on a mine flags it for the tapper, who moves again; a tap on safe ground opens it (a 0
floods its blank region and border) and passes the turn. A seat wins the moment it has more
mines than any other seat still in could reach with every covered mine. Resignation or a missed
deadline puts a seat out in the last place not yet taken.
"""

from __future__ import annotations

from .field import Field
from .moves import Move
from .outcome import Reason
from .rules import register
from .settings import SEAT_LETTERS, Settings
from .state import GameState, SeatState
from .turns import (
    as_row_col,
    bump,
    check_seat_may_move,
    covered_cell,
    eliminate,
    flood,
    next_seat,
)
from .turns import finish as finish_by


class MineDuel:
    """The ``mine-duel`` rule set (and the base of ``mineseeker``, which adds a bomb)."""

    variant = "mine-duel"
    actions = frozenset({"tap"})

    def new_game(self, settings: Settings) -> GameState:
        """Every cell covered, seat 0 to move."""
        return GameState.new(settings)

    def play(
        self, state: GameState, field: Field, seat: int, action: str, row: int, col: int
    ) -> tuple[GameState, Move]:
        """Apply a tap by ``seat`` at ``(row, col)``; refuse it with a precise error."""
        check_seat_may_move(state, seat, action, self.actions)
        return self.tap(state, field, seat, row, col)

    def tap(
        self, state: GameState, field: Field, seat: int, row: int, col: int
    ) -> tuple[GameState, Move]:
        """A tap: a mine is flagged for ``seat``, who moves again; safe ground opens."""
        s = state.settings
        index = covered_cell(state, row, col)
        cells = list(state.cells)
        seats = list(state.seats)
        n = state.move_count + 1
        if field.is_mine(index):
            cells[index] = SEAT_LETTERS[seat]
            seats[seat] = bump(seats[seat], mines=1)
            move = Move.tap(n, seat, row, col, "mine", flagged=((row, col),))
            turn: int | None = seat
        else:
            opened = flood(field, cells, index)
            for cell, number in opened:
                cells[cell] = str(number)
            seats[seat] = bump(seats[seat], safe_taps=1)
            move = Move.tap(n, seat, row, col, "safe", opened=as_row_col(s.width, opened))
            turn = next_seat(seats, seat)
        # Built directly rather than through ``evolve``: this is the hot path of every replay.
        after = GameState.direct(
            s,
            tuple(cells),
            tuple(seats),
            turn,
            n,
            state.eliminated,
            state.result,
            state.private,
        )
        return self.settle(after), move

    def eliminate(self, state: GameState, seat: int, reason: str) -> tuple[GameState, Move]:
        """Put ``seat`` out. A timeout is only ever against the seat to move."""
        return eliminate(state, seat, reason, self.settle, self.rank)

    def apply_to_cells(self, settings: Settings, cells: list[str], move: Move) -> None:
        """Flags take the tapper's letter; opened cells show their numbers."""
        width = settings.width
        for row, col in move.flagged:
            cells[row * width + col] = SEAT_LETTERS[move.seat]
        for row, col, number in move.opened:
            cells[row * width + col] = str(number)

    @staticmethod
    def rank(seat: SeatState) -> tuple[int, ...]:
        """Places: more mines first, then fewer safe taps (taps that ended a turn)."""
        return (-seat.mines, seat.safe_taps)

    def settle(self, state: GameState) -> GameState:
        """End the game if a seat is out of reach or every mine is flagged; else return it."""
        if state.finished:
            return state
        seats = state.seats
        covered = state.settings.mines
        best = second = -1  # the most mines of a seat still in, and the next most
        for seat in seats:
            mines = seat.mines
            covered -= mines
            if seat.out:
                continue
            if mines > best:
                best, second = mines, best
            elif mines > second:
                second = mines
        # Only the seat with the most mines can be out of reach, and only if it beats the next
        # best (among seats still in) by more than the mines still covered.
        if second >= 0 and best - covered > second:
            return self.finish(state, "reach")
        if covered == 0:
            return self.finish(state, "field-done")
        return state

    def finish(self, state: GameState, reason: Reason) -> GameState:
        """Close the game with places by this variant's ranking (``rank``)."""
        return finish_by(state, reason, self.rank)


MINE_DUEL = register(MineDuel())

__all__ = ["MINE_DUEL", "MineDuel", "finish", "flood", "settle"]


def settle(state: GameState) -> GameState:
    """mine-duel's end check: out of reach, or every mine flagged."""
    return MINE_DUEL.settle(state)


def finish(state: GameState, reason: Reason) -> GameState:
    """Close a mine-duel game: places by mines, then fewer safe taps, ties shared."""
    return MINE_DUEL.finish(state, reason)
