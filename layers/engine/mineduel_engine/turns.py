"""What every variant's rules share: whose turn it is, refusals, flood fill, going out, places.

Kept apart from the rule sets so each variant's module reads as its own rules only, and so a
refusal or a place is decided the same way in every variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from .state import COVERED, GameState, SeatState

RankKey = Callable[[SeatState], tuple[int, ...]]
"""Orders the seats still in when a game ends: smaller is better; equal keys share a place."""


def check_seat(state: GameState, seat: int) -> None:
    """Refuse a seat the game does not have, or one that is out."""
    if not 0 <= seat < len(state.seats):
        raise UnknownSeat(f"the game has no seat {seat}")
    if state.seats[seat].out:
        raise SeatOut(f"seat {seat} is out of the game")


def check_seat_may_move(state: GameState, seat: int, action: str, actions: frozenset[str]) -> None:
    """Refuse a move in a finished game, by a seat not to move, or an action not in ``actions``."""
    if state.finished:
        raise GameOver("the game is over")
    check_seat(state, seat)
    if state.turn != seat:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")
    if action not in actions:
        raise UnknownAction(f"{state.settings.variant} has no action {action!r}")


def on_board(state: GameState, row: int, col: int) -> int:
    """The index of ``(row, col)``; ``OffBoard`` when it lies outside the field."""
    s = state.settings
    if not (0 <= row < s.height and 0 <= col < s.width):
        raise OffBoard(f"cell ({row}, {col}) is outside the {s.height}x{s.width} field")
    return row * s.width + col


def covered_cell(state: GameState, row: int, col: int) -> int:
    """The index of ``(row, col)`` if it is on the board and covered, else the precise refusal."""
    index = on_board(state, row, col)
    if state.cells[index] != COVERED:
        raise CellNotCovered(f"cell ({row}, {col}) is already open or flagged")
    return index


def flood(field: Field, cells: Sequence[str], start: int) -> list[tuple[int, int]]:
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


def as_row_col(width: int, opened: Sequence[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """``(cell, number)`` pairs as a move's ``[row, col, number]`` list."""
    return tuple([(c // width, c % width, num) for c, num in opened])


def bump(seat: SeatState, mines: int = 0, safe_taps: int = 0, score: int = 0) -> SeatState:
    """The seat with its counters raised (built in one step: this is every move's hot path,
    and a frozen dataclass sets its fields one by one)."""
    raised = _new(SeatState)
    _set(
        raised,
        "__dict__",
        {
            "mines": seat.mines + mines,
            "safe_taps": seat.safe_taps + safe_taps,
            "out": seat.out,
            "bomb_used": seat.bomb_used,
            "score": seat.score + score,
        },
    )
    return raised


_new = object.__new__
_set = object.__setattr__


def next_seat(seats: Sequence[SeatState], after: int) -> int | None:
    """The next seat still in after ``after``, in seat order (None when nobody is left)."""
    count = len(seats)
    for step in range(1, count + 1):
        candidate = (after + step) % count
        if not seats[candidate].out:
            return candidate
    return None


def finish(state: GameState, reason: Reason, rank: RankKey) -> GameState:
    """Close the game with places: seats still in by ``rank``, ties shared; seats that went out
    take the last places, the first one out last of all."""
    places = [0] * len(state.seats)
    ranked = sorted(state.seats_in, key=lambda i: rank(state.seats[i]))
    for position, seat in enumerate(ranked):
        if position and rank(state.seats[ranked[position - 1]]) == rank(state.seats[seat]):
            places[seat] = places[ranked[position - 1]]
        else:
            places[seat] = position + 1
    for k, seat in enumerate(state.eliminated):
        places[seat] = len(state.seats) - k
    firsts = [i for i, p in enumerate(places) if p == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    return state.evolve(turn=None, result=Result(reason, winner, tuple(places)))


def eliminate(
    state: GameState,
    seat: int,
    reason: str,
    settle: Callable[[GameState], GameState],
    rank: RankKey,
    points: int | None = None,
) -> tuple[GameState, Move]:
    """Put ``seat`` out (``resign`` any time, ``timeout`` only on its turn) and settle the game.

    With one seat left in, that seat wins (reason ``resign``/``timeout``); otherwise ``settle``
    decides whether the game goes on. ``points`` is what the variant logs on such a move.
    """
    if reason not in ELIMINATIONS:
        raise UnknownAction(f"a seat goes out by resign or timeout, not {reason!r}")
    if state.finished:
        raise GameOver("the game is over")
    check_seat(state, seat)
    if reason == "timeout" and state.turn != seat:
        raise NotYourTurn(f"seat {seat} cannot time out: it is not its turn")
    seats = list(state.seats)
    old = seats[seat]
    seats[seat] = SeatState(old.mines, old.safe_taps, True, old.bomb_used, old.score)
    turn = state.turn if state.turn != seat else next_seat(seats, seat)
    n = state.move_count + 1
    move = Move(n, seat, "resign" if reason == "resign" else "timeout", points=points)
    after = state.evolve(
        seats=tuple(seats), turn=turn, move_count=n, eliminated=(*state.eliminated, seat)
    )
    if len(after.seats_in) == 1:
        elimination_reason: Reason = "resign" if reason == "resign" else "timeout"
        return finish(after, elimination_reason, rank), move
    return settle(after), move
