"""The windows-duel bot: guess where the odds pay, reveal the safest cell otherwise.

A guess on a cell with mine chance ``p`` is worth ``5p - 2(1 - p) = 7p - 2`` points; a reveal is
worth ``-5p`` (a safe reveal scores nothing). So the bot compares the best guess (the likeliest
mine) with the best reveal (the safest cell) and takes the better; a certain mine (+5) always
wins, and a guess needs ``p > 2/7`` even when a certainly safe reveal exists.

The chances are exact (``probability.solve``) given the public board AND the seat's own wrong
guesses: those cells hold no mine, which only this seat knows (``Position.safe``). Nothing else
private exists, and the bot is handed nothing else. Levels: ``easy`` judges the chances by
local counting (one number at a time); ``medium`` and ``hard`` use the exact chances. Ties
(equally good cells) are drawn from the public bot stream.
"""

from __future__ import annotations

from ..fairness import Stream
from .choice import pick
from .local import local_chances
from .position import Position
from .seat_view import SeatView
from .strategy import exact_or_none

FOUND, MISSED, HIT = 5.0, -2.0, -5.0
TOLERANCE = 1e-9


def guess_value(p: float) -> float:
    """Expected points of a guess on a cell that is a mine with chance ``p``."""
    return p * FOUND + (1.0 - p) * MISSED


def reveal_value(p: float) -> float:
    """Expected points of a reveal on a cell that is a mine with chance ``p``."""
    return p * HIT


def chances_for(position: Position, level: str) -> dict[int, float]:
    """Mine chance of every covered cell, as the level judges it (known-safe cells at 0)."""
    if level != "easy":
        solution = exact_or_none(position)
        if solution is not None:
            return solution.mine
    chances = local_chances(position)
    for cell in position.safe:
        chances[cell] = 0.0
    return chances


def play_windows(view: SeatView, stream: Stream, level: str = "hard") -> tuple[str, int]:
    """``("guess", cell)`` or ``("reveal", cell)``: whichever is worth more points."""
    chances = chances_for(view.position, level)
    p_high = max(chances.values())
    p_low = min(chances.values())
    if guess_value(p_high) > reveal_value(p_low) + TOLERANCE:
        likeliest = sorted(c for c, p in chances.items() if p >= p_high - TOLERANCE)
        return "guess", pick(likeliest, stream)
    safest = sorted(c for c, p in chances.items() if p <= p_low + TOLERANCE)
    return "reveal", pick(safest, stream)


def play_safest(view: SeatView, stream: Stream) -> tuple[str, int]:
    """The benchmark's baseline: always reveal the safest cell (exact chances), never guess."""
    chances = chances_for(view.position, "hard")
    p_low = min(chances.values())
    return "reveal", pick(sorted(c for c, p in chances.items() if p <= p_low + TOLERANCE), stream)
