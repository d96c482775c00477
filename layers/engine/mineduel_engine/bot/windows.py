"""The windows-duel bot: guess where the odds pay, reveal the safest cell otherwise.

A guess on a cell with mine chance ``p`` is worth ``5p - 2(1 - p) = 7p - 2`` points; a reveal is
worth ``-5p`` (a safe reveal scores nothing). So the bot compares the best guess (the likeliest
mine) with the best reveal (the safest cell) and takes the better; a certain mine (+5) always
wins, and a guess needs ``p > 2/7`` even when a certainly safe reveal exists.

The chances are exact (``probability.solve``) given the public board AND the seat's own wrong
guesses: those cells hold no mine, which only this seat knows (``Position.safe``). Nothing else
private exists, and the bot is handed nothing else.

Levels:

- ``easy``: that rule on chances judged by local counting (one number at a time);
- ``medium``: that rule on the exact chances;
- ``hard`` (default): one move ahead. Turns alternate, so whatever a move shows, the other seat
  uses first. Each candidate (the ``CANDIDATES`` likeliest cells as guesses, never a cell known
  safe; the ``CANDIDATES`` safest as reveals) scores its expected points minus the other
  seat's best expected points on the board it leaves: for a guess, the board with the mine
  shown (chance ``p``) or unchanged (a miss shows nothing); for a reveal, the board with the
  mine hit or, for every number the cell could show (exact chances), the board with that
  number (a 0's flood is not foreseen). The other seat is valued on the public board alone: it
  does not know this seat's wrong guesses. Past ``LOOKAHEAD_BUDGET`` the bot plays the medium
  rule.

A bot never guesses a cell it knows is safe (a 2-point pass that shows nothing): so each of its
guesses can find a mine, a miss is never repeated, and two bots alone always finish a game.

Ties (equally good cells) are drawn from the public bot stream.
"""

from __future__ import annotations

from ..fairness import Stream
from ..settings import HIT_LETTERS, SEAT_LETTERS
from .choice import best_cells, pick
from .local import local_chances
from .position import Position
from .probability import Budget, Inconsistent, Solution, TooHard, outcomes, solve
from .seat_view import SeatView
from .strategy import exact_or_none

FOUND, MISSED, HIT = 5.0, -2.0, -5.0
TOLERANCE = 1e-9

CANDIDATES = 4
"""How many guesses (the likeliest cells) and reveals (the safest) the hard level looks ahead on."""

LOOKAHEAD_BUDGET = 12_000
"""Work units (``budget``) all look-ahead counts of one move may use together."""


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
    return _local(position)


def _local(position: Position) -> dict[int, float]:
    """Local counting's chances, the seat's known-safe cells at 0."""
    chances = local_chances(position)
    for cell in position.safe:
        chances[cell] = 0.0
    return chances


def best_value(position: Position, budget: Budget) -> float:
    """What the seat to move can expect from ``position``: its best guess or reveal."""
    try:
        chances = solve(position, budget).mine
    except Inconsistent:
        return 0.0  # a board that cannot happen weighs nothing
    if not chances:
        return 0.0
    return max(guess_value(max(chances.values())), reveal_value(min(chances.values())))


def _with(position: Position, cell: int, ch: str) -> Position:
    """The public board with ``cell`` showing ``ch`` (a number or a shown mine)."""
    cells = list(position.cells)
    cells[cell] = ch
    return Position(position.width, position.height, position.mines, tuple(cells))


def lookahead_scores(view: SeatView, solution: Solution) -> dict[tuple[str, int], float]:
    """Hard's scores: expected points minus the other seat's best on the board left behind.

    Raises ``TooHard`` past ``LOOKAHEAD_BUDGET``.
    """
    budget = Budget(LOOKAHEAD_BUDGET)
    position = view.position
    public = position.public()
    chances = solution.mine
    found, hit = SEAT_LETTERS[view.seat], HIT_LETTERS[view.seat]
    unchanged = best_value(public, budget)
    scores: dict[tuple[str, int], float] = {}
    # A cell known safe is never guessed: that would be a pass costing 2 points, and two bots
    # passing could go on for ever; every guess the bot makes can find a mine.
    likely = [c for c in sorted(chances, key=lambda c: (-chances[c], c)) if chances[c] > 0.0]
    for cell in likely[:CANDIDATES]:
        p = chances[cell]
        shown = best_value(_with(public, cell, found), budget)
        scores["guess", cell] = guess_value(p) - (p * shown + (1.0 - p) * unchanged)
    for cell in sorted(chances, key=lambda c: (chances[c], c))[:CANDIDATES]:
        p = chances[cell]
        if p >= 1.0:
            continue
        shown = best_value(_with(public, cell, hit), budget) if p > 0.0 else 0.0
        after = 0.0
        for number, chance, _ in outcomes(position, cell, budget, solution):
            after += chance * best_value(_with(public, cell, str(number)), budget)
        scores["reveal", cell] = reveal_value(p) - (p * shown + (1.0 - p) * after)
    return scores


def play_lookahead(view: SeatView, stream: Stream) -> tuple[str, int]:
    """The hard level (see the module docstring); the medium rule past the budget."""
    solution = exact_or_none(view.position)
    if solution is None:
        return _by_rule(_local(view.position), stream)
    try:
        scores = lookahead_scores(view, solution)
    except TooHard:  # the medium rule on the count already made
        return _by_rule(solution.mine, stream)
    keys = sorted(scores)
    index = {i: scores[key] for i, key in enumerate(keys)}
    return keys[pick(best_cells(index), stream)]


def play_windows(view: SeatView, stream: Stream, level: str = "hard") -> tuple[str, int]:
    """``("guess", cell)`` or ``("reveal", cell)`` as ``level`` plays (module docstring)."""
    if level == "hard":
        return play_lookahead(view, stream)
    return _by_rule(chances_for(view.position, level), stream)


def _by_rule(chances: dict[int, float], stream: Stream) -> tuple[str, int]:
    """The better of the likeliest guess and the safest reveal (the module's rule)."""
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
