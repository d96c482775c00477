"""Refused moves raise precise exceptions and change nothing (docs/rules.md: "nothing changes")."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from mineduel_engine import (
    CellNotCovered,
    Field,
    GameOver,
    GameState,
    IllegalMove,
    NotYourTurn,
    OffBoard,
    SeatOut,
    Settings,
    UnknownAction,
    UnknownSeat,
    rules_for,
)
from mineduel_engine.sample_games import Step, play_script

FIELD = Field.from_picture(["*....", ".....", ".....", ".....", "....*"])
SETTINGS = Settings("mine-duel", 5, 5, 2, 3)
RULES = rules_for("mine-duel")
Refused = Callable[[GameState], object]

# (script reaching a position, the refused call, the exception it must raise)
REFUSALS: list[tuple[str, list[Step], Refused, type[IllegalMove]]] = [
    (
        "tap an open cell",
        [("tap", 0, 1), ("tap", 1, 1)],
        lambda s: RULES.play(s, FIELD, 2, "tap", 0, 1),
        CellNotCovered,
    ),
    (
        "tap a flagged cell",
        [("tap", 0, 0)],
        lambda s: RULES.play(s, FIELD, 0, "tap", 0, 0),
        CellNotCovered,
    ),
    ("tap out of turn", [], lambda s: RULES.play(s, FIELD, 1, "tap", 2, 2), NotYourTurn),
    ("tap off the board", [], lambda s: RULES.play(s, FIELD, 0, "tap", 5, 0), OffBoard),
    ("tap at a negative column", [], lambda s: RULES.play(s, FIELD, 0, "tap", 0, -1), OffBoard),
    ("an unknown action", [], lambda s: RULES.play(s, FIELD, 0, "bomb", 2, 2), UnknownAction),
    ("an unknown seat", [], lambda s: RULES.play(s, FIELD, 3, "tap", 2, 2), UnknownSeat),
    (
        "a seat that is out taps",
        [("resign", 0)],
        lambda s: RULES.play(s, FIELD, 0, "tap", 2, 2),
        SeatOut,
    ),
    ("a seat resigns twice", [("resign", 1)], lambda s: RULES.eliminate(s, 1, "resign"), SeatOut),
    (
        "a timeout for a seat not to move",
        [],
        lambda s: RULES.eliminate(s, 2, "timeout"),
        NotYourTurn,
    ),
    ("an unknown way out", [], lambda s: RULES.eliminate(s, 0, "forfeit"), UnknownAction),
    ("resign for an unknown seat", [], lambda s: RULES.eliminate(s, 7, "resign"), UnknownSeat),
    (
        "tap after the end",
        [("tap", 0, 0), ("tap", 4, 4)],
        lambda s: RULES.play(s, FIELD, 0, "tap", 2, 2),
        GameOver,
    ),
    (
        "resign after the end",
        [("tap", 0, 0), ("tap", 4, 4)],
        lambda s: RULES.eliminate(s, 1, "resign"),
        GameOver,
    ),
]


@pytest.mark.parametrize(
    ("name", "script", "call", "error"), REFUSALS, ids=[r[0] for r in REFUSALS]
)
def test_refused_moves_raise_and_change_nothing(
    name: str, script: list[Step], call: Refused, error: type[IllegalMove]
) -> None:
    state, _ = play_script(SETTINGS, FIELD, script)
    before = copy.deepcopy(state.to_dict())
    with pytest.raises(error) as raised:
        call(state)
    assert type(raised.value) is error
    assert str(raised.value)
    assert state.to_dict() == before
    # The same position still accepts a legal move: the refusal left it usable.
    if not state.finished and state.turn is not None:
        RULES.eliminate(state, state.turn, "timeout")


def test_refusal_messages_name_the_cell_or_seat() -> None:
    state, _ = play_script(SETTINGS, FIELD, [("tap", 0, 1)])
    with pytest.raises(CellNotCovered, match=r"\(0, 1\)"):
        RULES.play(state, FIELD, 1, "tap", 0, 1)
    with pytest.raises(NotYourTurn, match="seat 1"):
        RULES.play(state, FIELD, 0, "tap", 2, 2)
