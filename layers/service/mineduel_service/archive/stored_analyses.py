"""A finished game's analysis, computed once and kept (docs/analysis.md): what the analysis
route, the share page and fair-play screening (``fairplay``) all read.

The engine computes it (``mineduel_engine.analysis``) from the game's Verification document,
the very document anybody can fetch and analyse offline with ``mineduel analyze --game``: so the
numbers served and the numbers recomputed are the same. It is computed on the first read after
the game ends (a second or so of CPU for the longest games, bounded per position), and stored:
``ANALYSIS#<game id>`` / ``ANALYSIS``, the JSON zlib-compressed (a few KB).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from mineduel_engine.analysis import AnalysisError, analyze_document

from ..games import store
from ..games.record import GameRecord
from ..platform import clock, dynamo, keys
from ..platform.observability import count, logger
from .documents import document

COMPRESSION = 9


def stored_or_computed(record: GameRecord) -> dict[str, Any] | None:
    """The finished game's analysis: the stored one, else computed now and stored. None while
    the game's seed is still secret (a daily game before its day is over)."""
    stored = stored_analysis(record.game_id)
    if stored is not None:
        return stored
    if record.status != "finished" or record.seed_hex is None:
        return None
    doc = document(record, store.list_moves(record.game_id))
    try:
        result = analyze_document(doc)
    except AnalysisError as exc:  # a stored game that does not replay: a bug, never input
        logger.error("analysis failed", extra={"game_id": record.game_id, "error": str(exc)})
        raise
    _store(record.game_id, result)
    count("AnalysesComputed")
    return result


def stored_analysis(game_id: str) -> dict[str, Any] | None:
    """The stored analysis of ``game_id``, if any (one consistent read)."""
    item = dynamo.get(keys.analysis(game_id))
    if not item:
        return None
    found: dict[str, Any] = json.loads(zlib.decompress(bytes(item["body"]["B"])).decode("utf-8"))
    return found


def _store(game_id: str, result: dict[str, Any]) -> None:
    """Keep the analysis; a copy stored meanwhile by a concurrent request is the same, and stays."""
    body = zlib.compress(json.dumps(result, separators=(",", ":")).encode("utf-8"), COMPRESSION)
    dynamo.put_new(
        {
            **keys.analysis(game_id),
            "body": {"B": body},
            "analysis": {"S": str(result.get("analysis", ""))},
            "created_at": {"S": clock.iso(clock.now())},
        }
    )
