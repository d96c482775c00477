"""The bot's levels: each one a real player that maps a public position to a cell.

* ``easy``: local counting (one number at a time).
* ``medium``: exact greedy: the cell most likely to be a mine.
* ``hard``: the full Mine Duel strategy (the default).
"""

from __future__ import annotations

from collections.abc import Callable

from ..fairness import Stream
from .choice import best_cells, pick
from .local import local_chances
from .position import Position
from .probability import Solution
from .strategy import greedy_cell, greedy_move, hard_move, play_hard

Player = Callable[[Position, int, Stream], int]

Mover = Callable[[Position, Stream, Solution | None], int]
"""A level's tap from a board already counted (None: the count passed its budget)."""


def play_easy(position: Position, seats: int, stream: Stream) -> int:
    """Tap the cell local counting thinks likeliest to be a mine."""
    del seats
    return pick(best_cells(local_chances(position)), stream)


def play_medium(position: Position, seats: int, stream: Stream) -> int:
    """Exact greedy: tap the cell most likely to be a mine."""
    del seats
    return greedy_cell(position, stream)


LEVELS: dict[str, Player] = {
    "easy": play_easy,
    "medium": play_medium,
    "hard": play_hard,
}


def easy_move(position: Position, stream: Stream, solution: Solution | None) -> int:
    """``play_easy``: local counting, whatever the count."""
    del solution
    return pick(best_cells(local_chances(position)), stream)


MOVES: dict[str, Mover] = {
    "easy": easy_move,
    "medium": greedy_move,
    "hard": hard_move,
}
"""The levels' taps given the board's count, for a caller that counted the board already
(mineseeker's bot weighs its bomb on the same count)."""
