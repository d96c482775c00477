"""The bot's contract: levels, errors, legal moves, and fairness (public view in, same move out)."""

from __future__ import annotations

import pytest
from mineduel_engine import Field, GameState, Settings, commitment, rules_for
from mineduel_engine.bot import BOT_LEVELS, DEFAULT_LEVEL, choose_move

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)


def play_out(level: str, seats: int, game_id: str) -> GameState:
    settings = Settings.for_variant("mine-duel", seats=seats)
    field = Field.from_seed(SEED, game_id, [""] * seats, 16, 16, 51)
    rules = rules_for("mine-duel")
    state = rules.new_game(settings)
    while not state.finished:
        assert state.turn is not None
        row, col = choose_move(state, COMMITMENT, level)
        assert state.cells[row * 16 + col] == "."
        state, _ = rules.play(state, field, state.turn, "tap", row, col)
    return state


def test_levels_and_default() -> None:
    assert BOT_LEVELS == ("easy", "medium", "hard")
    assert DEFAULT_LEVEL == "hard"


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_level_finishes_a_game_with_legal_moves(level: str, seats: int) -> None:
    state = play_out(level, seats, f"g-{level}-{seats}")
    assert state.result is not None


def test_unknown_level_is_refused() -> None:
    state = rules_for("mine-duel").new_game(Settings())
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_move(state, COMMITMENT, "grandmaster")


def test_finished_game_is_refused() -> None:
    state = play_out("easy", 2, "g-finished")
    with pytest.raises(ValueError, match="over"):
        choose_move(state, COMMITMENT)
