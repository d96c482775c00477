"""Replay and verify: golden finished games pass; every kind of tampering is caught and named.

The golden files (tests/engine/golden/*.json) are Verification documents written by
golden/generate.py; the tampering cases each change one thing a cheat might change and check
that the verdict fails with a plain-words problem saying what is wrong.
"""

from __future__ import annotations

import copy
import json
import runpy
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mineduel_engine import (
    Field,
    ReplayMismatch,
    build_document,
    commitment,
    replay,
    verify_document,
)
from mineduel_engine.chain import chained
from mineduel_engine.sample_games import play_sample
from mineduel_engine.verify import CHECK_NAMES

GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_FILES = sorted(GOLDEN.glob("*.json"))
Doc = dict[str, Any]


def load(name: str) -> Doc:
    doc: Doc = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def rechained(doc: Doc) -> Doc:
    """``doc`` as a forger who recomputes every chain value and the head after a change would
    publish it: the chain then holds, so only the replay's checks can catch the change."""
    doc["moves"] = chained(doc["commitment"], doc["moves"])
    doc["move_count"] = len(doc["moves"])
    doc["chain"] = doc["moves"][-1]["chain"] if doc["moves"] else None
    return doc


def test_there_are_golden_games_for_every_seat_count_and_ending() -> None:
    docs = [json.loads(path.read_text()) for path in GOLDEN_FILES]
    assert {len(d["client_seeds"]) for d in docs} == {2, 3, 4}
    reasons = {d["result"]["reason"] for d in docs}
    assert reasons == {"reach", "field-done", "resign", "timeout"}


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_games_verify(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    verdict = verify_document(doc)
    assert verdict.checked and verdict.ok, verdict.problems
    assert verdict.problems == ()
    assert doc["verdict"] == verdict.to_dict() == {"checked": True, "ok": True, "problems": []}
    assert len(verdict.checks) >= 6
    assert verdict.results and all(result.ok for result in verdict.results)
    assert {result.name for result in verdict.results} <= set(CHECK_NAMES)


def test_generate_script_reproduces_the_golden_files() -> None:
    script = runpy.run_path(str(GOLDEN / "generate.py"))
    games = script["games"]()
    assert sorted(f"{name}.json" for name in games) == [p.name for p in GOLDEN_FILES]
    for name, game in games.items():
        rendered = script["render"](script["document"](game))
        assert rendered == (GOLDEN / f"{name}.json").read_text(encoding="utf-8"), name


def _move(doc: Doc, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    move: dict[str, Any] = next(m for m in doc["moves"] if predicate(m))
    return move


def _flood(m: dict[str, Any]) -> bool:
    return len(m["opened"]) > 3


def _other_seed(doc: Doc) -> None:
    doc["seed"] = "ab" * 32


def _other_seed_and_commitment(doc: Doc) -> None:
    doc["seed"] = "ab" * 32
    doc["commitment"] = commitment(bytes.fromhex("ab" * 32))


def _other_client_seed(doc: Doc) -> None:
    doc["client_seeds"][0] = "alice-8"


def _number(doc: Doc) -> None:
    cell = _move(doc, _flood)["opened"][2]
    cell[2] = (cell[2] + 1) % 9


def _seat(doc: Doc) -> None:
    doc["moves"][5]["seat"] = 1 - doc["moves"][5]["seat"]


def _winner(doc: Doc) -> None:
    doc["result"] = {"reason": "reach", "winner": 0, "places": [1, 2]}


def _reason(doc: Doc) -> None:
    doc["result"]["reason"] = "field-done"


def _cut(doc: Doc) -> None:
    doc["moves"].pop()


def _cut_and_no_result(doc: Doc) -> None:
    del doc["moves"][-3:]
    doc["result"] = None


def _extra_move(doc: Doc) -> None:
    last = copy.deepcopy(doc["moves"][-1])
    last["n"] += 1
    doc["moves"].append(last)


def _dropped_cell(doc: Doc) -> None:
    _move(doc, _flood)["opened"].pop()


def _added_cell(doc: Doc) -> None:
    _move(doc, lambda m: m["result"] == "safe" and len(m["opened"]) == 1)["opened"].append(
        [15, 15, 0]
    )


def _reordered(doc: Doc) -> None:
    _move(doc, _flood)["opened"].reverse()


def _mine_called_safe(doc: Doc) -> None:
    move = _move(doc, lambda m: m["result"] == "mine")
    move.update(result="safe", flagged=[], opened=[[move["row"], move["col"], 1]])


def _flag_moved(doc: Doc) -> None:
    _move(doc, lambda m: m["result"] == "mine")["flagged"] = [[0, 0]]


def _published_field(doc: Doc) -> None:
    field = Field.from_strings(doc["field"])
    mine = min(field.mines)
    safe = next(c for c in range(256) if c not in field.mines)
    doc["field"] = Field.from_cells(16, 16, (field.mines - {mine}) | {safe}).to_strings()


def _field_digit(doc: Doc) -> None:
    doc["field"][0] = "9" + doc["field"][0][1:]


def _huge_field(doc: Doc) -> None:
    doc["field"] = ["0" * 2000] * 2000


def _renumbered(doc: Doc) -> None:
    doc["moves"][3]["n"] = 99


def _tap_on_open_cell(doc: Doc) -> None:
    first = doc["moves"][0]
    later = _move(doc, lambda m: m["n"] > 2 and m["seat"] == first["seat"])
    later.update(row=first["row"], col=first["col"])


def _protocol(doc: Doc) -> None:
    doc["protocol"] = "mineduel/v2"


def _active(doc: Doc) -> None:
    doc["status"] = "active"


def _bad_client_seed(doc: Doc) -> None:
    doc["client_seeds"][1] = "a|b"


def _mines(doc: Doc) -> None:
    doc["mines"] = 50


def _no_field(doc: Doc) -> None:
    doc["field"] = None


def _no_seed(doc: Doc) -> None:
    doc["seed"] = None


TAMPERINGS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("a changed seed", _other_seed, "SHA-256 of the seed is"),
    ("a changed seed with its commitment", _other_seed_and_commitment, "not the one the seeds"),
    ("a changed client seed", _other_client_seed, "not the one the seeds give"),
    ("a changed number", _number, "but it is"),
    ("a changed seat", _seat, "it was seat"),
    ("a changed winner", _winner, "the declared result is"),
    ("a changed reason", _reason, "the declared result is"),
    ("a cut-off log", _cut, "the rules do not end the game there"),
    ("a cut-off log without result", _cut_and_no_result, "the rules do not end the game there"),
    ("moves after the end", _extra_move, "the log goes on"),
    ("a cell left out of a flood", _dropped_cell, "should also have opened"),
    ("a cell added to a tap", _added_cell, "which the rules do not open"),
    ("a flood out of order", _reordered, "out of (row, col) order"),
    ("a mine logged as safe", _mine_called_safe, "but the cell is a mine"),
    ("a flag moved", _flag_moved, "but the rules flag"),
    ("a different published field", _published_field, "not the one the seeds give"),
    ("an impossible field digit", _field_digit, "published field is malformed"),
    ("an oversized published field", _huge_field, "the published field is not 16x16"),
    ("a renumbered move", _renumbered, "is numbered 99"),
    ("a tap on an open cell", _tap_on_open_cell, "already open"),
    ("another protocol", _protocol, "the protocol is"),
    ("a seed published early", _active, "not finished"),
    ("a client seed outside the alphabet", _bad_client_seed, "not allowed by the protocol"),
    ("another mine count", _mines, "with 51 mines"),
    ("no published field", _no_field, "field is not published"),
    ("no published seed", _no_seed, "seed is not published"),
]


@pytest.mark.parametrize(("name", "tamper", "expected"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_tampering_is_caught(name: str, tamper: Callable[[Doc], None], expected: str) -> None:
    doc = load("two-seats-reach")
    tamper(doc)
    verdict = verify_document(doc)
    assert verdict.checked
    assert not verdict.ok
    assert any(expected in problem for problem in verdict.problems), verdict.problems
    # Every problem is filed under exactly one check, and a check failed only with a problem.
    filed = [detail for result in verdict.failed for detail in result.details]
    assert sorted(filed) == sorted(verdict.problems)
    assert all(result.details for result in verdict.failed)
    assert len({result.name for result in verdict.results}) == len(verdict.results)


@pytest.mark.parametrize(
    ("tamper", "failed"),
    [
        (_other_seed, {"commitment", "field", "moves"}),
        (_winner, {"result"}),
        (_seat, {"moves"}),
        (_cut, {"end", "result", "seats"}),
        (_protocol, {"protocol"}),
        (_mines, {"settings", "field", "moves"}),
    ],
)
def test_each_problem_fails_its_own_check(tamper: Callable[[Doc], None], failed: set[str]) -> None:
    doc = load("two-seats-reach")
    tamper(doc)
    verdict = verify_document(rechained(doc))
    assert {result.name for result in verdict.failed} == failed, verdict.problems


def test_a_timeout_by_a_seat_not_to_move_is_caught() -> None:
    doc = load("two-seats-resign")
    last = doc["moves"][-1]
    assert last["action"] == "resign"
    last.update(action="timeout", seat=1 - last["seat"])
    problems = verify_document(doc).problems
    assert any(f"is by seat {last['seat']}, but it was seat" in p for p in problems), problems


def test_one_change_gives_one_problem() -> None:
    """Replay goes on after a wrong seat or outcome, so a single lie is reported once."""
    doc = load("two-seats-reach")
    _seat(doc)
    assert len(verify_document(rechained(doc)).problems) == 1
    doc = load("two-seats-reach")
    _winner(doc)
    assert len(verify_document(rechained(doc)).problems) == 1


def test_every_problem_is_reported_not_just_the_first() -> None:
    doc = load("four-seats-resign-then-reach")
    doc["commitment"] = "0" * 64
    doc["moves"][0]["seat"] = 3
    doc["result"]["places"] = [1, 1, 1, 1]
    problems = verify_document(rechained(doc)).problems
    assert len(problems) == 3
    assert [p.split()[0] for p in problems] == ["SHA-256", "move", "the"]


def test_unknown_keys_are_ignored() -> None:
    doc = load("three-seats-timeouts")
    doc["server_extra"] = {"anything": [1, 2]}
    for move in doc["moves"]:
        move["client"] = "web"
    assert all("at" in move for move in doc["moves"])
    assert verify_document(rechained(doc)).ok


def test_a_running_game_is_not_checked() -> None:
    verdict = verify_document({"status": "active", "seed": None, "moves": []})
    assert (verdict.checked, verdict.ok, verdict.problems) == (False, False, ())
    assert verdict.to_dict() == {"checked": False, "ok": False, "problems": []}


def test_build_document_never_publishes_the_seed_of_a_running_game() -> None:
    game = play_sample("running", 2, max_moves=5)
    assert not game.state.finished
    doc = game.document([{**m.to_dict(), "at": "2026-11-29T12:00:00Z"} for m in game.moves])
    assert doc["status"] == "active"
    assert doc["seed"] is None and doc["field"] is None
    assert game.seed.hex() not in json.dumps(doc)
    assert doc["verdict"] == {"checked": False, "ok": False, "problems": []}
    assert doc["moves"][0]["at"] == "2026-11-29T12:00:00Z"
    assert set(doc) >= {
        "game_id", "protocol", "variant", "status", "width", "height", "mines", "commitment",
        "seed", "client_seeds", "field", "moves", "result", "verdict",
    }  # fmt: skip


def test_build_document_of_a_finished_game_derives_the_field() -> None:
    game = play_sample("finished", 3)
    doc = build_document(
        game_id=game.game_id,
        settings=game.settings,
        commitment=game.commitment,
        client_seeds=game.client_seeds,
        moves=game.moves,
        status="finished",
        seed=game.seed,
        result=game.state.result,
    )  # no field given: derived from the seed
    assert doc["field"] == game.field.to_strings()
    assert doc["seed"] == game.seed.hex()
    assert doc["verdict"]["ok"] is True
    assert json.loads(json.dumps(doc)) == doc


def test_replay_raises_on_a_logged_outcome_the_rules_do_not_give() -> None:
    game = play_sample("replay", 2)
    moves = [m.to_dict() for m in game.moves]
    assert replay(game.settings, game.field, moves) == game.state
    moves[1]["opened"] = []
    with pytest.raises(ReplayMismatch, match="move 2"):
        replay(game.settings, game.field, moves)


MALFORMED: list[Any] = [
    [],
    "text",
    None,
    {},
    {"status": "finished"},
    {"status": "finished", "seed": 12},
    {"status": "finished", "seed": "zz" * 32, "client_seeds": "x"},
    {"status": "finished", "seed": "ab" * 32, "width": "16", "client_seeds": ["", ""]},
]


@pytest.mark.parametrize("doc", MALFORMED, ids=lambda d: repr(d)[:40])
def test_malformed_documents_give_problems_not_exceptions(doc: Any) -> None:
    verdict = verify_document(doc)
    assert verdict.checked and not verdict.ok and verdict.problems


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON)
def test_any_corruption_gives_a_verdict_never_an_exception(data: st.DataObject, value: Any) -> None:
    doc = load("two-seats-resign")
    if data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(doc)))
        doc[key] = value
    else:
        move = data.draw(st.sampled_from(doc["moves"]))
        move[data.draw(st.sampled_from(sorted(move)))] = value
    verdict = verify_document(doc)
    assert isinstance(verdict.ok, bool)
    assert verdict.ok or verdict.problems or not verdict.checked


# --- the optional deadline check ------------------------------------------------------------


def _shift(doc: Doc, index: int, seconds: int) -> None:
    """Move one move's ``at`` by ``seconds`` (and every later move with it)."""
    for move in doc["moves"][index:]:
        at = datetime.fromisoformat(move["at"]) + timedelta(seconds=seconds)
        move["at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_times_are_checked_when_present() -> None:
    verdict = verify_document(load("three-seats-timeouts"))
    assert verdict.ok
    assert any("by the move times" in check for check in verdict.checks)


def test_an_early_timeout_is_caught() -> None:
    doc = load("three-seats-timeouts")
    index = next(i for i, m in enumerate(doc["moves"]) if m["action"] == "timeout")
    _shift(doc, index, -3600)
    problems = verify_document(rechained(doc)).problems
    seat = doc["moves"][index]["seat"]
    # The golden timeout came 86405 s into the turn; an hour earlier is 82805 s.
    assert problems == (
        f"move {index + 1} times seat {seat} out 82805 s into its turn, "
        "before the 86400 s deadline",
    )


def test_a_late_tap_is_caught() -> None:
    doc = load("two-seats-reach")
    _shift(doc, 10, 86_400)
    assert verify_document(rechained(doc)).problems == (
        "move 11 came 86437 s into its turn, after the 86400 s deadline",
    )


def test_times_going_backwards_are_caught() -> None:
    doc = load("two-seats-reach")
    doc["moves"][7]["at"] = "2026-11-29T00:00:00Z"
    assert any("move 8 is dated before move 7" in p for p in verify_document(doc).problems)


def test_without_every_time_the_times_are_not_checked() -> None:
    doc = load("three-seats-timeouts")
    del doc["moves"][3]["at"]
    verdict = verify_document(rechained(doc))
    assert verdict.ok
    assert not any("by the move times" in check for check in verdict.checks)


def _safe_move(doc: Doc) -> dict[str, Any]:
    return next(m for m in doc["moves"] if m.get("action") == "tap" and m["opened"])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda m: m.update(row=bool(m["row"]) if m["row"] in (0, 1) else float(m["row"])), ""),
        (lambda m: m["opened"][0].__setitem__(2, float(m["opened"][0][2])), "malformed"),
        (lambda m: m["opened"][0].__setitem__(2, m["opened"][0][2] + 1), ""),
        (lambda m: m["opened"].append(list(m["opened"][0])), ""),
        (lambda m: m.update(points=0), ""),
        (lambda m: m.update(auto_opened=[[0, 0, 0]]), ""),
        (lambda m: m.update(result="mine"), ""),
        (lambda m: m.update(n=True), "malformed"),
    ],
)
def test_a_record_that_only_looks_equal_is_still_caught(
    change: Callable[[dict[str, Any]], None], words: str
) -> None:
    """Records that replay as logged take a fast path (no parsing): a record that differs,
    or holds a float or a bool where an integer belongs (equal as numbers), still goes the
    full way and fails."""
    doc = play_sample("fast-path", seats=2).document()
    assert verify_document(doc).ok
    tampered = copy.deepcopy(doc)
    change(_safe_move(tampered))
    verdict = verify_document(tampered)
    assert not verdict.ok
    assert words in " ".join(verdict.problems)
