"""The move log as a hash chain: each move carries ``chain``, the SHA-256 of the previous
move's chain value and this move's public record, starting from the game's commitment.

A client that saved any chain value while the game ran can later prove that no move up to it
was changed, removed or inserted, long before the seed is out: the values are published with
the moves as they are played. The chain covers each move's record as everybody may see it
while the game runs (a windows-duel wrong guess without its cell, which only its seat knows
then): a hash of the full record would let anyone try the few covered cells and find where the
guess was. What a wrong guess hides is checked at the end by replaying the game on the field.

``link(previous, move)``: ``previous`` is the commitment for move 1, else the chain value of
the move before; the message is the 32 bytes of ``previous`` followed by the canonical JSON of
the public record (keys sorted, no spaces, UTF-8) without its ``chain`` field.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

CHAIN_FIELD = "chain"


def public_record(move: Mapping[str, Any]) -> dict[str, Any]:
    """The record the chain covers: everything but ``chain``, and a wrong guess's cell hidden
    (as every other viewer sees it while the game runs)."""
    record = {k: v for k, v in move.items() if k != CHAIN_FIELD}
    if record.get("action") == "guess" and record.get("result") == "miss":
        record["row"] = record["col"] = None
    return record


def canonical(record: Mapping[str, Any]) -> bytes:
    """The record's bytes as the chain hashes them."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def link(previous: str, move: Mapping[str, Any]) -> str:
    """The chain value of ``move`` after the chain value (or commitment) ``previous``."""
    return hashlib.sha256(bytes.fromhex(previous) + canonical(public_record(move))).hexdigest()


def chained(previous: str, moves: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``moves`` with their chain values, the first following ``previous``."""
    out = []
    for move in moves:
        previous = link(previous, move)
        out.append({**move, CHAIN_FIELD: previous})
    return out


def broken_links(commitment: str, moves: Sequence[Mapping[str, Any]]) -> list[int]:
    """The move numbers (``n``) whose chain value is not what the log before them gives."""
    previous, broken = commitment, []
    for move in moves:
        try:
            expected = link(previous, move)
        except (ValueError, TypeError):
            expected = ""
        given = move.get(CHAIN_FIELD)
        if given != expected:
            broken.append(int(move.get("n", 0)) if isinstance(move.get("n"), int) else 0)
        previous = given if isinstance(given, str) and _is_hex(given) else expected
    return broken


def _is_hex(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False
