"""A finished game's analysis, computed once and kept (docs/analysis.md): what the analysis
route, the share page and fair-play screening (``fairplay``) all read.

The engine computes it (``mineduel_engine.analysis``) from the game's Verification document,
the very document anybody can fetch and analyse offline with ``mineduel analyze --game``: so the
numbers served and the numbers recomputed are the same. It is computed on the first read after
the game ends (a second or so of CPU for the longest games, bounded per position), and stored:
``ANALYSIS#<game id>`` / ``ANALYSIS``, the JSON zlib-compressed (a few KB; ``store``).
"""

from __future__ import annotations

from typing import Any

from mineduel_engine.analysis import AnalysisError, analyze_document

from ..games import store
from ..games.record import GameRecord
from ..platform import clock
from ..platform.observability import count, logger
from .documents import document
from .store import keep_analysis, stored_analysis


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
    keep_analysis(record.game_id, result, clock.iso(clock.now()))
    count("AnalysesComputed")
    return result
