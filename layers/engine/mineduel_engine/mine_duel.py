"""Rules of ``mine-duel`` (shared/spec/rules.md), for 2 to 4 seats.

A tap on a mine flags it for the tapper, who moves again; a tap on safe ground opens it (a 0
floods its blank region and border) and passes the turn. A seat wins the moment it has more
mines than any other seat still in could reach with every covered mine. Resignation or a missed
deadline puts a seat out in the last place not yet taken.
"""

from __future__ import annotations

from .errors import (
    CellNotCovered,
    GameOver,
    NotYourTurn,
    OffBoard,
    SeatOut,
    UnknownAction,
    UnknownSeat,
)
from .field import Field
from .geometry import neighbours
from .moves import ELIMINATIONS, Move
from .outcome import Reason, Result
from .rules import register
from .settings import SEAT_LETTERS, Settings
from .state import COVERED, GameState, SeatState


class MineDuel:
    """The ``mine-duel`` rule set."""

    variant = "mine-duel"
    actions = frozenset({"tap"})

    def new_game(self, settings: Settings) -> GameState:
        """Every cell covered, seat 0 to move."""
        return GameState.new(settings)

    def play(
        self, state: GameState, field: Field, seat: int, action: str, row: int, col: int
    ) -> tuple[GameState, Move]:
        """Apply a tap by ``seat`` at ``(row, col)``; refuse it with a precise error."""
        _check_seat_may_move(state, seat)
        if action not in self.actions:
            raise UnknownAction(f"{self.variant} has no action {action!r}")
        s = state.settings
        if not (0 <= row < s.height and 0 <= col < s.width):
            raise OffBoard(f"cell ({row}, {col}) is outside the {s.height}x{s.width} field")
        index = row * s.width + col
        if state.cells[index] != COVERED:
            raise CellNotCovered(f"cell ({row}, {col}) is already open or flagged")

        cells = list(state.cells)
        seats = list(state.seats)
        n = state.move_count + 1
        if field.is_mine(index):
            cells[index] = SEAT_LETTERS[seat]
            seats[seat] = _bump(seats[seat], mines=1)
            move = Move(n, seat, "tap", row, col, "mine", flagged=((row, col),))
            turn: int | None = seat
        else:
            opened = flood(field, cells, index)
            for cell, number in opened:
                cells[cell] = str(number)
            seats[seat] = _bump(seats[seat], safe_taps=1)
            width = s.width
            move = Move(
                n,
                seat,
                "tap",
                row,
                col,
                "safe",
                opened=tuple((c // width, c % width, num) for c, num in opened),
            )
            turn = _next_seat(seats, seat)
        # Built directly rather than through ``evolve``: this is the hot path of every replay.
        after = GameState(s, tuple(cells), tuple(seats), turn, n, state.eliminated, state.result)
        return settle(after), move

    def eliminate(self, state: GameState, seat: int, reason: str) -> tuple[GameState, Move]:
        """Put ``seat`` out. A timeout is only ever against the seat to move."""
        if reason not in ELIMINATIONS:
            raise UnknownAction(f"a seat goes out by resign or timeout, not {reason!r}")
        if state.finished:
            raise GameOver("the game is over")
        _check_seat(state, seat)
        if reason == "timeout" and state.turn != seat:
            raise NotYourTurn(f"seat {seat} cannot time out: it is not its turn")
        seats = list(state.seats)
        seats[seat] = SeatState(seats[seat].mines, seats[seat].safe_taps, out=True)
        turn = state.turn if state.turn != seat else _next_seat(seats, seat)
        n = state.move_count + 1
        move = Move(n, seat, "resign" if reason == "resign" else "timeout")
        after = state.evolve(
            seats=tuple(seats), turn=turn, move_count=n, eliminated=(*state.eliminated, seat)
        )
        if len(after.seats_in) == 1:
            elimination_reason: Reason = "resign" if reason == "resign" else "timeout"
            return finish(after, elimination_reason), move
        return settle(after), move

    def apply_to_cells(self, settings: Settings, cells: list[str], move: Move) -> None:
        """Flags take the tapper's letter; opened cells show their numbers."""
        width = settings.width
        for row, col in move.flagged:
            cells[row * width + col] = SEAT_LETTERS[move.seat]
        for row, col, number in move.opened:
            cells[row * width + col] = str(number)


def flood(field: Field, cells: list[str], start: int) -> list[tuple[int, int]]:
    """Open ``start`` and, if it shows 0, its whole blank region and numbered border.

    Returns ``(cell, number)`` pairs sorted by cell index (the canonical order of a move's
    ``opened`` list). Only covered cells open; the fill never steps onto a mine, because every
    neighbour of a 0 is safe.
    """
    table = neighbours(field.width, field.height)
    numbers = field.numbers
    seen = {start}
    stack = [start]
    opened: list[tuple[int, int]] = []
    while stack:
        cell = stack.pop()
        number = numbers[cell]
        opened.append((cell, number))
        if number == 0:
            for nb in table[cell]:
                if nb not in seen and cells[nb] == COVERED:
                    seen.add(nb)
                    stack.append(nb)
    opened.sort()
    return opened


def settle(state: GameState) -> GameState:
    """End the game if a seat is out of reach or every mine is flagged; else return it as is."""
    if state.finished:
        return state
    seats = state.seats
    covered = state.settings.mines - sum([seat.mines for seat in seats])
    # Only the seat with the most mines can be out of reach, and only if it beats the next best
    # (among seats still in) by more than the mines still covered.
    mines_in = sorted([seat.mines for seat in seats if not seat.out], reverse=True)
    if len(mines_in) > 1 and mines_in[0] - covered > mines_in[1]:
        return finish(state, "reach")
    if covered == 0:
        return finish(state, "field-done")
    return state


def finish(state: GameState, reason: Reason) -> GameState:
    """Close the game with places: seats still in by mines, then fewer safe taps, ties shared;
    seats that went out take the last places, the first one out last of all."""
    places = [0] * len(state.seats)
    ranked = sorted(state.seats_in, key=lambda i: _rank_key(state.seats[i]))
    for position, seat in enumerate(ranked):
        if position and _rank_key(state.seats[ranked[position - 1]]) == _rank_key(
            state.seats[seat]
        ):
            places[seat] = places[ranked[position - 1]]
        else:
            places[seat] = position + 1
    for k, seat in enumerate(state.eliminated):
        places[seat] = len(state.seats) - k
    firsts = [i for i, p in enumerate(places) if p == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    return state.evolve(turn=None, result=Result(reason, winner, tuple(places)))


def _rank_key(seat: SeatState) -> tuple[int, int]:
    return (-seat.mines, seat.safe_taps)


def _bump(seat: SeatState, mines: int = 0, safe_taps: int = 0) -> SeatState:
    return SeatState(seat.mines + mines, seat.safe_taps + safe_taps, seat.out)


def _next_seat(seats: list[SeatState], after: int) -> int | None:
    count = len(seats)
    for step in range(1, count + 1):
        candidate = (after + step) % count
        if not seats[candidate].out:
            return candidate
    return None


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise UnknownSeat(f"the game has no seat {seat}")
    if state.seats[seat].out:
        raise SeatOut(f"seat {seat} is out of the game")


def _check_seat_may_move(state: GameState, seat: int) -> None:
    if state.finished:
        raise GameOver("the game is over")
    _check_seat(state, seat)
    if state.turn != seat:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")


MINE_DUEL = register(MineDuel())
