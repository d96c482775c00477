"""The MineDuel bot: a pure function of what its seat sees.

``choose_action`` is handed a ``GameState`` and the game's public commitment, never a field or a
seed. It reads the state only through ``GameState.seen_by(state.turn)``: the public board and
counters, the options, and the moving seat's own private knowledge (windows-duel: its wrong
guesses), never another seat's. Its tie-breaks draw from ``fairness.bot_stream``. So the same
view always gives the same move, whatever the hidden field, and anyone can re-run every bot move
once the game is over.

Every variant's bot answers with an action and a cell (``BotMove``): ``tap`` in mine-duel,
``tap`` or ``bomb`` in mineseeker, ``guess`` or ``reveal`` in windows-duel. ``choose_move`` is the
older, mine-duel-only entry point that answers with the cell alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fairness import Stream, bot_stream
from ..geometry import to_row_col
from ..settings import BOT_LEVELS, DEFAULT_LEVEL
from ..state import GameState
from .levels import LEVELS
from .mineseeker import play_mineseeker
from .position import Position
from .probability import Inconsistent, Solution, number_chances, solve
from .seat_view import SeatView
from .windows import play_windows

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_LEVEL",
    "BotMove",
    "Inconsistent",
    "Position",
    "SeatView",
    "Solution",
    "choose_action",
    "choose_cell",
    "choose_move",
    "decide",
    "number_chances",
    "solve",
]


@dataclass(frozen=True)
class BotMove:
    """The bot's move: an action of the game's variant on cell ``(row, col)``."""

    action: str
    row: int
    col: int


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")


def choose_cell(
    position: Position, seats: int, commitment: str, move_number: int, level: str = DEFAULT_LEVEL
) -> int:
    """The cell index a mine-duel bot of ``level`` taps on a public ``position`` with ``seats``
    seats in.

    Tie-breaks draw from ``fairness.bot_stream(commitment, move_number)``. Raises ValueError
    for an unknown level or a board with no covered cell.
    """
    _check_level(level)
    if not position.covered:
        raise ValueError("no covered cell is left to tap")
    return LEVELS[level](position, seats, bot_stream(commitment, move_number))


def decide(view: SeatView, stream: Stream, level: str = DEFAULT_LEVEL) -> tuple[str, int]:
    """``(action, cell index)`` a bot of ``level`` plays from ``view``, tie-breaks from
    ``stream``. Raises ValueError for an unknown level, variant, or a board with nothing to do."""
    _check_level(level)
    if not view.position.covered:
        raise ValueError("no covered cell is left to play")
    if view.variant == "mine-duel":
        return "tap", LEVELS[level](view.position, view.seats_in, stream)
    if view.variant == "mineseeker":
        return play_mineseeker(view, stream, tap=level)
    if view.variant == "windows-duel":
        return play_windows(view, stream, level)
    raise ValueError(f"the bot does not play {view.variant!r}")


def choose_action(state: GameState, commitment: str, level: str = DEFAULT_LEVEL) -> BotMove:
    """The action and cell the seat to move (``state.turn``) plays, in any variant.

    Tie-breaks draw from ``fairness.bot_stream(commitment, state.move_count + 1)``. Raises
    ValueError for an unknown level or a finished game.
    """
    _check_level(level)
    if state.finished or state.turn is None:
        raise ValueError("the game is over: there is no move to choose")
    view = SeatView.from_state(state, state.turn)
    action, cell = decide(view, bot_stream(commitment, state.move_count + 1), level)
    row, col = to_row_col(state.settings.width, cell)
    return BotMove(action, row, col)


def choose_move(state: GameState, commitment: str, level: str = DEFAULT_LEVEL) -> tuple[int, int]:
    """(row, col) of the covered cell the seat to move taps, in mine-duel (which has no other
    action); other variants need ``choose_action``. Raises ValueError for an unknown level, a
    finished game or another variant."""
    if state.settings.variant != "mine-duel":
        raise ValueError(f"{state.settings.variant} has more than taps: use choose_action")
    move = choose_action(state, commitment, level)
    return move.row, move.col
