"""Each level is a real player: it plays by its own rule and beats a random tapper."""

from __future__ import annotations

import random

import pytest
from mineduel_engine import Field, Settings, commitment, rules_for
from mineduel_engine.bot import BOT_LEVELS, Position, choose_cell, choose_move, solve, strategy
from mineduel_engine.bot.probability import Budget, outcome_summaries
from mineduel_engine.geometry import to_row_col
from mineduel_engine.sample_games import play_bot_game

RULES = rules_for("mine-duel")
COMMITMENT = "ab" * 32


def test_every_level_takes_a_certain_mine() -> None:
    # The corner 1 has one covered neighbour: a certain mine among uncertain cells.
    position = Position.from_board(8, 3, 6, ["1.......", "11......", "........"])
    solution = solve(position)
    assert solution.certain_mines == (1,)
    for level in BOT_LEVELS:
        assert choose_cell(position, 2, COMMITMENT, 1, level) == 1


def test_medium_taps_the_likeliest_mine() -> None:
    position = Position.from_board(5, 5, 6, ["1....", ".....", "..3..", ".....", "....1"])
    solution = solve(position)
    best = max(solution.mine.values())
    assert best < 1.0
    assert solution.mine[choose_cell(position, 2, COMMITMENT, 1, "medium")] == best


def test_hard_weighs_what_a_safe_cell_tells() -> None:
    # One mine, under (0,1) or (2,1). The corners are safe, but a corner's number (or its
    # blank) shows where the mine is and hands it to the opponent: hard takes the coin flip.
    position = Position.from_board(3, 3, 1, ["...", "111", "..."])
    solution = solve(position)
    assert solution.mine[0] == 0.0
    assert solution.mine[1] == pytest.approx(0.5)
    assert choose_cell(position, 2, COMMITMENT, 1, "hard") in (1, 7)


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_level_beats_a_random_tapper(level: str) -> None:
    wins = 0
    for pair in range(3):
        seed = bytes([pair + 1]) * 32
        field = Field.from_seed(seed, "levels", ["", ""], 16, 16, 51)
        for bot_seat in (0, 1):
            rng = random.Random(pair * 2 + bot_seat)
            state = RULES.new_game(Settings())
            while state.turn is not None:
                if state.turn == bot_seat:
                    row, col = choose_move(state, commitment(seed), level)
                else:
                    covered = [i for i, ch in enumerate(state.cells) if ch == "."]
                    row, col = to_row_col(16, rng.choice(covered))
                state, _ = RULES.play(state, field, state.turn, "tap", row, col)
            assert state.result is not None
            wins += state.result.winner == bot_seat
    assert wins >= 5


def test_a_pass_is_weighed_without_counting_and_as_if_counted() -> None:
    """A certainly safe cell whose neighbours are all certain shows a number the board
    implies: its haul is taken from the board as it stands, and equals the counted one."""
    game = play_bot_game("passes")
    rules = rules_for("mine-duel")
    state = rules.new_game(game.settings)
    shortcuts = 0
    for move in game.moves:
        position = Position.from_state(state)
        solution = solve(position)
        for cell in strategy.candidates(solution):
            if solution.mine[cell] >= 1.0:
                continue
            found = outcome_summaries(position, cell, None, solution, {})
            counted = sum(
                chance * (strategy.BLANK_HAUL if number == 0 else after.certain_mines + after.best)
                for number, chance, after in found
            )
            assert strategy.haul_after(position, solution, cell, Budget(10**9), {}) == counted
            shortcuts += strategy._implied_number(position, solution, cell) is not None
        state, _ = rules.play(state, game.field, move.seat, "tap", move.row or 0, move.col or 0)
    assert shortcuts > 10
