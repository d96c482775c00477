"""The daily duel's fields (``mineduel_engine.daily``): day seeds from the month key, the field
id in the game key, docs/fairness.md's daily vectors, and what the verifier checks of a daily
game's document."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine import (
    Field,
    Settings,
    build_document,
    commitment,
    derive_mines,
    rules_for,
    verify_document,
)
from mineduel_engine.bot import choose_action
from mineduel_engine.daily import date_of_field_id, day_commitment, day_seed, field_id, is_date

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
MONTH_KEY = bytes.fromhex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")


def _doc_vectors() -> list[tuple[str, str, str, list[int], int]]:
    rows = re.findall(
        r"\| (\d{4}-\d{2}-\d{2}) \| `([0-9a-f]{64})` \| `([0-9a-f]{64})` \| ([\d ]+) \| (\d+) \|",
        DOC.read_text(encoding="utf-8"),
    )
    return [
        (d, s, c, [int(x) for x in first.split()], int(total)) for d, s, c, first, total in rows
    ]


def test_the_doc_publishes_daily_vectors() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"month key `{MONTH_KEY.hex()}`" in text
    assert f"month commitment `{commitment(MONTH_KEY)}`" in text
    assert len(_doc_vectors()) >= 3


@pytest.mark.parametrize("vector", _doc_vectors(), ids=lambda v: v[0])
def test_the_doc_daily_vectors(vector: tuple[str, str, str, list[int], int]) -> None:
    day, seed_hex, day_commit, first, total = vector
    expected = hmac.new(MONTH_KEY, f"mineduel/daily|{day}".encode(), hashlib.sha256).digest()
    assert day_seed(MONTH_KEY, day) == expected == bytes.fromhex(seed_hex)
    assert day_commitment(MONTH_KEY, day) == day_commit == commitment(expected)
    mines = derive_mines(expected, f"daily-{day}", ["", ""], 16, 16, 51)
    assert mines[:10] == first and sum(mines) == total


def test_the_doc_game_key_of_the_first_day() -> None:
    key = hmac.new(
        day_seed(MONTH_KEY, "2026-12-01"), b"mineduel/v1|daily-2026-12-01||", hashlib.sha256
    ).hexdigest()
    assert f"`{key}`" in DOC.read_text(encoding="utf-8")


def test_field_ids_and_dates() -> None:
    assert field_id("2026-12-01") == "daily-2026-12-01"
    assert date_of_field_id("daily-2026-12-01") == "2026-12-01"
    for bad in ("daily-2026-1-1", "game-2026-12-01", 7, None, "daily-"):
        assert date_of_field_id(bad) is None
    assert is_date("2026-12-01") and not is_date("2026/12/01") and not is_date(20261201)


def daily_document(day: str, moves_played: int | None = None, **changes: Any) -> dict[str, Any]:
    """A daily game of ``day`` played by the hard bot on both seats, as the service documents
    it once the day and the month are over."""
    seed = day_seed(MONTH_KEY, day)
    settings = Settings.for_variant("mine-duel", 2)
    field = Field.from_seed(seed, field_id(day), ["", ""], 16, 16, 51)
    rules = rules_for("mine-duel")
    state = rules.new_game(settings)
    moves = []
    while not state.finished and (moves_played is None or len(moves) < moves_played):
        chosen = choose_action(state, commitment(seed), "hard")
        state, move = rules.play(state, field, state.turn, chosen.action, chosen.row, chosen.col)
        moves.append(move)
    daily = {
        "date": day,
        "month": day[:7],
        "month_commitment": commitment(MONTH_KEY),
        "month_key": MONTH_KEY.hex(),
    }
    doc = build_document(
        game_id="6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70",
        settings=settings,
        commitment=commitment(seed),
        client_seeds=["", ""],
        moves=moves,
        status="finished" if state.finished else "active",
        seed=seed,
        result=state.result,
        state=state,
        field_id=field_id(day),
        daily=daily,
    )
    doc.update(changes)
    return doc


def test_a_daily_document_verifies_with_the_month_key() -> None:
    doc = daily_document("2026-12-02")
    assert doc["field_id"] == "daily-2026-12-02" and doc["verdict"]["ok"], doc["verdict"]
    verdict = verify_document(doc)
    assert any("month key" in check for check in verdict.checks)
    # The same game id with the game id in the key would be another field: the field id counts.
    other = Field.from_seed(day_seed(MONTH_KEY, "2026-12-02"), doc["game_id"], ["", ""], 16, 16, 51)
    assert other.to_strings() != doc["field"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"field_id": "daily-2026-12-03"}, "the daily object names"),
        ({"field_id": "today"}, "not a daily field id"),
        ({"client_seeds": ["x", ""]}, "client seeds must all be empty"),
        ({"daily": None}, "must carry its daily object"),
        ({"daily_key": "00" * 32}, "month key"),
        ({"daily_commitment": "00" * 32}, "month's commitment was"),
    ],
)
def test_each_daily_tampering_is_named(change: dict[str, Any], problem: str) -> None:
    doc = daily_document("2026-12-02")
    if "daily_key" in change:
        doc["daily"] = {**doc["daily"], "month_key": change["daily_key"]}
    elif "daily_commitment" in change:
        doc["daily"] = {**doc["daily"], "month_commitment": change["daily_commitment"]}
    else:
        doc.update(change)
    verdict = verify_document(doc)
    assert not verdict.ok
    assert any(problem in p for p in verdict.problems), verdict.problems


def test_a_finished_daily_game_is_not_checked_until_its_day_is_over() -> None:
    doc = daily_document("2026-12-02")
    hidden = {**doc, "seed": None, "field": None}
    verdict = verify_document(hidden)
    assert (verdict.checked, verdict.ok, verdict.problems) == (False, False, ())
    assert "published when the day ends" in (verdict.unchecked_because or "")
