"""Fair by construction: the bot's move is a function of the public view alone.

For positions reached in real games, a second hidden field is built that shows exactly the same
public board (mines moved among covered cells that touch no open number, so no shown number
changes). Replaying the same moves on it gives the same public state, and every level then
makes the same move: the hidden field cannot reach the bot.
"""

from __future__ import annotations

import random

import pytest
from mineduel_engine import Field, GameState, Move, Settings, commitment, rules_for
from mineduel_engine.bot import BOT_LEVELS, choose_move
from mineduel_engine.geometry import neighbours

SEED = bytes.fromhex("5eed" * 16)
COMMITMENT = commitment(SEED)
RULES = rules_for("mine-duel")


def play(field: Field, seats: int, moves: int) -> tuple[GameState, list[Move]]:
    """Play ``moves`` moves of the hard bot against itself on ``field``."""
    state = RULES.new_game(Settings.for_variant("mine-duel", seats=seats))
    log: list[Move] = []
    while not state.finished and len(log) < moves:
        assert state.turn is not None
        row, col = choose_move(state, COMMITMENT, "hard")
        state, move = RULES.play(state, field, state.turn, "tap", row, col)
        log.append(move)
    return state, log


def twin_field(state: GameState, field: Field, rng: random.Random) -> Field:
    """Another field with the same public view: mines shuffled among the far covered cells."""
    width, height = field.width, field.height
    table = neighbours(width, height)
    far = [
        c
        for c, ch in enumerate(state.cells)
        if ch == "." and all(state.cells[n] == "." or state.cells[n] in "ABCD" for n in table[c])
    ]
    far_mines = sum(1 for c in far if field.is_mine(c))
    moved = set(rng.sample(far, far_mines))
    return Field.from_cells(width, height, (field.mines - set(far)) | moved)


def replay(field: Field, seats: int, log: list[Move]) -> GameState:
    state = RULES.new_game(Settings.for_variant("mine-duel", seats=seats))
    for move in log:
        assert move.row is not None and move.col is not None
        state, _ = RULES.play(state, field, move.seat, "tap", move.row, move.col)
    return state


@pytest.mark.parametrize(("seats", "moves"), [(2, 6), (2, 30), (3, 20), (4, 40)])
def test_same_view_under_different_fields_gives_the_same_move(seats: int, moves: int) -> None:
    rng = random.Random(seats * 100 + moves)
    field = Field.from_seed(SEED, f"fair-{seats}-{moves}", [""] * seats, 16, 16, 51)
    state, log = play(field, seats, moves)
    assert not state.finished
    differing = 0
    for _ in range(5):
        other = twin_field(state, field, rng)
        differing += other.mines != field.mines
        twin_state = replay(other, seats, log)
        assert twin_state == state
        for level in BOT_LEVELS:
            assert choose_move(twin_state, COMMITMENT, level) == choose_move(
                state, COMMITMENT, level
            )
    assert differing > 0


def test_moves_do_not_depend_on_earlier_calls() -> None:
    field = Field.from_seed(SEED, "history", ["", ""], 16, 16, 51)
    state, _ = play(field, 2, 12)
    first = [choose_move(state, COMMITMENT, level) for level in BOT_LEVELS]
    other_state, _ = play(Field.from_seed(SEED, "other", ["", ""], 16, 16, 51), 2, 25)
    for level in BOT_LEVELS:
        if not other_state.finished:
            choose_move(other_state, COMMITMENT, level)
    assert [choose_move(state, COMMITMENT, level) for level in BOT_LEVELS] == first


def test_ties_are_broken_by_the_public_stream() -> None:
    # On an untouched board every cell ties; different commitments pick different cells,
    # the same commitment always the same one.
    state = RULES.new_game(Settings())
    picks = {choose_move(state, commitment(bytes([i]) * 32), "medium") for i in range(8)}
    assert len(picks) > 1
    assert choose_move(state, COMMITMENT, "medium") == choose_move(state, COMMITMENT, "medium")
