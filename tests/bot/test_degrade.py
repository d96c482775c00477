"""A pathological board costs bounded work and still gets a sensible move."""

from __future__ import annotations

import random

import pytest
from mineduel_engine.bot import BOT_LEVELS, Position, SeatView, Solution, choose_cell, strategy
from mineduel_engine.bot.mineseeker import play_mineseeker
from mineduel_engine.bot.probability import Budget, TooHard, solve
from mineduel_engine.bot.strategy import SOLVE_BUDGET
from mineduel_engine.fairness import bot_stream
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


def test_the_budget_stops_the_work_close_to_where_it_says() -> None:
    """Every part spends as it goes (reading, deduction, ordering, counting), so passing the
    budget stops the count within one step's worth of units, whatever the board."""
    for side, units in ((16, 500), (24, 5_000), (32, 50_000)):
        budget = Budget(units)
        with pytest.raises(TooHard):
            solve(checkerboard(side), budget)
        assert budget.left > -max(2_000, units // 5)


def test_a_move_counts_its_board_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard bot counts the board once per move: past the budget it plays local counting
    at once, without counting the board a second time (the look-ahead boards are others)."""
    calls: list[int] = []
    real = strategy.solve

    def counted(position: Position, budget: Budget | None = None) -> Solution:
        calls.append(len(position.covered))
        return real(position, budget)

    monkeypatch.setattr(strategy, "solve", counted)
    for level in ("medium", "hard"):
        calls.clear()
        choose_cell(checkerboard(), 2, "00" * 32, 1, level)
        assert len(calls) == 1
    calls.clear()
    position = Position.from_board(4, 4, 3, ["1...", "....", "....", "...."])
    choose_cell(position, 2, "00" * 32, 1, "hard")
    assert len(calls) == 1


def test_mineseeker_weighs_its_bomb_and_taps_on_one_count(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = strategy.solve

    def counted(position: Position, budget: Budget | None = None) -> Solution:
        calls.append(1)
        return real(position, budget)

    monkeypatch.setattr(strategy, "solve", counted)
    for board in (checkerboard(16), checkerboard(24)):  # counted, and past the budget
        calls.clear()
        view = SeatView("mineseeker", board, 0, 2, (0, 0), may_bomb=True)
        play_mineseeker(view, bot_stream("00" * 32, 1), "hard")
        assert len(calls) == 1
