"""The ``hard`` level: a strategy for Mine Duel, not for classic minesweeper.

In Mine Duel a mine is a point and another move, and a safe cell is a turn handed over, along
with whatever its number tells the next seat. So the bot:

1. takes every certain mine first (each one is a free point and keeps the turn);
2. otherwise scores each candidate cell ``c`` (mine chance ``p``) one move ahead::

       score(c) = p - (1 - p) * haul(c)

   where ``haul(c)`` is what the next seat can expect once ``c`` opens safe: for every number
   ``c`` could show (exact chances), the mines that board then proves (the next seat takes them
   all) plus its best remaining chance, and for a blank, which floods open a region nobody can
   foresee, a fixed allowance. A cell whose number is already determined tells the opponent
   nothing new, so its haul is just the board as it stands;
3. breaks ties from the public stream (docs/fairness.md step 8).

Every count is made under a work budget (``budget``); on a board too costly to count, the bot
falls back to the exact greedy choice, or to local counting if even the base count is too
costly: a sensible move, never a timeout. The base board is counted once per move: the
fallbacks reuse that count (or its failure), they never try again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fairness import Stream
from .choice import best_cells, pick
from .local import local_chances
from .position import Position
from .probability import Budget, Counts, Solution, TooHard, outcome_summaries, solve

BLANK_HAUL = 2.0
"""What a blank (0) is worth to the next seat: it floods a region whose numbers are unknown."""

CANDIDATES = 6
"""How many of the likeliest cells get the look-ahead: a much less likely cell seldom scores
better, and each look-ahead costs a count per number the cell could show."""

SOLVE_BUDGET = 5_000
"""Work units (``budget``, about a microsecond each) the move's one count of the board may use
before the bot falls back; real games' boards take a few hundred."""

LOOKAHEAD_BUDGET = 6_000
"""Work units all look-ahead counts of one move may use together (about 1 move in 10 of real
play would use more, and scores only the candidates it reached: in 400 games against medium,
338 wins, against 339 with 7,000)."""


@dataclass(frozen=True)
class Scored:
    """A candidate with its chance, the next seat's expected haul and the resulting score."""

    cell: int
    chance: float
    haul: float
    score: float


def exact_or_none(position: Position) -> Solution | None:
    """The exact solution, or None if counting it would pass the budget."""
    try:
        return solve(position, Budget(SOLVE_BUDGET))
    except TooHard:
        return None


def greedy_move(position: Position, stream: Stream, solution: Solution | None) -> int:
    """The likeliest mine by ``solution`` (the board's count), or by local counting when the
    count passed its budget (``solution`` None)."""
    chances = solution.mine if solution is not None else local_chances(position)
    return pick(best_cells(chances), stream)


def greedy_cell(position: Position, stream: Stream) -> int:
    """The likeliest mine (exact), or by local counting when the board is too costly."""
    return greedy_move(position, stream, exact_or_none(position))


def next_haul(solution: Solution) -> float:
    """What the seat to move can expect from a board: its certain mines plus its best chance."""
    rest = [p for c, p in solution.mine.items() if p < 1.0]
    return len(solution.certain_mines) + (max(rest) if rest else 0.0)


def haul_after(
    position: Position, solution: Solution, cell: int, budget: Budget, counts: Counts
) -> float:
    """The next seat's expected haul once covered ``cell`` opens safe (exact number chances).

    Each board after is weighed in short (``probability.Summary``: its certain mines and best
    chance are all the haul needs), not cell by cell. A certainly safe cell whose every
    covered neighbour is certain already shows a number the board implies: opening it changes
    no layout, so the next seat faces this very board (a pass), and nothing is counted.
    """
    fixed = _implied_number(position, solution, cell)
    if fixed is not None:
        return BLANK_HAUL if fixed == 0 else next_haul(solution)
    found = outcome_summaries(position, cell, budget, solution, counts)
    haul = 0.0
    for number, chance, after in found:
        if number == 0:
            haul += chance * BLANK_HAUL
        else:
            haul += chance * (after.certain_mines + after.best)
    return haul


def _implied_number(position: Position, solution: Solution, cell: int) -> int | None:
    """The number certainly safe ``cell`` must show, when the solution already fixes it."""
    chances = solution.mine
    if chances.get(cell) != 0.0 or cell not in solution.certain_safe:
        return None
    number = 0
    for n in position.table[cell]:
        p = chances.get(n)
        if p is None:  # open, or a flag
            number += position.is_flag(n)
        elif p == 1.0 and n in solution.certain_mines:
            number += 1
        elif p != 0.0 or n not in solution.certain_safe:
            return None
    return number


def candidates(solution: Solution) -> list[int]:
    """The likeliest cells, plus the safe cells (a safe cell with a known number is a pass)."""
    ranked = sorted(solution.mine, key=lambda c: (-solution.mine[c], c))
    picked = [c for c in ranked if solution.mine[c] > 0.0][:CANDIDATES]
    return picked + list(solution.certain_safe[:CANDIDATES])


def score_cells(position: Position, solution: Solution) -> list[Scored]:
    """Score the candidates one move ahead, within the look-ahead budget."""
    budget = Budget(LOOKAHEAD_BUDGET)
    counts: Counts = {}  # look-ahead boards share most components: count each once
    scored = []
    for cell in candidates(solution):
        p = solution.mine[cell]
        try:
            haul = haul_after(position, solution, cell, budget, counts) if p < 1.0 else 0.0
        except TooHard:
            break
        scored.append(Scored(cell, p, haul, p - (1.0 - p) * haul))
    return scored


def play_hard(position: Position, seats: int, stream: Stream) -> int:
    """Certain mines first; else the best one-move-ahead score; ties from the public stream."""
    del seats  # the next seat's haul is the same threat with 2, 3 or 4 seats
    return hard_move(position, stream, exact_or_none(position))


def hard_move(position: Position, stream: Stream, solution: Solution | None) -> int:
    """``play_hard`` from the board's count already made (None: it passed its budget, so
    local counting decides: the board is not counted a second time)."""
    if solution is None:
        return greedy_move(position, stream, None)
    if solution.certain_mines:
        return pick(list(solution.certain_mines), stream)
    scored = score_cells(position, solution)
    if not scored:
        return pick(best_cells(solution.mine), stream)
    return pick(best_cells({s.cell: s.score for s in scored}), stream)
