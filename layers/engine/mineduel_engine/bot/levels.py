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
from .strategy import greedy_cell, play_hard

Player = Callable[[Position, int, Stream], int]


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
