"""The move log's hash chain: the test vector of docs/fairness.md, a broken link is found and
named by the verifier, and a wrong guess's cell does not change (so cannot be read from) it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from mineduel_engine import verify_document
from mineduel_engine.chain import broken_links, chained, link

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
    doc["moves"] = chained(doc["commitment"], doc["moves"])
    return doc


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
