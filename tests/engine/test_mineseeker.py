"""mineseeker's rules: mine-duel for two seats, plus one bomb per seat.

Fields are drawn as pictures (``*`` a mine). Every scenario checks the board, the counters and
whose turn it is by hand, and that the public board rebuilt from the moves alone agrees.
"""

from __future__ import annotations

import pytest
from mineduel_engine import (
    Field,
    GameState,
    Settings,
    UnknownAction,
    public_board,
    rules_for,
)
from mineduel_engine.errors import (
    BombNotBehind,
    BombUsed,
    CellNotCovered,
    GameOver,
    InvalidSettings,
    NotYourTurn,
    OffBoard,
)
from mineduel_engine.geometry import bomb_square, square_origin
from mineduel_engine.moves import Move
from mineduel_engine.sample_games import Step, play_script

RULES = rules_for("mineseeker")

# 7 x 7: two clusters of four mines, top-left and bottom-right, blank ground between.
SEVEN = [
    "**.....",
    "**.....",
    ".......",
    ".......",
    ".......",
    ".....**",
    ".....**",
]


def settings_for(picture: list[str], behind: bool = False) -> Settings:
    field = Field.from_picture(picture)
    plain = Settings("mineseeker", field.width, field.height, len(field.mines), 2)
    return plain.with_options({"bomb_when_behind": behind})


def play(
    picture: list[str], steps: list[Step], behind: bool = False
) -> tuple[GameState, list[Move]]:
    settings = settings_for(picture, behind)
    state, moves = play_script(settings, Field.from_picture(picture), steps)
    assert public_board(settings, moves) == state.board()
    return state, moves


def test_the_bomb_flags_its_mines_for_the_bomber_and_opens_the_rest() -> None:
    state, moves = play(SEVEN, [("bomb", 2, 2)])
    bomb = moves[0]
    assert (bomb.action, bomb.result, bomb.row, bomb.col) == ("bomb", "bomb", 2, 2)
    assert bomb.flagged == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert state.board() == [
        "AA20000",
        "AA20000",
        "2210000",
        "0000000",
        "0000122",
        "00002..",
        "00002..",
    ]
    assert state.seats[0].mines == 4 and state.seats[0].bomb_used
    assert not state.seats[1].bomb_used
    assert state.turn == 1, "the bomb ends the turn even though it found mines"
    assert state.seats[0].safe_taps == 0, "a bomb is not a tap"


def test_a_zero_in_the_square_floods_beyond_it() -> None:
    _, moves = play(SEVEN, [("bomb", 2, 2)])
    opened = {(r, c) for r, c, _ in moves[0].opened}
    square = {divmod(c, 7) for c in bomb_square(7, 7, 2, 2)}
    assert opened - square, "cells outside the 5 x 5 square opened through a 0"
    assert (6, 6) not in opened, "the flood never opens a mine"
    assert [cell[:2] for cell in moves[0].opened] == sorted(cell[:2] for cell in moves[0].opened)


@pytest.mark.parametrize(
    ("aim", "origin"),
    [
        ((0, 0), (0, 0)),
        ((0, 15), (0, 11)),
        ((15, 0), (11, 0)),
        ((15, 15), (11, 11)),
        ((1, 7), (0, 5)),
        ((8, 14), (6, 11)),
        ((8, 8), (6, 6)),
    ],
)
def test_the_square_moves_inwards_at_edges_and_corners(
    aim: tuple[int, int], origin: tuple[int, int]
) -> None:
    assert square_origin(16, 16, *aim) == origin
    cells = bomb_square(16, 16, *aim)
    assert len(cells) == 25
    rows = {c // 16 for c in cells}
    cols = {c % 16 for c in cells}
    assert rows == set(range(origin[0], origin[0] + 5))
    assert cols == set(range(origin[1], origin[1] + 5))


def test_a_corner_bomb_opens_the_same_square_as_one_aimed_inside() -> None:
    settings = Settings.for_variant("mineseeker")
    field = Field.from_seed(b"\x05" * 32, "corner", ["", ""], 16, 16, 51)
    state = RULES.new_game(settings)
    _, corner = RULES.play(state, field, 0, "bomb", 15, 15)
    _, inside = RULES.play(state, field, 0, "bomb", 13, 13)
    assert (corner.opened, corner.flagged) == (inside.opened, inside.flagged)
    assert (corner.row, corner.col) == (15, 15), "the record keeps the cell aimed at"


def test_a_bomb_may_be_aimed_at_an_open_or_flagged_cell() -> None:
    # Seat 0 taps a mine (its flag), then a safe cell; seat 1 bombs the flag itself.
    state, moves = play(SEVEN, [("tap", 0, 0), ("tap", 3, 3), ("bomb", 0, 0)])
    bomb = moves[-1]
    assert bomb.flagged == ((0, 1), (1, 0), (1, 1)), "the flagged mine stays seat 0's"
    assert state.board()[0][:2] == "AB"
    assert (state.seats[0].mines, state.seats[1].mines) == (1, 3)
    assert all((r, c) != (0, 0) for r, c, _ in bomb.opened)


def test_a_bomb_on_a_square_with_nothing_covered_still_uses_the_bomb() -> None:
    # The first tap floods everything but the mines; seat 1 bombs an open corner.
    state, moves = play(SEVEN, [("tap", 4, 0), ("bomb", 4, 2)])
    assert moves[-1].opened == () and moves[-1].flagged == ()
    assert state.seats[1].bomb_used
    assert state.turn == 0


GRID = ["*.*.*.*.*", "........."] * 4 + ["*.*.*.*.*"]
"""9 x 9, mines on every other cell of every other row: no cell shows 0, nothing floods."""


def test_a_second_bomb_is_refused_and_changes_nothing() -> None:
    settings = settings_for(GRID)
    field = Field.from_picture(GRID)
    state, moves = play_script(settings, field, [("bomb", 8, 8), ("tap", 0, 1)])
    assert len(moves[0].flagged) == 9 and state.turn == 0
    with pytest.raises(BombUsed, match="already used its bomb"):
        RULES.play(state, field, 0, "bomb", 0, 0)
    again, _ = play_script(settings, field, [("bomb", 8, 8), ("tap", 0, 1)])
    assert again == state
    state, _ = RULES.play(state, field, 0, "tap", 1, 0)
    state, move = RULES.play(state, field, 1, "bomb", 0, 0)
    assert move.action == "bomb", "the other seat still has its own bomb"


def test_with_bomb_when_behind_only_the_seat_behind_may_bomb() -> None:
    settings = settings_for(SEVEN, behind=True)
    field = Field.from_picture(SEVEN)
    state = RULES.new_game(settings)
    with pytest.raises(BombNotBehind, match="only when behind"):
        RULES.play(state, field, 0, "bomb", 2, 2)  # 0 against 0 is not behind
    state, _ = RULES.play(state, field, 0, "tap", 0, 0)  # a mine: seat 0 leads 1-0
    with pytest.raises(BombNotBehind):
        RULES.play(state, field, 0, "bomb", 2, 2)
    state, _ = RULES.play(state, field, 0, "tap", 3, 3)
    state, move = RULES.play(state, field, 1, "bomb", 2, 2)  # seat 1 is behind
    assert move.flagged == ((0, 1), (1, 0), (1, 1))


def test_without_the_option_a_bomb_may_be_used_at_any_time() -> None:
    state, _ = play(SEVEN, [("tap", 0, 0), ("bomb", 6, 6)])
    assert state.seats[0].bomb_used and state.seats[0].mines == 5


def test_the_option_is_checked_when_the_game_is_made() -> None:
    with pytest.raises(InvalidSettings, match="has no option 'bomb_anywhere'"):
        Settings.for_variant("mineseeker", options={"bomb_anywhere": True})
    with pytest.raises(InvalidSettings, match="takes true or false"):
        Settings.for_variant("mineseeker", options={"bomb_when_behind": 1})
    with pytest.raises(InvalidSettings, match="2 to 2 seats"):
        Settings.for_variant("mineseeker", seats=3)


def test_majority_wins_at_once_even_by_a_bomb() -> None:
    settings = Settings.for_variant("mineseeker")
    field = Field.from_seed(b"\x09" * 32, "majority", ["", ""], 16, 16, 51)
    state = RULES.new_game(settings)
    # Seat 0 taps mines (keeping its turn) until 24, away from one square it then bombs.
    centre = max(
        ((r, c) for r in range(2, 14) for c in range(2, 14)),
        key=lambda rc: sum(field.is_mine(x) for x in bomb_square(16, 16, *rc)),
    )
    square = set(bomb_square(16, 16, *centre))
    in_square = sum(field.is_mine(c) for c in square)
    outside = [c for c in sorted(field.mines) if c not in square]
    for cell in outside[: 26 - in_square]:
        state, _ = RULES.play(state, field, 0, "tap", *divmod(cell, 16))
    assert state.result is None and state.seats[0].mines < 26
    state, move = RULES.play(state, field, 0, "bomb", *centre)
    assert len(move.flagged) == 26 - len(outside[: 26 - in_square])
    assert state.seats[0].mines >= 26
    assert state.result is not None
    assert (state.result.reason, state.result.winner, state.result.places) == ("reach", 0, (1, 2))


def test_every_mine_flagged_with_equal_scores_is_a_draw() -> None:
    picture = ["*..*", "....", "....", "*..*"]
    state, _ = play(
        picture,
        [("tap", 0, 0), ("tap", 1, 1), ("tap", 0, 3), ("tap", 3, 0), ("tap", 1, 2), ("tap", 3, 3)],
    )
    assert (state.seats[0].mines, state.seats[1].mines) == (2, 2)
    assert state.result is not None
    assert (state.result.reason, state.result.winner, state.result.places) == (
        "field-done",
        None,
        (1, 1),
    )


def test_safe_taps_do_not_break_a_tie() -> None:
    """mine-duel breaks equal mines by fewer safe taps; mineseeker calls it a draw."""
    picture = ["*..*", "....", "....", "*..*"]
    steps: list[Step] = [
        ("tap", 0, 0),
        ("tap", 1, 1),
        ("tap", 1, 2),
        ("tap", 0, 3),
        ("tap", 2, 1),
        ("tap", 3, 0),
        ("tap", 3, 3),
    ]
    state, _ = play(picture, steps)
    assert (state.seats[0].safe_taps, state.seats[1].safe_taps) == (2, 1)
    assert state.result is not None and state.result.winner is None
    assert state.result.places == (1, 1)
    field = Field.from_picture(picture)
    duel, _ = play_script(Settings("mine-duel", 4, 4, 4, 2), field, steps)
    assert duel.result is not None and duel.result.winner == 1


@pytest.mark.parametrize(
    ("steps", "reason", "places"),
    [
        ([("resign", 0)], "resign", (2, 1)),
        ([("tap", 3, 3), ("resign", 0)], "resign", (2, 1)),
        ([("bomb", 2, 2), ("timeout",)], "timeout", (1, 2)),
    ],
)
def test_resignation_and_timeout_end_the_game(
    steps: list[Step], reason: str, places: tuple[int, int]
) -> None:
    state, moves = play(SEVEN, steps)
    assert state.result is not None
    assert (state.result.reason, state.result.places) == (reason, places)
    assert moves[-1].row is None and moves[-1].points is None


def test_taps_follow_mine_duel() -> None:
    state, moves = play(SEVEN, [("tap", 0, 0), ("tap", 0, 1)])
    assert [m.result for m in moves] == ["mine", "mine"]
    assert state.turn == 0, "a mine keeps the turn"


@pytest.mark.parametrize(
    ("action", "cell", "error"),
    [
        ("bomb", (7, 0), OffBoard),
        ("bomb", (-1, 3), OffBoard),
        ("guess", (0, 0), UnknownAction),
        ("reveal", (0, 0), UnknownAction),
    ],
)
def test_refusals(action: str, cell: tuple[int, int], error: type[Exception]) -> None:
    settings = settings_for(SEVEN)
    state = RULES.new_game(settings)
    with pytest.raises(error):
        RULES.play(state, Field.from_picture(SEVEN), 0, action, *cell)


def test_other_refusals_come_before_the_bomb_checks() -> None:
    settings = settings_for(SEVEN)
    field = Field.from_picture(SEVEN)
    state = RULES.new_game(settings)
    with pytest.raises(NotYourTurn):
        RULES.play(state, field, 1, "bomb", 2, 2)
    state, _ = RULES.play(state, field, 0, "tap", 3, 3)
    with pytest.raises(CellNotCovered):
        RULES.play(state, field, 1, "tap", 3, 3)
    state, _ = RULES.eliminate(state, 1, "resign")
    with pytest.raises(GameOver):
        RULES.play(state, field, 0, "bomb", 2, 2)


def test_mine_duel_has_no_bomb() -> None:
    field = Field.from_picture(SEVEN)
    settings = Settings("mine-duel", 7, 7, len(field.mines), 2)
    with pytest.raises(UnknownAction, match="no action 'bomb'"):
        rules_for("mine-duel").play(
            rules_for("mine-duel").new_game(settings), field, 0, "bomb", 2, 2
        )


def test_the_snapshot_carries_the_option_and_bomb_used() -> None:
    state, _ = play(SEVEN, [("bomb", 2, 2)], behind=False)
    snapshot = state.to_dict()
    assert snapshot["options"] == {"bomb_when_behind": False}
    assert [s["bomb_used"] for s in snapshot["seats"]] == [True, False]
    assert "score" not in snapshot["seats"][0]
    assert GameState.from_dict(snapshot) == state
