"""The log's records (Move, Result, GameState) round-trip and refuse anything off their shape."""

from __future__ import annotations

from typing import Any

import pytest
from mineduel_engine import Field, GameState, MalformedRecord, Move, Result, Settings
from mineduel_engine.sample_games import play_script

TAP = {"n": 1, "seat": 0, "action": "tap", "row": 2, "col": 3, "result": "safe",
       "opened": [[2, 3, 1]], "flagged": []}  # fmt: skip


def test_moves_round_trip_and_ignore_extra_keys() -> None:
    move = Move.from_dict({**TAP, "at": "2026-11-29T12:00:00Z", "by": "web"})
    assert move == Move(1, 0, "tap", 2, 3, "safe", opened=((2, 3, 1),))
    assert Move.from_dict(move.to_dict()) == move
    out = Move.from_dict({"n": 4, "seat": 1, "action": "resign", "row": None, "col": None,
                          "result": None, "opened": [], "flagged": []})  # fmt: skip
    assert out.is_elimination and out.to_dict()["row"] is None


@pytest.mark.parametrize(
    "change",
    [
        {"n": True},
        {"seat": "0"},
        {"action": "bomb"},
        {"row": None},
        {"col": 1.0},
        {"result": "boom"},
        {"opened": [[2, 3]]},
        {"opened": [[2, 3, True]]},
        {"opened": [{"row": 2}]},
        {"opened": "2,3,1"},
        {"opened": 5},
        {"flagged": [[1, 2, 3]]},
    ],
    ids=repr,
)
def test_malformed_moves_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(MalformedRecord):
        Move.from_dict({**TAP, **change})


@pytest.mark.parametrize("record", [{}, {"n": 1}, [], None, "move"], ids=repr)
def test_incomplete_moves_are_refused(record: Any) -> None:
    with pytest.raises(MalformedRecord):
        Move.from_dict(record)


def test_an_elimination_has_no_cell() -> None:
    with pytest.raises(MalformedRecord, match="no cell"):
        Move.from_dict({"n": 2, "seat": 1, "action": "timeout", "row": 0, "col": 0})


@pytest.mark.parametrize(
    "record",
    [
        {"reason": "reach", "winner": True, "places": [1, 2]},
        {"reason": "reach", "winner": 0, "places": [True, 2]},
        {"reason": "won", "winner": 0, "places": [1, 2]},
        {"reason": "reach", "places": [1, 2]},
        {"reason": "reach", "winner": 0, "places": "12"},
    ],
    ids=repr,
)
def test_malformed_results_are_refused(record: dict[str, Any]) -> None:
    with pytest.raises(MalformedRecord):
        Result.from_dict(record)


def test_states_round_trip() -> None:
    field = Field.from_picture(["*....", ".....", ".....", ".....", "....*"])
    settings = Settings("mine-duel", 5, 5, 2, 3)
    state, _ = play_script(settings, field, [("tap", 0, 0), ("tap", 0, 1), ("resign", 2)])
    assert GameState.from_dict(state.to_dict()) == state
    broken = {**state.to_dict(), "board": ["Z....", *state.board()[1:]]}
    with pytest.raises(MalformedRecord, match="unknown character"):
        GameState.from_dict(broken)


def test_published_fields_must_have_consistent_numbers() -> None:
    field = Field.from_picture(["*..", "...", "..*"])
    assert field.to_strings() == ["*10", "121", "01*"]
    assert Field.from_strings(field.to_strings()) == field
    for rows in (["*10", "121", "02*"], ["*10", "12", "01*"], []):
        with pytest.raises(MalformedRecord):
            Field.from_strings(rows)
