"""windows-duel's rules: guess and reveal, points, auto-reveal, private wrong guesses.

Most scenarios use one row of five cells with one mine at the left (``*....``), small enough to
state every deduction by hand: a 1 at column 1 says the mine is at column 0 or 2, and with one
mine in all, columns 3 and 4 are safe.
"""

from __future__ import annotations

import inspect
import json
import random

import pytest
from mineduel_engine import Field, GameState, Settings, public_board, rules_for
from mineduel_engine import auto_reveal as auto_reveal_module
from mineduel_engine.auto_reveal import auto_reveal
from mineduel_engine.errors import (
    CellNotCovered,
    GameOver,
    InvalidSettings,
    NotYourTurn,
    OffBoard,
    UnknownAction,
)
from mineduel_engine.moves import Move
from mineduel_engine.sample_games import Step, play_script, sample_seed
from mineduel_engine.view import wrong_guesses

RULES = rules_for("windows-duel")
ROW = ["*...."]
TWO = ["*...*"]


def play(picture: list[str], steps: list[Step]) -> tuple[GameState, list[Move]]:
    field = Field.from_picture(picture)
    settings = Settings("windows-duel", field.width, field.height, len(field.mines), 2)
    state, moves = play_script(settings, field, steps)
    for viewer in (None, 0, 1):
        assert public_board(settings, moves, viewer) == state.board(viewer)
    return state, moves


def test_the_standard_game_is_11_by_11_with_15_mines_and_two_seats() -> None:
    settings = Settings.for_variant("windows-duel")
    assert (settings.width, settings.height, settings.mines, settings.seats) == (11, 11, 15, 2)
    assert settings.options == ()
    with pytest.raises(InvalidSettings, match="2 to 2 seats"):
        Settings.for_variant("windows-duel", seats=3)
    with pytest.raises(InvalidSettings, match="has no option"):
        Settings.for_variant("windows-duel", options={"bomb_when_behind": False})


def test_a_right_guess_scores_5_shows_the_mine_and_passes_the_turn() -> None:
    state, moves = play(ROW, [("guess", 0, 0)])
    move = moves[0]
    assert (move.result, move.points, move.flagged) == ("mine", 5, ((0, 0),))
    assert state.seats[0].score == 5 and state.seats[0].mines == 1
    assert state.result is not None, "the only mine is visible: the field is done"
    # The last action's auto-reveal opened everything else.
    assert move.auto_opened == ((0, 1, 1), (0, 2, 0), (0, 3, 0), (0, 4, 0))
    assert state.board() == ["A1000"]


def test_turns_always_alternate() -> None:
    state, moves = play(TWO, [("guess", 0, 0)])
    assert moves[0].result == "mine"
    assert state.turn == 1, "unlike mine-duel, a found mine does not keep the turn"


def test_a_safe_reveal_scores_nothing_and_auto_reveal_opens_what_is_fixed() -> None:
    state, moves = play(ROW, [("reveal", 0, 1)])
    move = moves[0]
    assert (move.result, move.points, move.opened) == ("safe", 0, ((0, 1, 1),))
    # One mine in all, at column 0 or 2: columns 3 and 4 are proven safe. Column 4's only
    # neighbour is column 3, proven safe, so its number (0) is fixed: it opens. Column 3 touches
    # column 2, which nobody can call yet: its number is not fixed, and the 0 at column 4 does
    # not flood it open.
    assert move.auto_opened == ((0, 4, 0),)
    assert state.board() == [".1..0"]
    assert state.turn == 1 and state.result is None


def test_a_reveal_floods_a_zero_as_usual() -> None:
    state, moves = play(ROW, [("reveal", 0, 1), ("reveal", 0, 3)])
    assert moves[1].opened == ((0, 2, 0), (0, 3, 0))
    assert moves[1].auto_opened == ()
    assert state.board() == [".1000"]
    assert state.result is None, "the last mine is proven but not yet visible"
    state, moves = play(ROW, [("reveal", 0, 1), ("reveal", 0, 3), ("guess", 0, 0)])
    assert state.result is not None
    assert (state.result.reason, state.result.winner, state.result.places) == (
        "field-done",
        0,
        (1, 2),
    )


def test_a_mine_revealed_by_mistake_costs_5_and_shows_as_hit() -> None:
    state, moves = play(TWO, [("reveal", 0, 0)])
    move = moves[0]
    assert (move.result, move.points, move.flagged, move.opened) == ("mine", -5, (), ())
    assert state.board()[0][0] == "a"
    assert state.seats[0].score == -5 and state.seats[0].mines == 0
    state, _ = play(TWO, [("reveal", 0, 0), ("reveal", 0, 4)])
    assert state.board() == ["a101b"]
    assert state.result is not None
    assert (state.result.winner, state.result.places) == (None, (1, 1))


def test_auto_reveal_runs_after_the_last_action_too() -> None:
    state, moves = play(ROW, [("reveal", 0, 1), ("guess", 0, 0)])
    assert moves[1].auto_opened == ((0, 2, 0), (0, 3, 0))
    assert state.board() == ["B1000"]
    assert state.result is not None
    assert (state.result.reason, state.result.winner) == ("field-done", 1)


def test_equal_points_are_a_draw() -> None:
    state, _ = play(TWO, [("guess", 0, 0), ("guess", 0, 4)])
    assert (state.seats[0].score, state.seats[1].score) == (5, 5)
    assert state.result is not None
    assert (state.result.reason, state.result.winner, state.result.places) == (
        "field-done",
        None,
        (1, 1),
    )


def test_a_wrong_guess_costs_2_and_only_its_seat_sees_where() -> None:
    state, moves = play(ROW, [("guess", 0, 3)])
    move = moves[0]
    assert (move.result, move.points, move.opened, move.flagged) == ("miss", -2, (), ())
    assert move.auto_opened == (), "nothing public changed, so nothing new is proven"
    assert state.seats[0].score == -2 and state.turn == 1
    assert state.board() == ["....."]
    assert state.board(0) == ["...?."]
    assert state.board(1) == ["....."]
    assert state.wrong_guesses(0) == (3,) and state.wrong_guesses(1) == ()
    # The move: public as a move, its cell only for its seat until the game ends.
    assert move.to_dict()["row"] is None and move.to_dict()["col"] is None
    assert move.view(None, finished=False)["row"] is None
    assert move.view(1, finished=False)["col"] is None
    assert (move.view(0, finished=False)["row"], move.view(0, finished=False)["col"]) == (0, 3)
    assert (move.view(1, finished=True)["row"], move.view(1, finished=True)["col"]) == (0, 3)
    assert move.to_record()["col"] == 3
    assert wrong_guesses(moves, 0) == [(0, 3)] and wrong_guesses(moves, 1) == []


def test_a_wrong_guess_opened_later_shows_its_number() -> None:
    state, _ = play(ROW, [("guess", 0, 3), ("reveal", 0, 2)])
    assert state.board() == [".1000"]
    assert state.board(0) == [".1000"]


def test_a_wrong_guess_may_be_repeated_and_costs_again() -> None:
    state, _ = play(TWO, [("guess", 0, 2), ("guess", 0, 1), ("guess", 0, 2)])
    assert state.seats[0].score == -4 and state.seats[1].score == -2
    assert state.wrong_guesses(0) == (2,) and state.wrong_guesses(1) == (1,)
    assert state.board(0) == ["..?.."] and state.board(1) == [".?..."]


def test_the_public_snapshot_never_holds_a_wrong_guess() -> None:
    state, _ = play(TWO, [("guess", 0, 2), ("guess", 0, 1)])
    snapshot = state.to_dict()
    assert snapshot == state.seen_by(None).to_dict()
    assert "?" not in json.dumps(snapshot) and "private" not in snapshot
    assert [s["score"] for s in snapshot["seats"]] == [-2, -2]
    assert "bomb_used" not in snapshot["seats"][0] and "options" not in snapshot
    assert GameState.from_dict(snapshot) == state.seen_by(None)
    parts = [state.private_dict(0), state.private_dict(1)]
    assert parts == [{"wrong_guesses": [[0, 2]]}, {"wrong_guesses": [[0, 1]]}]
    assert GameState.from_dict(snapshot, private=parts) == state
    seen = state.seen_by(1)
    assert seen.wrong_guesses(1) == (1,) and seen.wrong_guesses(0) == ()


@pytest.mark.parametrize(
    ("steps", "reason", "winner"),
    [
        ([("resign", 0)], "resign", 1),
        ([("guess", 0, 2), ("resign", 0)], "resign", 1),
        ([("guess", 0, 2), ("timeout",)], "timeout", 0),
    ],
)
def test_resignation_and_timeout_end_the_game(steps: list[Step], reason: str, winner: int) -> None:
    state, moves = play(TWO, steps)
    assert state.result is not None
    assert (state.result.reason, state.result.winner) == (reason, winner)
    last = moves[-1]
    assert (last.points, last.auto_opened) == (0, ())
    assert last.to_record()["points"] == 0 and last.to_record()["auto_opened"] == []


@pytest.mark.parametrize(
    ("seat", "action", "cell", "error"),
    [
        (0, "tap", (0, 1), UnknownAction),
        (0, "bomb", (0, 1), UnknownAction),
        (0, "reveal", (1, 0), OffBoard),
        (1, "reveal", (0, 1), NotYourTurn),
    ],
)
def test_refusals(seat: int, action: str, cell: tuple[int, int], error: type[Exception]) -> None:
    settings = Settings("windows-duel", 5, 1, 2, 2)
    state = RULES.new_game(settings)
    with pytest.raises(error):
        RULES.play(state, Field.from_picture(TWO), seat, action, *cell)


def test_open_cells_and_visible_mines_cannot_be_played() -> None:
    field = Field.from_picture(TWO)
    state, _ = play_script(Settings("windows-duel", 5, 1, 2, 2), field, [("guess", 0, 0)])
    state, _ = RULES.play(state, field, 1, "reveal", 0, 1)
    assert state.board() == ["A1..."]
    for cell in ((0, 0), (0, 1)):
        for action in ("guess", "reveal"):
            with pytest.raises(CellNotCovered):
                RULES.play(state, field, 0, action, *cell)
    state, _ = RULES.eliminate(state, 1, "resign")
    with pytest.raises(GameOver):
        RULES.play(state, field, 0, "reveal", 0, 2)


def test_auto_reveal_takes_no_field_and_no_private_part() -> None:
    assert list(inspect.signature(auto_reveal).parameters) == ["width", "height", "mines", "cells"]


def test_auto_reveal_on_a_two_dimensional_board() -> None:
    # 3 x 3, one mine; a 1 in the middle touches every covered cell, so nothing is proven.
    assert auto_reveal(3, 3, 1, list("....1....")) == []
    # 5 x 5, one mine, a 1 at (1, 1): the mine is in the 3 x 3 block around it, so every other
    # cell is proven safe; those whose neighbours all lie outside the block have their number
    # fixed (0) and open. (3, 3) is proven safe too, but touches (2, 2): it stays covered, and
    # the 0s opened around it do not flood it open.
    board = list("." * 25)
    board[6] = "1"
    opened = auto_reveal(5, 5, 1, board)
    assert opened == [(c, 0) for c in (4, 9, 14, 19, 20, 21, 22, 23, 24)]
    # The same board on a 4 x 4 field: every safe cell touches the block; nothing opens.
    small = list("." * 16)
    small[5] = "1"
    assert auto_reveal(4, 4, 1, small) == []


def scattered_boards(count: int) -> list[tuple[Field, list[str]]]:
    """11 x 11 fields with safe cells opened here and there (no flood): tangled frontiers."""
    rng = random.Random(11)
    found = []
    for k in range(count):
        field = Field.from_seed(sample_seed(f"auto-reveal-{k}"), "g", ["", ""], 11, 11, 15)
        safe = [c for c in range(121) if c not in field.mines]
        opened = set(rng.sample(safe, rng.randint(10, 40)))
        board = [str(field.numbers[c]) if c in opened else "." for c in range(121)]
        found.append((field, board))
    return found


def test_past_its_budget_auto_reveal_opens_what_local_deduction_proves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A board past the work budget is judged by local deduction: it may open less than the
    exact certainty, never a cell the exact certainty would not, and every number is true."""
    boards = scattered_boards(30)
    exact = [auto_reveal(11, 11, 15, board) for _, board in boards]
    monkeypatch.setattr(auto_reveal_module, "AUTO_REVEAL_BUDGET", 0)
    fewer = 0
    for (field, board), full in zip(boards, exact, strict=True):
        local = auto_reveal(11, 11, 15, board)
        assert set(local) <= set(full)
        assert all(field.numbers[cell] == number for cell, number in local)
        fewer += len(local) < len(full)
    assert any(exact) and fewer  # the two differ somewhere, and exact opens something
