"""Variant specs, creation options and the records of the variants' moves and states."""

from __future__ import annotations

from typing import Any

import pytest
from mineduel_engine import GameState, MalformedRecord, Move, Settings, rules_for
from mineduel_engine.errors import BadOptionValue, InvalidSettings, UnknownOption, UnknownVariant
from mineduel_engine.settings import VARIANT_SPECS, make_options


def test_every_variant_has_its_board_seats_and_rules() -> None:
    shapes = {
        name: (s.width, s.height, s.mines, s.min_seats, s.max_seats)
        for name, s in VARIANT_SPECS.items()
    }
    assert shapes == {
        "mine-duel": (16, 16, 51, 2, 4),
        "mineseeker": (16, 16, 51, 2, 2),
        "windows-duel": (11, 11, 15, 2, 2),
    }
    for name in VARIANT_SPECS:
        assert rules_for(name).variant == name


def test_options_are_filled_in_with_their_defaults() -> None:
    assert Settings.for_variant("mineseeker").options == (("bomb_when_behind", False),)
    assert Settings.for_variant("mineseeker").option("bomb_when_behind") is False
    chosen = Settings.for_variant("mineseeker", options={"bomb_when_behind": True})
    assert chosen.options_dict() == {"bomb_when_behind": True}
    assert Settings.for_variant("mine-duel").options_dict() == {}
    assert Settings.for_variant("windows-duel").options_dict() == {}
    assert hash(chosen) != hash(Settings.for_variant("mineseeker"))
    assert chosen == Settings("mineseeker", 16, 16, 51, 2, (("bomb_when_behind", True),))


@pytest.mark.parametrize(
    ("variant", "options", "error", "words"),
    [
        ("mine-duel", {"bomb_when_behind": False}, UnknownOption, "mine-duel has no option"),
        ("windows-duel", {"anything": 1}, UnknownOption, "its options: none"),
        ("mineseeker", {"bomb": True}, UnknownOption, "its options: bomb_when_behind"),
        ("mineseeker", {"bomb_when_behind": 1}, BadOptionValue, "takes true or false, not 1"),
        ("mineseeker", {"bomb_when_behind": "true"}, BadOptionValue, "not 'true'"),
        ("mineseeker", {"bomb_when_behind": None}, BadOptionValue, "not None"),
        ("chess", {}, UnknownVariant, "unknown variant"),
    ],
)
def test_bad_options_are_refused_precisely(
    variant: str, options: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        make_options(variant, options)
    with pytest.raises(InvalidSettings):
        Settings.for_variant(variant, options=options)


def test_the_mine_duel_snapshot_is_unchanged() -> None:
    state = rules_for("mine-duel").new_game(Settings())
    snapshot = state.to_dict()
    assert set(snapshot) == {
        "variant", "width", "height", "mines", "seats", "board", "turn", "move_count",
        "eliminated", "result",
    }  # fmt: skip
    assert snapshot["seats"][0] == {"mines": 0, "safe_taps": 0, "out": False}
    assert GameState.from_dict(snapshot) == state


def test_a_snapshot_with_a_bad_option_is_malformed() -> None:
    state = rules_for("mineseeker").new_game(Settings.for_variant("mineseeker"))
    snapshot = state.to_dict()
    snapshot["options"] = {"bomb_when_behind": "yes"}
    with pytest.raises(InvalidSettings):
        GameState.from_dict(snapshot)
    snapshot = state.to_dict()
    del snapshot["seats"][0]["bomb_used"]
    with pytest.raises(MalformedRecord):
        GameState.from_dict(snapshot)


def test_a_windows_duel_board_may_show_hits_but_no_private_mark() -> None:
    state = rules_for("windows-duel").new_game(Settings.for_variant("windows-duel"))
    snapshot = state.to_dict()
    snapshot["board"][0] = "aB" + snapshot["board"][0][2:]
    assert GameState.from_dict(snapshot).board()[0][:2] == "aB"
    snapshot["board"][0] = "?" + snapshot["board"][0][1:]
    with pytest.raises(MalformedRecord, match="unknown character"):
        GameState.from_dict(snapshot)


BOMB = {"n": 3, "seat": 1, "action": "bomb", "row": 0, "col": 0, "result": "bomb",
        "opened": [[0, 2, 1]], "flagged": [[0, 0], [1, 1]]}  # fmt: skip
GUESS = {"n": 4, "seat": 0, "action": "guess", "row": 2, "col": 3, "result": "miss",
         "opened": [], "flagged": [], "points": -2, "auto_opened": []}  # fmt: skip


def test_variant_moves_round_trip() -> None:
    bomb = Move.from_dict(BOMB)
    assert bomb.to_record() == BOMB and bomb.points is None
    guess = Move.from_dict(GUESS)
    assert guess.to_record() == GUESS and guess.is_private
    hidden = Move.from_dict({**GUESS, "row": None, "col": None})
    assert hidden.row is None and hidden.to_record()["row"] is None
    reveal = Move.from_dict({**GUESS, "action": "reveal", "result": "safe", "points": 0,
                             "opened": [[2, 3, 1]], "auto_opened": [[5, 5, 0]]})  # fmt: skip
    assert reveal.auto_opened == ((5, 5, 0),) and not reveal.is_private


@pytest.mark.parametrize(
    ("record", "change"),
    [
        (BOMB, {"result": "safe"}),
        (BOMB, {"row": None, "col": None}),
        (GUESS, {"result": "safe"}),
        (GUESS, {"points": 1.5}),
        (GUESS, {"points": True}),
        (GUESS, {"auto_opened": [[1, 1]]}),
        (GUESS, {"result": "mine", "row": None, "col": None}),  # only a miss may hide its cell
        (GUESS, {"row": None}),
        ({**GUESS, "action": "reveal", "result": "safe"}, {"row": None, "col": None}),
        ({**GUESS, "action": "reveal"}, {"result": "miss"}),
    ],
    ids=repr,
)
def test_malformed_variant_moves_are_refused(
    record: dict[str, Any], change: dict[str, Any]
) -> None:
    with pytest.raises(MalformedRecord):
        Move.from_dict({**record, **change})
