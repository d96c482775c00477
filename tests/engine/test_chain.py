"""The move log's hash chain: the test vector of docs/fairness.md, a broken link is found and
named by the verifier, a log cut short is refused from its head alone, and a wrong guess's cell
does not change (so cannot be read from) it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine import verify_document
from mineduel_engine.chain import broken_links, chained, link
from mineduel_engine.sample_games import play_sample

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
COMMITMENT = "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _vector_rows() -> list[tuple[dict[str, Any], str]]:
    text = DOC.read_text()
    section = text[text.index("## The move log's hash chain") :]
    rows = re.findall(r"^\| \d+ \| `(\{.*\})` \| `([0-9a-f]{64})` \|$", section, re.M)
    return [(json.loads(record), chain) for record, chain in rows]


def test_the_published_vector() -> None:
    rows = _vector_rows()
    assert len(rows) == 2
    previous = COMMITMENT
    for record, expected in rows:
        previous = link(previous, record)
        assert previous == expected
    # The logged wrong guess names its cell; the chain is the same whatever the cell.
    guess = {**rows[1][0], "row": 5, "col": 5}
    assert link(rows[0][1], guess) == rows[1][1]
    assert link(rows[0][1], {**guess, "row": 0, "col": 9}) == rows[1][1]


def _finished_document() -> dict[str, Any]:
    path = sorted(GOLDEN.glob("*.json"))[0]
    doc: dict[str, Any] = json.loads(path.read_text())
    assert doc["moves"] == chained(doc["commitment"], doc["moves"])  # as the server publishes
    assert (doc["move_count"], doc["chain"]) == (len(doc["moves"]), doc["moves"][-1]["chain"])
    return doc


def _failed(doc: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    return {r.name: r.details for r in verify_document(doc).failed}


def test_a_chained_log_verifies_and_every_break_is_named() -> None:
    doc = _finished_document()
    verdict = verify_document(doc)
    assert verdict.ok, verdict.problems
    assert any("chain" in check for check in verdict.checks)
    assert broken_links(doc["commitment"], doc["moves"]) == []

    altered = copy.deepcopy(doc)
    altered["moves"][2]["at"] = "2020-01-01T00:00:00Z"  # a record changed after the fact
    assert broken_links(doc["commitment"], altered["moves"]) == [3]
    assert any("hash chain breaks at move 3" in p for p in verify_document(altered).problems)

    dropped = copy.deepcopy(doc)
    del dropped["moves"][1]  # a move removed: the next link no longer follows
    assert 3 in broken_links(doc["commitment"], dropped["moves"])

    forged = copy.deepcopy(doc)
    forged["moves"][0]["chain"] = "00" * 32
    assert broken_links(doc["commitment"], forged["moves"]) == [1, 2]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_cut_of_a_log_fails_on_its_head(path: Path) -> None:
    """Drop any number of moves from the end: every remaining link still holds, and the head
    (``move_count``, ``chain``) refuses the document on its own, whatever the replay says."""
    doc: dict[str, Any] = json.loads(path.read_text())
    total = len(doc["moves"])
    for kept in range(total):
        cut = {**doc, "moves": doc["moves"][:kept]}
        assert broken_links(cut["commitment"], cut["moves"]) == []
        failed = _failed(cut)
        assert "chain" not in failed
        assert failed["chain-head"][0] == (
            f"the document says the game has {total} moves, but its log has {kept}; "
            "moves are missing from its end"
        ), failed


def test_a_head_edited_to_fit_the_cut_is_caught_by_the_replay() -> None:
    doc = _finished_document()
    cut = copy.deepcopy(doc)
    del cut["moves"][-3:]
    cut["move_count"], cut["chain"] = len(cut["moves"]), cut["moves"][-1]["chain"]
    failed = _failed(cut)
    assert "chain" not in failed and "chain-head" not in failed
    assert "the rules do not end the game there" in failed["end"][0]


def test_a_head_that_is_not_the_last_link_is_named() -> None:
    doc = _finished_document()
    other = {**doc, "chain": doc["moves"][-2]["chain"]}
    (problem,) = _failed(other)["chain-head"]
    assert "the log does not end where it says" in problem
    assert _failed({**doc, "chain": None})["chain-head"] == (
        f"the chain head is null, but the log has {len(doc['moves'])} moves",
    )
    assert _failed({**doc, "move_count": len(doc["moves"]) - 1})["chain-head"] == (
        f"the document says the game has {len(doc['moves']) - 1} moves, but its log has "
        f"{len(doc['moves'])}",
    )
    headless = {k: v for k, v in doc.items() if k not in ("chain", "move_count")}
    assert "no move_count and chain" in _failed(headless)["chain-head"][0]


def test_a_log_without_chain_values_has_only_its_count_checked() -> None:
    """Documents of logs published before the chain: no head to check, the count still is."""
    game = play_sample("unchained", 2)
    doc = game.document()  # its moves as the engine logs them: no chain values
    assert (doc["move_count"], doc["chain"]) == (len(game.moves), None)
    assert verify_document(doc).ok
    old = {k: v for k, v in doc.items() if k not in ("chain", "move_count")}
    assert verify_document(old).ok
    assert "chain-head" in _failed({**doc, "chain": "00" * 32})


def test_a_running_game_cut_short_is_refused_before_its_seed_is_out() -> None:
    """While the seed is secret nothing can be replayed, but the chain and its head can be
    checked: an intact running document is "not checked yet", a cut one is wrong."""
    game = play_sample("running-chain", 2, max_moves=12)
    assert not game.state.finished
    records = [{**m.to_dict(), "at": "2026-11-29T12:00:00Z"} for m in game.moves]
    doc = game.document(chained(game.commitment, records))
    assert doc["status"] == "active" and doc["move_count"] == 12
    assert verify_document(doc).checked is False
    cut = {**doc, "moves": doc["moves"][:-1]}
    verdict = verify_document(cut)
    assert verdict.checked and not verdict.ok
    assert {r.name for r in verdict.failed} == {"chain-head"}
    assert verdict.problems[0].startswith("the document says the game has 12 moves, but its log")
    changed = copy.deepcopy(doc)
    changed["moves"][3]["row"] = (changed["moves"][3]["row"] + 1) % 16
    assert {r.name for r in verify_document(changed).failed} == {"chain"}
