"""The mineseeker bot: mine-duel's taps, plus one bomb fired where it pays.

The bomb is decided from the exact mine chances, never at random:

1. A certain mine is a free point that keeps the turn, so while one exists the bot taps it and
   keeps the bomb (bombing a square of certain mines would waste the bomb on points taps get).
2. Otherwise every 5 x 5 square the bomb can open (each clamped position once) is worth its
   *expected mines*: the sum of the exact chances of its covered cells. The best square is the
   one with the most (ties from the public stream).
3. The bot fires when that square's expected mines beat what the tap would bring by
   ``BOMB_MARGIN`` mines or more. The margin stands for what keeping the bomb is worth (a
   denser square may come) and for what the opened square tells the next seat. A tap's worth is
   the expected length of a streak on the best cell, ``p / (1 - p)``.
4. It also fires, on its best square with at least ``LAST_CHANCE`` expected mines, when waiting
   could waste the bomb: the other seat is within ``URGENT`` mines of the majority, or this
   seat is within reach of the majority through the square (its expected mines cover what it
   lacks).

Under the ``bomb_when_behind`` option the bomb is only considered while the seat is behind
(the rules refuse it otherwise). Tie-breaks draw from the public bot stream, squares first.
"""

from __future__ import annotations

from ..fairness import Stream
from ..geometry import BOMB_SIDE
from .choice import best_cells, pick
from .levels import MOVES
from .position import Position
from .probability import Solution
from .seat_view import SeatView
from .strategy import exact_or_none, hard_move

BOMB_MARGIN = 6.0
"""Expected mines a bomb must bring beyond a tap's streak before the bot fires it."""

URGENT = 4
"""Fire when the other seat lacks at most this many mines for the majority."""

LAST_CHANCE = 1.0
"""Fewest expected mines worth a bomb fired because waiting could waste it."""


def square_values(position: Position, chances: dict[int, float]) -> dict[int, float]:
    """Expected mines of every square the bomb can open, keyed by its centre cell.

    Each distinct square is listed once, under the centre a bomb aimed there names (on boards at
    least 5 cells wide and tall, that centre needs no moving inwards).
    """
    width, height = position.width, position.height
    rows = range(max(1, height - BOMB_SIDE + 1))
    cols = range(max(1, width - BOMB_SIDE + 1))
    grid = [chances.get(cell, 0.0) for cell in range(width * height)]
    # Sums over each row's runs of BOMB_SIDE cells, then over BOMB_SIDE such runs.
    runs = [
        [sum(grid[r * width + c : r * width + min(width, c + BOMB_SIDE)]) for c in cols]
        for r in range(height)
    ]
    half = BOMB_SIDE // 2
    values: dict[int, float] = {}
    for top in rows:
        for j, left in enumerate(cols):
            total = sum(runs[r][j] for r in range(top, min(height, top + BOMB_SIDE)))
            centre = min(top + half, height - 1) * width + min(left + half, width - 1)
            values[centre] = total
    return values


def streak_value(p: float) -> float:
    """Expected mines a tap streak on chance ``p`` brings: p + p^2 + ... (capped when sure)."""
    return p / (1.0 - p) if p < 1.0 else float("inf")


def bomb_choice(view: SeatView, solution: Solution, stream: Stream) -> int | None:
    """The centre to bomb now, or None to keep the bomb (see the module docstring)."""
    if not view.may_bomb or solution.certain_mines:
        return None
    position = view.position
    values = square_values(position, solution.mine)
    best = max(values.values(), default=0.0)
    if best <= 0.0:
        return None
    p_best = max((p for p in solution.mine.values()), default=0.0)
    need = view_majority(view)
    mine = view.mines_by_seat[view.seat] if view.mines_by_seat else 0
    others = [m for i, m in enumerate(view.mines_by_seat) if i != view.seat]
    other = max(others, default=0)
    urgent = need - other <= URGENT or need - mine <= best
    if best - streak_value(p_best) >= BOMB_MARGIN or (urgent and best >= LAST_CHANCE):
        return pick(best_cells(values), stream)
    return None


def view_majority(view: SeatView) -> int:
    """Mines that win at once: more than half of them."""
    return view.position.mines // 2 + 1


def play_mineseeker(
    view: SeatView, stream: Stream, tap: str | None = None, bombs: bool = True
) -> tuple[str, int]:
    """``("bomb", centre)`` or ``("tap", cell)``; ``tap`` names the level whose tap is used.

    ``bombs=False`` never bombs (the benchmark's baseline: the same bot without its bomb).
    """
    mover = MOVES.get(tap or "hard", hard_move)
    weigh_bomb = bombs and view.may_bomb
    # the board is counted once, for the bomb and the tap alike
    solution = exact_or_none(view.position) if weigh_bomb or mover is not MOVES["easy"] else None
    if weigh_bomb and solution is not None:
        centre = bomb_choice(view, solution, stream)
        if centre is not None:
            return "bomb", centre
    return "tap", mover(view.position, stream, solution)
