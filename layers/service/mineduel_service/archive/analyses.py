"""``GET /v1/games/{game_id}/analysis``: luck against skill in a finished game (docs/analysis.md).

The analysis is computed once, on the first request after the game ends, and kept
(``stored_analyses``); later requests, the share page's chart and fair-play screening read the
stored copy.

A daily game's analysis waits until its day is over: until then its seed is secret, so its
document cannot be replayed by anyone, the server included.
"""

from __future__ import annotations

from typing import Any

from ..games.current import existing
from ..games.errors import GameNotFinished
from .errors import DayNotOver
from .store import stored_analysis
from .stored_analyses import stored_or_computed

__all__ = ["game_analysis", "stored_analysis", "stored_or_computed"]


def game_analysis(game_id: str) -> dict[str, Any]:
    """The route: ``GameNotFinished`` before the end (``DayNotOver`` for a daily game whose
    day is still running), else the stored analysis, computed first if need be."""
    record = existing(game_id)
    if record.status != "finished":
        raise GameNotFinished(f"The game is {record.status}; its analysis comes at the end.")
    found = stored_or_computed(record)
    if found is None:
        raise DayNotOver(
            f"This daily game's field is the whole day's: its analysis comes when {record.daily} "
            "is over."
        )
    return found
