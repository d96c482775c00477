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

BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_LEVEL = "hard"

__all__ = ["BOT_LEVELS", "DEFAULT_LEVEL", "Position", "choose_move"]


def choose_move(state: GameState, commitment: str, level: str = DEFAULT_LEVEL) -> tuple[int, int]:
    """(row, col) of the covered cell the seat to move (``state.turn``) taps.

    ``state`` is the public GameState; tie-breaks draw from
    ``fairness.bot_stream(commitment, state.move_count + 1)``. Raises ValueError for an unknown
    level or a finished game.
    """
    player = LEVELS.get(level)
    if player is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")
    if state.finished or state.turn is None:
        raise ValueError("the game is over: there is no move to choose")
    position = Position.from_state(state)
    stream = bot_stream(commitment, state.move_count + 1)
    cell = player(position, len(state.seats_in), stream)
    return to_row_col(state.settings.width, cell)
