"""Verification documents of mineseeker and windows-duel: the golden games verify, each kind of
tampering is caught and named, options and seats are checked, and a running game's document
never shows where a wrong guess was."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine import Field, build_document, verify_document
from mineduel_engine.sample_games import play_sample

GOLDEN = Path(__file__).resolve().parent / "golden"
Doc = dict[str, Any]


def load(name: str) -> Doc:
    doc: Doc = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def _move(doc: Doc, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    move: dict[str, Any] = next(m for m in doc["moves"] if predicate(m))
    return move


@pytest.mark.parametrize(
    "name",
    [
        "mineseeker-bombs",
        "mineseeker-behind-resign",
        "windows-duel-field-done",
        "windows-duel-timeout",
    ],
)
def test_variant_golden_games_verify_with_options_and_seats(name: str) -> None:
    doc = load(name)
    verdict = verify_document(doc)
    assert verdict.ok, verdict.problems
    assert any("options" in check for check in verdict.checks)
    assert any("declared mines, safe taps, out" in check for check in verdict.checks)
    extra = "bomb_used" if doc["variant"] == "mineseeker" else "score"
    assert all(extra in seat for seat in doc["seats"])


def test_a_mine_duel_document_without_options_and_seats_still_verifies() -> None:
    """Documents published before options and seats were added stay checkable."""
    doc = load("two-seats-reach")
    assert doc["options"] == {} and len(doc["seats"]) == 2
    del doc["options"], doc["seats"]
    assert verify_document(doc).ok


# --- mineseeker ---------------------------------------------------------------------------


def _second_bomb(doc: Doc) -> None:
    first = _move(doc, lambda m: m["action"] == "bomb")
    later = _move(doc, lambda m: m["n"] > first["n"] and m["seat"] == first["seat"])
    later.update(action="bomb", result="bomb")


def _behind_option(doc: Doc) -> None:
    doc["options"] = {"bomb_when_behind": True}


def _no_options(doc: Doc) -> None:
    del doc["options"]


def _unknown_option(doc: Doc) -> None:
    doc["options"]["bomb_twice"] = True


def _option_value(doc: Doc) -> None:
    doc["options"]["bomb_when_behind"] = "no"


def _bomb_used(doc: Doc) -> None:
    doc["seats"][0]["bomb_used"] = not doc["seats"][0]["bomb_used"]


def _no_seats(doc: Doc) -> None:
    del doc["seats"]


def _bomb_flag_dropped(doc: Doc) -> None:
    _move(doc, lambda m: m["action"] == "bomb" and len(m["flagged"]) > 0)["flagged"].pop()


def _bomb_opened_dropped(doc: Doc) -> None:
    _move(doc, lambda m: m["action"] == "bomb" and len(m["opened"]) > 0)["opened"].pop()


def _bomb_as_tap(doc: Doc) -> None:
    _move(doc, lambda m: m["action"] == "bomb").update(action="tap", result="safe")


def _mines_counter(doc: Doc) -> None:
    doc["seats"][1]["mines"] += 1


def _place(doc: Doc) -> None:
    doc["seats"][0]["place"] = 1


MINESEEKER_TAMPERINGS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("a second bomb", _second_bomb, "already used its bomb"),
    ("a bomb while ahead under the option", _behind_option, "only when behind"),
    ("no options", _no_options, "options are not published"),
    ("an unknown option", _unknown_option, "has no option 'bomb_twice'"),
    ("an option of the wrong type", _option_value, "takes true or false"),
    ("a bomb_used flipped", _bomb_used, "bomb used is declared"),
    ("no seats", _no_seats, "seats are not published"),
    ("a bomb's flag left out", _bomb_flag_dropped, "but the rules flag"),
    ("a bomb's opened cell left out", _bomb_opened_dropped, "should also have opened"),
    ("a bomb logged as a tap", _bomb_as_tap, "refused by the rules"),  # it aimed at open ground
    ("a mine counter", _mines_counter, "seat 1's mines is declared"),
    ("a place", _place, "seat 0's place is declared 1"),
]


@pytest.mark.parametrize(
    ("name", "tamper", "expected"),
    MINESEEKER_TAMPERINGS,
    ids=[t[0] for t in MINESEEKER_TAMPERINGS],
)
def test_mineseeker_tampering_is_caught(
    name: str, tamper: Callable[[Doc], None], expected: str
) -> None:
    doc = load("mineseeker-bombs")
    tamper(doc)
    verdict = verify_document(doc)
    assert not verdict.ok
    assert any(expected in problem for problem in verdict.problems), verdict.problems


def test_the_option_game_verifies_only_under_its_option() -> None:
    doc = load("mineseeker-behind-resign")
    assert doc["options"] == {"bomb_when_behind": True}
    bomb = _move(doc, lambda m: m["action"] == "bomb")
    # The bomber was behind when it bombed: legal under the option ...
    assert verify_document(doc).ok
    # ... and under the default too (the option only forbids); a doc cannot be caught there.
    doc["options"] = {"bomb_when_behind": False}
    assert verify_document(doc).ok
    assert bomb["n"] > 1


# --- windows-duel -------------------------------------------------------------------------


def _hidden_guess(doc: Doc) -> None:
    _move(doc, lambda m: m["result"] == "miss").update(row=None, col=None)


def _guess_on_a_mine(doc: Doc) -> None:
    field = Field.from_strings(doc["field"])
    wrong = _move(doc, lambda m: m["result"] == "miss")
    # A mine still covered when the wrong guess was made: the last one anyone shows.
    shown_after = [
        (r, c)
        for m in doc["moves"]
        if m["n"] > wrong["n"]
        for r, c in ([(m["row"], m["col"])] if m["result"] == "mine" else [])
    ]
    row, col = shown_after[-1]
    assert field.is_mine(row * field.width + col)
    wrong.update(row=row, col=col)


def _points(doc: Doc) -> None:
    _move(doc, lambda m: m["result"] == "miss")["points"] = 0


def _no_points(doc: Doc) -> None:
    del _move(doc, lambda m: m["action"] == "reveal")["points"]


def _auto_dropped(doc: Doc) -> None:
    _move(doc, lambda m: len(m.get("auto_opened", [])) > 0)["auto_opened"].pop()


def _auto_added(doc: Doc) -> None:
    move = _move(doc, lambda m: m["action"] == "reveal" and m["result"] == "safe")
    shown = {(r, c) for r, c, _ in move["opened"] + move["auto_opened"]}
    field = Field.from_strings(doc["field"])
    spare = next(
        (r, c)
        for r in range(11)
        for c in range(11)
        if (r, c) not in shown and not field.is_mine(r * 11 + c)
    )
    move["auto_opened"] = sorted(
        [*move["auto_opened"], [*spare, field.numbers[spare[0] * 11 + spare[1]]]]
    )


def _hit_as_miss(doc: Doc) -> None:
    _move(doc, lambda m: m["action"] == "reveal" and m["result"] == "mine")["result"] = "safe"


def _score(doc: Doc) -> None:
    doc["seats"][1]["score"] -= 2


def _winner(doc: Doc) -> None:
    doc["result"] = {"reason": "field-done", "winner": None, "places": [1, 1]}


WINDOWS_TAMPERINGS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("a wrong guess with its cell hidden", _hidden_guess, "cell is not published"),
    ("a wrong guess moved onto a mine", _guess_on_a_mine, "logged as 'miss', but the rules"),
    ("a wrong guess's points", _points, "logs 0 points, but the rules give -2"),
    ("a reveal without points", _no_points, "logs None points"),
    ("an auto-opened cell left out", _auto_dropped, "should also have auto-opened"),
    ("an auto-opened cell added", _auto_added, "lists as auto-opened"),
    ("a hit logged as safe", _hit_as_miss, "but the cell is a mine"),
    ("a score", _score, "seat 1's score is declared"),
    ("a draw declared", _winner, "the declared result is"),
]


@pytest.mark.parametrize(
    ("name", "tamper", "expected"),
    WINDOWS_TAMPERINGS,
    ids=[t[0] for t in WINDOWS_TAMPERINGS],
)
def test_windows_duel_tampering_is_caught(
    name: str, tamper: Callable[[Doc], None], expected: str
) -> None:
    doc = load("windows-duel-field-done")
    tamper(doc)
    verdict = verify_document(doc)
    assert not verdict.ok
    assert any(expected in problem for problem in verdict.problems), verdict.problems


def test_a_running_windows_duel_document_hides_every_wrong_guess() -> None:
    game = play_sample("running-wd", variant="windows-duel", max_moves=40)
    misses = [m for m in game.moves if m.is_private]
    assert misses, "the sample needs a wrong guess"
    finished = game.state.finished
    for moves in (list(game.moves), [{**m.to_record(), "at": "x"} for m in game.moves]):
        doc = build_document(
            game_id=game.game_id,
            settings=game.settings,
            commitment=game.commitment,
            client_seeds=game.client_seeds,
            moves=moves,
            status="finished" if finished else "active",
            seed=game.seed,
            result=game.state.result,
            state=game.state,
        )
        shown = [m for m in doc["moves"] if m["result"] == "miss"]
        if finished:
            assert all(m["row"] is not None for m in shown)
        else:
            assert shown and all(m["row"] is None and m["col"] is None for m in shown)
            assert doc["seed"] is None and doc["field"] is None
            assert "?" not in json.dumps(doc)


def test_a_finished_windows_duel_document_shows_every_cell() -> None:
    doc = load("windows-duel-field-done")
    misses = [m for m in doc["moves"] if m["result"] == "miss"]
    assert len(misses) >= 3
    assert all(isinstance(m["row"], int) and isinstance(m["col"], int) for m in misses)
    other = copy.deepcopy(doc)
    assert verify_document(other).ok
