"""Table-driven Mine Duel scenarios (docs/engine.md) on small fields drawn as pictures.

Each row plays a script from a new game and states, by hand, the board, counters, turn and
result the rules must give. Boards use the docs/api.md alphabet: ``.`` covered, digits open, ``A``
to ``D`` a mine flagged by seat 0 to 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from mineduel_engine import Field, Settings, public_board
from mineduel_engine.sample_games import Step, play_script

TWO_CORNERS = ["*....", ".....", ".....", ".....", "....*"]  # numbers: *1000 / 11000 / ...
# An anti-diagonal wall of mines with a gap at the centre: the centre is a number, so a flood
# from the top-left never leaks to the bottom-right.
WALL = ["....*", "...*.", ".....", ".*...", "*...."]
# Two walls of mines with gaps at opposite ends: the blank region snakes from top to bottom.
SNAKE = [
    ".......",
    ".......",
    "*****..",
    ".......",
    ".......",
    ".......",
    "..*****",
    ".......",
    ".......",
]
THREE = ["*.*.", "....", "....", "...*"]  # numbers: *2*1 / 1211 / 0011 / 001*
FOUR = ["*.*.", "....", "....", "*..*"]
FOUR_OF_FIVE = ["*.*.*", ".....", ".....", "*...*"]


@dataclass(frozen=True)
class Scenario:
    """A script and what must hold after it (``None`` means: not checked in this row)."""

    name: str
    picture: list[str]
    seats: int
    steps: list[Step]
    board: list[str] | None = None
    mines: tuple[int, ...] | None = None
    safe_taps: tuple[int, ...] | None = None
    out: tuple[bool, ...] | None = None
    turn: int | None = None
    result: tuple[str, int | None, tuple[int, ...]] | None = None
    opened_by_last: int | None = None


SCENARIOS = [
    Scenario(
        "a corner number opens only itself",
        TWO_CORNERS,
        2,
        [("tap", 0, 1)],
        board=[".1...", ".....", ".....", ".....", "....."],
        safe_taps=(1, 0),
        turn=1,
        opened_by_last=1,
    ),
    Scenario(
        "a blank cell floods its whole region and the numbered border",
        TWO_CORNERS,
        2,
        [("tap", 2, 2)],
        board=[".1000", "11000", "00000", "00011", "0001."],
        turn=1,
        opened_by_last=23,
    ),
    Scenario(
        "a blank corner floods just the same",
        TWO_CORNERS,
        2,
        [("tap", 0, 4)],
        board=[".1000", "11000", "00000", "00011", "0001."],
        turn=1,
    ),
    Scenario(
        "an edge number opens only itself",
        TWO_CORNERS,
        2,
        [("tap", 4, 3)],
        board=[".....", ".....", ".....", ".....", "...1."],
        turn=1,
    ),
    Scenario(
        "the flood stops at the numbered border of its region",
        WALL,
        2,
        [("tap", 0, 0)],
        board=["001..", "001..", "112..", ".....", "....."],
        opened_by_last=9,
    ),
    Scenario(
        "the far region floods separately",
        WALL,
        2,
        [("tap", 0, 0), ("tap", 4, 4)],
        board=["001..", "001..", "11211", "..100", "..100"],
        opened_by_last=8,
    ),
    Scenario(
        "a chain of blank cells winds through gaps in two walls and opens the whole board",
        SNAKE,
        2,
        [("tap", 0, 0)],
        board=[
            "0000000",
            "2333210",
            ".....10",
            "2333210",
            "0000000",
            "0123332",
            "01.....",
            "0123332",
            "0000000",
        ],
        opened_by_last=53,
    ),
    Scenario(
        "a mine is flagged for the tapper, who moves again",
        TWO_CORNERS,
        2,
        [("tap", 0, 0)],
        board=["A....", ".....", ".....", ".....", "....."],
        mines=(1, 0),
        safe_taps=(0, 0),
        turn=0,
    ),
    Scenario(
        "out of reach wins at once and the rest stays covered",
        TWO_CORNERS,
        2,
        [("tap", 0, 1), ("tap", 0, 0), ("tap", 4, 4)],
        board=["B1...", ".....", ".....", ".....", "....B"],
        mines=(0, 2),
        result=("reach", 1, (2, 1)),
    ),
    Scenario(
        "one mine ahead with two still covered is not yet out of reach",
        THREE,
        2,
        [("tap", 0, 0)],
        mines=(1, 0),
        turn=0,
    ),
    Scenario(
        "three seats, every mine flagged, one mine each: fewer safe taps comes first",
        THREE,
        3,
        [
            ("tap", 0, 0),
            ("tap", 0, 1),
            ("tap", 0, 2),
            ("tap", 0, 3),
            ("tap", 3, 3),
        ],
        mines=(1, 1, 1),
        safe_taps=(1, 1, 0),
        result=("field-done", 2, (2, 2, 1)),
    ),
    Scenario(
        "three seats, a full tie: everybody shares first place and nobody wins alone",
        THREE,
        3,
        [
            ("tap", 1, 0),
            ("tap", 0, 0),
            ("tap", 1, 1),
            ("tap", 0, 2),
            ("tap", 1, 2),
            ("tap", 3, 3),
        ],
        mines=(1, 1, 1),
        safe_taps=(1, 1, 1),
        result=("field-done", None, (1, 1, 1)),
    ),
    Scenario(
        "four seats, first place shared on mines is broken by fewer safe taps; last two share",
        FOUR,
        4,
        [
            ("tap", 0, 0),
            ("tap", 0, 2),
            ("tap", 0, 1),
            ("tap", 3, 0),
            ("tap", 3, 3),
        ],
        mines=(2, 2, 0, 0),
        safe_taps=(1, 0, 0, 0),
        result=("field-done", 1, (2, 1, 3, 3)),
    ),
    Scenario(
        "four seats, reach wins and the others are ranked behind (ties shared)",
        FOUR_OF_FIVE,
        4,
        [
            ("tap", 1, 1),
            ("tap", 0, 0),
            ("tap", 0, 2),
            ("tap", 0, 4),
        ],
        mines=(0, 3, 0, 0),
        safe_taps=(1, 0, 0, 0),
        result=("reach", 1, (4, 1, 2, 2)),
    ),
    Scenario(
        "two seats: resigning out of turn ends the game, the other seat wins",
        TWO_CORNERS,
        2,
        [("tap", 0, 1), ("resign", 0)],
        out=(True, False),
        result=("resign", 1, (2, 1)),
    ),
    Scenario(
        "two seats: a missed deadline puts the seat to move out",
        TWO_CORNERS,
        2,
        [("tap", 0, 1), ("timeout",)],
        out=(False, True),
        result=("timeout", 0, (1, 2)),
    ),
    Scenario(
        "three seats: one resigns, play goes on skipping it; the next out takes second-to-last",
        TWO_CORNERS,
        3,
        [("resign", 1), ("tap", 0, 1), ("tap", 4, 3), ("timeout",)],
        out=(True, True, False),
        result=("timeout", 2, (2, 3, 1)),
    ),
    Scenario(
        "three seats: the turn skips a seat that is out",
        TWO_CORNERS,
        3,
        [("resign", 1), ("tap", 0, 1)],
        out=(False, True, False),
        turn=2,
    ),
    Scenario(
        "three seats: a resignation can leave a seat out of reach among those still in",
        ["*.*.", "....", "....", "*..*"],
        3,
        [
            ("tap", 0, 0),
            ("tap", 0, 1),
            ("tap", 0, 2),
            ("tap", 1, 0),
            ("tap", 1, 1),
            ("tap", 3, 0),
            ("tap", 1, 2),
            ("resign", 1),
        ],
        mines=(2, 1, 0),
        result=("reach", 0, (1, 3, 2)),
    ),
    Scenario(
        "four seats: two go out, the first out is last, then reach among the two left",
        TWO_CORNERS,
        4,
        [("resign", 3), ("tap", 0, 1), ("timeout",), ("tap", 0, 0)],
        out=(False, True, False, True),
        mines=(0, 0, 1, 0),
        turn=2,
    ),
    Scenario(
        "four seats: two out, reach among the two left; the first out is last",
        TWO_CORNERS,
        4,
        [("resign", 3), ("tap", 0, 1), ("timeout",), ("tap", 0, 0), ("tap", 4, 4)],
        result=("reach", 2, (2, 3, 1, 4)),
    ),
    Scenario(
        "the seat to move resigning passes the turn on",
        TWO_CORNERS,
        3,
        [("resign", 0)],
        out=(True, False, False),
        turn=1,
    ),
]


@pytest.mark.parametrize("case", SCENARIOS, ids=lambda case: case.name)
def test_scenario(case: Scenario) -> None:
    field = Field.from_picture(case.picture)
    settings = Settings("mine-duel", field.width, field.height, len(field.mines), case.seats)
    state, moves = play_script(settings, field, case.steps)
    if case.board is not None:
        assert state.board() == case.board
    if case.mines is not None:
        assert tuple(s.mines for s in state.seats) == case.mines
    if case.safe_taps is not None:
        assert tuple(s.safe_taps for s in state.seats) == case.safe_taps
    if case.out is not None:
        assert tuple(s.out for s in state.seats) == case.out
    if case.result is None:
        assert state.result is None
        assert case.turn is None or state.turn == case.turn
    if case.result is not None:
        assert state.result is not None
        assert (state.result.reason, state.result.winner, state.result.places) == case.result
        assert state.turn is None
    if case.opened_by_last is not None:
        assert len(moves[-1].opened) == case.opened_by_last
    assert [m.n for m in moves] == list(range(1, len(moves) + 1))
    assert public_board(settings, moves) == state.board()


def test_two_seats_need_26_of_51() -> None:
    """On the standard field, a seat with 25 mines is still catchable; the 26th wins."""
    settings = Settings.for_variant("mine-duel", 2)
    field = Field.from_seed(b"\x07" * 32, "g-26", ["", ""], 16, 16, 51)
    mines = sorted(field.mines)
    taps: list[Step] = [("tap", *divmod(cell, 16)) for cell in mines[:25]]
    state, _ = play_script(settings, field, taps)
    assert state.result is None
    assert state.seats[0].mines == 25
    assert state.turn == 0
    state, _ = play_script(settings, field, [*taps, ("tap", *divmod(mines[25], 16))])
    assert state.result is not None
    assert (state.result.reason, state.result.winner, state.result.places) == ("reach", 0, (1, 2))
    assert state.mines_left == 25
