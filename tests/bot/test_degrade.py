"""A pathological board costs bounded work and still gets a sensible move."""

from __future__ import annotations

import random

import pytest
from mineduel_engine.bot import BOT_LEVELS, Position, choose_cell
from mineduel_engine.bot.probability import Budget, TooHard, solve
from mineduel_engine.bot.strategy import SOLVE_BUDGET
from mineduel_engine.geometry import neighbours


def checkerboard(side: int = 24) -> Position:
    """Most cells of one colour of a checkerboard open, true to a random layout: every covered
    cell touches up to four numbers, so the board is one wide, tangled component."""
    rng = random.Random(7)
    size = side * side
    table = neighbours(side, side)
    candidates = [c for c in range(size) if (c // side + c % side) % 2]
    mines = set(rng.sample(candidates, len(candidates) * 2 // 5))
    cells = tuple(
        str(sum(1 for n in table[c] if n in mines))
        if (c // side + c % side) % 2 == 0 and rng.random() < 0.6
        else "."
        for c in range(size)
    )
    return Position(side, side, len(mines), cells)


def test_counting_past_the_budget_raises() -> None:
    with pytest.raises(TooHard):
        solve(checkerboard(), Budget(SOLVE_BUDGET))


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_level_still_moves(level: str) -> None:
    position = checkerboard()
    cell = choose_cell(position, 2, "00" * 32, 1, level)
    assert position.is_covered(cell)
