"""The MineDuel bot: a pure function of the public view.

``choose_move`` is handed the public ``GameState`` (which holds no hidden information by
construction) and the game's public commitment, never a field or a seed; its tie-breaks draw
from ``fairness.bot_stream``. So the same public view always gives the same move, whatever the
hidden field, and anyone can re-run every bot move once the game is over.
"""

from __future__ import annotations

from ..fairness import bot_stream
from ..geometry import to_row_col
from ..state import GameState
from .levels import LEVELS
from .position import Position
from .probability import Inconsistent, Solution, number_chances, solve

BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_LEVEL = "hard"

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_LEVEL",
    "Inconsistent",
    "Position",
    "Solution",
    "choose_cell",
    "choose_move",
    "number_chances",
    "solve",
]


def choose_cell(
    position: Position, seats: int, commitment: str, move_number: int, level: str = DEFAULT_LEVEL
) -> int:
    """The cell index a bot of ``level`` taps on a public ``position`` with ``seats`` seats in.

    Tie-breaks draw from ``fairness.bot_stream(commitment, move_number)``. Raises ValueError
    for an unknown level or a board with no covered cell.
    """
    player = LEVELS.get(level)
    if player is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")
    if not position.covered:
        raise ValueError("no covered cell is left to tap")
    return player(position, seats, bot_stream(commitment, move_number))


def choose_move(state: GameState, commitment: str, level: str = DEFAULT_LEVEL) -> tuple[int, int]:
    """(row, col) of the covered cell the seat to move (``state.turn``) taps.

    ``state`` is the public GameState; tie-breaks draw from
    ``fairness.bot_stream(commitment, state.move_count + 1)``. Raises ValueError for an unknown
    level or a finished game.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")
    if state.finished or state.turn is None:
        raise ValueError("the game is over: there is no move to choose")
    position = Position.from_state(state)
    cell = choose_cell(position, len(state.seats_in), commitment, state.move_count + 1, level)
    return to_row_col(state.settings.width, cell)
