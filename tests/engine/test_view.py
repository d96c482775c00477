"""The public view comes from the moves, never from the field (docs/rules.md, "What every
variant shares").

The proof: take a game, then a second field that differs from the first only where the moves
revealed nothing (mines moved between covered cells that no opened cell touches). The same taps
on both fields give identical move records, identical states and identical public boards,
so no covered cell can leak through the view.
"""

from __future__ import annotations

import inspect
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine import Field, GameState, Move, Settings, public_board, rules_for
from mineduel_engine.geometry import neighbours
from mineduel_engine.sample_games import play_script
from mineduel_engine.state import COVERED

RULES = rules_for("mine-duel")


def unrevealed_twin(field: Field, state: GameState, rng: random.Random) -> Field | None:
    """A different field agreeing with ``field`` on everything ``state`` shows, or None.

    Only covered cells with no opened neighbour may change, so every shown number, opened cell
    and flag stays true on the twin.
    """
    table = neighbours(field.width, field.height)
    free = [
        cell
        for cell, code in enumerate(state.cells)
        if code == COVERED and all(not state.cells[n].isdigit() for n in table[cell])
    ]
    hidden_mines = [c for c in free if field.is_mine(c)]
    hidden_safe = [c for c in free if not field.is_mine(c)]
    if not hidden_mines or not hidden_safe:
        return None
    moved_from, moved_to = rng.choice(hidden_mines), rng.choice(hidden_safe)
    return Field.from_cells(field.width, field.height, (field.mines - {moved_from}) | {moved_to})


def replay_taps(
    settings: Settings, field: Field, moves: list[Move]
) -> tuple[GameState, list[Move]]:
    """The same taps (cells only) on another field."""
    return play_script(settings, field, [("tap", m.row or 0, m.col or 0) for m in moves])


def test_public_board_is_never_given_the_field() -> None:
    assert list(inspect.signature(public_board).parameters) == ["settings", "moves", "viewer"]


def test_two_fields_agreeing_on_what_was_revealed_give_the_same_view() -> None:
    # Left half floods open; the right half is walled off by a column of numbers.
    first = Field.from_picture(["....*..*", "....*...", "....*.*.", "....*...", "....*..*"])
    second = Field.from_picture(["....*.*.", "....*...", "....*..*", "....*...", "....*.*."])
    settings = Settings("mine-duel", 8, 5, len(first.mines), 2)
    taps = [("tap", 2, 0), ("tap", 0, 4)]
    state_a, moves_a = play_script(settings, first, taps)
    state_b, moves_b = play_script(settings, second, taps)
    assert first != second
    assert moves_a == moves_b
    assert state_a == state_b
    assert public_board(settings, moves_a) == public_board(settings, moves_b) == state_a.board()
    assert state_a.board()[0] == "0002B..."  # seat 1 found the mine at (0, 4)


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(4, 9),
    height=st.integers(4, 9),
    density=st.floats(0.08, 0.3),
    seats=st.integers(2, 4),
    rng=st.randoms(use_true_random=False),
)
def test_view_ignores_what_the_moves_did_not_reveal(
    width: int, height: int, density: float, seats: int, rng: random.Random
) -> None:
    size = width * height
    mines = max(1, int(size * density))
    field = Field.from_cells(width, height, rng.sample(range(size), mines))
    settings_ = Settings("mine-duel", width, height, mines, seats)
    state = RULES.new_game(settings_)
    moves: list[Move] = []
    for _ in range(rng.randrange(1, 6)):
        if state.finished or state.turn is None:
            break
        covered = [i for i, c in enumerate(state.cells) if c == COVERED]
        row, col = divmod(rng.choice(covered), width)
        state, move = RULES.play(state, field, state.turn, "tap", row, col)
        moves.append(move)
    twin = unrevealed_twin(field, state, rng)
    if twin is None:
        return
    twin_state, twin_moves = replay_taps(settings_, twin, moves)
    assert twin != field
    assert twin_moves == moves
    assert twin_state == state
    assert public_board(settings_, twin_moves) == state.board()
